"""Sum of a large array with a shared-memory tree reduction per block and
one atomic add per block, checked against NumPy.

    python3 examples/reduction.py
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


if "PTXJIT_SIM" not in os.environ and not gpu_present():
    os.environ["PTXJIT_SIM"] = "1"
    print("no GPU found: running on the ptxjit simulator")

import numpy as np  # noqa: E402
from ptxjit import cuda  # noqa: E402

TPB = 256   # threads per block: a power of two


@cuda.jit
def block_sum(x, total):
    buf = cuda.shared.array(TPB, dtype=np.float64)
    tid = cuda.threadIdx.x
    # each thread first adds up a grid-stride slice of x
    acc = 0.0
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i]
    buf[tid] = acc
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            buf[tid] += buf[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(total, 0, buf[0])


def main():
    where = "the ptxjit simulator" if os.environ.get("PTXJIT_SIM") == "1" else cuda.get_current_device().name
    print("running on:", where)
    n = 1 << 20
    x = np.random.default_rng(0).random(n)
    total = np.zeros(1)
    block_sum[64, TPB](x, total)
    want = x.sum()
    print("sum on the device: %.6f" % total[0])
    print("sum by NumPy:      %.6f" % want)
    ok = abs(total[0] - want) <= 1e-9 * abs(want)
    print("matches NumPy:", ok)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
