# cuda.atomic.add on global arrays of every dtype Numba accepts:
# int32, uint32, int64, uint64, float32, float64 (values cast to the dtype).
# sig: void(int32[::1], uint32[::1], int64[::1], uint64[::1], float32[::1], float64[::1], int64[::1])
from ptxjit import cuda


@cuda.jit
def atomic_add_all(a_i32, a_u32, a_i64, a_u64, a_f32, a_f64, keys):
    i = cuda.grid(1)
    if i < keys.size:
        k = keys[i]
        cuda.atomic.add(a_i32, k, -1)
        cuda.atomic.add(a_u32, k, 3)
        cuda.atomic.add(a_i64, k, i)
        cuda.atomic.add(a_u64, k, 1 << 33)
        cuda.atomic.add(a_f32, k, 0.5)
        cuda.atomic.add(a_f64, k, i * 0.25)
