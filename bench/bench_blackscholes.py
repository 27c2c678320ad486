"""Black-Scholes in float64 (exp, log, sqrt, erf from ptxjit's math
library) against the same kernel in CUDA C compiled by NVRTC (through
cupy.RawModule, CUDA's math library) and against Numba (libdevice).

    python3 bench/bench_blackscholes.py

2^24 options (PTXJIT_BENCH_QUICK=1: 2^16), 256 threads a block; the GPU
time of one launch from CUDA events, 5 warm-up launches, median of 50.
All three read the same device arrays (CuPy's, or ptxjit's own when CuPy
is missing).  The results are checked against each other (they differ by
the libraries' last bits) and against a float64 NumPy/math reference on a
sample.  Target: ptxjit within 10% of CUDA C (ptxjit/C <= 1.10) and not
slower than Numba.  Needs a GPU; CuPy and Numba are optional.
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import QUICK, cupy, ensure_ptxjit_path, median, missing, numba_cuda, ratio, table  # noqa: E402

import numpy as np  # noqa: E402

WARMUP, REPS = (1, 3) if QUICK else (5, 50)
N = 1 << (16 if QUICK else 24)
R, V = 0.02, 0.30
RSQRT2 = 0.7071067811865476

CUDA_C = r"""
extern "C" __global__ void bs(const double *S, const double *X, const double *T,
                              double *call, double *put, double R, double V, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double s = S[i], x = X[i], t = T[i];
        double sqrt_t = sqrt(t);
        double d1 = (log(s / x) + (R + 0.5 * V * V) * t) / (V * sqrt_t);
        double d2 = d1 - V * sqrt_t;
        double cnd1 = 0.5 * (1.0 + erf(d1 * 0.7071067811865476));
        double cnd2 = 0.5 * (1.0 + erf(d2 * 0.7071067811865476));
        double e = exp(-R * t);
        call[i] = s * cnd1 - x * e * cnd2;
        put[i] = x * e * (1.0 - cnd2) - s * (1.0 - cnd1);
    }
}
"""


def make_bs(cuda):
    @cuda.jit
    def black_scholes(S, X, T, call, put, R, V):
        i = cuda.grid(1)
        if i < S.size:
            s = S[i]
            x = X[i]
            t = T[i]
            sqrt_t = math.sqrt(t)
            d1 = (math.log(s / x) + (R + 0.5 * V * V) * t) / (V * sqrt_t)
            d2 = d1 - V * sqrt_t
            cnd1 = 0.5 * (1.0 + math.erf(d1 * 0.7071067811865476))
            cnd2 = 0.5 * (1.0 + math.erf(d2 * 0.7071067811865476))
            e = math.exp(-R * t)
            call[i] = s * cnd1 - x * e * cnd2
            put[i] = x * e * (1.0 - cnd2) - s * (1.0 - cnd1)
    return black_scholes


def reference(S, X, T):
    """float64 Black-Scholes in NumPy (erf element by element)."""
    sqrt_t = np.sqrt(T)
    d1 = (np.log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrt_t)
    d2 = d1 - V * sqrt_t
    erf = np.vectorize(math.erf)
    cnd1 = 0.5 * (1.0 + erf(d1 * RSQRT2))
    cnd2 = 0.5 * (1.0 + erf(d2 * RSQRT2))
    e = np.exp(-R * T)
    return S * cnd1 - X * e * cnd2, X * e * (1.0 - cnd2) - S * (1.0 - cnd1)


def event_ms(launch, new_event, elapsed, sync):
    for _ in range(WARMUP):
        launch()
    sync()
    times = []
    for _ in range(REPS):
        a, b = new_event(), new_event()
        a.record()
        launch()
        b.record()
        b.synchronize()
        times.append(elapsed(a, b))
    return median(times)


def measure():
    """Returns the table's rows."""
    ensure_ptxjit_path()
    from ptxjit import cuda
    nb = numba_cuda()
    cp = cupy()
    rng = np.random.default_rng(2024)
    hS = rng.uniform(5.0, 30.0, N)
    hX = rng.uniform(1.0, 100.0, N)
    hT = rng.uniform(0.25, 10.0, N)
    blocks = (N + 255) // 256

    def arrays(api):
        if cp:
            return [cp.asarray(hS), cp.asarray(hX), cp.asarray(hT), cp.zeros(N), cp.zeros(N)]
        return [api.to_device(hS), api.to_device(hX), api.to_device(hT), api.device_array(N), api.device_array(N)]

    def host(a):
        return cp.asnumpy(a) if cp else a.copy_to_host()

    results = {}
    k = make_bs(cuda)
    ap = arrays(cuda)
    t_p = event_ms(lambda: k[blocks, 256](*ap, R, V), cuda.event, cuda.event_elapsed_time, cuda.synchronize)
    results["ptxjit"] = (host(ap[3]), host(ap[4]))
    t_c = None
    if cp:
        fn = cp.RawModule(code=CUDA_C).get_function("bs")
        ac = arrays(None)
        n = cp.int64(N)
        t_c = event_ms(lambda: fn((blocks,), (256,), (*ac, cp.float64(R), cp.float64(V), n)), cp.cuda.Event,
                       cp.cuda.get_elapsed_time, cp.cuda.Device().synchronize)
        results["CUDA C"] = (host(ac[3]), host(ac[4]))
    t_n = None
    if nb:
        kn = make_bs(nb)
        an = arrays(nb)
        t_n = event_ms(lambda: kn[blocks, 256](*an, R, V), nb.event, nb.event_elapsed_time, nb.synchronize)
        results["numba"] = (host(an[3]), host(an[4]))

    # correctness: a sample against NumPy, and the implementations against each other
    idx = np.arange(0, N, max(1, N // 20000))
    wc, wp = reference(hS[idx], hX[idx], hT[idx])
    notes = []
    for name, (c, p) in results.items():
        err = max(np.max(np.abs(c[idx] - wc) / np.maximum(np.abs(wc), 1e-3)),
                  np.max(np.abs(p[idx] - wp) / np.maximum(np.abs(wp), 1e-3)))
        assert err < 1e-9, "%s: Black-Scholes differs from the reference by %g" % (name, err)
        if name != "ptxjit":
            d = max(np.max(np.abs(c - results["ptxjit"][0])), np.max(np.abs(p - results["ptxjit"][1])))
            notes.append("max |ptxjit - %s| = %.2g" % (name, d))
    gops = lambda ms: N / (ms * 1e-3) / 1e9 if ms else None  # noqa: E731
    return [
        ["Black-Scholes 2^24 f64 (ms)" if not QUICK else "Black-Scholes 2^16 f64 (ms)", t_p, t_c, t_n,
         "%.3f" % (t_p / t_c) if t_c else "-", ratio(t_p, t_n), "ptxjit/C <= 1.10"],
        ["  options per ns", gops(t_p), gops(t_c), gops(t_n), "", "", ""],
        ["  " + "; ".join(notes) if notes else "  (no other implementation ran)", "", "", "", "", "", ""],
    ]


HEADER = ["Black-Scholes", "ptxjit", "CUDA C", "numba", "ptxjit/C", "numba/ptxjit", "target"]


def main():
    rows = measure()
    print(table("== Black-Scholes, float64 exp/log/sqrt/erf (medians)", HEADER, rows))
    for k, v in missing().items():
        print("  %s: %s" % (k, v))


if __name__ == "__main__":
    main()
