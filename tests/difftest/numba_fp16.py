"""float16 kernels run by ptxjit and by Numba on the same GPU, side by side.

    python3 tests/difftest/numba_fp16.py [--n N]

Runs the same kernel source under both (Numba's `cuda` and ptxjit's) on
the same random float16 data and prints, per output row, how many
elements differ and by how many float16 steps at most.  Needs a GPU and
numba-cuda.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

SOURCE = '''
@cuda.jit
def k(a, b, c, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[0, i] = x * y + c[i]
        out[1, i] = x / y - c[i]
        out[2, i] = -x * abs(y)
        out[3, i] = cuda.fp16.hfma(x, y, c[i])
        out[4, i] = cuda.fp16.hdiv(x, y)
        out[5, i] = cuda.fp16.hsqrt(abs(x))
        out[6, i] = cuda.fp16.hrcp(y)
        out[7, i] = math.sin(x)
        out[8, i] = math.exp(x / np.float16(4))
        out[9, i] = math.log(abs(x))
        out[10, i] = math.sqrt(abs(x))
        out[11, i] = x * np.int8(3) + y
'''
ROWS = ["x*y+c", "x/y-c", "-x*abs(y)", "hfma", "hdiv", "hsqrt", "hrcp", "sin", "exp", "log", "sqrt",
        "x*int8(3)+y"]


def build(which, tmp):
    """The kernel, from a file that imports `cuda` from `which` (both
    compilers read a kernel's source from its file)."""
    import importlib.util
    path = os.path.join(tmp, "fp16_%s.py" % which)
    with open(path, "w") as f:
        f.write("import math\nimport numpy as np\nfrom %s import cuda\n%s" % (which, SOURCE))
    spec = importlib.util.spec_from_file_location("fp16_" + which, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.k, mod.cuda


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    np.row_stack = getattr(np, "row_stack", np.vstack)
    rng = np.random.default_rng(args.seed)
    a, b, c = ((rng.standard_normal(args.n) * 8).astype(np.float16) for _ in range(3))
    outs = []
    with tempfile.TemporaryDirectory() as tmp:
        for which in ("ptxjit", "numba"):
            k, cuda = build(which, tmp)
            out = np.zeros((len(ROWS), args.n), np.float16)
            d = [cuda.to_device(v) for v in (a, b, c, out)]
            k[(args.n + 255) // 256, 256](*d)
            outs.append(d[3].copy_to_host())
    p, n = outs
    for r, name in enumerate(ROWS):
        both = ~(np.isnan(p[r]) & np.isnan(n[r]))
        diff = both & (p[r].view(np.uint16) != n[r].view(np.uint16))
        steps = np.abs(p[r].view(np.int16).astype(np.int64) - n[r].view(np.int16).astype(np.int64))[diff]
        m = int(steps.max()) if steps.size else 0
        print("%-12s differ %7d of %d, max %d float16 steps" % (name, diff.sum(), args.n, m))
    return 0


if __name__ == "__main__":
    sys.exit(main())
