"""Matrix transposes: naive (coalesced reads, strided writes) and tiled
through shared memory padded against bank conflicts."""

import numpy as np
from numba import cuda, float32

from _case import Case, blocks

TILE = 32
ROWS = 8
PADDED = TILE + 1     # Numba wants a shared array's shape as globals, not an expression


@cuda.jit
def transpose_naive(a, out):
    x, y = cuda.grid(2)
    if y < a.shape[0] and x < a.shape[1]:
        out[x, y] = a[y, x]


@cuda.jit
def transpose_tiled(a, out):
    tile = cuda.shared.array((TILE, PADDED), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    for j in range(0, TILE, ROWS):
        if x < a.shape[1] and y + j < a.shape[0]:
            tile[ty + j, tx] = a[y + j, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    for j in range(0, TILE, ROWS):
        if x < a.shape[0] and y + j < a.shape[1]:
            out[y + j, x] = tile[tx, ty + j]


def make(small, rng):
    h, w = (40, 72) if small else (4096, 6144)
    return dict(a=rng.random((h, w)).astype(np.float32), out=np.zeros((w, h), np.float32))


def launch_naive(d):
    h, w = d["a"].shape
    transpose_naive[(blocks(w, 32), blocks(h, 8)), (32, 8)](d["a"], d["out"])


def launch_tiled(d):
    h, w = d["a"].shape
    transpose_tiled[(blocks(w, TILE), blocks(h, TILE)), (TILE, ROWS)](d["a"], d["out"])


def c_naive(k, d):
    h, w = d["a"].shape
    k((blocks(w, 32), blocks(h, 8)), (32, 8), (d["a"], d["out"], np.int32(h), np.int32(w)))


def c_tiled(k, d):
    h, w = d["a"].shape
    k((blocks(w, TILE), blocks(h, TILE)), (TILE, ROWS), (d["a"], d["out"], np.int32(h), np.int32(w)))


CASES = [
    Case("transpose_naive", make, launch_naive, lambda h: dict(out=h["a"].T), ["out"], None,
         c=("transpose_naive", c_naive)),
    Case("transpose_tiled", make, launch_tiled, lambda h: dict(out=h["a"].T), ["out"], None,
         c=("transpose_tiled", c_tiled)),
]
