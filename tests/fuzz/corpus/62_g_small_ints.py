# int8, int16 and uint16 arrays: arithmetic in int64, wrapped on store.
# sig: void(int8[::1], int16[::1], uint16[::1], int8[::1], int16[::1], uint16[::1])
from ptxjit import cuda


@cuda.jit
def small_ints(a8, a16, u16, o8, o16, ou16):
    i = cuda.grid(1)
    if i < a8.size:
        o8[i] = a8[i] * 3 + 1
        o16[i] = a16[i] - a8[i] * 100
        if a8[i] < 0:
            ou16[i] = u16[i] + 40000
        else:
            ou16[i] = min(u16[i], a16[i])
