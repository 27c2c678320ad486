"""The catalogue of user-facing error messages: the compiler's, the runtime's
and the simulator's.  Each entry triggers one message and checks that its
text names what went wrong and where.

Compiler messages come from err_at() (and sig.c's sig_error()); the test
reads every call's format string from src/ and matches each message it
sees against them.  A message is covered by a trigger here or by a golden
file in tests/golden/errors (whose exact text run.py checks); the formats
neither covers yet are listed, by text, in NOT_YET_TRIGGERED.  A new or
reworded err_at() message that nothing covers fails
test_every_compiler_message_is_catalogued: add a trigger (or a golden).

Every compile error must read "FILE:LINE:COL: error: MESSAGE", then the
source line, a caret line under the column, and a "hint:" line; the
triggers here mark the line they expect with "#!".
"""

import glob
import os
import re
import textwrap

import numpy as np
import pytest

from ptxjit import _core, cuda, errors
from ptxjit.cuda import dispatcher as _dispatcher

from conftest import ON_GPU, ROOT

SRC = os.path.join(ROOT, "src")
GOLDEN_ERRORS = os.path.join(ROOT, "tests", "golden", "errors")


# ------------------------------------------------- formats in the sources

def _c_calls(text, name):
    """(line, [argument texts]) of each call name(...) in C text."""
    out = []
    for m in re.finditer(r"\b" + name + r"\s*\(", text):
        i, depth, args, cur = m.end(), 1, [], ""
        while i < len(text) and depth:
            ch = text[i]
            if ch in "\"'":
                j = i + 1
                while text[j] != ch:
                    j += 2 if text[j] == "\\" else 1
                cur += text[i:j + 1]
                i = j + 1
                continue
            if text.startswith("/*", i):
                i = text.index("*/", i) + 2
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if not depth:
                    break
            if ch == "," and depth == 1:
                args.append(cur.strip())
                cur = ""
            else:
                cur += ch
            i += 1
        args.append(cur.strip())
        out.append((text.count("\n", 0, m.start()) + 1, args))
    return out


def _literal(arg):
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', arg)
    return "".join(bytes(p, "utf-8").decode("unicode_escape") for p in parts)


def compiler_formats():
    """{format text: "file:line"} of every err_at()/sig_error() message."""
    found = {}
    for path in sorted(glob.glob(os.path.join(SRC, "*", "*.c"))):
        with open(path) as f:
            text = f.read()
        for name in ("err_at", "sig_error"):
            for line, args in _c_calls(text, name):
                if len(args) >= 4 and args[3].startswith('"'):
                    found.setdefault(_literal(args[3]), "%s:%d" % (os.path.relpath(path, ROOT), line))
    return found


def format_regex(fmt):
    out, i = "", 0
    while i < len(fmt):
        m = re.match(r"%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t)?([diuxXfFeEgGscp%])", fmt[i:])
        if fmt[i] == "%" and m:
            conv = m.group(5)
            out += "%" if conv == "%" else ".*?" if conv == "s" else "." if conv == "c" else r"[-+0-9a-fA-Fx.einf]+?"
            i += len(m.group(0))
            continue
        out += re.escape(fmt[i])
        i += 1
    return re.compile("^" + out + "$", re.S)


FORMATS = compiler_formats()
REGEXES = {fmt: format_regex(fmt) for fmt in FORMATS}


def _literal_len(fmt):
    return len(re.sub(r"%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t)?[diuxXfFeEgGscp%]", "", fmt))


def formats_of(message):
    """The formats a message (the text after 'error: ') comes from: of those
    that match it, the most specific (the most literal text), so that a
    message does not also count for "%s" or "cannot assign to %s"."""
    hits = [fmt for fmt, r in REGEXES.items() if r.match(message)]
    best = max((_literal_len(f) for f in hits), default=0)
    return [f for f in hits if _literal_len(f) == best]


def golden_messages():
    out = {}
    for path in sorted(glob.glob(os.path.join(GOLDEN_ERRORS, "*.err"))):
        with open(path) as f:
            first = f.read().split("\n")[0]
        out[os.path.basename(path)] = first.split(": error: ", 1)[-1]
    return out


# -------------------------------------------------- compile-error triggers
#
# (name, source, signature): the source is one function, compiled from the
# text itself (so lexer and parser errors can be triggered too); "#!" marks
# the line the message must name.  A name ending in "@N" names line N
# explicitly (for lines where a comment would change the error).

