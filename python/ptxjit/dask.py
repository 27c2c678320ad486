"""Kernels on several GPUs through Dask: a local cluster of worker
processes, each with its own GPU.

Dask (``pip install "dask[distributed]"``) is not a dependency of ptxjit;
this module imports it when gpu_cluster() is called.

    from dask.distributed import Client
    from ptxjit.dask import gpu_cluster
    with gpu_cluster() as cluster, Client(cluster):
        y = x.map_blocks(chunk_function, dtype=x.dtype).compute()

where chunk_function launches ptxjit kernels on its chunk (a NumPy array,
copied to the device and back, or a CuPy array that kernels take as it is).
"""

import copy

from ._gpus import gpu_count, rotated


def gpu_cluster(n_workers=None, **kwargs):
    """A dask.distributed LocalCluster of `n_workers` worker processes
    (one per GPU by default, or 2 where there is none or one) with one
    thread each.  Worker k runs with CUDA_VISIBLE_DEVICES set, before its
    process starts any task, to the GPUs starting at number k % gpu_count(),
    so that its device 0 is its own GPU, as dask-cuda lays them out; with
    fewer GPUs than workers, workers share them.  Other keyword arguments
    go to LocalCluster."""
    from distributed import LocalCluster

    class _GPUCluster(LocalCluster):
        def new_worker_spec(self):
            spec = super().new_worker_spec()
            (name, s), = spec.items()
            s = copy.deepcopy(s)
            order = rotated(len(self.worker_spec))
            if order is not None:
                s.setdefault("options", {})
                s["options"]["env"] = dict(s["options"].get("env") or {}, CUDA_VISIBLE_DEVICES=order)
            return {name: s}

    if n_workers is None:
        n_workers = max(gpu_count(), 2)
    kwargs.setdefault("threads_per_worker", 1)
    cluster = _GPUCluster(n_workers=0, processes=True, **kwargs)
    cluster.scale(n_workers)
    return cluster
