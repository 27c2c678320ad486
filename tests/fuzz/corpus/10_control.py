from numba import cuda

@cuda.jit
def k(a, b, n):
    i = cuda.grid(1)
    if i >= n:
        return
    acc = 0
    j = 0
    while True:
        j += 1
        if j % 3 == 0:
            continue
        elif j > 10:
            break
        acc += j
    else:
        acc = -1
    for t in range(4):
        acc ^= t << 1
    else:
        acc |= 1
    a[i] = acc if acc > 0 else -acc
    b[i, 0] = not (a[i] < 1 <= n)
