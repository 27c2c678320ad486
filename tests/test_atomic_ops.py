"""Every cuda.atomic operation on every dtype Numba accepts, in global and
shared memory, with 1-D indices (negative ones wrap) and tuple indices,
checked on random data.

Threads of a launch may apply their atomics in any order, so the check
does not assume one: for each array element, the values the threads got
back (the old values) together with the final value must be exactly the
initial value together with op(old, operand) of every thread.  Any
serialisation of the operations satisfies this, and a wrong operation, a
wrong old value or a lost update does not.  Floats compare by their bits.
Operations whose result does not depend on the order are also compared
with the operands folded in thread order.
"""

import math

import numpy as np
import pytest

from ptxjit import cuda

INTS = [np.int32, np.uint32, np.int64, np.uint64]
NUMS = INTS + [np.float32, np.float64]
N = 256        # threads
M = 16         # array elements


# ------------------------------------------------------------- kernels

def make_global(op):
    @cuda.jit
    def k(arr, idx, val, old):
        i = cuda.grid(1)
        if i < idx.size:
            old[i] = op(arr, idx[i], val[i])
    return k


def make_shared(op):
    @cuda.jit
    def k(arr, idx, val, old):
        s = cuda.shared.array(16, arr.dtype)
        t = cuda.threadIdx.x
        if t < 16:
            s[t] = arr[t]
        cuda.syncthreads()
        old[t] = op(s, idx[t], val[t])
        cuda.syncthreads()
        if t < 16:
            arr[t] = s[t]
    return k


