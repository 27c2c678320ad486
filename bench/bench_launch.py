"""Launch overhead, import time and first-call time: ptxjit against Numba.

    python3 bench/bench_launch.py

* launch overhead from Python: `k[grid, block](...)` of an empty kernel and
  of a kernel with three device arrays, host wall time per launch, median
  of 21 batches of 500 launches (a synchronize closes each batch); the same
  with three CuPy arrays (read through __cuda_array_interface__ at every
  launch) when CuPy is there;
* import time added to `import numpy` (fresh interpreters, median of 5);
* first call of seed 001's vector add in a fresh process, compile, module
  load and launch included: with the driver's JIT cache off
  (CUDA_CACHE_DISABLE=1) and with it warm; then the second call.

Needs a GPU.  Numba is optional (its column then says why it is empty).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (NUMBA_PRELUDE, QUICK, cupy, ensure_ptxjit_path, last_line, median, missing,  # noqa: E402
                    numba_cuda, ratio, run_python, table, timeit_us)

BATCH, REPS = (20, 3) if QUICK else (500, 21)
RUNS = 1 if QUICK else 5


def launch_overhead(cuda):
    import numpy as np

    @cuda.jit
    def empty():
        pass

    @cuda.jit
    def add3(a, b, c):
        i = cuda.grid(1)
        if i < c.size:
            c[i] = a[i] + b[i]

    n = 1024
    a = cuda.to_device(np.ones(n, dtype=np.float32))
    b = cuda.to_device(np.ones(n, dtype=np.float32))
    c = cuda.device_array(n, dtype=np.float32)
    for _ in range(10):          # compile, load, warm up
        empty[1, 1]()
        add3[4, 256](a, b, c)
    cuda.synchronize()
    assert (c.copy_to_host() == 2).all()
    t_empty = timeit_us(lambda: empty[1, 1](), BATCH, REPS, cuda.synchronize)
    t_add3 = timeit_us(lambda: add3[4, 256](a, b, c), BATCH, REPS, cuda.synchronize)
    return t_empty, t_add3


def launch_overhead_cupy(cuda, cp):
    """Launch overhead of the three-array kernel given CuPy arrays."""
    @cuda.jit
    def add3(a, b, c):
        i = cuda.grid(1)
        if i < c.size:
            c[i] = a[i] + b[i]

    a = cp.ones(1024, dtype=cp.float32)
    b = cp.ones(1024, dtype=cp.float32)
    c = cp.zeros(1024, dtype=cp.float32)
    for _ in range(10):
        add3[4, 256](a, b, c)
    cuda.synchronize()
    assert bool((c == 2).all())
    return timeit_us(lambda: add3[4, 256](a, b, c), BATCH, REPS, cuda.synchronize)


IMPORT_CODE = """
import time
t0 = time.perf_counter()
import numpy
t1 = time.perf_counter()
%s
t2 = time.perf_counter()
print((t2 - t1) * 1e3)
"""


def import_ms(stmt, prelude="", runs=RUNS):
    code = IMPORT_CODE % stmt
    if prelude:
        code = code.replace("import numpy\n", "import numpy\n" + prelude, 1)
    return median([float(last_line(run_python(code))) for _ in range(runs)])


FIRST_CALL_CODE = """
import time, json
%(prelude)s
import numpy as np
%(imp)s
n = %(n)d
hx = np.arange(n, dtype=np.float32)
x = cuda.to_device(hx)
y = cuda.to_device(hx * 2)
out = cuda.device_array_like(hx)
cuda.synchronize()

@cuda.jit
def add_arrays_cuda(x, y, out):
    idx = cuda.grid(1)
    if idx < out.size:
        out[idx] = x[idx] + y[idx]

blocks = (n + 127) // 128
t0 = time.perf_counter()
add_arrays_cuda[blocks, 128](x, y, out)
cuda.synchronize()
t1 = time.perf_counter()
add_arrays_cuda[blocks, 128](x, y, out)
cuda.synchronize()
t2 = time.perf_counter()
assert (out.copy_to_host() == hx * 3).all()
print(json.dumps([(t1 - t0) * 1e3, (t2 - t1) * 1e6]))
"""


def first_call(imp, prelude="", runs=RUNS):
    """(cold ms, warm ms, second call us), medians over `runs` processes."""
    code = FIRST_CALL_CODE % {"imp": imp, "prelude": prelude, "n": 4096 if QUICK else 1000000}
    cold = [json.loads(last_line(run_python(code, env={"CUDA_CACHE_DISABLE": "1"}))) for _ in range(runs)]
    run_python(code)                     # fills the driver's cache
    warm = [json.loads(last_line(run_python(code))) for _ in range(runs)]
    return median([c[0] for c in cold]), median([w[0] for w in warm]), median([w[1] for w in warm])


def measure():
    """Returns the table's rows: [what, ptxjit, numba, numba/ptxjit, target]."""
    ensure_ptxjit_path()
    from ptxjit import cuda
    p_empty, p_add3 = launch_overhead(cuda)
    nb = numba_cuda()
    n_empty = n_add3 = None
    if nb:
        n_empty, n_add3 = launch_overhead(nb)
    cp = cupy()
    p_cp = n_cp = None
    if cp:
        p_cp = launch_overhead_cupy(cuda, cp)
        if nb:
            n_cp = launch_overhead_cupy(nb, cp)
    p_imp = import_ms("import ptxjit\nfrom ptxjit import cuda")
    n_imp = None
    if nb:
        try:
            n_imp = import_ms("from numba import cuda", prelude=NUMBA_PRELUDE)
        except RuntimeError as e:
            print("numba import:", e, file=sys.stderr)
    p_cold, p_warm, p_second = first_call("from ptxjit import cuda")
    n_cold = n_warm = n_second = None
    if nb:
        try:
            n_cold, n_warm, n_second = first_call("from numba import cuda", NUMBA_PRELUDE)
        except RuntimeError as e:
            print("numba first call:", e, file=sys.stderr)
    return [
        ["launch, empty kernel (us)", p_empty, n_empty, ratio(p_empty, n_empty), "<= 5"],
        ["launch, 3 device arrays (us)", p_add3, n_add3, ratio(p_add3, n_add3), "<= 5"],
        ["launch, 3 CuPy arrays (us)", p_cp, n_cp, ratio(p_cp, n_cp), ""],
        ["import, added to numpy (ms)", p_imp, n_imp, ratio(p_imp, n_imp), "< 50"],
        ["first call, CUDA_CACHE_DISABLE=1 (ms)", p_cold, n_cold, ratio(p_cold, n_cold), "< 30"],
        ["first call, driver cache warm (ms)", p_warm, n_warm, ratio(p_warm, n_warm), "< 5"],
        ["second call incl. sync (us)", p_second, n_second, ratio(p_second, n_second), ""],
    ]


HEADER = ["launch and start-up", "ptxjit", "numba", "numba/ptxjit", "target"]


def main():
    rows = measure()
    print(table("== launch and start-up (medians)", HEADER, rows))
    for k, v in missing().items():
        print("note: %s" % v)
    return rows


if __name__ == "__main__":
    main()
