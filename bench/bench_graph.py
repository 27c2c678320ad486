"""CUDA graphs: a time-stepping loop of 100 small kernels, launched one by
one and replayed as one captured graph, against Numba's launches.

    python3 bench/bench_graph.py            # on the GPU machine
    PTXJIT_BENCH_QUICK=1 python3 bench/bench_graph.py

Each step is `axpy[16, 256](a_k, x, y)` on 4096 float32 elements (a
kernel of about a microsecond on the GPU), k = 0..99, so the loop is 100
launches.  Rows, in microseconds per kernel, host wall time of the whole
loop and the synchronize that closes it, median of REPS batches of BATCH
loops:

* ptxjit, 100 plain launches (`kernel[grid, block](...)`, the launch path
  in C down to cuLaunchKernel);
* ptxjit, the same 100 launches captured once in `with cuda.graph() as g:`
  and replayed by g.launch() (one cuGraphLaunch for the loop);
* Numba, 100 plain launches (numba-cuda has no graph API);
* the one-time costs of the graph: capture and instantiate, and capture
  again with new scalars (cuGraphExecUpdate), in ms;
* the results of the three ways are checked against NumPy first.

Target: the replayed graph at most 1 us per kernel.
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import QUICK, ensure_ptxjit_path, median, missing, numba_cuda, ratio, table  # noqa: E402

os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")   # the grid of 16 blocks is meant

N = 4096
STEPS = 100
BATCH, REPS = (2, 3) if QUICK else (20, 15)

AXPY_SRC = '''
def axpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]
'''


def make_kernel(cuda):
    """The axpy kernel of `cuda` (ptxjit's or Numba's), from a file so that
    both compile it from source."""
    import importlib.util
    import tempfile
    d = tempfile.mkdtemp(prefix="bench-graph-")
    path = os.path.join(d, "axpy_%s.py" % cuda.__name__.split(".")[0])
    with open(path, "w") as f:
        f.write("from %s import cuda\n\n@cuda.jit\n%s" % (cuda.__name__.rsplit(".", 1)[0], AXPY_SRC.lstrip()))
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.axpy


def coefs():
    return [np.float32(1.0 / (k + 1)) for k in range(STEPS)]


def reference(x, y, a):
    for ak in a:
        y = ak * x + y
    return y


def per_kernel_us(fn, sync, loops_per_batch=BATCH, reps=REPS):
    """Median wall time of one kernel: `fn` runs the whole loop once."""
    fn()
    sync()
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(loops_per_batch):
            fn()
        sync()
        out.append((time.perf_counter() - t0) / (loops_per_batch * STEPS) * 1e6)
    return median(out)


def plain_loop(kernel, x, y, a):
    def run():
        for ak in a:
            kernel[16, 256](ak, x, y)
    return run


def check(name, got, x, y, a, loops):
    want = y
    for _ in range(loops):
        want = reference(x, want, a)
    err = np.max(np.abs(got - want) / (1 + np.abs(want)))
    if err > 1e-4:
        raise SystemExit("%s: wrong result (max relative error %.3g)" % (name, err))


def measure_ptxjit():
    ensure_ptxjit_path()
    from ptxjit import cuda
    axpy = make_kernel(cuda)
    rng = np.random.default_rng(1)
    x = rng.standard_normal(N).astype(np.float32)
    y = rng.standard_normal(N).astype(np.float32)
    a = coefs()
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    run = plain_loop(axpy, dx, dy, a)
    run()
    cuda.synchronize()
    check("ptxjit plain", dy.copy_to_host(), x, y, a, 1)
    plain = per_kernel_us(run, cuda.synchronize)

    dy.copy_to_device(y)
    t0 = time.perf_counter()
    g = cuda.graph()
    with g.capture():
        run()
    capture_ms = (time.perf_counter() - t0) * 1e3
    g.launch()
    cuda.synchronize()
    check("ptxjit graph", dy.copy_to_host(), x, y, a, 1)
    graph = per_kernel_us(g.launch, cuda.synchronize)

    a2 = [np.float32(-ak) for ak in a]
    t0 = time.perf_counter()
    with g.capture():
        plain_loop(axpy, dx, dy, a2)()
    update_ms = (time.perf_counter() - t0) * 1e3
    dy.copy_to_device(y)
    g.launch()
    cuda.synchronize()
    check("ptxjit graph after update", dy.copy_to_host(), x, y, a2, 1)
    return plain, graph, capture_ms, update_ms, g.nodes


def measure_numba():
    nb = numba_cuda()
    if nb is None:
        return None
    axpy = make_kernel(nb)
    rng = np.random.default_rng(1)
    x = rng.standard_normal(N).astype(np.float32)
    y = rng.standard_normal(N).astype(np.float32)
    a = coefs()
    dx, dy = nb.to_device(x), nb.to_device(y)
    run = plain_loop(axpy, dx, dy, a)
    run()
    nb.synchronize()
    check("numba plain", dy.copy_to_host(), x, y, a, 1)
    return per_kernel_us(run, nb.synchronize)


def main():
    plain, graph, capture_ms, update_ms, nodes = measure_ptxjit()
    numba = measure_numba()
    rows = [
        ["ptxjit, 100 plain launches (us/kernel)", plain, ratio(plain, numba), ""],
        ["ptxjit, replayed graph of %d kernels (us/kernel)" % nodes, graph, ratio(graph, numba), "<= 1"],
        ["Numba, 100 plain launches (us/kernel)", numba, "1.00x" if numba else "-", ""],
        ["graph: capture + instantiate, once (ms)", capture_ms, "-", ""],
        ["graph: capture again, new scalars (update) (ms)", update_ms, "-", ""],
    ]
    print(table("CUDA graphs: %d small kernels (axpy, %d float32) per loop, wall time incl. synchronize"
                % (STEPS, N), ["what", "value", "Numba / this", "target"], rows))
    print("graph replay vs plain ptxjit launches: %s faster" % ratio(graph, plain))
    for k, why in missing().items():
        print("(%s: %s)" % (k, why))


if __name__ == "__main__":
    main()
