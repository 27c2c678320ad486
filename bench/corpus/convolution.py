"""Convolutions whose filter sits in constant memory (cuda.const.array_like
of a module-level NumPy array): 1-D with 17 taps, 2-D with a 5x5 mask."""

import numpy as np
from numba import cuda

from _case import Case, blocks

TPB = 256
TAPS = np.linspace(-1.0, 1.0, 17).astype(np.float32) ** 2 / 6.0
MASK = (np.outer(np.hanning(7)[1:-1], np.hanning(7)[1:-1]) / 9.0).astype(np.float32)
HALF = TAPS.size // 2


@cuda.jit
def conv1d_const(x, out):
    taps = cuda.const.array_like(TAPS)
    i = cuda.grid(1)
    n = x.shape[0]
    if i < n:
        acc = np.float32(0.0)
        for k in range(taps.shape[0]):
            j = i + k - HALF
            if j >= 0 and j < n:
                acc += taps[k] * x[j]
        out[i] = acc


@cuda.jit
def conv2d_const(img, out):
    mask = cuda.const.array_like(MASK)
    c, r = cuda.grid(2)
    h, w = img.shape
    if r < h and c < w:
        acc = np.float32(0.0)
        for dr in range(5):
            for dc in range(5):
                rr = r + dr - 2
                cc = c + dc - 2
                if 0 <= rr < h and 0 <= cc < w:
                    acc += mask[dr, dc] * img[rr, cc]
        out[r, c] = acc


def make_1d(small, rng):
    n = 1000 if small else 1 << 24
    return dict(x=rng.random(n).astype(np.float32), out=np.zeros(n, np.float32))


def ref_1d(h):
    return dict(out=np.convolve(h["x"].astype(np.float64), TAPS[::-1].astype(np.float64), "same"))


def launch_1d(d):
    conv1d_const[blocks(d["x"].size, TPB), TPB](d["x"], d["out"])


def c_1d(k, d):
    n = d["x"].size
    k((blocks(n, TPB),), (TPB,), (d["x"], d["out"], np.int32(n)))


def make_2d(small, rng):
    h, w = (30, 50) if small else (4096, 4096)
    return dict(img=rng.random((h, w)).astype(np.float32), out=np.zeros((h, w), np.float32))


def ref_2d(h):
    img = h["img"].astype(np.float64)
    p = np.pad(img, 2)
    out = np.zeros_like(img)
    for dr in range(5):
        for dc in range(5):
            out += MASK[dr, dc] * p[dr:dr + img.shape[0], dc:dc + img.shape[1]]
    return dict(out=out)


def launch_2d(d):
    h, w = d["img"].shape
    conv2d_const[(blocks(w, 32), blocks(h, 8)), (32, 8)](d["img"], d["out"])


CASES = [
    Case("conv1d_const_taps", make_1d, launch_1d, ref_1d, ["out"], (1e-5, 1e-6), c=("conv1d_const", c_1d)),
    Case("conv2d_const_mask", make_2d, launch_2d, ref_2d, ["out"], (1e-5, 1e-6)),
]