A = "void(float32[::1])"
TRIGGERS = [
    # lexer
    ("bad_char", "def k(a):\n    a[0] = 1 $ 2  #!\n", A),
    ("unterminated_string@2", "def k(a):\n    a[0] = 'abc\n", A),
    ("unterminated_triple@2", "def k(a):\n    s = '''abc\n    a[0] = 1\n", A),
    ("leading_zero", "def k(a):\n    a[0] = 012  #!\n", A),
    ("bad_digit", "def k(a):\n    a[0] = 0b102  #!\n", A),
    ("unmatched_paren", "def k(a):\n    a[0] = 1)  #!\n", A),
    ("mismatched_paren", "def k(a):\n    a[0] = (1]  #!\n", A),
    ("never_closed@2", "def k(a):\n    a[0] = (1 +\n", A),
    ("tabs_and_spaces@3", "def k(a):\n        a[0] = 1\n\ta[1] = 2\n", A),
    ("continuation_char", "def k(a):\n    a[0] = 1 \\ 2  #!\n", A),
    # parser
    ("unexpected_indent@3", "def k(a):\n    a[0] = 1\n        a[1] = 2\n", A),
    ("unexpected_token", "def k(a):\n    a[0] = 1 +* 2  #!\n", A),
    ("expected_colon", "def k(a):\n    if a[0] > 1  #!\n        a[0] = 1\n", A),
    ("else_if", "def k(a):\n    if a[0]:\n        a[0] = 1\n    else if a[1]:  #!\n        a[0] = 2\n", A),
    ("print_statement", "def k(a):\n    print 'x'  #!\n", A),
    ("assign_in_if", "def k(a):\n    if a[0] = 1:  #!\n        pass\n", A),
    ("no_block@3", "def k(a):\n    for i in range(3):\n    a[0] = 1\n", A),
    ("cannot_assign_call", "def k(a):\n    len(a) = 3  #!\n", A),
    ("kwarg_repeated", "def k(a):\n    a[0] = max(x=1, x=2)  #!\n", A),
    ("positional_after_kw", "def k(a):\n    a[0] = max(x=1, 2)  #!\n", A),
    ("duplicate_param@1", "def k(a, a):\n    a[0] = 1\n", A),
    ("default_order@1", "def k(a=1, b):\n    a[0] = 1\n", A),
    ("empty_subscript", "def k(a):\n    a[] = 1  #!\n", A),
    ("keyword_as_expr", "def k(a):\n    a[0] = pass  #!\n", A),
    ("not_an_operator", "def k(a):\n    a[0] = 1 <> 2  #!\n", A),
    ("attr_name", "def k(a):\n    a[0] = a.3  #!\n", A),
    ("async_def@1", "async def k(a):\n    a[0] = 1\n", A),
    # signatures
    ("sig_unknown_type@1", "def k(a):\n    a[0] = 1\n", "void(floot32[::1])"),
    ("sig_bad_char@1", "def k(a):\n    a[0] = 1\n", "void(float32[::1]$)"),
    ("sig_layout@1", "def k(a):\n    a[0] = 1\n", "void(float32[::1, ::1])"),
    ("sig_trailing@1", "def k(a):\n    a[0] = 1\n", "void(float32[::1]) x"),
    ("sig_expected@1", "def k(a):\n    a[0] = 1\n", "void(float32[::1]"),
    # names, types, operators
    ("undefined_name", "def k(a):\n    a[0] = undefined_name  #!\n", A),
    ("tuple_plus_array", "def k(a):\n    x = (1, 2)\n    a[0] = x + a  #!\n", A),
    ("unary_on_tuple", "def k(a):\n    x = (1, 2)\n    a[0] = -x  #!\n", A),
    ("invert_float", "def k(a):\n    a[0] = ~a[1]  #!\n", A),
    ("is_not_none", "def k(a):\n    if a[0] is a[1]:  #!\n        a[0] = 1\n", A),
    ("in_operator", "def k(a):\n    if a[0] in a:  #!\n        a[0] = 1\n", A),
    ("truth_of_array", "def k(a):\n    if a:  #!\n        a[0] = 1\n", A),
    ("truth_of_tuple", "def k(a):\n    t = (1, 2)\n    if t:  #!\n        a[0] = 1\n", A),
    ("ifexp_no_common", "def k(a):\n    x = a if a[0] > 0 else 1.0  #!\n", A),
    ("too_many_indices", "def k(a):\n    a[0, 1] = 1  #!\n", A),
    ("index_float", "def k(a):\n    a[0] = a[1.5]  #!\n", A),
    ("slice_step_zero", "def k(a):\n    b = a[::0]  #!\n", A),
    ("tuple_index_range", "def k(a):\n    t = (1, 2)\n    a[0] = t[5]  #!\n", A),
    ("index_scalar", "def k(a):\n    x = 1.0\n    a[0] = x[0]  #!\n", A),
    ("used_before_assign", "def k(a):\n    if a[0] > 0:\n        y = 1\n    a[1] = z  #!\n    z = 2\n", A),
    ("compare_tuple_number", "def k(a):\n    t = (1, 2)\n    if t < 1:  #!\n        a[0] = 1\n", A),
    ("complex_ordered", "def k(a):\n    z = 1j\n    if z < z:  #!\n        a[0] = 1\n", A),
    # statements
    ("assign_tuple_elem", "def k(a):\n    t = (1, 2)\n    t[0] = 3  #!\n", A),
    ("assign_to_scalar_elem", "def k(a):\n    x = 1\n    x[0] = 3  #!\n", A),
    ("readonly_store", "def k(a):\n    a[0] = 1  #!\n", "void(array(float32, 1d, C, readonly))"),
    ("store_array_in_elem", "def k(a):\n    a[0] = a  #!\n", A),
    ("for_over_scalar", "def k(a):\n    for x in 3:  #!\n        a[0] = x\n", A),
    ("for_over_2d", "def k(a):\n    for x in a:  #!\n        a[0, 0] = x[0]\n", "void(float32[:, ::1])"),
    ("break_outside", "def k(a):\n    break  #!\n", A),
    ("continue_outside", "def k(a):\n    continue  #!\n", A),
    ("bare_raise", "def k(a):\n    raise  #!\n", A),
    ("raise_number", "def k(a):\n    raise 3  #!\n", A),
    ("unpack_2d", "def k(a):\n    x, y = a  #!\n", "void(float32[:, ::1])"),
    ("unpack_count", "def k(a):\n    x, y = (1, 2, 3)  #!\n", A),
    ("kernel_returns_value", "def k(a):\n    return 1  #!\n", A),
    ("range_float", "def k(a):\n    for i in range(1.5):  #!\n        a[0] = i\n", A),
    ("range_step_zero", "def k(a):\n    for i in range(0, 3, 0):  #!\n        a[0] = i\n", A),
    ("range_outside_for", "def k(a):\n    r = range(3)  #!\n", A),
    ("two_loop_vars", "def k(a):\n    for i, j in range(3):  #!\n        a[0] = i\n", A),
    ("annotated_tuple", "def k(a):\n    x, y: int = 1, 2  #!\n", A),
    ("walrus_on_attr", "def k(a):\n    if (a.x := 1):  #!\n        pass\n", A),
    # calls and builtins
    ("no_attribute", "def k(a):\n    a[0] = cuda.nosuchthing  #!\n", A),
    ("math_kwargs", "def k(a):\n    a[0] = math.sqrt(x=a[1])  #!\n", A),
    ("math_arg_count", "def k(a):\n    a[0] = math.sqrt(a[1], a[2])  #!\n", A),
    ("math_of_array", "def k(a):\n    a[0] = math.sqrt(a)  #!\n", A),
    ("len_of_number", "def k(a):\n    a[0] = len(a[1])  #!\n", A),
    ("min_no_args", "def k(a):\n    a[0] = min()  #!\n", A),
    ("min_empty_tuple", "def k(a):\n    a[0] = min(())  #!\n", A),
    ("round_ndigits_float", "def k(a):\n    a[0] = round(a[1], 1.5)  #!\n", A),
    ("print_kwargs", "def k(a):\n    print(a[0], end='')  #!\n", A),
    ("print_array", "def k(a):\n    print(a)  #!\n", A),
    ("pow_modulus", "def k(a):\n    a[0] = pow(2, 3, 5)  #!\n", A),
    ("shared_shape_float", "def k(a):\n    s = cuda.shared.array(2.5, dtype=np.float32)  #!\n", A),
    ("shared_size_negative", "def k(a):\n    s = cuda.shared.array(-3, dtype=np.float32)  #!\n", A),
    ("shared_too_many_dims", "def k(a):\n    s = cuda.shared.array((1,1,1,1,1,1,1,1,1), dtype=np.float32)  #!\n", A),
    ("local_dim_negative", "def k(a):\n    s = cuda.local.array((2, -1), dtype=np.float32)  #!\n", A),
    ("atomic_readonly", "def k(a):\n    cuda.atomic.add(a, 0, 1)  #!\n", "void(array(float32, 1d, C, readonly))"),
    ("atomic_2d_too_few", "def k(a):\n    cuda.atomic.add(a, 0, 1)  #!\n", "void(float32[:, ::1])"),
    ("conjugate_args", "def k(a):\n    a[0] = a[1].conjugate(1)  #!\n", A),
    ("exception_kwargs", "def k(a):\n    raise ValueError(msg='x')  #!\n", A),
    ("call_module", "def k(a):\n    a[0] = math(1)  #!\n", A),
    ("kwargs_kernel@1", "def k(a, *args):\n    a[0] = 1\n", A),
    ("kernel_arg_count@1", "def k(a, b):\n    a[0] = 1\n", A),
    ("grid_dims", "def k(a):\n    i = cuda.grid(4)  #!\n", A),
    ("njit_only_in_kernel", "def k(a):\n    b = np.empty(3)  #!\n", A),
    ("selp_tuple", "def k(a):\n    t = (1, 2)\n    x = cuda.selp(a[0] > 0, t, t)  #!\n", A),
    ("shfl_kwargs", "def k(a):\n    a[0] = cuda.shfl_sync(0xffffffff, a[1], src=1)  #!\n", A),
    ("bit_count_args", "def k(a):\n    x = 3\n    a[0] = x.bit_count(1)  #!\n", A),
    ("int_of_tuple", "def k(a):\n    t = (1, 2)\n    a[0] = int(t)  #!\n", A),
    ("int_of_complex", "def k(a):\n    a[0] = int(1j)  #!\n", A),
    ("bool_of_array", "def k(a):\n    a[0] = bool(a)  #!\n", A),
    ("aug_tuple_array", "def k(a):\n    t = (1, 2)\n    t += a  #!\n", A),
    ("aug_elem_tuple", "def k(a):\n    t = (1, 2)\n    a[0] += t  #!\n", A),
    ("store_complex_in_float", "def k(a):\n    a[0] = 1j  #!\n", A),
]

