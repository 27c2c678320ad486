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

from ptxjit import _core, cuda, errors, njit
from ptxjit.cuda import dispatcher as _dispatcher

from conftest import ON_GPU, ROOT

import errcat_compiler
from test_host_api import (  # noqa: F401  (errcat_runtime.COVERED_ELSEWHERE names them)
    test_numba_disable_cuda as host_api_disable_cuda,
    test_use_simulator_after_a_gpu_kernel_is_refused as host_api_use_simulator_too_late,
    test_config_from_the_environment as host_api_config,
)
from test_ipc_emm import test_memory_manager_from_the_environment as emm_from_environment  # noqa: F401
from test_fork import test_fork_after_use_is_refused_in_the_child as fork_after_use  # noqa: F401
from test_pointers import (  # noqa: F401  (errcat_runtime.COVERED_ELSEWHERE names them)
    test_out_of_bounds_through_a_pointer_parameter_is_reported as pointer_out_of_bounds,
    test_an_address_outside_every_device_array_is_refused as pointer_outside_device_memory,
)

try:
    import cffi as _cffi
    _ffi = _cffi.FFI()
except ImportError:   # the triggers of ffi.from_buffer need cffi
    _ffi = None
from ptxjit.np.numpy_support import carray as _carray  # noqa: E402

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
    """{format text: "file:line"} of every err_at()/err_type_at()/err_value_at()/sig_error() message."""
    found = {}
    for path in sorted(glob.glob(os.path.join(SRC, "*", "*.c"))):
        with open(path) as f:
            text = f.read()
        for name in ("err_at", "err_type_at", "err_value_at", "sig_error"):
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
    ("star_not_tuple", "def k(a):\n    x = a[0]\n    a[1] = max(*x)  #!\n", A),
    ("star_some_paths", "def k(a):\n    a[0] = max(*divmod(a[1], 2)) if a[2] else 0  #!\n", A),
    ("star_after_call", "def k(a):\n    a[0] = max(min(a[1], 2), *divmod(a[1], 2))  #!\n", A),
    ("is_arrays", "def k(a):\n    b = a\n    a[0] = a is b  #!\n", A),
    ("capture_twice@5", "def k(a):\n    s = 1.0\n    if a[0] > 0:\n        s = 2.0\n    def f(v):\n        return v * s\n"
     "    a[1] = f(a[0])\n", A),
    ("capture_not_constant@3", "def k(a):\n    s = a[0]\n    def f(v):\n        return v * s\n    a[1] = f(a[0])\n", A),
    ("closure_recursion@2", "def k(a):\n    def f(n):\n        return 1 if n < 2 else n * f(n - 1)\n"
     "    a[0] = f(3)\n", A),
    ("zip_unpacked", "def k(a):\n    t = (a, a)\n    for x, y in zip(*t):  #!\n        a[0] = x\n", A),
    ("kernel_kwargs@1", "def k(a, **x):\n    a[0] = 1\n", A),
    ("kernel_star_launched@1", "def k(a, *x):\n    a[0] = 1\n", A),
    ("star_in_default@1", "def f(x, y=max(*divmod(3, 2))):\n    return x + y\n\ndef k(a):\n    a[0] = f(1)\n", A),
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
    # pointers (sema_pointer.c, sig.c)
    ("sig_void_pointer@1", "def k(p):\n    p[0] = 1\n", "void(void*)"),
    ("sig_pointer_to_array@1", "def k(p):\n    p[0] = 1\n", "void(int32*[:])"),
    ("sig_readonly_pointer@1", "def k(p):\n    p[0] = 1\n", "void(readonly int32*)"),
    ("pointer_slice", "def k(p):\n    x = p[1:3]  #!\n", "void(int32*)"),
    ("pointer_float_index", "def k(p):\n    x = p[1.5]  #!\n", "void(int32*)"),
    ("carray_not_pointer", "def k(a):\n    b = carray(a, 3)  #!\n", A, {"globals": {"carray": _carray}}),
    ("carray_bad_shape", "def k(p):\n    b = carray(p, 1.5)  #!\n", "void(int32*)", {"globals": {"carray": _carray}}),
    ("carray_bad_dtype", "def k(p):\n    b = carray(p, 3, dtype=3)  #!\n", "void(int32*)", {"globals": {"carray": _carray}}),
    ("carray_dtype_mismatch", "def k(p):\n    b = carray(p, 3, np.float32)  #!\n", "void(int32*)",
     {"globals": {"carray": _carray}}),
    ("carray_no_shape", "def k(p):\n    b = carray(p)  #!\n", "void(int32*)", {"globals": {"carray": _carray}}),
    ("carray_bad_keyword", "def k(p):\n    b = carray(p, 3, order=1)  #!\n", "void(int32*)",
     {"globals": {"carray": _carray}}),
    ("carray_too_many", "def k(p):\n    b = carray(p, 3, None, 4)  #!\n", "void(int32*)",
     {"globals": {"carray": _carray}}),
    ("from_buffer_scalar", "def k(a):\n    p = ffi.from_buffer(a[0])  #!\n", A, {"globals": {"ffi": _ffi}}),
    ("from_buffer_two", "def k(a):\n    p = ffi.from_buffer(a, a)  #!\n", A, {"globals": {"ffi": _ffi}}),
    ("from_buffer_strided", "def k(a):\n    p = ffi.from_buffer(a[::2])  #!\n", A, {"globals": {"ffi": _ffi}}),
    ("from_buffer_fortran", "def k(a):\n    p = ffi.from_buffer(a)  #!\n", "void(float32[::1, :])",
     {"globals": {"ffi": _ffi}}),
    ("from_buffer_shared", "def k(a):\n    s = cuda.shared.array(4, np.float32)\n    p = ffi.from_buffer(s)  #!\n",
     A, {"globals": {"ffi": _ffi}}),
    ("pointer_in_tuple@1", "def k(t):\n    x = t[1]\n", "void(Tuple(int32*, int64))"),
    ("cpu_pointer_param@1", "def k(p):\n    p[0] = 1\n", "void(int32*)", {"cpu": True}),
    ("sig_namedtuple_name@1", "def k(a, t):\n    a[0] = 1\n", "void(float32[::1], NamedTuple((x), int64))"),
    ("sig_namedtuple_types@1", "def k(a, t):\n    a[0] = 1\n", "void(float32[::1], NamedTuple(P, (x, y), int64))"),
    # names, types, operators
    ("undefined_name", "def k(a):\n    a[0] = undefined_name  #!\n", A),
    ("tuple_plus_array", "def k(a):\n    x = (1, 2)\n    a[0] = x + a  #!\n", A),
    ("unary_on_tuple", "def k(a):\n    x = (1, 2)\n    a[0] = -x  #!\n", A),
    ("invert_float", "def k(a):\n    a[0] = ~a[1]  #!\n", A),
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
    # more lexer and parser
    ("nonprintable", "def k(a):\n    a[0] = 1\x01  #!\n", A),
    ("bytes_non_ascii", "def k(a):\n    x = b'\u00e9'  #!\n", A),
    ("truncated_escape", "def k(a):\n    x = '\\x4'  #!\n", A),
    ("bad_unicode_escape", "def k(a):\n    x = '\\N{NO SUCH NAME}'  #!\n", A),
    ("nested_parens", "def k(a):\n    a[0] = " + "(" * 300 + "1" + ")" * 300 + "  #!\n", A),
    ("deep_indent@102", "def k(a):\n" + "".join("    " * (d + 1) + "if a[0]:\n" for d in range(100))
     + "    " * 101 + "a[0] = 1\n", A),
    ("eof_after_backslash@2", "def k(a):\n    a[0] = 1 + \\", A),
    ("aug_tuple_target", "def k(a):\n    x, y = 1, 2\n    x, y += 1  #!\n", A),
    ("else_without_if", "def k(a):\n    else:  #!\n        a[0] = 1\n", A),
    ("stray_equals", "def k(a):\n    a[0] == = 1  #!\n", A),
    ("no_function_named_k@1", "def g(a):\n    a[0] = 1\n", A),
    ("def_without_name@1", "def (a):\n    a[0] = 1\n", A),
    ("param_list_junk@1", "def k(a b):\n    a[0] = 1\n", A),
    ("no_def@1", "x = 1\n", A),
    ("tuple_target_for", "def k(a):\n    for (i, j) in range(3):  #!\n        a[0] = 1\n", A),
    ("bytes_and_str", "def k(a):\n    x = b'a' 'b'  #!\n", A),
    ("not_python_operator", "def k(a):\n    a[0] = a[1] === a[2]  #!\n", A),
    ("star_star_no_name@1", "def k(a, **):\n    a[0] = 1\n", A),
    ("param_not_name@1", "def k(a, 3):\n    a[0] = 1\n", A),
    # more semantics
    ("shift_float", "def k(a):\n    a[0] = a[1] << 2  #!\n", A),
    ("bitand_float", "def k(a):\n    a[0] = a[1] & 2  #!\n", A),
    ("none_ordered", "def k(a):\n    if None < 1:  #!\n        a[0] = 1\n", A),
    ("slice_float_bounds", "def k(a):\n    b = a[1.5:]  #!\n", A),
    ("slice_step_var", "def k(a):\n    s = int(a[0])\n    b = a[::s]  #!\n", A),
    ("tuple_slice_step", "def k(a):\n    t = (1, 2, 3)\n    u = t[::2]  #!\n", A),
    ("tuple_two_indices", "def k(a):\n    t = (1, 2, 3)\n    a[0] = t[0, 1]  #!\n", A),
    ("empty_tuple_index", "def k(a):\n    t = ()\n    a[0] = t[0]  #!\n", A),
    ("default_not_const@1", "def k(a, b=a):\n    a[0] = 1\n", A),
    ("kernel_too_many_args@1", "def k(a, b=1):\n    a[0] = 1\n", "void(float32[::1], int64, int64)"),
    ("assign_param_array", "def k(a):\n    if a[0] > 0:\n        a = 1.0  #!\n    a[0] = 1\n", A),
    ("ufunc_no_args", "def k(a):\n    a[0] = max(a)  #!\n", A),
    ("shared_not_pow2_align", "def k(a):\n    s = cuda.shared.array(4, dtype=np.float32, alignment=3)  #!\n", A),
    ("local_array_of_records_shape", "def k(a):\n    s = cuda.local.array((2, 2.0), dtype=np.float32)  #!\n", A),
    ("atomic_local", "def k(a):\n    s = cuda.local.array(4, dtype=np.int32)\n    cuda.atomic.add(s, 0, 1)  #!\n", A),
    ("selp_arrays", "def k(a):\n    x = cuda.selp(a[0] > 0, a, a)  #!\n", A),
    ("warp_float_mask", "def k(a):\n    a[0] = cuda.ballot_sync(1.5, True)  #!\n", A),
    ("math_isqrt_complex", "def k(a):\n    a[0] = math.floor(1j)  #!\n", A),
    ("math_ldexp_float", "def k(a):\n    a[0] = math.ldexp(1.0, 2.5)  #!\n", A),
    ("gcd_float", "def k(a):\n    a[0] = math.gcd(1.5, 2)  #!\n", A),
    ("math_two_or_three", "def k(a):\n    a[0] = math.log(1.0, 2.0, 3.0)  #!\n", A),
    ("round_complex", "def k(a):\n    a[0] = round(1j)  #!\n", A),
    ("float_of_tuple", "def k(a):\n    t = (1, 2)\n    a[0] = float(t)  #!\n", A),
    ("print_many", "def k(a):\n    print(" + ", ".join(["a[0]"] * 70) + ")  #!\n", A),
    ("np_func_kernel", "def k(a):\n    b = np.zeros_like(a)  #!\n", A),
    ("const_array_like_kw", "def k(a):\n    c = cuda.const.array_like(ary=a)  #!\n", A),
]