def make_2d(op):
    @cuda.jit
    def k(arr, idx, val, old):
        i = cuda.grid(1)
        if i < idx.size:
            j = idx[i]
            old[i] = op(arr, (j // 4, j % 4), val[i])
    return k


@cuda.jit
def cas_global(arr, idx, cmp, val, old):
    i = cuda.grid(1)
    if i < idx.size:
        old[i] = cuda.atomic.cas(arr, idx[i], cmp[i], val[i])


@cuda.jit
def cas_shared(arr, idx, cmp, val, old):
    s = cuda.shared.array(16, arr.dtype)
    t = cuda.threadIdx.x
    if t < 16:
        s[t] = arr[t]
    cuda.syncthreads()
    old[t] = cuda.atomic.cas(s, idx[t], cmp[t], val[t])
    cuda.syncthreads()
    if t < 16:
        arr[t] = s[t]


@cuda.jit
def cas_2d(arr, idx, cmp, val, old):
    i = cuda.grid(1)
    if i < idx.size:
        j = idx[i]
        old[i] = cuda.atomic.cas(arr, (j // 4, j % 4), cmp[i], val[i])


@cuda.jit
def compare_and_swap_first(arr, cmp, val, old):
    i = cuda.grid(1)
    if i < val.size:
        old[i] = cuda.atomic.compare_and_swap(arr, cmp[i], val[i])


OPS = {
    "add": cuda.atomic.add, "sub": cuda.atomic.sub, "and_": cuda.atomic.and_, "or_": cuda.atomic.or_,
    "xor": cuda.atomic.xor, "exch": cuda.atomic.exch, "max": cuda.atomic.max, "min": cuda.atomic.min,
    "nanmax": cuda.atomic.nanmax, "nanmin": cuda.atomic.nanmin, "inc": cuda.atomic.inc,
    "dec": cuda.atomic.dec,
}
MAKERS = {"global": make_global, "shared": make_shared, "2d": make_2d}
KERNELS = {}


def kernel(kind, name):
    if (kind, name) not in KERNELS:
        KERNELS[kind, name] = MAKERS[kind](OPS[name])
    return KERNELS[kind, name]


DTYPES = {
    "add": NUMS, "sub": NUMS, "max": NUMS, "min": NUMS, "nanmax": NUMS, "nanmin": NUMS,
    "and_": INTS, "or_": INTS, "xor": INTS, "exch": INTS, "inc": [np.uint32, np.uint64],
    "dec": [np.uint32, np.uint64],
}
ORDER_FREE = ("max", "min", "nanmax", "nanmin", "and_", "or_", "xor")


# ------------------------------------------------------ the reference

def is_float(dt):
    return np.dtype(dt).kind == "f"


def apply(name, dt, o, v):
    """op(old, operand) as the hardware does it, in dtype dt."""
    if is_float(dt):
        o, v = dt(o), dt(v)
        if name == "add":
            return dt(o + v)
        if name == "sub":
            return dt(o - v)
        if name in ("max", "min"):
            if math.isnan(o) or math.isnan(v):
                return o
            return v if (o < v if name == "max" else o > v) else o
        if name in ("nanmax", "nanmin"):
            if math.isnan(v):
                return o
            return v if math.isnan(o) or (o < v if name == "nanmax" else o > v) else o
        raise AssertionError(name)
    bits = np.dtype(dt).itemsize * 8
    o, v = int(o), int(v)
    r = {
        "add": lambda: o + v, "sub": lambda: o - v, "and_": lambda: o & v, "or_": lambda: o | v,
        "xor": lambda: o ^ v, "exch": lambda: v, "max": lambda: max(o, v), "min": lambda: min(o, v),
        "nanmax": lambda: max(o, v), "nanmin": lambda: min(o, v),
        "inc": lambda: 0 if o >= v else o + 1,
        "dec": lambda: v if o == 0 or o > v else o - 1,
    }[name]()
    r &= (1 << bits) - 1
    if np.dtype(dt).kind == "i" and r >> (bits - 1):
        r -= 1 << bits
    return dt(r)


def key(dt, x):
    return np.array([x], dtype=dt).view(np.uint8).tobytes()


def check_serialisable(init, final, idx, old, new):
    """old[t], new[t]: what thread t read and wrote at element idx[t]."""
    dt = init.dtype.type
    for j in range(init.size):
        sel = np.flatnonzero(idx == j)
        seen = sorted([key(dt, old[t]) for t in sel] + [key(dt, final[j])])
        made = sorted([key(dt, init[j])] + [key(dt, new[t]) for t in sel])
        assert seen == made, "element %d: init %r, final %r, %d operations" % (j, init[j], final[j], len(sel))


def operands(rng, name, dt, n):
    if is_float(dt):
        v = rng.standard_normal(n).astype(dt) * dt(100)
        if name in ("max", "min", "nanmax", "nanmin"):
            v[rng.random(n) < 0.2] = np.nan
        return v
    info = np.iinfo(dt)
    if name in ("inc", "dec"):
        return np.full(n, rng.integers(3, 40), dtype=dt)
    if name in ("add", "sub"):
        lo = -1000 if info.min < 0 else 0
        return rng.integers(lo, 1000, n).astype(dt)
    return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)


def initial(rng, name, dt):
    if is_float(dt):
        a = rng.standard_normal(M).astype(dt)
        if name in ("max", "min", "nanmax", "nanmin"):
            a[:3] = np.nan
        return a
    if name in ("inc", "dec"):
        return rng.integers(0, 3, M).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, M, dtype=dt, endpoint=True)


# ---------------------------------------------------------------- tests

CASES = [(name, np.dtype(dt).name) for name in OPS for dt in DTYPES[name]]


@pytest.mark.parametrize("kind", ["global", "shared", "2d"])
@pytest.mark.parametrize("name,dtname", CASES)
def test_atomic(rng, kind, name, dtname):
    dt = np.dtype(dtname).type
    init = initial(rng, name, dt)
    val = operands(rng, name, dt, N)
    idx = rng.integers(0, M, N).astype(np.int64)
    arg_idx = idx.copy()
    if kind != "2d":
        arg_idx[rng.random(N) < 0.5] -= M     # negative indices wrap around
    arr = init.copy() if kind != "2d" else init.reshape(4, 4).copy()
    old = np.zeros(N, dtype=dt)
    k = kernel(kind, name)
    if kind == "shared":
        k[1, N](arr, arg_idx, val, old)
    else:
        k[N // 64, 64](arr, arg_idx, val, old)
    final = arr.reshape(-1)
    new = [apply(name, dt, old[t], val[t]) for t in range(N)]
    check_serialisable(init, final, idx, old, new)
    if name in ("add", "sub") and not is_float(dt):
        bits = np.dtype(dt).itemsize * 8
        for j in range(M):
            total = sum(int(val[t]) for t in np.flatnonzero(idx == j))
            want = int(init[j]) + (total if name == "add" else -total)
            assert (int(final[j]) - want) % (1 << bits) == 0
    if name in ORDER_FREE:
        for j in range(M):
            want = init[j]
            for t in np.flatnonzero(idx == j):
                want = apply(name, dt, want, val[t])
            assert key(dt, final[j]) == key(dt, want), (j, final[j], want)


@pytest.mark.parametrize("kind", ["global", "shared", "2d"])
@pytest.mark.parametrize("dtname", [np.dtype(d).name for d in INTS])
def test_atomic_cas(rng, kind, dtname):
    dt = np.dtype(dtname).type
    init = rng.integers(0, 4, M).astype(dt)
    idx = rng.integers(0, M, N).astype(np.int64)
    cmp = rng.integers(0, 4, N).astype(dt)
    val = rng.integers(0, 4, N).astype(dt)
    old = np.zeros(N, dtype=dt)
    arr = init.copy() if kind != "2d" else init.reshape(4, 4).copy()
    if kind == "global":
        cas_global[N // 64, 64](arr, idx, cmp, val, old)
    elif kind == "shared":
        cas_shared[1, N](arr, idx, cmp, val, old)
    else:
        cas_2d[N // 64, 64](arr, idx, cmp, val, old)
    new = [val[t] if old[t] == cmp[t] else old[t] for t in range(N)]
    check_serialisable(init, arr.reshape(-1), idx, old, new)


@pytest.mark.parametrize("dtname", [np.dtype(d).name for d in INTS])
def test_compare_and_swap(dtname):
    dt = np.dtype(dtname).type
    arr = np.array([0, 7], dtype=dt)
    val = np.arange(1, N + 1, dtype=dt)
    cmp = np.zeros(N, dtype=dt)
    old = np.full(N, 99, dtype=dt)
    compare_and_swap_first[N // 64, 64](arr, cmp, val, old)
    # exactly one thread finds 0 and swaps its value in; every other one
    # sees that value; the second element is untouched
    winners = np.flatnonzero(old == 0)
    assert len(winners) == 1
    assert arr[0] == val[winners[0]]
    assert (old[old != 0] == arr[0]).all()
    assert arr[1] == 7


@cuda.jit
def nan_rules(a, v, o):
    if cuda.grid(1) == 0:
        o[0] = cuda.atomic.max(a, 0, v[0])
        o[1] = cuda.atomic.max(a, 1, v[1])
        o[2] = cuda.atomic.nanmax(a, 2, v[2])
        o[3] = cuda.atomic.nanmin(a, 3, v[3])
        o[4] = cuda.atomic.min(a, 4, v[4])
        o[5] = cuda.atomic.nanmin(a, 5, v[5])


@pytest.mark.parametrize("dtname", ["float32", "float64"])
def test_atomic_nan_rules(dtname):
    """Numba's rules: max/min leave memory alone when it or the operand is
    NaN; nanmax/nanmin ignore a NaN operand and replace a NaN in memory."""
    dt = np.dtype(dtname)
    nan = np.nan
    arr = np.array([nan, 1.0, 1.0, nan, 4.0, 4.0], dtype=dt)
    vals = np.array([5.0, nan, 3.0, 2.0, nan, nan], dtype=dt)
    old = np.zeros(6, dtype=dt)
    nan_rules[1, 32](arr, vals, old)
    np.testing.assert_array_equal(arr, np.array([nan, 1.0, 3.0, 2.0, 4.0, 4.0], dtype=dt))
    np.testing.assert_array_equal(old, np.array([nan, 1.0, 1.0, nan, 4.0, 4.0], dtype=dt))


# ---------------------------------------- the catalogue kernel, per row

INT_ROWS = ["add", "sub", "and_", "or_", "xor", "exch", "max", "min", "nanmax", "nanmin", "cas"]
FLOAT_ROWS = ["add", "sub", "max", "min", "nanmax", "nanmin"]


def check_rows(rows, dt, init, final, idx, v, old):
    for r, name in enumerate(rows):
        if name == "cas":
            cmp = [dt(int(x) & 3) for x in v]
            val = [dt(int(x) >> 2) for x in v]
            new = [val[t] if old[r, t] == cmp[t] else old[r, t] for t in range(len(v))]
        else:
            new = [apply(name, dt, old[r, t], v[t]) for t in range(len(v))]
        check_serialisable(init[r], final[r], idx, old[r], new)


@pytest.mark.parametrize("dtname", ["int32", "uint32", "int64", "uint64", "float32", "float64"])
@pytest.mark.parametrize("shared", [False, True], ids=["global", "shared"])
def test_atomic_all_ops_catalogue(load, rng, dtname, shared):
    mod = load("atomic_all_ops")
    dt = np.dtype(dtname).type
    flt = is_float(dt)
    rows = FLOAT_ROWS if flt else INT_ROWS
    idx = rng.integers(0, M, N).astype(np.int64)
    if flt:
        init = rng.standard_normal((len(rows), M)).astype(dt)
        init[2:, :2] = np.nan
        v = (rng.standard_normal(N) * 10).astype(dt)   # no NaN: the add row would see it (a GPU's
                                                        # add gives the canonical NaN, not the operand's)
    else:
        info = np.iinfo(dt)
        init = rng.integers(0, 16, (len(rows), M)).astype(dt)
        v = rng.integers(0, 16, N).astype(dt)
        v[::3] = rng.integers(info.min, info.max, len(v[::3]), dtype=dt, endpoint=True)
        init[2:6] = rng.integers(info.min, info.max, (4, M), dtype=dt, endpoint=True)
    a = init.copy()
    old = np.zeros((len(rows), N), dtype=dt)
    if shared:
        kern = mod.shared_float_ops if flt else mod.shared_ops
        kern[1, N](a, idx, v, old)
    else:
        kern = mod.float_ops if flt else mod.int_ops
        kern[N // 64, 64](a, idx, v, old)
    check_rows(rows, dt, init, a, idx, v, old)


@pytest.mark.parametrize("dtname", ["uint32", "uint64"])
def test_atomic_inc_dec_catalogue(load, rng, dtname):
    dt = np.dtype(dtname).type
    mod = load("atomic_all_ops")
    idx = rng.integers(0, M, N).astype(np.int64)
    init = rng.integers(0, 5, (2, M)).astype(dt)
    v = np.full(N, 6, dtype=dt)
    a = init.copy()
    old = np.zeros((2, N), dtype=dt)
    mod.wrap_ops[N // 64, 64](a, idx, v, old)
    check_rows(["inc", "dec"], dt, init, a, idx, v, old)
