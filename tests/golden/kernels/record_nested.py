# Records with a sub-array field (j, int32 2x3) and a nested record field
# (p): elements read and written, the sub-array passed to a device
# function, a nested record and a whole record copied.
# sig: void(Record(a[type=float64;offset=0],j[type=nestedarray(int32, (2, 3));offset=8],p[type=Record(x[type=float32;offset=0],y[type=float32;offset=4];8;False);offset=32];40;False)[::1], Record(a[type=float64;offset=0],j[type=nestedarray(int32, (2, 3));offset=8],p[type=Record(x[type=float32;offset=0],y[type=float32;offset=4];8;False);offset=32];40;False)[::1], float64[::1])
from numba import cuda


@cuda.jit(device=True)
def row_sum(m, r):
    s = 0
    for k in range(m.shape[1]):
        s += m[r, k]
    return s


@cuda.jit
def k(a, b, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = a[i]
        out[i] = r.j[1, 0] + r['j'][0, 2] + r.p.x + row_sum(r.j, 1)
        r.j[0, 1] += 3
        r.p.y = r.a
        b[i] = a[i]
        b[i].p = a[0].p