COMPILE_OPTS = {"fastmath": False, "debug": False, "lineinfo": False, "opt": True, "max_registers": 0}


def compile_text(name, text, sig, extra=None):
    """Compiles one function from its source text; the TypingError's message.
    extra (see tests/errcat_compiler.py) adds globals, device functions (the
    other defs of the text), the CPU target, options or another name."""
    extra = extra or {}
    if not _dispatcher._table_ready:
        _dispatcher._build_resolve_table()
    import math
    g = {"cuda": cuda, "np": np, "numpy": np, "math": math}
    g.update(extra.get("globals", {}))
    fname = "catalogue_%s.py" % name.split("@")[0]
    names = re.findall(r"^def (\w+)\(", text, re.M)
    if len(names) > 1:
        ns = dict(g)
        exec(compile(text, fname, "exec"), ns)
        for n in names:
            if n != "k":
                sig_n = extra.get("devsig", {}).get(n)
                d = cuda.jit(sig_n, device=True)(ns[n]) if sig_n else cuda.jit(device=True)(ns[n])
                d._source = (text, fname, 1, 0)       # the text itself, not inspect's
                g[n] = ns[n] = d
    opts = dict(COMPILE_OPTS)
    cpu = bool(extra.get("cpu"))
    if cpu:
        opts.update(target_cpu=True, sim=True)
    opts.update(extra.get("opts", {}))
    info = (extra.get("name", "k"), text, fname, 1, 0, g, {}, {}, cpu, None, False)
    try:
        if extra.get("infer"):
            _core.infer_return(info, sig)
        else:
            _core.compile(info, sig, opts)
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


