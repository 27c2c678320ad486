"""The math library's fast paths (exp, log, erf in float64; sin, cos, exp in
float32) on the inputs that are hard for them: the edges of each fast path
and its branch, the arguments whose reduction cancels most, the points
where the reduction's integer k changes, subnormals and the special values.
Each result is compared with a reference that is exact to well below an
ulp (mpmath for float64, float64 for float32) and must
stay within CUDA's documented bound; special values must match C99 Annex F
bit for bit, signed zeros included.  Runs on the simulator and the GPU.
"""

import math
import re

import numpy as np
import pytest

from ptxjit import cuda

import mpmath


@cuda.jit
def k_exp(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.exp(x[i])


@cuda.jit
def k_log(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.log(x[i])


@cuda.jit
def k_erf(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.erf(x[i])


@cuda.jit
def k_sin(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.sin(x[i])


@cuda.jit
def k_cos(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.cos(x[i])


KERNELS = {"exp": k_exp, "log": k_log, "erf": k_erf, "sin": k_sin, "cos": k_cos}
# CUDA's bounds (ulps from the correctly rounded result): float32, float64
BOUND = {"exp": (2, 1), "log": (1, 1), "erf": (2, 2), "sin": (2, 2), "cos": (2, 2)}


def run(name, x):
    x = np.ascontiguousarray(x)
    out = np.zeros_like(x)
    KERNELS[name][(x.size + 127) // 128, 128](x, out)
    return out


def ulp_of(ref, dt):
    p, emin = (24, -126) if dt == np.float32 else (53, -1022)
    a = np.abs(ref)
    e = np.floor(np.log2(np.where(a > 0, a, 1.0)))
    e = np.where(np.exp2(e) > a, e - 1, e)
    return np.exp2(np.maximum(e, emin) - (p - 1))


def reference(name, x):
    """(reference values as float64, slack in ulps for the reference's own error)"""
    if x.dtype == np.float32:
        xd = x.astype(np.float64)
        return {"exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos,
                "erf": np.vectorize(math.erf)}[name](xd), 0.001
    mpmath.mp.prec = 120
    f = getattr(mpmath, name)
    return np.array([float(f(mpmath.mpf(float(v)))) for v in x]), 0.0


def check(name, x):
    got = run(name, x)
    with np.errstate(all="ignore"):
        ref, slack = reference(name, x)
        ok = np.isfinite(ref) & np.isfinite(got) & (ref != 0)
        err = np.where(ok, np.abs(got.astype(np.float64) - ref) / ulp_of(ref, x.dtype), 0.0)
    bound = BOUND[name][0 if x.dtype == np.float32 else 1]
    worst = int(np.argmax(err))
    assert err[worst] <= bound + 0.5 + slack, "%s(%r) = %r, reference %r: %.3f ulp" % (
        name, float(x[worst]), float(got[worst]), float(ref[worst]), err[worst])
    return got


def test_exp_f64_edges(rng):
    # around the branch at |x| = 707, the subnormal results, overflow, and
    # the points where k = rint(x / ln2) changes
    ln2 = math.log(2)
    halves = (np.arange(-1000, 1000) + 0.5) * ln2
    x = np.concatenate([
        np.linspace(706.9, 707.1, 101), -np.linspace(706.9, 707.1, 101),
        rng.uniform(-745.2, -708.0, 300), rng.uniform(700.0, 709.78, 200),
        halves[np.abs(halves) < 706], np.nextafter(halves[np.abs(halves) < 706], 0),
        rng.uniform(-1, 1, 300) * 2.0 ** rng.integers(-60, 0, 300),
    ])
    check("exp", x)


def test_exp_f32_edges(rng):
    # k = floor(x log2(e)) changes at the multiples of ln2; it is clamped
    # to [-126, 126], so 2^f grows to 4 near overflow and shrinks to 2^-24
    # where the result is subnormal
    ln2 = math.log(2)
    steps = (np.arange(-126, 128) * ln2).astype(np.float32)
    x = np.concatenate([
        np.linspace(85.9, 86.1, 101), -np.linspace(85.9, 86.1, 101),
        rng.uniform(-103.9, -86.0, 300), rng.uniform(80.0, 88.72, 200),
        np.linspace(87.2, 88.7228, 200), np.linspace(-87.5, -87.2, 101),
        (np.arange(-124, 124) + 0.5) * ln2,
        steps, np.nextafter(steps, np.float32(-200)), np.nextafter(steps, np.float32(200)),
        rng.uniform(-1, 1, 300) * 2.0 ** rng.integers(-30, 0, 300),
    ]).astype(np.float32)
    check("exp", x)


def test_exp_f32_is_cuda_sequence():
    """float32 exp takes CUDA's expf steps: the clamp and floor of k in two
    fmas (.sat, then .rm), no compare, no min/max, no branch."""
    x = np.linspace(-1.0, 1.0, 64).astype(np.float32)
    argtypes = k_exp._typeof((x, np.zeros_like(x)))
    body = k_exp._compile(", ".join(argtypes), argtypes, 3).ptx
    body = body[body.index(".entry"):]
    assert re.search(r"fma\.rn\.sat\.f32 [^;]*0f3BBB989D, 0f3F000000;", body)
    assert re.search(r"fma\.rm\.f32 [^;]*0f437C0000, 0f4B400001;", body)
    exp = body[body.index("fma.rn.sat"):body.index("st.global")]
    assert "ex2.approx" in exp
    assert not re.search(r"\b(min|max|setp|bra)\b", exp), exp


def test_log_f64_edges(rng):
    # subnormals, sqrt(2) and sqrt(1/2), values near 1, the extremes, and
    # the 129 edges of the table's intervals (src/math/logtab.h: z in
    # [0.6855, 1.3711) cut by the high word) and their neighbours, scaled
    # by powers of two: there |r| = |z invc - 1| is largest and the row
    # changes
    s = math.sqrt(2)
    edges = np.array([(0x3fe5f000 + (i << 13)) << 32 for i in range(129)], np.uint64).view(np.float64)
    edges = np.concatenate([edges, np.nextafter(edges, 0), np.nextafter(edges, 2)])
    x = np.concatenate([
        rng.uniform(1, 2, 300) * 2.0 ** rng.integers(-1074, -1022, 300),
        np.array([5e-324, 1e-323, 2.2250738585072014e-308, np.nextafter(2.2250738585072014e-308, 0),
                  1.7976931348623157e308, 1.0, np.nextafter(1.0, 0), np.nextafter(1.0, 2)]),
        s * (1 + np.linspace(-1e-15, 1e-15, 21)), s / 2 * (1 + np.linspace(-1e-15, 1e-15, 21)),
        1 + rng.uniform(-1, 1, 300) * 2.0 ** rng.integers(-52, -1, 300),
        rng.uniform(1, 2, 300) * 2.0 ** rng.integers(-1000, 1000, 300),
        edges, edges * 2.0 ** rng.integers(-1000, 1000, edges.size),
    ])
    check("log", x)


def test_log_f64_table_in_global_memory():
    """float64 log reads its table at thread-dependent indices: the table is
    a .global array (the constant cache would serialise the warp) read with
    ld.global, and there is no division."""
    x = np.linspace(0.5, 2.0, 64)
    argtypes = k_log._typeof((x, np.zeros_like(x)))
    ptx = k_log._compile(", ".join(argtypes), argtypes, 3).ptx
    body = ptx[ptx.index(".entry"):]
    assert re.search(r"^\.global \.align 16 \.b8 __pj_\w+\[3072\] = \{", ptx, re.M)
    assert "ld.global.f64" in body and "ld.const" not in body and "div.rn" not in body


def test_erf_f64_edges(rng):
    # the points where k changes (q = t Q(t) near (j + 1/2) ln2), the end of
    # the polynomial near 5.92, tiny and subnormal arguments, both signs
    t = np.concatenate([
        rng.uniform(0.25, 0.4, 400), rng.uniform(0, 6.2, 600), np.linspace(5.9, 5.95, 51),
        rng.uniform(1, 2, 100) * 2.0 ** rng.integers(-1074, -20, 100), np.array([5e-324, 1e-310]),
    ])
    check("erf", np.concatenate([t, -t]))


# Beyond the fast path, the float32 arguments nearest to a multiple of
# pi/2 for each exponent (the convergents of pi/2 2^-E with 24-bit
# numerators), where the reduction cancels most: 16367173 2^72 (0x6c1976f1)
# leaves about 2^-29.
HARD_F32 = np.array([
    0x484d246f, 0x4882665e, 0x4a2562ae, 0x4bf3b47b, 0x4c2332e9, 0x4ca332e9, 0x4d2332e9, 0x4d847661,
    0x4e047661, 0x4e13d4a5, 0x4e8c2583, 0x4e93d4a5, 0x4f0ffd14, 0x50a3e87f, 0x5123e87f, 0x51a3e87f,
    0x5223e87f, 0x52a3e87f, 0x5323e87f, 0x53a3e87f, 0x53b146a6, 0x561fd224, 0x56787577, 0x57903500,
    0x57b82989, 0x5c07bcd0, 0x5fdb955f, 0x5fe4112c, 0x619aacdb, 0x61d3b126, 0x62ec1b4a, 0x63e600c1,
    0x642e0733, 0x64ae0733, 0x652e0733, 0x65898498, 0x6946e3bb, 0x69c6e3bb, 0x6a1976f1, 0x6a9976f1,
    0x6b1976f1, 0x6b9976f1, 0x6c1976f1, 0x6c55da58, 0x6f79be45, 0x6f8a3cc8, 0x6ff9be45, 0x7079be45,
    0x70f9be45, 0x7179be45, 0x718582ef, 0x71f9be45, 0x723fa09a, 0x7452de59, 0x74d2de59, 0x756fa1dc,
    0x76a426eb, 0x77584625, 0x77d84625, 0x78584625, 0x78a8b883, 0x7928b883, 0x79407f54, 0x7b1675c0,
    0x7ebdcda0], dtype=np.uint32).view(np.float32)


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_sincos_f32_reduction(name, rng):
    # the float32 arguments nearest to multiples of pi/2 below the fast
    # path's limit (the reduction's worst cancellation), the limit itself,
    # beyond it (Payne-Hanek on 32-bit words: every exponent, each word
    # offset and shift, and the hardest arguments), and the largest float
    j = np.arange(1, 67000, dtype=np.float64)
    near = (j * (math.pi / 2)).astype(np.float32)
    fmax = np.finfo(np.float32).max
    x = np.concatenate([
        HARD_F32, np.nextafter(HARD_F32, np.float32(0)), np.float32([fmax, np.nextafter(fmax, 0)]),
        (rng.uniform(1, 2, 2000) * 2.0 ** rng.integers(16, 128, 2000)).astype(np.float32),
        near, np.nextafter(near, np.float32(0)), np.nextafter(near, np.float32(np.inf)),
        np.linspace(105600, 105630, 301).astype(np.float32),
        rng.uniform(-1, 1, 2000).astype(np.float32) * np.float32(105615),
        (rng.uniform(1, 2, 500) * 2.0 ** rng.integers(17, 127, 500)).astype(np.float32),
        (rng.uniform(-1, 1, 500) * 2.0 ** rng.integers(-149, 0, 500)).astype(np.float32),
    ]).astype(np.float32)
    check(name, np.concatenate([x, -x]))


SPECIALS = [0.0, -0.0, math.inf, -math.inf, math.nan, -1.0, -1e-310, 1e-310, -5e-324, 5e-324, 1e308,
            -1e308, 710.0, -750.0, 1e30, -1e30]


@pytest.mark.parametrize("prec", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["exp", "log", "erf", "sin", "cos"])
def test_specials(name, prec):
    with np.errstate(over="ignore"):
        x = np.array(SPECIALS, dtype=prec)
    got = run(name, x)
    with np.errstate(all="ignore"):
        ref = {"exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos,
               "erf": np.vectorize(math.erf, otypes=[prec])}[name](x).astype(prec)
    for xi, g, r in zip(x, got, ref):
        if np.isnan(r):
            assert np.isnan(g), "%s(%r) = %r, expected NaN" % (name, xi, g)
        elif np.isinf(r) or r == 0:
            assert g == r and np.signbit(g) == np.signbit(r), "%s(%r) = %r, expected %r" % (name, xi, g, r)
