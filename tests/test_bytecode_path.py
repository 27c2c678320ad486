"""Functions without source text are compiled from their code object.

ptxjit/decompile.py writes the text of a function made by exec(), eval(),
compile(), types.FunctionType or `python -c` from its bytecode, at the
user's lines and columns, and the one front end reads it.  The proof:

  * every golden kernel compiles from its file and from the code of the same
    text run by exec() under a file name linecache cannot read, and the
    optimised IR of the two is compared (file names aside): the share that
    is identical must not fall (`python3 tests/test_bytecode_path.py`
    prints it, with the compile time of both paths);
  * kernels made each way run on the simulator (or the GPU) against NumPy,
    with closures, default arguments, globals and device functions;
  * what the rebuilding cannot read is refused naming the function, its
    file and line; errors in rebuilt functions name the line and column
    and say the text is unavailable.
"""

import contextlib
import glob
import os
import re
import subprocess
import sys
import time
import types

import numpy as np
import pytest

from conftest import KERNELS, ON_GPU, numba_is_ptxjit
from ptxjit import cuda, errors
from ptxjit.decompile import DecompileError, rebuild
from ptxjit.source import REBUILT, source_of


def _entries(path):
    kernel, out = None, []
    for line in open(path):
        m = re.match(r"#\s*(kernel|sig):\s*(.*?)\s*$", line)
        if not m:
            continue
        if m.group(1) == "kernel":
            kernel = m.group(2)
        else:
            out.append((kernel, m.group(2)))
    return out


def _load(text, filename):
    with numba_is_ptxjit():
        ns = {"__name__": "golden_" + os.path.basename(filename).split(".")[0]}
        exec(compile(text, filename, "exec"), ns)
        return ns


def _ir(disp, sig):
    disp.compile(sig)
    irs = disp.inspect_ir()
    return list(irs.values())[-1]


def _pythons():
    found = {tuple(sys.version_info[:2]): sys.executable}
    for exe in sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python"))):
        r = subprocess.run([exe, "-c", "import sys; print(sys.version_info[0], sys.version_info[1])"],
                           capture_output=True, text=True)
        if r.returncode == 0:
            v = tuple(int(x) for x in r.stdout.split())
            if v >= (3, 9):
                found.setdefault(v, exe)
    return sorted(found.items())


PYTHONS = _pythons()
PY_IDS = ["%d.%d" % v for v, _ in PYTHONS]


