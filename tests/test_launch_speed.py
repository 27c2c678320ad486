"""The fast paths of the launch path (src/py/config.c, argclass.c, launch.c)
give the same answers as the slow ones.

* A dispatcher keeps its last four launch configurations and finds them
  again by the subscript's items: the same ints, tuples of ints and stream
  object give the same Launcher; anything that might have changed (a list,
  another stream) is parsed again.
* NumPy scalars are read from the object once the buffer protocol agreed
  on where the value is; every dtype must still arrive exactly.
* Signatures alternate without mixing up kernels (the last key found is
  compared before hashing).
* Through the fake driver (tests/fake_cuda): __cuda_array_interface__
  objects of several dtypes, typestr spellings cached, device arrays and
  scalars packed into the parameter buffer.

None of this is timed: bench/bench_launch.py measures (`--fake` for the
host-side cost without a GPU).
"""

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ON_GPU
from test_runtime import run_fake, FAKE_SRC  # noqa: F401  (helpers, not tests)


@cuda.jit
def fill(out, v):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = v


@cuda.jit
def add3(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


def test_configuration_is_kept_and_found_by_value():
    L = fill[4, 256]
    assert fill[4, 256] is L
    blocks, threads = 2 + 2, 128 * 2        # ints made at run time, not the constants
    assert fill[blocks, threads] is L
    assert fill[(4,), (256,)].griddim == (4, 1, 1)
    assert fill[(4, 1), 256] is L            # another spelling of the same values: parsed, found
    assert fill[(4, 1), 256].griddim == (4, 1, 1)
    assert fill[4, 256] is L
    assert fill[4, 128] is not L and fill[4, 128].blockdim == (128, 1, 1)


def test_four_configurations_alternate():
    ls = [fill[g, 32] for g in (1, 2, 3, 4)]
    for _ in range(3):
        for g, L in zip((1, 2, 3, 4), ls):
            assert fill[g, 32] is L and L.griddim == (g, 1, 1)
    fill[5, 32]                              # a fifth one pushes the oldest out
    assert fill[5, 32].griddim == (5, 1, 1)
    assert fill[1, 32].griddim == (1, 1, 1)


def test_mutable_and_numpy_dims_are_parsed_again():
    g = [2]
    assert fill[g, 32].griddim == (2, 1, 1)
    g[0] = 3
    assert fill[g, 32].griddim == (3, 1, 1)
    assert fill[np.int64(6), np.int32(64)].griddim == (6, 1, 1)
    assert fill[np.int64(6), np.int32(64)].blockdim == (64, 1, 1)
    with pytest.raises(ValueError):
        fill[0, 32]
    with pytest.raises(TypeError):
        fill[True, 32]


def test_streams_and_shared_memory_in_the_configuration():
    s1, s2 = cuda.stream(), cuda.stream()
    a = fill[2, 32, s1]
    assert fill[2, 32, s1] is a and a.stream is s1
    b = fill[2, 32, s2]
    assert b is not a and b.stream is s2
    c = fill[2, 32, s1, 64]
    assert c.sharedmem == 64 and fill[2, 32, s1, 64] is c
    assert fill[2, 32, s1, 128].sharedmem == 128
    assert fill[2, 32, 0].stream == 0 and fill[2, 32, None].stream is None
    out = np.zeros(64, np.float32)
    fill[2, 32, s1](out, 7.0)
    s1.synchronize()
    assert (out == 7).all()


def test_launch_results_through_kept_launchers():
    out = np.zeros(1000, np.float64)
    L = fill[4, 256]
    for v in (1.0, 2.5, -3.0):
        fill[4, 256](out, v)
        assert (out == v).all()
    L(out, 9.0)
    assert (out == 9).all()


SCALARS = [np.bool_(True), np.int8(-7), np.int16(-300), np.int32(-70000), np.int64(-2**40),
           np.uint8(250), np.uint16(65000), np.uint32(4000000000), np.uint64(2**64 - 1),
           np.float32(2.25), np.float64(-1e300), np.complex64(1 + 2j),
           np.complex128(-3 - 4j), 5, 2.5, True, 1 + 1j]


@pytest.mark.parametrize("v", SCALARS, ids=lambda v: type(v).__name__)
def test_scalar_arguments_arrive_exactly(v):
    dtype = np.asarray(v).dtype
    if isinstance(v, bool):
        dtype = np.dtype(np.bool_)
    out = np.zeros(4, dtype)
    for _ in range(3):                       # the first read checks, the next ones read directly
        out[:] = 0
        fill[1, 32](out, v)
        assert (out == v).all(), (out, v)


def test_scalar_of_another_value_same_type():
    out = np.zeros(8, np.float32)
    for v in np.linspace(-2, 2, 9).astype(np.float32):
        fill[1, 32](out, v)
        assert (out == v).all()


def test_signatures_alternate():
    for _ in range(3):
        for dt in (np.float32, np.float64, np.int32, np.complex64):
            a = np.arange(16).astype(dt)
            c = np.zeros(16, dt)
            add3[1, 32](a, a, c)
            np.testing.assert_array_equal(c, a + a)
            out = np.zeros(3, dt)
            fill[1, 32](out, dt(3))
            assert (out == 3).all()


def test_device_and_host_arrays_mixed():
    a = cuda.to_device(np.arange(100, dtype=np.float32))
    b = np.ones(100, np.float32)
    c = cuda.device_array(100, np.float32)
    for _ in range(3):
        add3[1, 128](a, b, c)
        np.testing.assert_array_equal(c.copy_to_host(), np.arange(100) + 1)
        add3[1, 128](b, a, c)
        np.testing.assert_array_equal(c.copy_to_host(), np.arange(100) + 1)


def test_errors_still_name_the_argument():
    with pytest.raises(TypeError, match="argument 2 .'v'. is a string"):
        fill[1, 32](np.zeros(4), "x")
    with pytest.raises(TypeError, match="kernel 'fill' takes 2 arguments"):
        fill[1, 32](np.zeros(4))
    with pytest.raises(ValueError, match="non-contiguous"):
        fill[1, 32](np.zeros((4, 4))[:, 1], 1.0)


# ------------------------------------------------------ fake driver (GPU path)

@pytest.fixture(scope="module")
def fake_lib(tmp_path_factory):
    import shutil
    import subprocess
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler to build the fake driver")
    out = str(tmp_path_factory.mktemp("fake_cuda_speed") / "libcuda_fake.so")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-pthread", "-o", out, FAKE_SRC], check=True)
    return out


@pytest.mark.skipif(ON_GPU, reason="runs its own child on the fake driver")
def test_fake_cai_objects_of_several_dtypes(fake_lib, tmp_path):
    res = run_fake("""
        class CAI:
            def __init__(self, d, strides=None):
                self.__cuda_array_interface__ = dict(d.__cuda_array_interface__)
                if strides is not None:
                    self.__cuda_array_interface__["strides"] = strides
        @cuda.jit
        def k(x, y):
            i = cuda.grid(1)
            if i < y.size:
                y[i] = x[i]
        out = []
        for _ in range(2):
            for dt in ("float32", "float64", "int16", "uint8", "complex64", "float32"):
                x = cuda.to_device(np.arange(12, dtype=dt))
                y = cuda.device_array(12, dt)
                k[1, 32](CAI(x), CAI(y, (x.dtype.itemsize,)))
                grid, block, raw, entry = last_launch()
                kern = [kk for sig, kk in k.overloads.items() if sig[0].startswith(dt)][0]
                got = {(r, a, d): v for r, a, d, v in params(kern, raw)}
                out.append([dt, entry == kern.entry, got[("data", 0, 0)] == x._ptr,
                            got[("data", 1, 0)] == y._ptr, got[("extent", 0, 0)]])
        result["rows"] = out
        result["sigs"] = sorted(" ".join(s) for s in k.signatures)
    """, fake_lib, tmp_path)
    assert "raised" not in res, res
    for dt, entry_ok, px, py, n in res["rows"]:
        assert entry_ok and px and py and n == 12, (dt, entry_ok, px, py, n)
    assert len(res["sigs"]) == 5, res["sigs"]
    assert "int16[::1] int16[::1]" in res["sigs"]


@pytest.mark.skipif(ON_GPU, reason="runs its own child on the fake driver")
def test_fake_kept_launcher_and_scalars_packed(fake_lib, tmp_path):
    res = run_fake("""
        @cuda.jit
        def k(a, b, c, s, t):
            i = cuda.grid(1)
            if i < c.size:
                c[i] = s * a[i] + b[i] * t
        a = cuda.to_device(np.ones(64, np.float32))
        b = cuda.to_device(np.ones(64, np.float32))
        c = cuda.device_array(64, np.float32)
        n0 = get("launches")
        rows = []
        for j in range(5):
            k[2, 32](a, b, c, 2.0 + j, np.float32(j))
            grid, block, raw, entry = last_launch()
            kern = next(iter(k.overloads.values()))
            got = {(r, a_, d): v for r, a_, d, v in params(kern, raw)}
            rows.append([grid, block, got[("scalar", 3, 0)], got[("scalar", 4, 0)]])
        result["rows"] = rows
        result["launches"] = get("launches") - n0
        result["nsig"] = len(k.signatures)
    """, fake_lib, tmp_path)
    assert "raised" not in res, res
    assert res["launches"] == 5 and res["nsig"] == 1
    for j, (grid, block, s, t) in enumerate(res["rows"]):
        assert grid == [2, 1, 1] and block == [32, 1, 1]
        assert s == 2.0 + j and t == j
