# Warp shuffles of every type Numba accepts (int32, int64, float32,
# float64; 64-bit values travel as two 32-bit halves), in all four modes.
# kernel: shfl_all
# sig: void(int32[::1], int64[::1], float32[::1], float64[::1], int32[::1], int64[::1], float32[::1], float64[::1])
# kernel: warp_sum
# sig: void(float64[::1], float64[::1])
from ptxjit import cuda


@cuda.jit
def shfl_all(a32, a64, f32, f64, o32, o64, g32, g64):
    i = cuda.grid(1)
    lane = cuda.laneid
    o32[i] = cuda.shfl_sync(0xffffffff, a32[i], (lane * 7) % 32)
    o64[i] = cuda.shfl_up_sync(0xffffffff, a64[i], 3)
    g32[i] = cuda.shfl_down_sync(0xffffffff, f32[i], 5)
    g64[i] = cuda.shfl_xor_sync(0xffffffff, f64[i], 9)


@cuda.jit
def warp_sum(x, out):
    i = cuda.grid(1)
    v = x[i]
    for off in (16, 8, 4, 2, 1):
        v += cuda.shfl_xor_sync(0xffffffff, v, off)
    if cuda.laneid == 0:
        out[i // 32] = v
