# Records (structured dtypes): fields read by attribute, by name and by
# position, written, updated in place, and whole records copied.
# sig: void(Record(x[type=float32;offset=0],y[type=int32;offset=4],z[type=float64;offset=8],ok[type=bool;offset=16];24;True)[::1], Record(x[type=float32;offset=0],y[type=int32;offset=4],z[type=float64;offset=8],ok[type=bool;offset=16];24;True)[::1], float64[::1])
from numba import cuda


@cuda.jit
def fields(a, b, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        r = a[i]
        out[i] = r.x + r['y'] * 2 + a[i].z * 3 + r[0]
        a[i].x = out[i]
        a[i]['y'] += 1
        r.ok = not r.ok
        b[a.shape[0] - 1 - i] = a[i]
