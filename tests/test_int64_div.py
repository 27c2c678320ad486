"""64-bit integer // and %, by divisors in registers and by constants, on
random operands of every magnitude and on the edges (0, +-1, +-2^k,
INT64_MIN, UINT64_MAX), against NumPy's floor division and modulo.

The back end writes 64-bit division out in PTX instead of leaving
div/rem.s64/u64 to ptxas, which calls a routine for them (src/ptx/idiv.c):
by a constant it multiplies by a magic number, by a register it refines a
float reciprocal with two Newton steps.  These tests check it on the GPU;
on the simulator they check the IR's semantics around it."""

import numpy as np
import pytest

from ptxjit import cuda

I64_MIN, I64_MAX = np.iinfo(np.int64).min, np.iinfo(np.int64).max


def edges(unsigned):
    e = {0, 1, 2, 3}
    for k in range(1, 64):
        for d in (-1, 0, 1):
            e.add((1 << k) + d)
    e.add((1 << 64) - 1)
    if unsigned:
        return np.array(sorted(v for v in e if v < 1 << 64), np.uint64)
    s = {v for v in e if v <= I64_MAX} | {-v for v in e if v <= 1 << 63}
    return np.array(sorted(s), np.int64)


def operands(rng, n, unsigned):
    """n values whose magnitudes spread over 1 to 64 bits, edges first."""
    bits = rng.integers(1, 65 if unsigned else 64, n)
    mag = rng.integers(0, 1 << 62, n, dtype=np.uint64) * np.uint64(4) + rng.integers(0, 4, n, dtype=np.uint64)
    v = mag >> (np.uint64(64) - bits.astype(np.uint64))
    if not unsigned:
        v = v.astype(np.int64) * rng.choice(np.array([-1, 1], np.int64), n)
    e = edges(unsigned)
    return np.concatenate([e, v[: n - len(e)]]) if n > len(e) else e[:n]


def reference(a, b):
    with np.errstate(all="ignore"):   # INT64_MIN // -1 wraps, as in the kernel
        return a // b, a % b


@cuda.jit
def _divmod(a, b, q, r):
    i = cuda.grid(1)
    if i < a.size:
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]


