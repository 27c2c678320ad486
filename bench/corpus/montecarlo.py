"""Monte-Carlo with per-thread xoroshiro128+ states: pi from points in the
unit square, and the integral of a function over an interval (the Monte
Carlo example of Numba's documentation), each thread drawing in a loop."""

import math

import numpy as np
from numba import cuda
from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

from _case import Case

TPB = 128
LO, HI = 0.0, math.pi


@cuda.jit
def mc_pi(rng_states, iterations, out):
    tid = cuda.grid(1)
    inside = 0
    for _ in range(iterations):
        x = xoroshiro128p_uniform_float32(rng_states, tid)
        y = xoroshiro128p_uniform_float32(rng_states, tid)
        if x * x + y * y <= 1.0:
            inside += 1
    out[tid] = 4.0 * inside / iterations


@cuda.jit(device=True)
def func(x):
    return math.sin(x) * math.exp(-0.1 * x)


@cuda.jit
def mc_integrate(rng_states, samples, lo, hi, out):
    gid = cuda.grid(1)
    acc = 0.0
    for _ in range(samples):
        u = xoroshiro128p_uniform_float32(rng_states, gid)
        acc += func(lo + (hi - lo) * u)
    out[gid] = (hi - lo) * acc / samples


def threads(small):
    return TPB * (4 if small else 1056)


def make_pi(small, rng):
    return dict(iterations=64 if small else 4096, out=np.zeros(threads(small)))


def prep(d):
    d["states"] = create_xoroshiro128p_states(d["out"].size, seed=1234)


def launch_pi(d):
    mc_pi[d["out"].size // TPB, TPB](d["states"], d["iterations"], d["out"])


def make_int(small, rng):
    return dict(samples=64 if small else 4096, lo=LO, hi=HI, out=np.zeros(threads(small)))


def launch_int(d):
    mc_integrate[d["out"].size // TPB, TPB](d["states"], d["samples"], d["lo"], d["hi"], d["out"])


def exact_integral():
    a = 0.1
    return (math.exp(-a * LO) * (a * math.sin(LO) + math.cos(LO))
            - math.exp(-a * HI) * (a * math.sin(HI) + math.cos(HI))) / (1 + a * a)


def mean(value):
    return lambda h: dict(out=np.float64(value))


CASES = [
    Case("mc_pi_xoroshiro", make_pi, launch_pi, mean(math.pi), ["out"], (1e-5, 1e-6), prepare=prep,
         reduce=(np.mean, (2e-2, 0))),
    Case("docs_mc_integrate", make_int, launch_int, mean(exact_integral()), ["out"], (1e-5, 1e-6),
         prepare=prep, reduce=(np.mean, (2e-2, 0))),
]