COMPILE_OPTS = {"fastmath": False, "debug": False, "lineinfo": False, "opt": True, "max_registers": 0}


def compile_text(name, text, sig):
    """Compiles one function from its source text; the TypingError's message."""
    if not _dispatcher._table_ready:
        _dispatcher._build_resolve_table()
    import math
    g = {"cuda": cuda, "np": np, "numpy": np, "math": math}
    fname = "catalogue_%s.py" % name.split("@")[0]
    info = ("k", text, fname, 1, 0, g, {}, {}, False, None, False)
    try:
        _core.compile(info, sig, COMPILE_OPTS)
    except errors.TypingError as e:
        return fname, str(e)
    return fname, None


def check_located(fname, text, msg, want_line):
    """The message names fname:LINE:COL, shows the line with a caret under
    COL, and gives a hint; returns the message proper."""
    lines = msg.split("\n")
    m = re.match(r"^(.*?):(\d+):(\d+): error: (.*)$", lines[0])
    assert m, msg
    if fname.startswith("catalogue_sig"):     # an error in the signature: shown with a caret
        assert m.group(1) == "<signature>" and lines[1].endswith(text), msg
        assert lines[2].index("^") - (len(lines[1]) - len(text)) == int(m.group(3)) - 1, msg
        return m.group(4)
    assert m.group(1) == fname, msg
    line, col = int(m.group(2)), int(m.group(3))
    assert line == want_line, "expected line %d:\n%s" % (want_line, msg)
    src_lines = text.split("\n")
    if 1 <= line <= len(src_lines):
        shown, caret = lines[1], lines[2]
        src = src_lines[line - 1]
        if "\x00" not in src:
            assert shown.endswith(src), msg           # the line as written, indented
            pad = len(shown) - len(src)
            assert "^" in caret and caret.index("^") - pad == col - 1, msg
    assert any(l.startswith("hint: ") and len(l) > 10 for l in lines), msg
    return m.group(4)


