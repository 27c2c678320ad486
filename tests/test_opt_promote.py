"""Scalar replacement keeps every bit: a thread's own element held in
registers across a loop, loaded once before it and stored once after.

Each kernel runs unoptimised and optimised in the plain and launch-time
variants on random data; outputs must be bit-identical and equal to
NumPy's.  The edges: zero trips (the element is then neither read nor
written: threads past the array's end run no iteration), one trip, a
record's two fields (xoroshiro128+ states drawn with
numba.cuda.random), two arguments that are one array (not replaced: the
addresses have other terms), a store on one branch only and an atomic in
the loop (not replaced), loads after the loop of what it stored.

Runs on the simulator (CI) and on the GPU (PTXJIT_TEST_GPU=1).
"""

import re

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

from conftest import launch_all, same_bits

M64 = (1 << 64) - 1




@cuda.jit
def xorshift(state, out, iters):
    t = cuda.grid(1)
    m = iters if t < state.shape[0] else 0      # threads past the end: no trip
    acc = np.uint64(0)
    for _ in range(m):
        x = state[t]
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        state[t] = x
        acc += x >> np.uint64(40)
    if t < out.shape[0]:
        out[t] = acc


def xorshift_ref(state, iters, nout):
    st = [int(v) for v in state]
    out = [0] * nout
    for t in range(len(st)):
        x, acc = st[t], 0
        for _ in range(iters):
            x ^= (x << 13) & M64
            x ^= x >> 7
            x ^= (x << 17) & M64
            acc = (acc + (x >> 40)) & M64
        st[t] = x
        if t < nout:
            out[t] = acc
    return np.array(st, np.uint64), np.array(out, np.uint64)


@pytest.mark.parametrize("iters", [0, 1, 2, 5, 33])
def test_xorshift_state(iters, rng):
    state = rng.integers(1, 2**63, 40, dtype=np.uint64)
    out = np.zeros(64, np.uint64)
    got_state, got_out = launch_all(xorshift, 2, 32, [state, out, np.int64(iters)], [0, 1])
    # launch_all zeroes the outputs: state is an input too, so run it again
    s = state.copy()
    o = np.zeros(64, np.uint64)
    xorshift[2, 32](s, o, np.int64(iters))
    want_s, want_o = xorshift_ref(state, iters, 64)
    np.testing.assert_array_equal(s, want_s)
    np.testing.assert_array_equal(o, want_o)


def test_xorshift_state_bits(rng):
    """The state as input and output, every variant against opt=False."""
    state = rng.integers(1, 2**63, 40, dtype=np.uint64)
    for iters in (0, 3):
        res = []
        for flags, opt in ((0, False), (0, True), (1, True), (3, True), (7, True)):
            d = cuda.jit(opt=opt)(xorshift.py_func)
            s, o = state.copy(), np.zeros(64, np.uint64)
            argtypes = d._typeof((s, o, np.int64(iters)))
            k = d._compile(", ".join(argtypes), argtypes, flags)
            for f in range(8):
                d._variants[(argtypes, f)] = k
            d[2, 32](s, o, np.int64(iters))
            res.append((s, o))
        for s, o in res[1:]:
            assert same_bits(s, res[0][0]) and same_bits(o, res[0][1])


@cuda.jit
def draws(states, iters, out):
    t = cuda.grid(1)
    acc = np.float32(0)
    for _ in range(iters):
        acc += xoroshiro128p_uniform_float32(states, t) * np.float32(0.5)
    out[t] = acc


@pytest.mark.parametrize("iters", [0, 1, 7])
def test_xoroshiro_record_fields(iters):
    outs = []
    for opt in (False, True):
        states = create_xoroshiro128p_states(64, seed=77)
        out = np.zeros(64, np.float32)
        cuda.jit(opt=opt)(draws.py_func)[2, 32](states, np.int64(iters), out)
        outs.append((out, states.copy_to_host()))
        # a second launch continues from the states the first left
        out2 = np.zeros(64, np.float32)
        cuda.jit(opt=opt)(draws.py_func)[2, 32](states, np.int64(iters), out2)
        outs.append((out2, states.copy_to_host()))
    for (o1, s1), (o2, s2) in zip(outs[:2], outs[2:]):
        assert same_bits(o1, o2) and same_bits(s1, s2)
    if iters:
        assert not same_bits(outs[0][0], outs[1][0])      # the states moved on


@cuda.jit
def two_names(a, b, n):
    t = cuda.grid(1)
    if t < a.shape[0]:
        for _ in range(n):
            b[t] = a[t] * np.float32(0.5) + np.float32(1)


