# Recursive device functions compiled as real calls: self recursion,
# mutual recursion, a declared signature, tuples and arrays passed and
# returned through calls.
# kernel: fib_kernel
# sig: void(int64[::1])
# kernel: parity_kernel
# sig: void(int32[::1], int64[::1])
# kernel: prefix_kernel
# sig: void(float64[::1], float64[::1])
# kernel: walk_kernel
# sig: void(complex128[::1], boolean[::1])
import numpy as np
from ptxjit import cuda


@cuda.jit(device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cuda.jit(device=True)
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@cuda.jit(device=True)
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@cuda.jit("int64(int64)", device=True)
def fact(n):
    return n * fact(n - 1) if n > 1 else 1


@cuda.jit(device=True)
def prefix(a, n):
    if n == 0:
        return (0.0, 0)
    s, k = prefix(a, n - 1)
    return (s + a[n - 1], k + 1)


@cuda.jit
def fib_kernel(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = fib(i % 16)


@cuda.jit
def parity_kernel(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = 10 * is_even(x[i] % 20) + fact(x[i] % 15)


@cuda.jit
def prefix_kernel(a, out):
    i = cuda.grid(1)
    if i < a.size:
        s, k = prefix(a, i + 1)
        out[i] = s / k


@cuda.jit(device=True)
def walk(z, n, flag):
    scratch = cuda.local.array(3, np.float64)   # one per call
    scratch[0] = z.real
    if n == 0:
        print("bottom", z, flag)
        return z, flag
    w, f = walk(z * 1.5j, n - 1, not flag)
    return w + scratch[0], f


@cuda.jit
def walk_kernel(out, flags):
    i = cuda.grid(1)
    if i < out.size:
        w, f = walk(complex(i, 0.5), 3, i % 2 == 0)
        out[i] = w
        flags[i] = f