@pytest.mark.parametrize("name,text,sig", TRIGGERS, ids=[t[0] for t in TRIGGERS])
def test_compile_error(name, text, sig):
    fname, msg = compile_text(name, text, sig)
    assert msg is not None, "no error for:\n" + text
    if fname.startswith("catalogue_sig"):
        text = sig
    if "@" in name:
        want = int(name.split("@")[1])
    else:
        want = [i for i, l in enumerate(text.split("\n"), 1) if "#!" in l][0]
    proper = check_located(fname, text, msg, want)
    assert formats_of(proper), "the message matches no err_at() format in src/: %r" % proper


def test_golden_errors_are_err_at_messages():
    """Every golden error file's message comes from a format in src/
    (tests/golden/run.py checks its exact text, location and caret)."""
    gold = golden_messages()
    assert len(gold) >= 50
    unknown = {g: m for g, m in gold.items() if not formats_of(m)}
    assert not unknown, unknown


def test_every_compiler_message_is_catalogued():
    covered = set()
    for m in golden_messages().values():
        covered.update(formats_of(m))
    for name, text, sig in TRIGGERS:
        _, msg = compile_text(name, text, sig)
        if msg:
            covered.update(formats_of(msg.split("\n")[0].split(": error: ", 1)[-1]))
    missing = sorted(f for f in FORMATS if f not in covered and f not in NOT_YET_TRIGGERED)
    assert not missing, (
        "err_at() messages that no trigger in tests/test_error_catalogue.py and no golden in "
        "tests/golden/errors covers (add one):\n" + "\n".join("  %s: %r" % (FORMATS[f], f) for f in missing))
    stale = sorted(f for f in NOT_YET_TRIGGERED if f in covered or f not in FORMATS)
    assert not stale, ("NOT_YET_TRIGGERED lists messages that are now covered or gone; remove them:\n"
                       + "\n".join("  %r" % f for f in stale))
    print("compiler messages: %d formats, %d covered (goldens and triggers), %d not yet triggered"
          % (len(FORMATS), len(covered & set(FORMATS)), len(NOT_YET_TRIGGERED)))


