# cuda.atomic.add on shared arrays of every supported dtype, then the
# per-block results added to global memory.
# sig: void(int64[::1], int32[::1], uint32[::1], int64[::1], uint64[::1], float32[::1], float64[::1])
import numpy as np
from ptxjit import cuda

NB = 8


@cuda.jit
def shared_atomics(keys, o_i32, o_u32, o_i64, o_u64, o_f32, o_f64):
    s_i32 = cuda.shared.array(NB, np.int32)
    s_u32 = cuda.shared.array(NB, np.uint32)
    s_i64 = cuda.shared.array(NB, np.int64)
    s_u64 = cuda.shared.array(NB, np.uint64)
    s_f32 = cuda.shared.array(NB, np.float32)
    s_f64 = cuda.shared.array(NB, np.float64)
    t = cuda.threadIdx.x
    if t < NB:
        s_i32[t] = 0
        s_u32[t] = 0
        s_i64[t] = 0
        s_u64[t] = 0
        s_f32[t] = 0
        s_f64[t] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < keys.size:
        k = keys[i]
        cuda.atomic.add(s_i32, k, -1)
        cuda.atomic.add(s_u32, k, 2)
        cuda.atomic.add(s_i64, k, i)
        cuda.atomic.add(s_u64, k, 5)
        cuda.atomic.add(s_f32, k, 0.25)
        cuda.atomic.add(s_f64, k, 1.5)
    cuda.syncthreads()
    if t < NB:
        cuda.atomic.add(o_i32, t, s_i32[t])
        cuda.atomic.add(o_u32, t, s_u32[t])
        cuda.atomic.add(o_i64, t, s_i64[t])
        cuda.atomic.add(o_u64, t, s_u64[t])
        cuda.atomic.add(o_f32, t, s_f32[t])
        cuda.atomic.add(o_f64, t, s_f64[t])
