from numba import cuda

@cuda.jit
def k(a, b, c):
    i = cuda.grid(1)
    x = a[i]
    y = b[i]
    c[i] = -x ** 2 + x // 3 - y % 7 + (x / y) * 2.5e-3 - ~int(x) + (x << 2 >> 1 & 255 | 7 ^ 3)
    c[i] += 1_000 + 0x1f + 0o17 + 0b101 + .5 + 5.
    c[-1] = a[-i] * b[1:3, ::2][0]