# ------------------------------------------------------- runtime messages

@cuda.jit
def _store(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = v


@cuda.jit
def _big_shared(a):
    s = cuda.shared.array(40000, dtype=np.float64)   # 320000 bytes: more than any block has
    s[cuda.threadIdx.x] = 1.0
    cuda.syncthreads()
    a[0] = s[0]


def _raises(cls, fn, *words):
    with pytest.raises(cls) as e:
        fn()
    msg = str(e.value)
    for w in words:
        assert w in msg, "%r not in %r" % (w, msg)
    return msg


def test_runtime_bad_launch_configuration():
    a = cuda.device_array(8, np.float32)
    _raises(ValueError, lambda: _store[1, 2000](a, 1.0), "_store", "2000")
    _raises(ValueError, lambda: _store[0, 32](a, 1.0), "_store")
    _raises(ValueError, lambda: _store[(1, 1, 1, 1), 32](a, 1.0), "_store")
    _raises(TypeError, lambda: _store[1.5, 32](a, 1.0), "_store")
    _raises(ValueError, lambda: _store[1, (32, 2, 128)](a, 1.0), "_store")


def test_runtime_wrong_argument_types():
    a = cuda.device_array(8, np.float32)
    _raises(TypeError, lambda: _store[1, 8](a, "x"), "_store", "argument 2", "'v'")
    _raises(TypeError, lambda: _store[1, 8](a, object()), "_store", "argument 2")
    _raises(TypeError, lambda: _store[1, 8](a), "_store")
    _raises(TypeError, lambda: _store[1, 8](a, 1.0, 2.0), "_store")
    _raises(TypeError, lambda: _store[1, 8]([1, 2], 1.0), "_store", "argument 1", "'a'")


def test_runtime_too_much_shared_memory():
    a = cuda.device_array(1, np.float64)
    msg = _raises(Exception, lambda: _big_shared[1, 32](a), "_big_shared")
    assert "shared" in msg and "320000" in msg, msg


def test_runtime_dynamic_shared_memory_too_large():
    a = cuda.device_array(8, np.float32)
    msg = _raises(Exception, lambda: _store[1, 8, 0, 1 << 30](a, 1.0), "_store")
    assert "shared" in msg, msg


def test_runtime_device_array_errors():
    d = cuda.to_device(np.zeros(4))
    _raises(ValueError, lambda: d.copy_to_device(np.zeros(5)), "5")
    _raises(Exception, lambda: cuda.device_array(-1), "-1")
    _raises(ValueError, lambda: cuda.to_device(np.zeros(3)).copy_to_host(np.zeros(4)), "4")


def test_runtime_bad_stream_argument():
    _raises(TypeError, lambda: cuda.to_device(np.zeros(3), stream=5), "stream")
    _raises(TypeError, lambda: cuda.to_device(np.zeros(3), stream="s"), "stream")


def test_runtime_set_transfer_errors():
    _raises(ValueError, lambda: _core.set_transfer(mode="nope"), "'nope'", "staged")
    _raises(ValueError, lambda: _core.set_transfer(threads=0), "threads")


def test_runtime_elapsed_time_needs_recorded_events():
    e0, e1 = cuda.event(), cuda.event()
    _raises(ValueError, lambda: cuda.event_elapsed_time(e0, e1), "recorded")
    t0, t1 = cuda.event(timing=False), cuda.event(timing=False)
    t0.record()
    t1.record()
    _raises(ValueError, lambda: cuda.event_elapsed_time(t0, t1), "timing=True")


@pytest.mark.skipif(ON_GPU, reason="closing the context would invalidate other tests' device arrays; "
                    "the GPU path's messages are tested in tests/test_fault.py (fake driver)")
def test_runtime_closed_context():
    """On the simulator memory survives cuda.close() and work goes on; on
    the GPU (tests/test_fault.py) objects from before raise an error that
    names cuda.close(), and calls after a fault say the context was lost."""
    d = cuda.to_device(np.arange(4.0))
    cuda.close()
    assert d.copy_to_host().tolist() == [0.0, 1.0, 2.0, 3.0]
    e = cuda.to_device(np.zeros(4))
    _store[1, 4](e, 2.0)
    assert e.copy_to_host().tolist() == [2.0] * 4


# ----------------------------------------------------- simulator messages

sim_only = pytest.mark.skipif(ON_GPU, reason="messages of the simulator")


@cuda.jit
def _oob(a, i):
    a[i] = 1.0


@cuda.jit
def _oob2(a):
    a[cuda.threadIdx.x, 7] = 1.0


@cuda.jit
def _deadlock(a):
    if cuda.threadIdx.x < 16:
        cuda.syncthreads()
    a[0] = 1.0


@cuda.jit
def _uninit(a):
    s = cuda.shared.array(64, dtype=np.float32)
    if cuda.threadIdx.x > 0:
        s[cuda.threadIdx.x] = 1.0
    cuda.syncthreads()
    a[cuda.threadIdx.x] = s[cuda.threadIdx.x]


@cuda.jit
def _race(a):
    s = cuda.shared.array(4, dtype=np.float32)
    s[0] = cuda.threadIdx.x
    cuda.syncthreads()
    a[cuda.threadIdx.x] = s[0]


@cuda.jit
def _dyn(a):
    s = cuda.shared.array(0, dtype=np.float32)
    s[cuda.threadIdx.x] = 1.0
    a[cuda.threadIdx.x] = s[cuda.threadIdx.x]


@cuda.jit(debug=True, opt=False)
def _assert(a):
    assert a[0] > 100, "a[0] is too small"


def _sim_child(body, checks, tmp_path):
    """Runs body in a child with PTXJIT_SIM_CHECK=checks (read at import)."""
    import json
    import subprocess
    import sys
    mod = tmp_path / "simkern.py"
    mod.write_text(textwrap.dedent('''
        import numpy as np
        from ptxjit import cuda
        @cuda.jit
        def uninit(a):
            s = cuda.shared.array(64, dtype=np.float32)
            if cuda.threadIdx.x > 0:
                s[cuda.threadIdx.x] = 1.0
            cuda.syncthreads()
            a[cuda.threadIdx.x] = s[cuda.threadIdx.x]
        @cuda.jit
        def race(a):
            s = cuda.shared.array(4, dtype=np.float32)
            s[0] = cuda.threadIdx.x
            cuda.syncthreads()
            a[cuda.threadIdx.x] = s[0]
    '''))
    code = "import json, numpy as np, simkern\nfrom ptxjit import cuda\nres = {}\ntry:\n%s\nexcept Exception as e:\n" \
           "    res = [type(e).__name__, str(e)]\nprint('RESULT ' + json.dumps(res))\n" \
           % textwrap.indent(textwrap.dedent(body), "    ")
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(cuda.__file__)))
    env = dict(os.environ, PTXJIT_SIM="1", PTXJIT_SIM_CHECK=checks,
               PYTHONPATH=str(tmp_path) + os.pathsep + os.path.dirname(pkg))
    env.pop("PTXJIT_TEST_GPU", None)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120, cwd=str(tmp_path))
    line = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
    assert p.returncode == 0 and line, p.stderr
    return json.loads(line[-1][7:])