@pytest.mark.parametrize("dt", [np.int64, np.uint64])
def test_divisor_in_a_register(rng, dt):
    unsigned = dt == np.uint64
    n = 1 << 14
    a = operands(rng, n, unsigned)
    b = operands(rng, n, unsigned)
    rng.shuffle(b)
    b[b == 0] = 7
    # every edge against every edge too
    ea, eb = np.meshgrid(edges(unsigned), edges(unsigned))
    keep = eb.ravel() != 0
    a = np.concatenate([a, ea.ravel()[keep]])
    b = np.concatenate([b, eb.ravel()[keep]])
    q, r = np.zeros_like(a), np.zeros_like(a)
    _divmod[(a.size + 255) // 256, 256](a, b, q, r)
    wq, wr = reference(a, b)
    np.testing.assert_array_equal(q, wq)
    np.testing.assert_array_equal(r, wr)


CONSTANTS = [1, 2, 3, 7, 10, 64, 257, 1000003, 1 << 31, (1 << 32) + 1, 6700417 * 641, (1 << 62) + 1,
             I64_MAX, -1, -2, -3, -7, -64, -1000003, -(1 << 40), I64_MIN]
UCONSTANTS = [1, 2, 3, 7, 10, 64, 257, (1 << 32) - 1, (1 << 32) + 1, (1 << 63) - 25, 1 << 63,
              (1 << 63) + 1, (1 << 64) - 2, (1 << 64) - 1]


def const_kernel(c):
    @cuda.jit
    def k(a, q, r):
        i = cuda.grid(1)
        if i < a.size:
            q[i] = a[i] // c
            r[i] = a[i] % c
    return k


@pytest.mark.parametrize("dt,c", [(np.int64, c) for c in CONSTANTS] + [(np.uint64, c) for c in UCONSTANTS])
def test_constant_divisor(rng, dt, c):
    a = operands(rng, 4096, dt == np.uint64)
    q, r = np.zeros_like(a), np.zeros_like(a)
    const_kernel(dt(c))[16, 256](a, q, r)
    wq, wr = reference(a, dt(c))
    np.testing.assert_array_equal(q, wq)
    np.testing.assert_array_equal(r, wr)


@pytest.mark.parametrize("dt", ["int64", "uint64"])
@pytest.mark.parametrize("opt", [True, False])
def test_no_64bit_division_instruction_in_the_ptx(dt, opt):
    # ptxas makes a call of each div/rem.s64/u64 (see src/ptx/idiv.c)
    by_reg = cuda.jit(opt=opt)(_divmod.py_func).compile(", ".join([dt + "[::1]"] * 4)).ptx
    by_con = cuda.jit(opt=opt)(const_kernel(getattr(np, dt)(1000003)).py_func).compile(
        ", ".join([dt + "[::1]"] * 3)).ptx
    for text in (by_reg, by_con):
        for op in ("div.s64", "rem.s64", "div.u64", "rem.u64"):
            assert op not in text
        assert "mul.hi." in text
    assert "rcp.approx" in by_reg and "rcp.approx" not in by_con


@cuda.jit
def _floor_divide_int32(a, q, r):
    i = cuda.grid(1)
    if i < a.size:
        q[i, 0] = np.floor_divide(a[i], np.int32(7))
        r[i, 0] = np.remainder(a[i], np.int32(7))
        q[i, 1] = np.floor_divide(a[i], np.int32(16))
        r[i, 1] = np.remainder(a[i], np.int32(16))
        q[i, 2] = np.floor_divide(a[i], np.int32(-7))
        r[i, 2] = np.remainder(a[i], np.int32(-7))


def test_int32_floor_division_by_constants(rng):
    # 32-bit floor division keeps its kind (np.floor_divide of int32 is int32)
    a = np.concatenate([np.array([0, 1, -1, 6, 7, -7, -8, 15, 16, -16, -17, 2 ** 31 - 1, -2 ** 31], np.int32),
                        rng.integers(-2 ** 31, 2 ** 31, 4000).astype(np.int32)])
    q, r = np.zeros((a.size, 3), np.int32), np.zeros((a.size, 3), np.int32)
    _floor_divide_int32[(a.size + 255) // 256, 256](a, q, r)
    for j, c in enumerate((7, 16, -7)):
        np.testing.assert_array_equal(q[:, j], np.floor_divide(a, np.int32(c)))
        np.testing.assert_array_equal(r[:, j], np.remainder(a, np.int32(c)))


@cuda.jit
def _rows_cols(a, out):
    i = cuda.grid(1)
    n = a.shape[1]
    if i < a.size:
        out[i, 0] = i // n
        out[i, 1] = i % n
        out[i, 2] = i // 7
        out[i, 3] = i % 7


def test_index_division_in_32_bits(rng):
    # cuda.grid and the extents are below 2^31 in the launch's variant: the
    # divisions of an index are 32-bit ones there, not the 64-bit routine
    for shape in ((5, 7), (3, 1), (37, 11), (1, 300)):
        a = np.zeros(shape, np.float32)
        out = np.zeros((a.size, 4), np.int64)
        _rows_cols[(a.size + 63) // 64, 64](a, out)
        i = np.arange(a.size)
        np.testing.assert_array_equal(out, np.stack([i // shape[1], i % shape[1], i // 7, i % 7], 1))
    (k,) = [k for (_, flags), k in _rows_cols._variants.items() if flags & 5 == 5]
    # i % 7 is i - (i // 7) * 7, sharing i // 7
    assert k.ptx.count("div.u32") == 2 and k.ptx.count("rem.u32") == 1, k.ptx
    assert "mul.hi.u64" not in k.ptx and "rcp.approx" not in k.ptx
