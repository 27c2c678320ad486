"""The GPUs a process may use, found without starting the CUDA driver
(which reads CUDA_VISIBLE_DEVICES once, when it starts): for ptxjit.mpi
and ptxjit.dask, which give each process its GPU."""

import os
import subprocess


def gpu_count():
    """The number of GPUs this process may use, found without starting the
    CUDA driver: the entries of CUDA_VISIBLE_DEVICES when it is set, else
    the GPUs the NVIDIA kernel driver lists (0 on a machine without)."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len(visible_ids(visible))
    try:
        return len(os.listdir("/proc/driver/nvidia/gpus"))
    except OSError:
        pass
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return 0
    return sum(line.startswith("GPU ") for line in r.stdout.splitlines()) if r.returncode == 0 else 0


def visible_ids(visible):
    # CUDA stops at the first entry that names no device; an empty entry is one
    ids = []
    for v in visible.split(","):
        v = v.strip()
        if not v or v.startswith("-"):
            break
        ids.append(v)
    return ids


def cuda_started():
    """True when libcuda is loaded in this process: the driver may have read
    CUDA_VISIBLE_DEVICES already."""
    try:
        with open("/proc/self/maps") as f:
            return "/libcuda.so" in f.read()
    except OSError:
        return False


def rotated(k):
    """CUDA_VISIBLE_DEVICES for the k-th of several processes that each
    use their first device: the GPUs this process may use, starting at
    number k % gpu_count() (dask-cuda's layout), or None without a GPU."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    n = gpu_count()
    if n == 0:
        return None
    ids = visible_ids(visible) if visible is not None else [str(i) for i in range(n)]
    k %= n
    return ",".join(ids[k:] + ids[:k])
