# Augmented assignment to locals and to array elements, every operator.
# sig: void(int64[::1], float64[::1], int64[:, ::1])
from ptxjit import cuda


@cuda.jit
def augassign(k, x, out):
    i = cuda.grid(1)
    if i < k.size:
        v = k[i]
        v += 3
        v -= 1
        v *= 2
        v //= 3
        v %= 1000
        out[i, 0] = v
        w = i
        w <<= 4
        w |= 3
        w ^= 1
        w &= 0xFE
        w >>= 1
        out[i, 1] = w
        out[i, 2] = 7
        out[i, 2] += k[i]
        out[i, 2] *= 2
        p = 2
        p **= i % 6
        out[i, 3] = p
        x[i] /= 2
        x[i] -= 0.5
