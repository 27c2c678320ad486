"""Reductions of every kind: grid-stride loop into a register, shared-memory
tree and one atomic per block; warp shuffles; the seeds' block tree (one
partial per block) and atomics-only sum; an integer atomic max; a float64
dot product."""

import numpy as np
from numba import cuda, float32, float64

from _case import Case, blocks

TPB = 256
WARPS = TPB // 32


@cuda.jit
def sum_gridstride_shared(a, out):
    sm = cuda.shared.array(TPB, float32)
    tid = cuda.threadIdx.x
    acc = float32(0.0)
    for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        acc += a[i]
    sm[tid] = acc
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            sm[tid] += sm[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, sm[0])


@cuda.jit
def sum_warp_shuffle(a, out):
    warp_sums = cuda.shared.array(WARPS, float32)
    lane = cuda.laneid
    wid = cuda.threadIdx.x // 32
    acc = float32(0.0)
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        acc += a[i]
    offset = 16
    while offset > 0:
        acc += cuda.shfl_down_sync(0xFFFFFFFF, acc, offset)
        offset //= 2
    if lane == 0:
        warp_sums[wid] = acc
    cuda.syncthreads()
    if wid == 0:
        v = warp_sums[lane] if lane < WARPS else float32(0.0)
        offset = 16
        while offset > 0:
            v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
            offset //= 2
        if lane == 0:
            cuda.atomic.add(out, 0, v)


@cuda.jit
def reduce_kernel(in_array, out_array):
    shared = cuda.shared.array(TPB, dtype=np.float32)
    idx = cuda.grid(1)
    tx = cuda.threadIdx.x
    shared[tx] = in_array[idx]
    cuda.syncthreads()
    i = TPB // 2
    while i > 0:
        if tx < i:
            shared[tx] += shared[tx + i]
        cuda.syncthreads()
        i //= 2
    if tx == 0:
        out_array[cuda.blockIdx.x] = shared[0]


@cuda.jit
def gpu_reduce(in_array, out_array):
    thread_id = cuda.grid(1)
    stride = cuda.gridsize(1)
    temp_sum = 0.0
    for i in range(thread_id, in_array.shape[0], stride):
        temp_sum += in_array[i]
    cuda.atomic.add(out_array, 0, temp_sum)


@cuda.jit
def max_atomic(a, out):
    best = -2147483647
    for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        best = max(best, a[i])
    cuda.atomic.max(out, 0, best)


@cuda.jit
def dot(x, y, out):
    sm = cuda.shared.array(TPB, float64)
    t = cuda.threadIdx.x
    acc = 0.0
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        acc += x[i] * y[i]
    sm[t] = acc
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            sm[t] += sm[t + s]
        cuda.syncthreads()
        s >>= 1
    if t == 0:
        cuda.atomic.add(out, 0, sm[0])


def grid(small):
    return 4 if small else 528


def make_f32(small, rng):
    n = 1 << (12 if small else 25)
    return dict(a=rng.random(n).astype(np.float32), out=np.zeros(1, np.float32))


def ref_sum(h):
    return dict(out=np.array([h["a"].astype(np.float64).sum()], np.float32))


def launch_shared(d):
    sum_gridstride_shared[grid(d["a"].size < 65536), TPB](d["a"], d["out"])


def launch_shuffle(d):
    sum_warp_shuffle[grid(d["a"].size < 65536), TPB](d["a"], d["out"])


def c_sum(k, d):
    n = d["a"].size
    k((grid(n < 65536),), (TPB,), (d["a"], d["out"], np.int32(n)))


def make_partials(small, rng):
    n = TPB * (4 if small else 1 << 17)
    return dict(a=rng.random(n).astype(np.float32), out=np.zeros(n // TPB, np.float32))


def launch_partials(d):
    reduce_kernel[d["out"].size, TPB](d["a"], d["out"])


def make_f64(small, rng):
    n = 1 << (12 if small else 24)
    return dict(a=rng.random(n), out=np.zeros(1))


def launch_atomic_only(d):
    gpu_reduce[grid(d["a"].size < 65536), TPB](d["a"], d["out"])


def make_max(small, rng):
    n = 1 << (12 if small else 25)
    return dict(a=rng.integers(-10 ** 9, 10 ** 9, n).astype(np.int32),
                out=np.full(1, -2147483647, np.int32))


def launch_max(d):
    max_atomic[grid(d["a"].size < 65536), TPB](d["a"], d["out"])


def make_dot(small, rng):
    n = 1 << (12 if small else 24)
    return dict(x=rng.random(n), y=rng.random(n), out=np.zeros(1))


def launch_dot(d):
    dot[grid(d["x"].size < 65536), TPB](d["x"], d["y"], d["out"])


CASES = [
    Case("sum_gridstride_shared_atomic", make_f32, launch_shared, ref_sum, ["out"], (1e-4, 0),
         c=("sum_gridstride_shared", c_sum), float_atomics=True),
    Case("sum_warp_shuffle", make_f32, launch_shuffle, ref_sum, ["out"], (1e-4, 0),
         c=("sum_warp_shuffle", c_sum), float_atomics=True),
    Case("seed_block_tree_partials", make_partials, launch_partials,
         lambda h: dict(out=h["a"].reshape(-1, TPB).astype(np.float64).sum(1)), ["out"], (1e-5, 0)),
    Case("seed_atomic_only_sum", make_f64, launch_atomic_only,
         lambda h: dict(out=np.array([h["a"].sum()])), ["out"], (1e-10, 0), float_atomics=True),
    Case("max_atomic_int32", make_max, launch_max, lambda h: dict(out=np.array([h["a"].max()], np.int32)),
         ["out"], None),
    Case("dot_float64", make_dot, launch_dot, lambda h: dict(out=np.array([h["x"] @ h["y"]])), ["out"],
         (1e-10, 0), float_atomics=True),
]