ALL_TRIGGERS = [t if len(t) == 4 else t + (None,) for t in TRIGGERS + errcat_compiler.TRIGGERS]


def want_line(name, text):
    if "@" in name:
        return int(name.split("@")[1])
    return [i for i, l in enumerate(text.split("\n"), 1) if "#!" in l][0]


@pytest.mark.parametrize("name,text,sig,extra", ALL_TRIGGERS, ids=[t[0] for t in ALL_TRIGGERS])
def test_compile_error(name, text, sig, extra):
    fname, msg = compile_text(name, text, sig, extra)
    assert msg is not None, "no error for:\n" + text
    if fname.startswith("catalogue_sig"):
        text = sig
    proper = check_located(fname, text, msg, want_line(name, text))
    assert formats_of(proper), "the message matches no err_at() format in src/: %r" % proper


@pytest.mark.parametrize("fmt", sorted(errcat_compiler.UNREACHABLE))
def test_unreachable_message_is_preempted(fmt):
    """A message no input reaches: the input that would reach it gets the
    earlier check's message (or compiles, or fails in Python) instead."""
    why, trig, instead = errcat_compiler.UNREACHABLE[fmt]
    assert fmt in FORMATS, "UNREACHABLE lists a message that is gone from src/: %r" % fmt
    assert why
    name, text, sig = trig[:3]
    extra = trig[3] if len(trig) > 3 else None
    if isinstance(instead, tuple):
        with pytest.raises(getattr(__builtins__, instead[0], None) or Exception) as e:
            compile_text(name, text, sig, extra)
        assert type(e.value).__name__ == instead[0] and instead[1] in str(e.value), e.value
        return
    fname, msg = compile_text(name, text, sig, extra)
    if instead is None:
        assert msg is None, msg
        return
    assert msg is not None, "no error for:\n" + text
    proper = check_located(fname, text, msg, want_line(name, text))
    got = formats_of(proper)
    assert instead in got and fmt not in got, (proper, got)


