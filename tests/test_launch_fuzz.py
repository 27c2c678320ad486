"""Random launches with random arguments and configurations: whatever is
passed, a launch either runs and gives NumPy's answer, or raises one of
the documented exceptions with a message that names the kernel (or, for a
typing error, the file and line).  Nothing crashes the process, nothing
is converted silently.  The kernels guard every index, so that no draw
reads out of bounds on a GPU either.  Seeded: a failure is reproducible.
"""

import numpy as np
import pytest

from ptxjit import _core, cuda


@cuda.jit
def add(a, b, out):
    i = cuda.grid(1)
    if i < out.shape[0] and i < a.shape[0] and i < b.shape[0]:
        out[i] = a[i] + b[i]


@cuda.jit
def scale(x, n, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = x * n + i


@cuda.jit
def bump(m):
    i, j = cuda.grid(2)
    if i < m.shape[0] and j < m.shape[1]:
        m[i, j] += 1


KERNELS = {"add": (add, 3), "scale": (scale, 3), "bump": (bump, 1)}

CONFIGS = [(1, 4), (2, 3), (4, 16), (0, 4), (-1, 4), (1, 0), (1, 1025), (1, 1024), (1.5, 4),
           ((1, 1, 1, 1), 4), (None, 4), ((), 4), ((2, 2), (2, 2)), (1, (4, 0)), (1, 4, 0),
           (1, 4, 0, 64), (1, 4, 0, -1), (1, 4, 0, 2**40), (1, 4, "s"), (np.int32(2), np.int64(4)),
           (True, 4), ("1", 4), ([1], 4), (1, 4, None, 0)]

# what a launch may raise: the documented classes
ALLOWED = (TypeError, ValueError, OverflowError, _core.TypingError)


def pool():
    ro = np.arange(6, dtype=np.float32)
    ro.flags.writeable = False
    return [
        None, 0, -1, 2**63, -2**63 - 1, 2**64, 1.5, float("inf"), float("nan"), 1j, True, "x", b"y",
        [1.0, 2.0], (1, 2), {}, object(), np.float32(2), np.uint64(2**64 - 1), np.int8(-3),
        np.complex128(1 + 2j), np.float16(1.5), np.datetime64("2020-01-01"), np.timedelta64(3, "s"),
        np.bytes_(b"z"), np.zeros(3, "M8[s]"), np.zeros(3, object), np.zeros(3, [("a", "f4")]),
        np.arange(8, dtype=np.float32), np.linspace(0, 1, 9), np.arange(7, dtype=np.int32),
        np.zeros((3, 5), np.float32), np.zeros(0, np.float32), np.arange(16, dtype=np.float32)[::2],
        np.arange(16.0).reshape(4, 4)[:, 1], np.zeros((4, 4), np.float32).T, np.zeros((2, 3, 4)),
        np.zeros(4, np.bool_), np.zeros(4, np.float16), np.zeros(4, np.complex64), np.zeros(4, ">f4"),
        np.arange(5, dtype=np.float64)[::-1], np.zeros((), np.float32), ro,
        cuda.to_device(np.arange(6, dtype=np.float32)), cuda.device_array(6, np.float64),
        cuda.device_array((2, 2), np.int64), cuda.to_device(np.arange(8, dtype=np.float32))[::2],
        cuda.In(np.arange(4, dtype=np.float32)), cuda.Out(np.zeros(4, np.float32)), cuda.InOut(np.zeros(4)),
        cuda.stream(), cuda.event(),
    ]


def host(x):
    if hasattr(x, "copy_to_host"):
        return x.copy_to_host()
    return np.asarray(x)


@pytest.mark.parametrize("seed", range(4))
def test_random_launches_run_or_raise_clearly(seed):
    rng = np.random.default_rng(1000 + seed)
    values = pool()
    counts = {}
    for _ in range(600):
        name = list(KERNELS)[rng.integers(len(KERNELS))]
        k, n = KERNELS[name]
        if rng.random() < 0.15:
            n = int(rng.integers(0, 5))
        args = [values[rng.integers(len(values))] for _ in range(n)]
        cfg = CONFIGS[rng.integers(len(CONFIGS))]
        try:
            k[cfg](*args)
            what = "ran"
        except ALLOWED as e:
            msg = str(e)
            what = type(e).__name__
            if isinstance(e, _core.TypingError):
                assert "test_launch_fuzz.py:" in msg and "error:" in msg, msg
            else:
                assert "'%s'" % name in msg, "%s: %s" % (what, msg)
        counts[what] = counts.get(what, 0) + 1
    # the draws reach every outcome
    assert counts.get("ran", 0) > 0 and counts.get("TypeError", 0) > 0
    assert counts.get("ValueError", 0) > 0 and counts.get("TypingError", 0) > 0


def test_random_valid_launches_give_numpy_results():
    rng = np.random.default_rng(7)
    for _ in range(60):
        n = int(rng.integers(1, 300))
        dt = [np.float32, np.float64][rng.integers(2)]
        a, b = rng.standard_normal(n).astype(dt), rng.standard_normal(n).astype(dt)
        out = np.zeros(n, dt)
        forms = rng.integers(0, 3, 3)
        pa = cuda.to_device(a) if forms[0] == 1 else cuda.In(a) if forms[0] == 2 else a
        pb = cuda.to_device(b) if forms[1] == 1 else b
        po = cuda.to_device(out) if forms[2] == 1 else cuda.Out(out) if forms[2] == 2 else out
        tpb = int(rng.integers(1, 129))
        add[(n + tpb - 1) // tpb, tpb](pa, pb, po)
        got = host(po) if forms[2] == 1 else out
        np.testing.assert_array_equal(got, a + b)
