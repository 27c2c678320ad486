"""SASS of every suite kernel: ptxjit's, and the CUDA C twin's.

    python3 bench/dump_sass.py [--out DIR] [KERNEL...]

For each kernel of suite_kernels.py, ptxjit compiles it the way a launch
does (the launch-time variant for disjoint arrays with extents below 2^31:
a small launch on the GPU picks it), the driver's linker turns its PTX into
the cubin the GPU runs (Kernel._cubin(), the same bytes cache=True keeps),
and `cuobjdump -sass` (or `nvdisasm`) prints it.  With nvcc on the PATH the
CUDA C of suite_cuda.py is compiled for the same architecture and dumped
beside it.  DIR (default ./sass) gets NAME.ptx, NAME.ptxjit.sass,
NAME.cuda_c.sass and NAME.cuda_c.ptx; the summary gives the instruction
counts, and for each kernel the instructions inside its innermost loop
(the lines between a backward branch and its target).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import ensure_ptxjit_path  # noqa: E402

ensure_ptxjit_path()

import numpy as np  # noqa: E402

import suite_cases  # noqa: E402
import suite_cuda  # noqa: E402
from bench_suite import load_kernels  # noqa: E402


def disassembler():
    for tool, args in (("cuobjdump", ["-sass"]), ("nvdisasm", ["-c"])):
        path = shutil.which(tool)
        if path:
            return [path] + args
    return None


def sass_text(dis, cubin_path):
    r = subprocess.run(dis + [cubin_path], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else "disassembler failed: %s" % r.stderr


INS = re.compile(r"/\*([0-9a-f]{4,})\*/\s+([^;]*);")


def functions(text):
    """{name: [(address, instruction)]} of a disassembly."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"Function : (\w+)", line) or re.match(r"\s*\.text\.(\w+):", line)
        if m:
            cur = m.group(1)
            out[cur] = []
            continue
        m = INS.search(line)
        if m and cur:
            ins = m.group(2).strip()
            if not ins.startswith("NOP"):
                out[cur].append((int(m.group(1), 16), ins))
    return out


def loop_size(ins):
    """Instructions of the smallest backward branch's loop, or 0."""
    best = 0
    for addr, text in ins:
        m = re.search(r"BRA.*?(0x[0-9a-f]+|\.L_x_\d+)", text)
        if not m:
            continue
        tgt = m.group(1)
        if tgt.startswith("0x"):
            t = int(tgt, 16)
            if t < addr:
                n = sum(1 for a, _ in ins if t <= a <= addr)
                best = n if not best else min(best, n)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*")
    ap.add_argument("--out", default="sass")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    import ptxjit
    from ptxjit import _core
    from ptxjit import cuda
    mod = load_kernels(ptxjit, cuda, "suite_kernels_sass")
    dis = disassembler()
    if dis is None:
        print("no cuobjdump or nvdisasm on the PATH: writing PTX and cubins only")
    info = _core.device_info()
    cc = "%d%d" % tuple(info.get("compute_capability", (9, 0)))
    c_sass = {}
    nvcc = shutil.which("nvcc")
    if nvcc and dis:
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "suite.cu")
            with open(src, "w") as f:
                f.write(suite_cuda.SOURCE)
            cub = os.path.join(d, "suite.cubin")
            r = subprocess.run([nvcc, "-arch=sm_%s" % cc, "-cubin", src, "-o", cub], capture_output=True, text=True)
            if r.returncode == 0:
                c_sass = functions(sass_text(dis, cub))
                subprocess.run([nvcc, "-arch=sm_%s" % cc, "-ptx", src, "-o",
                                os.path.join(args.out, "suite.cuda_c.ptx")])
            else:
                print("nvcc failed: %s" % r.stderr[:300])
    print("%-14s %12s %12s %10s %10s" % ("kernel", "ptxjit ins", "cuda_c ins", "ptxjit loop", "C loop"))
    for name, make in suite_cases.CASES:
        if args.kernels and name not in args.kernels:
            continue
        try:
            inst = make(np.random.default_rng(1), "small")
            a = [x.copy() if isinstance(x, np.ndarray) else x for x in inst.args]
            disp = getattr(mod, name)
            disp[inst.grid, inst.block](*a)
            (k,) = [kv for kv in disp._variants.values()]
            with open(os.path.join(args.out, name + ".ptx"), "w") as f:
                f.write(k.ptx)
            with open(os.path.join(args.out, name + ".ir"), "w") as f:
                f.write(k.ir)
            if cuda.is_simulator():
                print("%-14s (simulator: PTX and IR written, no machine code)" % name)
                continue
            cub = os.path.join(args.out, name + ".ptxjit.cubin")
            with open(cub, "wb") as f:
                f.write(k._cubin())
            ours = []
            if dis:
                text = sass_text(dis, cub)
                with open(os.path.join(args.out, name + ".ptxjit.sass"), "w") as f:
                    f.write(text)
                ours = next(iter(functions(text).values()), [])
            theirs = c_sass.get(name, [])
            if theirs:
                with open(os.path.join(args.out, name + ".cuda_c.sass"), "w") as f:
                    f.write("\n".join(t for _, t in theirs) + "\n")
            print("%-14s %12d %12s %10d %10s" % (name, len(ours), len(theirs) or "-", loop_size(ours),
                                                 loop_size(theirs) if theirs else "-"))
        except Exception as e:  # noqa: BLE001
            print("%-14s error: %s" % (name, str(e).splitlines()[0] if str(e) else type(e).__name__))
    print("written to %s" % os.path.abspath(args.out))


if __name__ == "__main__":
    main()
