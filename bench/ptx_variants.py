"""Time variants of one suite kernel's machine code side by side, on the GPU.

    python3 bench/ptx_variants.py [--reps N] [--dir DIR] KERNEL...

For each named kernel of suite_kernels.py this compiles ptxjit's PTX (the
launch variant a launch would pick for the suite's arrays), loads it and
edited copies of it through cupy.RawModule, and times them with the CUDA C
twin, in one process, on the suite's data and with its timing (CUDA events,
warm-up, median of --reps launches).  The copies:

  ptxjit       the PTX as ptxjit writes it;
  no_nc        its `ld.global.nc` loads made plain `ld.global`;
  DIR/KERNEL.NAME.ptx   any hand-edited PTX of the kernel (same parameters);
  DIR/KERNEL.NAME.cu    any CUDA C of the kernel (`extern "C"`, the twin's
                        parameters), compiled by NVRTC;
  cuda_c_jit   suite_cuda.py's kernel through NVRTC to PTX only, then the
               driver's JIT: the path ptxjit's own PTX takes;
  cuda_c       suite_cuda.py's kernel (CuPy's NVRTC build).

So a question about the machine code ("do read-only loads pay here?",
"does this instruction order matter?") is answered by one GPU call, before
the compiler is changed.  Every variant's output is checked against NumPy
before it is timed.  Needs a GPU and CuPy.
"""

import argparse
import glob
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import cupy, cupy_event_ms, ensure_ptxjit_path  # noqa: E402

ensure_ptxjit_path()

import numpy as np  # noqa: E402

import suite_cases  # noqa: E402
import suite_cuda  # noqa: E402
from bench_suite import CImpl, c_launch, load_kernels, to_host  # noqa: E402

PARAM_TYPES = {"u64": np.uint64, "s64": np.int64, "u32": np.uint32, "s32": np.int32, "f64": np.float64,
               "f32": np.float32, "u16": np.uint16, "s16": np.int16, "u8": np.uint8, "s8": np.int8,
               "b64": np.uint64, "b32": np.uint32}


def entry(ptx):
    """(name, [param type]) of the PTX's kernel."""
    m = re.search(r"\.entry\s+(\w+)\s*\(([^)]*)\)", ptx, re.S)
    return m.group(1), re.findall(r"\.param\s+\.(\w+)", m.group(2))


def pack(types, args):
    """ptxjit's parameters for `args`: an array is its pointer and extents
    (C layout; strides follow only for other layouts), a number its value."""
    out, k = [], 0
    for a in args:
        if hasattr(a, "__cuda_array_interface__"):
            if not a.flags.c_contiguous:
                raise ValueError("only C-contiguous arrays")
            out.append(a)
            k += 1
            for n in a.shape:
                out.append(PARAM_TYPES[types[k]](n))
                k += 1
        else:
            out.append(PARAM_TYPES[types[k]](a))
            k += 1
    if k != len(types):
        raise ValueError("%d parameters packed, the PTX has %d" % (k, len(types)))
    return out


def nvrtc_ptx(cp, source):
    """PTX of a CUDA C source from NVRTC for the device's virtual
    architecture (no machine code: the driver compiles it at load)."""
    from cupy_backends.cuda.libs import nvrtc
    major, minor = cp.cuda.Device().compute_capability
    prog = nvrtc.createProgram(source, "suite.cu", [], [])
    try:
        nvrtc.compileProgram(prog, ["--gpu-architecture=compute_%s%s" % (major, minor), "--std=c++14"])
        ptx = nvrtc.getPTX(prog)
        return ptx.decode() if isinstance(ptx, bytes) else ptx
    finally:
        nvrtc.destroyProgram(prog)


def load_ptx(cp, text):
    """A module of PTX text, compiled by the driver as it loads it."""
    path = os.path.join(tempfile.mkdtemp(), "k.ptx")
    with open(path, "w") as f:
        f.write(text)
    return cp.RawModule(path=path)


class Variant:
    def __init__(self, cp, name, kind, text, kernel):
        self.name = name
        self.cp = cp
        if kind == "cu_ptx":
            self.mod = load_ptx(cp, nvrtc_ptx(cp, text))
            self.fname, self.types = kernel, None
        elif kind == "ptx":
            self.mod = load_ptx(cp, text)
            self.fname, self.types = entry(text)
        else:
            self.mod = cp.RawModule(code=text, options=("--std=c++14",))
            self.fname, self.types = re.search(r"__global__\s+void\s+(\w+)", text).group(1), None


def run_kernel(cp, mod, name, make, dirs, reps):
    inst = make(np.random.default_rng(12345), "full")
    disp = getattr(mod, name)
    argtypes = disp._typeof(tuple(inst.args))
    ptx = disp._compile(", ".join(argtypes), argtypes, 7).ptx
    variants = [("ptxjit", "ptx", ptx), ("no_nc", "ptx", ptx.replace("ld.global.nc.", "ld.global."))]
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, name + ".*.ptx")) + glob.glob(os.path.join(d, name + ".*.cu"))):
            with open(path) as f:
                variants.append((os.path.basename(path)[len(name) + 1:], "ptx" if path.endswith(".ptx") else "cu",
                                 f.read()))
    variants.append(("cuda_c_jit", "cu_ptx", suite_cuda.SOURCE))
    cimpl = CImpl(cp)
    rows = []
    for vname, kind, text in variants + [("cuda_c", "c", None)]:
        dargs = [cp.asarray(a) if isinstance(a, np.ndarray) else a for a in inst.args]
        try:
            if kind == "c":
                launch = cimpl.launcher(name, inst, dargs)
            else:
                v = Variant(cp, vname, kind, text, name)
                f = v.mod.get_function(v.fname)
                if kind == "ptx":
                    params = tuple(pack(v.types, dargs))
                    g = inst.grid if isinstance(inst.grid, tuple) else (inst.grid,)
                    b = inst.block if isinstance(inst.block, tuple) else (inst.block,)
                else:
                    g, b, params = c_launch(inst, dargs)
                launch = (lambda f, g, b, p: (lambda: f(g, b, p)))(f, g, b, params)
            for k in inst.outputs:
                dargs[k][...] = 0
            launch()
            cp.cuda.runtime.deviceSynchronize()
            inst.check([to_host(cp, dargs[k]) for k in inst.outputs])
            rows.append((vname, cupy_event_ms(cp, launch, reps)))
        except Exception as e:  # noqa: BLE001 - a failing variant is a row
            rows.append((vname, "error: %s" % (str(e).splitlines()[0] if str(e) else type(e).__name__)))
    c = dict(rows).get("cuda_c")
    for vname, t in rows:
        if isinstance(t, float):
            r = " %.3fx C" % (t / c) if isinstance(c, float) else ""
            print("%-14s %-18s %9.4f ms%s" % (name, vname, t, r))
        else:
            print("%-14s %-18s %s" % (name, vname, t))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="+")
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--dir", action="append", default=[os.path.join(HERE, "variants")],
                    help="where KERNEL.NAME.ptx / .cu variants are (default bench/variants)")
    args = ap.parse_args()
    cp = cupy()
    if cp is None:
        sys.exit("ptx_variants.py needs CuPy and a GPU")
    import ptxjit
    from ptxjit import cuda
    mod = load_kernels(ptxjit, cuda, "suite_kernels_variants")
    names = dict(suite_cases.CASES)
    for name in args.kernels:
        run_kernel(cp, mod, name, names[name], args.dir, args.reps)


if __name__ == "__main__":
    main()
