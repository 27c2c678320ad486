"""CUDA's fp8 types in kernels and device functions (ptxjit.cuda.fp8,
numba-cuda's numba.cuda._internal.cuda_fp8): fp8_e5m2, fp8_e4m3 and
fp8_e8m0 made from every number type and converted to every number type,
and the cvt_* conversions of storage bits with their saturation,
interpretation and rounding-mode arguments, bit for bit as cuda_fp8.hpp
computes them.

The reference here is independent of the compiler's: rounding to nearest
even by searching the table of every finite fp8 value (ties to the even
encoding, one step past the largest finite value meaning overflow),
e8m0's rounding from frexp, and the values of the encodings from
ml_dtypes.  Inputs are random bit patterns of float32 and float64 (NaNs
with payloads, infinities, subnormals), the midpoints of fp8 values
(ties) and their neighbours, the overflow and underflow thresholds, ±0,
and random integers of every width.

Each test runs on the simulator (the default) or the GPU
(PTXJIT_TEST_GPU=1); the PTX is assembled by ptxas for sm_80 and sm_90
when it is on the PATH.
"""

import math

import numpy as np
import pytest

from ptxjit import cuda, float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64
from ptxjit.cuda.bf16 import bfloat16
from ptxjit.cuda.fp8 import (
    cudaRoundMode, cvt_bfloat16raw_to_e8m0, cvt_bfloat16raw_to_fp8, cvt_double_to_e8m0, cvt_double_to_fp8,
    cvt_e8m0_to_bf16raw, cvt_float_to_e8m0, cvt_float_to_fp8, fp8_e4m3, fp8_e5m2, fp8_e8m0, fp8_interpretation_t,
    saturation_t,
)
from ptxjit.errors import TypingError

from conftest import assert_ptx_assembles

ml_dtypes = pytest.importorskip("ml_dtypes")
KERNELS = []

NOSAT, SAT = saturation_t.NOSAT, saturation_t.SATFINITE
E4M3, E5M2 = fp8_interpretation_t.E4M3, fp8_interpretation_t.E5M2
RZ, RP = cudaRoundMode.cudaRoundZero, cudaRoundMode.cudaRoundPosInf
DTYPES = {"e5m2": ml_dtypes.float8_e5m2, "e4m3": ml_dtypes.float8_e4m3fn, "e8m0": ml_dtypes.float8_e8m0fnu}
FLT_MAX = float(np.finfo(np.float32).max)


def kernel(f):
    k = cuda.jit(f)
    KERNELS.append(k)
    return k


# ------------------------------------------------------------ reference

def values(kind):
    """The float64 value of each of the 256 encodings of kind."""
    return np.arange(256, dtype=np.uint8).view(DTYPES[kind]).astype(np.float64)


def finite_table(kind):
    """(values, encodings) of the non-negative finite values, ascending,
    with the value one step past the largest (its encoding: overflow)."""
    v = values(kind)[:128]
    enc = [e for e in range(128) if math.isfinite(v[e])]
    vals = [float(v[e]) for e in enc]
    vals.append(vals[-1] + (vals[-1] - vals[-2]))
    enc.append(enc[-1] + 1)
    return vals, enc


TABLES = {k: finite_table(k) for k in ("e5m2", "e4m3")}


def ref_fp8(x, kind, sat, from_double=False):
    """The encoding cuda_fp8.hpp's __nv_cvt_{float,double}_to_fp8 gives x."""
    x = float(x)
    if math.isnan(x):
        if not from_double:
            return 0x7F
        bits = int(np.float64(x).view(np.uint64))
        sign = (bits >> 63) << 7
        return sign | (0x7F if kind == "e4m3" else 0x7E | ((bits >> 50) & 3))
    sign = 0x80 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    vals, enc = TABLES[kind]
    i = int(np.searchsorted(vals, a, side="right")) - 1   # vals[i] <= a < vals[i + 1]
    if i >= len(vals) - 1:
        r = None
    elif a == vals[i]:
        r = enc[i]
    else:
        mid = (vals[i] + vals[i + 1]) / 2                  # exact in float64
        j = i if a < mid or (a == mid and enc[i] % 2 == 0) else i + 1
        r = None if j == len(vals) - 1 else enc[j]
    if r is None:                                          # overflow
        r = (0x7E if kind == "e4m3" else 0x7B) if sat else (0x7F if kind == "e4m3" else 0x7C)
    return r | sign


