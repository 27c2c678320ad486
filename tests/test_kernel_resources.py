"""A compiled kernel's resources (get_regs_per_thread() and the others,
and the same attributes of kernel.overloads[sig]) and its type annotation
(kernel.overloads[sig]._type_annotation), as Numba has them.  On the GPU
the driver answers; on the simulator the compiled code does: shared,
constant and local memory exactly, the threads a block may have from
launch_bounds or the device limit, and registers as an estimate
(docs/simulator.md).  Runs on the simulator, and on the GPU with
PTXJIT_TEST_GPU=1."""

import math

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.types import boolean, float32, float64, int32, int64, void

from conftest import ON_GPU

N = 1000
TABLE = np.arange(32, dtype=np.int64) * 7 - 50


@cuda.jit
def smem(out):
    a = cuda.shared.array(100, dtype=out.dtype)
    b = cuda.shared.array((2, 3), dtype=np.float64)
    i = cuda.threadIdx.x
    a[i] = i
    if i < 6:
        b[i // 3, i % 3] = 2 * i
    cuda.syncthreads()
    out[i] = a[99 - i] + b[i % 2, i % 3]


@cuda.jit
def lmem(out):
    lm = cuda.local.array(N, dtype=out.dtype)
    for j in range(N):
        lm[j] = j * 3 % 17
    for j in range(N):
        out[j] = lm[(j * 7) % N]


@cuda.jit("void(int64[::1])")
def cmem(out):
    c = cuda.const.array_like(TABLE)
    i = cuda.grid(1)
    out[i] = c[i]


@cuda.jit
def printing(val, to_print):
    if to_print:
        print(val)


@cuda.jit
def pi_sin(x, n):
    i = cuda.grid(1)
    if i < n:
        x[i] = 3.14 * math.sin(x[i])


@cuda.jit(launch_bounds=(128,))
def bounded(x):
    x[cuda.grid(1)] += 1


def test_shared_memory_is_the_static_arrays(rng):
    for dt, size in ((np.float32, 4), (np.float64, 8)):
        out = np.zeros(100, dt)
        smem[1, 100](out)
        i = np.arange(100)
        b = (2 * np.arange(6)).reshape(2, 3).astype(np.float64)
        np.testing.assert_array_equal(out, (99 - i + b[i % 2, i % 3]).astype(dt))
    f32, f64 = void(float32[::1]), void(float64[::1])
    assert smem.get_shared_mem_per_block(f32) == 100 * 4 + 6 * 8
    assert smem.get_shared_mem_per_block(f64) == 100 * 8 + 6 * 8
    every = smem.get_shared_mem_per_block()
    assert every[f32.args] == every[("float32[::1]",)] == 448
    assert smem.overloads[f64.args].shared_mem_per_block == 848


def test_local_memory_is_the_local_arrays():
    for dt in (np.float32, np.float64):
        out = np.zeros(N, dt)
        lmem[1, 1](out)
        j = np.arange(N)
        np.testing.assert_array_equal(out, ((j * 7 % N) * 3 % 17).astype(dt))
    f32, f64 = void(float32[::1]), void(float64[::1])
    if ON_GPU:   # ptxas may add spills, never drop an array indexed at run time
        assert lmem.get_local_mem_per_thread(f32) >= N * 4
        assert lmem.get_local_mem_per_thread(f64) >= N * 8
    else:
        assert lmem.get_local_mem_per_thread(f32) == N * 4
        assert lmem.get_local_mem_per_thread(f64) == N * 8
    assert lmem.get_local_mem_per_thread()[f64.args] == lmem.get_local_mem_per_thread(f64)
    if not ON_GPU:
        smem[1, 100](np.zeros(100, np.float32))
        assert smem.get_local_mem_per_thread(void(float32[::1])) == 0


def test_constant_memory_holds_const_arrays_and_print_strings():
    out = np.zeros(32, np.int64)
    cmem[1, 32](out)
    np.testing.assert_array_equal(out, TABLE)
    printing[1, 1](1, False)
    printing[1, 1](1.0, False)
    table = cmem.get_const_mem_size()
    i64, f64 = printing.get_const_mem_size(void(int64, boolean)), printing.get_const_mem_size(void(float64, boolean))
    assert isinstance(table, int) and isinstance(i64, int)
    if ON_GPU:
        assert table >= TABLE.nbytes and i64 >= 6 and f64 >= 4
    else:
        assert table == TABLE.nbytes
        # "%lld\n" and "%f\n" with their NULs, and "True" and "False" for bools
        assert i64 == 6 + 5 + 6
        assert f64 == 4 + 5 + 6
    if not ON_GPU:
        smem[1, 100](np.zeros(100, np.float32))
        assert smem.get_const_mem_size(void(float32[::1])) == 0


def test_max_threads_from_launch_bounds_or_the_device():
    x = np.arange(256, dtype=np.float64)
    bounded[2, 128](x)
    np.testing.assert_array_equal(x, np.arange(256) + 1.0)
    assert bounded.get_max_threads_per_block() == {("float64[::1]",): 128}
    assert bounded.overloads[(float64[::1],)].max_threads_per_block == 128
    smem[1, 100](np.zeros(100, np.float32))
    limit = smem.get_max_threads_per_block(void(float32[::1]))
    assert 100 <= limit <= 1024
    if not ON_GPU:
        assert limit == 1024


def test_registers_are_counted_per_signature(rng):
    x32 = rng.random(64, dtype=np.float32)
    x64 = rng.random(64)
    want32, want64 = (3.14 * np.sin(x32.astype(np.float64))).astype(np.float32), 3.14 * np.sin(x64)
    pi_sin[1, 64](x32, 64)
    pi_sin[1, 64](x64, 64)
    np.testing.assert_allclose(x32, want32, rtol=2e-6)
    np.testing.assert_allclose(x64, want64, rtol=1e-14)
    s32, s64 = void(float32[::1], int64), void(float64[::1], int64)
    r32, r64 = pi_sin.get_regs_per_thread(s32), pi_sin.get_regs_per_thread(s64)
    assert isinstance(r32, int) and isinstance(r64, int)
    assert 0 < r32 <= 255 and 0 < r64 <= 255
    every = pi_sin.get_regs_per_thread()
    assert every[s32.args] == r32 and every[s64.args] == r64
    assert pi_sin.overloads[s64.args].regs_per_thread == r64
    if not ON_GPU:
        # the estimate: float64's sine keeps twice the bits live
        assert r64 > r32
        bounded[1, 32](np.zeros(32))
        assert bounded.get_regs_per_thread(void(float64[::1])) < r32


def test_type_annotation_has_every_variables_type():
    @cuda.jit(void(int32[::1], float32))
    def f(x, s):
        l = cuda.local.array(10, dtype=np.int32)
        sh = cuda.shared.array((2, 3), dtype="float64")
        t = (1, 2.5)
        l[0] = x[0]
        sh[0, 0] = s * t[1]
        x[0] = l[0] + int32(sh[0, 0]) + t[0]

    x = np.array([5, 0], np.int32)
    f[1, 1](x, np.float32(3.0))
    assert x[0] == 5 + 7 + 1
    ann = f.overloads[(int32[::1], float32)]._type_annotation
    tm = ann.typemap
    assert tm["x"] == int32[::1] and tm["s"] == float32
    assert tm["l"].dtype == int32 and tm["l"].ndim == 1
    assert tm["sh"].dtype == float64 and tm["sh"].ndim == 2 and tm["sh"].layout == "C"
    assert str(tm["t"]) == "Tuple(int64, float64)"
    assert "l = cuda.local.array(10, dtype=np.int32)" in str(ann)
    assert str(ann) == f.typed_source(void(int32[::1], float32))
