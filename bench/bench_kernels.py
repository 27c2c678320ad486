"""Kernel speed: ptxjit against CUDA C (through cupy.RawModule) and Numba.

    python3 bench/bench_kernels.py

* vector add of 2**26 float32 in device memory, 256 threads a block:
  GPU time of one launch from CUDA events, 5 warm-up launches, median of
  50; the same arrays (CuPy's, passed through __cuda_array_interface__)
  for all three when CuPy is present;
* vector add of 2**20 float32 host (NumPy) arrays, the copies to the
  device and back included: host wall time of one call, median of 30.
  ptxjit copies back only the arrays the kernel writes (Numba copies all
  three) and moves pageable memory through a ring of pinned buffers,
  memcpy overlapped with the DMA; the rows below the first show the other
  ways (one memcpy thread, arrays page-locked for each launch, the
  driver's own pageable copies, arrays already pinned) and the costs they
  are made of (host memcpy, page-locking a 4 MiB array), so the default
  can be chosen from figures.

Needs a GPU.  CuPy and Numba are optional.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import QUICK, cupy, ensure_ptxjit_path, median, missing, numba_cuda, ratio, table  # noqa: E402

import time  # noqa: E402

import numpy as np  # noqa: E402

WARMUP, REPS = (1, 3) if QUICK else (5, 50)
N_BIG = 1 << (16 if QUICK else 26)
N_HOST = 1 << (12 if QUICK else 20)

CUDA_C = r"""
extern "C" __global__ void vadd(const float *x, const float *y, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] + y[i];
}
"""


def make_vadd(cuda):
    @cuda.jit
    def vadd(x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] + y[i]
    return vadd


def event_ms(cuda, launch, new_event, elapsed):
    for _ in range(WARMUP):
        launch()
    if cuda:
        cuda.synchronize()
    times = []
    for _ in range(REPS):
        start, end = new_event(), new_event()
        start.record()
        launch()
        end.record()
        end.synchronize()
        times.append(elapsed(start, end))
    return median(times)


def device_vector_add(cuda, arrays, check):
    """Median ms of one launch of the vector add with `cuda` (ptxjit or numba)."""
    k = make_vadd(cuda)
    x, y, out = arrays
    blocks = (N_BIG + 255) // 256
    t = event_ms(cuda, lambda: k[blocks, 256](x, y, out), cuda.event, cuda.event_elapsed_time)
    check(out)
    return t


def cuda_c_vector_add(cp, arrays):
    mod = cp.RawModule(code=CUDA_C)
    fn = mod.get_function("vadd")
    x, y, out = arrays
    blocks = (N_BIG + 255) // 256
    n = cp.int64(N_BIG)
    return event_ms(None, lambda: fn((blocks,), (256,), (x, y, out, n)),
                    cp.cuda.Event, cp.cuda.get_elapsed_time)


def host_vector_add_ms(cuda, x, y, out=None):
    k = make_vadd(cuda)
    if out is None:
        out = np.zeros_like(x)
    blocks = (N_HOST + 255) // 256
    for _ in range(WARMUP):
        k[blocks, 256](x, y, out)
    cuda.synchronize()
    assert (out == x + y).all()
    times = []
    for _ in range(REPS if QUICK else 30):
        t0 = time.perf_counter()
        k[blocks, 256](x, y, out)
        times.append((time.perf_counter() - t0) * 1e3)
    return median(times)


def host_variants(cuda, sx, sy):
    """[(label, ms)] of ptxjit's host-array vector add with each way of
    copying, then the costs those ways are made of."""
    from ptxjit import _core
    rows = []
    saved = _core.set_transfer()
    try:
        for label, kw in (("staged, 1 memcpy thread", dict(mode="staged", threads=1)),
                          ("arrays page-locked per launch", dict(mode="register", threads=saved["threads"])),
                          ("driver's pageable copies", dict(mode="driver", threads=saved["threads"]))):
            _core.set_transfer(**kw)
            rows.append(("  ptxjit, " + label, host_vector_add_ms(cuda, sx, sy)))
    finally:
        _core.set_transfer(**saved)
    px, py = cuda.pinned_array_like(sx), cuda.pinned_array_like(sy)
    px[:] = sx
    py[:] = sy
    rows.append(("  ptxjit, arrays in cuda.pinned_array", host_vector_add_ms(cuda, px, py, cuda.pinned_array_like(sx))))
    big = np.ones(N_HOST, np.float32)
    dst = np.empty_like(big)
    times = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        np.copyto(dst, big)
        times.append((time.perf_counter() - t0) * 1e3)
    rows.append(("  cost: host memcpy of one array", median(times)))
    if not cuda.simulator_active():
        times = []
        for _ in range(REPS if QUICK else 20):
            t0 = time.perf_counter()
            _core.register_host(big)
            _core.unregister_host(big)
            times.append((time.perf_counter() - t0) * 1e3)
        rows.append(("  cost: page-lock + unlock one array", median(times)))
    return rows


def measure():
    """Returns the table's rows."""
    ensure_ptxjit_path()
    from ptxjit import cuda
    nb = numba_cuda()
    cp = cupy()

    hx = np.random.default_rng(0).random(N_BIG, dtype=np.float32)
    hy = np.random.default_rng(1).random(N_BIG, dtype=np.float32)
    want = hx + hy

    def check(out):
        got = cp.asnumpy(out) if cp else out.copy_to_host()
        assert (got == want).all(), "wrong vector sum"
        if cp:
            out.fill(0)

    if cp:
        shared = [cp.asarray(hx), cp.asarray(hy), cp.zeros(N_BIG, dtype=cp.float32)]
        arrays_p = arrays_n = shared
    else:
        arrays_p = [cuda.to_device(hx), cuda.to_device(hy), cuda.device_array(N_BIG, dtype=np.float32)]
        arrays_n = [nb.to_device(hx), nb.to_device(hy), nb.device_array(N_BIG, dtype=np.float32)] if nb else None

    t_p = device_vector_add(cuda, arrays_p, check)
    t_c = None
    if cp:
        t_c = cuda_c_vector_add(cp, shared)
        check(shared[2])
    t_n = device_vector_add(nb, arrays_n, check) if nb else None

    sx = hx[:N_HOST].copy()
    sy = hy[:N_HOST].copy()
    h_p = host_vector_add_ms(cuda, sx, sy)
    h_n = host_vector_add_ms(nb, sx, sy) if nb else None
    variants = host_variants(cuda, sx, sy)
    settings = __import__("ptxjit")._core.set_transfer()

    def gbs(ms):
        return 3 * 4 * N_BIG / (ms * 1e-3) / 1e9 if ms else None

    return [
        ["vector add 2^26 f32, device (ms)", t_p, t_c, t_n,
         "%.3f" % (t_p / t_c) if t_c else "-", ratio(t_p, t_n), "ptxjit/C <= 1.03"],
        ["  bandwidth (GB/s)", gbs(t_p), gbs(t_c), gbs(t_n), "", "", ""],
        ["vector add 2^20 f32, host arrays (ms)", h_p, None, h_n, "-", ratio(h_p, h_n), "numba/ptxjit >= 3"],
        ["  (ptxjit: %s, %d KiB chunks, %d memcpy threads)"
         % (settings["mode"], settings["chunk"] >> 10, settings["threads"]), "", "", "", "", "", ""],
    ] + [[label, ms, None, h_n if not label.startswith("  cost") else None, "-",
          ratio(ms, h_n) if not label.startswith("  cost") else "-", ""] for label, ms in variants]


HEADER = ["kernels", "ptxjit", "CUDA C", "numba", "ptxjit/C", "numba/ptxjit", "target"]


def main():
    rows = measure()
    print(table("== kernel time (medians)", HEADER, rows))
    for k, v in missing().items():
        print("note: %s" % v)
    return rows


if __name__ == "__main__":
    main()
