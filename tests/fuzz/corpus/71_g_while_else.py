# while with else and break (Collatz steps, capped).
# sig: void(int64[::1], int64[:, ::1])
from ptxjit import cuda


@cuda.jit
def collatz(starts, out):
    i = cuda.grid(1)
    if i < starts.size:
        n = starts[i]
        steps = 0
        while n != 1:
            if steps >= 50:
                break
            if n % 2 == 0:
                n //= 2
            else:
                n = 3 * n + 1
            steps += 1
        else:
            steps += 1000
        out[i, 0] = steps
        out[i, 1] = n