def _ptxjitc():
    for p in (os.environ.get("PTXJITC"), os.path.join(ROOT, "build", "ptxjitc")):
        if p and os.access(p, os.X_OK):
            return p
    return None


@pytest.mark.parametrize("name,data,line", errcat_compiler.CLI_TRIGGERS,
                         ids=[t[0] for t in errcat_compiler.CLI_TRIGGERS])
def test_cli_error(name, data, line, tmp_path):
    """Bytes Python never hands the compiler (a NUL, invalid UTF-8): the
    ptxjitc command reads files as they are."""
    import subprocess
    exe = _ptxjitc()
    if not exe:
        pytest.skip("no ptxjitc built (make all, or set PTXJITC)")
    path = tmp_path / ("%s.py" % name)
    path.write_bytes(data)
    p = subprocess.run([exe, path.name, "--kernel", "k", "--sig", "void(float32[::1])", "-o", os.devnull],
                       cwd=str(tmp_path), capture_output=True, timeout=60)
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == 1, err
    first = err.split("\n")[0]
    m = re.match(r"^%s:(\d+):(\d+): error: (.*)$" % re.escape(path.name), first)
    assert m and int(m.group(1)) == line, err
    assert "^" in err and "\nhint: " in err, err
    assert formats_of(m.group(3)), err


