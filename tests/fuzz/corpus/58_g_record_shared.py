# A shared array and a local array of records (of the dtype of a 2-D
# record array argument, a packed dtype whose fields are aligned anyway).
# sig: void(Record(a[type=int16;offset=0],b[type=int16;offset=2],w[type=float32;offset=4];8;False)[:, ::1], float32[::1])
from numba import cuda


@cuda.jit
def records(m, out):
    tx = cuda.threadIdx.x
    sm = cuda.shared.array(64, m.dtype)
    loc = cuda.local.array(2, dtype=m.dtype)
    sm[tx] = m[tx // 8, tx % 8]
    loc[0] = sm[tx]
    loc[1].w = loc[0].a * loc[0].b
    cuda.syncthreads()
    out[tx] = sm[63 - tx].w + loc[1].w
