# for loops over range with negative steps, break, continue and else.
# sig: void(int64[::1], int64[:, ::1])
# golden: ast, opt
from ptxjit import cuda


@cuda.jit
def loops(a, out):
    i = cuda.grid(1)
    if i >= out.shape[0]:
        return
    n = a.shape[0]
    # the last even value at an index <= i, scanning down
    last = -1
    for j in range(n - 1, -1, -1):
        if j > i:
            continue
        if a[j] % 2 == 0:
            last = j
            break
    else:
        last = -2
    out[i, 0] = last
    s = 0
    for j in range(i, -1, -3):
        s += j
    out[i, 1] = s
    hit = 0
    for j in range(5, 5):
        hit += 1
    else:
        hit += 100
    out[i, 2] = hit
    t = 0
    for j in range(10, i, -2):
        t += 1
    out[i, 3] = t
