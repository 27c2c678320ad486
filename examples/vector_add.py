"""Vector add, the first kernel to run: on the GPU when there is one,
otherwise on ptxjit's simulator.

    python3 examples/vector_add.py
"""
import ctypes
import os


def gpu_present():
    """True when the CUDA driver loads and reports a device."""
    try:
        lib = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return lib.cuInit(0) == 0 and lib.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


# PTXJIT_SIM is read when ptxjit is imported, so decide before the import.
if "PTXJIT_SIM" not in os.environ and not gpu_present():
    os.environ["PTXJIT_SIM"] = "1"
    print("no GPU found: running on the ptxjit simulator")

import numpy as np  # noqa: E402
from ptxjit import cuda  # noqa: E402


@cuda.jit
def add_arrays(x, y, out):
    idx = cuda.grid(1)
    if idx < out.size:
        out[idx] = x[idx] + y[idx]


def main():
    if os.environ.get("PTXJIT_SIM") == "1":
        print("running on: the ptxjit simulator")
    else:
        print("running on: %s" % cuda.get_current_device().name)

    n = 1_000_000
    host_x = np.arange(n, dtype=np.float32)
    host_y = np.arange(n, dtype=np.float32) * 2

    device_x = cuda.to_device(host_x)
    device_y = cuda.to_device(host_y)
    device_out = cuda.device_array_like(host_x)

    threads_per_block = 128
    blocks_per_grid = (n + threads_per_block - 1) // threads_per_block
    add_arrays[blocks_per_grid, threads_per_block](device_x, device_y, device_out)

    host_out = device_out.copy_to_host()
    print(host_out[:10])
    ok = np.array_equal(host_out, host_x + host_y)
    print("matches NumPy:", ok)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