@pytest.mark.parametrize("same", [True, False])
def test_two_names_one_array(same, rng):
    a = rng.random(50, dtype=np.float32)
    want = a.copy()
    for _ in range(4):
        want = want * np.float32(0.5) + np.float32(1) if same else a * np.float32(0.5) + np.float32(1)
    for opt in (False, True):
        x = cuda.to_device(a)        # one device array twice (a NumPy array twice is copied twice)
        y = x if same else cuda.to_device(np.zeros_like(a))
        cuda.jit(opt=opt)(two_names.py_func)[2, 32](x, y, np.int64(4))
        np.testing.assert_array_equal(y.copy_to_host(), want)


@cuda.jit
def branch_store(a, out, n):
    t = cuda.grid(1)
    if t < a.shape[0]:
        for k in range(n):
            v = a[t]
            if v > np.float32(0.5):
                a[t] = v * np.float32(0.5)
            out[t] += v
        out[t] += np.float32(k)


def test_store_on_a_branch(rng):
    a = rng.random(40, dtype=np.float32) * np.float32(2)
    out = rng.random(40, dtype=np.float32)
    for n in (1, 6):
        (got_out,) = launch_all(branch_store, 2, 32, [a, out, np.int64(n)], [1])
        x, o = a.copy(), np.zeros(40, np.float32)
        for k in range(n):
            v = x.copy()
            x = np.where(v > np.float32(0.5), v * np.float32(0.5), v)
            o = o + v
        o = o + np.float32(n - 1)
        np.testing.assert_array_equal(got_out, o)


@cuda.jit
def with_atomic(acc, total, n):
    t = cuda.grid(1)
    for _ in range(n):
        acc[t] = acc[t] + 1
        cuda.atomic.add(total, 0, acc[t])


def test_atomic_in_loop():
    for n in (0, 3):
        acc = np.zeros(64, np.int64)
        total = np.zeros(1, np.int64)
        with_atomic[2, 32](acc, total, np.int64(n))
        np.testing.assert_array_equal(acc, np.full(64, n))
        assert total[0] == 64 * n * (n + 1) // 2


@cuda.jit
def then_read(a, out, n):
    t = cuda.grid(1)
    if t < a.shape[0]:
        for _ in range(n):
            a[t] = a[t] * 3 + 1
        out[t] = a[t]


def test_read_after_loop(rng):
    a = rng.integers(-1000, 1000, 45, dtype=np.int64)
    for n in (0, 1, 4):
        x, out = a.copy(), np.zeros(45, np.int64)
        then_read[2, 32](x, out, np.int64(n))
        w = a.copy()
        for _ in range(n):
            w = w * 3 + 1
        np.testing.assert_array_equal(x, w)
        np.testing.assert_array_equal(out, w)


def test_loop_has_no_memory_access():
    """The xorshift loop reads and writes registers only: one load before
    it, one store after it (for each of the two loops that run-time
    unrolling makes: four bodies per test, then the rest)."""
    d = cuda.jit(xorshift.py_func)
    sig = ("uint64[::1]", "uint64[::1]", "int64")
    k = d._compile(", ".join(sig), sig, 7)
    ir = k.ir
    assert ir.count("load.global") == 2, ir
    assert ir.count("store.global") == 3, ir        # the state twice and out[t]


@cuda.jit
def pi_draws(states, iters, out):
    """mc_pi's loop: two draws an iteration, a count of hits."""
    t = cuda.grid(1)
    hits = 0
    for _ in range(iters):
        x = xoroshiro128p_uniform_float32(states, t)
        y = xoroshiro128p_uniform_float32(states, t)
        if x * x + y * y <= 1.0:
            hits += 1
    out[t] = hits


def test_replaced_loop_is_unrolled_at_run_time():
    """Once its state lives in registers, the loop is small enough for
    run-time unrolling (src/opt/unroll.c after promote.c): four bodies a
    test, each with its two draws' rotations by 55, then the loop for the
    rest; the state is loaded once before both and stored once after."""
    d = cuda.jit(pi_draws.py_func)
    states = create_xoroshiro128p_states(64, seed=5)
    sig = d._typeof((states, np.int64(3), np.zeros(64, np.int64)))
    ir = d._compile(", ".join(sig), sig, 7).ir
    assert len(re.findall(r"shl u64 %\d+, 55", ir)) == 2 * 5, ir
    assert ir.count("load.global") == 2, ir             # the two fields
    assert ir.count("store.global") == 3, ir            # and out[t]


@pytest.mark.parametrize("iters", list(range(0, 10)) + [33])
def test_unrolled_draws_bit_identical(iters):
    outs = []
    for opt in (False, True):
        states = create_xoroshiro128p_states(96, seed=11 + iters)
        out = np.zeros(96, np.int64)
        cuda.jit(opt=opt)(pi_draws.py_func)[3, 32](states, np.int64(iters), out)
        outs.append((out, states.copy_to_host()))
    assert same_bits(outs[0][0], outs[1][0]) and same_bits(outs[0][1], outs[1][1])
    assert (outs[1][0] <= iters).all() and (outs[1][0] >= 0).all()
    if iters >= 8:
        assert outs[1][0].sum() > 0
