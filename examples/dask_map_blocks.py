"""A Dask array's chunks through a ptxjit kernel, on a local cluster of two
worker processes (one thread each), each with its own GPU as dask-cuda
lays them out; workers share the GPU when there is one, and run on ptxjit's
simulator when there is none.  The result is checked against NumPy.

    python3 examples/dask_map_blocks.py [--cupy]

--cupy turns the chunks into CuPy arrays first (on a GPU, with CuPy
installed): kernels take them as they are, with no copy to the host.
Needs Dask (pip install "dask[distributed]").
"""
import argparse
import math
import os
import sys
import warnings

# PTXJIT_SIM is read when ptxjit is imported; the workers inherit it.
if "PTXJIT_SIM" not in os.environ and not (os.path.isdir("/proc/driver/nvidia/gpus")
                                           and os.listdir("/proc/driver/nvidia/gpus")):
    os.environ["PTXJIT_SIM"] = "1"

import numpy as np  # noqa: E402
from ptxjit import cuda  # noqa: E402
from ptxjit.errors import NumbaPerformanceWarning  # noqa: E402

warnings.simplefilter("ignore", NumbaPerformanceWarning)   # small chunks, on purpose

TPB = (16, 16)


@cuda.jit
def root_scale(x, a, out):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = math.sqrt(abs(x[i, j])) * a


def blocks_for(shape):
    return ((shape[0] + TPB[0] - 1) // TPB[0], (shape[1] + TPB[1] - 1) // TPB[1])


def numpy_chunk(block, a):
    """One chunk, a NumPy array: to the device, through the kernel, back."""
    d_x = cuda.to_device(np.ascontiguousarray(block))
    d_out = cuda.device_array_like(d_x)
    root_scale[blocks_for(block.shape), TPB](d_x, a, d_out)
    return d_out.copy_to_host()


def cupy_chunk(block, a):
    """One chunk, a CuPy array: the kernel reads and writes it in place on
    the GPU (through __cuda_array_interface__)."""
    import cupy
    out = cupy.empty_like(block)
    root_scale[blocks_for(block.shape), TPB](block, a, out)
    cuda.synchronize()
    return out


def worker_gpu():
    """Where a worker runs its kernels: (CUDA_VISIBLE_DEVICES, device name)."""
    return os.environ.get("CUDA_VISIBLE_DEVICES"), cuda.get_current_device().name


def reference(x, a):
    return np.sqrt(np.abs(x)) * a


def compute(x, a, use_cupy=False):
    """sqrt(|x|) * a, chunk by chunk on the cluster's workers (x: a Dask array)."""
    if not use_cupy:
        return x.map_blocks(numpy_chunk, a, dtype=x.dtype).compute()
    import cupy
    gx = x.map_blocks(cupy.asarray, meta=cupy.empty((0, 0), x.dtype))
    gy = gx.map_blocks(cupy_chunk, a, dtype=x.dtype, meta=cupy.empty((0, 0), x.dtype))
    return gy.map_blocks(cupy.asnumpy, meta=np.empty((0, 0), x.dtype)).compute()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cupy", action="store_true", help="CuPy-backed chunks (GPU and CuPy needed)")
    args = p.parse_args(argv)

    import dask.array as da
    from dask.distributed import Client
    from ptxjit.dask import gpu_cluster

    data = np.random.default_rng(7).standard_normal((300, 200))
    x = da.from_array(data, chunks=(128, 96))
    with gpu_cluster(n_workers=2, dashboard_address=None) as cluster, Client(cluster) as client:
        for w, (visible, name) in sorted(client.run(worker_gpu).items()):
            print("worker %s: CUDA_VISIBLE_DEVICES=%s, %s" % (w, visible, name))
        y = compute(x, 1.75, args.cupy)
    same = np.array_equal(y, reference(data, 1.75))
    print("%d chunks on 2 workers: %s NumPy" % (x.npartitions, "equals" if same else "DIFFERS from"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
