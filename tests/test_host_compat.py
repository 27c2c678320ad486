"""Smaller host-side behaviours Numba's users rely on: the context's
memory manager and its pending deallocations, slices of cuda.gpus, and
old-style gufunc scalars (a () core dimension declared as a 1-d array).
Runs on the simulator, and on the GPU with PTXJIT_TEST_GPU=1."""

import numpy as np

from ptxjit import cuda, guvectorize
from test_opt_reload import two_names   # b[i] = 2 a[i] + 1, out[i] = a[i] again + a[i]


def test_deallocations_are_the_blocks_freed_and_kept(rng):
    ctx = cuda.current_context()
    mm = ctx.memory_manager
    assert isinstance(mm, cuda.NumbaCUDAMemoryManager)
    deallocs = mm.deallocations
    deallocs.clear()
    assert len(deallocs) == 0
    x = rng.integers(0, 1000, 100)
    d = cuda.to_device(x)
    view = cuda.as_cuda_array(d)
    del d
    assert len(deallocs) == 0          # the view keeps the memory
    np.testing.assert_array_equal(view.copy_to_host(), x)
    del view
    assert len(deallocs) == 1
    again = cuda.to_device(x[::-1].copy())   # reuses the kept block
    assert len(deallocs) == 0
    np.testing.assert_array_equal(again.copy_to_host(), x[::-1])
    del again
    deallocs.clear()
    assert len(deallocs) == 0


def test_gpus_slices_are_lists_of_devices():
    n = len(cuda.gpus)
    assert n >= 1
    every = cuda.gpus[:]
    assert isinstance(every, list) and len(every) == n
    assert [d.id for d in every] == list(range(n))
    assert [d.id for d in cuda.gpus[1:]] == list(range(1, n))
    assert cuda.gpus[n:] == [] and [d.id for d in cuda.gpus[::-1]] == list(range(n))[::-1]
    with cuda.gpus[0:1][0]:
        assert cuda.get_current_device().id == 0


@guvectorize(["void(int32[:], int32[:], int32[:])"], "(n),()->(n)", target="cuda")
def add_first(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y[0]


def test_gufunc_old_style_scalar_as_array(rng):
    a = rng.integers(-50, 50, 4).astype(np.int32)
    b = np.array([7], np.int32)
    res = np.zeros(4, np.int32)
    add_first(a, b, out=res)
    np.testing.assert_array_equal(res, a + 7)
    d = cuda.to_device(np.zeros(4, np.int32))
    add_first(a, b, out=d)
    np.testing.assert_array_equal(d.copy_to_host(), a + 7)
    a2 = rng.integers(-50, 50, (3, 4)).astype(np.int32)
    b2 = rng.integers(-50, 50, 3).astype(np.int32)
    res2 = np.zeros((3, 4), np.int32)
    add_first(a2, b2, out=res2)
    np.testing.assert_array_equal(res2, a2 + b2[:, None])
    np.testing.assert_array_equal(add_first(a2, b2), a2 + b2[:, None])


@cuda.jit
def _doubled_into(a, b):
    i = cuda.grid(1)
    if i < a.size:
        b[i] = a[i] * 2.0


def test_host_arrays_sharing_memory_are_copies_of_their_own(rng):
    """One NumPy array under two names, or two views of one that overlap,
    are separate copies during the kernel, as on the GPU and in Numba
    (each host argument has a device copy of its own): the simulator gives
    the same results, and the written copies come back in argument order."""
    a = rng.standard_normal(300)
    x, out = a.copy(), np.zeros(300)
    two_names[3, 128](x, x, out)
    np.testing.assert_array_equal(out, 2 * a)          # a[i] is the caller's value
    np.testing.assert_array_equal(x, 2 * a + 1)        # b's copy came back
    x = a.copy()
    _doubled_into[3, 128](x[:-1], x[1:])               # in place this would cascade
    np.testing.assert_array_equal(x[1:], 2 * a[:-1])
    np.testing.assert_array_equal(x[0], a[0])