def ref_e8m0(x, sat, up, from_double=False):
    """The encoding __nv_cvt_{float,double}_to_e8m0 gives x."""
    x = float(x)
    if math.isnan(x):
        return 0xFF
    a = abs(x)
    if math.isinf(a):
        return 0xFE if sat else 0xFF
    if from_double and a > FLT_MAX:        # float32 rounded toward zero: its largest, inexact
        return 0xFE if sat or not up else 0xFF
    if a == 0:
        return 0
    m, e = math.frexp(a)
    k = e - 1 + 127 + (1 if up and m != 0.5 else 0)
    k = max(k, 0)
    if k > 254:
        return 0xFE if sat else 0xFF
    return k


def ref_decoded(kind, enc):
    return values(kind)[np.asarray(enc, np.uint8)]


# ------------------------------------------------------------ inputs

def midpoints(kind):
    v = values(kind)
    v = np.unique(np.abs(v[np.isfinite(v)]))
    m = (v[1:] + v[:-1]) / 2
    if kind == "e5m2":
        m = np.append(m, [61440.0, 65536.0])
    elif kind == "e4m3":
        m = np.append(m, [464.0, 480.0])
    m = np.append(m, [v[1] / 2, v[1] / 4])   # half and a quarter of the least subnormal
    return m


def float32_inputs(rng, n=4096):
    bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    scaled = (rng.standard_normal(n) * np.exp2(rng.integers(-24, 20, n))).astype(np.float32)
    ties = []
    for kind in ("e5m2", "e4m3"):
        m = midpoints(kind).astype(np.float32)
        ties += [m, np.nextafter(m, np.float32(0)), np.nextafter(m, np.float32(np.inf)), v32(kind)]
    ties = np.concatenate(ties)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e20, -1e20, FLT_MAX, 2.0**127,
                        np.nextafter(np.float32(2.0**127), np.float32(np.inf)), 2.0**-127, 2.0**-149, 1e-45,
                        2.0**-126, 3 * 2.0**-128], np.float32)
    x = np.concatenate([bits, scaled, ties, -ties, special]).astype(np.float32)
    return x


def v32(kind):
    v = values(kind)
    return v[np.isfinite(v)].astype(np.float32)


def float64_inputs(rng, n=4096):
    bits = rng.integers(0, 2**63, n, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, n, dtype=np.uint64)
    bits = bits.view(np.float64)
    scaled = rng.standard_normal(n) * np.exp2(rng.integers(-24, 20, n))
    ties = []
    for kind in ("e5m2", "e4m3"):
        m = midpoints(kind)
        ties += [m, np.nextafter(m, 0), np.nextafter(m, np.inf), m + m * 2.0**-30]
    ties = np.concatenate(ties)
    nan_payloads = (np.array([0x7FF0000000000001, 0x7FF4000000000000, 0x7FF8000000000000, 0x7FFC000000000000,
                              0xFFF4000000000000, 0xFFFFFFFFFFFFFFFF], np.uint64)).view(np.float64)
    special = np.array([0.0, -0.0, np.inf, -np.inf, 1e300, -1e300, 2.0**127, np.nextafter(2.0**127, np.inf),
                        FLT_MAX, np.nextafter(FLT_MAX, np.inf), 2.0**128, 2.0**-127, 2.0**-149, 2.0**-160,
                        1e-300, np.nextafter(2.0**-127, 1.0)])
    return np.concatenate([bits, scaled, ties, -ties, nan_payloads, special])


# ------------------------------------------------------------ kernels

