"""Bitonic sorting networks: each block sorts its 1024 keys in shared memory,
and a whole array of 2^k keys is sorted by one launch per compare-exchange
step in global memory."""

import numpy as np
from numba import cuda, float32

from _case import Case, blocks

BLOCK = 1024


@cuda.jit
def bitonic_block(a):
    sm = cuda.shared.array(BLOCK, float32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * BLOCK
    sm[t] = a[base + t]
    cuda.syncthreads()
    k = 2
    while k <= BLOCK:
        j = k // 2
        while j > 0:
            p = t ^ j
            if p > t:
                up = (t & k) == 0
                x, y = sm[t], sm[p]
                if (x > y) == up:
                    sm[t] = y
                    sm[p] = x
            cuda.syncthreads()
            j //= 2
        k *= 2
    a[base + t] = sm[t]


@cuda.jit
def bitonic_step(a, j, k):
    i = cuda.grid(1)
    p = i ^ j
    if i < a.size and p > i:
        x, y = a[i], a[p]
        if (i & k) == 0:
            if x > y:
                a[i], a[p] = y, x
        elif x < y:
            a[i], a[p] = y, x


def make_block(small, rng):
    n = BLOCK * (3 if small else 1 << 14)
    return dict(a=rng.random(n).astype(np.float32))


def launch_block(d):
    bitonic_block[d["a"].size // BLOCK, BLOCK](d["a"])


def make_global(small, rng):
    n = 1 << (10 if small else 22)
    return dict(a=rng.integers(-10 ** 6, 10 ** 6, n).astype(np.int32))


def launch_global(d):
    n = d["a"].size
    k = 2
    while k <= n:
        j = k // 2
        while j > 0:
            bitonic_step[blocks(n, 256), 256](d["a"], j, k)
            j //= 2
        k *= 2


CASES = [
    Case("bitonic_block_shared", make_block, launch_block,
         lambda h: dict(a=np.sort(h["a"].reshape(-1, BLOCK), axis=1).ravel()), ["a"], None),
    Case("bitonic_global_steps", make_global, launch_global, lambda h: dict(a=np.sort(h["a"])), ["a"], None),
]
