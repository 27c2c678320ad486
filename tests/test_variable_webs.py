"""A variable assigned values of different types, as Numba's SSA form reads
it: each assignment is a version of its own, and only the versions whose
values meet (after an if, around a loop, at a use reached from several
assignments) must have one type.  A parameter may be reassigned to another
type; an array reshaped inside a loop keeps one type around the loop; a
branch pruned on a constant does not meet the code after it.  Versions that
meet and do not unify are still an error at the assignment.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against the Python function's answers.
"""

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError

FLAG = True


@cuda.jit
def retyped_k(out, a, n):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    x = i * 3                  # int64
    out[i, 0] = x
    x = a[i] * 0.5             # float64
    out[i, 1] = x
    x = (n, a[i])              # a tuple
    out[i, 2] = x[0] + x[1]
    n = a                      # the int parameter becomes an array
    out[i, 3] = n[n.shape[0] - 1 - i]


def test_a_variable_retyped_in_sequence(rng):
    a = rng.standard_normal(50)
    out = np.zeros((50, 4))
    retyped_k[2, 32](out, a, 7)
    ref = np.zeros((50, 4))
    for i in range(50):
        ref[i] = [i * 3, a[i] * 0.5, 7 + a[i], a[49 - i]]
    np.testing.assert_array_equal(out, ref)


@cuda.jit
def reshape_loop_k(out, arr, reps):
    for r in range(reps):
        arr = arr.reshape(arr.size)          # 1d inside the loop only
        arr = arr.reshape(3, arr.size // 3)  # 2d, as on entry
    for i in range(arr.shape[0]):
        for j in range(arr.shape[1]):
            out[i, j] = arr[i, j] * 2


def test_a_parameter_reshaped_around_a_loop(rng):
    arr = rng.standard_normal((3, 4))
    out = np.zeros((3, 4))
    reshape_loop_k[1, 1](out, arr, 2)
    np.testing.assert_array_equal(out, arr * 2)


@cuda.jit
def loop_target_k(out, m, b):
    for t in range(m):       # t an int here ...
        for k in range(b.size):
            t = b            # ... and an array here; the two never meet
            out[k] += t[k] * (k + 1)


def test_a_loop_target_reassigned_to_an_array(rng):
    b = rng.standard_normal(6)
    out = np.zeros(6)
    loop_target_k[1, 1](out, 3, b)
    np.testing.assert_allclose(out, 3 * b * np.arange(1, 7), rtol=1e-15)


@cuda.jit
def meet_k(out, a):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    y = 1
    if a[i] > 0:
        y = a[i]                 # int64 and float64 meet: float64
    out[i] = y
    s = 0
    for k in range(i):
        s += a[k]                # meets around the loop
    out[i] += s
    z = a
    if FLAG:                     # pruned: z stays an array after the if
        z = a[i]
    else:
        z = (1, 2)
    out[i] += z


def test_values_that_meet_unify(rng):
    a = rng.standard_normal(40)
    out = np.zeros(40)
    meet_k[2, 32](out, a)
    ref = np.array([(a[i] if a[i] > 0 else 1.0) + a[:i].sum() + a[i] for i in range(40)])
    np.testing.assert_allclose(out, ref, rtol=1e-13)


@cuda.jit
def clash_k(out, n):
    x = 1
    if n > 0:
        x = out
    out[0] = x


def test_values_that_meet_and_do_not_unify_are_an_error():
    with pytest.raises(TypingError, match="cannot assign array.* to variable 'x', which holds int64"):
        clash_k[1, 1](np.zeros(2), 1)


# A variable assigned once with a constant is that constant only where the
# assignment reached on every path; where it may not have run, the variable
# holds zero, as under Numba (numba 0.68.1's njit: f(0) of
# `if c > 0: x = 1.5` / `return x` is 0.0).
@cuda.jit
def maybe_assigned_k(out, a):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    if a[i] > 0:
        x = 1.5
    out[i, 0] = x
    if a[i] > 0.5:
        t = (2, 3)
    out[i, 1] = t[0] * t[1]
    for j in range(3):
        if j > 0:
            out[i, 2] += y       # the first trip reads no assignment
        y = 4
    z = 2.5
    for j in range(2):
        z2 = 7
    out[i, 3] = z + z2          # z reaches everywhere; z2 only if the loop ran


def maybe_assigned_ref(a):
    out = np.zeros((a.size, 4))
    for i, v in enumerate(a):
        out[i] = [1.5 if v > 0 else 0.0, 6 if v > 0.5 else 0, 8, 9.5]
    return out


def test_a_constant_assigned_on_some_paths_only(rng):
    a = rng.standard_normal(64)
    assert (a > 0).any() and (a <= 0).any()
    out = np.zeros((64, 4))
    maybe_assigned_k[2, 32](out, a)
    np.testing.assert_array_equal(out, maybe_assigned_ref(a))


def test_a_constant_assigned_on_some_paths_only_njit(rng):
    from ptxjit import njit

    @njit
    def f(v):
        if v > 0:
            x = 1.5
        return x

    a = rng.standard_normal(16)
    assert [f(v) for v in a] == [1.5 if v > 0 else 0.0 for v in a]


@cuda.jit
def const_shape_k(out):
    n = 8                        # reaches the shared array on every path
    if cuda.threadIdx.x == 0:
        out[0] = n
    for k in range(2):
        sm = cuda.shared.array(n, dtype=np.float64)
        sm[cuda.threadIdx.x] = k
    out[1] = sm.shape[0]


def test_a_constant_that_reaches_every_use_stays_a_constant():
    out = np.zeros(2)
    const_shape_k[1, 8](out)
    np.testing.assert_array_equal(out, [8, 8])
