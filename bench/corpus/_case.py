"""What a corpus kernel file declares: its cases, each a kernel with its data.

A corpus file is written as a Numba user writes one (`from numba import
cuda`, `@cuda.jit`, `kernel[blocks, threads](...)`); _load.py imports it
with `numba` bound to ptxjit or to Numba.  Beside its kernels a file lists
CASES, each a Case:

  make(small, rng)  the host data: a dict of NumPy arrays (inputs and the
                    zeroed outputs) and Python scalars; small is True for
                    smoke runs and tests (a few blocks), False for sizes
                    that fill an H100;
  launch(d)         launches the kernel(s) on d, the same dict with each
                    array on the device (a function of the module, so it
                    calls that module's kernels);
  ref(h)            the NumPy answer: a dict output name -> array;
  outs              the outputs that are compared;
  tol               (rtol, atol), or None for exact equality;
  reduce            optional (fn, tol): fn(output) is what is compared with
                    ref (a statistic of noisy outputs, with its own tol);
                    the implementations are still compared output to
                    output with tol;
  mismatch          the fraction of elements allowed outside tol (escape
                    counts of chaotic orbits, where one rounding of an
                    fma changes the answer);
  float_atomics     True where blocks add floats atomically into one place:
                    on a GPU their order, and so the last bits, vary from
                    run to run;
  prepare(d)        optional: adds device-side state (random states) to d;
  c                 optional CUDA C twin: (kernel name in the file's .cu,
                    launcher(kernel, d)) where kernel(grid, block, args) is
                    a cupy.RawKernel and d holds CuPy arrays.
"""


class Case:
    def __init__(self, name, make, launch, ref, outs, tol=(1e-5, 1e-6), prepare=None, c=None,
                 reduce=None, mismatch=0.0,
                 float_atomics=False):
        self.name, self.make, self.launch, self.ref = name, make, launch, ref
        self.outs, self.tol, self.prepare, self.c = tuple(outs), tol, prepare, c
        self.reduce, self.mismatch, self.float_atomics = reduce, mismatch, float_atomics


def blocks(n, tpb):
    return (n + tpb - 1) // tpb
