"""Throughput of each math function: ptxjit against CUDA C, on the GPU.

    python3 bench/bench_mathfn.py [--reps N] [FUNCTION...]

For each function and precision a kernel applies it 32 times per thread
to 2^22 arguments (`acc += f(v + k * step)`), so that the function's own
instructions, not memory, set the time.  ptxjit compiles the Python
kernel, NVRTC (through CuPy) the same loop in CUDA C with CUDA's math
library (default options, no fast math).  The table gives the median
kernel time of each (CUDA events, warm-up, --reps launches) and the ratio.
Arguments lie where the functions are usually used (exp: [-10, 10], log:
(0, 100], sin/cos: [-10, 10], erf: [-4, 4], ...), so the fast paths are
what is measured.  The integer rows divide 64-bit integers by the
kernel's argument `step` (a divisor in a register) or by a constant.
"""

import argparse
import importlib.util
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import cupy, cupy_event_ms, ensure_ptxjit_path  # noqa: E402

ensure_ptxjit_path()

import numpy as np  # noqa: E402

N = 1 << 22
ITERS = 32

# name: (python expression of v, C expression of v, low, high)
FUNCS = {
    "exp": ("math.exp(v)", "exp(v)", -10.0, 10.0),
    "log": ("math.log(v)", "log(v)", 0.01, 100.0),
    "sin": ("math.sin(v)", "sin(v)", -10.0, 10.0),
    "cos": ("math.cos(v)", "cos(v)", -10.0, 10.0),
    "tan": ("math.tan(v)", "tan(v)", -1.5, 1.5),
    "sqrt": ("math.sqrt(v)", "sqrt(v)", 0.0, 100.0),
    "erf": ("math.erf(v)", "erf(v)", -4.0, 4.0),
    "tanh": ("math.tanh(v)", "tanh(v)", -5.0, 5.0),
    "atan": ("math.atan(v)", "atan(v)", -10.0, 10.0),
    "pow": ("math.pow(v, ONE_AND_HALF)", "pow(v, (T)1.5)", 0.01, 10.0),
    "div": ("ONE / v", "(T)1 / v", 0.5, 10.0),
}
# 64-bit integers (ptxjit writes the division out; CUDA C calls a routine)
INT_FUNCS = {
    "idiv": ("v // step", "v / step", 0, 1 << 40),
    "irem": ("v % step", "v % step", 0, 1 << 40),
    "idivc": ("v // 1000003", "v / 1000003", 0, 1 << 40),
    "iremc": ("v % 1000003", "v % 1000003", 0, 1 << 40),
}
FLOAT_PRECS = {"f32": ("float32", "float", "f"), "f64": ("float64", "double", "")}
INT_PRECS = {"i64": ("int64", "long long", ""), "u64": ("uint64", "unsigned long long", "")}
FUNCS.update(INT_FUNCS)


def precs(name):
    return INT_PRECS if name in INT_FUNCS else FLOAT_PRECS


def py_source(names):
    lines = ["import math", "import numpy as np", "from ptxjit import cuda", ""]
    for name in names:
        expr = FUNCS[name][0]
        for p, (dt, _, _) in precs(name).items():
            e = expr.replace("ONE_AND_HALF", "np.%s(1.5)" % dt).replace("ONE", "np.%s(1)" % dt)
            e = e.replace("1000003", "np.%s(1000003)" % dt)   # uint64 % int64 would be float64
            lines += ["@cuda.jit",
                      "def %s_%s(x, out, step):" % (name, p),
                      "    i = cuda.grid(1)",
                      "    if i < x.size:",
                      "        acc = np.%s(0)" % dt,
                      "        for k in range(%d):" % ITERS,
                      "            v = x[i] + step * np.%s(k)" % dt,
                      "            acc += %s" % e,
                      "        out[i] = acc", ""]
    return "\n".join(lines)


def c_source(names):
    out = ['extern "C" {']
    for name in names:
        for p, (_, ct, _) in precs(name).items():
            out.append("__global__ void %s_%s(const %s *x, %s *out, %s step, int n)\n{\n"
                       "    typedef %s T;\n"
                       "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "    if (i < n) {\n        T acc = 0;\n"
                       "        for (int k = 0; k < %d; k++) {\n"
                       "            T v = x[i] + step * (T)k;\n            acc += %s;\n        }\n"
                       "        out[i] = acc;\n    }\n}" % (name, p, ct, ct, ct, ct, ITERS, FUNCS[name][1]))
    out.append("}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("funcs", nargs="*")
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    names = args.funcs or list(FUNCS)
    cp = cupy()
    if cp is None:
        sys.exit("bench_mathfn.py needs CuPy and a GPU")
    d = tempfile.mkdtemp()
    path = os.path.join(d, "mathfn_kernels.py")
    with open(path, "w") as f:
        f.write(py_source(names))
    spec = importlib.util.spec_from_file_location("mathfn_kernels", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    cmod = cp.RawModule(code=c_source(names), options=("--std=c++14",))
    rng = np.random.default_rng(7)
    print("%-6s %-4s %10s %10s %8s" % ("func", "prec", "ptxjit ms", "cuda_c ms", "ratio"))
    ratios = []
    for name in names:
        lo, hi = FUNCS[name][2:]
        for p, (dt, _, _) in precs(name).items():
            step = getattr(np, dt)((hi - lo) / (8 * ITERS))
            if p in INT_PRECS:
                step = getattr(np, dt)(rng.integers(1 << 20, 1 << 30))
                x = cp.asarray(rng.integers(lo, hi, N).astype(dt))
            else:
                x = cp.asarray(rng.uniform(lo, hi - (hi - lo) / 8, N).astype(dt))
            o1 = cp.zeros(N, dt)
            o2 = cp.zeros(N, dt)
            k = getattr(mod, "%s_%s" % (name, p))[(N + 255) // 256, 256]
            cf = cmod.get_function("%s_%s" % (name, p))
            t1 = cupy_event_ms(cp, lambda: k(x, o1, step), args.reps)
            t2 = cupy_event_ms(cp, lambda: cf(((N + 255) // 256,), (256,), (x, o2, step, np.int32(N))), args.reps)
            a, b = cp.asnumpy(o1), cp.asnumpy(o2)
            rel = float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-30)))
            ratios.append(t1 / t2)
            print("%-6s %-4s %10.4f %10.4f %7.3fx   (results differ by %.1e relative)" % (name, p, t1, t2, t1 / t2, rel))
    g = float(np.exp(np.mean(np.log(ratios))))
    print("geometric mean ptxjit/C: %.3fx" % g)


if __name__ == "__main__":
    main()
