"""Physics and finance: all-pairs n-body accelerations with the bodies tiled
through shared memory, and Black-Scholes in float32 with the polynomial
cumulative normal of the old Numba examples."""

import math

import numpy as np
from numba import cuda, float32

from _case import Case, blocks

TILE = 128
SAMPLE = 37      # NumPy checks every SAMPLE-th body (all pairs of all bodies take minutes)
SOFT = 1e-2
RSQRT2PI = 0.39894228040143267793994605993438
A1, A2, A3, A4, A5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429


@cuda.jit
def nbody_accel(pos, mass, acc):
    sp = cuda.shared.array((TILE, 3), float32)
    sm = cuda.shared.array(TILE, float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    n = pos.shape[0]
    xi = pos[i, 0] if i < n else float32(0)
    yi = pos[i, 1] if i < n else float32(0)
    zi = pos[i, 2] if i < n else float32(0)
    ax = float32(0)
    ay = float32(0)
    az = float32(0)
    for base in range(0, n, TILE):
        j = base + t
        for c in range(3):
            sp[t, c] = pos[j, c] if j < n else float32(0)
        sm[t] = mass[j] if j < n else float32(0)
        cuda.syncthreads()
        for k in range(TILE):
            dx = sp[k, 0] - xi
            dy = sp[k, 1] - yi
            dz = sp[k, 2] - zi
            r2 = dx * dx + dy * dy + dz * dz + float32(SOFT)
            inv = float32(1.0) / math.sqrt(r2)
            s = sm[k] * inv * inv * inv
            ax += dx * s
            ay += dy * s
            az += dz * s
        cuda.syncthreads()
    if i < n:
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az


@cuda.jit(device=True)
def cnd(d):
    k = 1.0 / (1.0 + 0.2316419 * math.fabs(d))
    ret = RSQRT2PI * math.exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))))
    if d > 0:
        ret = 1.0 - ret
    return ret


@cuda.jit
def black_scholes(call, put, S, X, T, R, V):
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    if i >= S.shape[0]:
        return
    sqrt_t = math.sqrt(T[i])
    d1 = (math.log(S[i] / X[i]) + (R + 0.5 * V * V) * T[i]) / (V * sqrt_t)
    d2 = d1 - V * sqrt_t
    cnd1 = cnd(d1)
    cnd2 = cnd(d2)
    exp_rt = math.exp(-1.0 * R * T[i])
    call[i] = S[i] * cnd1 - X[i] * exp_rt * cnd2
    put[i] = X[i] * exp_rt * (1.0 - cnd2) - S[i] * (1.0 - cnd1)


def make_nbody(small, rng):
    n = 300 if small else 1 << 15
    return dict(pos=rng.normal(0, 1, (n, 3)).astype(np.float32), mass=rng.random(n).astype(np.float32),
                acc=np.zeros((n, 3), np.float32))


def ref_nbody(h):
    p = h["pos"].astype(np.float64)
    d = p[None, :, :] - p[::SAMPLE, None, :]
    s = h["mass"][None, :] * ((d * d).sum(2) + SOFT) ** -1.5
    return dict(acc=(d * s[:, :, None]).sum(1))


def launch_nbody(d):
    nbody_accel[blocks(d["pos"].shape[0], TILE), TILE](d["pos"], d["mass"], d["acc"])


def make_bs(small, rng):
    n = 1000 if small else 1 << 24
    f = np.float32
    return dict(S=rng.uniform(5, 30, n).astype(f), X=rng.uniform(1, 100, n).astype(f),
                T=rng.uniform(0.25, 10, n).astype(f), R=0.02, V=0.30,
                call=np.zeros(n, f), put=np.zeros(n, f))


def ref_bs(h):
    S, X, T = (h[k].astype(np.float64) for k in "SXT")
    R, V = h["R"], h["V"]

    def cndf(d):
        k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
        ret = RSQRT2PI * np.exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))))
        return np.where(d > 0, 1.0 - ret, ret)
    d1 = (np.log(S / X) + (R + 0.5 * V * V) * T) / (V * np.sqrt(T))
    d2 = d1 - V * np.sqrt(T)
    e = np.exp(-R * T)
    return dict(call=S * cndf(d1) - X * e * cndf(d2), put=X * e * (1 - cndf(d2)) - S * (1 - cndf(d1)))


def launch_bs(d):
    black_scholes[blocks(d["S"].size, 256), 256](d["call"], d["put"], d["S"], d["X"], d["T"], d["R"], d["V"])


def c_bs(k, d):
    n = d["S"].size
    k((blocks(n, 256),), (256,), (d["call"], d["put"], d["S"], d["X"], d["T"], np.float64(d["R"]),
                                 np.float64(d["V"]), np.int32(n)))


CASES = [
    Case("nbody_tiled", make_nbody, launch_nbody, ref_nbody, ["acc"], (2e-3, 2e-3),
         reduce=(lambda a: a[::SAMPLE], (2e-3, 2e-3))),
    Case("black_scholes_f32", make_bs, launch_bs, ref_bs, ["call", "put"], (1e-4, 1e-4),
         c=("black_scholes", c_bs)),
]
