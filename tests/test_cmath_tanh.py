"""cmath.tanh and cmath.tan of complex64 within Numba's tolerance of 2 units
of float32 (its test_complex: a part may differ from CPython's complex128
value by 2**(2 - 24 - 1) * 2|z|), also where tan of the imaginary part is
large (near its poles), on random data.  The parts are combined in float64
from float32 tanh, tan and cosh, as Numba's (its literal 1 widens them);
combined in float32 they were off by up to 4 units there.

Runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1).
"""

import cmath

import numpy as np

from ptxjit import cuda


@cuda.jit
def tanh_tan_k(z, th, tn):
    i = cuda.grid(1)
    if i < z.size:
        th[i] = cmath.tanh(z[i])
        tn[i] = cmath.tan(z[i])


def worst(got, z, f):
    """The largest error of a part, in Numba's units: |got - ref| / (2**-24 * 2|ref|)."""
    w = 0.0
    for g, v in zip(got, z):
        r = f(complex(v))
        unit = 2.0 ** -24 * 2 * abs(r)
        w = max(w, abs(complex(g).real - r.real) / unit, abs(complex(g).imag - r.imag) / unit)
    return w


def test_complex64_tanh_and_tan(rng):
    n = 4096
    x = rng.uniform(-4, 4, n)
    y = rng.uniform(-4, 4, n)
    y[: n // 2] = rng.choice([-1, 1], n // 2) * (np.pi / 2 + rng.uniform(-0.08, 0.08, n // 2))   # tan(y) large
    z = (x + 1j * y).astype(np.complex64)
    z[0] = 1 + 1.5j
    zt = (1j * z).astype(np.complex64)   # tan(zt) = -i tanh(i zt): the same near its poles
    th = np.zeros(n, np.complex64)
    tn = np.zeros(n, np.complex64)
    tanh_tan_k[n // 128, 128](z, th, tn)
    assert worst(th, z, cmath.tanh) <= 2.0
    tanh_tan_k[n // 128, 128](zt, th, tn)
    assert worst(tn, zt, cmath.tan) <= 2.0
