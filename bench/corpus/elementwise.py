"""Element-wise kernels: the vector addition of Numba's documentation and of
the seed programs, a grid-stride SAXPY, Horner's polynomial, a device
function shared by host and kernel code, and the seeds' RGB to grey (as
written there, unpacking a pixel and storing a tuple, and with indices)."""

import math

import numpy as np
from numba import cuda

from _case import Case, blocks

TPB = 256


@cuda.jit
def vecadd(a, b, c):
    tid = cuda.grid(1)
    size = len(c)
    if tid < size:
        c[tid] = a[tid] + b[tid]


@cuda.jit
def add_kernel(x, y, out):
    idx = cuda.grid(1)
    out[idx] = x[idx] + y[idx]


@cuda.jit
def saxpy_gridstride(a, x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = a * x[i] + y[i]


@cuda.jit
def polyval(coef, x, out):
    i = cuda.grid(1)
    if i < x.size:
        acc = 0.0
        for k in range(coef.size):
            acc = acc * x[i] + coef[k]
        out[i] = acc


@cuda.jit(device=True)
def business_logic(x, y, z):
    return 4 * z * (2 * x - (4 * y) / 2 * math.pi)


@cuda.jit
def business_kernel(x, y, z, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = business_logic(x[i], y[i], z[i])


@cuda.jit
def gpu_grayscale(image_data, result):
    i, j = cuda.grid(2)
    if i < image_data.shape[0] and j < image_data.shape[1]:
        r, g, b = image_data[i, j]
        gray = int(0.2989 * r + 0.5870 * g + 0.1140 * b)
        result[i, j] = (gray, gray, gray)


@cuda.jit
def grayscale_indexed(image_data, result):
    i, j = cuda.grid(2)
    if i < image_data.shape[0] and j < image_data.shape[1]:
        r = image_data[i, j, 0]
        g = image_data[i, j, 1]
        b = image_data[i, j, 2]
        gray = int(0.2989 * r + 0.5870 * g + 0.1140 * b)
        for c in range(3):
            result[i, j, c] = gray


def _vec(small, rng, dtype=np.float32):
    n = 1024 if small else 1 << 24
    return n, rng.random(n).astype(dtype), rng.random(n).astype(dtype)


def make_add(small, rng):
    n, a, b = _vec(small, rng)
    return dict(a=a, b=b, c=np.zeros(n, np.float32))


def launch_vecadd(d):
    vecadd[blocks(d["c"].size, TPB), TPB](d["a"], d["b"], d["c"])


def launch_add_kernel(d):
    add_kernel[d["c"].size // 128, 128](d["a"], d["b"], d["c"])


def c_vecadd(k, d):
    n = d["c"].size
    k((blocks(n, TPB),), (TPB,), (d["a"], d["b"], d["c"], np.int32(n)))


def make_saxpy(small, rng):
    n, x, y = _vec(small, rng)
    return dict(a=2.5, x=x, y=y, out=np.zeros(n, np.float32))


def launch_saxpy(d):
    saxpy_gridstride[264 if d["out"].size > 65536 else 4, TPB](d["a"], d["x"], d["y"], d["out"])


def c_saxpy(k, d):
    n = d["out"].size
    k((264 if n > 65536 else 4,), (TPB,), (np.float64(d["a"]), d["x"], d["y"], d["out"], np.int32(n)))


def make_polyval(small, rng):
    n = 1024 if small else 1 << 23
    return dict(coef=rng.uniform(-1, 1, 24), x=rng.uniform(-1, 1, n), out=np.zeros(n))


def ref_polyval(h):
    acc = np.zeros_like(h["x"])
    for c in h["coef"]:
        acc = acc * h["x"] + c
    return dict(out=acc)


def launch_polyval(d):
    polyval[blocks(d["out"].size, TPB), TPB](d["coef"], d["x"], d["out"])


def make_business(small, rng):
    n = 1024 if small else 1 << 23
    return dict(x=rng.random(n), y=rng.random(n), z=rng.random(n), out=np.zeros(n))


def launch_business(d):
    business_kernel[blocks(d["out"].size, TPB), TPB](d["x"], d["y"], d["z"], d["out"])


def make_gray(small, rng):
    h, w = (24, 40) if small else (4096, 4096)
    img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    return dict(img=img, res=np.zeros_like(img))


def ref_gray(h):
    f = h["img"].astype(np.float64)
    g = (0.2989 * f[..., 0] + 0.5870 * f[..., 1] + 0.1140 * f[..., 2]).astype(np.int64)
    return dict(res=np.repeat(g[..., None], 3, axis=2).astype(np.uint8))


def launch_gray(d):
    h, w = d["img"].shape[:2]
    gpu_grayscale[(blocks(h, 16), blocks(w, 16)), (16, 16)](d["img"], d["res"])


def launch_gray_indexed(d):
    h, w = d["img"].shape[:2]
    grayscale_indexed[(blocks(h, 16), blocks(w, 16)), (16, 16)](d["img"], d["res"])


CASES = [
    Case("vecadd", make_add, launch_vecadd, lambda h: dict(c=h["a"] + h["b"]), ["c"], None,
         c=("vecadd", c_vecadd)),
    Case("seed_add_kernel", make_add, launch_add_kernel, lambda h: dict(c=h["a"] + h["b"]), ["c"], None),
    Case("saxpy_gridstride", make_saxpy, launch_saxpy,
         lambda h: dict(out=np.float32(2.5) * h["x"] + h["y"]), ["out"], (1e-6, 1e-6),
         c=("saxpy_gridstride", c_saxpy)),
    Case("polyval_horner", make_polyval, launch_polyval, ref_polyval, ["out"], (1e-12, 1e-12)),
    Case("device_fn_business", make_business, launch_business,
         lambda h: dict(out=4 * h["z"] * (2 * h["x"] - (4 * h["y"]) / 2 * math.pi)), ["out"], (1e-12, 1e-12)),
    Case("seed_grayscale", make_gray, launch_gray, ref_gray, ["res"], (0, 1)),
    Case("grayscale_indexed", make_gray, launch_gray_indexed, ref_gray, ["res"], (0, 1)),
]
