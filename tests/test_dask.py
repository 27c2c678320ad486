"""ptxjit under Dask: examples/dask_map_blocks.py's chunk functions run a
ptxjit kernel on each chunk of a random Dask array, on a LocalCluster of two
worker processes with one thread each (ptxjit.dask.gpu_cluster), and the
result equals NumPy's; each worker sees its GPU first through
CUDA_VISIBLE_DEVICES, set before ptxjit is imported there.  Run as a
script, the example's kernel reaches the workers pickled by its name in
__main__.

Dask is a test-only dependency (pyproject's [test] extra); without it the
cluster tests skip and say why.  Under PTXJIT_TEST_GPU=1 the kernels run on
the GPU, and on CuPy-backed chunks too when CuPy is installed."""

import importlib.util
import os
import sys

import numpy as np
import pytest

from conftest import ON_GPU, ROOT

EXAMPLES = os.path.join(ROOT, "examples")
HAVE_DASK = importlib.util.find_spec("dask") is not None and importlib.util.find_spec("distributed") is not None
UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")
needs_dask = pytest.mark.skipif(not HAVE_DASK or UNDER_ASAN, reason=(
    "Dask's worker processes do not run under AddressSanitizer's preload (make pytest runs these)" if UNDER_ASAN
    else "dask[distributed] is not installed (pip install -e .[test])"))


@pytest.fixture(scope="module")
def example():
    # imported by name, as the workers import it to find the chunk functions
    # (worker processes start with this sys.path)
    if EXAMPLES not in sys.path:
        sys.path.insert(0, EXAMPLES)
    import dask_map_blocks
    return dask_map_blocks


@pytest.fixture(scope="module")
def cluster(example):
    from dask.distributed import Client
    from ptxjit.dask import gpu_cluster
    env = {}
    if not ON_GPU:
        # two GPUs named, so that the layout shows; the simulator uses none
        env["CUDA_VISIBLE_DEVICES"] = "0,1"
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        with gpu_cluster(n_workers=2, dashboard_address=None) as c, Client(c) as client:
            yield client
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@needs_dask
def test_map_blocks_on_two_workers_equals_numpy(example, cluster, rng):
    import dask.array as da
    data = rng.standard_normal((300, 200))
    x = da.from_array(data, chunks=(128, 96))
    a = float(rng.uniform(0.5, 2.0))
    from dask.distributed import get_task_stream
    with get_task_stream(cluster) as ts:
        y = example.compute(x, a)
    assert isinstance(y, np.ndarray) and y.shape == data.shape
    assert np.array_equal(y, np.sqrt(np.abs(data)) * a)
    ran = {t["worker"] for t in ts.data if "numpy_chunk" in str(t["key"])}
    assert len(ran) == 2, "chunks ran on %s" % ran


@needs_dask
def test_the_example_as_a_script():
    """Run as a script, its chunk function and kernel live in __main__:
    cloudpickle sends the function by value and the kernel by its name,
    which the workers find in their __main__ (the script, imported again)."""
    import subprocess
    import ptxjit
    here = os.path.dirname(os.path.dirname(ptxjit.__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p))
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, "dask_map_blocks.py")], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "9 chunks on 2 workers: equals NumPy" in r.stdout, r.stdout


@needs_dask
def test_each_worker_sees_its_gpu_first(example, cluster):
    seen = sorted(str(v) for v, name in cluster.run(example.worker_gpu).values())
    if ON_GPU:
        from ptxjit._gpus import rotated
        assert seen == sorted(str(rotated(k)) for k in range(2))
    else:
        assert seen == ["0,1", "1,0"]


@needs_dask
@pytest.mark.skipif(not ON_GPU or importlib.util.find_spec("cupy") is None,
                    reason="CuPy chunks need a GPU (PTXJIT_TEST_GPU=1) and CuPy")
def test_cupy_chunks_equal_numpy(example, cluster, rng):
    import dask.array as da
    data = rng.standard_normal((260, 130))
    x = da.from_array(data, chunks=(100, 64))
    y = example.compute(x, 1.25, use_cupy=True)
    assert np.array_equal(y, np.sqrt(np.abs(data)) * 1.25)
