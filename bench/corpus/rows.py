"""Row-wise normalisations, one block per row with shared-memory tree
reductions: a numerically stable softmax and a layer norm (float32)."""

import math

import numpy as np
from numba import cuda, float32

from _case import Case

TPB = 256


@cuda.jit(device=True)
def block_reduce(sm, v, op_max):
    t = cuda.threadIdx.x
    sm[t] = v
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            if op_max:
                sm[t] = max(sm[t], sm[t + s])
            else:
                sm[t] += sm[t + s]
        cuda.syncthreads()
        s //= 2
    r = sm[0]
    cuda.syncthreads()
    return r


@cuda.jit
def softmax_rows(x, out):
    sm = cuda.shared.array(TPB, float32)
    row = cuda.blockIdx.x
    t = cuda.threadIdx.x
    n = x.shape[1]
    m = float32(-math.inf)
    for j in range(t, n, TPB):
        m = max(m, x[row, j])
    m = block_reduce(sm, m, True)
    s = float32(0.0)
    for j in range(t, n, TPB):
        s += math.exp(x[row, j] - m)
    s = block_reduce(sm, s, False)
    for j in range(t, n, TPB):
        out[row, j] = math.exp(x[row, j] - m) / s


@cuda.jit
def layernorm_rows(x, gamma, beta, out, eps):
    sm = cuda.shared.array(TPB, float32)
    row = cuda.blockIdx.x
    t = cuda.threadIdx.x
    n = x.shape[1]
    s = float32(0.0)
    for j in range(t, n, TPB):
        s += x[row, j]
    mean = block_reduce(sm, s, False) / n
    v = float32(0.0)
    for j in range(t, n, TPB):
        dlt = x[row, j] - mean
        v += dlt * dlt
    var = block_reduce(sm, v, False) / n
    inv = float32(1.0) / math.sqrt(var + eps)
    for j in range(t, n, TPB):
        out[row, j] = (x[row, j] - mean) * inv * gamma[j] + beta[j]


def make_softmax(small, rng):
    r, c = (6, 700) if small else (16384, 1024)
    return dict(x=rng.normal(0, 3, (r, c)).astype(np.float32), out=np.zeros((r, c), np.float32))


def ref_softmax(h):
    x = h["x"].astype(np.float64)
    e = np.exp(x - x.max(1, keepdims=True))
    return dict(out=e / e.sum(1, keepdims=True))


def launch_softmax(d):
    softmax_rows[d["x"].shape[0], TPB](d["x"], d["out"])


def c_softmax(k, d):
    r, c = d["x"].shape
    k((r,), (TPB,), (d["x"], d["out"], np.int32(c)))


def make_ln(small, rng):
    r, c = (6, 700) if small else (16384, 1024)
    return dict(x=rng.normal(1, 2, (r, c)).astype(np.float32), gamma=rng.random(c).astype(np.float32),
                beta=rng.random(c).astype(np.float32), out=np.zeros((r, c), np.float32), eps=1e-5)


def ref_ln(h):
    x = h["x"].astype(np.float64)
    mu = x.mean(1, keepdims=True)
    var = ((x - mu) ** 2).mean(1, keepdims=True)
    return dict(out=(x - mu) / np.sqrt(var + h["eps"]) * h["gamma"] + h["beta"])


def launch_ln(d):
    layernorm_rows[d["x"].shape[0], TPB](d["x"], d["gamma"], d["beta"], d["out"], d["eps"])


def c_ln(k, d):
    r, c = d["x"].shape
    k((r,), (TPB,), (d["x"], d["gamma"], d["beta"], d["out"], np.float32(d["eps"]), np.int32(c)))


CASES = [
    Case("softmax_rows", make_softmax, launch_softmax, ref_softmax, ["out"], (1e-4, 1e-7),
         c=("softmax_rows", c_softmax)),
    Case("layernorm_rows", make_ln, launch_ln, ref_ln, ["out"], (1e-4, 1e-4), c=("layernorm_rows", c_ln)),
]