def test_golden_errors_are_err_at_messages():
    """Every golden error file's message comes from a format in src/
    (tests/golden/run.py checks its exact text, location and caret)."""
    gold = golden_messages()
    assert len(gold) >= 50
    unknown = {g: m for g, m in gold.items() if not formats_of(m)}
    assert not unknown, unknown


CLI_FORMATS = {
    "source contains a null byte",
    "invalid UTF-8 byte 0x%02x in source",
}


def test_every_compiler_message_is_catalogued():
    covered = set()
    for m in golden_messages().values():
        covered.update(formats_of(m))
    for name, text, sig, extra in ALL_TRIGGERS:
        _, msg = compile_text(name, text, sig, extra)
        if msg:
            covered.update(formats_of(msg.split("\n")[0].split(": error: ", 1)[-1]))
    unreachable = set(errcat_compiler.UNREACHABLE)
    assert not (unreachable & covered), ("UNREACHABLE lists messages that a trigger reaches:\n"
                                         + "\n".join(sorted(unreachable & covered)))
    assert CLI_FORMATS <= set(FORMATS), CLI_FORMATS - set(FORMATS)
    covered |= CLI_FORMATS
    missing = sorted(f for f in FORMATS if f not in covered and f not in NOT_YET_TRIGGERED and f not in unreachable)
    assert not missing, (
        "err_at() messages that no trigger in tests/test_error_catalogue.py (or tests/errcat_compiler.py) and "
        "no golden in tests/golden/errors covers (add one):\n"
        + "\n".join("  %s: %r" % (FORMATS[f], f) for f in missing))
    stale = sorted(f for f in NOT_YET_TRIGGERED if f in covered or f in unreachable or f not in FORMATS)
    assert not stale, ("NOT_YET_TRIGGERED lists messages that are now covered or gone; remove them:\n"
                       + "\n".join("  %r" % f for f in stale))
    print("compiler messages: %d formats, %d triggered (goldens, triggers, ptxjitc), %d unreachable, "
          "%d not yet triggered" % (len(FORMATS), len(covered & set(FORMATS)), len(unreachable),
                                    len(NOT_YET_TRIGGERED)))


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
    # NumPy scalars that are no numbers: their buffers are bytes (format
    # "B"), which once passed them for uint8 values
    for v in (np.datetime64("2020-01-01"), np.timedelta64(5, "s")):
        _raises(TypeError, lambda: _store[1, 8](a, v), "_store", "argument 2",
                "NumPy scalar of a dtype kernels do not take", type(v).__name__)
    _raises(TypeError, lambda: _store[1, 8](a, np.bytes_(b"x")), "_store", "argument 2", "string")


_DATE = np.datetime64("2020-01-01")


@cuda.jit
def _uses_date(a):
    a[0] = _DATE


def test_numpy_scalar_global_that_is_no_number():
    """A global datetime64 is no constant a kernel can use (its buffer's
    byte once made it a uint8)."""
    msg = _raises(Exception, lambda: _uses_date[1, 1](np.zeros(1)), "_DATE", "datetime64")
    assert "test_error_catalogue.py" in msg, msg


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


# ------------------------------------- the runtime's and simulator's catalogue
#
# tests/errcat_runtime.py reads every message that src/py, src/rt, src/sim
# and python/ptxjit raise, and holds the triggers.  A new message fails
# test_every_runtime_message_is_catalogued until a trigger gives it (or it
# is listed as GPU-only, internal, or not yet triggered).

import errcat_runtime  # noqa: E402
from ptxjit import cpu as _cpu  # noqa: E402

RT_FORMATS = errcat_runtime.runtime_formats()
RT_REGEXES = {f: errcat_runtime.message_regex(f) for f in RT_FORMATS}


def runtime_formats_of(message):
    hits = [f for f, r in RT_REGEXES.items() if r is not None and r.search(message)]
    best = max((errcat_runtime.literal_len(f) for f in hits), default=0)
    return [f for f in hits if errcat_runtime.literal_len(f) == best]


def _fire(trig):
    """Runs a trigger; (exception, message)."""
    fn = trig[1]
    try:
        fn()
        cuda.synchronize()
    except Exception as e:          # noqa: BLE001 - the point is the message
        return e, str(e)
    return None, None


