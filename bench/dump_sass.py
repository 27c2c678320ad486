"""SASS of every suite kernel: ptxjit's, and the CUDA C twin's.

    python3 bench/dump_sass.py [--out DIR] [--arch sm_XY] [--variant N] [--show]
                               [--ptxjitc PATH] [KERNEL...]

For each kernel of suite_kernels.py, ptxjit compiles it the way a launch
does: the launch-time variant for disjoint arrays with extents below 2^31
and a grid of fewer than 2^31 threads per dimension (--variant 7, the
default; flags: 1 small extents, 2 disjoint arrays, 4 small grid; 3 is
the variant without the grid fact, 0 the plain signature).  No GPU is
needed: the signature comes from the case's host arrays and the kernel is
compiled without launching it.  The
PTX becomes machine code through the driver's linker when a GPU is there
(Kernel._cubin(), the same bytes cache=True keeps), and through `ptxas`
for --arch (default sm_90) when not.  The CUDA C of suite_cuda.py goes
through `nvcc -cubin` for the same architecture.  `cuobjdump -sass` (or
`nvdisasm`; /work/tools-bin and the CUDA bin directory are searched after
the PATH) prints both.

With --ptxjitc the PTX comes from that command-line compiler instead of
the Python extension (the signature still comes from the extension's
typing of the host arrays; the variant's flags become --small-extents,
--noalias and --small-grid): a compiler built elsewhere (make BUILD=...) is measured
without rebuilding the extension.

DIR (default ./sass) gets NAME.ptx, NAME.ir, NAME.ptxjit.sass,
NAME.cuda_c.sass and suite.cuda_c.ptx.  The summary gives per kernel the
instruction counts and the size of each innermost loop (the instructions
between a backward branch and its target, where no other backward branch
lies inside), in address order; --show prints those loops' instructions.
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

SEARCH = ["/work/tools-bin", "/usr/local/cuda/bin"]


def tool(name):
    path = shutil.which(name)
    if path:
        return path
    for d in SEARCH + [os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin")]:
        p = os.path.join(d, name)
        if os.access(p, os.X_OK):
            return p
    return None


def disassembler():
    for name, args in (("cuobjdump", ["-sass"]), ("nvdisasm", ["-c"])):
        path = tool(name)
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


def back_edges(ins):
    """(target, branch address) of every backward branch."""
    out = []
    for addr, text in ins:
        m = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", text)
        if m and int(m.group(1), 16) < addr:     # not the `BRA` to itself after EXIT
            out.append((int(m.group(1), 16), addr))
    return out


def inner_loops(ins):
    """[(target, end, instructions)] of the innermost loops, in address order."""
    edges = back_edges(ins)
    out = []
    for t, a in edges:
        if any((t2, a2) != (t, a) and t <= t2 and a2 <= a for t2, a2 in edges):
            continue
        out.append((t, a, [x for x in ins if t <= x[0] <= a]))
    return sorted(out)


def loop_sizes(ins):
    return "/".join(str(len(body)) for _, _, body in inner_loops(ins)) or "-"


def cuda_c(dis, arch, out):
    """{kernel: [(address, instruction)]} of suite_cuda.py's source, or {}."""
    nvcc = tool("nvcc")
    if not (nvcc and dis):
        print("no nvcc: no CUDA C column")
        return {}
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "suite.cu")
        with open(src, "w") as f:
            f.write(suite_cuda.SOURCE)
        cub = os.path.join(d, "suite.cubin")
        r = subprocess.run([nvcc, "-arch=" + arch, "-cubin", src, "-o", cub], capture_output=True, text=True)
        if r.returncode != 0:
            print("nvcc failed: %s" % r.stderr[:300])
            return {}
        subprocess.run([nvcc, "-arch=" + arch, "-ptx", src, "-o", os.path.join(out, "suite.cuda_c.ptx")])
        return functions(sass_text(dis, cub))


