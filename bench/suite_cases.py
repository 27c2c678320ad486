"""Inputs, launch configurations and NumPy references of the suite kernels.

One Case per kernel of suite_kernels.py, used by bench_suite.py (sizes that
fill an H100) and by tests/test_opt.py (small sizes, on the simulator).

    case.make(rng, scale) -> Inst    scale "full" or "small"

An Inst holds the host arrays and scalars in the kernel's argument order
(`args`), which of them are outputs (`outputs`: indices, zeroed before each
run), the launch configuration for ptxjit/Numba (`grid`, `block`), the same
for the CUDA C kernel with its extra int arguments (`c_args`: a function of
the device arguments), and `check(outs)`, which compares the outputs with
NumPy and raises AssertionError when they differ.
"""

import math

import numpy as np

import suite_cuda as C

f32, f64 = np.float32, np.float64


class Inst:
    def __init__(self, args, outputs, grid, block, c_extra, check, c_grid=None, c_block=None,
                 c_order=None):
        self.args = args
        self.outputs = outputs
        self.grid = grid
        self.block = block
        self.c_extra = c_extra          # ints appended to the CUDA C arguments
        self.c_order = c_order          # the CUDA C argument order (indices into args), default all
        self.check = check
        self.c_grid = c_grid or grid
        self.c_block = c_block or block


def cdiv(a, b):
    return (a + b - 1) // b


def close(got, want, rtol, atol=0.0, what=""):
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)


# ---------------------------------------------------------------- the cases

def vector_add(rng, scale):
    n = (1 << 26) if scale == "full" else 1000
    x, y = rng.random(n, dtype=f32), rng.random(n, dtype=f32)
    out = np.zeros(n, f32)

    def check(outs):
        np.testing.assert_array_equal(outs[0], x + y)
    return Inst([x, y, out], [2], cdiv(n, 256), 256, [n], check)


def saxpy(rng, scale):
    n = (1 << 26) if scale == "full" else 1000
    a = f32(2.5)
    x, y = rng.random(n, dtype=f32), rng.random(n, dtype=f32)
    out = np.zeros(n, f32)

    def check(outs):
        close(outs[0], a * x + y, 1e-6)
    return Inst([a, x, y, out], [3], cdiv(n, 256), 256, [n], check)


def reduce_sum(rng, scale):
    n = (1 << 26) if scale == "full" else 1000
    a = rng.random(n, dtype=f32)
    out = np.zeros(1, f32)

    def check(outs):
        close(outs[0][0], a.astype(f64).sum(), 1e-4)
    return Inst([a, out], [1], cdiv(n, C.TPB), C.TPB, [n], check)


def _matmul(rng, scale, tiled):
    n = 2048 if scale == "full" else 40
    A = rng.random((n, n), dtype=f32)
    B = rng.random((n, n), dtype=f32)
    Cm = np.zeros((n, n), f32)

    def check(outs):
        ref = A.astype(f64) @ B.astype(f64)
        close(outs[0], ref, 1e-4)
    t = C.TILE if tiled else 16
    g = (cdiv(n, t), cdiv(n, t))
    return Inst([A, B, Cm], [2], g, (t, t), [n, n, n], check)


def matmul_naive(rng, scale):
    return _matmul(rng, scale, False)


def matmul_tiled(rng, scale):
    return _matmul(rng, scale, True)


def _erf(x):
    v = np.vectorize(math.erf)
    return v(x)


def black_scholes(rng, scale):
    n = (1 << 24) if scale == "full" else 1000
    S = rng.uniform(5.0, 30.0, n)
    X = rng.uniform(1.0, 100.0, n)
    T = rng.uniform(0.25, 10.0, n)
    r, v = 0.02, 0.30
    call = np.zeros(n)
    put = np.zeros(n)

    def check(outs):
        k = slice(None) if n <= 100000 else slice(0, n, 997)
        s, x, t = S[k], X[k], T[k]
        sq = np.sqrt(t)
        d1 = (np.log(s / x) + (r + 0.5 * v * v) * t) / (v * sq)
        d2 = d1 - v * sq
        c1 = 0.5 * (1.0 + _erf(d1 * 0.7071067811865476))
        c2 = 0.5 * (1.0 + _erf(d2 * 0.7071067811865476))
        e = np.exp(-r * t)
        close(outs[0][k], s * c1 - x * e * c2, 1e-9, 1e-9, "call")
        close(outs[1][k], x * e * (1.0 - c2) - s * (1.0 - c1), 1e-9, 1e-9, "put")
    return Inst([call, put, S, X, T, r, v], [0, 1], cdiv(n, 256), 256, [n], check)


