# Python's numbers in kernels: float // and % (exact fmod), divmod,
# round with digits, complex division, abs, conjugate and integer powers,
# tuples in loops, for/while with else.
# kernel: float_divmod
# sig: void(float64[::1], float64[::1], float64[:, ::1])
# kernel: float32_divmod
# sig: void(float32[::1], float32[::1], float32[:, ::1])
# kernel: rounding
# sig: void(float64[::1], float64[:, ::1])
# kernel: complex_ops
# sig: void(complex128[::1], complex128[::1], complex128[:, ::1])
# kernel: loops
# sig: void(int64[::1], int64[:, ::1])
from ptxjit import cuda


@cuda.jit
def float_divmod(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]
        q, r = divmod(a[i], b[i])
        out[i, 2] = q
        out[i, 3] = r


@cuda.jit
def float32_divmod(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = a[i] // b[i]
        out[i, 1] = a[i] % b[i]


@cuda.jit
def rounding(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = round(x[i])
        out[i, 1] = round(x[i], 2)
        out[i, 2] = round(x[i], -1)
        out[i, 3] = round(x[i], i % 5)


@cuda.jit
def complex_ops(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        z = a[i]
        out[i, 0] = z / b[i]
        out[i, 1] = abs(z) + z.real * 1j - z.imag
        out[i, 2] = z.conjugate() * z ** 3
        out[i, 3] = b[i] ** -2


@cuda.jit
def loops(x, out):
    i = cuda.grid(1)
    if i < x.size:
        t = (1, 2, x[i])
        s = 0
        for v in t:
            s += v
        for k in range(len(t)):
            s += t[k] * k
        j = 0
        while j < x[i] % 7:
            j += 1
            if j > 100:
                break
        else:
            s += 1000
        for k in range(5):
            if k == x[i] % 3:
                break
        else:
            s += 10000
        out[i, 0] = s
        out[i, 1] = j
