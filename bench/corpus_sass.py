"""Machine code of corpus kernels: ptxjit's against Numba's, without a GPU.

    python3 bench/corpus_sass.py [--out DIR] [--arch sm_90] [--show] [CASE...]

For each named corpus case (bench/corpus/, default: all of KERNELS below)
the kernel is compiled by ptxjit the way a launch does (variant 7:
disjoint arrays, extents and grid below 2^31) and by Numba
(numba.cuda.compile_ptx, which needs CUDA_HOME with NVVM), both PTX go
through ptxas, and the summary gives per compiler the instruction count,
the size of each innermost loop and the global loads (LDG) inside it.
DIR (default ./sass_corpus) gets CASE.ptxjit.ptx/.sass and
CASE.numba.ptx/.sass; --show prints the loops.
"""

import argparse
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import ensure_ptxjit_path  # noqa: E402

ensure_ptxjit_path()
from dump_sass import disassembler, functions, inner_loops, sass_text, tool  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "corpus"))
import _load  # noqa: E402

# case: (corpus file, kernel, the argument names of its launch, in order)
KERNELS = {
    "sum_gridstride_shared_atomic": ("reductions", "sum_gridstride_shared", ["a", "out"]),
    "sum_warp_shuffle": ("reductions", "sum_warp_shuffle", ["a", "out"]),
    "max_atomic_int32": ("reductions", "max_atomic", ["a", "out"]),
    "hist_shared_u8": ("histograms", "hist_shared", ["data", "hist"]),
    "parse_digits_newlines": ("integers", "count_digits_newlines", ["buf", "counts"]),
    "hash64_xorshift_mul": ("integers", "hash64", ["keys", "out"]),
    "popc_clz_ffs": ("integers", "popcount_bits", ["words", "out"]),
    "mc_pi_xoroshiro": ("montecarlo", "mc_pi", ["states", "iterations", "out"]),
    "complex64_map": ("complexes", "complex_map", ["z", "w", "out"]),
    "mandelbrot_complex128": ("complexes", "mandelbrot", ["xmin", "xmax", "ymin", "ymax", "img"]),
    "bitonic_block_shared": ("sorting", "bitonic_block", ["a"]),
    "scan_blelloch": ("scans", "scan_blelloch", ["a", "out"]),
}


def host_args(stem, case_name, names):
    import ptxjit
    mod = _load.load(os.path.join(HERE, "corpus", stem + ".py"), ptxjit, "sass")
    case = next(c for c in mod.CASES if c.name == case_name)
    d = case.make(True, np.random.default_rng(1))
    if "states" in names:
        from ptxjit.cuda.random import xoroshiro128p_dtype
        d["states"] = np.zeros(d["out"].size, xoroshiro128p_dtype)
    return mod, [d[n] for n in names]


def ptxjit_ptx(mod, kernel, args):
    disp = getattr(mod, kernel)
    argtypes = disp._typeof(tuple(args))
    return disp._compile(", ".join(argtypes), argtypes, 7).ptx


class _Device:
    """What Numba's device-function compile asks of the current device."""

    def __init__(self, cc):
        self.compute_capability = cc


def numba_ptx(stem, kernel, args, cc=(9, 0)):
    import numba
    import numba.cuda  # noqa: F401
    from numba.cuda import dispatcher
    dispatcher.get_current_device = lambda: _Device(cc)   # no GPU: device functions ask it
    nmod = _load.load(os.path.join(HERE, "corpus", stem + ".py"), numba, "sass_nb")
    fn = getattr(nmod, kernel).py_func
    sig = tuple(numba.typeof(a) for a in args)
    ptx, _ = numba.cuda.compile_ptx(fn, sig, cc=cc)
    return ptx


def sass(ptx, path, arch, dis):
    with open(path + ".ptx", "w") as f:
        f.write(ptx)
    subprocess.run([tool("ptxas"), "-arch=" + arch, path + ".ptx", "-o", path + ".cubin"], check=True)
    text = sass_text(dis, path + ".cubin")
    with open(path + ".sass", "w") as f:
        f.write(text)
    return next(iter(functions(text).values()), [])


def summary(ins):
    loops = inner_loops(ins)
    sizes = "/".join(str(len(b)) for _, _, b in loops) or "-"
    ldg = "/".join(str(sum(1 for _, t in b if "LDG" in t or "LD." in t)) for _, _, b in loops) or "-"
    return len(ins), sizes, ldg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="sass_corpus")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    dis = disassembler()
    print("%-30s %-8s %6s %-14s %-10s" % ("case", "compiler", "ins", "inner loops", "loads"))
    for name in a.cases or KERNELS:
        stem, kernel, names = KERNELS[name]
        mod, args = host_args(stem, name, names)
        got = {}
        for who, make in (("ptxjit", lambda: ptxjit_ptx(mod, kernel, args)),
                          ("numba", lambda: numba_ptx(stem, kernel, args))):
            try:
                ins = sass(make(), os.path.join(a.out, "%s.%s" % (name, who)), a.arch, dis)
            except Exception as e:  # noqa: BLE001
                print("%-30s %-8s error: %s" % (name, who, (str(e).splitlines() or [type(e).__name__])[0]))
                continue
            got[who] = ins
            print("%-30s %-8s %6d %-14s %-10s" % ((name, who) + summary(ins)))
        if a.show:
            for who, ins in got.items():
                for t, e, body in inner_loops(ins):
                    print("\n== %s %s loop %#x..%#x: %d instructions" % (name, who, t, e, len(body)))
                    for addr, text in body:
                        print("  /*%04x*/ %s" % (addr, text))


if __name__ == "__main__":
    main()
