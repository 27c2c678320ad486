"""Complex arithmetic: Mandelbrot in complex128 with abs(z) and an early
break, and a complex64 polynomial map using conjugate, .real and .imag."""

import numpy as np
from numba import cuda

from _case import Case, blocks

MAX_ITER = 200
ROWS = 16        # NumPy checks every ROWS-th row


@cuda.jit
def mandelbrot(xmin, xmax, ymin, ymax, img):
    x, y = cuda.grid(2)
    h, w = img.shape
    if x < w and y < h:
        c = complex(xmin + x * (xmax - xmin) / w, ymin + y * (ymax - ymin) / h)
        z = 0j
        n = MAX_ITER
        for i in range(MAX_ITER):
            z = z * z + c
            if abs(z) > 2.0:
                n = i
                break
        img[y, x] = n


@cuda.jit
def complex_map(z, w, out):
    i = cuda.grid(1)
    if i < z.size:
        a = z[i]
        b = w[i]
        r = a * a + b.conjugate() * a - 0.5j * b
        out[i] = r / (1 + abs(r)) + r.real - 1j * r.imag


def make_mandel(small, rng):
    h, w = (24, 40) if small else (2048, 4096)
    return dict(xmin=-2.0, xmax=1.0, ymin=-1.25, ymax=1.25, img=np.zeros((h, w), np.int32))


def ref_mandel(h):
    H, W = h["img"].shape
    x = np.arange(W)
    y = np.arange(0, H, ROWS)
    c = (h["xmin"] + x[None, :] * (h["xmax"] - h["xmin"]) / W) + 1j * (
        h["ymin"] + y[:, None] * (h["ymax"] - h["ymin"]) / H)
    z = np.zeros_like(c)
    n = np.full(c.shape, MAX_ITER, np.int32)
    live = np.ones(c.shape, bool)
    for i in range(MAX_ITER):
        z[live] = z[live] * z[live] + c[live]
        esc = live & (np.abs(z) > 2.0)
        n[esc] = i
        live &= ~esc
    return dict(img=n)


def launch_mandel(d):
    h, w = d["img"].shape
    mandelbrot[(blocks(w, 32), blocks(h, 8)), (32, 8)](d["xmin"], d["xmax"], d["ymin"], d["ymax"], d["img"])


def c_mandel(k, d):
    h, w = d["img"].shape
    k((blocks(w, 32), blocks(h, 8)), (32, 8),
      tuple(np.float64(d[s]) for s in ("xmin", "xmax", "ymin", "ymax")) + (d["img"], np.int32(h), np.int32(w)))


def make_cmap(small, rng):
    n = 1000 if small else 1 << 23

    def c64():
        return (rng.normal(0, 1, n) + 1j * rng.normal(0, 1, n)).astype(np.complex64)
    return dict(z=c64(), w=c64(), out=np.zeros(n, np.complex64))


def ref_cmap(h):
    a, b = h["z"].astype(np.complex128), h["w"].astype(np.complex128)
    r = a * a + b.conjugate() * a - 0.5j * b
    return dict(out=r / (1 + np.abs(r)) + r.real - 1j * r.imag)


def launch_cmap(d):
    complex_map[blocks(d["z"].size, 256), 256](d["z"], d["w"], d["out"])


CASES = [
    Case("mandelbrot_complex128", make_mandel, launch_mandel, ref_mandel, ["img"], (0, 1),
         c=("mandelbrot", c_mandel), reduce=(lambda a: a[::ROWS], (0, 1)), mismatch=1e-3),
    Case("complex64_map", make_cmap, launch_cmap, ref_cmap, ["out"], (1e-5, 1e-5)),
]