def _check_trigger(trig):
    name, fn, cls, words = trig[:4]
    e, msg = _fire(trig)
    assert e is not None, "%s raised nothing" % name
    assert cls == "Exception" or type(e).__name__ == cls, "%s: %s: %s" % (name, type(e).__name__, msg)
    missing = [w for w in words if w not in msg]
    assert not missing, "%s: %r not in %r" % (name, missing, msg)
    found = runtime_formats_of(msg) + list(trig[4] if len(trig) > 4 else [])
    assert found, "%s: the message matches no format in the sources: %r" % (name, msg)
    return found


@pytest.mark.parametrize("trig", errcat_runtime.TRIGGERS, ids=[t[0] for t in errcat_runtime.TRIGGERS])
def test_runtime_message(trig):
    _check_trigger(trig)


@pytest.mark.skipif(ON_GPU, reason="messages of the simulator")
@pytest.mark.parametrize("trig", errcat_runtime.SIM_TRIGGERS, ids=[t[0] for t in errcat_runtime.SIM_TRIGGERS])
def test_simulator_message(trig):
    _check_trigger(trig)


_CHILD = {}


def _child_results():
    """{case: [class, message] | None | "no cc"} of tests/errcat_child.py,
    run once per session in a fresh interpreter on the simulator."""
    if not _CHILD:
        import json
        import subprocess
        import sys
        here = os.path.dirname(os.path.abspath(__file__))
        pkg = os.path.dirname(os.path.dirname(os.path.abspath(cuda.__file__)))
        env = dict(os.environ, PTXJIT_SIM="1", PTXJIT_SIM_CHECK="",
                   PYTHONPATH=here + os.pathsep + os.path.dirname(pkg))
        for k in ("PTXJIT_TEST_GPU", "PTXJIT_SIM_FAULT", "PTXJIT_CC", "PTXJIT_CACHE_DIR"):
            env.pop(k, None)
        p = subprocess.run([sys.executable, "-c", "import errcat_child; errcat_child.main()"], env=env,
                           capture_output=True, text=True, timeout=300, cwd=here)
        line = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
        assert p.returncode == 0 and line, "tests/errcat_child.py failed (%d):\n%s" % (p.returncode, p.stderr[-3000:])
        _CHILD.update(json.loads(line[-1][7:]))
    return _CHILD


def _check_child_trigger(trig):
    name, cls, words = trig[:3]
    res = _child_results()[name]
    if res == "no cc":
        pytest.skip("no C compiler: @njit runs on the interpreter, which has no cache")
    assert res is not None, "%s raised nothing" % name
    assert res[0] == cls, "%s: %s" % (name, res)
    missing = [w for w in words if w not in res[1]]
    assert not missing, "%s: %r not in %r" % (name, missing, res[1])
    found = runtime_formats_of(res[1]) + list(trig[3] if len(trig) > 3 else [])
    assert found, "%s: the message matches no format in the sources: %r" % (name, res[1])
    return found


@pytest.mark.skipif(ON_GPU, reason="messages of the simulator (and of @njit)")
@pytest.mark.parametrize("trig", errcat_runtime.CHILD_TRIGGERS, ids=[t[0] for t in errcat_runtime.CHILD_TRIGGERS])
def test_runtime_message_in_a_child(trig):
    _check_child_trigger(trig)


_GPU_CHILD = {}


