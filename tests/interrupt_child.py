"""The child of tests/test_interrupt.py: `python interrupt_child.py CASE`
prints "ready", runs CASE's endless run (which the parent interrupts),
prints "caught" on KeyboardInterrupt, checks that a launch after it gives
NumPy's answer ("right"), then prints "ready" again and starts another
endless run that the parent interrupts without anyone catching it."""

import sys
import threading

import numpy as np

import ptxjit
from ptxjit import cuda, njit

case = sys.argv[1]
rng = np.random.default_rng(7)


@cuda.jit
def spin_kernel(a, n):
    i = cuda.grid(1)
    k = 0
    while a[i] < n:          # a[i] is a positive float, n is infinite
        a[i] += 1.0
        k += 1
    a[i] = k


@cuda.jit
def spin_barrier(a, flag):
    t = cuda.threadIdx.x
    while flag[0] != 0:
        a[t] += 1.0
        cuda.syncthreads()


@cuda.jit
def no_loop(a, b):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = b[i] * 2.0 + 1.0


@cuda.jit
def axpy(out, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = (x[i] - y[i]) / y[i]


@njit
def spin(n):
    s = 0.0
    while s < n:               # the endless loop of the njit cases
        s += 1.0
    return s


@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@njit
def dot(x, y):
    s = 0.0
    for i in range(x.size):
        s += x[i] * y[i]
    return s


def endless():
    if case == "kernel":
        spin_kernel[2, 32](rng.random(64) + 1.0, np.inf)
    elif case == "kernel_barrier":
        spin_barrier[1, 64](np.zeros(64), np.ones(1, np.int32))
    elif case == "kernel_grid":
        a = rng.random(1 << 20)
        no_loop[(1 << 31) - 1, 1024](a, a)
    elif case == "kernel_threads":
        errors = []

        def other():
            try:
                spin_kernel[1, 32](rng.random(32) + 1.0, np.inf)
            except KeyboardInterrupt:
                print("caught", flush=True)
            except BaseException as e:
                errors.append(e)
        t = threading.Thread(target=other)
        t.start()
        try:
            spin_kernel[1, 32](rng.random(32) + 1.0, np.inf)
        finally:
            t.join()
            assert not errors, errors
    elif case == "njit":
        spin(np.inf)
    elif case == "njit_recursive":
        fib(200)


def check():
    x, y = rng.random(1000), rng.random(1000)
    if case.startswith("kernel"):
        out = np.zeros(1000)
        axpy[8, 128](out, x, y)
        ok = np.array_equal(out, (x - y) / y)
        a = rng.random(64) * 10.0
        want = a.copy()
        for i in range(64):
            k = 0
            while want[i] < 100.5:
                want[i] += 1.0
                k += 1
            want[i] = k
        spin_kernel[2, 32](a, 100.5)
        ok = ok and np.array_equal(a, want)
    else:
        ok = abs(dot(x, y) - float(np.dot(x, y))) <= 1e-9 * abs(float(np.dot(x, y))) and fib(15) == 610
    print("right" if ok else "wrong", flush=True)


if case == "njit_limit":
    try:
        spin(np.inf)
        print("no error")
    except ptxjit.errors.SimulatorError as e:
        with open(__file__) as f:
            line = 1 + [i for i, t in enumerate(f) if "# the endless loop of the njit cases" in t][0]
        print("SimulatorError")
        print(line)
        print(e)
    check()
    sys.exit(0)

spin(1.0)
spin_kernel[1, 1](np.ones(1), 2.0)
print("ready", flush=True)
try:
    endless()
    print("returned", flush=True)
except KeyboardInterrupt:
    print("caught", flush=True)
check()
print("ready", flush=True)
endless()
