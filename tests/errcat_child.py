"""Messages of the runtime and the simulator that need a process of their
own, for tests/test_error_catalogue.py: `python -c "import errcat_child;
errcat_child.main()"` runs each case below and prints one line,
RESULT {case: [exception class, message] or None}.

  - the simulator's shared-memory guard (src/sim/launch.c), which stops
    an access past the block's shared memory in IR without bounds checks
    (tests/c/test_sim.c); the front end checks every index first, so from
    Python only PTXJIT_SIM_FAULT (src/sim/prepare.c), which moves one
    access's address as a miscompiled one would, gets there;
  - @njit's interpreter (PTXJIT_CC=none) stopped by its memory guard
    and by its endless-loop limit;
  - the process-wide limit on record dtypes (which would spoil the
    records of every later test in the parent);
  - @njit's cache holding a damaged shared object (dlopen keeps what one
    process loaded, so the good copy must not be loaded here first).

Run with PTXJIT_SIM=1; the kernels are here so that messages name
errcat_child.py.
"""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from ptxjit import cuda, njit


@cuda.jit
def k_dyn(a):
    s = cuda.shared.array(0, dtype=np.float32)
    s[cuda.threadIdx.x] = 1.0
    a[cuda.threadIdx.x] = s[cuda.threadIdx.x]


@cuda.jit
def k_static(a):
    s = cuda.shared.array(32, dtype=np.float32)
    s[cuda.threadIdx.x] = 1.0
    a[cuda.threadIdx.x] = s[cuda.threadIdx.x]


@cuda.jit
def k_rec(a, v):
    a[0] = v


def n_squares(n):
    r = np.empty(n, np.float64)
    for i in range(n):
        r[i] = i * i
    return r


def n_spin(x):
    while x > 0.0:
        x += 1.0
    return x


def n_add(x, y):
    return x + y


def _caught(fn):
    try:
        fn()
        cuda.synchronize()
    except Exception as e:          # noqa: BLE001 - the point is the message
        return [type(e).__name__, str(e)]
    return None


def _with_env(env, fn):
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return _caught(fn)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _many_records():
    for n in range(200):
        dt = np.dtype([("f%d" % n, np.int32)])
        try:
            k_rec[1, 1](np.zeros(1, dt), "not a number")   # classifies argument 1, then refuses argument 2
        except TypeError as e:
            if "argument 2" not in str(e):
                raise


def _broken_compiler(junk):
    """A fresh @njit of n_add built by a C compiler whose shared object does
    not load: `junk` (a function of the output path) makes its bytes.  A
    damaged file in the cache is rebuilt by itself (_cachefile.py); these
    messages are for an object the compiler itself made wrong."""
    work = tempfile.mkdtemp(prefix="errcat_cc_")
    try:
        cc = os.path.join(work, "cc")
        with open(cc, "w") as f:
            f.write("#!%s\nimport sys\nsys.path.insert(0, %r)\nimport errcat_child\n"
                    "errcat_child._fake_cc(sys.argv[1:], errcat_child.%s)\n"
                    % (sys.executable, os.path.dirname(os.path.abspath(__file__)), junk.__name__))
        os.chmod(cc, 0o755)
        return _with_env({"PTXJIT_CC": cc}, lambda: njit(n_add)(1, 2))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _fake_cc(args, junk):
    if "--version" in args:
        print("errcat-cc 1.0")
        return
    junk(args[args.index("-o") + 1])


def _not_elf(path):
    with open(path, "wb") as f:
        f.write(b"not a shared object\n")


def _no_symbol(path):
    src = path[:-3] + "_empty.c"
    with open(src, "w") as f:
        f.write("int errcat_nothing_here;\n")
    cc = shutil.which(os.environ.get("CC") or "cc") or "cc"
    subprocess.run([cc, "-shared", "-fPIC", "-o", path, src], check=True)


def _cc():
    return shutil.which(os.environ.get("CC") or "cc") is not None


CASES = {
    # the shared-memory guard: a store moved 1 MiB past the block's shared memory
    "sim_guard_dynamic_shared": lambda: _with_env(
        {"PTXJIT_SIM_FAULT": "store0:1048576"}, lambda: k_dyn[1, 32, 0, 128](np.zeros(32, np.float32))),
    "sim_guard_shared": lambda: _with_env(
        {"PTXJIT_SIM_FAULT": "store0:1048576"}, lambda: k_static[1, 32](np.zeros(32, np.float32))),
    # @njit on the interpreter: its memory guard
    "njit_interpreter_guard": lambda: _with_env(
        {"PTXJIT_SIM_FAULT": "store0:1000000", "PTXJIT_CC": "none"}, lambda: njit(n_squares)(40)),
    # @njit on the interpreter: its endless-loop limit
    "njit_interpreter_endless": lambda: _with_env(
        {"PTXJIT_SIM_LOOP_LIMIT": "100000", "PTXJIT_CC": "none"}, lambda: njit(n_spin)(1.0)),
    "record_dtype_limit": lambda: _caught(_many_records),
    "njit_cc_not_elf": lambda: _broken_compiler(_not_elf),
    "njit_cc_no_symbol": lambda: _broken_compiler(_no_symbol) if _cc() else "no cc",
}


def main():
    import warnings
    warnings.simplefilter("ignore")
    res = {name: fn() for name, fn in CASES.items()}
    sys.stdout.write("RESULT " + json.dumps(res) + "\n")