@kernel
def cvt_f32(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = cvt_float_to_fp8(x[i], saturation_t.NOSAT, fp8_interpretation_t.E4M3)
        out[1, i] = cvt_float_to_fp8(x[i], saturation_t.SATFINITE, fp8_interpretation_t.E4M3)
        out[2, i] = cvt_float_to_fp8(x[i], saturation_t.NOSAT, fp8_interpretation_t.E5M2)
        out[3, i] = cvt_float_to_fp8(x[i], saturation_t.SATFINITE, fp8_interpretation_t.E5M2)
        out[4, i] = cvt_float_to_e8m0(x[i], saturation_t.NOSAT, cudaRoundMode.cudaRoundZero)
        out[5, i] = cvt_float_to_e8m0(x[i], saturation_t.SATFINITE, cudaRoundMode.cudaRoundZero)
        out[6, i] = cvt_float_to_e8m0(x[i], saturation_t.NOSAT, cudaRoundMode.cudaRoundPosInf)
        out[7, i] = cvt_float_to_e8m0(x[i], saturation_t.SATFINITE, cudaRoundMode.cudaRoundPosInf)


@kernel
def cvt_f64(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = cvt_double_to_fp8(x[i], NOSAT, E4M3)
        out[1, i] = cvt_double_to_fp8(x[i], SAT, E4M3)
        out[2, i] = cvt_double_to_fp8(x[i], NOSAT, E5M2)
        out[3, i] = cvt_double_to_fp8(x[i], SAT, E5M2)
        out[4, i] = cvt_double_to_e8m0(x[i], NOSAT, RZ)
        out[5, i] = cvt_double_to_e8m0(x[i], SAT, RZ)
        out[6, i] = cvt_double_to_e8m0(x[i], NOSAT, RP)
        out[7, i] = cvt_double_to_e8m0(x[i], SAT, RP)


def launch(k, out, x, *more):
    k[(x.size + 127) // 128, 128](out, x, *more)


def expected_cvt(x, from_double):
    rows = []
    for kind in ("e4m3", "e5m2"):
        for sat in (0, 1):
            rows.append([ref_fp8(v, kind, sat, from_double) for v in x])
    for up in (0, 1):
        for sat in (0, 1):
            rows.append([ref_e8m0(v, sat, up, from_double) for v in x])
    return np.array(rows, np.uint8)


def check_rows(got, want, x, names):
    for r, name in enumerate(names):
        bad = np.nonzero(got[r] != want[r])[0]
        assert bad.size == 0, "%s: %d wrong, first x=%r (bits %#x): got %#x, want %#x" % (
            name, bad.size, x[bad[0]], x[bad[0]:bad[0] + 1].view(np.uint32 if x.itemsize == 4 else np.uint64)[0],
            got[r, bad[0]], want[r, bad[0]])


CVT_ROWS = ["e4m3 nosat", "e4m3 satfinite", "e5m2 nosat", "e5m2 satfinite", "e8m0 rz nosat", "e8m0 rz satfinite",
            "e8m0 rp nosat", "e8m0 rp satfinite"]


def test_cvt_float_to_fp8_and_e8m0(rng):
    x = float32_inputs(rng)
    out = np.zeros((8, x.size), np.uint8)
    launch(cvt_f32, out, x)
    check_rows(out, expected_cvt(x, False), x, CVT_ROWS)


def test_cvt_double_to_fp8_and_e8m0(rng):
    x = float64_inputs(rng)
    out = np.zeros((8, x.size), np.uint8)
    launch(cvt_f64, out, x)
    check_rows(out, expected_cvt(x, True), x, CVT_ROWS)


@kernel
def cvt_raw(out, e):
    i = cuda.grid(1)
    if i < e.size:
        raw = cvt_e8m0_to_bf16raw(e[i])
        out[0, i] = raw.x
        out[1, i] = cvt_bfloat16raw_to_fp8(raw, NOSAT, E4M3)
        out[2, i] = cvt_bfloat16raw_to_fp8(raw, SAT, E5M2)
        out[3, i] = cvt_bfloat16raw_to_e8m0(raw, NOSAT, RZ)
        out[4, i] = cvt_bfloat16raw_to_e8m0(raw, SAT, RP)


def test_e8m0_to_bf16raw_and_back_for_every_encoding():
    e = np.arange(256, dtype=np.uint8)
    out = np.zeros((5, 256), np.uint16)
    launch(cvt_raw, out, e)
    v = values("e8m0")
    want_raw = v.astype(np.float32).astype(ml_dtypes.bfloat16).view(np.uint16)
    want_raw[255] = 0x7FFF                       # the canonical NaN
    np.testing.assert_array_equal(out[0], want_raw)
    f = want_raw.astype(np.uint32) << 16
    f = f.view(np.float32)
    np.testing.assert_array_equal(out[1], [ref_fp8(x, "e4m3", 0) for x in f])
    np.testing.assert_array_equal(out[2], [ref_fp8(x, "e5m2", 1) for x in f])
    np.testing.assert_array_equal(out[3], [ref_e8m0(x, 0, 0) for x in f])
    np.testing.assert_array_equal(out[4], [ref_e8m0(x, 1, 1) for x in f])
    np.testing.assert_array_equal(out[3], e)     # e8m0 -> bfloat16 -> e8m0 is the identity


@kernel
def ctor_floats(out, x, h, b):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = float32(fp8_e4m3(x[i]))
        out[1, i] = float32(fp8_e5m2(x[i]))
        out[2, i] = float32(fp8_e8m0(x[i]))
        out[3, i] = float32(fp8_e4m3(float16(h[i])))
        out[4, i] = float32(fp8_e5m2(float16(h[i])))
        out[5, i] = float32(fp8_e8m0(float16(h[i])))
        out[6, i] = float32(fp8_e4m3(bfloat16(b[i])))
        out[7, i] = float32(fp8_e5m2(bfloat16(b[i])))
        out[8, i] = float32(fp8_e8m0(bfloat16(b[i])))


@kernel
def ctor_double(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[0, i] = float32(fp8_e4m3(x[i]))
        out[1, i] = float32(fp8_e5m2(x[i]))
        out[2, i] = float32(fp8_e8m0(x[i]))


def expected_ctor(x, from_double=False):
    return np.array([ref_decoded("e4m3", [ref_fp8(v, "e4m3", 1, from_double) for v in x]),
                     ref_decoded("e5m2", [ref_fp8(v, "e5m2", 1, from_double) for v in x]),
                     ref_decoded("e8m0", [ref_e8m0(v, 1, 1, from_double) for v in x])], np.float32)


def assert_same(got, want, what):
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=what)
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(got[ok].view(np.uint32), want[ok].view(np.uint32), err_msg=what)


def test_constructors_from_floats_saturate_and_round(rng):
    x = float32_inputs(rng)
    with np.errstate(all="ignore"):
        h = x.astype(np.float16).astype(np.float32)          # values float16 holds
        b = x.astype(ml_dtypes.bfloat16).astype(np.float32)   # and bfloat16
    out = np.zeros((9, x.size), np.float32)
    launch(ctor_floats, out, x, h, b)
    with np.errstate(all="ignore"):
        for r, src in enumerate((x, h, b)):
            want = expected_ctor(src)
            for j, kind in enumerate(("e4m3", "e5m2", "e8m0")):
                assert_same(out[3 * r + j], want[j], "%s from %s" % (kind, ("float32", "float16", "bfloat16")[r]))
    xd = float64_inputs(rng)
    outd = np.zeros((3, xd.size), np.float32)
    launch(ctor_double, outd, xd)
    want = expected_ctor(xd, True)
    for j, kind in enumerate(("e4m3", "e5m2", "e8m0")):
        assert_same(outd[j], want[j], "%s from float64" % kind)


@kernel
def ctor_ints(out, a, b, c, d):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = float32(fp8_e4m3(a[i]))
        out[1, i] = float32(fp8_e5m2(a[i]))
        out[2, i] = float32(fp8_e8m0(a[i]))
        out[3, i] = float32(fp8_e4m3(b[i]))
        out[4, i] = float32(fp8_e5m2(b[i]))
        out[5, i] = float32(fp8_e8m0(b[i]))
        out[6, i] = float32(fp8_e4m3(c[i]))
        out[7, i] = float32(fp8_e5m2(c[i]))
        out[8, i] = float32(fp8_e8m0(c[i]))
        out[9, i] = float32(fp8_e4m3(d[i]))
        out[10, i] = float32(fp8_e5m2(d[i]))
        out[11, i] = float32(fp8_e8m0(d[i]))


def random_ints(rng, dtype, n):
    info = np.iinfo(dtype)
    v = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    small = rng.integers(max(info.min, -600), min(info.max, 600), n // 4, dtype=np.int64).astype(dtype)
    shifts = rng.integers(0, info.bits - 1, n // 4).astype(np.uint64)
    pow2ish = (np.ones(n // 4, np.uint64) << shifts).astype(dtype) + rng.integers(-1, 2, n // 4).astype(dtype)
    ext = np.array([0, 1, info.max, info.min, info.max - 1], dtype)
    return np.concatenate([v, small, pow2ish, ext])


def expected_int_ctor(v, dtype):
    """fp8_e4m3/e5m2 of an integer: the integer rounded to float32 first;
    fp8_e8m0 of one: rounded toward +inf from the exact integer."""
    f32 = [float(np.float32(int(i))) for i in v]
    return np.array([ref_decoded("e4m3", [ref_fp8(x, "e4m3", 1) for x in f32]),
                     ref_decoded("e5m2", [ref_fp8(x, "e5m2", 1) for x in f32]),
                     ref_decoded("e8m0", [e8m0_of_int(int(i)) for i in v])], np.float32)


def e8m0_of_int(i):
    a = abs(i)
    if a == 0:
        return 0
    k = a.bit_length() - 1 + (0 if a & (a - 1) == 0 else 1) + 127
    return min(k, 254)


@pytest.mark.parametrize("types", [(np.int8, np.int16, np.int32, np.int64),
                                   (np.uint8, np.uint16, np.uint32, np.uint64)])
def test_constructors_from_integers(rng, types):
    n = 1024
    arrays = [random_ints(rng, t, n) for t in types]
    size = min(a.size for a in arrays)
    arrays = [a[:size] for a in arrays]
    out = np.zeros((12, size), np.float32)
    ctor_ints[(size + 127) // 128, 128](out, *arrays)
    for r, (a, t) in enumerate(zip(arrays, types)):
        want = expected_int_ctor(a, t)
        for j, kind in enumerate(("e4m3", "e5m2", "e8m0")):
            assert_same(out[3 * r + j], want[j], "%s from %s" % (kind, np.dtype(t).name))


@cuda.jit(device=True)
def as_e5m2(x):
    return fp8_e5m2(x)


@cuda.jit(device=True)
def to_int32(v):
    return int32(v)


def convert_to_all(make):
    @cuda.jit
    def k(of, oi, ou, ob, x):
        i = cuda.grid(1)
        if i < x.size:
            v = make(x[i])
            of[0, i] = float32(v)
            of[1, i] = float64(v)
            of[2, i] = float32(float16(v))
            of[3, i] = float32(bfloat16(v))
            oi[0, i] = int8(v)
            oi[1, i] = int16(v)
            oi[2, i] = to_int32(v)
            oi[3, i] = int64(v)
            ou[0, i] = uint8(v)
            ou[1, i] = uint16(v)
            ou[2, i] = uint32(v)
            ou[3, i] = uint64(v)
            ob[i] = bool(v)
    KERNELS.append(k)
    return k


CONVERT = {"e4m3": convert_to_all(fp8_e4m3), "e5m2": convert_to_all(as_e5m2), "e8m0": convert_to_all(fp8_e8m0)}


def saturate(v, dtype):
    info = np.iinfo(dtype)
    if math.isnan(v):        # the GPU's cvt: 0, and 2^63 for the 64-bit kinds
        return 0 if info.bits < 64 else (info.min if info.min else 1 << 63)
    return int(min(max(math.trunc(max(min(v, 1e30), -1e30)), info.min), info.max))


@pytest.mark.parametrize("kind", ["e4m3", "e5m2", "e8m0"])
def test_every_encoding_converts_to_every_number_type(kind):
    v = values(kind)
    reach = np.isfinite(v) | (np.arange(256) == (0x7F if kind != "e8m0" else 0xFF))   # NaN: the one a float makes
    v = v[reach]
    x = v.astype(np.float32)
    n = x.size
    of = np.zeros((4, n), np.float64)
    oi = np.zeros((4, n), np.int64)
    ou = np.zeros((4, n), np.uint64)
    ob = np.zeros(n, np.bool_)
    CONVERT[kind][(n + 127) // 128, 128](of, oi, ou, ob, x)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(of[0], v)
        np.testing.assert_array_equal(of[1], v)
        np.testing.assert_array_equal(of[2], v.astype(np.float16).astype(np.float64))
        np.testing.assert_array_equal(of[3], v.astype(ml_dtypes.bfloat16).astype(np.float64))
    for r, t in enumerate((np.int8, np.int16, np.int32, np.int64)):
        np.testing.assert_array_equal(oi[r], [saturate(a, t) for a in v], err_msg=np.dtype(t).name)
    for r, t in enumerate((np.uint8, np.uint16, np.uint32, np.uint64)):
        np.testing.assert_array_equal(ou[r], np.array([saturate(a, t) for a in v], np.uint64),
                                      err_msg=np.dtype(t).name)
    np.testing.assert_array_equal(ob, (v != 0) if kind != "e8m0" else np.ones(n, bool))


def test_zero_argument_constructor_and_truth():
    @cuda.jit
    def k(out):
        a = fp8_e4m3()
        out[0] = float32(a)
        out[1] = 1.0 if fp8_e5m2(float32(0.5)) else 0.0
        out[2] = float(fp8_e8m0(3))
        out[3] = int(fp8_e4m3(-2.75))
    out = np.ones(4)
    k[1, 1](out)
    np.testing.assert_array_equal(out, [0.0, 1.0, 4.0, -2.0])


def check_error(f, args, match):
    with pytest.raises(TypingError, match=match):
        cuda.jit(f)[1, 1](*args)


def test_unsupported_uses_are_refused_at_the_line():
    out = np.zeros(2, np.float32)

    def arith(out):
        out[0] = float32(fp8_e4m3(1.0) + fp8_e4m3(2.0))
    check_error(arith, (out,), r"(?s)unsupported operand types for \+: fp8_e4m3 and fp8_e4m3.*only converts")

    def compare(out):
        out[0] = fp8_e4m3(1.0) < fp8_e4m3(2.0)
    check_error(compare, (out,), "fp8_e4m3 and fp8_e4m3")

    def store(out):
        out[0] = fp8_e5m2(1.0)
    check_error(store, (out,), "cannot store a fp8_e5m2 value")

    def unify(out, c):
        v = fp8_e4m3(1.0)
        if c:
            v = fp8_e8m0(1.0)
        out[0] = float32(v)
    check_error(unify, (out, 1), "fp8_e4m3")

    def cross(out):
        out[0] = float32(fp8_e4m3(fp8_e5m2(1.0)))
    check_error(cross, (out,), r"(?s)fp8_e4m3\(\) of a fp8_e5m2.*convert through float32")

    def array(out):
        s = cuda.local.array(2, fp8_e4m3)
        out[0] = float32(s[0])
    check_error(array, (out,), "arrays of fp8_e4m3 are not supported")

    def nearest(out, x):
        out[0] = cvt_float_to_e8m0(x[0], NOSAT, cudaRoundMode.cudaRoundNearest)
    check_error(nearest, (np.zeros(1, np.uint8), out), r"(?s)is 0, which it does not accept.*toward \+inf only")

    def runtime_enum(out, x, s):
        out[0] = cvt_float_to_fp8(x[0], s, E4M3)
    check_error(runtime_enum, (np.zeros(1, np.uint8), out, 1), "not a constant")

    def raw_arg(out, x):
        out[0] = cvt_bfloat16raw_to_fp8(x[0], NOSAT, E4M3)
    check_error(raw_arg, (np.zeros(1, np.uint8), out), "takes a bfloat16_raw")

    from ptxjit.cuda.fp8 import cvt_float2_to_fp8x2

    def vector(out, x):
        out[0] = cvt_float2_to_fp8x2(x[0], NOSAT, E4M3)
    check_error(vector, (np.zeros(1, np.uint16), out), "cvt_float2_to_fp8x2, which kernels cannot use")

    def g(out, x):
        out[0] = float32(x)
    with pytest.raises(TypingError, match="fp8_e4m3 arguments and arrays are not supported"):
        cuda.jit("void(float32[:], fp8_e4m3)")(g)


def test_host_calls_are_refused():
    with pytest.raises(RuntimeError, match="inside a @cuda.jit kernel"):
        fp8_e4m3(1.0)
    assert fp8_e4m3.__name__ == "fp8_e4m3"


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptx_assembles_for_sm80_and_sm90(arch):
    assert_ptx_assembles(KERNELS, 3, arch)
