"""Complex powers in kernels: `z ** w` with a complex64/complex128 base and a
complex, float or integer exponent known only at run time (and constant
ones), through `**`, `pow()`, `**=` and numpy.power, against Python's
complex power on random data.

Python's rules: w == 0 gives 1 (0 ** 0 too), an integer exponent up to 100
in size is computed by repeated multiplication, any other by the polar form;
0 ** w is 0 (Python raises ZeroDivisionError when Re(w) < 0 or Im(w) != 0,
where a kernel cannot; Numba gives 0 too).  Results are compared relative
to the size of the exact result, in units of the precision's epsilon.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1).
"""

import numpy as np
import pytest

from ptxjit import cuda

c64, c128 = np.complex64, np.complex128
EPS = {c64: 2.0 ** -23, c128: 2.0 ** -52}
# ulps of the exact result's size: complex128 follows CPython's formulas
# (the difference is the math library's last bits); complex64 is computed
# in float64 and rounded once
TOL = {c64: 2.0, c128: 16.0}


def py_pow(z, w):
    """Python's complex ** (in complex128), 0 where Python raises."""
    out = np.empty(len(z), c128)
    for i, (a, b) in enumerate(zip(z, w)):
        try:
            out[i] = complex(a) ** complex(b)
        except ZeroDivisionError:
            out[i] = 0
    return out


def assert_close(got, want, dt, cond=1.0):
    """cond: how much the problem amplifies a last-bit difference of the
    math library (|w| for the polar form's |z| ** Re(w))."""
    want = want.astype(c128)
    scale = np.maximum(np.abs(want), np.finfo(np.float64).tiny)
    ulps = np.abs(got.astype(c128) - want) / scale / EPS[dt]
    bad = np.argmax(ulps)
    assert ulps.max() <= TOL[dt] * cond, "worst at %d: got %r, want %r (%.1f ulps)" % (bad, got[bad], want[bad],
                                                                             ulps[bad])


def random_bases(rng, n, dt):
    mag = 10.0 ** rng.uniform(-1.5, 1.5, n)
    return (mag * np.exp(1j * rng.uniform(-np.pi, np.pi, n))).astype(dt)


@cuda.jit
def pow_arrays(z, w, out):
    i = cuda.grid(1)
    if i < z.shape[0]:
        out[i] = z[i] ** w[i]


@pytest.mark.parametrize("dt", [c64, c128], ids=["complex64", "complex128"])
def test_complex_exponent(rng, dt):
    n = 600
    z = random_bases(rng, n, dt)
    w = (rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n)).astype(dt)
    w[::3] = rng.integers(-100, 101, len(w[::3]))          # integral, complex typed: repeated products
    w[1::3] = w[1::3].real                                   # real, complex typed: the polar form
    out = np.zeros(n, dt)
    pow_arrays[(n + 127) // 128, 128](z, w, out)
    want = py_pow(z, w)
    lo, hi = (1e-300, 1e300) if dt is c128 else (1e-36, 1e37)   # results the precision holds
    sel = (np.abs(want) > lo) & (np.abs(want) < hi)
    assert sel.sum() > n // 2
    assert_close(out[sel], want[sel], dt)


@pytest.mark.parametrize("dt", [c64, c128], ids=["complex64", "complex128"])
def test_special_values(dt):
    z = np.array([0, 0, 0, 0, 0, 3 - 4j, 1e-3j, -2, 1, 0.5 + 0.5j, 1.01, -1j], dt)
    w = np.array([0, 1, 2.5 - 1j, -1, 1j, 0, 0, 0.5, 1e3 + 7j, -100, 150, 101], dt)
    out = np.full(len(z), np.nan, dt)
    pow_arrays[1, 32](z, w, out)
    want = py_pow(z, w)
    np.testing.assert_array_equal(out[:7], [1, 0, 0, 0, 0, 1, 1])
    assert_close(out, want, dt)


@cuda.jit
def pow_forms(z, n, x, w, y, out):
    i = cuda.grid(1)
    if i < z.shape[0]:
        a = z[i]
        out[i, 0] = a ** n[i]           # complex ** int64 at run time
        out[i, 1] = a ** x[i]           # complex ** float64 at run time
        out[i, 2] = pow(a, w[i])        # the builtin
        b = a
        b **= w[i]                      # augmented
        out[i, 3] = b
        out[i, 4] = np.power(a, w[i])   # the ufunc on scalars
        out[i, 5] = a ** 2.5            # constant, not integral
        out[i, 6] = a ** 0.5j           # constant, imaginary
        out[i, 7] = y[i] ** 150         # constant integer beyond c_powi's range


def test_pow_forms(rng):
    n = 200
    z = random_bases(rng, n, c128)
    ns = rng.integers(-40, 41, n)
    ns[:5] = [0, 1, -1, 100, 101]
    x = rng.uniform(-5, 5, n)
    x[:3] = [2.0, -3.0, 0.0]
    w = rng.uniform(-2, 2, n) + 1j * rng.uniform(-2, 2, n)
    # y ** 150 of a moderate size and angle (the polar form's error grows with the angle)
    y = np.abs(z) ** (1 / 150) * np.exp(1j * np.angle(z) / 150)
    out = np.zeros((n, 8), c128)
    pow_forms[2, 128](z, ns, x, w, y, out)
    assert_close(out[:, 0], py_pow(z, ns), c128)
    assert_close(out[:, 1], py_pow(z, x), c128)
    for col in (2, 3, 4):
        assert_close(out[:, col], py_pow(z, w), c128)
    assert_close(out[:, 5], py_pow(z, np.full(n, 2.5)), c128)
    assert_close(out[:, 6], py_pow(z, np.full(n, 0.5j)), c128)
    assert_close(out[:, 7], py_pow(y, np.full(n, 150)), c128, cond=150)


@cuda.jit
def real_base(x, k, w, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i, 0] = x[i] ** w[i]        # float64 ** complex128
        out[i, 1] = 2 ** w[i]           # int ** complex128
        out[i, 2] = k[i] ** w[i]        # int64 ** complex128


def test_real_base_complex_exponent(rng):
    n = 150
    x = rng.uniform(-4, 4, n)
    x[:3] = [0.0, -0.0, 1.0]
    k = rng.integers(-5, 6, n)
    w = rng.uniform(-2, 2, n) + 1j * rng.uniform(-2, 2, n)
    w[3:10] = np.round(w[3:10].real)
    out = np.zeros((n, 3), c128)
    real_base[2, 128](x, k, w, out)
    assert_close(out[:, 0], py_pow(x, w), c128)
    assert_close(out[:, 1], py_pow(np.full(n, 2.0), w), c128)
    assert_close(out[:, 2], py_pow(k, w), c128)


@cuda.jit
def pow_c64(z, f, w, out):
    i = cuda.grid(1)
    if i < z.shape[0]:
        out[i, 0] = z[i] ** f[i]        # complex64 ** float32 -> complex64
        out[i, 1] = z[i] ** w[i]        # complex64 ** complex64


def test_complex64_with_float32_exponent(rng):
    n = 300
    z = random_bases(rng, n, c64)
    f = rng.uniform(-3, 3, n).astype(np.float32)
    f[::5] = np.round(f[::5])
    w = (rng.uniform(-2, 2, n) + 1j * rng.uniform(-2, 2, n)).astype(c64)
    out = np.zeros((n, 2), c64)
    pow_c64[3, 128](z, f, w, out)
    assert pow_c64.signatures and out.dtype == c64
    assert_close(out[:, 0], py_pow(z, f), c64)
    assert_close(out[:, 1], py_pow(z, w), c64)