def _gpu_child_results():
    """{case: [class, message] | None} of tests/errcat_gpu_child.py on the
    fake CUDA driver (built here), or None without a C compiler."""
    if not _GPU_CHILD:
        import json
        import shutil
        import subprocess
        import sys
        import tempfile
        cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if not cc:
            return None
        here = os.path.dirname(os.path.abspath(__file__))
        pkg = os.path.dirname(os.path.dirname(os.path.abspath(cuda.__file__)))
        work = tempfile.mkdtemp(prefix="errcat_fake_cuda_")
        try:
            libs = {}
            for variant, flags in (("", []), ("old", ["-DFAKE_OLD_DRIVER"]), ("nolink", ["-DFAKE_NO_LINKER"])):
                libs[variant] = os.path.join(work, "libcuda_fake%s.so" % variant)
                subprocess.run([cc, "-shared", "-fPIC", "-O1", "-pthread"] + flags + [
                    "-o", libs[variant], os.path.join(here, "fake_cuda", "fake_libcuda.c")], check=True)
            so = libs[""]
            for part, lib in (("cases", so), ("init", so), ("no_device", so), ("old_driver", libs["old"]),
                              ("no_linker", libs["nolink"]), ("no_driver", "/nonexistent/libcuda.so")):
                env = dict(os.environ, PTXJIT_SIM="0", PTXJIT_LIBCUDA=lib, PTXJIT_CACHE_DIR=work,
                           PYTHONPATH=here + os.pathsep + os.path.dirname(pkg))
                for k in ("PTXJIT_TEST_GPU", "PTXJIT_SIM_CHECK", "PTXJIT_RESET_ON_FAULT", "PTXJIT_TRANSFER",
                          "FAKE_CUDA_FAIL"):
                    env.pop(k, None)
                p = subprocess.run([sys.executable, "-c", "import errcat_gpu_child as m; m.main(%r)" % part],
                                   env=env, capture_output=True, text=True, timeout=300, cwd=here)
                line = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
                assert p.returncode == 0 and line, "tests/errcat_gpu_child.py %s failed (%d):\n%s" % (
                    part, p.returncode, p.stderr[-3000:])
                _GPU_CHILD.update(json.loads(line[-1][7:]))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return _GPU_CHILD


@pytest.mark.skipif(ON_GPU, reason="the fake driver stands in for the GPU on the simulator's run")
@pytest.mark.parametrize("trig", errcat_runtime.GPU_CHILD_TRIGGERS,
                         ids=[t[0] for t in errcat_runtime.GPU_CHILD_TRIGGERS])
def test_gpu_message_on_the_fake_driver(trig):
    name, part, cls, words, fmts = trig
    res = _gpu_child_results()
    if res is None:
        pytest.skip("no C compiler to build the fake driver")
    r = res[name]
    assert r is not None, "%s raised nothing" % name
    assert r[0] == cls, "%s: %s" % (name, r)
    missing = [w for w in words if w not in r[1]]
    assert not missing, "%s: %r not in %r" % (name, missing, r[1])
    for f in fmts:
        assert f in RT_FORMATS, "%s names a format the sources do not have: %r" % (name, f)
        assert RT_REGEXES[f] is None or RT_REGEXES[f].search(r[1]), "%s: %r does not give %r" % (name, f, r[1])


def runtime_coverage():
    """(formats the triggers give, formats not triggered for want of a C
    compiler): the triggers here, in tests/errcat_child.py and, on the
    fake CUDA driver, in tests/errcat_gpu_child.py."""
    R = errcat_runtime
    covered, no_cc = set(), set()
    for trig in R.TRIGGERS + R.SIM_TRIGGERS:
        try:
            e, msg = _fire(trig)
        except pytest.skip.Exception:         # a trigger that needs what this machine lacks
            continue
        if e is not None:
            covered.update(runtime_formats_of(msg))
            covered.update(trig[4] if len(trig) > 4 else [])
    res = _child_results()
    if not _cpu._compiler():
        no_cc = set(R.NEEDS_CC)
    for trig in R.CHILD_TRIGGERS:
        r = res.get(trig[0])
        if r is not None and r != "no cc":
            covered.update(runtime_formats_of(r[1]))
            covered.update(trig[3] if len(trig) > 3 else [])
    gpu = _gpu_child_results()
    for name, _, cls, _, fmts in R.GPU_CHILD_TRIGGERS:
        if gpu is None:
            no_cc.update(fmts)
        elif gpu.get(name) is not None and gpu[name][0] == cls:
            covered.update(fmts)
    return covered, no_cc