def nbody(rng, scale):
    n = 65536 if scale == "full" else 300
    pos = rng.uniform(-1.0, 1.0, (n, 4)).astype(f32)
    pos[:, 3] = rng.uniform(0.5, 1.0, n)
    acc = np.zeros((n, 3), f32)

    def check(outs):
        k = np.arange(n) if n <= 1000 else np.arange(0, n, 257)
        p = pos.astype(f64)
        d = p[None, :, :3] - p[k, None, :3]
        d2 = (d * d).sum(-1) + 1e-2
        s = p[None, :, 3] / (d2 * np.sqrt(d2))
        ref = (d * s[..., None]).sum(1)
        close(outs[0][k], ref, 2e-3, 2e-3)
    return Inst([pos, acc], [1], cdiv(n, C.NB_TILE), C.NB_TILE, [n], check)


def mandelbrot(rng, scale):
    h, w = (4096, 4096) if scale == "full" else (20, 24)
    max_iter = 256 if scale == "full" else 50
    img = np.zeros((h, w), np.int32)
    xmin, xmax, ymin, ymax = -2.0, 0.5, -1.25, 1.25

    def check(outs):
        rows = np.arange(h) if h <= 64 else np.arange(0, h, 61)
        y = rows[:, None].astype(f64)
        x = np.arange(w)[None, :].astype(f64)
        cr = xmin + x * (xmax - xmin) / w
        ci = ymin + y * (ymax - ymin) / h
        zr = np.zeros((len(rows), w))
        zi = np.zeros((len(rows), w))
        n = np.zeros((len(rows), w), np.int32)
        live = np.ones((len(rows), w), bool)
        for _ in range(max_iter):
            live &= zr * zr + zi * zi <= 4.0
            zr, zi = np.where(live, zr * zr - zi * zi + cr, zr), np.where(live, 2.0 * zr * zi + ci, zi)
            n += live
        got = outs[0][rows]
        # fused multiply-adds move a few points on the set's edge
        bad = np.count_nonzero(got != n)
        assert bad <= max(2, got.size // 500), "%d of %d pixels differ" % (bad, got.size)
    g = (cdiv(w, 16), cdiv(h, 16))
    return Inst([img, xmin, xmax, ymin, ymax, max_iter], [0], g, (16, 16), [h, w], check)


def stencil_5pt(rng, scale):
    h, w = (8192, 8192) if scale == "full" else (30, 40)
    a = rng.random((h, w), dtype=f32)
    out = np.zeros((h, w), f32)

    def check(outs):
        ref = np.zeros_like(a)
        ref[1:-1, 1:-1] = f32(0.25) * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]) - a[1:-1, 1:-1]
        close(outs[0], ref, 1e-5, 1e-6)
    g = (cdiv(w, 32), cdiv(h, 8))
    return Inst([a, out], [1], g, (32, 8), [h, w], check)


def histogram(rng, scale):
    n = (1 << 26) if scale == "full" else 5000
    data = rng.integers(0, 256, n, dtype=np.uint8)
    hist = np.zeros(C.NBINS, np.int32)

    def check(outs):
        np.testing.assert_array_equal(outs[0], np.bincount(data, minlength=C.NBINS))
    blocks = 132 * 8 if scale == "full" else 4
    return Inst([data, hist], [1], blocks, C.NBINS, [n], check)


def rgb_to_gray(rng, scale):
    h, w = (8192, 8192) if scale == "full" else (20, 30)
    rgb = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    gray = np.zeros((h, w), np.uint8)

    def check(outs):
        c = rgb.astype(f32)
        ref = f32(0.299) * c[..., 0] + f32(0.587) * c[..., 1] + f32(0.114) * c[..., 2]
        diff = np.abs(outs[0].astype(np.int32) - ref.astype(np.uint8).astype(np.int32))
        assert diff.max() <= 1, "gray differs by %d" % diff.max()
    g = (cdiv(w, 32), cdiv(h, 8))
    return Inst([rgb, gray], [1], g, (32, 8), [h, w], check)


def math_loop(rng, scale):
    n = (1 << 22) if scale == "full" else 500
    x = rng.uniform(0.0, 4.0, n).astype(f32)
    out = np.zeros(n, f32)

    def check(outs):
        k = slice(None) if n <= 100000 else slice(0, n, 101)
        v = x[k].astype(f64)
        acc = np.zeros_like(v)
        for j in range(C.MATH_ITERS):
            t = v + 0.125 * j
            acc += np.sin(t) * np.exp(-t) + np.sqrt(t)
        close(outs[0][k], acc, 1e-5, 1e-5)
    return Inst([x, out], [1], cdiv(n, 256), 256, [n], check)


CASES = [
    ("vector_add", vector_add),
    ("saxpy", saxpy),
    ("reduce_sum", reduce_sum),
    ("matmul_naive", matmul_naive),
    ("matmul_tiled", matmul_tiled),
    ("black_scholes", black_scholes),
    ("nbody", nbody),
    ("mandelbrot", mandelbrot),
    ("stencil_5pt", stencil_5pt),
    ("histogram", histogram),
    ("rgb_to_gray", rgb_to_gray),
    ("math_loop", math_loop),
]