@sim_only
def test_sim_out_of_bounds():
    d = cuda.device_array(8, np.float32)
    msg = _raises(errors.SimIndexError, lambda: _oob[1, 1](d, 8), "index 8", "size 8", "'a'", "_oob")
    assert re.search(r"test_error_catalogue\.py:\d+", msg), msg
    d2 = cuda.device_array((4, 5), np.float32)
    _raises(errors.SimIndexError, lambda: _oob2[1, 4](d2), "index 7", "axis 1", "size 5")


@sim_only
def test_sim_barrier_deadlock():
    d = cuda.device_array(1, np.float32)
    msg = _raises(errors.DeadlockError, lambda: _deadlock[1, 32](d), "16 of 32 threads", "_deadlock",
                  "cuda.syncthreads()")
    assert re.search(r"test_error_catalogue\.py:\d+", msg), msg


@sim_only
def test_sim_dynamic_shared_memory_overrun():
    d = cuda.device_array(32, np.float32)
    _raises(errors.SimIndexError, lambda: _dyn[1, 32, 0, 16](d), "index 4", "size 4", "array 's'", "_dyn",
            "thread (4, 0, 0)")


@sim_only
def test_sim_failed_assert():
    d = cuda.to_device(np.zeros(1, np.float32))
    _raises(AssertionError, lambda: _assert[1, 1](d), "a[0] is too small")


