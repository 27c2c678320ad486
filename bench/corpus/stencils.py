"""Stencils in one, two and three dimensions: a radius-3 1-D stencil with its
halo in shared memory, one explicit step of the heat equation (the 1-D
Laplace example of Numba's documentation, without the grid sync), a 2-D
Jacobi step and a 3-D 7-point Laplacian."""

import numpy as np
from numba import cuda, float32

from _case import Case, blocks

TPB = 256
R = 3
SPAN = TPB + 2 * R     # Numba wants a shared array's shape as a global, not an expression


@cuda.jit
def stencil1d_shared(a, out):
    sm = cuda.shared.array(SPAN, float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x + R
    n = a.shape[0]
    sm[t] = a[i] if i < n else 0
    if cuda.threadIdx.x < R:
        j = i - R
        sm[t - R] = a[j] if j >= 0 and j < n else 0
        j = i + TPB
        sm[t + TPB] = a[j] if j < n else 0
    cuda.syncthreads()
    if i >= R and i < n - R:
        acc = float32(0)
        for k in range(-R, R + 1):
            acc += sm[t + k]
        out[i] = acc / (2 * R + 1)


@cuda.jit
def heat_step(u, u_next, k):
    i = cuda.grid(1)
    n = len(u)
    if i == 0 or i >= n - 1:
        if i < n:
            u_next[i] = u[i]
        return
    u_next[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1])


@cuda.jit
def jacobi2d(a, out):
    j, i = cuda.grid(2)
    h, w = a.shape
    if 0 < i < h - 1 and 0 < j < w - 1:
        out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])


@cuda.jit
def laplace3d(a, out):
    x, y, z = cuda.grid(3)
    d, h, w = a.shape
    if 1 <= z < d - 1 and 1 <= y < h - 1 and 1 <= x < w - 1:
        out[z, y, x] = (a[z - 1, y, x] + a[z + 1, y, x] + a[z, y - 1, x] + a[z, y + 1, x]
                        + a[z, y, x - 1] + a[z, y, x + 1] - 6.0 * a[z, y, x])


def make_1d(small, rng):
    n = 1000 if small else (1 << 24) + 5
    return dict(a=rng.random(n).astype(np.float32), out=np.zeros(n, np.float32))


def ref_1d(h):
    a, out = h["a"].astype(np.float64), np.zeros(h["a"].size, np.float32)
    acc = sum(a[R + k:a.size - R + k] for k in range(-R, R + 1))
    out[R:-R] = acc / (2 * R + 1)
    return dict(out=out)


def launch_1d(d):
    stencil1d_shared[blocks(d["a"].size, TPB), TPB](d["a"], d["out"])


def make_heat(small, rng):
    n = 1000 if small else 1 << 24
    return dict(u=rng.random(n), u_next=np.zeros(n), k=0.25)


def ref_heat(h):
    u, out = h["u"], h["u"].copy()
    out[1:-1] = u[1:-1] + h["k"] * (u[:-2] - 2 * u[1:-1] + u[2:])
    return dict(u_next=out)


def launch_heat(d):
    heat_step[blocks(d["u"].size, TPB), TPB](d["u"], d["u_next"], d["k"])


def make_2d(small, rng):
    h, w = (30, 50) if small else (4096, 4096)
    return dict(a=rng.random((h, w)).astype(np.float32), out=np.zeros((h, w), np.float32))


def ref_2d(h):
    a, out = h["a"], np.zeros_like(h["a"])
    out[1:-1, 1:-1] = np.float32(0.25) * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return dict(out=out)


def launch_2d(d):
    h, w = d["a"].shape
    jacobi2d[(blocks(w, 32), blocks(h, 8)), (32, 8)](d["a"], d["out"])


def c_2d(k, d):
    h, w = d["a"].shape
    k((blocks(w, 32), blocks(h, 8)), (32, 8), (d["a"], d["out"], np.int32(h), np.int32(w)))


def make_3d(small, rng):
    s = (10, 12, 20) if small else (256, 256, 256)
    return dict(a=rng.random(s).astype(np.float32), out=np.zeros(s, np.float32))


def ref_3d(h):
    a, out = h["a"].astype(np.float64), np.zeros_like(h["a"])
    c = a[1:-1, 1:-1, 1:-1]
    out[1:-1, 1:-1, 1:-1] = (a[:-2, 1:-1, 1:-1] + a[2:, 1:-1, 1:-1] + a[1:-1, :-2, 1:-1] + a[1:-1, 2:, 1:-1]
                             + a[1:-1, 1:-1, :-2] + a[1:-1, 1:-1, 2:] - 6 * c)
    return dict(out=out)


def grid3(d):
    z, y, x = d["a"].shape
    return (blocks(x, 32), blocks(y, 4), blocks(z, 2)), (32, 4, 2)


def launch_3d(d):
    g, b = grid3(d)
    laplace3d[g, b](d["a"], d["out"])


def c_3d(k, d):
    g, b = grid3(d)
    z, y, x = d["a"].shape
    k(g, b, (d["a"], d["out"], np.int32(z), np.int32(y), np.int32(x)))


CASES = [
    Case("stencil1d_shared_halo", make_1d, launch_1d, ref_1d, ["out"], (1e-5, 1e-6)),
    Case("docs_heat_step_1d", make_heat, launch_heat, ref_heat, ["u_next"], (1e-12, 1e-12)),
    Case("jacobi2d", make_2d, launch_2d, ref_2d, ["out"], (1e-6, 1e-6), c=("jacobi2d", c_2d)),
    Case("laplace3d_7pt", make_3d, launch_3d, ref_3d, ["out"], (1e-5, 1e-5), c=("laplace3d", c_3d)),
]
