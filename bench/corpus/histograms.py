"""Histograms: 256 bins of bytes in shared memory with cuda.atomic.add in a
grid-stride loop, and float samples binned straight into global memory."""

import numpy as np
from numba import cuda, int32

from _case import Case

NBINS = 256
FBINS = 64


@cuda.jit
def hist_shared(data, hist):
    local = cuda.shared.array(NBINS, int32)
    t = cuda.threadIdx.x
    for b in range(t, NBINS, cuda.blockDim.x):
        local[b] = 0
    cuda.syncthreads()
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, data.shape[0], stride):
        cuda.atomic.add(local, data[i], 1)
    cuda.syncthreads()
    for b in range(t, NBINS, cuda.blockDim.x):
        cuda.atomic.add(hist, b, local[b])


@cuda.jit
def hist_float_global(x, lo, hi, hist):
    i = cuda.grid(1)
    if i < x.size:
        b = int((x[i] - lo) / (hi - lo) * FBINS)
        if b >= 0 and b < FBINS:
            cuda.atomic.add(hist, b, 1)


def make_bytes(small, rng):
    n = 1 << (12 if small else 26)
    return dict(data=rng.integers(0, 256, n, dtype=np.uint8), hist=np.zeros(NBINS, np.int32))


def launch_bytes(d):
    hist_shared[4 if d["data"].size < 65536 else 264, 256](d["data"], d["hist"])


def c_bytes(k, d):
    n = d["data"].size
    k((4 if n < 65536 else 264,), (256,), (d["data"], d["hist"], np.int32(n)))


def make_float(small, rng):
    n = 1 << (12 if small else 24)
    return dict(x=rng.normal(0, 1, n).astype(np.float32), lo=-3.0, hi=3.0, hist=np.zeros(FBINS, np.int32))


def ref_float(h):
    x = h["x"].astype(np.float64)
    b = np.trunc((x - h["lo"]) / (h["hi"] - h["lo"]) * FBINS).astype(np.int64)
    b = b[(b >= 0) & (b < FBINS)]
    return dict(hist=np.bincount(b, minlength=FBINS).astype(np.int32))


def launch_float(d):
    hist_float_global[-(-d["x"].size // 256), 256](d["x"], d["lo"], d["hi"], d["hist"])


CASES = [
    Case("hist_shared_u8", make_bytes, launch_bytes,
         lambda h: dict(hist=np.bincount(h["data"], minlength=NBINS).astype(np.int32)), ["hist"], None,
         c=("hist_shared", c_bytes)),
    Case("hist_float_global_atomic", make_float, launch_float, ref_float, ["hist"], None),
]