@sim_only
def test_sim_uninitialised_read(tmp_path):
    res = _sim_child("a = np.zeros(64, np.float32)\nsimkern.uninit[1, 64](a)", "uninit", tmp_path)
    assert res[0] == "UninitializedReadError", res
    assert "uninitialised shared memory" in res[1] and "byte 0" in res[1] and "simkern.py:" in res[1], res


@sim_only
def test_sim_race(tmp_path):
    res = _sim_child("a = np.zeros(8, np.float32)\nsimkern.race[1, 8](a)", "race", tmp_path)
    assert res[0] == "RaceError", res
    assert "race on shared memory" in res[1] and "cuda.syncthreads()" in res[1] and "simkern.py:" in res[1], res


# Compiler messages no trigger or golden covers yet (by their format text).
# Shrink this list; never add to it to make a new message pass.
NOT_YET_TRIGGERED = {
    'thread indices (cuda.threadIdx, cuda.grid, ...) exist only in CUDA kernels',
    'invalid UTF-8 byte 0x%02x in source',
    'source contains a null byte',
    'invalid non-printable character U+%04X',
    'invalid %s literal',
    'bytes can only contain ASCII literal characters',
    'truncated \\%c escape in string literal',
    'illegal Unicode character in string literal',
    'too many nested parentheses',
    'too many levels of indentation',
    'unexpected end of file after line continuation character',
    "invalid syntax: expected '%s', found %s",
    "'tuple' is an illegal expression for augmented assignment",
    "invalid syntax: '%s' without a matching block",
    "invalid syntax: unexpected '='",
    'expression nested too deeply',
    "invalid syntax: expected 'def' or 'class' after a decorator, found %s",
    "invalid syntax: expected a function name after 'def', found %s",
    "invalid syntax: expected ',' or ')' in the parameter list, found %s",
    "no function named '%s' in the source",
    'no function definition in the source',
    'expected a lambda expression',
    "'tuple' is an illegal target for %s",
    'cannot mix bytes and nonbytes literals',
    "invalid syntax: '%s%s' is not an operator",
    "invalid syntax: '%s%s' is not a Python operator",
    'invalid syntax: expected an expression, found %s',
    "invalid syntax: expected an attribute name after '.', found %s",
    "expected '%s', found %s",
    "invalid syntax: expected a name after '**'",
    'invalid syntax: expected a parameter name, found %s',
    'slice bounds must be integers',
    'tuple index out of range (the tuple has %d elements)',
    'a tuple index must be an integer',
    'index into an empty tuple',
    '%s cannot be indexed',
    'tuples cannot be assigned to',
    'this value cannot be assigned to by index',
    'this array is read-only',
    'this value cannot be updated by index',
    '%s() needs a constant shape',
    'the shape of %s() must hold integers',
    '%s() of shape %lld is not possible',
    '%s() is missing an argument',
    'the first argument of %s() must be an array',
    'atomics on local arrays are not supported',
    '%s() needs a 1-D array',
    '%s() needs one index per axis of the array (%d)',
    '%s() takes integer indices, not slices',
    '%s() on an array of %s is not supported',
    'too many indices for the array',
    'an array index must be an integer, not %s',
    'an @njit function cannot return %s',
    'an @njit function cannot return an array of records',
    'cannot shift a float',
    'bitwise operators do not apply to floats',
    'this power is not supported yet',
    '~ does not apply to %s',
    'a number was expected here, not %s',
    'None cannot be ordered',
    'cannot compare %s with %s',
    'complex numbers cannot be ordered',
    'a slice cannot be used here',
    '%s() needs arguments',
    '%s() needs a real number',
    '%s() takes one argument',
    'len() of a 0-d array',
    'range() is only supported in a for loop',
    '%s() is not supported in kernels yet',
    '%s has no attribute %s',
    '%s() takes the number of dimensions 1, 2 or 3',
    '%s() of one argument needs a tuple',
    'print() of %d numbers; vprintf takes at most 64',
    'cannot store %s into a record of type %s',
    'cannot assign to a field of a record in a read-only array',
    'this constant array needs %lld bytes, and constant memory holds %d bytes in all (%lld are used by other constant arrays)',
    'cannot assign to this expression',
    'cannot update this expression in place',
    'range() takes 1 to 3 positional arguments',
    'range() step must not be zero',
    "'break' outside a loop",
    "'continue' outside a loop",
    'recursive device functions are not supported (%s calls itself)',
    '%s() takes %d arguments but %d were given',
    "%s() got %s keyword argument '%s'",
    "%s() is missing the argument '%s'",
    'cannot unpack %d values into %d targets',
    'cannot unpack %s',
    'this constant cannot be used as a number',
    'cannot convert %s to %s',
    'None cannot be used as %s',
    'the truth value of an array is ambiguous',
    '%s is not supported yet',
    '%s() is not available on sm_%d',
    "cannot assign %s to parameter '%s', which holds %s",
    "the default value of parameter '%s' must be a constant",
    '%s() takes %d argument%s (signature "%s") but %d were given',
    'argument %d of %s() is %s, which does not convert to %s',
    'device function calls nested too deeply',
    'device functions with *args or **kwargs are not supported',
    "kernel '%s' takes %d to %d arguments, but %d %s given",
    "%s has no attribute '%s'",
    "%s has no attribute '%s' that kernels can use",
    '%s() of one %s is not supported',
    '%s() of a tuple holding %s is not supported',
    'unsupported operand types for pow(): %s and %s',
    '%s() takes at most %d arguments (%d given)',
    "%s() got multiple values for argument '%s'",
    "%s() missing argument '%s'",
    'the alignment of a %s array must be a constant power of two',
    'the shape of a %s array must be an int or a tuple of ints',
    'a %s array of %lld elements is too large',
    'the shape of a %s array must be a tuple of ints',
    'a %s array of %.0f elements is too large',
    '%s() cannot change a constant array',
    '%s() does not work on an array of records',
    '%s() needs a 1d array, not %s',
    '%s is not callable',
    'a %s cannot be passed to a device function',
    '%s has no method conjugate()',
    '%s is not a dtype an array can have',
    'the shape given to %s() must be an int or a tuple of ints, not %s',
    '%s() takes an array, not %s',
    '%s() of an array of records is not supported',
    'array.copy() takes no arguments here',
    'np.arange() does not take %s',
    '%s exists only in CUDA kernels, not in @njit functions',
    'a slice cannot be used as a value',
    'string variables assigned more than once are not supported in kernels',
    "the operands of '%s' have types %s and %s, which have no common type",
    'slicing is not supported here',
    'a tuple cannot hold a %s',
    'slice %s must be an integer or None, not %s',
    'the step of a slice must be a constant',
    'too many indices',
    'slicing a tuple with a step is not supported',
    'the bounds of a tuple slice must be constants',
    'a tuple takes one index',
    'tuple index must be an integer, not %s',
    '%s() takes %d argument%s in kernels (%d given)',
    '%s() takes %d or %d arguments (%d given)',
    '%s() of an array is not supported in kernels; it takes scalars',
    '%s() of %s and %s is not supported',
    '%s() needs an integer exponent, not %s',
    '%s() takes integers, not %s',
    'cuda.const.array_like() takes the array by position',
    'cuda.const.array_like() takes 1 argument (%d given)',
    'field index %lld is out of range for a record of %d fields',
    'a record is indexed with the constant name of a field, not %s',
    '%s() takes %d argument%s, but %d %s given',
    'assigning to a %dd part of an array is not supported yet',
    'cannot unpack a %s',
    'cannot store a %s value into an array of %s',
    'cannot iterate over %s: its elements have no common type',
    'a device function cannot return a %s',
    'the signature declares the return type %s, but this returns %s',
    'this returns %s, but the function also returns %s, which has no common type with it',
    '%s() does not take keyword arguments',
    '%s() takes real numbers, not %s',
    'expected a type in signature%s',
    "expected ', count' in UniTuple(type, count)%s",
    'expected the element count in UniTuple(type, count)%s',
    'UniTuple of %s elements is too long (at most 64)',
    'tuple is too long (at most 64 elements)%s',
    'expected the number of dimensions, as in array(float32, 2d, C)%s',
    "expected 'd' after the number of dimensions, as in 2d%s",
    'arrays have 0 to 8 dimensions%s',
    'expected the layout C, F or A%s',
    "expected 'readonly'%s",
    "expected 'type=' in a record field%s",
    'record fields hold numbers, records or nestedarray(type, (extents))%s',
    "expected 'offset=' in a record field%s",
    'expected the offset of the field%s',
    "the record has two fields named '%s'",
    'expected the size of the record in bytes%s',
    'expected True or False (whether the record is aligned)%s',
    "field '%s' lies outside the record",
    "expected '::1' (a contiguous axis)%s",
    'arrays have at most 8 dimensions%s',
    "an argument cannot have type '%s'",
    "unexpected '%s' after the type",
}
