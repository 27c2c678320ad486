"""Dynamic programming across a block: the length of the longest common
subsequence of two strings, one block per pair, thread j owning column j
and the table swept by anti-diagonals kept in three shared rows."""

import numpy as np
from numba import cuda, int32

from _case import Case

L = 256


@cuda.jit
def lcs_wavefront(a, b, out):
    diag = cuda.shared.array((3, L), int32)
    p = cuda.blockIdx.x
    j = cuda.threadIdx.x
    n = a.shape[1]
    bj = b[p, j] if j < n else 0
    for r in range(3):
        diag[r, j] = 0
    cuda.syncthreads()
    for d in range(2 * n - 1):
        cur = d % 3
        prev = (d + 2) % 3
        prev2 = (d + 1) % 3
        i = d - j
        if j < n and 0 <= i < n:
            if a[p, i] == bj:
                v = 1
                if i > 0 and j > 0:
                    v += diag[prev2, j - 1]
            else:
                up = diag[prev, j] if i > 0 else 0
                left = diag[prev, j - 1] if j > 0 else 0
                v = max(up, left)
            diag[cur, j] = v
        cuda.syncthreads()
    if j == n - 1:
        out[p] = diag[(2 * n - 2) % 3, j]


def make(small, rng):
    pairs, n = (3, 64) if small else (1056, L)
    return dict(a=rng.integers(0, 4, (pairs, n)).astype(np.uint8), b=rng.integers(0, 4, (pairs, n)).astype(np.uint8),
                out=np.zeros(pairs, np.int32))


def ref(h):
    a, b = h["a"], h["b"]
    pairs, n = a.shape
    prev = np.zeros((pairs, n + 1), np.int32)
    for i in range(n):
        cur = np.zeros_like(prev)
        eq = a[:, i:i + 1] == b
        for j in range(n):
            cur[:, j + 1] = np.where(eq[:, j], prev[:, j] + 1, np.maximum(prev[:, j + 1], cur[:, j]))
        prev = cur
    return dict(out=prev[:, n])


def launch(d):
    lcs_wavefront[d["a"].shape[0], L](d["a"], d["b"], d["out"])


CASES = [Case("lcs_wavefront_block", make, launch, ref, ["out"], None)]
