"""A child of fork() made after the parent used the GPU cannot use it: the
driver's context belongs to the parent.  Every use in the child is a
CudaDriverError saying "CUDA initialized before forking" (Numba's words),
where without the check the child would use a copied, dead context (on a
GPU: a hang or a crash).  A child forked before any GPU use, and the
simulator in any child, work as usual.  Run on the fake driver
(tests/fake_cuda) without a GPU, and on the GPU when there is one."""

import concurrent.futures
import multiprocessing as mp

import numpy as np
import pytest

from ptxjit import cuda, errors

from conftest import ON_GPU
from test_runtime import fake_driver, run_fake  # noqa: F401  (the fixture)

FORK_BODY = """
import concurrent.futures, multiprocessing as mp
x = cuda.to_device(np.arange(5, dtype=np.int32))   # the parent uses the device
def child_alloc():
    try:
        cuda.to_device(np.arange(3))
        return "no error"
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
def child_sync():
    try:
        cuda.synchronize()
        return "no error"
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
with concurrent.futures.ProcessPoolExecutor(1, mp_context=mp.get_context("fork")) as ex:
    result["alloc"] = ex.submit(child_alloc).result()
    result["sync"] = ex.submit(child_sync).result()
result["parent"] = x.copy_to_host().tolist()
"""


def test_fork_after_use_is_refused_in_the_child(fake_driver, tmp_path):
    res = run_fake(FORK_BODY, fake_driver, tmp_path)
    assert "raised" not in res, res
    for k in ("alloc", "sync"):
        assert res[k].startswith("CudaDriverError: CUDA initialized before forking"), res[k]
        assert "'spawn'" in res[k]
    assert res["parent"] == [0, 1, 2, 3, 4]


def test_current_context_initialises_the_device(fake_driver, tmp_path):
    """cuda.current_context() makes the context, as Numba's does: a child
    forked after it is refused too."""
    res = run_fake("""
        import concurrent.futures, multiprocessing as mp
        cuda.current_context()
        def child():
            try:
                cuda.to_device(np.arange(3))
                return "no error"
            except Exception as e:
                return type(e).__name__ + ": " + str(e)
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=mp.get_context("fork")) as ex:
            result["child"] = ex.submit(child).result()
    """, fake_driver, tmp_path)
    assert res["child"].startswith("CudaDriverError: CUDA initialized before forking"), res


def test_fork_before_use_works(fake_driver, tmp_path):
    res = run_fake("""
        import concurrent.futures, multiprocessing as mp
        def child():
            rng = np.random.default_rng(3)
            a = rng.integers(0, 1000, 9)
            return cuda.to_device(a).copy_to_host().tolist() == a.tolist()
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=mp.get_context("fork")) as ex:
            result["child"] = ex.submit(child).result()
        result["parent"] = cuda.to_device(np.arange(4)).copy_to_host().tolist()
    """, fake_driver, tmp_path)
    assert res == {"child": True, "parent": [0, 1, 2, 3]}, res


def _child_use(seed):
    a = np.random.default_rng(seed).random(17)
    try:
        return ("ok", np.array_equal(cuda.to_device(a).copy_to_host(), a))
    except errors.CudaDriverError as e:
        return ("CudaDriverError", str(e))


def test_fork_in_this_process():
    """On the GPU the child is refused; on the simulator it works."""
    cuda.to_device(np.arange(3)).copy_to_host()
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=mp.get_context("fork")) as ex:
        kind, what = ex.submit(_child_use, 5).result()
    if ON_GPU:
        assert kind == "CudaDriverError" and "CUDA initialized before forking" in what, (kind, what)
    else:
        assert (kind, what) == ("ok", True)