def ptxas_cubin(ptx_path, arch, cub):
    ptxas = tool("ptxas")
    if not ptxas:
        raise RuntimeError("no GPU driver and no ptxas: cannot make machine code")
    r = subprocess.run([ptxas, "-arch=" + arch, ptx_path, "-o", cub], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("ptxas failed: %s" % r.stderr.strip()[:300])


def ptxjitc_compile(exe, name, sig, variant, arch, ptx, ir):
    """PTX of kernel `name` of suite_kernels.py by the command-line compiler."""
    cmd = [exe, os.path.join(HERE, "suite_kernels.py"), "--kernel", name, "--sig", sig,
           "--arch", arch, "--dump", "opt", "-o", ptx]
    if variant & 1:
        cmd.append("--small-extents")
    if variant & 2:
        cmd.append("--noalias")
    if variant & 4:
        cmd.append("--small-grid")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("ptxjitc failed: %s" % (r.stderr.strip() or r.stdout.strip())[:300])
    with open(ir, "w") as f:
        f.write(r.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*")
    ap.add_argument("--out", default="sass")
    ap.add_argument("--arch", default=None, help="sm_XY (default: the GPU's, or sm_90)")
    ap.add_argument("--variant", type=int, default=7,
                    help="launch flags: 1 small extents, 2 disjoint arrays, 4 small grid")
    ap.add_argument("--show", action="store_true", help="print the innermost loops")
    ap.add_argument("--ptxjitc", default=None, help="compile with this ptxjitc instead of the extension")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    import ptxjit  # noqa: F401
    from ptxjit import _core
    from ptxjit import cuda
    mod = load_kernels(ptxjit, cuda, "suite_kernels_sass")
    dis = disassembler()
    if dis is None:
        print("no cuobjdump or nvdisasm: writing PTX and cubins only")
    gpu = cuda.is_available() and not cuda.is_simulator()
    arch = args.arch
    if arch is None:
        cc = (9, 0)
        if gpu:
            cc = tuple(_core.device_info().get("compute_capability", cc))
        arch = "sm_%d%d" % cc
    c_sass = cuda_c(dis, arch, args.out)
    print("machine code from %s, %s, ptxjit variant %d" % ("the driver" if gpu else "ptxas", arch, args.variant))
    print("%-14s %11s %11s   %-16s %-16s" % ("kernel", "ptxjit ins", "cuda_c ins", "ptxjit loops", "C loops"))
    shown = []
    for name, make in suite_cases.CASES:
        if args.kernels and name not in args.kernels:
            continue
        try:
            inst = make(np.random.default_rng(1), "small")
            disp = getattr(mod, name)
            argtypes = disp._typeof(tuple(inst.args))
            ptx = os.path.join(args.out, name + ".ptx")
            if args.ptxjitc:
                k = None
                ptxjitc_compile(args.ptxjitc, name, ", ".join(argtypes), args.variant, arch, ptx,
                                os.path.join(args.out, name + ".ir"))
            else:
                k = disp._compile(", ".join(argtypes), argtypes, args.variant)
                with open(ptx, "w") as f:
                    f.write(k.ptx)
                with open(os.path.join(args.out, name + ".ir"), "w") as f:
                    f.write(k.ir)
            cub = os.path.join(args.out, name + ".ptxjit.cubin")
            if gpu and k is not None:
                with open(cub, "wb") as f:
                    f.write(k._cubin())
            else:
                ptxas_cubin(ptx, arch, cub)
            ours = []
            if dis:
                text = sass_text(dis, cub)
                with open(os.path.join(args.out, name + ".ptxjit.sass"), "w") as f:
                    f.write(text)
                ours = next(iter(functions(text).values()), [])
            theirs = c_sass.get(name, [])
            if theirs:
                with open(os.path.join(args.out, name + ".cuda_c.sass"), "w") as f:
                    f.write("\n".join("/*%04x*/ %s;" % x for x in theirs) + "\n")
            print("%-14s %11d %11s   %-16s %-16s" % (name, len(ours), len(theirs) or "-", loop_sizes(ours),
                                                   loop_sizes(theirs) if theirs else "-"))
            shown.append((name, ours, theirs))
        except Exception as e:  # noqa: BLE001
            print("%-14s error: %s" % (name, str(e).splitlines()[0] if str(e) else type(e).__name__))
    if args.show:
        for name, ours, theirs in shown:
            for who, ins in (("ptxjit", ours), ("cuda_c", theirs)):
                for t, a, body in inner_loops(ins):
                    print("\n== %s %s loop %#x..%#x: %d instructions" % (name, who, t, a, len(body)))
                    for addr, text in body:
                        print("  /*%04x*/ %s" % (addr, text))
    print("written to %s" % os.path.abspath(args.out))


if __name__ == "__main__":
    main()
