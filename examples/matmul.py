"""Matrix product with shared-memory tiles (TPB x TPB), checked against
NumPy, with the kernel's time.

    python3 examples/matmul.py [n]
"""
import ctypes
import os
import sys
import time


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

TPB = 16


@cuda.jit
def matmul(A, B, C):
    sA = cuda.shared.array((TPB, TPB), dtype=np.float32)
    sB = cuda.shared.array((TPB, TPB), dtype=np.float32)
    col, row = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = np.float32(0)
    for t in range((A.shape[1] + TPB - 1) // TPB):
        k = t * TPB
        sA[ty, tx] = A[row, k + tx] if row < A.shape[0] and k + tx < A.shape[1] else 0
        sB[ty, tx] = B[k + ty, col] if k + ty < B.shape[0] and col < B.shape[1] else 0
        cuda.syncthreads()
        for j in range(TPB):
            acc += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if row < C.shape[0] and col < C.shape[1]:
        C[row, col] = acc


def main():
    sim = os.environ.get("PTXJIT_SIM") == "1"
    print("running on:", "the ptxjit simulator" if sim else cuda.get_current_device().name)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else (128 if sim else 2048)
    rng = np.random.default_rng(0)
    A = rng.random((n, n), dtype=np.float32)
    B = rng.random((n, n), dtype=np.float32)
    dA, dB = cuda.to_device(A), cuda.to_device(B)
    dC = cuda.device_array((n, n), dtype=np.float32)
    grid = ((n + TPB - 1) // TPB, (n + TPB - 1) // TPB)
    matmul[grid, (TPB, TPB)](dA, dB, dC)       # compiles on the first call
    cuda.synchronize()
    t0 = time.perf_counter()
    matmul[grid, (TPB, TPB)](dA, dB, dC)
    cuda.synchronize()
    dt = time.perf_counter() - t0
    C = dC.copy_to_host()
    err = np.abs(C - A.astype(np.float64) @ B.astype(np.float64)).max()
    print("%d x %d in %.3f ms (%.1f GFLOP/s); largest error %.2e" % (n, n, dt * 1e3, 2 * n**3 / dt / 1e9, err))
    ok = err < 1e-3 * n
    print("matches NumPy:", ok)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
