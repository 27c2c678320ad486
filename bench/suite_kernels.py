"""The kernels of the benchmark suite, in Numba's CUDA dialect.

bench_suite.py loads this file twice: once with `numba` bound to ptxjit
(the way a user switches: only the import changes) and once with the real
Numba, so both compile the very same source.  tests/test_opt.py loads it
with ptxjit to check that the optimised and the unoptimised compile of
every kernel give bit-identical results.

Each kernel is written the way the Numba documentation and its users write
it; the CUDA C versions (suite_cuda.py) are the same algorithms as a CUDA C
programmer writes them (int indices, no __restrict__).
"""

import math

import numpy as np
from numba import cuda

TPB = 256          # threads per block of the 1-D kernels
TILE = 16          # tile edge of the shared-memory matrix product
NB_TILE = 128      # bodies per shared tile in n-body
EPS2 = 1e-2
RSQRT2 = 0.7071067811865476
NBINS = 256
MATH_ITERS = 32


@cuda.jit
def vector_add(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def reduce_sum(a, out):
    sm = cuda.shared.array(TPB, np.float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < a.size:
        sm[tid] = a[i]
    else:
        sm[tid] = 0
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            sm[tid] += sm[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, sm[0])


@cuda.jit
def matmul_naive(A, B, C):
    x, y = cuda.grid(2)
    if y < C.shape[0] and x < C.shape[1]:
        tmp = np.float32(0)
        for k in range(A.shape[1]):
            tmp += A[y, k] * B[k, x]
        C[y, x] = tmp


@cuda.jit
def matmul_tiled(A, B, C):
    sA = cuda.shared.array((TILE, TILE), np.float32)
    sB = cuda.shared.array((TILE, TILE), np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = np.float32(0)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and tx + i * TILE < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TILE]
        if x < B.shape[1] and ty + i * TILE < B.shape[0]:
            sB[ty, tx] = B[ty + i * TILE, x]
        cuda.syncthreads()
        for j in range(TILE):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@cuda.jit(device=True)
def cnd(d):
    return 0.5 * (1.0 + math.erf(d * RSQRT2))


@cuda.jit
def black_scholes(call, put, S, X, T, r, v):
    i = cuda.grid(1)
    if i < S.shape[0]:
        sqrt_t = math.sqrt(T[i])
        d1 = (math.log(S[i] / X[i]) + (r + 0.5 * v * v) * T[i]) / (v * sqrt_t)
        d2 = d1 - v * sqrt_t
        cnd1 = cnd(d1)
        cnd2 = cnd(d2)
        exp_rt = math.exp(-r * T[i])
        call[i] = S[i] * cnd1 - X[i] * exp_rt * cnd2
        put[i] = X[i] * exp_rt * (1.0 - cnd2) - S[i] * (1.0 - cnd1)


@cuda.jit
def nbody(pos, acc):
    sp = cuda.shared.array((NB_TILE, 4), np.float32)
    i = cuda.grid(1)
    tx = cuda.threadIdx.x
    n = pos.shape[0]
    xi = np.float32(0)
    yi = np.float32(0)
    zi = np.float32(0)
    if i < n:
        xi = pos[i, 0]
        yi = pos[i, 1]
        zi = pos[i, 2]
    ax = np.float32(0)
    ay = np.float32(0)
    az = np.float32(0)
    for t in range((n + NB_TILE - 1) // NB_TILE):
        j = t * NB_TILE + tx
        if j < n:
            sp[tx, 0] = pos[j, 0]
            sp[tx, 1] = pos[j, 1]
            sp[tx, 2] = pos[j, 2]
            sp[tx, 3] = pos[j, 3]
        else:
            sp[tx, 0] = 0
            sp[tx, 1] = 0
            sp[tx, 2] = 0
            sp[tx, 3] = 0
        cuda.syncthreads()
        for k in range(NB_TILE):
            dx = sp[k, 0] - xi
            dy = sp[k, 1] - yi
            dz = sp[k, 2] - zi
            d2 = dx * dx + dy * dy + dz * dz + np.float32(EPS2)
            inv = np.float32(1) / math.sqrt(d2)
            s = sp[k, 3] * inv * inv * inv
            ax += dx * s
            ay += dy * s
            az += dz * s
        cuda.syncthreads()
    if i < n:
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az


@cuda.jit
def mandelbrot(img, xmin, xmax, ymin, ymax, max_iter):
    x, y = cuda.grid(2)
    h = img.shape[0]
    w = img.shape[1]
    if x < w and y < h:
        cr = xmin + x * (xmax - xmin) / w
        ci = ymin + y * (ymax - ymin) / h
        zr = 0.0
        zi = 0.0
        n = 0
        while n < max_iter and zr * zr + zi * zi <= 4.0:
            zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
            n += 1
        img[y, x] = n


@cuda.jit
def stencil_5pt(a, out):
    x, y = cuda.grid(2)
    if 0 < y < a.shape[0] - 1 and 0 < x < a.shape[1] - 1:
        out[y, x] = np.float32(0.25) * (a[y - 1, x] + a[y + 1, x] + a[y, x - 1] + a[y, x + 1]) - a[y, x]


@cuda.jit
def histogram(data, hist):
    sh = cuda.shared.array(NBINS, np.int32)
    tid = cuda.threadIdx.x
    sh[tid] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < data.size:
        cuda.atomic.add(sh, data[i], 1)
        i += stride
    cuda.syncthreads()
    cuda.atomic.add(hist, tid, sh[tid])


@cuda.jit
def rgb_to_gray(rgb, gray):
    x, y = cuda.grid(2)
    if y < gray.shape[0] and x < gray.shape[1]:
        r = rgb[y, x, 0]
        g = rgb[y, x, 1]
        b = rgb[y, x, 2]
        gray[y, x] = np.float32(0.299) * r + np.float32(0.587) * g + np.float32(0.114) * b


@cuda.jit
def math_loop(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        acc = np.float32(0)
        for k in range(MATH_ITERS):
            t = v + np.float32(0.125) * np.float32(k)
            acc += math.sin(t) * math.exp(-t) + math.sqrt(t)
        out[i] = acc
