# Black-Scholes-shaped arithmetic with only math.sqrt, fabs, floor and
# ceil (an algebraic stand-in for the normal CDF and the discount).
# sig: void(float64[::1], float64[::1], float64[::1], float64[::1], float64[::1], float64, float64)
import math
from ptxjit import cuda

RSQRT2 = 0.7071067811865476


@cuda.jit(device=True)
def cnd_approx(d):
    t = math.fabs(d) * RSQRT2
    v = 0.5 * t / (1.0 + t)
    if d < 0:
        return 0.5 - v
    return 0.5 + v


@cuda.jit
def black_scholes_like(call, put, S, K, T, r, v):
    i = cuda.grid(1)
    if i < S.shape[0]:
        sqrt_t = math.sqrt(T[i])
        d1 = (S[i] / K[i] - 1.0 + (r + 0.5 * v * v) * T[i]) / (v * sqrt_t)
        d2 = d1 - v * sqrt_t
        disc = 1.0 / (1.0 + r * T[i])
        c = S[i] * cnd_approx(d1) - K[i] * disc * cnd_approx(d2)
        call[i] = math.floor(c * 100.0 + 0.5) / 100.0
        put[i] = math.ceil((c - S[i] + K[i] * disc) * 100.0) / 100.0