def _texts_of(version, exe, tmp, files=()):
    """{(file, first line, name): (text, first line, refusal)} of the
    functions of the golden kernels and of the test files `files` rebuilt
    by Python `exe`; None for this Python (rebuild does it here)."""
    import json
    if version == tuple(sys.version_info[:2]):
        return None
    out = str(tmp / "texts.json")
    r = subprocess.run([exe, os.path.join(os.path.dirname(__file__), "bytecode_ast.py"), "--texts", out] + list(files),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return {(f, line, name): (text, first, err) for f, line, name, text, first, err in json.load(open(out))}


@contextlib.contextmanager
def _rebuilt_as(texts):
    """The text that another Python's bytecode gives, for the functions
    of `texts` made by exec() under FILE.exec, with their defaults."""
    import ptxjit.decompile as dc
    real = dc.rebuild
    used = []

    def rebuild(func):
        code = func.__code__
        got = texts.get((os.path.basename(code.co_filename)[:-5], code.co_firstlineno, code.co_name))
        if got is None:
            return real(func)
        used.append(code.co_name)
        text, first, err = got
        if err:
            raise DecompileError(err)
        bare = dc._params(code, [], {})
        head = ("lambda %s:" if code.co_name == "<lambda>" else "def %s(%%s):" % func.__name__)
        assert text.startswith(head % bare), (text, head % bare)
        return head % dc.signature(func) + text[len(head % bare):], first

    if texts is None:
        yield
        return
    dc.rebuild = rebuild
    try:
        yield
    finally:
        dc.rebuild = real
    assert used, "no function was compiled from the texts"


_COLUMN = re.compile(r'^(loc \d+ ".*" \d+) \d+$', re.M)


def compare_golden(columns=True):
    """{(file, kernel, sig): 'same' | 'differs' | 'refused: ...'} and the
    compile times in seconds of each kernel compiled both ways (source,
    bytecode: two lists); columns=False: the IR's locations compared by
    line only."""
    got, t_src, t_bc = {}, [], []
    for path in sorted(glob.glob(os.path.join(KERNELS, "*.py"))):
        entries = _entries(path)
        if not entries:
            continue
        text = open(path).read()
        fake = path + ".exec"        # no file: linecache finds no text
        try:
            by_src = _load(text, path)
            by_code = _load(text, fake)
        except Exception:
            continue
        for kernel, sig in entries:
            name = kernel or next(k for k, v in by_src.items() if hasattr(v, "inspect_ir") and
                                  getattr(v, "py_func", None) is not None and
                                  v.py_func.__code__.co_filename == path)
            key = (os.path.basename(path), name, sig)
            t0 = time.process_time()
            try:
                a = _ir(by_src[name], sig)
            except Exception:
                continue             # a kernel the source path refuses (device-only and the like)
            t1 = time.process_time()
            try:
                b = _ir(by_code[name], sig)
            except DecompileError as e:
                got[key] = "refused: " + str(e).split(": ", 1)[-1][:120]
                continue
            t2 = time.process_time()
            t_src.append(t1 - t0)
            t_bc.append(t2 - t1)
            b = b.replace(fake, path)
            if not columns:
                a, b = _COLUMN.sub(r"\1", a), _COLUMN.sub(r"\1", b)
            got[key] = "same" if a == b else "differs"
    return got, t_src, t_bc


@pytest.mark.parametrize("version,exe", PYTHONS, ids=PY_IDS)
def test_golden_kernels_compile_to_the_same_ir_from_bytecode(version, exe, tmp_path):
    """The text each Python's bytecode gives (3.9-3.13 where pyenv has
    them: test_rebuilt_text_reads_as_the_source_on_each_python) compiles
    to the IR of the source, every one of them.  Before 3.11 the line table
    has no columns: the IR's locations are compared by line."""
    columns = version >= (3, 11)
    with _rebuilt_as(_texts_of(version, exe, tmp_path)):
        got, _, _ = compare_golden(columns)
    assert len(got) > 100
    assert {k: v for k, v in got.items() if v != "same"} == {}


# ---- kernels made without a file, run against NumPy

SCALE = 3.0


def _exec(text, **glb):
    ns = {"cuda": cuda, "np": np, "math": __import__("math")}
    ns.update(glb)
    exec(text, ns)
    return ns


KERNEL_TEXT = '''
@cuda.jit(device=True)
def poly(v, k=2, c=0.5):
    return v ** k + c

@cuda.jit
def kern(a, b, out, n):
    i = cuda.grid(1)
    if i >= out.size:
        return
    s = 0.0
    j = 0
    while j < n and a[i] > -10.0:
        if j == 2:
            j += 1
            continue
        s += poly(a[i]) * SCALE if b[i] > 0 else -poly(b[i], 3)
        j += 1
    else:
        s += 1.0
    lo, hi = min(a[i], b[i]), max(a[i], b[i])
    out[i, 0] = s
    out[i, 1] = hi - lo if 0.1 < hi <= 0.9 else 0.0
    t = 0
    for k in range(i % 7, 20, 3):
        if k > 15:
            break
        t += k
    out[i, 2] = t
    out[i, 3] = (a[i] > 0.5 or b[i] < 0.2) and not a[i] > 0.9
'''


def _reference(a, b, n):
    poly = lambda v, k=2, c=0.5: v ** k + c  # noqa: E731
    out = np.zeros((a.size, 4))
    for i in range(a.size):
        s = 0.0
        for j in range(n):
            if j == 2:
                continue
            s += poly(a[i]) * SCALE if b[i] > 0 else -poly(b[i], 3)
        s += 1.0
        lo, hi = min(a[i], b[i]), max(a[i], b[i])
        out[i, 0] = s
        out[i, 1] = hi - lo if 0.1 < hi <= 0.9 else 0.0
        out[i, 2] = sum(k for k in range(i % 7, 20, 3) if k <= 15)
        out[i, 3] = (a[i] > 0.5 or b[i] < 0.2) and not a[i] > 0.9
    return out


def _check(kern, rng, n=5):
    a = rng.random(64)
    b = rng.random(64) * 2 - 0.5
    out = np.zeros((64, 4))
    kern[2, 32](a, b, out, n)
    np.testing.assert_allclose(out, _reference(a, b, n), rtol=1e-12)


def test_exec_kernel_with_device_function_defaults_and_globals(rng):
    ns = _exec(KERNEL_TEXT, SCALE=SCALE)
    _check(ns["kern"], rng)


LOGIC_TEXT = '''
@cuda.jit(device=True)
def pick(v, scale=None):
    if scale is None:
        return v
    return v * scale if v > 0 else -v


@cuda.jit(device=True)
def first_at_least(x, t):
    for j in range(x.size):
        if x[j] >= t:
            return j
    return -1


@cuda.jit
def logic(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        p = x[i] > 0.3
        q = y[i] > x[i]
        f = y[i] < 0.8
        out[i, 0] = p and not q or f and q
        out[i, 1] = not (p or q or f)
        a, b = x[i], y[i]
        a, b = b, a + b
        out[i, 2] = a - 2 * b
        s, (t, u) = x[i], (y[i], 3.0)
        out[i, 3] = pick(s, 2.0) + pick(t) + u
        acc = 0.0
        for j in range(8):
            idx = i + j - 3
            if 0 <= idx < x.size and idx != i:
                acc += x[idx]
        out[i, 4] = acc
        out[i, 5] = first_at_least(y, x[i] + 0.5)
'''


def test_exec_kernel_logic_order_and_unpacking(rng):
    ns = _exec(LOGIC_TEXT)
    x = rng.random(40)
    y = rng.random(40)
    out = np.zeros((40, 6))
    ns["logic"][1, 64](x, y, out)
    ref = np.zeros((40, 6))
    for i in range(40):
        p, q, f = x[i] > 0.3, y[i] > x[i], y[i] < 0.8
        ref[i, 0] = p and not q or f and q
        ref[i, 1] = not (p or q or f)
        ref[i, 2] = y[i] - 2 * (x[i] + y[i])
        ref[i, 3] = (x[i] * 2.0 if x[i] > 0 else -x[i]) + y[i] + 3.0
        ref[i, 4] = sum(x[i + j - 3] for j in range(8) if 0 <= i + j - 3 < 40 and j != 3)
        ref[i, 5] = next((j for j in range(40) if y[j] >= x[i] + 0.5), -1)
    np.testing.assert_allclose(out, ref, rtol=1e-13)


LONG_LOOP_TEXT = """
@cuda.jit
def horner(x, out):
    i = cuda.grid(1)
    if i < out.size:
        acc = 0.0
        for j in range(3):
""" + "".join("            acc = acc * x[i] + %d.0 * (j + %d) - x[(i + %d) %% x.size]\n" % (n, n, n)
              for n in range(40)) + """
        out[i] = acc if x[i] > 0.2 < x[(i + 1) % x.size] else -acc
"""


def test_exec_kernel_with_a_long_loop_and_chained_comparisons(rng):
    """A loop body longer than 256 code units puts EXTENDED_ARG before the
    loop's FOR_ITER; a chained comparison's last operand may be a call."""
    ns = _exec(LONG_LOOP_TEXT)
    x = rng.random(50)
    out = np.zeros(50)
    ns["horner"][1, 64](x, out)
    ref = np.zeros(50)
    for i in range(50):
        acc = 0.0
        for j in range(3):
            for n in range(40):
                acc = acc * x[i] + n * (j + n) - x[(i + n) % 50]
        ref[i] = acc if x[i] > 0.2 < x[(i + 1) % 50] else -acc
    np.testing.assert_allclose(out, ref, rtol=1e-12)


CHAIN_IS_TEXT = """
@cuda.jit
def chains(x, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        k = i % 4
        out[i, 0] = 1 < k is 3
        out[i, 1] = 0 < k in (1, 3)
        out[i, 2] = x[i] < 0.5 is not True
        if k in (0, 2) is False:
            out[i, 3] = 1
"""


def test_exec_kernel_with_is_and_in_in_a_chain(rng):
    """`1 < k is 3` and `0 < k in t`: links of a chain that are IS_OP or
    CONTAINS_OP, not COMPARE_OP."""
    ns = _exec(CHAIN_IS_TEXT)
    x = rng.random(40)
    out = np.zeros((40, 4), np.int64)
    ns["chains"][1, 64](x, out)
    k = np.arange(40) % 4
    ref = np.stack([(1 < k) & (k == 3), (0 < k) & ((k == 1) | (k == 3)), x < 0.5,
                    np.zeros(40, bool)], axis=1)
    np.testing.assert_array_equal(out, ref.astype(np.int64))


def _load_exec(text, filename):
    with numba_is_ptxjit():
        mod = types.ModuleType("rebuilt")
        mod.__file__ = filename
        exec(compile(text, filename, "exec"), mod.__dict__)
        return mod


# how many programs each Python's bytecode may leave refused (3.9 compiles
# the tester's constant conditions to jumps the rebuilding does not follow
# yet)
MAX_REFUSED = {(3, 9): 5}


@pytest.mark.skipif(ON_GPU, reason="a check of the front end: the simulator stops the programs that never end")
@pytest.mark.parametrize("version,exe", PYTHONS, ids=PY_IDS)
def test_generated_programs_give_the_same_results_from_bytecode(version, exe, tmp_path):
    """The differential tester's random programs, each loaded from a file
    and from its code alone: rebuilt from each Python's bytecode, most
    compile, and every one that does gives the same outputs, bit for bit."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "difftest"))
    import gen
    import harness
    paths = []
    # 40 programs from this Python's bytecode, 10 from each other one's
    for seed in range(40 if version == tuple(sys.version_info[:2]) else 10):
        paths.append(str(tmp_path / ("p%d.py" % seed)))
        with open(paths[-1], "w") as f:
            f.write(gen.generate(seed))
    rebuilt = refused = 0
    with _rebuilt_as(_texts_of(version, exe, tmp_path, paths)):
        for seed, path in enumerate(paths):
            by_src = harness.load(path)
            by_code = _load_exec(open(path).read(), path + ".exec")
            spec = by_src.SPEC
            arrs, views = harness.inputs(spec)
            try:
                want = harness.run_path(by_src, spec, arrs, views, "sim")
            except Exception:
                continue                  # a program the simulator stops (the tester's own business)
            try:
                got = harness.run_path(by_code, spec, arrs, views, "sim")
            except DecompileError:
                refused += 1
                continue
            rebuilt += 1
            for a, b in zip(want, got):
                if isinstance(a, np.ndarray):
                    assert a.tobytes() == b.tobytes(), seed
                else:
                    assert a == b, seed
    assert rebuilt >= len(paths) // 2 and refused <= MAX_REFUSED.get(version, 6), (rebuilt, refused)


# test files whose every test runs again with the file's functions made by
# exec() (no text to read): they compile from their bytecode
BYTECODE_FILES = ["test_star_args.py", "test_closures.py"]


@pytest.mark.parametrize("version,exe", PYTHONS, ids=PY_IDS)
@pytest.mark.parametrize("name", BYTECODE_FILES)
def test_files_run_from_bytecode(name, version, exe, tmp_path):
    """*args parameters, f(*t) calls, functions defined inside kernels and
    device functions (closures over the enclosing function's locals, with
    defaults and keywords) give the same results, and the same refusals,
    from the bytecode of each Python as from the file."""
    import inspect
    import zlib
    path = os.path.join(os.path.dirname(__file__), name)
    mod = _load_exec(open(path).read(), path + ".exec")
    rebuilt = [v for v in vars(mod).values() if getattr(v, "py_func", None) is not None]
    assert rebuilt and all(source_of(v.py_func)[3] == REBUILT for v in rebuilt)
    ran = 0
    with _rebuilt_as(_texts_of(version, exe, tmp_path, [name])):
        for key, test in sorted(vars(mod).items()):
            if not key.startswith("test_") or not callable(test):
                continue
            args = {}
            for p in inspect.signature(test).parameters:
                assert p == "rng", (key, p)
                args[p] = np.random.default_rng(zlib.crc32(key.encode()))
            test(**args)
            ran += 1
    assert ran >= 3


def test_compile_and_function_type_kernels(rng):
    code = compile(KERNEL_TEXT, "<generated>", "exec")
    ns = {"cuda": cuda, "SCALE": SCALE}
    exec(code, ns)
    kcode = next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == "kern")
    fresh = types.FunctionType(kcode, ns)
    _check(cuda.jit(fresh), rng)


def test_closure_kernel(rng):
    ns = _exec('''
def make(scale, off):
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = a[i] * scale + off
    return k
''')
    k = ns["make"](2.5, -1.0)
    a = rng.random(50)
    out = np.zeros(50)
    k[1, 64](a, out)
    np.testing.assert_allclose(out, a * 2.5 - 1.0)


def test_eval_lambda_device_function(rng):
    sq = cuda.jit(device=True)(eval("lambda v: v * v + 1.0"))
    ns = _exec('''
@cuda.jit
def k(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = sq(a[i])
''', sq=sq)
    a = rng.random(40)
    out = np.zeros(40)
    ns["k"][1, 64](a, out)
    np.testing.assert_allclose(out, a * a + 1.0)


def test_python_dash_c_kernel(tmp_path):
    prog = ("import numpy as np\nfrom ptxjit import cuda\n"
            "exec('@cuda.jit\\ndef k(a):\\n    i = cuda.grid(1)\\n    if i < a.size:\\n        a[i] = i * 2 + 1\\n')\n"
            "a = np.zeros(10)\nk[1, 16](a)\nprint(a.tolist())\n")
    import ptxjit     # the copy this run imports (make asan-py's instrumented one too)
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(ptxjit.__file__)))
    env = dict(os.environ, PYTHONPATH=pkg)
    r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str([i * 2.0 + 1 for i in range(10)])


def test_errors_name_the_line_and_column_without_text():
    ns = _exec("@cuda.jit\ndef k(a):\n    i = cuda.grid(1)\n    a[i] = nowhere + 1\n")
    with pytest.raises(errors.TypingError) as e:
        ns["k"][1, 1](np.zeros(1))
    msg = str(e.value)
    assert "<string>:4:12:" in msg and "nowhere" in msg
    assert "no source text" in msg and "^" not in msg


def test_unsupported_code_is_refused_naming_the_function():
    ns = _exec("@cuda.jit\ndef k(a):\n    b = [x for x in range(3)]\n    a[0] = b[0]\n")
    with pytest.raises(errors.SourceNotFoundError) as e:
        ns["k"][1, 1](np.zeros(1))
    msg = str(e.value)
    assert "'k'" in msg and "<string>" in msg and "line 1" in msg and "at line 3" in msg


def test_vectorize_of_functions_without_source(rng):
    from ptxjit import vectorize
    x = rng.random(16)
    f = vectorize(["float64(float64)"])(eval("lambda x: x * 2.0 + 1.0"))
    np.testing.assert_allclose(f(x), x * 2.0 + 1.0)
    g = vectorize(["float64(float64)"], target="cuda")(eval("lambda x: x * 3.0"))
    np.testing.assert_allclose(g(x), x * 3.0)
    ns = {}
    exec("def h(x):\n    return x[0]\n", ns)
    with pytest.raises(errors.TypingError) as e:
        vectorize(["float64(float64)"])(ns["h"])(x)
    msg = str(e.value)
    assert "<string>:2:12:" in msg and "indexes its argument 'x'" in msg and "no source text" in msg
    assert "^" not in msg


def test_source_functions_keep_their_text():
    ns = {}
    exec("def f(a):\n    a[0] = 1\n", ns)
    text, first = rebuild(ns["f"])
    assert text == "def f(a):\n    a[0] = 1\n" and first == 1


@pytest.mark.parametrize("version,exe", _pythons(), ids=["%d.%d" % v for v, _ in _pythons()])
def test_rebuilt_text_reads_as_the_source_on_each_python(version, exe):
    """The golden kernels' functions, and the kernels and device functions
    of the test suite, rebuilt under each Python found (3.9-3.13 where
    pyenv has them), parse to the source's AST, but for what the bytecode
    does not keep (bytecode_ast.normal: docstrings, folded constants, an
    else clause that cannot be told from the statements after it)."""
    script = os.path.join(os.path.dirname(__file__), "bytecode_ast.py")
    r = subprocess.run([exe, script], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    same, differs, refused = (int(x) for x in r.stdout.split()[1:])
    assert same > 100 and differs == refused == 0, r.stdout
    r = subprocess.run([exe, script, "--tests", "--show"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    same, differs, refused = (int(x) for x in r.stdout.split("\n")[-2].split()[1:])
    assert same > 400 and refused == 0, r.stdout
    odd = [ln.split()[1:3] for ln in r.stdout.split("\n") if ln.startswith("DIFFERS ")]
    assert all(tuple(x) in TEXT_DIFFERS for x in odd), r.stdout


# what the rebuilt text says otherwise than the source, meaning the same:
# a break that leaves a loop at the function's end is a return under 3.10
# (no columns to tell the keyword)
TEXT_DIFFERS = {("test_enumerate_zip.py", "loops_k")}


def _timing():
    """Median milliseconds (CPU time) to compile a golden kernel (its device functions
    included) from its file and from its bytecode, and to rebuild the text
    of one golden function (decompile.rebuild alone)."""
    import statistics
    got, ts, tb = compare_golden()
    funcs = []
    for path in sorted(glob.glob(os.path.join(KERNELS, "*.py"))):
        try:
            ns = _load(open(path).read(), path + ".exec")
        except Exception:
            continue
        funcs += [v.py_func for v in ns.values() if getattr(v, "py_func", None) is not None]
    tr = []
    for f in funcs:
        try:
            t0 = time.process_time()
            for _ in range(5):
                rebuild(f)
            tr.append((time.process_time() - t0) / 5)
        except DecompileError:
            pass
    med = statistics.median
    return got, 1e3 * med(ts), 1e3 * med(tb), 1e3 * med(tr), len(tr)


if __name__ == "__main__":
    got, ms_src, ms_bc, ms_rebuild, nfunc = _timing()
    for k, v in sorted(got.items()):
        if v != "same":
            print(k, v)
    n = len(got)
    same = sum(v == "same" for v in got.values())
    ok = sum(not v.startswith("refused") for v in got.values())
    print("Python %d.%d: %d of %d golden kernel entries have identical IR (%.0f%%), %d compile from bytecode, "
          "%d refused; median compile %.2f ms/kernel from source, %.2f ms/kernel from bytecode; "
          "median rebuild %.2f ms/function (%d functions)"
          % (sys.version_info[0], sys.version_info[1], same, n, 100.0 * same / n, ok, n - ok,
             ms_src, ms_bc, ms_rebuild, nfunc))
