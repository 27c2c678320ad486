"""Every kernel of tests/golden/kernels/ run through the Python package on
random data and compared with a NumPy reference computed here.

The same file runs on the simulator (the default) and on the GPU
(PTXJIT_TEST_GPU=1); see conftest.py.  Floating-point comparisons allow for
fused multiply-adds (ptxjit contracts a * b + c like NVVM does, NumPy does
not); integer results must be exact.
"""

import math
import os
import re

import numpy as np

from ptxjit import cuda

from conftest import KERNELS, same_bits

f32, f64 = np.float32, np.float64
i8, i16, i32, i64 = np.int8, np.int16, np.int32, np.int64
u8, u16, u32, u64 = np.uint8, np.uint16, np.uint32, np.uint64


def nblocks(n, tpb):
    return (n + tpb - 1) // tpb


def close(got, want, rtol=1e-6, atol=0.0):
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def equal(got, want):
    np.testing.assert_array_equal(got, want)


# ------------------------------------------------------------------ seeds

def test_seed000_add_kernel(load, rng):
    k = load("seed000_add_kernel").add_kernel
    n = 1024
    x = rng.random(n, dtype=f32)
    y = rng.random(n, dtype=f32)
    out = np.zeros_like(x)
    k[n // 256, 256](x, y, out)
    equal(out, x + y)


def test_seed000_reduce_kernel(load, rng):
    mod = load("seed000_reduce_kernel")
    n = 1024
    a = rng.integers(0, 100, n).astype(f32)
    out = np.zeros(n // mod.TPB, dtype=f32)
    mod.reduce_kernel[n // mod.TPB, mod.TPB](a, out)
    equal(out, a.reshape(-1, mod.TPB).sum(axis=1))


def test_seed001_add_arrays(load, rng):
    k = load("seed001_add_arrays").add_arrays_cuda
    n = 100_003
    hx = np.arange(n, dtype=f32)
    hy = rng.integers(0, 1000, n).astype(f32)
    dx = cuda.to_device(hx)
    dy = cuda.to_device(hy)
    dout = cuda.device_array_like(hx)
    k[nblocks(n, 128), 128](dx, dy, dout)
    equal(dout.copy_to_host(), hx + hy)


def test_seed002_matrix_mult(load, rng):
    k = load("seed002_matrix_mult").gpu_matrix_mult
    n = 40
    A = rng.random((n, n))
    B = rng.random((n, n))
    C = np.zeros_like(A)
    tpb = (16, 16)
    k[(nblocks(n, 16), nblocks(n, 16)), tpb](A, B, C)
    close(C, A @ B, rtol=1e-12)


def test_seed002_grayscale(load, rng):
    k = load("seed002_grayscale").gpu_grayscale
    img = rng.integers(0, 256, (37, 53, 3), dtype=u8)
    res = np.zeros_like(img)
    k[(nblocks(37, 16), nblocks(53, 16)), (16, 16)](img, res)
    r, g, b = (img[..., c].astype(f64) for c in range(3))
    gray = (0.2989 * r + 0.5870 * g + 0.1140 * b).astype(i64)
    want = np.repeat(gray[..., None], 3, axis=2).astype(u8)
    diff = np.abs(res.astype(i64) - want)
    # a value that lands on an integer may round either way with an FMA
    assert diff.max() <= 1
    assert (diff != 0).mean() < 0.01


def test_seed003_gpu_add(load, rng):
    k = load("seed003_gpu_add").gpu_add
    n = 1024
    x = rng.random(n, dtype=f32)
    y = rng.random(n, dtype=f32)
    out = np.empty_like(x)
    k[n // 128, 128](x, y, out)
    equal(out, x + y)


def test_seed003_gpu_reduce(load):
    k = load("seed003_gpu_reduce").gpu_reduce
    n = 1024
    a = np.arange(n, dtype=f32)
    out = np.zeros(1, dtype=f32)
    k[2, 64](a, out)        # 128 threads: each sums 8 elements
    assert out[0] == n * (n - 1) // 2


# ---------------------------------------------------------- indexing, grids

def test_saxpy(load, rng):
    k = load("saxpy").saxpy
    n = 5000
    a = f32(2.5)
    x = rng.standard_normal(n).astype(f32)
    y = rng.standard_normal(n).astype(f32)
    out = np.zeros(n, dtype=f32)
    k[nblocks(n, 128), 128](a, x, y, out)
    close(out, a * x + y, rtol=1e-6, atol=1e-6)


def test_grid_stride(load, rng):
    k = load("grid_stride").scale_grid_stride
    n = 10_000
    x = rng.standard_normal(n)
    out = np.zeros(n)
    k[4, 64](x, out, 1.5)
    close(out, x * 1.5 + 1.0, rtol=1e-15, atol=1e-15)


def test_grid_stride_while(load, rng):
    k = load("grid_stride_while").square_while
    a = rng.integers(-100_000, 100_000, 3000).astype(i32)
    out = np.zeros(3000, dtype=i64)
    k[3, 32](a, out)
    equal(out, a.astype(i64) ** 2)


def test_index_2d(load, rng):
    k = load("index_2d").sub_2d
    a = rng.standard_normal((50, 70)).astype(f32)
    b = rng.standard_normal((50, 70)).astype(f32)
    out = np.zeros_like(a)
    k[(nblocks(50, 8), nblocks(70, 16)), (8, 16)](a, b, out)
    close(out, (a.astype(f64) - 2 * b.astype(f64)).astype(f32), rtol=1e-7)


def test_index_3d(load, rng):
    k = load("index_3d").scale_3d
    shape = (5, 6, 7)
    a = rng.standard_normal(shape)
    out = np.zeros(shape)
    k[(3, 2, 1), (2, 4, 8)](a, out)
    i, j, l = np.indices(shape)
    close(out, a * (i + 1) + j * 10 + l * 100, rtol=1e-14)


def test_threadidx_2d(load):
    k = load("threadidx_2d").thread_ids_2d
    pos = np.full((30, 45), -7, dtype=i32)
    local = np.full((30, 45), -7, dtype=i32)
    k[(nblocks(45, 16), nblocks(30, 8)), (16, 8)](pos, local)
    row, col = np.indices((30, 45))
    equal(pos, row * 1000 + col)
    equal(local, (row % 8) * 16 + col % 16)


def test_threadidx_3d(load):
    k = load("threadidx_3d").thread_ids_3d
    out = np.full((4, 6, 8), -1, dtype=i64)
    k[(2, 2, 2), (4, 3, 2)](out)
    equal(out, np.arange(4 * 6 * 8).reshape(4, 6, 8))


def test_gridsize_2d(load, rng):
    k = load("gridsize_2d").transpose_grid_stride
    a = rng.standard_normal((23, 37)).astype(f32)
    out = np.zeros((37, 23), dtype=f32)
    k[(2, 2), (4, 4)](a, out)
    equal(out, a.T)


# ---------------------------------------------------- shared memory, atomics

def test_matmul_shared(load, rng):
    mod = load("matmul_shared")
    n = 48
    A = rng.random((n, n), dtype=f32)
    B = rng.random((n, n), dtype=f32)
    C = np.zeros((n, n), dtype=f32)
    g = nblocks(n, mod.TPB)
    mod.fast_matmul[(g, g), (mod.TPB, mod.TPB)](A, B, C)
    close(C, A.astype(f64) @ B.astype(f64), rtol=1e-4, atol=1e-5)


def test_reduce_tree(load, rng):
    mod = load("reduce_tree")
    n = 1000
    x = rng.integers(0, 100, n).astype(f32)
    nb = nblocks(n, mod.TPB)
    partial = np.full(nb, -1, dtype=f32)
    mod.block_sum[nb, mod.TPB](x, partial)
    padded = np.zeros(nb * mod.TPB, dtype=f32)
    padded[:n] = x
    equal(partial, padded.reshape(nb, mod.TPB).sum(axis=1))


def test_reduce_atomic(load, rng):
    k = load("reduce_atomic").sum_atomic
    a = rng.integers(-1000, 1000, 5000).astype(i32)
    total = np.zeros(1, dtype=i64)
    k[4, 64](a, total)
    assert total[0] == a.astype(i64).sum()


def test_histogram(load, rng):
    mod = load("histogram")
    data = rng.integers(0, 256, 10_000).astype(u8)
    hist = np.zeros(mod.NBINS, dtype=i32)
    mod.histogram[8, 64](data, hist)
    equal(hist, np.bincount(data % mod.NBINS, minlength=mod.NBINS))


def test_atomics_global(load, rng):
    k = load("atomics_global").atomic_add_all
    n = 2000
    keys = rng.integers(0, 8, n).astype(i64)
    outs = [np.zeros(8, dtype=t) for t in (i32, u32, i64, u64, f32, f64)]
    k[nblocks(n, 128), 128](*outs, keys)
    idx = np.arange(n)
    count = np.bincount(keys, minlength=8)
    equal(outs[0], -count)
    equal(outs[1], 3 * count)
    equal(outs[2], np.bincount(keys, weights=idx, minlength=8).astype(i64))
    equal(outs[3], count.astype(u64) << u64(33))
    equal(outs[4], 0.5 * count)
    equal(outs[5], np.bincount(keys, weights=idx * 0.25, minlength=8))


def test_atomic_compact(load, rng):
    k = load("atomic_compact").compact_positive
    n = 3000
    x = rng.standard_normal(n).astype(f32)
    out = np.zeros(n, dtype=f32)
    count = np.zeros(1, dtype=i32)
    k[nblocks(n, 128), 128](x, out, count)
    c = int(count[0])
    assert c == (x > 0).sum()
    equal(np.sort(out[:c]), np.sort(x[x > 0]))
    assert not out[c:].any()


def test_atomics_shared(load, rng):
    mod = load("atomics_shared")
    n = 1000
    keys = rng.integers(0, mod.NB, n).astype(i64)
    outs = [np.zeros(mod.NB, dtype=t) for t in (i32, u32, i64, u64, f32, f64)]
    mod.shared_atomics[nblocks(n, 128), 128](keys, *outs)
    count = np.bincount(keys, minlength=mod.NB)
    equal(outs[0], -count)
    equal(outs[1], 2 * count)
    equal(outs[2], np.bincount(keys, weights=np.arange(n), minlength=mod.NB).astype(i64))
    equal(outs[3], 5 * count)
    equal(outs[4], 0.25 * count)
    equal(outs[5], 1.5 * count)


def test_transpose_shared(load, rng):
    mod = load("transpose_shared")
    a = rng.standard_normal((40, 56)).astype(f32)
    out = np.zeros((56, 40), dtype=f32)
    mod.transpose[(nblocks(56, mod.TILE), nblocks(40, mod.TILE)), (mod.TILE, mod.TILE)](a, out)
    equal(out, a.T)


def test_scan_block(load, rng):
    mod = load("scan_block")
    n = 300
    x = rng.integers(0, 10, n).astype(i32)
    out = np.zeros(n, dtype=i32)
    nb = nblocks(n, mod.BLOCK)
    mod.inclusive_scan[nb, mod.BLOCK](x, out)
    padded = np.zeros(nb * mod.BLOCK, dtype=i32)
    padded[:n] = x
    equal(out, np.cumsum(padded.reshape(nb, -1), axis=1).reshape(-1)[:n])


# ------------------------------------------------------------ numerics

def test_stencil_1d(load, rng):
    k = load("stencil_1d").smooth3
    x = rng.standard_normal(1000).astype(f32)
    out = np.zeros_like(x)
    k[nblocks(1000, 128) + 1, 128](x, out)
    want = x.copy()
    want[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / f32(3)
    close(out, want, rtol=1e-6, atol=1e-7)


def test_stencil_2d(load, rng):
    k = load("stencil_2d").jacobi_step
    a = rng.standard_normal((40, 50))
    out = np.zeros_like(a)
    k[(3, 4), (16, 16)](a, out)
    want = a.copy()
    want[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    close(out, want, rtol=1e-15, atol=1e-15)


def mandel_ref(min_x, max_x, min_y, max_y, iters, h, w):
    x = np.arange(w)[None, :]
    y = np.arange(h)[:, None]
    c_re = min_x + x * ((max_x - min_x) / w) + 0 * y
    c_im = min_y + y * ((max_y - min_y) / h) + 0 * x
    z_re = np.zeros((h, w))
    z_im = np.zeros((h, w))
    count = np.full((h, w), iters, dtype=i64)
    alive = np.ones((h, w), dtype=bool)
    for i in range(iters):
        zr2 = z_re * z_re
        zi2 = z_im * z_im
        esc = alive & (zr2 + zi2 >= 4.0)
        count[esc] = i
        alive &= ~esc
        z_im = np.where(alive, 2.0 * z_re * z_im + c_im, z_im)
        z_re = np.where(alive, zr2 - zi2 + c_re, z_re)
    return count.astype(u8)


def test_mandelbrot(load):
    k = load("mandelbrot").mandel
    h, w, iters = 48, 64, 60
    img = np.zeros((h, w), dtype=u8)
    k[(nblocks(w, 16), nblocks(h, 8)), (16, 8)](-2.0, 1.0, -1.0, 1.0, iters, img)
    want = mandel_ref(-2.0, 1.0, -1.0, 1.0, iters, h, w)
    # FMAs may move a few points on the set's boundary
    assert (img != want).mean() < 0.02
    assert img.min() == 1 and img.max() == iters


def test_black_scholes_like(load, rng):
    k = load("black_scholes_like").black_scholes_like
    n = 2000
    S = rng.uniform(5, 30, n)
    K = rng.uniform(1, 100, n)
    T = rng.uniform(0.25, 10, n)
    r, v = 0.02, 0.30
    call = np.zeros(n)
    put = np.zeros(n)
    k[nblocks(n, 128), 128](call, put, S, K, T, r, v)

    def cnd(d):
        t = np.abs(d) * 0.7071067811865476
        h = 0.5 * t / (1.0 + t)
        return np.where(d < 0, 0.5 - h, 0.5 + h)

    sqrt_t = np.sqrt(T)
    d1 = (S / K - 1.0 + (r + 0.5 * v * v) * T) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    disc = 1.0 / (1.0 + r * T)
    c = S * cnd(d1) - K * disc * cnd(d2)
    want_call = np.floor(c * 100.0 + 0.5) / 100.0
    want_put = np.ceil((c - S + K * disc) * 100.0) / 100.0
    close(call, want_call, rtol=0, atol=0.0100001)
    close(put, want_put, rtol=0, atol=0.0100001)
    assert (np.abs(call - want_call) > 1e-9).mean() < 0.01
    assert (np.abs(put - want_put) > 1e-9).mean() < 0.01


def test_int_arith(load, rng):
    k = load("int_arith").int_ops
    n = 500
    a = rng.integers(-1000, 1000, n)
    b = rng.integers(1, 20, n) * rng.choice([-1, 1], n)
    out = np.zeros((n, 9), dtype=i64)
    k[nblocks(n, 64), 64](a, b, out)
    i = np.arange(n)
    equal(out[:, 0], a // b)
    equal(out[:, 1], a % b)
    equal(out[:, 2], (-a) // 3)
    equal(out[:, 3], a % -7)
    equal(out[:, 4], (a % 5 - 2) ** 3)
    equal(out[:, 5], 2 ** (i % 10))
    equal(out[:, 6], 0)
    equal(out[:, 7], (-a) // b + (-a) % b)
    equal(out[:, 8], 1 + b)


def test_int_bits(load, rng):
    k = load("int_bits").bit_ops
    n = 400
    a = rng.integers(-2**31, 2**31, n).astype(i32)
    u = rng.integers(0, 2**32, n).astype(u32)
    out = np.zeros((n, 10), dtype=i64)
    k[nblocks(n, 64), 64](a, u, out)
    x = a.astype(i64)
    y = u.astype(i64)
    i = np.arange(n)
    equal(out[:, 0], x << 3)
    equal(out[:, 1], x >> 2)
    equal(out[:, 2], y >> 5)
    equal(out[:, 3], x & 0xFF)
    equal(out[:, 4], x | 0x100)
    equal(out[:, 5], x ^ y)
    equal(out[:, 6], ~x)
    equal(out[:, 7], (y << 4) & 0xFFFFFFFF)
    equal(out[:, 8], x << (i % 8))
    equal(out[:, 9], (x >> (i % 31)) ^ (y & 0xF0F0))


def test_mixed_promotion(load, rng):
    k = load("mixed_promotion").promote
    n = 300
    a = rng.integers(-2**31, 2**31, n).astype(i32)
    b = rng.integers(-2**31, 2**31, n).astype(i32)
    b[b == 0] = 1
    a[:4] = b[:4] = 2**31 - 1          # int32 + int32 must not wrap
    u = rng.integers(0, 2**32, n).astype(u32)
    u[:4] = 2**32 - 1                  # nor uint32 + uint32
    f = rng.standard_normal(n).astype(f32)
    li = rng.integers(-2**40, 2**40, n)
    lu = rng.integers(0, 2**64, n, dtype=u64)
    out = np.zeros((n, 8))
    k[nblocks(n, 64), 64](a, b, u, f, li, lu, out)
    A, B = a.astype(i64), b.astype(i64)
    equal(out[:, 0], (A + B).astype(f64))
    equal(out[:, 1], (u.astype(u64) * 2).astype(f64))
    equal(out[:, 2], f.astype(f64) * 0.1)
    equal(out[:, 3], f.astype(f64) + li.astype(f64))
    # Numba types int64 + uint64 as int64 (integer typing: signed if any
    # operand is signed, at least 64 bits), wrapping like C.
    equal(out[:, 4], (li + lu.view(i64)).astype(f64))
    equal(out[:, 5], A.astype(f64) / B.astype(f64))
    equal(out[:, 6], (A * B).astype(f64))
    equal(out[:, 7], (f * f32(0.1)).astype(f64))


def test_float32_stays(load, rng):
    k = load("float32_stays").f32_stays
    x = np.concatenate([[2.0**24, 1.5, 3.0, 0.0], rng.random(60) * 100]).astype(f32)
    out = np.zeros((x.size, 6))
    k[2, 32](x, out)
    d = x.astype(f64)
    equal(out[:, 0], (x + f32(1)).astype(f64))
    equal(out[:, 1], d + 1.0)
    equal(out[:, 2], (x * x).astype(f64))
    equal(out[:, 3], np.sqrt(x).astype(f64))
    equal(out[:, 4], d + 1.0)
    equal(out[:, 5], (x / f32(3)).astype(f64))
    assert out[0, 0] == 2.0**24 and out[0, 1] == 2.0**24 + 1


def test_float32_arith(load, rng):
    k = load("float32_arith").f32_chain
    n = 1000
    x = rng.uniform(0.5, 2, n).astype(f32)
    y = rng.uniform(0.5, 2, n).astype(f32)
    out = np.zeros(n, dtype=f32)
    k[nblocks(n, 128), 128](x, y, out)
    c = x / y
    close(out, (c * c - x) / (f32(1) + np.abs(y)), rtol=1e-5, atol=1e-6)


def test_bool_logic(load, rng):
    k = load("bool_logic").bool_logic
    n = 500
    x = rng.standard_normal(n).astype(f32)
    y = rng.standard_normal(n).astype(f32)
    flags = rng.random(n) < 0.5
    out = np.full((n, 8), -1, dtype=i32)
    k[nblocks(n, 64), 64](x, y, flags, out)
    p, q, f = x > 0, y > x, flags
    i = np.arange(n)
    equal(out[:, 0], p & q)
    equal(out[:, 1], p | f)
    equal(out[:, 2], ~p)
    equal(out[:, 3], (p & ~q) | (f & q))
    equal(out[:, 4], p != q)
    equal(out[:, 5], np.where(i % 3 != 0, i % 3, 5))
    equal(out[:, 6], np.where(i % 2 == 0, 0, i % 3))
    equal(out[:, 7], ~(p | q | f))


def test_chained_compare(load, rng):
    k = load("chained_compare").chained
    n = 400
    x = rng.random(n)
    x[:3] = [0.25, 0.75, 0.5]
    kk = rng.integers(-3, 7, n)
    out = np.full((n, 6), -1, dtype=i32)
    k[nblocks(n, 64), 64](x, kk, out)
    equal(out[:, 0], (0.25 <= x) & (x < 0.75))
    equal(out[:, 1], (-1 < kk) & (kk <= 2))
    equal(out[:, 2], (x < kk) & (kk > -10))
    equal(out[:, 3], (kk != 0) & (x != 0))
    equal(out[:, 4], (0 <= kk) & (kk < 3) & ~((0.5 < x) & (x <= 1)))
    equal(out[:, 5], (kk >= 0) & (0 > x - 1))


def test_cond_expr(load, rng):
    k = load("cond_expr").clamp_sign
    x = (rng.standard_normal(300) * 2).astype(f32)
    x[:5] = [0, 1, -1, 1.5, -1.5]
    out = np.zeros_like(x)
    k[nblocks(300, 64), 64](x, out)
    d = x.astype(f64)
    s = np.sign(d)
    c = np.where(np.abs(d) <= 1, d, np.where(d > 1, 1.0, -1.0))
    equal(out, (s * 10 + c).astype(f32))


def test_builtins(load, rng):
    k = load("builtins").builtins
    n = 300
    x = rng.uniform(-100, 100, n)
    x[:10] = [2.5, 3.5, -2.5, -0.5, 0.5, 1.5, -1.5, 100.5, 4.49999, 0.0]
    kk = rng.integers(-10, 10, n)
    f = rng.uniform(-2, 2, n).astype(f32)
    out = np.zeros((n, 10))
    k[nblocks(n, 64), 64](x, kk, f, out)
    equal(out[:, 0], np.minimum(x, kk))
    equal(out[:, 1], np.maximum(np.maximum(x, kk), 0.5))
    equal(out[:, 2], np.abs(kk))
    equal(out[:, 3], np.abs(x))
    equal(out[:, 4], np.trunc(x))
    equal(out[:, 5], kk / 3)
    equal(out[:, 6], np.round(x))
    equal(out[:, 7], np.minimum(f, f32(0.5)).astype(f64))
    equal(out[:, 8], np.maximum(kk, -3))
    equal(out[:, 9], np.trunc(f.astype(f64) * 4))


def test_np_casts(load, rng):
    k = load("np_casts").casts
    n = 300
    x = rng.uniform(-1000, 1000, n)
    kk = rng.integers(-2**40, 2**40, n)
    fout = np.zeros((n, 3), dtype=f32)
    iout = np.zeros((n, 5), dtype=i64)
    k[nblocks(n, 64), 64](x, kk, fout, iout)
    equal(fout[:, 0], x.astype(f32))
    equal(fout[:, 1], kk.astype(f32) / f32(3))
    equal(fout[:, 2], (x.astype(f32).astype(f64) * 2).astype(f32))
    equal(iout[:, 0], kk.astype(i32))
    equal(iout[:, 1], kk.astype(u8))
    equal(iout[:, 2], x.astype(i16))
    equal(iout[:, 3], (x.astype(f32) * f32(2)).astype(i64))
    equal(iout[:, 4], kk.astype(u32))


@cuda.jit
def float_to_small(x, u8, i8, u16, i16, via):
    i = cuda.grid(1)
    if i < x.size:
        u8[i] = x[i]
        i8[i] = x[i]
        u16[i] = x[i]
        i16[i] = x[i]
        via[i] = np.int32(np.uint8(x[i]))   # the value itself, not only its store


def small_reference(x, bits, signed):
    """Numba's float -> 8/16-bit conversion on the GPU: truncate, saturate
    to the 16-bit range (cvt.rzi.s16/.u16), keep the low bits."""
    t = np.trunc(np.nan_to_num(x.astype(np.float64), nan=0.0))
    t = np.clip(t, -32768, 32767) if signed else np.clip(t, 0, 65535)
    t = t.astype(np.int64) & ((1 << bits) - 1)
    if signed:
        t = np.where(t >= 1 << (bits - 1), t - (1 << bits), t)
    return t


def test_float_to_small_ints_as_numba(rng):
    # out of the 8-bit range a float keeps the low byte of its 16-bit
    # conversion (300.0 -> 44 as uint8), as Numba's code does, not 255
    x = np.concatenate([rng.uniform(-80000, 80000, 500), rng.uniform(-300, 300, 500),
                        [300.0, -5.0, 70000.0, -70000.0, 255.9, 127.5, 128.0, -129.0, 200.0,
                         -1000.0, np.nan, np.inf, -np.inf, -0.5]]).astype(f32)
    outs = [np.zeros(x.size, t) for t in (np.uint8, np.int8, np.uint16, np.int16, np.int32)]
    float_to_small[nblocks(x.size, 128), 128](x, *outs)
    equal(outs[0], small_reference(x, 8, False))
    equal(outs[1], small_reference(x, 8, True))
    equal(outs[2], small_reference(x, 16, False))
    equal(outs[3], small_reference(x, 16, True))
    equal(outs[4], small_reference(x, 8, False))
    assert outs[0][x.size - 14] == 44 and outs[0][x.size - 12] == 255


def test_float_store_to_bytes_has_no_extension():
    """A float stored to a uint8/int8 array is one 16-bit conversion and
    the byte store reads it: no 32-bit extension or clamp in between."""
    x = np.zeros(8, f32)
    outs = [np.zeros(8, t) for t in (np.uint8, np.int8, np.uint16, np.int16, np.int32)]
    argtypes = float_to_small._typeof((x, *outs))
    ptx = float_to_small._compile(", ".join(argtypes), argtypes, 3).ptx
    body = ptx[ptx.index(".entry"):]
    assert re.search(r"cvt\.rzi\.u16\.f32 (%h\d+), %f\d+;\s*st\.global\.u8 \[[^]]*\], \1;", body)
    assert re.search(r"cvt\.rzi\.s16\.f32 (%h\d+), %f\d+;\s*st\.global\.s8 \[[^]]*\], \1;", body)
    assert "min." not in body and "max." not in body


def test_negative_index(load, rng):
    k = load("negative_index").neg_index
    x = rng.standard_normal(100).astype(f32)
    m = rng.standard_normal((5, 6)).astype(f32)
    out = np.zeros(100, dtype=f32)
    k[2, 64](x, m, out)
    d = x.astype(f64)
    want = d[-1] + d * 10 + f64(m[-1, -2]) * 100 + d[::-1] * 1000
    close(out, want.astype(f32), rtol=1e-6, atol=1e-5)


def test_tuple_ops(load, rng):
    k = load("tuple_ops").tuples
    x = rng.standard_normal(100)
    out = np.zeros((100, 5))
    k[2, 64](x, out)
    i = np.arange(100)
    equal(out[:, 0], 2 * x)
    equal(out[:, 1], x)
    equal(out[:, 2], 2 * i)
    equal(out[:, 3], i)
    equal(out[:, 4], 3)


def test_module_constants(load):
    mod = load("module_constants")
    out = np.zeros(300)
    mod.constants[nblocks(300, 128), 128](out)
    i = np.arange(300)
    v = 1.5 * i + 2 + 128
    close(out, v + (i & 0xF0) + math.pi, rtol=1e-15)


def test_augassign(load, rng):
    k = load("augassign").augassign
    n = 64
    kk = rng.integers(-500, 500, n)
    x = rng.standard_normal(n)
    x0 = x.copy()
    out = np.zeros((n, 4), dtype=i64)
    k[1, 64](kk, x, out)
    i = np.arange(n)
    equal(out[:, 0], ((kk + 3 - 1) * 2 // 3) % 1000)
    equal(out[:, 1], ((((i << 4) | 3) ^ 1) & 0xFE) >> 1)
    equal(out[:, 2], (7 + kk) * 2)
    equal(out[:, 3], 2 ** (i % 6))
    equal(x, x0 / 2 - 0.5)


def test_conv1d(load, rng):
    k = load("conv1d").conv1d
    x = rng.standard_normal(500).astype(f32)
    w = rng.standard_normal(7).astype(f32)
    out = np.zeros_like(x)
    k[nblocks(500, 128), 128](x, w, out)
    xp = np.concatenate([np.zeros(3), x.astype(f64), np.zeros(3)])
    want = sum(xp[j:j + 500] * f64(w[j]) for j in range(7))
    close(out, want, rtol=1e-4, atol=1e-5)


def test_uint_arith(load, rng):
    k = load("uint_arith").uint_ops
    n = 300
    a = rng.integers(1, 2**32, n).astype(u32)
    b = rng.integers(0, 2**64, n, dtype=u64)
    b[:3] = [2**63, 2**64 - 1, 5]
    out = np.zeros((n, 7), dtype=u64)
    k[nblocks(n, 64), 64](a, b, out)
    A = a.astype(u64)
    equal(out[:, 0], A * A)
    equal(out[:, 1], b + b)
    equal(out[:, 2], b // A)
    equal(out[:, 3], b % A)
    equal(out[:, 4], (A > b).astype(u64))
    equal(out[:, 5], A - np.roll(A, -1))
    equal(out[:, 6], np.maximum(A, b))


def test_math_funcs(load, rng):
    k = load("math_funcs").math_funcs
    n = 300
    f = rng.uniform(0, 10, n).astype(f32)
    d = rng.uniform(0, 100, n)
    d[:4] = [50.0, 49.5, 50.5, 0.0]
    kk = rng.integers(0, 1000, n)
    out = np.zeros((n, 6))
    iout = np.zeros((n, 5), dtype=i64)
    k[nblocks(n, 64), 64](f, d, kk, out, iout)
    equal(out[:, 0], np.sqrt(f).astype(f64))
    equal(out[:, 1], np.sqrt(d))
    equal(out[:, 2], np.abs(f.astype(f64) - 1))
    equal(out[:, 3], np.abs(d - 50.0))
    equal(out[:, 4], np.sqrt(kk.astype(f64)))
    equal(out[:, 5], np.floor(d - 50.0) / 2)
    equal(iout[:, 0], np.floor(d - 50.0))
    equal(iout[:, 1], np.ceil(d - 50.0))
    equal(iout[:, 2], np.floor(f.astype(f64) - 0.5))
    equal(iout[:, 3], np.ceil(-f))
    equal(iout[:, 4], kk)


def test_powers(load, rng):
    k = load("powers").powers
    n = 200
    x = rng.uniform(0.5, 2, n)
    y = rng.uniform(-3, 3, n).astype(f32)
    out = np.zeros((n, 6))
    k[nblocks(n, 64), 64](x, y, out)
    i = np.arange(n)
    close(out[:, 0], x * x, rtol=1e-15)
    close(out[:, 1], x ** 3, rtol=1e-14)
    equal(out[:, 2], (y * y).astype(f64))
    close(out[:, 3], 1 / x, rtol=1e-15)
    equal(out[:, 4], 1024 + (i % 4) ** 3)
    close(out[:, 5], x ** (i % 5), rtol=1e-14)


def test_nbody_like(load, rng):
    k = load("nbody_like").accel
    n = 64
    pos = rng.standard_normal((n, 3)).astype(f32)
    acc = np.zeros_like(pos)
    k[2, 32](pos, acc, f32(0.01))
    p = pos.astype(f64)
    d = p[None, :, :] - p[:, None, :]
    d2 = (d * d).sum(axis=2) + f64(f32(0.01))
    want = (d / (d2 * np.sqrt(d2))[:, :, None]).sum(axis=1)
    close(acc, want, rtol=1e-3, atol=1e-3)


# -------------------------------------------------------- layouts, dtypes

def test_layout_f(load, rng):
    k = load("layout_f").add_f
    a = np.asfortranarray(rng.standard_normal((20, 30)).astype(f32))
    b = np.asfortranarray(rng.standard_normal((20, 30)).astype(f32))
    out = np.zeros((20, 30), dtype=f32, order="F")
    k[(3, 4), (8, 8)](a, b, out)
    i = np.arange(20)[:, None]
    close(out, (a.astype(f64) + b.astype(f64) * i).astype(f32), rtol=1e-6)


def test_layout_a(load, rng):
    k = load("layout_a").strided_copy
    big = rng.standard_normal((40, 90)).astype(f32)
    dbig = cuda.to_device(big)
    dout = cuda.to_device(np.zeros((50, 70), dtype=f32))
    src = dbig[::2, 1::3]
    dst = dout[5:25, 10:70:2]
    assert src.shape == dst.shape == (20, 30)
    k[(3, 4), (8, 8)](src, dst)
    res = dout.copy_to_host()
    equal(res[5:25, 10:70:2], big[::2, 1::3] + 1)
    res[5:25, 10:70:2] = 0
    assert not res.any(), "a store went outside the view"


def test_layout_a_transposed_host_array(load, rng):
    k = load("layout_a").strided_copy
    a = rng.standard_normal((30, 20)).astype(f32)
    out = np.zeros((20, 30), dtype=f32)
    k[(3, 4), (8, 8)](a.T, out)
    equal(out, a.T + 1)


def test_layout_a_1d(load):
    k = load("layout_a_1d").strided_1d
    d = cuda.to_device(np.arange(100, dtype=f64))
    dout = cuda.device_array(34, dtype=f64)
    view = d[::3]
    k[1, 64](view, dout)
    a = np.arange(100, dtype=f64)[::3]
    equal(dout.copy_to_host(), a * 3 - a[-1])


def test_slice_views(load, rng):
    k = load("slice_views").slices
    m = rng.standard_normal((30, 7)).astype(f32)
    x = rng.standard_normal(9).astype(f32)
    out = np.zeros(30, dtype=f32)
    k[1, 32](m, x, out)
    want = (m[:, 0].astype(f64) + m[:, -1] + f64(x[1]) * 10 + 200 + f64(x[2]) * 1000).astype(f32)
    close(out, want, rtol=1e-6, atol=1e-5)


def test_rgb_to_gray(load, rng):
    k = load("rgb_to_gray").rgb_to_gray
    img = rng.integers(0, 256, (33, 47, 3), dtype=u8)
    gray = np.zeros((33, 47), dtype=u8)
    k[(nblocks(33, 8), nblocks(47, 16)), (8, 16)](img, gray)
    r, g, b = (img[..., c].astype(i64) for c in range(3))
    equal(gray, ((r * 299 + g * 587 + b * 114) // 1000).astype(u8))


def test_small_ints(load, rng):
    k = load("small_ints").small_ints
    n = 500
    a8 = rng.integers(-128, 128, n).astype(i8)
    a16 = rng.integers(-2**15, 2**15, n).astype(i16)
    u16_ = rng.integers(0, 2**16, n).astype(u16)
    o8 = np.zeros(n, dtype=i8)
    o16 = np.zeros(n, dtype=i16)
    ou16 = np.zeros(n, dtype=u16)
    k[nblocks(n, 128), 128](a8, a16, u16_, o8, o16, ou16)
    A8, A16, U16 = a8.astype(i64), a16.astype(i64), u16_.astype(i64)
    equal(o8, (A8 * 3 + 1).astype(i8))
    equal(o16, (A16 - A8 * 100).astype(i16))
    equal(ou16, np.where(A8 < 0, U16 + 40000, np.minimum(U16, A16)).astype(u16))


def test_bool_arrays(load, rng):
    k = load("bool_arrays").bool_arrays
    n = 700
    a = rng.random(n) < 0.5
    b = rng.random(n) < 0.5
    out = np.zeros(n, dtype=bool)
    count = np.zeros(1, dtype=i64)
    k[nblocks(n, 128), 128](a, b, out, count)
    equal(out, a & ~b)
    assert count[0] == (a & ~b).sum()


def test_shape_size_ndim(load):
    k = load("shape_size_ndim").shape_info
    a = np.zeros((3, 4, 5), dtype=f32)
    out = np.zeros(9, dtype=i64)
    k[1, 32](a, out)
    equal(out, [3, 4, 5, 60, 3, 3, 9, 5, 345])


def test_lane_warp(load):
    k = load("lane_warp").lane_ids
    n = 300
    lane, warp, wid = (np.full(n, -1, dtype=i32) for _ in range(3))
    k[4, 96](lane, warp, wid)
    t = np.arange(n) % 96
    equal(lane, t % 32)
    equal(warp, 32)
    equal(wid, t // 32)


def test_scalar_args(load):
    k = load("scalar_args").scalar_args
    out = np.zeros(100, dtype=f32)
    k[1, 128](out, True, 5, 0.5)
    equal(out, -(np.arange(100) + 5) * 0.5)
    k[1, 128](out, False, -3, 2.0)
    equal(out, (np.arange(100) - 3) * 2.0)


# ---------------------------------------------------------- device functions

def test_device_func(load, rng):
    k = load("device_func").lerp_kernel
    a = rng.standard_normal(1000).astype(f32)
    b = rng.standard_normal(1000).astype(f32)
    out = np.zeros_like(a)
    k[nblocks(1000, 128), 128](a, b, out)
    close(out, a + (b - a) * f32(0.25), rtol=1e-6, atol=1e-6)


def test_device_nested(load, rng):
    k = load("device_nested").to_polar
    n = 300
    xs = rng.standard_normal(n)
    ys = rng.standard_normal(n)
    xs[0] = ys[0] = 0.0
    out = np.full((n, 2), -1.0)
    k[nblocks(n, 64), 64](xs, ys, out)
    r = np.sqrt(xs * xs + ys * ys)
    close(out[:, 0], r, rtol=1e-14)
    close(out[1:, 1], xs[1:] / r[1:], rtol=1e-14)
    equal(out[0], [0.0, 0.0])


def test_device_defaults(load, rng):
    k = load("device_defaults").clamp_kernel
    x = rng.standard_normal(200) * 1.5
    out = np.zeros((200, 4))
    k[nblocks(200, 64), 64](x, out)
    equal(out[:, 0], np.clip(x, 0.0, 1.0))
    equal(out[:, 1], np.clip(x, -0.5, 1.0))
    equal(out[:, 2], np.clip(x, 0.0, 2.0))
    equal(out[:, 3], np.clip(x, -1.0, 0.25))


def test_device_array_arg(load, rng):
    k = load("device_array_arg").first_above_kernel
    m = rng.random((40, 25), dtype=f32)
    m[3] = 0.1                      # a row with no value above
    out = np.full(40, 99, dtype=i64)
    k[1, 64](m, f32(0.9), out)
    above = m > f32(0.9)
    equal(out, np.where(above.any(axis=1), above.argmax(axis=1), -1))


# ------------------------------------------------------------ control flow

def test_for_neg_step(load, rng):
    k = load("for_neg_step").loops
    a = rng.integers(0, 100, 20)
    out = np.zeros((30, 4), dtype=i64)
    k[1, 32](a, out)
    for i in range(30):
        last = -2
        for j in range(19, -1, -1):
            if j <= i and a[j] % 2 == 0:
                last = j
                break
        assert out[i, 0] == last, i
        assert out[i, 1] == sum(range(i, -1, -3)), i
        assert out[i, 2] == 100
        assert out[i, 3] == len(range(10, i, -2)), i


def test_while_else(load, rng):
    k = load("while_else").collatz
    starts = rng.integers(1, 100, 64)
    starts[:3] = [1, 27, 2]
    out = np.zeros((64, 2), dtype=i64)
    k[1, 64](starts, out)
    for i, n in enumerate(starts):
        steps = 0
        while n != 1:
            if steps >= 50:
                break
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        else:
            steps += 1000
        assert list(out[i]) == [steps, n], (i, starts[i])


def test_early_return(load, rng):
    k = load("early_return").early_return
    n = 200
    x = (rng.standard_normal(n) * 10).astype(f32)
    out = np.full(n, 7.0, dtype=f32)
    k[nblocks(n, 64) + 1, 64](x, out, 150)
    for i in range(n):
        if x[i] < 0:
            want = 7.0
        elif i >= 150:
            want = -1.0
        else:
            v = f64(x[i])
            while v >= 1:
                v = v / 2
            want = f32(v)
        assert out[i] == want, (i, x[i])


def test_primes_while(load, rng):
    k = load("primes_while").count_primes_below
    ns = rng.integers(0, 120, 64)
    out = np.zeros(64, dtype=i64)
    k[1, 64](ns, out)

    def primes_below(n):
        return sum(1 for v in range(2, n) if all(v % d for d in range(2, int(v ** 0.5) + 1)))

    equal(out, [primes_below(int(n)) for n in ns])


def test_literals(load):
    k = load("literals").literals
    out = np.zeros((10, 6))
    k[1, 32](out)
    i = np.arange(10)
    equal(out[:, 0], 1051)
    equal(out[:, 1], 1e-3 + 2.5E2 + .5 + 3.)
    equal(out[:, 2], (i + 1) * 2)
    equal(out[:, 3], i * 3)
    equal(out[:, 4], 1)
    equal(out[:, 5], 255.0)


def test_tabs_indent(load):
    k = load("tabs_indent").tabs
    out = np.zeros(50, dtype=i64)
    k[1, 64](out)
    i = np.arange(50)
    equal(out, np.where(i % 2 == 0, i, -i))


def test_assert_raise(load, rng):
    k = load("assert_raise").guards
    x = rng.random(100, dtype=f32)
    out = np.zeros_like(x)
    k[1, 128](x, out)
    equal(out, x * 2)


def test_float16(load, rng):
    from test_float16 import exact_fma
    mod = load("float16")
    x = (rng.standard_normal(300) * 8).astype(np.float16)
    s = np.float16(-1.75)
    out = np.zeros_like(x)
    mod.half[2, 256](x, out, s)
    with np.errstate(all="ignore"):
        y = np.array([exact_fma(v, s, mod.SCALE) for v in x], np.float16)   # x * s + SCALE, fused
        want = np.fmax(y, np.sqrt(abs(x))) / np.float16(3) - np.floor(x)
    assert same_bits(out, want)


def test_devfn_several_sigs(load, rng):
    mod = load("devfn_several_sigs")
    x = np.float32(rng.standard_normal() * 1e30)          # float32 * 2 overflows; float64 does not
    n = np.int32(rng.integers(2 ** 30, 2 ** 31 - 1))     # int32 * 2 overflows; int64 does not
    out = np.zeros(2)
    mod.k[1, 1](out, x, n)
    assert out[0] == 2 * np.float64(x)
    assert out[1] == 2 * int(n)


def test_nfkc_names(load, rng):
    mod = load("nfkc_names")
    x = (rng.standard_normal(300) * 10).astype(np.float32)
    s = np.float32(rng.uniform(0.5, 2.0))
    p = x * s
    mod.k[2, 256](x, s)
    np.testing.assert_array_equal(x, p + np.floor(p))      # the local ﬁ is fi: the global 3.0 is shadowed


def _math_all_real(x, y):
    """math_all's columns in float64 from x and y."""
    x, y = x.astype(f64), y.astype(f64)
    vec = np.vectorize
    m, e = np.frexp(x)
    f, n = np.modf(y)
    return np.stack([
        np.sin(x) + np.cos(y) + np.tan(x),
        np.arcsin(x) + np.arccos(x) + np.arctan(x) + np.arctan2(x, y),
        np.sinh(x) + np.cosh(y) + np.tanh(x),
        np.arcsinh(x) + np.arccosh(y) + np.arctanh(x),
        np.exp(x) + np.exp2(y) + np.expm1(x),
        np.log(x) + np.log2(y) + np.log10(x) + np.log1p(y),
        2 * x ** y + np.sqrt(x) + np.cbrt(y) + np.hypot(x, y),
        vec(math.erf)(x) + vec(math.erfc)(y) + vec(math.gamma)(x) + vec(math.lgamma)(y),
        np.fmod(x, y) + vec(math.remainder)(x, y) + np.copysign(x, y) + np.ldexp(x, 3),
        np.floor(x) + np.ceil(y) + np.trunc(x) + np.fabs(y) + x,
        np.logaddexp(x, y) + np.logaddexp2(x, y) + np.sign(y),
        2 * np.maximum(x, y) + np.round(x, 2) + x % y + x // y,
        m + e + f + n], axis=1)


def test_math_all(load, rng):
    """Every function of the math library (the catalogue kernel that also
    pins that the compiler's output does not depend on what built it)."""
    mod = load("math_all")
    n = 1000
    for kernel, dt, rtol in ((mod.real, f32, 2e-6), (mod.real, f64, 1e-14), (mod.real_fast, f32, 2e-5)):
        x = rng.uniform(0.1, 0.9, n).astype(dt)
        y = rng.uniform(1.1, 3.0, n).astype(dt)
        out = np.zeros((n, 13), dt)
        kernel[nblocks(n, 128), 128](x, y, out)
        want = _math_all_real(x, y)
        if dt == f32:
            want[:, 11] -= np.round(x.astype(f64), 2) - np.round(x, 2)      # round(x, 2) rounds in float32
        np.testing.assert_allclose(out, want, rtol=rtol, atol=rtol, err_msg="%s %s" % (kernel.__name__, dt))
    for dt, rtol in ((np.complex64, 2e-5), (np.complex128, 1e-13)):
        z = (rng.uniform(-1.5, 1.5, n) + 1j * rng.uniform(-1.5, 1.5, n)).astype(dt)
        w = (rng.uniform(0.5, 1.5, n) + 1j * rng.uniform(-1.5, 1.5, n)).astype(dt)
        out = np.zeros((n, 7), dt)
        mod.cplx[nblocks(n, 128), 128](z, w, out)
        z, w = z.astype(np.complex128), w.astype(np.complex128)
        want = np.stack([
            np.sin(z) + np.cos(w) + np.tan(z),
            np.arcsin(z) + np.arccos(w) + np.arctan(z),
            np.sinh(z) + np.cosh(w) + np.tanh(z),
            np.arcsinh(z) + np.arccosh(w) + np.arctanh(z),
            np.exp(z) + np.log(w) + np.log10(z) + np.log(z) / np.log(w),
            np.sqrt(z) + z ** w + z ** 3 + z / w + z * w,
            abs(z) + np.angle(w) + abs(z) * np.exp(0.5j)], axis=1)
        np.testing.assert_allclose(out, want, rtol=rtol, atol=rtol, err_msg=str(dt))


# ---------------------------------------------------------------- catalogue

def test_every_catalogue_kernel_has_a_test():
    names = sorted(f[:-3] for f in os.listdir(KERNELS) if f.endswith(".py"))
    missing = [n for n in names if "test_" + n not in globals()]
    assert not missing, "catalogue kernels without a test here: %s" % ", ".join(missing)
    assert len(names) >= 45


# ----------------------------------------- warp intrinsics and atomics
# The warp_* and atomic_all_ops catalogue kernels are checked in
# test_warp.py, test_intrinsics.py and test_atomic_ops.py; these names tie
# them to the catalogue.

from test_atomic_ops import test_atomic_all_ops_catalogue as test_atomic_all_ops  # noqa: E402
from test_intrinsics import test_warp_bits_catalogue as test_warp_bits  # noqa: E402
from test_warp import test_shfl_all_types_and_modes as test_warp_shfl  # noqa: E402
from test_warp import test_syncthreads_count_and_or as test_warp_sync  # noqa: E402
from test_warp import test_votes as test_warp_vote  # noqa: E402

# ---------------------------------- Python in kernels, device functions
# The recursion, print_kernel, py_semantics and tuple_args catalogue
# kernels are checked in test_python_in_kernels.py and
# test_device_functions.py.

from test_device_functions import test_recursion  # noqa: E402,F401
from test_python_in_kernels import test_print_kernel, test_py_semantics, test_tuple_args  # noqa: E402,F401

# ------------------------------------------------ arrays and launch forms
# The record_fields, record_shared, zero_d_array, dynamic_smem_alias,
# shared_dtypes, const_arrays, views_to_devfn and grid_beyond_2_31
# catalogue kernels are checked in test_arrays.py and test_launch_forms.py.

from test_arrays import (  # noqa: E402,F401
    test_const_arrays, test_dynamic_smem_alias, test_record_fields, test_record_shared, test_shared_dtypes,
    test_views_to_devfn, test_zero_d_array,
)
from test_launch_forms import test_grid_beyond_2_31  # noqa: E402,F401
from test_records_nested import test_record_nested  # noqa: E402,F401
from test_opt_mem import (  # noqa: E402,F401
    test_addr_neighbours_catalogue as test_addr_neighbours,
    test_addr_rows_catalogue as test_addr_rows,
    test_addr_shared_catalogue as test_addr_shared,
)
from test_opt_loops import test_loop_runtime_unroll_catalogue as test_loop_runtime_unroll  # noqa: E402,F401
from test_opt_stride import test_grid_stride_unroll_catalogue as test_grid_stride_unroll  # noqa: E402,F401