@pytest.mark.skipif(ON_GPU, reason="the catalogue is counted on the simulator")
def test_every_runtime_message_is_catalogued():
    """Every message the runtime and the simulator raise is given by a
    trigger, or listed (with the reason) as GPU-only, internal, or
    triggered by another test of this file."""
    R = errcat_runtime
    covered, no_cc = runtime_coverage()
    for fmt, test in R.COVERED_ELSEWHERE.items():
        assert callable(globals().get(test)), test
        covered.add(fmt)
    listed = {"GPU_ONLY": set(R.GPU_ONLY), "INTERNAL": set(R.INTERNAL)}
    missing = sorted(f for f in RT_FORMATS
                     if f not in covered and f not in no_cc and not any(f in v for v in listed.values()))
    assert not missing, ("runtime/simulator messages that no trigger in tests/errcat_runtime.py gives and no "
                         "list there names (add a trigger):\n"
                         + "\n".join("  %s: %r" % (RT_FORMATS[f], f) for f in missing))
    stale = sorted("%s: %r" % (k, f) for k, v in listed.items() for f in v if f not in RT_FORMATS)
    assert not stale, "lists name messages that are gone; remove them:\n" + "\n".join(stale)
    both = sorted("%s: %r" % (k, f) for k, v in listed.items() for f in v if f in covered)
    assert not both, "lists name messages that a trigger gives; remove them:\n" + "\n".join(both)
    n = len(RT_FORMATS)
    print("runtime and simulator messages: %d formats, %d triggered, %d GPU-only, %d internal%s"
          % (n, len(covered & set(RT_FORMATS)), len(R.GPU_ONLY), len(R.INTERNAL),
             ", %d not triggered for want of a C compiler" % len(no_cc) if no_cc else ""))


# What errcat_runtime.INTERNAL says of two messages, shown.

@njit
def _n_tail(a):
    return a[1:]


def test_njit_view_of_a_readonly_array_is_readonly():
    """An @njit function's result that is a view of a read-only argument
    is read-only too (it was writable, and wrote into the argument); the
    buffer under it refuses a writable view, which Python's callers tell
    in their own words."""
    import struct
    ro = np.arange(4.0)
    ro.setflags(write=False)
    r = _n_tail(ro)
    assert np.shares_memory(r, ro) and not r.flags.writeable
    with pytest.raises(ValueError):
        r[0] = 5.0
    assert ro.tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="read-write"):
        struct.pack_into("d", getattr(r.base, "obj", r.base), 0, 1.0)
    w = _n_tail(np.arange(4.0))
    assert w.flags.writeable


def test_ufunc_outputs_do_not_change():
    """A function over arrays returns as many values for every argument
    type: its closure (and globals) are frozen at its first compile."""
    from ptxjit import vectorize

    def make():
        out = (1.0, 2.0)

        def f(x):
            return out

        def change(v):
            nonlocal out
            out = v
        return f, change
    f, change = make()
    u = vectorize(target="cuda")(f)
    assert len(u(np.zeros(3))) == 2
    change(3.0)
    r = u(np.zeros(3, np.int32))
    assert len(r) == 2 and u.nout == 2


# ----------------------------------------------------- simulator messages

sim_only = pytest.mark.skipif(ON_GPU, reason="messages of the simulator")


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
def test_sim_uninitialised_read(tmp_path):
    res = _sim_child("a = np.zeros(64, np.float32)\nsimkern.uninit[1, 64](a)", "uninit", tmp_path)
    assert res[0] == "UninitializedReadError", res
    assert "uninitialised shared memory" in res[1] and "byte 0" in res[1] and "simkern.py:" in res[1], res


@sim_only
def test_sim_race(tmp_path):
    res = _sim_child("a = np.zeros(8, np.float32)\nsimkern.race[1, 8](a)", "race", tmp_path)
    assert res[0] == "RaceError", res
    assert "race on shared memory" in res[1] and "cuda.syncthreads()" in res[1] and "simkern.py:" in res[1], res


@sim_only
def test_sim_memory_guard(tmp_path):
    # a miscompiled address (PTXJIT_SIM_FAULT moves race's global store, src/sim/prepare.c)
    body = "import os\nos.environ['PTXJIT_SIM_FAULT'] = 'store1:%d'\n" % (1 << 40) + \
           "a = np.zeros(8, np.float32)\nsimkern.race[1, 8](a)"
    res = _sim_child(body, "", tmp_path)
    assert res[0] == "SimulatorError", res
    assert res[1].startswith("ptxjit internal error: the simulator caught a store from address 0x"), res
    assert "outside every array of kernel 'race'" in res[1] and "simkern.py:" in res[1], res
    assert "please report" in res[1], res


# Compiler messages no trigger or golden covers yet (by their format text).
# Keep it empty: a new err_at() message gets a trigger (or a golden), or,
# when an earlier check always pre-empts it, an entry in
# errcat_compiler.UNREACHABLE that names that check.
NOT_YET_TRIGGERED = {
    "from_buffer() of an array of records is not supported",   # test_pointers.py covers numbers only
}
