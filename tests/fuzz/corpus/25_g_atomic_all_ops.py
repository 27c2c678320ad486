# Every cuda.atomic operation in global and shared memory, with tuple
# indices; each operation works on its own row of a 2-D array and returns
# the old value.  One signature per kernel here (the runner names its
# output files after the kernel); tests/test_atomic_ops.py runs them on
# every dtype Numba accepts.
# kernel: int_ops
# sig: void(int32[:, ::1], int64[::1], int32[::1], int32[:, ::1])
# kernel: float_ops
# sig: void(float32[:, ::1], int64[::1], float32[::1], float32[:, ::1])
# kernel: wrap_ops
# sig: void(uint64[:, ::1], int64[::1], uint64[::1], uint64[:, ::1])
# kernel: shared_ops
# sig: void(uint64[:, ::1], int64[::1], uint64[::1], uint64[:, ::1])
# kernel: shared_float_ops
# sig: void(float64[:, ::1], int64[::1], float64[::1], float64[:, ::1])
from ptxjit import cuda


@cuda.jit
def int_ops(a, idx, v, old):
    i = cuda.grid(1)
    if i < idx.size:
        j = idx[i]
        old[0, i] = cuda.atomic.add(a, (0, j), v[i])
        old[1, i] = cuda.atomic.sub(a, (1, j), v[i])
        old[2, i] = cuda.atomic.and_(a, (2, j), v[i])
        old[3, i] = cuda.atomic.or_(a, (3, j), v[i])
        old[4, i] = cuda.atomic.xor(a, (4, j), v[i])
        old[5, i] = cuda.atomic.exch(a, (5, j), v[i])
        old[6, i] = cuda.atomic.max(a, (6, j), v[i])
        old[7, i] = cuda.atomic.min(a, (7, j), v[i])
        old[8, i] = cuda.atomic.nanmax(a, (8, j), v[i])
        old[9, i] = cuda.atomic.nanmin(a, (9, j), v[i])
        old[10, i] = cuda.atomic.cas(a, (10, j), v[i] & 3, v[i] >> 2)


@cuda.jit
def float_ops(a, idx, v, old):
    i = cuda.grid(1)
    if i < idx.size:
        j = idx[i]
        old[0, i] = cuda.atomic.add(a, (0, j), v[i])
        old[1, i] = cuda.atomic.sub(a, (1, j), v[i])
        old[2, i] = cuda.atomic.max(a, (2, j), v[i])
        old[3, i] = cuda.atomic.min(a, (3, j), v[i])
        old[4, i] = cuda.atomic.nanmax(a, (4, j), v[i])
        old[5, i] = cuda.atomic.nanmin(a, (5, j), v[i])


@cuda.jit
def wrap_ops(a, idx, v, old):
    i = cuda.grid(1)
    if i < idx.size:
        j = idx[i]
        old[0, i] = cuda.atomic.inc(a, (0, j), v[i])
        old[1, i] = cuda.atomic.dec(a, (1, j), v[i])


@cuda.jit
def shared_ops(a, idx, v, old):
    s = cuda.shared.array((11, 16), a.dtype)
    t = cuda.threadIdx.x
    if t < 16:
        for r in range(11):
            s[r, t] = a[r, t]
    cuda.syncthreads()
    j = idx[t]
    old[0, t] = cuda.atomic.add(s, (0, j), v[t])
    old[1, t] = cuda.atomic.sub(s, (1, j), v[t])
    old[2, t] = cuda.atomic.and_(s, (2, j), v[t])
    old[3, t] = cuda.atomic.or_(s, (3, j), v[t])
    old[4, t] = cuda.atomic.xor(s, (4, j), v[t])
    old[5, t] = cuda.atomic.exch(s, (5, j), v[t])
    old[6, t] = cuda.atomic.max(s, (6, j), v[t])
    old[7, t] = cuda.atomic.min(s, (7, j), v[t])
    old[8, t] = cuda.atomic.nanmax(s, (8, j), v[t])
    old[9, t] = cuda.atomic.nanmin(s, (9, j), v[t])
    old[10, t] = cuda.atomic.cas(s, (10, j), v[t] & 3, v[t] >> 2)
    cuda.syncthreads()
    if t < 16:
        for r in range(11):
            a[r, t] = s[r, t]


@cuda.jit
def shared_float_ops(a, idx, v, old):
    s = cuda.shared.array((6, 16), a.dtype)
    t = cuda.threadIdx.x
    if t < 16:
        for r in range(6):
            s[r, t] = a[r, t]
    cuda.syncthreads()
    j = idx[t]
    old[0, t] = cuda.atomic.add(s, (0, j), v[t])
    old[1, t] = cuda.atomic.sub(s, (1, j), v[t])
    old[2, t] = cuda.atomic.max(s, (2, j), v[t])
    old[3, t] = cuda.atomic.min(s, (3, j), v[t])
    old[4, t] = cuda.atomic.nanmax(s, (4, j), v[t])
    old[5, t] = cuda.atomic.nanmin(s, (5, j), v[t])
    cuda.syncthreads()
    if t < 16:
        for r in range(6):
            a[r, t] = s[r, t]
