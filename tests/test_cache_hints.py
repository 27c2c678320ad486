"""Loads and stores with a cache operator (cuda.ldca, ldcg, ldcs, ldlu, ldcv;
cuda.stcg, stcs, stwb, stwt) on random data of every integer and float
type, 1d and 2d, with negative indices that wrap as a[i] does; the PTX
instruction each gives (ld.global.cs.b32, ...), which ptxas accepts; and
the errors of a wrong array, index or element type, at the line of the call.
"""

import os
import shutil
import subprocess

import numpy as np
import pytest

from ptxjit import cuda, types
from ptxjit.errors import TypingError

LOADS = {"ldca": "ca", "ldcg": "cg", "ldcs": "cs", "ldlu": "lu", "ldcv": "cv"}
STORES = {"stcg": "cg", "stcs": "cs", "stwb": "wb", "stwt": "wt"}
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64]
PTXAS = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas")
                                  else None)


def random_values(rng, dt, shape):
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    return (rng.standard_normal(shape) * 100).astype(dt)


def load_kernel(op):
    fn = getattr(cuda, op)

    @cuda.jit
    def k(r, x):
        # r[i] = x[-1 - i], read through the cache operator
        i = cuda.grid(1)
        if i < r.size:
            r[i] = fn(x, -1 - i)
    return k


def store_kernel(op):
    fn = getattr(cuda, op)

    @cuda.jit
    def k(r, x):
        i = cuda.grid(1)
        if i < r.size:
            fn(r, -1 - i, x[i])
    return k


def asm_lines(k, word):
    return [ln.strip() for ln in k.inspect_asm(signature=k.signatures[-1]).splitlines() if word in ln]


def assembles(ptx, tmp_path):
    if not PTXAS:
        return True
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    p = subprocess.run([PTXAS, "-arch=sm_90", str(src), "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return True


@pytest.mark.parametrize("op", list(LOADS))
def test_loads_every_type(rng, op, tmp_path):
    k = load_kernel(op)
    for dt in DTYPES:
        x = random_values(rng, dt, 70)
        r = np.zeros_like(x)
        k[2, 64](r, x)
        np.testing.assert_array_equal(r, x[::-1])
        bits = 8 * np.dtype(dt).itemsize
        assert any("ld.global.%s.b%d " % (LOADS[op], bits) in ln for ln in asm_lines(k, "ld.global")), (op, dt)
        assembles(k.inspect_asm(signature=k.signatures[-1]), tmp_path)


@pytest.mark.parametrize("op", list(STORES))
def test_stores_every_type(rng, op, tmp_path):
    k = store_kernel(op)
    for dt in DTYPES:
        x = random_values(rng, dt, 70)
        r = np.zeros_like(x)
        k[2, 64](r, x)
        np.testing.assert_array_equal(r, x[::-1])
        bits = 8 * np.dtype(dt).itemsize
        assert any("st.global.%s.b%d " % (STORES[op], bits) in ln for ln in asm_lines(k, "st.global")), (op, dt)
        assembles(k.inspect_asm(signature=k.signatures[-1]), tmp_path)


@cuda.jit
def copy_2d(r, x, c):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        # a float value stored into an integer array converts, as r[i, j] = v
        cuda.stcs(r, (i, j), cuda.ldcg(x, (i, j)) + c)


@pytest.mark.parametrize("dt", [np.int16, np.float32, np.float64])
def test_2d_tuple_index_and_conversion(rng, dt):
    x = random_values(rng, dt, (13, 9)) // 2
    for layout in ("C", "F", "A"):
        xs = np.asfortranarray(x) if layout == "F" else x[::2] if layout == "A" else x
        arg = cuda.to_device(x)[::2] if layout == "A" else xs
        r = np.zeros(xs.shape, dt)
        copy_2d[(2, 2), (8, 8)](r, arg, 1.75)
        np.testing.assert_array_equal(r, (xs + 1.75).astype(dt))


@cuda.jit
def hinted_then_plain(r, x):
    # the hinted load and the plain one of the same element stay two loads
    i = cuda.grid(1)
    if i < r.size:
        r[i] = cuda.ldcv(x, i) + x[i]


def test_hint_kept_beside_a_plain_load(rng):
    x = random_values(rng, np.float32, 40)
    r = np.zeros_like(x)
    hinted_then_plain[1, 64](r, x)
    np.testing.assert_array_equal(r, x + x)
    lines = asm_lines(hinted_then_plain, "ld.global")
    assert any("ld.global.cv.b32" in ln for ln in lines)


def compile_fails(fn, sig, fragment, line_of):
    with pytest.raises(TypingError) as ei:
        cuda.compile_ptx(fn, sig)
    msg = str(ei.value)
    assert fragment in msg
    assert "test_cache_hints.py:%d:" % line_of in msg
    assert "hint:" in msg


def test_errors():
    def float_index(x):
        cuda.ldcs(x, 1.0)

    def long_index(x):
        cuda.ldcs(x, (1, 2))

    def scalar_2d(x):
        cuda.ldca(x, 1)

    def short_2d(x):
        cuda.stwb(x, (1,), 2.0)

    def complex_elems(r, x):
        r[0] = cuda.ldcs(x, 0)

    def not_an_array(x):
        cuda.ldcs(x[0], 0)

    def shared(x):
        s = cuda.shared.array(4, np.float32)
        x[0] = cuda.ldcs(s, 0)

    def readonly(x):
        cuda.stcs(x, 0, 1.0)

    first = float_index.__code__.co_firstlineno
    compile_fails(float_index, (types.float32[::1],), "float64 is not a valid index", first + 1)
    compile_fails(long_index, (types.float32[::1],), "Expected 1 indices, got 2", long_index.__code__.co_firstlineno + 1)
    compile_fails(scalar_2d, (types.float32[:, ::1],), "Expected 2 indices, got a scalar",
                  scalar_2d.__code__.co_firstlineno + 1)
    compile_fails(short_2d, (types.float32[:, ::1],), "Expected 2 indices, got 1", short_2d.__code__.co_firstlineno + 1)
    compile_fails(complex_elems, (types.complex64[::1], types.complex64[::1]),
                  "ldcs requires array of integer or float type, got complex64",
                  complex_elems.__code__.co_firstlineno + 1)
    compile_fails(not_an_array, (types.float32[::1],), "ldcs operates on arrays or pointers, not float32",
                  not_an_array.__code__.co_firstlineno + 1)
    compile_fails(shared, (types.float32[::1],), "cuda.ldcs() reads global memory, and this array is in shared memory",
                  shared.__code__.co_firstlineno + 2)
    compile_fails(readonly, (types.Array(types.float32, 1, "C", readonly=True),),
                  "cuda.stcs() cannot change a read-only array", readonly.__code__.co_firstlineno + 1)


def test_host_call_says_kernel_only():
    with pytest.raises(RuntimeError, match="inside a @cuda.jit kernel"):
        cuda.ldcs(np.zeros(2), 0)
