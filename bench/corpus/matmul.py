"""Matrix multiplication: the naive and the shared-memory tiled kernels of
Numba's documentation, and the seeds' kernel accumulating into C[i, j]."""

import numpy as np
from numba import cuda, float32

from _case import Case, blocks

TPB = 16


@cuda.jit
def matmul(A, B, C):
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        tmp = 0.
        for k in range(A.shape[1]):
            tmp += A[i, k] * B[k, j]
        C[i, j] = tmp


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@cuda.jit
def gpu_matrix_mult(A, B, C):
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        for k in range(A.shape[1]):
            C[i, j] += A[i, k] * B[k, j]


def make32(small, rng):
    n = 48 if small else 2048
    f = np.float32
    return dict(A=rng.random((n, n)).astype(f), B=rng.random((n, n)).astype(f), C=np.zeros((n, n), f))


def ref(h):
    return dict(C=h["A"].astype(np.float64) @ h["B"].astype(np.float64))


def grid(d, t=TPB):
    n = d["C"].shape[0]
    return (blocks(n, t), blocks(n, t)), (t, t)


def launch_naive(d):
    g, b = grid(d)
    matmul[g, b](d["A"], d["B"], d["C"])


def launch_tiled(d):
    g, b = grid(d)
    fast_matmul[g, b](d["A"], d["B"], d["C"])


def c_mm(k, d):
    g, b = grid(d)
    n = d["C"].shape[0]
    k(g, b, (d["A"], d["B"], d["C"], np.int32(n)))


def make64(small, rng):
    n = 48 if small else 1024
    return dict(A=rng.random((n, n)), B=rng.random((n, n)), C=np.zeros((n, n)))


def launch_seed(d):
    g, b = grid(d, 32)
    gpu_matrix_mult[g, b](d["A"], d["B"], d["C"])


CASES = [
    Case("docs_matmul_naive", make32, launch_naive, ref, ["C"], (1e-4, 1e-4), c=("matmul", c_mm)),
    Case("docs_fast_matmul_tiled", make32, launch_tiled, ref, ["C"], (1e-4, 1e-4), c=("fast_matmul", c_mm)),
    Case("seed_matmul_accumulate", make64, launch_seed, ref, ["C"], (1e-10, 1e-10)),
]
