"""The runtime's and the simulator's user-facing messages, read from the
sources, for tests/test_error_catalogue.py.

runtime_formats() returns {format: "file:line"} for every message that
src/py, src/rt, src/sim and python/ptxjit raise:
  - C: PyErr_SetString/PyErr_Format (src/py), rt_fail/rt_fail_rt and
    the driver-call wrapper CHECK(call, format, ...) (src/rt),
    fail/bad_launch/stack_fail (src/sim) with a literal format, and
    snprintf straight into an error's text (X->msg, X->msg + n: whole
    messages and parts appended to one) in all three;
  - Python: raise SomeError("literal" ...) (implicitly concatenated
    literals, %-formats and f-strings, whose {fields} read as %s).
A message made elsewhere (raise X(msg), PyErr_SetString(exc, buf)) is
listed as "<dynamic FILE:LINE>" so that it, too, must be catalogued.
"""

import ast
import glob
import os
import re

from test_error_catalogue import _c_calls, _literal, ROOT

C_SITES = [
    ("src/py/*.c", (("PyErr_SetString", 1), ("PyErr_Format", 1))),
    ("src/rt/*.c", (("rt_fail_rt", 3), ("rt_fail", 3), ("CHECK", 1))),
    ("src/sim/*.c", (("fail", 3), ("bad_launch", 1), ("stack_fail", 3))),
]

# Messages written with snprintf straight into an error's text (RtErr.msg,
# PjError.msg, ...): the destination is X->msg, or X->msg + N (a part
# appended to a message made above).
SNPRINTF_DIRS = ("src/py/*.c", "src/rt/*.c", "src/sim/*.c")
MSG_DEST = re.compile(r"^\w+(->|\.)msg\b")


def _py_literal(node, consts=None):
    """The format text of a raise's first argument, or None; a name bound
    to a string at the module's top level (consts) reads as that string."""
    if isinstance(node, ast.Name) and consts and node.id in consts:
        return consts[node.id].replace("{", "{{").replace("}", "}}")
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if isinstance(node, ast.JoinedStr):
        out = ""
        for v in node.values:
            if isinstance(v, ast.Constant):
                out += str(v.value).replace("{", "{{").replace("}", "}}")
            else:
                out += "{}"
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _py_literal(node.left)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _py_literal(node.left), _py_literal(node.right)
        if a is not None or b is not None:
            return (a if a is not None else "{}") + (b if b is not None else "{}")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _py_literal(node.func.value)
    return None


def runtime_formats():
    found = {}
    for pattern, calls in C_SITES:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            rel = os.path.relpath(path, ROOT)
            with open(path) as f:
                text = f.read()
            for name, idx in calls:
                for line, args in _c_calls(text, name):
                    where = "%s:%d" % (rel, line)
                    if len(args) <= idx or args[0].startswith(("const ", "Launch ", "PjError ", "Rt")):
                        continue                      # the definition, not a call
                    if (name, args[0]) == ("CHECK", "call") or args[idx] == "__VA_ARGS__":
                        continue                      # CHECK(call, ...): its definition; its sites are read
                    if args[idx].startswith('"'):
                        found.setdefault(_literal(args[idx]), where)
                    else:
                        found.setdefault("<dynamic %s: %s(%s)>" % (rel, name, ", ".join(args)), where)
    for pattern in SNPRINTF_DIRS:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            rel = os.path.relpath(path, ROOT)
            with open(path) as f:
                text = f.read()
            for line, args in _c_calls(text, "snprintf"):
                if len(args) > 2 and MSG_DEST.match(args[0]) and args[2].startswith('"'):
                    found.setdefault(_literal(args[2]), "%s:%d" % (rel, line))
    for path in sorted(glob.glob(os.path.join(ROOT, "python", "ptxjit", "**", "*.py"), recursive=True)):
        rel = os.path.relpath(path, ROOT)
        with open(path) as f:
            tree = ast.parse(f.read())
        consts = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                  and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
                  for t in n.targets if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call) or not node.exc.args:
                continue
            where = "%s:%d" % (rel, node.lineno)
            lit = _py_literal(node.exc.args[0], consts)
            if lit is None or not lit.strip("{}"):
                found.setdefault("<dynamic %s: %s>" % (rel, ast.unparse(node.exc)), where)
            else:
                found.setdefault("py:" + lit, where)
    return found


CONV = r"%[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t)?([diuxXfFeEgGscpRSUAV%])"


def literal_len(fmt):
    return len(re.sub(CONV + r"|\{\}", "", fmt[3:] if fmt.startswith("py:") else fmt))


def _regex(fmt):
    out, i = "", 0
    while i < len(fmt):
        m = re.match(CONV, fmt[i:])
        if fmt[i] == "%" and m:
            out += "%" if m.group(5) == "%" else "(?s:.*?)"
            i += len(m.group(0))
            continue
        out += re.escape(fmt[i])
        i += 1
    return re.compile(out)


def message_regex(fmt):
    """A regex that finds a format's text in a message (which may wrap it,
    as "kernel 'k': argument 1 ('a'): ..." wraps record errors): C's and
    Python's %-conversions and {fields} match anything.  None for a
    message made elsewhere, or a format that is almost all conversions."""
    if fmt.startswith("<dynamic") or literal_len(fmt) < 8:
        return None
    if fmt.startswith("py:"):
        fmt = fmt[3:]
        parts = re.split(r"(\{\{|\}\}|\{\})", fmt)
        out = ""
        for p in parts:
            if p == "{}":
                out += "%s"
            elif p in ("{{", "}}"):
                out += p[0]
            else:
                out += p.replace("%%", "\x00").replace("%r", "%s").replace("%d", "%s").replace("\x00", "%%")
        fmt = out
    return _regex(fmt)


# ------------------------------------------------------------ triggers
#
# (name, fn, exception class name(s), words the message must contain).
# Every kernel and function here lives in this file, so that messages
# that name a place name errcat_runtime.py.

import numpy as np                                   # noqa: E402

import ptxjit                                        # noqa: E402


class _FakeDeviceArray:
    """Marked as device memory, with a shape that is not a tuple."""
    __cuda_memory__ = True
    shape = [3]


class _NoShape:
    __cuda_memory__ = True
from ptxjit import cuda, njit, vectorize, guvectorize, types as _types   # noqa: E402


@cuda.jit
def k_store(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = v


@cuda.jit
def k_big_shared(a):
    s = cuda.shared.array(40000, dtype=np.float64)
    s[cuda.threadIdx.x] = 1.0
    cuda.syncthreads()
    a[0] = s[0]


@cuda.jit
def k_tuple(a, t):
    a[0] = t[0]


@cuda.jit(["void(float32[::1])", "void(float64[::1])"])
def k_two_sigs(a):
    a[0] = 1


@cuda.jit(["void(float64[::1], int32, float32)", "void(float64[::1], float32, int32)"])
def k_tied_sigs(a, p, q):
    a[0] = p + q


@cuda.jit(device=True)
def d_add(x, y):
    return x + y


@cuda.jit
def k_oob(a, i):
    a[i] = 1.0


@cuda.jit
def k_oob2(a):
    a[cuda.threadIdx.x, 7] = 1.0


@cuda.jit
def k_deadlock(a):
    if cuda.threadIdx.x < 16:
        cuda.syncthreads()
    a[0] = 1.0


@cuda.jit
def k_dyn(a):
    s = cuda.shared.array(0, dtype=np.float32)
    s[cuda.threadIdx.x] = 1.0
    a[cuda.threadIdx.x] = s[cuda.threadIdx.x]


@cuda.jit(debug=True, opt=False)
def k_assert(a):
    assert a[0] > 100, "a[0] is too small"


@cuda.jit
def k_endless(a):
    i = 0
    while a[0] == 0:
        i += 1


@cuda.jit
def k_shfl_mask(a):
    a[cuda.threadIdx.x] = cuda.shfl_sync(1, a[cuda.threadIdx.x], 0)


@cuda.jit
def k_warp_mismatch(a):
    if cuda.threadIdx.x % 2 == 0:
        a[cuda.threadIdx.x] = cuda.shfl_sync(0xffffffff, a[cuda.threadIdx.x], 0)
    else:
        a[cuda.threadIdx.x] = cuda.ballot_sync(0xffffffff, True)


@cuda.jit
def k_barrier_kinds(a):
    if cuda.threadIdx.x == 0:
        cuda.syncthreads()
    else:
        a[0] = cuda.syncthreads_count(1)


@cuda.jit
def k_split_warp(a):
    if cuda.threadIdx.x == 0:
        a[0] = 2.0
        cuda.syncthreads()
    else:
        cuda.syncthreads()
        a[1] = a[0]


@cuda.jit
def k_grid_early(a):
    g = cuda.cg.this_grid()
    if cuda.blockIdx.x == 1:
        return
    g.sync()
    a[0] = 1.0


@cuda.jit
def k_grid_half(a):
    g = cuda.cg.this_grid()
    if cuda.threadIdx.x == 0:
        return
    g.sync()
    a[0] = 1.0


@cuda.jit
def k_grid_kinds(a):
    if cuda.threadIdx.x == 0:
        cuda.syncthreads()
    else:
        cuda.cg.this_grid().sync()
    a[0] = 1.0


@cuda.jit
def k_recurse_dev(a):
    a[0] = d_fact(int(a[1]))


@cuda.jit("int64(int64)", device=True)
def d_fact(n):
    if n < 2:
        return 1
    return n * d_fact(n - 1)


@njit
def n_add(x, y):
    return x + y


@njit
def n_oob(a, i):
    return a[i]


def _f32(n=8):
    return cuda.device_array(n, np.float32)


def _cai(stream):
    class Foreign:
        def __init__(self):
            self.base = np.zeros(4, np.float32)
            self.__cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (self.base.ctypes.data, False),
                                             "version": 3, "strides": None, "stream": stream}
    return Foreign()


def _recorded_no_timing():
    t0, t1 = cuda.event(timing=False), cuda.event(timing=False)
    t0.record()
    t1.record()
    return cuda.event_elapsed_time(t0, t1)


def _vec_add():
    @vectorize(["float32(float32, float32)"], target="cuda")
    def add(x, y):
        return x + y
    return add


_KEEP = []


def _c_floats():
    """A float32 array kept alive for the carray triggers."""
    _KEEP.append(np.arange(3, dtype=np.float32))
    return _KEEP[-1]


def _gu_sum():
    @guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="cuda")
    def gsum(x, out):
        s = 0.0
        for v in x:
            s += v
        out[0] = s
    return gsum


def _vec_cpu():
    @vectorize(["float64(float64, float64)"])
    def addc(x, y):
        return x + y
    return addc


def _plain_kernel(a, v):
    a[0] = v


class _ExtOne:
    def prepare_args(self, ty, val, stream=0, retr=None):
        return val


class _ExtLies:
    def prepare_args(self, ty, val, stream=0, retr=None):
        return ptxjit.float32, val


def _gu_copy(a, out):
    for i in range(a.shape[0]):
        out[i] = a[i]


def _link_inputs(code):
    from ptxjit.cuda.linkable import link_inputs
    return link_inputs(code, (9, 0))


def _nvrtc_fails():
    import pytest
    from ptxjit.cuda import nvrtc
    if not nvrtc.is_available():
        pytest.skip("libnvrtc is not installed")
    _link_inputs(cuda.CUSource("this is not C", name="bad.cu"))


def _nvrtc_missing():
    import os
    from ptxjit.cuda import nvrtc
    saved, lib = os.environ.get("PTXJIT_NVRTC"), nvrtc._lib
    os.environ["PTXJIT_NVRTC"] = "/nonexistent/libnvrtc.so"
    nvrtc._lib = None
    try:
        _link_inputs(cuda.CUSource("int x;", name="x.cu"))
    finally:
        nvrtc._lib = lib
        if saved is None:
            del os.environ["PTXJIT_NVRTC"]
        else:
            os.environ["PTXJIT_NVRTC"] = saved


def _pickle_local_cpu_ufunc():
    import pickle
    from ptxjit.ufunc_cpu import vectorize as cpu_vectorize

    @cpu_vectorize(["float64(float64)"])
    def u_local(x):
        return x + 1
    return pickle.dumps(u_local)


def _pickle_empty_cell():
    import pickle

    def d_later():
        return later_value      # noqa: F821
    k = cuda.jit(device=True)(d_later)
    pickle.dumps(k)
    later_value = 1             # noqa: F841


def _unpickle_other_python():
    from ptxjit import _pickle
    return _pickle._rebuild_function((2, 7), b"", "math", "f_old", "f_old", None, ())


def _no_nvdisasm(fn):
    """fn() where no nvdisasm is found, installed or not."""
    from ptxjit import inspect_html
    k_store.compile("void(float32[::1], float64)")
    found = inspect_html._tool
    inspect_html._tool = lambda name: None if name == "nvdisasm" else found(name)
    try:
        return fn()
    finally:
        inspect_html._tool = found


def _ipc_open_twice():
    h = cuda.IpcHandle(None, bytes(64), 8)
    h._opened = object()
    h.open()


def _emm_old_version():
    class Old(cuda.HostOnlyCUDAMemoryManager):
        def initialize(self):
            pass

        @property
        def interface_version(self):
            return 0
    cuda.set_memory_manager(Old)


def _sim_ipc_handle(pid):
    import struct
    from ptxjit.cuda import ipc
    raw = struct.pack(ipc._SIM_FORMAT, ipc._SIM_MAGIC, pid, 3, 4096).ljust(64, b"\0")
    return cuda.IpcHandle(None, raw, 4096)


SIM = "sim"       # runs on the simulator only (the GPU run skips it)
GPU = "gpu"       # needs a GPU (PTXJIT_TEST_GPU=1)

TRIGGERS = [
    # launch configuration (src/py/config.c)
    ("block_too_large", lambda: k_store[1, 2000](_f32(), 1.0), "CudaLaunchError",
     ["k_store", "2000", "1024", "CUDA_ERROR_INVALID_VALUE"]),
    ("launch_bounds_exceeded", lambda: cuda.jit(launch_bounds=64)(k_store.py_func)[1, 128](_f32(), 1.0),
     "CudaLaunchError", ["k_store", "128 threads", "launch_bounds allow at most 64", "CUDA_ERROR_INVALID_VALUE"]),
    ("opt_level_bad", lambda: cuda.config._OptLevel(7), "ValueError", ["optimisation level", "'max'", "7"]),
    ("launch_bounds_too_long", lambda: cuda.jit(launch_bounds=(128, 2, 4, 8))(k_store.py_func), "ValueError",
     ["k_store", "Got 4 launch bounds", "(128, 2, 4, 8)"]),
    ("launch_bounds_type", lambda: cuda.jit(launch_bounds="64")(k_store.py_func), "TypeError",
     ["k_store", "launch_bounds", "'64'"]),
    ("launch_bounds_range", lambda: cuda.jit(launch_bounds=(4096, 1))(k_store.py_func), "ValueError",
     ["k_store", "(4096, 1)", "1 to 1024"]),
    ("fastmath_flag", lambda: cuda.jit(fastmath={"fastt"})(k_store.py_func), "ValueError",
     ["k_store", "Unrecognized fastmath flags", "'fastt'", "arcp"]),
    ("fastmath_value", lambda: cuda.jit(fastmath="yes")(k_store.py_func), "ValueError",
     ["k_store", "fastmath is True, False, or a set or dict", "'yes'"]),
    ("launch_bounds_count", lambda: cuda.jit(launch_bounds=(128, 2, 4, 8))(k_store.py_func), "ValueError",
     ["k_store", "Got 4 launch bounds", "A maximum of three"]),
    ("compile_ptx_cc_shape", lambda: cuda.compile_ptx(k_store.py_func, "void(float32[::1], float32)", cc=90),
     "ValueError", ["cc is a compute capability", "(major, minor, 'a')", "90"]),
    ("compile_ptx_cc_variant", lambda: cuda.compile_ptx(k_store.py_func, "void(float32[::1], float32)",
                                                        cc=(8, 0, "a")),
     "ValueError", ["cc=(8, 0, 'a')", "sm_90a and later", "sm_100f"]),
    ("grid_zero", lambda: k_store[0, 32](_f32(), 1.0), "ValueError", ["k_store", "at least 1"]),
    ("grid_four_dims", lambda: k_store[(1, 1, 1, 1), 32](_f32(), 1.0), "ValueError", ["k_store", "4 dimensions"]),
    ("grid_float", lambda: k_store[1.5, 32](_f32(), 1.0), "TypeError", ["k_store", "grid", "float"]),
    ("grid_holds_str", lambda: k_store[(1, "x"), 32](_f32(), 1.0), "TypeError", ["k_store", "str"]),
    ("block_z_too_large", lambda: k_store[1, (1, 1, 128)](_f32(), 1.0), "CudaLaunchError",
     ["k_store", "dimension z", "CUDA_ERROR_INVALID_VALUE"]),
    ("grid_y_too_large", lambda: k_store[(1, 70000), 1](_f32(), 1.0), "CudaLaunchError",
     ["k_store", "grid dimension y", "CUDA_ERROR_INVALID_VALUE"]),
    ("config_one_element", lambda: k_store[1](_f32(), 1.0), "ValueError", ["k_store", "[grid, block]"]),
    ("shared_bytes_str", lambda: k_store[1, 8, 0, "x"](_f32(), 1.0), "TypeError", ["k_store", "bytes"]),
    ("shared_bytes_negative", lambda: k_store[1, 8, 0, -5](_f32(), 1.0), "ValueError", ["k_store", "-5"]),
    ("shared_bytes_huge", lambda: k_store[1, 8, 0, 1 << 40](_f32(), 1.0), "ValueError", ["k_store", "at most 2**31-1"]),
    ("config_stream_str", lambda: k_store[1, 8, "s"](_f32(), 1.0), "TypeError",
     ["kernel 'k_store': stream must be", "str"], ["kernel '%s': %U"]),
    ("arg_datetime", lambda: k_store[1, 8](_f32(), np.datetime64("2020-01-01")), "TypeError",
     ["k_store", "argument 2", "NumPy scalar of a dtype kernels do not take", "datetime64"]),
    ("no_launch_config", lambda: k_store(_f32(), 1.0), "ValueError", ["k_store", "k_store[blocks, threads]"]),
    ("device_fn_launched", lambda: d_add[1, 1](1, 2), "RuntimeError", ["Cannot compile a device function as a kernel", "d_add"]),
    ("device_fn_called", lambda: d_add(1, 2), "TypeError", ["d_add", "call it from a kernel"]),
    ("too_much_shared", lambda: k_big_shared[1, 32](cuda.device_array(1, np.float64)), "Exception",
     ["k_big_shared", "320000"]),
    ("dynamic_shared_too_large", lambda: k_store[1, 8, 0, 1 << 30](_f32(), 1.0), "Exception", ["k_store", "shared"]),
    # Numba's API spellings (python/ptxjit/__init__.py, types.py, cuda/dispatcher.py)
    ("as_dtype_of_an_array_type", lambda: ptxjit.as_dtype(ptxjit.float32[::1]), "NotImplementedError",
     ["has no NumPy dtype", "as_dtype takes number types"]),
    ("underlying_float_of_a_real", lambda: ptxjit.float32.underlying_float, "AttributeError",
     ["float32 is not a complex type", "underlying_float"]),
    ("coop_blocks_str", lambda: k_store.compile("void(float32[::1], float64)").max_cooperative_grid_blocks("x"),
     "TypeError", ["blockdim must be an int", "'x'"]),
    ("coop_blocks_too_many", lambda: k_store.compile("void(float32[::1], float64)").max_cooperative_grid_blocks(
        (64, 32)), "ValueError", ["(64, 32)", "1 to 1024 threads"]),
    ("unituple_count", lambda: ptxjit.types.UniTuple(ptxjit.float32, -1), "TypeError",
     ["UniTuple(dtype, count)", "-1"]),
    ("tuple_of_non_types", lambda: ptxjit.types.Tuple([ptxjit.int32, 5]), "TypeError", ["Tuple(types)", "5"]),
    ("cpointer_of_non_type", lambda: ptxjit.types.CPointer("x"), "TypeError", ["CPointer(dtype)", "'x'"]),
    ("record_constructed", lambda: ptxjit.types.Record(), "TypeError", ["structured NumPy dtype", "make_c_struct"]),
    ("make_c_struct_bad_field", lambda: ptxjit.types.Record.make_c_struct([("a", 3)]), "TypeError",
     ["field 'a'", "not a number or record type"]),
    ("compile_all_ltoir", lambda: cuda.compile_all(_plain_kernel, "void(float32[::1], float32)"),
     "NotImplementedError", ["PTX only", "output='ltoir'", "NVVM or nvJitLink", "output='cubin'"]),
    ("compile_output_unknown", lambda: cuda.compile(_plain_kernel, "void(float32[::1], float32)", device=False, output="fatbin"),
     "NotImplementedError", ["Unsupported output type: fatbin", "'ptx' or 'cubin'"]),
    # extensions= (python/ptxjit/cuda/extensions.py, dispatcher.py)
    ("extensions_not_list", lambda: cuda.jit(extensions=object())(_plain_kernel), "TypeError",
     ["extensions=", "a list of objects with a prepare_args method"]),
    ("extensions_device", lambda: cuda.jit(device=True, extensions=[_ExtOne()])(_plain_kernel), "TypeError",
     ["device=True", "no launch of its own"]),
    ("extension_without_method", lambda: cuda.jit(extensions=[object()])(_plain_kernel)[1, 1](_f32(), 1.0),
     "TypeError", ["cuda.jit(extensions=...)", "prepare_args", "has none"]),
    ("extension_returns_one", lambda: cuda.jit(extensions=[_ExtOne()])(_plain_kernel)[1, 1](_f32(), 1.0),
     "TypeError", ["_plain_kernel", "argument 1 ('a')", "must return a tuple (ty, val)"]),
    ("extension_wrong_type", lambda: cuda.jit(extensions=[_ExtLies()])(_plain_kernel)[1, 1](_f32(), 1.0),
     "TypeError", ["_plain_kernel", "argument 1 ('a')", "said its type is", "or None"]),
    # arguments (src/py/launch.c, argclass.c)
    ("arg_str", lambda: k_store[1, 8](_f32(), "x"), "TypeError", ["k_store", "argument 2", "'v'"]),
    ("arg_object", lambda: k_store[1, 8](_f32(), object()), "TypeError", ["k_store", "argument 2"]),
    ("arg_missing", lambda: k_store[1, 8](_f32()), "TypeError", ["k_store", "1 was given"]),
    ("arg_kw", lambda: k_store[1, 8](_f32(), v=1.0), "TypeError", ["k_store", "positional"]),
    ("arg_list", lambda: k_store[1, 8]([1, 2], 1.0), "TypeError", ["k_store", "argument 1", "'a'"]),
    ("arg_big_int", lambda: k_store[1, 8](_f32(), 1 << 70), "ValueError", ["k_store", "int64"]),
    ("arg_object_array", lambda: k_store[1, 8](np.array([None, 1]), 1.0), "TypeError",
     ["k_store", "dtype object"]),
    ("arg_noncontiguous", lambda: k_store[1, 8](np.zeros((8, 8))[:, 0], 1.0), "ValueError",
     ["k_store", "non-contiguous", "ascontiguousarray"]),
    ("arg_too_many_dims", lambda: k_store[1, 8](np.zeros((1,) * 9), 1.0), "ValueError", ["k_store", "9-dimensional"]),
    ("arg_tuple_too_long", lambda: k_tuple[1, 1](_f32(), tuple(range(300))), "ValueError",
     ["k_tuple", "300 elements"]),
    ("no_matching_signature", lambda: k_two_sigs[1, 1](np.zeros(4, np.int8)), "TypeError",
     ["k_two_sigs", "match none"]),
    ("tied_signatures", lambda: k_tied_sigs[1, 1](np.zeros(1), np.int16(1), np.int16(2)), "TypeError",
     ["k_tied_sigs", "ambiguous", "(float64[::1], int32, float32) and (float64[::1], float32, int32)"]),
    ("no_such_signature", lambda: k_two_sigs.inspect_asm("void(int8[::1])"), "KeyError", ["k_two_sigs", "int8"]),
    ("inspect_html_which_signature", lambda: k_two_sigs.inspect_html(os.devnull), "TypeError",
     ["k_two_sigs", "2 compiled signatures", "name one"]),
    # device arrays (src/py/array.c, devicearray.py, api.py)
    ("device_array_negative", lambda: cuda.device_array(-1), "ValueError", ["-1"]),
    ("device_array_object", lambda: cuda.device_array(3, dtype=object), "TypeError", ["object"]),
    ("device_array_order", lambda: cuda.device_array(3, order="X"), "ValueError", ["order", "'X'"]),
    ("device_array_9d", lambda: cuda.device_array((1,) * 9), "ValueError", ["at most"]),
    ("copy_to_host_shape", lambda: cuda.to_device(np.zeros(3)).copy_to_host(np.zeros(4)), "ValueError",
     ["copy_to_host", "(4,)", "(3,)"]),
    ("copy_to_host_list", lambda: cuda.to_device(np.zeros(3)).copy_to_host([0, 0, 0]), "TypeError",
     ["copy_to_host", "list"]),
    ("copy_to_host_readonly", lambda: cuda.to_device(np.zeros(3)).copy_to_host(_readonly(3)), "ValueError",
     ["read-only"]),
    ("copy_to_device_shape", lambda: cuda.to_device(np.zeros(4)).copy_to_device(np.zeros(5)), "ValueError",
     ["copy_to_device", "(5,)"]),
    ("copy_to_device_dtype", lambda: cuda.to_device(np.zeros(4)).copy_to_device(np.zeros(4, np.int32)), "TypeError",
     ["copy_to_device", "int32", "float64"]),
    ("device_record_plain_dtype", lambda: _devrec().DeviceRecord(np.float64), "TypeError",
     ["DeviceRecord", "float64", "structured"]),
    ("device_record_to_host_array", lambda: _devrec().DeviceRecord(_REC).copy_to_host(np.zeros(1, _REC)),
     "TypeError", ["copy_to_host", "NumPy record", "ndarray"]),
    ("device_record_from_other_dtype", lambda: _devrec().DeviceRecord(_REC).copy_to_device(np.float64(1)),
     "TypeError", ["copy_to_device", "float64"]),
    ("device_record_no_field", lambda: cuda.to_device(np.zeros(2, _REC))[0]["z"], "KeyError",
     ["no field 'z'", "a, b"]),
    ("index_two_ellipsis", lambda: cuda.device_array((2, 2))[..., ...], "IndexError", ["ellipsis"]),
    ("index_too_many", lambda: cuda.device_array(2)[0, 0], "IndexError", ["1-dimensional", "2"]),
    ("index_float", lambda: cuda.device_array(2)[1.5], "TypeError", ["float"]),
    ("index_out_of_bounds", lambda: cuda.device_array(2)[5], "IndexError", ["index 5", "size 2"]),
    ("reshape_two_unknown", lambda: cuda.device_array(4).reshape(-1, -1), "ValueError", ["unknown"]),
    ("reshape_size", lambda: cuda.device_array(4).reshape(3), "ValueError", ["size 4", "(3,)"]),
    ("reshape_order", lambda: cuda.device_array(4).reshape(2, 2, order="X"), "ValueError", ["order"]),
    ("reshape_noncontiguous", lambda: cuda.device_array((4, 4))[:, ::2].reshape(8), "NotImplementedError",
     ["contiguous"]),
    ("transpose_axes", lambda: cuda.device_array((2, 3)).transpose((0, 0, 1)), "ValueError", ["axes"]),
    ("transpose_repeated_axis", lambda: cuda.device_array((2, 3)).transpose((1, 1)), "ValueError",
     ["repeated axis"]),
    ("transpose_axis_out_of_bounds", lambda: cuda.device_array((2, 3)).transpose((0, 2)), "AxisError",
     ["axis 2", "dimension 2"], ["<dynamic python/ptxjit/cuda/devicearray.py: _axis_error(a, self.ndim)>"]),
    ("view_itemsize_0d", lambda: cuda.device_array((), np.float32).view(np.float64), "ValueError",
     ["0d array", "itemsize"]),
    ("view_itemsize_strided", lambda: cuda.device_array((4, 4), np.float32)[:, ::2].view(np.float64), "ValueError",
     ["different size", "last axis must be contiguous"]),
    ("view_itemsize_larger", lambda: cuda.device_array((4, 3), np.float32).view(np.float64), "ValueError",
     ["larger dtype", "divisor"]),
    ("view_itemsize_smaller", lambda: cuda.device_array(4, "V3").view(np.int16), "ValueError",
     ["smaller dtype", "divisor"]),
    ("split_2d", lambda: cuda.device_array((2, 2)).split(1), "ValueError", ["split", "1-d"]),
    ("len_0d", lambda: len(cuda.device_array(())), "TypeError", ["len()", "0-d"]),
    ("ipc_short_handle", lambda: cuda.IpcHandle(None, b"short", 8), "ValueError", ["IPC handle", "64", "5"]),
    ("ipc_no_elements", lambda: cuda.device_array(0).get_ipc_handle(), "ValueError", ["get_ipc_handle", "no elements"]),
    ("ipc_open_twice", _ipc_open_twice, "ValueError", ["already opened"]),
    ("ipc_array_too_big", lambda: cuda.IpcHandle(None, bytes(64), 8).open_array(None, 100, np.float64),
     "ValueError", ["open_ipc_array", "800 bytes", "8 bytes"]),
    ("emm_not_a_class", lambda: cuda.set_memory_manager(object), "TypeError",
     ["set_memory_manager", "BaseCUDAMemoryManager"]),
    ("emm_old_version", _emm_old_version, "RuntimeError", ["Old", "interface version 0", "version 1"]),
    ("emm_no_context", lambda: cuda.HostOnlyCUDAMemoryManager(), "RuntimeError", ["requires a context"]),
    ("mapped_array_negative", lambda: cuda.mapped_array((2, -1)), "ValueError", ["mapped_array", "(2, -1)"]),
    ("managed_array_order", lambda: cuda.managed_array(3, order="K"), "ValueError", ["managed_array", "'K'"]),
    ("mapped_not_numpy", lambda: cuda.mapped([1, 2]).__enter__(), "TypeError", ["cuda.mapped", "list"]),
    ("mapped_strided", lambda: cuda.mapped(np.zeros(8)[::2]).__enter__(), "ValueError",
     ["cuda.mapped", "contiguous", "ascontiguousarray"]),
    ("mapped_copy_no_address", lambda: (cuda.mapped_array(3) + 1).__cuda_array_interface__, "AttributeError",
     ["not on mapped or managed memory", "a copy"]),
    ("as_cuda_array_numpy", lambda: cuda.as_cuda_array(np.zeros(3)), "TypeError", ["__cuda_array_interface__"]),
    ("select_device_1", lambda: cuda.select_device(1), "IndexError", ["there is no CUDA device 1", "device"]),
    ("device_attribute", lambda: cuda.get_current_device().NO_SUCH_ATTRIBUTE, "AttributeError",
     ["NO_SUCH_ATTRIBUTE"]),
    # streams and events (src/py/array.c, stream.c, src/rt/stream.c)
    ("stream_int", lambda: cuda.to_device(np.zeros(3), stream=5), "TypeError", ["stream=5"]),
    ("stream_str", lambda: cuda.to_device(np.zeros(3), stream="s"), "TypeError", ["stream", "str"]),
    ("external_stream_float", lambda: cuda.external_stream(1.5), "TypeError", ["external stream", "float"]),
    ("external_stream_negative", lambda: cuda.external_stream(-3), "ValueError", ["-3", "not a CUstream"]),
    ("callback_not_callable", lambda: cuda.stream().add_callback(42), "TypeError", ["callable", "int"]),
    ("elapsed_unrecorded", lambda: cuda.event_elapsed_time(cuda.event(), cuda.event()), "ValueError",
     ["recorded"]),
    ("elapsed_no_timing", _recorded_no_timing, "ValueError", ["timing=True"]),
    ("elapsed_not_event", lambda: cuda.event().elapsed_time(3), "TypeError", ["event", "int"]),
    ("set_transfer_mode", lambda: ptxjit._core.set_transfer(mode="nope"), "ValueError", ["'nope'", "staged"]),
    ("set_transfer_threads", lambda: ptxjit._core.set_transfer(threads=0), "ValueError", ["threads"]),
    ("set_transfer_too_many_threads", lambda: ptxjit._core.set_transfer(threads=10000), "ValueError",
     ["transfer settings", "threads"]),
    # the dispatcher and cuda.jit (dispatcher.py)
    ("jit_bad_keyword", lambda: cuda.jit(nosuch=1), "TypeError", ["nosuch"]),
    ("jit_boundscheck", lambda: cuda.jit(boundscheck=True)(lambda a: None), "NotImplementedError",
     ["boundscheck", "PTXJIT_SIM=1"]),
    ("jit_link_extension", lambda: cuda.jit(link=["x.txt"]), "ValueError", ["x.txt", ".txt", ".ptx"]),
    ("link_ltoir", lambda: _link_inputs(cuda.LTOIR(b"x", name="f.ltoir")), "NotImplementedError",
     ["f.ltoir", "nvJitLink", "PTX"]),
    ("link_not_code", lambda: cuda.declare_device("f", "int32(int32)", link=[3]), "TypeError", ["link=", "3"]),
    ("declare_no_return_type", lambda: cuda.declare_device("f", "(int32,)"), "TypeError",
     ["Return type", "int32(float32)"]),
    ("declare_tuple_sig", lambda: cuda.declare_device("f", (_types.float32,)),
     "TypeError", ["Return type", "tuple"]),
    ("declare_bad_abi", lambda: cuda.declare_device("f", "int32(int32)", abi="x"), "NotImplementedError",
     ["'x'", "abi='c'"]),
    ("call_extern_from_python", lambda: cuda.declare_device("f", "int32(int32)")(1), "TypeError",
     ["f", "from a kernel"]),
    ("linkable_callbacks", lambda: cuda.PTXSource("", setup_callback=print), "NotImplementedError",
     ["setup_callback"]),
    ("linkable_nrt", lambda: cuda.PTXSource("", nrt=True), "NotImplementedError", ["nrt=True", "NRT"]),
    ("carveout_range", lambda: cuda.jit(shared_memory_carveout=101), "ValueError", ["between -1 and 100", "101"]),
    ("carveout_name", lambda: cuda.jit(shared_memory_carveout="big"), "ValueError", ["Invalid carveout value", "'big'",
                                                                                      "MaxShared"]),
    ("carveout_type", lambda: cuda.jit(shared_memory_carveout=0.5), "TypeError", ["shared_memory_carveout", "0.5"]),
    ("carveout_device", lambda: cuda.jit(device=True, shared_memory_carveout=50), "TypeError",
     ["device=True", "kernels"]),
    ("typeof_unknown", lambda: __import__("ptxjit.typing").typing.typeof(object()), "ValueError",
     ["object", "kernels take numbers"]),
    ("nvrtc_fails", _nvrtc_fails, "NvrtcError", ["NVRTC failed to compile", "bad.cu"]),
    ("no_launch_config", lambda: __import__("ptxjit.cuda.launchconfig").cuda.launchconfig
     .ensure_current_launch_config(), "RuntimeError", ["No launch config", "while a kernel launch compiles"]),
    ("declare_unknown_type", lambda: cuda.declare_device("f", "int32(quaternion)"), "TypeError",
     ["quaternion", "not a type"]),
    ("compile_for_args_keywords", lambda: cuda.jit(lambda a: None)._compile_for_args(a=1), "TypeError",
     ["by position"]),
    ("linkable_setup_not_callable", lambda: cuda.PTXSource("", setup_callback=3), "TypeError",
     ["setup_callback must be callable"]),
    ("linkable_teardown_not_callable", lambda: cuda.PTXSource("", teardown_callback=3), "TypeError",
     ["teardown_callback must be callable"]),
    ("nvrtc_missing", _nvrtc_missing, "NvrtcError", ["libnvrtc", "/nonexistent/libnvrtc.so", "PTXSource"]),
    ("jit_number", lambda: cuda.jit(3), "TypeError", ["3"]),
    ("jit_varkw", lambda: cuda.jit(lambda **a: None), "TypeError", ["**kwargs"]),
    ("jit_bad_signature", lambda: cuda.jit(3.5), "TypeError", ["3.5"]),
    ("pickle_local_cpu_ufunc", _pickle_local_cpu_ufunc, "PicklingError", ["u_local", "define it at module level"]),
    ("pickle_empty_cell", _pickle_empty_cell, "PicklingError", ["d_later", "later_value", "no value yet"]),
    ("unpickle_other_python", _unpickle_other_python, "UnpicklingError", ["f_old", "Python 2.7", "that version"]),
    ("pickle_launch_with_stream", lambda: __import__("pickle").dumps(k_store[1, 32, cuda.stream()]), "PicklingError",
     ["launch configuration", "stream"]),
    ("cache_with_linked_files", lambda: cuda.jit(cache=True, link=["lib.ptx"]), "RuntimeError",
     ["linking files", "cache=True", "link="]),
    ("pickle_launch_with_callbacks", lambda: __import__("pickle").dumps(_with_callback(k_store[2, 32])),
     "PicklingError", ["pre-launch callbacks", "host functions"]),
    ("compile_device_of_kernel", lambda: k_store.compile_device(("int64",)), "TypeError",
     ["k_store", "is a kernel, not a device function", "compile(sig)"]),
    ("inspect_sass_device", lambda: d_add.inspect_sass(), "RuntimeError", ["SASS", "device function"]),
    ("inspect_sass_no_nvdisasm", lambda: _no_nvdisasm(lambda: k_store.inspect_sass()), "RuntimeError",
     ["nvdisasm was not found", "inspect_asm()"]),
    ("specialize_device", lambda: d_add.specialize(1, 2), "TypeError", ["d_add", "device function"]),
    ("forall_negative", lambda: k_store.forall(-1), "ValueError", ["ntasks", "-1"]),
    ("forall_tpb", lambda: k_store.forall(4, tpb=5000), "ValueError", ["tpb", "5000"]),
    ("forall_sharedmem", lambda: k_store.forall(4, sharedmem=-1), "ValueError", ["sharedmem"]),
    ("stub_outside_kernel", lambda: cuda.syncthreads(), "RuntimeError", ["cuda.syncthreads", "kernel"]),
    ("stub_value_outside_kernel", lambda: cuda.threadIdx.x, "RuntimeError", ["cuda.threadIdx", "kernel"]),
    ("cuda_no_attribute", lambda: cuda.no_such_thing, "AttributeError", ["no_such_thing"]),
    ("ptxjit_no_attribute", lambda: ptxjit.no_such_thing, "AttributeError", ["no_such_thing"]),
    # records (cuda/records.py)
    ("record_big_endian", lambda: k_tuple[1, 1](np.zeros(2, np.dtype([("x", ">i4")])), (1,)), "TypeError",
     ["'x'", "big-endian"]),
    ("string_big_endian", lambda: k_tuple[1, 1](np.zeros(2, ">U3"), (1,)), "TypeError", ["big-endian", ">U3"]),
    ("string_no_characters", lambda: k_tuple[1, 1](np.zeros(2, np.dtype([("x", "S0"), ("y", "i4")])), (1,)),
     "TypeError",
     ["no characters", "at least one"]),
    ("record_object_field", lambda: k_tuple[1, 1](np.zeros(2, np.dtype([("x", object)])), (1,)), "TypeError",
     ["'x'"]),
    ("record_bad_name", lambda: k_tuple[1, 1](np.zeros(2, np.dtype([("a b", np.int32)])), (1,)), "TypeError",
     ["'a b'", "identifier"]),
    # types (types.py)
    ("type_slice_step", lambda: _types.float32[::2], "TypeError", ["::1"]),
    ("type_contig_middle", lambda: _types.float32[:, ::1, :], "TypeError", ["::1"]),
    # random (cuda/random.py)
    ("random_negative_n", lambda: cuda.random.create_xoroshiro128p_states(-1, seed=1), "ValueError", ["-1"]),
    ("random_subsequence", lambda: cuda.random.create_xoroshiro128p_states(4, seed=1, subsequence_start=-1),
     "ValueError", ["subsequence_start"]),
    # reduction (cuda/reduction.py)
    ("reduce_2d", lambda: cuda.reduce(lambda a, b: a + b)(np.zeros((2, 2))), "TypeError", ["1-d", "2 dimensions"]),
    # ufuncs (ufunc.py, ufunc_cpu.py)
    ("vectorize_no_signature_match", lambda: _vec_add()(np.zeros(3, np.complex128), np.zeros(3, np.complex128)),
     "TypeError", ["add", "complex128"]),
    ("vectorize_arg_count", lambda: _vec_add()(np.zeros(3, np.float32)), "TypeError", ["add", "1 given"]),
    ("vectorize_broadcast", lambda: _vec_add()(np.zeros(3, np.float32), np.zeros(4, np.float32)), "ValueError",
     ["broadcast", "(3,)", "(4,)"]),
    ("vectorize_bad_target", lambda: vectorize(["float32(float32)"], target="tpu"), "ValueError", ["tpu"]),
    ("vectorize_bad_sig", lambda: vectorize(["float32 float32"], target="cuda")(lambda x: x), "TypeError",
     ["float32 float32"]),
    ("guvectorize_no_layout", lambda: guvectorize(["void(float64[:], float64[:])"], target="cuda"), "TypeError",
     ["layout"]),
    ("guvectorize_bad_layout", lambda: guvectorize(["void(float64[:], float64[:])"], "(n)->", target="cuda")(
        lambda x, o: None), "ValueError", ["(n)->"]),
    ("gufunc_dims", lambda: _gu_sum()(np.float64(3.0)), "ValueError", ["gsum", "dimensions"]),
    ("cpu_ufunc_arg_object", lambda: _vec_cpu()(np.array([None]), 1.0), "TypeError", ["addc"]),
    # @njit (cpu.py, src/py/cpu.c)
    ("njit_arg_str", lambda: n_add("x", 1), "TypeError", ["n_add", "argument 1", "'x'"]),
    ("njit_kw", lambda: n_add(1, y=2), "TypeError", ["n_add", "keyword"]),
    ("njit_arg_count", lambda: n_add(1), "TypeError", ["n_add", "2 positional", "1 was given"]),
    ("njit_big_int", lambda: n_add(1 << 70, 1), "ValueError", ["n_add", "int64"]),
    ("njit_9d", lambda: n_oob(np.zeros((1,) * 9), 0), "ValueError", ["n_oob", "9-dimensional"]),
    ("njit_object_mode", lambda: njit(forceobj=True), "NotImplementedError", ["object mode"]),
    ("njit_bad_keyword", lambda: njit(nosuch=1), "TypeError", ["nosuch"]),
    ("njit_number", lambda: njit(3), "TypeError", ["3"]),
    ("njit_varargs", lambda: njit(lambda *a: None), "TypeError", ["*args"]),
    ("jit_target", lambda: ptxjit.jit(target="tpu"), "ValueError", ["tpu"]),
    # more: ufuncs, device arrays, records, types, the dispatcher
    ("vectorize_bad_option", lambda: vectorize(["float32(float32)"], target="cuda", nosuch=1), "KeyError",
     ["Unrecognized options", "nosuch", "it takes", "fastmath"]),
    ("vectorize_cpu_bad_option", lambda: vectorize(["float32(float32)"], target="cpu", nosuch=1), "TypeError",
     ["vectorize", "unexpected option", "nosuch"]),
    ("guvectorize_bad_option", lambda: guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cuda",
                                                   nosuch=1), "TypeError", ["not supported", "'nosuch'"]),
    ("guvectorize_nopython_false", lambda: guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cuda",
                                                       nopython=False), "TypeError", ["nopython flag must be True"]),
    ("guvectorize_returns", lambda: guvectorize(["int32(int32[:], int32[:])"], "(n)->(n)", target="cuda")(
        _gu_copy), "TypeError", ["_gu_copy", "cannot return values", "int32 return type", "void(...)"]),
    ("vectorizer_cache", lambda: __import__("ptxjit.cuda.vectorizers", fromlist=["x"]).CUDAVectorize(
        _gu_copy, cache=True), "TypeError", ["caching is not supported", "vectorize"]),
    ("guvectorizer_cache", lambda: __import__("ptxjit.cuda.vectorizers", fromlist=["x"]).CUDAGUFuncVectorize(
        _gu_copy, "(n)->(n)", cache=True), "TypeError", ["caching is not supported", "guvectorize"]),
    ("guvectorize_bad_target", lambda: guvectorize(["void(float64[:], float64[:])"], "(n)->()", target="tpu"),
     "ValueError", ["tpu"]),
    ("vectorize_unknown_type", lambda: vectorize(["floot32(float32)"], target="cuda")(lambda x: x), "TypeError",
     ["floot32"]),
    ("vectorize_kernel", lambda: vectorize(["float32(float32)"], target="cuda")(k_store), "TypeError",
     ["kernel"]),
    ("vectorize_number", lambda: vectorize(["float32(float32)"], target="cuda")(3), "TypeError", ["3"]),
    ("vectorize_sig_argc", lambda: vectorize(["float32(float32, float32)"], target="cuda")(lambda x: x),
     "TypeError", ["2 arguments", "the function 1"]),
    ("vectorize_array_sig", lambda: vectorize(["float32(float32[:])"], target="cuda")(lambda x: x), "TypeError",
     ["scalars"]),
    ("vectorize_varargs", lambda: vectorize(["float32(float32)"], target="cuda")(lambda *x: 1), "TypeError",
     ["*args"]),
    ("vectorize_out_count", lambda: _vec_add()(np.zeros(3, np.float32), np.zeros(3, np.float32),
                                               out=(np.zeros(3, np.float32), np.zeros(3, np.float32))),
     "ValueError", ["add", "out="]),
    ("vectorize_out_list", lambda: _vec_add()(np.zeros(3, np.float32), np.zeros(3, np.float32), out=[1, 2, 3]),
     "TypeError", ["add", "out="]),
    ("vectorize_out_readonly", lambda: _vec_add()(np.zeros(3, np.float32), np.zeros(3, np.float32),
                                                  out=_readonly(3, np.float32)), "ValueError", ["read-only"]),
    ("vectorize_out_shape", lambda: _vec_add()(np.zeros(3, np.float32), np.zeros(3, np.float32),
                                               out=np.zeros(4, np.float32)), "ValueError", ["(4,)", "(3,)"]),
    ("vectorize_big_int", lambda: _vec_add()(1 << 70, 1.0), "OverflowError", ["64 bits"]),
    ("vectorize_str_arg", lambda: _vec_add()("x", 1.0), "TypeError", ["'x'", "not a number"]),
    ("vectorize_object_dtype", lambda: _vec_add()(np.array([None]), 1.0), "TypeError", ["object"]),
    ("ufunc_reduce_arity", lambda: _vec_neg().reduce(np.zeros(3, np.float32)), "TypeError",
     ["reduce", "two arguments"]),
    ("ufunc_reduce_0d", lambda: _vec_add().reduce(np.float32(1.0)), "ValueError", ["0-d"]),
    ("ufunc_reduce_axis", lambda: _vec_add().reduce(np.zeros(3, np.float32), axis=3), "ValueError",
     ["axis 3", "1 dimensions"]),
    ("ufunc_reduce_empty", lambda: _vec_add().reduce(np.zeros(0, np.float32)), "TypeError", ["identity"]),
    ("gufunc_layout_junk", lambda: guvectorize(["void(float64[:], float64[:])"], "n->", target="cuda")(
        lambda x, o: None), "ValueError", ["'n->'"]),
    ("gufunc_out_dim", lambda: guvectorize(["void(float64[:], float64[:])"], "(n)->(m)", target="cuda")(
        lambda x, o: None), "ValueError", ["'m'"]),
    ("gufunc_param_count", lambda: guvectorize(["void(float64[:], float64[:])"], "(n),(n)->()", target="cuda")(
        lambda x, o: None), "TypeError", ["2 inputs and 1 outputs"]),
    ("gufunc_input_count", lambda: _gu_sum()(np.zeros(3), np.zeros(3), np.zeros(3)), "TypeError",
     ["gsum", "accepts 1 positional arguments", "Got 3 positional arguments"]),
    # carray/farray (ptxjit.np.numpy_support) and auto_device
    ("carray_not_a_pointer", lambda: __import__("ptxjit.np.numpy_support").np.numpy_support.carray("x", 3),
     "TypeError", ["carray/farray", "str"]),
    ("carray_wrong_dtype", lambda: __import__("ptxjit.np.numpy_support").np.numpy_support.carray(
        _c_floats().ctypes.data_as(__import__("ctypes").POINTER(__import__("ctypes").c_float)), 3, np.int32),
     "TypeError", ["points to float32", "int32"]),
    ("carray_untyped", lambda: __import__("ptxjit.np.numpy_support").np.numpy_support.carray(
        _c_floats().ctypes.data, 3), "TypeError", ["untyped pointer", "dtype="]),
    ("carray_null", lambda: __import__("ptxjit.np.numpy_support").np.numpy_support.carray(0, 3, np.float32),
     "ValueError", ["null pointer"]),
    ("auto_device_strided", lambda: cuda.devicearray.auto_device(np.zeros((4, 4))[::2, ::2]), "ValueError",
     ["non-contiguous", "ascontiguousarray"]),
    ("gufunc_out_twice", lambda: _gu_sum()(np.zeros(3), np.zeros(1), out=np.zeros(1)), "ValueError",
     ["'out'", "both positional and keyword"]),
    ("typing_typeof_unknown", lambda: __import__("ptxjit.typing").typing.typeof(object()), "ValueError",
     ["type of object", "kernels take numbers"]),
    ("gufunc_broadcast_out", lambda: _gu_sum()(np.zeros((2, 3)), out=np.zeros(5)), "ValueError",
     ["gsum", "broadcast", "(5,)"]),
    ("cpu_gufunc_no_layout", lambda: guvectorize(["void(float64[:], float64[:])"]), "TypeError", ["layout"]),
    ("cpu_ufunc_str_arg", lambda: _vec_cpu()("x", 1.0), "TypeError", ["addc", "'x'"]),
    ("cpu_ufunc_reduce_axis", lambda: _vec_cpu().reduce(np.zeros(3), axis="x"), "TypeError", ["axis"]),
    ("cpu_ufunc_reduce_dup", lambda: _vec_cpu().reduce(np.zeros((3, 3)), axis=(0, 0)), "ValueError",
     ["duplicate"]),
    ("cpu_ufunc_reduce_empty", lambda: _vec_cpu().reduce(np.zeros(0)), "ValueError", ["identity"]),
    ("cpu_ufunc_out_list", lambda: _vec_cpu()(np.zeros(3), np.zeros(3), out=[0, 0, 0]), "TypeError",
     ["addc", "out="]),
    ("cpu_ufunc_object_mode", lambda: vectorize(["float64(float64)"], forceobj=True)(lambda x: x),
     "NotImplementedError", ["object mode"]),
    ("records_subarray_empty", lambda: k_tuple[1, 1](np.zeros(2, np.dtype([("x", np.int32, (0,))])), (1,)),
     "TypeError", ["'x'", "at least one element"]),
    ("records_subarray_9d", lambda: k_tuple[1, 1](np.zeros(1, np.dtype([("x", np.int8, (1,) * 9)])), (1,)),
     "TypeError", ["'x'", "9 dimensions"]),
    ("type_index_number", lambda: _types.float32[3], "TypeError", ["slices"]),
    ("jit_bad_sig_type", lambda: cuda.jit(["void(float32[::1])", 3])(lambda a: None), "TypeError", ["3"]),
    ("specialize_twice", lambda: k_store.specialize(_f32(), 1.0).specialize(_f32(), 1.0), "RuntimeError",
     ["already specialized"]),
    ("compile_ptx_device_cubin", lambda: cuda.compile(d_add.py_func, "int64(int64, int64)", device=True,
                                                      output="cubin"), "NotImplementedError", ["device=True", "output='ptx'"]),
    ("compile_ptx_bad_abi", lambda: cuda.compile_ptx(d_add.py_func, "int64(int64, int64)", device=True, abi="x"),
     "NotImplementedError", ["Unsupported ABI: x", "abi='c'"]),
    ("compile_ptx_c_abi_kernel", lambda: cuda.compile_ptx(k_store.py_func, "void(float32[::1], float32)", abi="c"),
     "NotImplementedError", ["C ABI is not supported for kernels", "device=True"]),
    ("compile_ptx_abi_info", lambda: cuda.compile_ptx(d_add.py_func, "int64(int64, int64)", device=True,
                                                      abi_info={"x": 1}), "TypeError", ["abi_info", "abi_name"]),
    ("compile_output", lambda: cuda.compile(k_store.py_func, "void(float32[::1], float32)", device=False, output="ltoir"),
     "NotImplementedError", ["ltoir"]),
    ("host_memory_without_address", lambda: memoryview(type("M", (ptxjit._core.HostMemory,),
                                                              {"_bufptr_": 0, "_buflen_": 8})()),
     "BufferError", ["no host address"]),
    ("compile_forceinline_ptx", lambda: cuda.compile(d_add.py_func, "int64(int64, int64)", forceinline=True),
     "ValueError", ["forced inlining in LTO-IR", "forceinline=True"]),
    ("kernel_inspect_asm_other_cc", lambda: cuda.jit("void(float32[::1], float32)")(k_store.py_func).overloads[
        ("float32[::1]", "float32")].inspect_asm((5, 0)),
     "ValueError", ["compute capability (5, 0)", "cc=(5, 0)"]),
    ("random_bad_states", lambda: cuda.random.init_xoroshiro128p_states(np.zeros(3), 1), "TypeError",
     ["xoroshiro128p_dtype"]),
    ("njit_no_sig_match", lambda: _njit_sigs()(np.zeros(3)), "TypeError", ["n_sig", "match none"]),
    ("njit_object_mode_flag", lambda: njit(nopython=False), "NotImplementedError", ["object mode"]),
    ("njit_error_model", lambda: njit(error_model="c"), "ValueError", ["error_model must be"]),
    ("cache_device_global", lambda: _cached_device_global(), "PicklingError", ["k_dev_global", "global device arrays"]),
]


_DEV_GLOBAL = None


def _cached_device_global():
    """A kernel with cache=True that reads a global device array."""
    import tempfile
    global _DEV_GLOBAL
    _DEV_GLOBAL = cuda.to_device(np.arange(3.0))
    with _env(PTXJIT_CACHE_DIR=tempfile.mkdtemp()):
        @cuda.jit(cache=True)
        def k_dev_global(a):
            a[0] = _DEV_GLOBAL[1]
        k_dev_global[1, 1](np.zeros(3))


def _vec_neg():
    @vectorize(["float32(float32)"], target="cuda")
    def neg(x):
        return -x
    return neg


def _njit_sigs():
    @njit(["float64(float64)"])
    def n_sig(x):
        return x
    return n_sig


def _with_loop_limit(kern, *args):
    """Launches kern[1, 1] with a small endless-loop budget (the default,
    about a minute of interpretation, is read at each launch)."""
    import os
    old = os.environ.get("PTXJIT_SIM_LOOP_LIMIT")
    os.environ["PTXJIT_SIM_LOOP_LIMIT"] = "100000"
    try:
        kern[1, 1](*args)
    finally:
        if old is None:
            del os.environ["PTXJIT_SIM_LOOP_LIMIT"]
        else:
            os.environ["PTXJIT_SIM_LOOP_LIMIT"] = old


def _readonly(n, dtype=np.float64):
    a = np.zeros(n, dtype)
    a.setflags(write=False)
    return a


# messages of the simulator: (name, fn, class, words); fn runs on the simulator
SIM_TRIGGERS = [
    ("sim_ipc_own_process", lambda: cuda.to_device(np.ones(4)).get_ipc_handle().open(), "ValueError",
     ["IPC handle", "process that made it"]),
    ("sim_ipc_gone", lambda: _sim_ipc_handle(2 ** 30 + 7).open(), "ValueError",
     ["IPC handle", "1073741831", "gone", "keep running"]),
    ("sim_ipc_gpu_handle", lambda: cuda.IpcHandle(None, b"\1" * 64, 8).open(), "ValueError",
     ["simulator", "GPU memory"]),
    ("sim_ipc_not_ours", lambda: cuda.from_dlpack(np.arange(5.0)).get_ipc_handle(), "ValueError",
     ["not allocated by ptxjit's simulator", "cuda.to_device"]),
    ("sim_emm_ipc", lambda: cuda.NumbaCUDAMemoryManager(context=None).get_ipc_handle(
        cuda.MemoryPointer(None, 8, 8)), "NotImplementedError", ["memory manager's get_ipc_handle is not simulated"]),
    ("sim_out_of_bounds", lambda: k_oob[1, 1](_f32(), 8), "SimIndexError",
     ["index 8", "size 8", "'a'", "k_oob", "errcat_runtime.py:"], ["%s"]),   # src/rt/stream.c passes it on
    ("sim_out_of_bounds_axis", lambda: k_oob2[1, 4](cuda.device_array((4, 5), np.float32)), "SimIndexError",
     ["index 7", "axis 1", "size 5"]),
    ("sim_deadlock", lambda: k_deadlock[1, 32](_f32(1)), "DeadlockError",
     ["16 of 32 threads", "k_deadlock", "cuda.syncthreads()", "errcat_runtime.py:"]),
    ("sim_dynamic_shared", lambda: k_dyn[1, 32, 0, 16](_f32(32)), "SimIndexError",
     ["index 4", "size 4", "array 's'", "k_dyn", "thread (4, 0, 0)"]),
    ("sim_foreign_gpu_array", lambda: k_store[1, 8](_cai(None), 1.0), "TypeError",
     ["k_store", "another library", "PTXJIT_SIM=1"]),
    ("sim_assert", lambda: k_assert[1, 1](cuda.to_device(np.zeros(1, np.float32))), "AssertionError",
     ["a[0] is too small", "k_assert", "errcat_runtime.py"], ["%s\n  %s"]),
    ("sim_endless", lambda: _with_loop_limit(k_endless, cuda.to_device(np.zeros(1, np.float32))), "DeadlockError",
     ["endless loop", "k_endless"]),
    ("sim_shfl_mask", lambda: k_shfl_mask[1, 32](_f32(32)), "DeadlockError",
     ["cuda.shfl_sync()", "mask", "lane 1", "k_shfl_mask", "errcat_runtime.py:"],
     ["%s\n  in kernel '%s', thread (%u, %u, %u) of block (%u, %u, %u)"]),
    ("sim_warp_mismatch", lambda: k_warp_mismatch[1, 32](_f32(32)), "DeadlockError",
     ["different warp operations", "cuda.ballot_sync()", "k_warp_mismatch"]),
    ("sim_barrier_kinds", lambda: k_barrier_kinds[1, 32](_f32(32)), "DeadlockError",
     ["barriers of different kinds", "syncthreads_count", "k_barrier_kinds"]),
    ("sim_barrier_split_warp", lambda: k_split_warp[1, 32](_f32(2)), "DeadlockError",
     ["lanes of one warp", "errcat_runtime.py:", "k_split_warp"]),
    ("sim_grid_blocks_return", lambda: k_grid_early[3, 32](_f32(1)), "DeadlockError",
     ["reached by 2 of 3 blocks", "k_grid_early", "g.sync()", "errcat_runtime.py:"]),
    ("sim_grid_threads_return", lambda: k_grid_half[2, 32](_f32(1)), "DeadlockError",
     ["reached by 31 of 32 threads", "k_grid_half", "g.sync()"]),
    ("sim_grid_barrier_kinds", lambda: k_grid_kinds[2, 32](_f32(1)), "DeadlockError",
     ["grid's barrier", "block's barrier", "k_grid_kinds"]),
    ("coop_grid_too_large", lambda: k_grid_half[33, 32](_f32(1)), "ValueError",
     ["has 33 blocks", "at most 32 blocks", "max_cooperative_grid_blocks", "k_grid_half"]),
]


# ------------------------------------------------- more triggers: the rest
#
# Kernels, functions over arrays and @njit functions whose messages name
# their line here.

import contextlib                                    # noqa: E402
import warnings                                      # noqa: E402

from ptxjit import cpu as _cpu                       # noqa: E402


def _exec_fn(src, name="f"):
    """A function made by exec(): it has no source file."""
    ns = {}
    exec(src, ns)
    return ns[name]


@contextlib.contextmanager
def _env(**env):
    import os
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # "no C compiler found": the interpreter's warning
            yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@cuda.jit
def k_warp_bar(a):
    t = cuda.threadIdx.x
    if t < 16:
        a[t] = cuda.shfl_sync(0xffffffff, a[t], 0)
    else:
        cuda.syncthreads()


def v_nothing(x):
    pass


def v_array(x):
    return cuda.local.array(3, np.float64)


def v_empty(x):
    return ()


def v_index(x):
    return x[0]


def g_sum(x, out):
    s = 0.0
    for v in x:
        s += v
    out[0] = s


def g_dot(x, y, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i]
    out[0] = s


def g_first(x, out):
    out[0] = x[0]


def g_copy(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i]


@njit
def n_raise(x):
    if x > 0:
        raise ValueError("x must not be positive")
    return x


def n_index(a, i):
    return a[i]


@njit
def n_deep(n):
    if n < 1:
        return 0
    return n_deep(n - 1) + 1


def _gu(f, layout, sigs=("void(float64[:], float64[:])",), target="cuda"):
    return guvectorize(list(sigs), layout, target=target)(f)


def _cpu_vec(f, sigs=None, target="cpu"):
    return vectorize(sigs, target=target)(f) if sigs else vectorize(target=target)(f)


n_index_checked = njit(boundscheck=True)(n_index)
n_index_interpreted = njit(boundscheck=True)(n_index)


def _njit_deep():
    with _env(PTXJIT_CC="none"):          # read when n_deep is compiled, at its first call
        return n_deep(20000)


@njit
def n_huge(n):
    return np.empty(n, np.float64)


def _njit_huge_interpreted():
    with _env(PTXJIT_CC="none"):
        return n_huge(1 << 58)


def _with_callback(cfg):
    cfg.pre_launch_callbacks.append(print)
    return cfg


def _kernel_of(disp):
    """The compiled Kernel of a kernel launched once."""
    if not disp.overloads:
        disp[1, 1](_f32(), 1.0)
    return next(iter(disp.overloads.values()))


def _njit_index_interpreted():
    with _env(PTXJIT_CC="none"):
        return n_index_interpreted(np.zeros(3), 5)


def _broken_cc():
    """@njit with a C compiler that fails (a header it cannot find)."""
    if not _cpu._compiler():
        import pytest
        pytest.skip("no C compiler on PATH: @njit runs on the interpreter")
    with _env(PTXJIT_CC="cc -include /nonexistent/errcat.h"):
        return njit(n_add.py_func)(1, 2)


def _threads_env():
    with _env(PTXJIT_NUM_THREADS="many"):
        return _cpu_vec(lambda x: x + 1, ["float64(float64)"], "parallel")(np.zeros(100000))


def _long_namedtuple(n):
    import collections
    return collections.namedtuple("Long", ["f%d" % i for i in range(n)])(*range(n))


def _nested_tuple(depth):
    t = (1,)
    for _ in range(depth):
        t = (t,)
    return t


_CAI = {"shape": (3,), "typestr": "<f4", "data": (0, False), "version": 3}
_ARRAY_OF_ARRAYS = np.dtype([("x", np.dtype((np.int32, (2,))), (3,))])
# the message of an index out of bounds in @njit code: the C code's, or the interpreter's
_NJIT_INDEX = "<dynamic src/py/cpu.c: PyErr_SetString(PyExc_IndexError, %s)>" % ("buf" if _cpu._compiler() else "e->msg")
_NJIT_TRAP = "<dynamic src/py/cpu.c: PyErr_SetString(exc, text)>"
_RECORD_ARG = "kernel '%s': argument %d ('%s'): %S"

TRIGGERS += [
    # decorators given what is not a function
    ("njit_not_a_function", lambda: njit(len), "TypeError", ["njit", "builtin_function_or_method"]),
    ("cuda_jit_not_a_function", lambda: cuda.jit(len), "TypeError", ["cuda.jit", "builtin_function_or_method"]),
    ("kernel_without_source_not_rebuilt",
     lambda: cuda.jit(_exec_fn("def f(a):\n    a[0] = [x for x in a][0]\n"))[1, 1](np.zeros(2)),
     "DecompileError", ["'f'", "<string>", "line 1", "at line 2", "bytecode"]),
    ("kernel_generator_without_source",
     lambda: cuda.jit(_exec_fn("def f(a):\n    yield a\n"))[1, 1](np.zeros(2)),
     "DecompileError", ["'f'", "<string>", "line 1", "generator"]),
    ("kernel_too_many_params", lambda: cuda.jit(_exec_fn("def f(%s):\n    pass\n"
                                                          % ", ".join("a%d" % i for i in range(129)))),
     "TypeError", ["'f'", "129 parameters", "128"]),
    # arguments
    ("arg_numpy_void_dtype", lambda: k_store[1, 8](np.zeros(8, "V3"), 1.0), "TypeError",
     ["k_store", "argument 1 ('a')", "|V3"]),
    ("arg_numpy_datetime", lambda: k_store[1, 8](np.zeros(8, "M8[s]"), 1.0), "TypeError",
     ["k_store", "argument 1 ('a')", "datetime64[s]"]),
    ("arg_device_datetime", lambda: k_store[1, 8](cuda.device_array(8, "M8[s]"), 1.0), "TypeError",
     ["k_store", "argument 1 ('a')", "device array", "M8[s]"]),
    ("arg_tuple_too_many_leaves", lambda: k_tuple[1, 1](_f32(), ((1,) * 100, (1,) * 100)), "ValueError",
     ["k_tuple", "at most 128 numbers"]),
    ("arg_tuple_too_deep", lambda: k_tuple[1, 1](_f32(), _nested_tuple(40)), "ValueError",
     ["k_tuple", "argument 2 ('t')", "nested too deeply"]),
    ("arg_namedtuple_too_long", lambda: k_tuple[1, 1](_f32(), _long_namedtuple(300)), "ValueError",
     ["k_tuple", "argument 2 ('t')", "namedtuple too large"]),
    ("record_array_of_arrays", lambda: k_tuple[1, 1](np.zeros(2, _ARRAY_OF_ARRAYS), (1,)), "TypeError",
     ["k_tuple", "argument 1 ('a')", "'x'", "array of arrays"], [_RECORD_ARG]),
    ("record_no_fields", lambda: k_tuple[1, 1](np.zeros(2, np.dtype([])), (1,)), "TypeError",
     ["k_tuple", "argument 1 ('a')", "no fields"], ["py:dtype %s has no fields"]),
    # device arrays
    ("copy_to_device_from_device", lambda: cuda.to_device(np.zeros(4)).copy_to_device(cuda.device_array(5)),
     "ValueError", ["copy_to_device", "(5,)", "(4,)"]),
    ("device_ndarray_shape_list", lambda: ptxjit._core.DeviceArray([3], None, np.dtype(np.float32)), "TypeError",
     ["shape", "tuple"]),
    ("device_ndarray_strides", lambda: cuda.DeviceNDArray((3,), (4, 4), np.dtype(np.float32)), "ValueError",
     ["strides", "1 ints"]),
    ("device_ndarray_dtype_type", lambda: ptxjit._core.DeviceArray((3,), None, np.float32), "TypeError",
     ["numpy.dtype", "not type"]),
    ("device_ndarray_copy_false", lambda: np.array(cuda.to_device(np.zeros(3)), copy=False), "ValueError",
     ["copy=False", "copied"]),
    ("cuda_ndarray_required", lambda: cuda.devicearray.verify_cuda_ndarray_interface(np.zeros(3)),
     "ValueError", ["cuda ndarray"]),
    ("cuda_ndarray_attr_type", lambda: cuda.devicearray.verify_cuda_ndarray_interface(_FakeDeviceArray()),
     "AttributeError", ["shape", "tuple"]),
    ("cuda_ndarray_attr_missing", lambda: cuda.devicearray.verify_cuda_ndarray_interface(_NoShape()),
     "AttributeError", ["shape"]),
    ("device_memory_required", lambda: cuda.driver.require_device_memory(np.zeros(3)), "Exception",
     ["Not a CUDA memory object"]),
    ("memory_pointer_view", lambda: cuda.current_context().memalloc(8).view(2, 20), "IndexError",
     ["view(2, 20)", "8 bytes"]),
    ("device_ndarray_negative_strides", lambda: cuda.DeviceNDArray((3,), (-4,), np.dtype(np.float32)),
     "ValueError", ["negative strides"]),
    ("device_array_empty_record", lambda: cuda.device_array(3, np.dtype([])), "ValueError", ["no item size"]),
    ("pinned_array_negative", lambda: cuda.pinned_array(-1), "ValueError", ["pinned_array", "(-1,)"]),
    ("cai_masked", lambda: cuda.from_cuda_array_interface(dict(_CAI, mask=1)), "NotImplementedError", ["masked"]),
    ("gpus_index", lambda: cuda.gpus[1], "IndexError", ["cuda.gpus[1]", "is 1 device"]),
    ("gpus_index_type", lambda: cuda.gpus["1"], "TypeError", ["cuda.gpus[i]", "device number", "'1'"]),
    # types
    ("type_call_array", lambda: _types.float32[::1](3), "TypeError", ["float32[::1]()", "types"]),
    # @jit(target='gpu') and friends
    ("jit_gpu_device", lambda: ptxjit.jit(target="gpu", device=True)(lambda x: x), "TypeError",
     ["@jit(target='gpu')", "device=True"]),
    ("jit_gpu_two_args", lambda: ptxjit.jit(3, 4, target="gpu"), "TypeError", ["@jit(target='gpu')", "function"]),
    ("guvectorize_extra_args", lambda: guvectorize(["void(float64[:], float64[:])"], "(n)->()", 5, target="cuda"),
     "TypeError", ["signatures and a layout"]),
    # functions over arrays on the GPU
    ("vectorize_sig_not_str", lambda: vectorize([3], target="cuda")(lambda x: x), "TypeError", ["signature", "3"]),
    ("vectorize_returns_nothing", lambda: vectorize(target="cuda")(v_nothing)(np.zeros(3)), "TypingError",
     ["v_nothing", "returns nothing"]),
    ("vectorize_returns_array", lambda: vectorize(target="cuda")(v_array)(np.zeros(3)), "TypingError",
     ["v_array", "array(float64, 1d, C)"]),
    ("vectorize_returns_empty", lambda: vectorize(target="cuda")(v_empty)(np.zeros(3)), "TypingError",
     ["v_empty", "empty tuple"]),
    ("vectorize_indexes_arg", lambda: vectorize(target="cuda")(v_index)(np.zeros(3)), "TypingError",
     ["v_index", "indexes its argument 'x'", "not elementwise", "errcat_runtime.py:"],
     ["<dynamic python/ptxjit/ufunc.py: _error_at(text, file, first, shift, node, bad + ': it is not "
      "elementwise', ELEMENTWISE_HINT)>"]),
    ("vectorize_complex_into_float", lambda: vectorize(["float64(float64)"], target="cuda")(lambda x: 1j * x)(
        np.zeros(3)), "TypingError", ["<lambda>", "(float64)", "complex"]),
    ("vectorize_nout_unknown", lambda: vectorize(target="cuda")(lambda x: x).nout, "AttributeError",
     ["<lambda>", "first call"]),
    ("vectorize_out_shape_broadcasts", lambda: vectorize(["float64(float64)"], target="cuda")(lambda x: x)(
        np.zeros((2, 3)), out=np.zeros((1, 3))), "ValueError", ["(1, 3)", "(2, 3)"]),
    ("vectorize_str_array", lambda: vectorize(target="cuda")(lambda x: x)(np.array(["a"])), "TypeError",
     ["<U1", "GPU"]),
    ("gufunc_layout_without_arrow", lambda: _gu(g_sum, "(n)"), "ValueError", ["'(n)'"]),
    ("gufunc_sig_arg_count", lambda: _gu(g_sum, "(n)->()", ["void(float64[:], float64[:], float64[:])"]),
     "TypeError", ["g_sum", "3 arguments", "needs 2"]),
    ("gufunc_sig_dims", lambda: _gu(g_sum, "(n)->()", ["void(float64[:, :], float64[:])"]), "TypeError",
     ["g_sum", "argument 1", "2 dimensions", "gives it 1"]),
    ("gufunc_no_signature", lambda: _gu(g_sum, "(n)->()")(np.zeros(3, np.complex128)), "TypeError",
     ["g_sum", "complex128"]),
    ("gufunc_out_count", lambda: _gu(g_sum, "(n)->()")(np.zeros(3), out=(np.zeros(1), np.zeros(1))),
     "ValueError", ["g_sum", "1 outputs", "gives 2"]),
    ("gufunc_dim_mismatch", lambda: _gu(g_dot, "(n),(n)->()", ["void(float64[:], float64[:], float64[:])"])(
        np.zeros(3), np.zeros(4)), "ValueError", ["g_dot", "'n'", "3", "4"]),
    ("gufunc_out_shape", lambda: _gu(g_sum, "(n)->()")(np.zeros((2, 3)), out=np.zeros(1)), "ValueError",
     ["g_sum", "(1,)", "(2,)"]),
    # functions over arrays on the CPU
    ("cpu_threads_env", _threads_env, "ValueError", ["PTXJIT_NUM_THREADS", "'many'"]),
    ("cpu_ufunc_numpy_str", lambda: _vec_cpu()(np.str_("x"), 1.0), "TypeError", ["addc", "argument 1", "not a number"]),
    ("cpu_ufunc_no_params", lambda: vectorize(lambda: 1.0), "TypeError", ["<lambda>", "no arguments"]),
    ("cpu_ufunc_out_dtype", lambda: _vec_cpu()(np.zeros(3), np.zeros(3), out=np.zeros(3, "U1")), "TypeError",
     ["addc", "out=", "<U1"]),
    ("cpu_reduce_unary", lambda: _cpu_vec(lambda x: -x, ["float64(float64)"]).reduce(np.zeros(3)), "ValueError",
     ["reduce", "1 argument"]),
    ("cpu_reduce_str", lambda: _vec_cpu().reduce(np.array(["a", "b"])), "TypeError", ["addc.reduce", "<U1"]),
    ("cpu_reduce_two_outputs", lambda: _cpu_vec(lambda x, y: (x, y)).reduce(np.zeros(3)), "ValueError",
     ["reduce", "2 outputs"]),
    ("cpu_reduce_out_shape", lambda: _vec_cpu().reduce(np.zeros((2, 3)), axis=0, out=np.zeros(5)), "ValueError",
     ["addc.reduce", "out=", "(3,)"]),
    ("cpu_gufunc_input_dims", lambda: _gu(g_first, "(n)->()", target="cpu")(np.float64(1.0)), "ValueError",
     ["g_first", "input 1", "0 dimensions"], ["py:%s: input %d has %d dimension%s; the layout %r needs at least %d"]),
    ("cpu_gufunc_out_dims", lambda: _gu(g_copy, "(n)->(n)", target="cpu")(np.zeros(3), out=np.zeros(())),
     "ValueError", ["g_copy", "out=", "0 dimensions"]),
    ("cpu_gufunc_no_arrow", lambda: _gu(g_sum, "(n)", target="cpu"), "TypeError", ["layout"]),
    # @njit at run time
    ("njit_raises", lambda: n_raise(1), "ValueError", ["x must not be positive", "errcat_runtime.py:"],
     [_NJIT_TRAP]),
    ("njit_index", lambda: n_index_checked(np.zeros(3), 5), "IndexError",
     ["index 5", "size 3", "'a'", "errcat_runtime.py:"], [_NJIT_INDEX]),
    ("njit_index_interpreted", _njit_index_interpreted, "IndexError",
     ["index 5", "size 3", "'a'", "n_index", "errcat_runtime.py:"],
     ["<dynamic src/py/cpu.c: PyErr_SetString(PyExc_IndexError, e->msg)>"]),
    ("njit_huge_interpreted", _njit_huge_interpreted, "MemoryError",
     ["cannot allocate 2305843009213693952 bytes", "errcat_runtime.py:", "in function 'n_huge'"],
     ["MemoryError: cannot allocate %llu bytes\n  at %s:%d, in function '%s'"]),   # the class becomes the type
    ("njit_c_compiler_fails", _broken_cc, "InternalCompilerError",
     ["C compiler failed", "/nonexistent/errcat.h"]),
    ("njit_recursion_interpreted", _njit_deep, "RecursionError", ["10000", "n_deep", "errcat_runtime.py:"],
     [_NJIT_TRAP, "RecursionError: maximum recursion depth exceeded (10000 nested calls on the interpreter)"]),
]

def _dlpack_used():
    cap = cuda.to_device(_f32()).__dlpack__()
    cuda.from_dlpack(cap)
    cuda.from_dlpack(cap)


def _dlpack_read_only():
    a = np.ones(8, np.float32)
    a.flags.writeable = False
    cuda.from_dlpack(a)


class _DLPackOn:
    """A tensor that says it is on device (kind, ident)."""

    def __init__(self, kind, ident=0):
        self.dev = (kind, ident)

    def __dlpack_device__(self):
        return self.dev

    def __dlpack__(self, **kw):
        raise AssertionError("the device is checked first")


TRIGGERS += [
    # DLPack (python/ptxjit/cuda/dlpack.py, src/py/dlpack.c)
    ("dlpack_other_device", lambda: cuda.to_device(_f32()).__dlpack__(dl_device=(7, 0)), "BufferError",
     ["(7, 0)", "does not copy between devices"]),
    ("dlpack_stream_str", lambda: cuda.to_device(_f32()).__dlpack__(stream="s"), "TypeError", ["stream", "'s'"]),
    ("dlpack_record", lambda: cuda.to_device(np.zeros(3, np.dtype([("x", np.int32)]))).__dlpack__(),
     "BufferError", ["numbers and bools only"]),
    ("from_dlpack_list", lambda: cuda.from_dlpack([1.0]), "TypeError", ["__dlpack__", "list"]),
    ("from_dlpack_stream_str", lambda: cuda.from_dlpack(np.ones(8), stream="s"), "TypeError", ["cuda.stream()"]),
    ("from_dlpack_used_capsule", _dlpack_used, "TypeError", ["unused DLPack capsule"]),
]

def _drv():
    from ptxjit.cuda import driver
    return driver


TRIGGERS += [
    ("driver_copy_negative", lambda: _drv().device_to_host(np.zeros(2), cuda.device_array(2).gpu_data, -1),
     "ValueError", ["device_to_host", "-1 bytes", "negative"]),
    ("driver_copy_past_memory", lambda: _drv().device_to_host(np.zeros(9), cuda.device_array(2).gpu_data, 72),
     "ValueError", ["device_to_host", "72 bytes", "16 bytes"]),
    ("driver_copy_past_host", lambda: _drv().host_to_device(cuda.device_array(9).gpu_data, np.zeros(2), 72),
     "ValueError", ["host_to_device", "72 bytes", "host array's 16"]),
    ("driver_copy_strided_host", lambda: _drv().device_to_host(np.zeros(8)[::2], cuda.device_array(2).gpu_data, 8),
     "ValueError", ["device_to_host", "C-contiguous"]),
]


def _transpose(a, b=None):
    from ptxjit.cuda.kernels.transpose import transpose
    return transpose(cuda.to_device(a), b if b is None else cuda.to_device(b))


TRIGGERS += [
    # numba.cuda.kernels.transpose (python/ptxjit/cuda/kernels/transpose.py)
    ("transpose_1d", lambda: _transpose(np.zeros(3)), "ValueError", ["2-D array", "1 dimensions"]),
    ("transpose_shape", lambda: _transpose(np.zeros((2, 3)), np.zeros((2, 3))), "ValueError",
     ["(2, 3)", "(3, 2)"]),
    ("transpose_dtype", lambda: _transpose(np.zeros((2, 3)), np.zeros((3, 2), np.float32)), "TypeError",
     ["float64", "float32"]),
]

SIM_TRIGGERS += [
    ("sim_driver_copy_unknown_address", lambda: _drv().device_to_host(np.zeros(2), np.zeros(2).ctypes.data, 8),
     "TypeError", ["device_to_host", "did not allocate"]),
    ("sim_from_dlpack_read_only", _dlpack_read_only, "BufferError", ["read-only"]),
    ("sim_from_dlpack_gpu_tensor", lambda: cuda.from_dlpack(_DLPackOn(2)), "BufferError",
     ["kDLCUDA", "host memory"]),
    ("sim_from_dlpack_9d", lambda: cuda.from_dlpack(np.zeros((1,) * 9)), "BufferError", ["9 dimensions"]),
]

SIM_TRIGGERS += [
    ("sim_compile_cubin", lambda: cuda.compile(_plain_kernel, "void(float32[::1], float32)", device=False, output="cubin"),
     "RuntimeError", ["output='cubin'", "linker", "simulator", "output='ptx'"]),
    ("sim_warp_waits_for_barrier", lambda: k_warp_bar[1, 32](_f32(32)), "DeadlockError",
     ["cuda.shfl_sync()", "lanes 16 to 31", "mask 0xffffffff", "cuda.syncthreads()", "k_warp_bar",
      "errcat_runtime.py:"]),
    ("sim_foreign_as_cuda_array", lambda: cuda.as_cuda_array(_cai(None)), "TypeError",
     ["simulator", "another library"]),
    ("sim_kernel_attribute", lambda: _kernel_of(k_store)._attr(7), "ValueError",
     ["kernel attribute 7", "simulator", "registers"]),
    ("sim_device_attribute", lambda: cuda.get_current_device().CLOCK_RATE, "ValueError",
     ["CLOCK_RATE", "simulator"], ["device attribute %d has no value on the simulator", "py:device attribute %s: %s"]),
    ("sim_makes_no_machine_code", lambda: _kernel_of(k_store)._cubin(), "ValueError", ["simulator", "machine code"]),
    ("sim_runs_no_machine_code", lambda: _kernel_of(k_store)._load_cubin(b"\x7fELF"), "ValueError",
     ["simulator", "machine code"]),
    ("sim_device_recursion", lambda: k_recurse_dev[1, 1](np.array([0, 20000], np.int64)), "RecursionError",
     ["10000", "k_recurse_dev", "errcat_runtime.py"],
     ["RecursionError: maximum recursion depth exceeded (10000 nested calls of device functions; on a GPU "
      "the stack overflows much earlier)", "%s\n  %sin kernel '%s', thread (%u, %u, %u) of block (%u, %u, %u)"]),
]


# ptxjit.mpi (python/ptxjit/mpi.py): its checks come before mpi4py is needed


@contextlib.contextmanager
def _mpi_env(value):
    saved = os.environ.get("PTXJIT_MPI_CUDA_AWARE")
    os.environ["PTXJIT_MPI_CUDA_AWARE"] = value
    try:
        yield
    finally:
        if saved is None:
            del os.environ["PTXJIT_MPI_CUDA_AWARE"]
        else:
            os.environ["PTXJIT_MPI_CUDA_AWARE"] = saved


def _mpi_halos(u, value="0", **kw):
    from ptxjit import mpi
    with _mpi_env(value):
        mpi.exchange_halos(u, **kw)


def _mpi_aware_maybe():
    from ptxjit import mpi
    with _mpi_env("maybe"):
        mpi.cuda_aware()


def _mpi_without_mpi4py():
    import sys
    from ptxjit import mpi
    saved = sys.modules.get("mpi4py", False)
    sys.modules["mpi4py"] = None            # import mpi4py fails
    try:
        mpi.local_rank()
    finally:
        if saved is False:
            del sys.modules["mpi4py"]
        else:
            sys.modules["mpi4py"] = saved


def _mpi_bind_too_late():
    from ptxjit import mpi
    saved = mpi.cuda_started
    mpi.cuda_started = lambda: True         # as after the first CUDA call
    try:
        mpi.bind_gpu()
    finally:
        mpi.cuda_started = saved


TRIGGERS += [
    ("mpi_halos_of_numpy", lambda: _mpi_halos(np.zeros((6, 4))), "TypeError", ["exchange_halos", "ndarray"]),
    ("mpi_halos_width", lambda: _mpi_halos(cuda.to_device(np.zeros((6, 4))), width=0), "ValueError",
     ["width", "positive int"]),
    ("mpi_halos_too_few_rows", lambda: _mpi_halos(cuda.to_device(np.zeros((5, 4))), width=2), "ValueError",
     ["(5, 4)", "at least 6 rows"]),
    ("mpi_halos_not_cuda_aware", lambda: _mpi_halos(cuda.to_device(np.zeros((6, 4))), device_buffers=True),
     "RuntimeError", ["not CUDA-aware", "device_buffers", "PTXJIT_MPI_CUDA_AWARE=1"]),
    ("mpi_halos_f_order", lambda: _mpi_halos(cuda.to_device(np.zeros((6, 4), order="F")), "1",
                                             device_buffers=True), "ValueError", ["C-contiguous"]),
    ("mpi_cuda_aware_env", _mpi_aware_maybe, "ValueError", ["PTXJIT_MPI_CUDA_AWARE='maybe'", "1", "0"]),
    ("mpi_without_mpi4py", _mpi_without_mpi4py, "ImportError", ["mpi4py", "pip install mpi4py mpich"]),
    ("mpi_bind_too_late", _mpi_bind_too_late, "RuntimeError", ["bind_gpu() comes too late", "CUDA_VISIBLE_DEVICES"]),
]

# Formats that a trigger gives but that are almost all conversions (so
# that a regex would match any message) are named by the trigger itself,
# as its fifth element.

# CUDA graphs (python/ptxjit/cuda/graph.py, src/py/graph.c, src/rt/graph.c)

@cuda.jit(debug=True)
def k_debug_store(a):
    assert a[0] < 1e30
    a[0] = 1.0


def _in_capture(fn, stream=None):
    def run():
        with cuda.graph(stream):
            fn()
    return run


def _graph_launch_in_its_capture():
    g = cuda.graph()
    with g.capture():
        g.launch()


def _graph_nested():
    with cuda.graph():
        with cuda.graph():
            pass


def _graph_strided_copy():
    d = cuda.to_device(_f32(8))
    _in_capture(lambda: d[::2].copy_to_host(cuda.pinned_array(4, np.float32)))()


TRIGGERS += [
    ("graph_not_captured", lambda: cuda.graph().launch(), "RuntimeError", ["has not been captured yet"]),
    ("graph_launch_in_capture", _graph_launch_in_its_capture, "ValueError", ["still being captured"]),
    ("graph_nested", _graph_nested, "ValueError", ["being captured already"]),
    ("graph_synchronize", _in_capture(cuda.synchronize), "ValueError",
     ["cuda.synchronize()", "inside a graph capture"]),
    ("graph_host_array", _in_capture(lambda: k_store[1, 8](np.zeros(8, np.float32), 1.0)), "RuntimeError",
     ["k_store", "argument 1 ('a')", "cuda.to_device()"]),
    ("graph_debug_kernel", _in_capture(lambda: k_debug_store[1, 1](cuda.to_device(_f32()))), "RuntimeError",
     ["k_debug_store", "debug=True"]),
    ("graph_pageable_copy", _in_capture(lambda: cuda.to_device(np.ones(8))), "ValueError",
     ["pageable host memory", "cuda.pinned_array()"]),
    ("graph_strided_copy", _graph_strided_copy, "RuntimeError", ["strided view", "inside a graph capture"]),
    ("graph_stream_int", lambda: cuda.graph(5), "TypeError", ["cuda.graph(stream)", "int"]),
    ("graph_default_stream", _in_capture(lambda: None, cuda.default_stream()), "ValueError",
     ["default stream cannot be captured"]),
]

# numba.cuda.extending (python/ptxjit/extending.py, _lowlevel.py)

from ptxjit import extending as _ext                 # noqa: E402


_REC = np.dtype([("a", np.int32), ("b", np.float64)])


def _devrec():
    from ptxjit.cuda import devicearray
    return devicearray


def _junk(x):
    pass


@_ext.overload(_junk)
def _ol_junk(x):
    return 42


@cuda.jit
def k_junk(a):
    a[0] = _junk(1)


@_ext.intrinsic
def _llvm_intrinsic(typingctx, x):
    return None


TRIGGERS += [
    ("overload_bad_inline", lambda: _ext.overload(_junk, inline="sometimes"), "ValueError", ["inline", "'sometimes'"]),
    ("overload_jit_options_type", lambda: _ext.overload(_junk, jit_options=[1]), "TypeError", ["jit_options", "dict"]),
    ("overload_jit_options_unknown", lambda: _ext.overload(_junk, jit_options={"max_registers": 4}), "TypeError",
     ["'max_registers'", "fastmath"]),
    ("overload_bad_target", lambda: _ext.overload(_junk, target="fpga"), "ValueError", ["target", "'fpga'"]),
    ("overload_method_bad_name", lambda: _ext.overload_method(_types.Array, "not a name"), "TypeError",
     ["identifier", "'not a name'"]),
    ("register_jitable_builtin", lambda: _ext.register_jitable(len), "TypeError", ["register_jitable", "len"]),
    ("overload_returns_non_function", lambda: k_junk[1, 1](_f32()), "TypeError", ["_junk", "returned 42"]),
    ("llvm_intrinsic_called_in_python", lambda: _llvm_intrinsic(1), "NotImplementedError",
     ["_llvm_intrinsic", "LLVM lowering API", "@overload"],
     ["<dynamic python/ptxjit/_lowlevel.py: NotImplementedError(LLVM_API_MESSAGE % name)>"]),
    ("types_literal_of_a_float", lambda: _types.literal(1.5), "TypeError", ["literal", "1.5"]),
    ("typeof_of_an_object", lambda: __import__("ptxjit.typing").typing.typeof(object()), "ValueError", ["object", "kernels take"]),
]

# ----------------------------------------------- what no trigger here covers
#
# GPU_ONLY: the messages of the CUDA driver's path, and of GPU memory and
# contexts, that GPU_CHILD_TRIGGERS (below: the fake driver of
# tests/fake_cuda) does not give yet; tests/test_fault.py and the GPU run
# reach some of them.
# INTERNAL: not for users: internal errors, out of host memory, and the
# private _core API that ptxjit's own Python code calls correctly.
# COVERED_ELSEWHERE: {format: the test in test_error_catalogue.py that
# triggers it in a child process (the simulator's checks are chosen when
# ptxjit is imported)}.

GPU_ONLY = {
    "cuEventCreate (after a cooperative launch of kernel '%s')": "the driver failing to make an event",
    "cuEventRecord (after a cooperative launch of kernel '%s')": "the driver failing to record an event",
    "cuLaunchCooperativeKernel of kernel '%s' (grid (%u, %u, %u), block (%u, %u, %u), %u bytes of dynamic shared "
    "memory)": "the driver refusing a cooperative launch the occupancy check let through",
    "kernel '%s' needs a cooperative launch (it waits at the grid's barrier), and this CUDA driver has no "
    "cuLaunchCooperativeKernel": "a driver older than CUDA 9",
    "py:nvdisasm %s failed (%d): %s": "nvdisasm rejecting a cubin the driver linked (inspect_sass on a GPU)",
    "cuStreamEndCapture (the capture was invalidated by an operation a graph cannot hold, issued while it was "
    "captured)": "work another library issued on the capture stream",
    "the CUDA driver has no CUDA graph entry points (cuda.graph() needs CUDA 11.4 or newer)": "a driver older "
    "than CUDA 11.4",
    "this graph was captured before cuda.close() and cannot be used any more; capture it again": "the simulator "
    "keeps its recorded work across cuda.close()",
    "py:__dlpack__(stream=0) is ambiguous for CUDA (the DLPack protocol disallows it): pass 1 for the legacy "
    "default stream or 2 for the per-thread one": "kDLCUDA arrays only (tests/test_dlpack.py, GPU)",
    "py:cuda.from_dlpack: the tensor is on %s; kernels take CUDA memory: move it to the GPU first (x.cuda()), "
    "or copy it with cuda.to_device(numpy.from_dlpack(x))": "the GPU backend's device check (tests/test_dlpack.py)",
    "py:cuda.from_dlpack: the tensor is on CUDA device %d; the driver sees %d device%s": "a tensor of a device "
    "this process does not see (a producer in another process's numbering)",
    "CUDA device %ld: ptxjit uses devices 0 to %d": "a machine with more than 16 GPUs",  # src/py/devices.c
    "the tensor's DLPack dtype (code %u, %u bits, %u lanes) is not one kernels take: booleans, integers, "
    "float16/32/64 and complex64/128 only": "a dtype NumPy does not export (PyTorch's bfloat16 on the GPU)",
    'out of host memory allocating %zu bytes for a simulated device array': "the simulator's device memory when "
    "the host has none left",  # src/rt/mem.c
    "py:this IPC handle comes from a simulator process (PTXJIT_SIM=1); a GPU process cannot open it":
    "a handle made by a simulator process, opened by a GPU process",  # python/ptxjit/cuda/ipc.py
    'the CUDA driver has no %s': "a CUDA driver older than the entry points of mapped, managed and IPC memory",  # src/rt/memkind.c
    "cuLinkAddData (adding %s to kernel '%s')": "a real driver's linker refusing a cubin, fatbin or object that "
    "is not one (the fake linker takes any bytes)",  # src/rt/link.c
    "py:NVRTC could not create a program of %s (error %d)": "NVRTC out of memory",  # cuda/nvrtc.py
    "cuFuncSetAttribute (a shared memory carveout of %d for kernel '%s')": "a driver refusing a carveout "
    "in 0..100",  # src/rt/stream.c
}

PRIV = "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)"
HOSTMEM = "out of host memory"
SIMINT = "an internal error of the simulator"

INTERNAL = {
    "an overload's chooser returned %.80R, not a device function": "ptxjit.extending's choosers return a "
    "device function, a str or None",  # src/py/jit.c
    "Kernel._link: the kernel's code is linked once, before it is loaded": PRIV,  # src/py/jit.c
    "link input '%s': kind %d is none the driver's linker takes": PRIV,  # src/py/jit.c
    "set_launch_hook takes a callable or None": PRIV,  # src/py/module.c
    "py:this kernel has no typed source (a kernel from the disk cache gets it through its dispatcher: "
    "kernel.inspect_types())": "cache.py gives every kernel it loads its dispatcher, and a compiled one has "
    "its typed source",  # python/ptxjit/cuda/typeann.py
    "a shared memory carveout is -1 to 100, not %ld": PRIV,  # src/py/jit.c (jit() validates it first)
    "py:capture_compile_config needs a dispatcher": "misuse of numba.cuda.launchconfig's test helper",

    "there is no CUDA device %d: the driver sees %d device%s (0 to %d)": "select_device and cuda.gpus count the "
    "devices before a runtime is made for one (src/py/devices.c)",  # src/rt/driver.c
    'out of host memory recording a graph': HOSTMEM,  # src/rt/graph.c
    "out of host memory for a launch of kernel '%s'": HOSTMEM,  # src/rt/stream.c
    "a cooperative launch of kernel '%s' with %llu blocks of %llu threads: the simulator runs at most 1048576 "
    "threads of a grid at once": "the runtime refuses a grid larger than the simulated device holds first "
    "(coop_fits in src/rt/stream.c)",  # src/sim/launch.c
    'this graph is not being captured': PRIV + ": Graph._end; the `with` block ends only its own capture",  # src/rt/graph.c
    'to_dlpack() takes a device array, not %.100s': PRIV,  # src/py/dlpack.c
    "a device array whose stride %zd is not a multiple of its item size %d cannot be exported through DLPack "
    "(strides count elements)": "device arrays' strides are multiples of their item size (the private _view "
    "aside)",  # src/py/dlpack.c
    'the tensor is DLPack version %u.%u; ptxjit reads version 1': "a producer of DLPack 2 tensors (none exists "
    "yet)",  # src/py/dlpack.c
    'out of host memory for a %zu-byte cubin': HOSTMEM,  # src/rt/link.c
    'out of host memory': HOSTMEM + " (the list of pinned ranges)",  # src/rt/mem.c
    'out of host memory allocating %zu bytes of %s memory': HOSTMEM,  # src/rt/mem.c
    'out of host memory allocating %zu bytes of managed memory': HOSTMEM,  # src/rt/memkind.c
    "MemoryError: out of host memory for the interpreter (function '%s')": HOSTMEM,  # src/sim/cpu.c
    "MemoryError: cannot allocate %llu bytes\n  in function '%s'": "the interpreter's allocation without a line; "
    "the front end gives every allocation one (njit_huge_interpreted gives the message with its line)",  # src/sim/cpu.c
    "internal error in the simulator: function '%s' called without its parameter buffer": SIMINT,  # src/sim/cpu.c
    "stopped from outside (pj_sim_stop)\n  %s": "never shown: a run stopped by Ctrl-C raises Python's "
    "KeyboardInterrupt (tests/test_interrupt.py)",  # src/sim/launch.c
    "internal error in the simulator: function '%s' stopped at a barrier or a warp operation": SIMINT,  # src/sim/cpu.c
    "internal error in the simulator: kernel '%s' allocates memory, which only CPU functions can": SIMINT,
    'the function was compiled without its interpreter program': PRIV + ": CpuFunc checks first",  # src/sim/cpu.c
    'the text %.60R contains a NUL character, which ptxjit cannot compile; remove it': "private _core.compile only: Python refuses source files with NUL bytes",  # src/py/jit.c:91
    "internal compiler error: the parameter layout of kernel '%s' does not match its arguments; please report this with the kernel's source": 'an internal compiler error',  # src/py/argpack.c:203
    "kernel '%s' is not set up": "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/config.c:252
    '_typeof() takes a tuple of at most %d arguments': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/config.c:405
    'launchers come from subscripting a kernel: kernel[grid, block]': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/config.c:84
    'c_source() takes a Kernel': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/cpu.c:1020
    'cannot return a value of kind %d': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/cpu.c:339
    'an @njit function returned an array whose memory is unknown': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/cpu.c:395
    'an @njit function failed (code %d)': "an @njit function's unknown status code (an internal error)",  # src/py/cpu.c:495
    '_compile_for must return a CpuFunc': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/cpu.c:647
    'CpuDispatcher used before _setup()': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/cpu.c:667
    'CpuFunc needs a Kernel compiled with target_cpu': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/cpu.c:826
    "CpuFunc(kernel, None) needs a Kernel compiled with sim=True (the interpreter's program)": "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/cpu.c:849
    '_pj_info(): bad field types': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/jit.c:111
    '_pj_info(): a signature is a str': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/jit.c:149
    'nfkc() takes a str': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/jit.c
    'Kernel objects come from compiling a function (ptxjit._core.compile)': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/jit.c:706
    '_pj_info() must return an 11-tuple': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/jit.c:99
    'a cache key has %d characters, not %zd': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/kcache.c:165
    '_adopt_sim() takes a Kernel, not %.100s': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/kcache.c:421
    '_compile_for() returned %.100s, not a Kernel': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/launch.c:193
    'expected a dict': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/module.c:198
    'not a ptxjit._core type': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/module.c:49
    'record_sig() did not return a str': "misuse of ptxjit's private _core API (types and functions that ptxjit's Python code calls)",  # src/py/records.c:45
    "kernel '%s' was compiled without a simulator program": 'the launch path (src/py/config.c, launch.c) checks this first',  # src/rt/stream.c:219
    'MemoryError: out of host memory for the call stack': 'out of host memory',  # src/sim/call.c:287
    'internal error in the simulator: a return without a call': 'an internal error of the simulator',  # src/sim/call.c:330
    'internal error in the simulator: unknown instruction %d\n  %s': 'an internal error of the simulator',  # src/sim/launch.c:137
    "internal error in the simulator: a thread of kernel '%s' stopped at a barrier the program does not have": 'an internal error of the simulator',  # src/sim/launch.c:362
    'the kernel was compiled without its simulator program (PjOptions.sim)': 'the launch path (src/py/config.c, launch.c) checks this first',  # src/sim/launch.c:443
    "launch of kernel '%s' without grid or block dimensions": 'the launch path (src/py/config.c, launch.c) checks this first',  # src/sim/launch.c:446
    "invalid block dimensions (%u, %u, %u) for kernel '%s': each must be at least 1, z at most 64, and at most 1024 threads in all": 'the launch path (src/py/config.c, launch.c) checks this first',  # src/sim/launch.c:450
    "invalid grid dimensions (%u, %u, %u) for kernel '%s': x from 1 to 2147483647, y and z from 1 to 65535": 'the launch path (src/py/config.c, launch.c) checks this first',  # src/sim/launch.c:454
    "launch of kernel '%s' without its parameter buffer": 'the launch path (src/py/config.c, launch.c) checks this first',  # src/sim/launch.c:462
    "out of host memory for the simulator (kernel '%s')": 'out of host memory',  # src/sim/launch.c:481
    'internal error in the simulator: threads wait at warp operations that cannot meet': 'an internal error of the simulator',  # src/sim/warp.c:383
    "copy of %zd bytes at offset %zd is outside the device array's %zd bytes": PRIV + ": the private _htod, _dtoh and _dtod; the copy methods check shapes first",  # src/py/array.c
    'expected a device array, not %.100s': PRIV + ": the private _dtod; copy_to_device checks first",  # src/py/array.c
    'negative size %zd': PRIV + ": HostBuffer; cuda.pinned_array checks the shape first",  # src/py/array.c
    'HostBuffer: kind %d is not 0 (pinned), 1 (mapped) or 2 (managed)': PRIV + ": HostBuffer",  # src/py/array.c
    'only the simulator shares its memory through a memfd': PRIV + ": sim_share; ptxjit/cuda/ipc.py calls it "
    "on the simulator only",  # src/rt/mem.c
    "cannot share %zu bytes of the simulator's device memory through a memfd": "the kernel refusing memfd_create "
    "or a mapping of it (out of memory or file descriptors)",  # src/rt/mem.c
    'an IPC handle has %d bytes, not %zd': PRIV + ": ipc_open; IpcHandle checks the size first",  # src/py/module.c
    'IPC handles of the simulator are made in Python': PRIV + ": ipc_get; ptxjit/cuda/ipc.py shares "
    "the simulator's memory itself",  # src/rt/memkind.c
    'IPC handles of the simulator are opened in Python': PRIV + ": ipc_open; ptxjit/cuda/ipc.py maps "
    "the simulator's shared memory itself",  # src/rt/memkind.c

    'negative size': PRIV + ": size_class()",  # src/py/module.c
    'shared memory of %lld bytes': PRIV + ": Kernel._max_block_size; forall() checks sharedmem first",  # src/py/jit.c
    "the occupancy calculator is the driver's; the simulator has none": "forall() asks is_simulator() first and takes 256 threads there",  # src/rt/stream.c
    "<dynamic python/ptxjit/_cachefile.py: FileExistsError(errno.EEXIST, 'no free name for a private directory', self.path)>": "100 random 64-bit names in a row already taken in the user's own private cache directory",  # python/ptxjit/_cachefile.py
    'ptxjitc() takes a list of bytes': PRIV + ": ptxjit.cli:main passes sys.argv encoded",  # src/py/command.c
    'the array is read-only': "the buffer protocol of the object under an @njit function's read-only result (r.base.obj); Python's callers that want a writable buffer (struct, ctypes, io) replace the message with their own: test_njit_view_of_a_readonly_array_is_readonly",  # src/py/cpu.c
    'py:%s returns %d value%s for arguments (%s) but %d for others: give every call the same number of outputs': "an invariant: the kernel dialect has no type-dependent number of results, and a function over arrays freezes its globals and closure at its first compile: test_ufunc_outputs_do_not_change",  # python/ptxjit/ufunc.py
}

COVERED_ELSEWHERE = {
    "pointer '%s' reaches outside the memory it points into: an element of %lld bytes at byte %lld of an "
    "allocation of %lld bytes (%lld elements)\n  %s": 'pointer_out_of_bounds',  # src/sim/launch.c
    "kernel '%s', argument %d (%s): on the simulator a pointer argument must be the address of a device array's "
    "memory (a.__cuda_array_interface__['data'][0]), and 0x%llx lies in none": 'pointer_outside_device_memory',  # src/py/argpack.c
    "race on shared memory: this thread %s byte %lld of shared array '%s' that %s %s%s with no cuda.syncthreads() between them\n  %s": 'test_sim_race',  # src/sim/launch.c:192
    "read of uninitialised shared memory: byte %lld of shared array '%s' was not written by any thread of block (%u, %u, %u) before this %s\n  %s": 'test_sim_uninitialised_read',  # src/sim/launch.c:247
    # the settings read at import, in child processes of tests/test_host_api.py
    "CUDA is disabled due to setting NUMBA_DISABLE_CUDA=1 in the environment; %s": 'host_api_disable_cuda',  # src/rt/driver.c
    "cuda.use_simulator() comes too late: %s; call it before the first kernel is compiled or the GPU is used, "
    "or set PTXJIT_SIM=1 (or NUMBA_ENABLE_CUDASIM=1) in the environment": 'host_api_use_simulator_too_late',
    'py:a compute capability is written "major.minor", such as "8.0"': 'host_api_config',  # cuda/config.py
    # a fork() child of a process that used the driver (tests/test_fork.py, on the fake driver)
    "CUDA initialized before forking: this process is a fork() of one that had already used the GPU, and the "
    "driver cannot be used in it; start child processes with multiprocessing's 'spawn' or 'forkserver' method, "
    "or use the GPU only after forking": 'fork_after_use',  # src/rt/driver.c
    "py:NUMBA_CUDA_MEMORY_MANAGER=%s: cannot load the memory manager (%s); the module must define "
    "_numba_memory_manager": 'emm_from_environment',  # cuda/__init__.py
}



# Messages that only a C compiler on PATH (cc, $CC) leads to: @njit
# without one runs on the interpreter, which neither builds nor loads.
NEEDS_CC = {
    'py:the C compiler failed on the code ptxjit generated (%s):\n%s',
    "cannot load the compiled function %s: %s (the C compiler made an object this process cannot load: is "
    "PTXJIT_CC or CC a compiler for this machine?)",
    "the compiled function's file %U has no symbol %s (the C compiler made an object without it: is PTXJIT_CC or "
    "CC a C compiler?)",
}

# Messages triggered in a process of their own (tests/errcat_child.py
# runs the case of each name): (name, class, words, formats named).
CHILD_TRIGGERS = [
    ("sim_guard_dynamic_shared", "SimIndexError",
     ["access of 4 bytes at byte 1048576 of the dynamic shared array", "which has 128 bytes", "k_dyn",
      "errcat_child.py:"]),
    ("sim_guard_shared", "SimIndexError", ["outside the block's 128 bytes of shared memory", "k_static",
                                           "errcat_child.py:"]),
    ("njit_interpreter_guard", "SimulatorError", ["ptxjit internal error", "n_squares", "errcat_child.py:"],
     ["<dynamic src/py/cpu.c: PyErr_SetString(st->SimulatorError, e->msg)>"]),
    ("njit_interpreter_endless", "SimulatorError", ["a loop ran 100000 times in one call", "n_spin",
                                                    "errcat_child.py:"]),
    ("record_dtype_limit", "TypeError", ["k_rec", "argument 1 ('a')", "127 different record dtypes"],
     [_RECORD_ARG]),
    ("njit_cc_not_elf", "OSError", ["cannot load", "n_add", "C compiler"]),
    ("njit_cc_no_symbol", "OSError", ["no symbol", "n_add", "C compiler"]),
]

# Messages of the GPU path, triggered through the fake CUDA driver
# (tests/errcat_gpu_child.py, in processes of their own: PART selects
# them): (name, part, class, words, the formats it gives).
GPU_CHILD_TRIGGERS = [
    ("gpu_foreign_dtype", "cases", "TypeError", ["k_store", "argument 1 ('a')", "'<U1'"],
     ["kernel '%s': argument %d ('%s') has dtype '%U', which kernels do not take"]),
    ("gpu_foreign_0d", "cases", "ValueError", ["k_store", "argument 1 ('a')", "0 dimensions"],
     ["kernel '%s': argument %d ('%s') has %zd dimensions; kernels take arrays of 1 to %d dimensions"]),
    ("gpu_foreign_masked", "cases", "NotImplementedError", ["k_store", "argument 1 ('a')", "masked"],
     ["kernel '%s': argument %d ('%s'): masked arrays are not supported"]),
    ("gpu_foreign_stream", "cases", "TypeError", ["k_store", "argument 1 ('a')", "'stream'", "'s'"],
     ["kernel '%s': argument %d ('%s'): the 'stream' of its __cuda_array_interface__ is %R; it must be None or "
      "a CUstream handle (an int)"]),
    ("gpu_too_much_shared", "cases", "ValueError", ["k_big_shared", "320000 bytes", "at most 232448"],
     ["kernel '%s' needs %lld bytes of shared memory per block (%lld static, %u dynamic); a block of this "
      "device has at most %d"]),
    ("gpu_out_of_memory", "cases", "CudaAPIError", ["CUDA_ERROR_OUT_OF_MEMORY", "cuMemAlloc(16777216 bytes)"],
     ["cuMemAlloc(%zu bytes)"]),
    ("gpu_ptx_rejected", "cases", "CudaAPIError", ["CUDA_ERROR_INVALID_PTX", "k_fresh", "JIT log"],
     ["cuModuleLoadDataEx (loading the PTX of kernel '%s')", "\nThe driver's JIT log:\n%s"]),
    ("gpu_fault", "cases", "CudaAPIError", ["kernel 'k_store'", "CUDA_ERROR_ILLEGAL_ADDRESS (700)",
                                            "cuEventSynchronize", "kernel arguments", "cuda.close()"],
     ["cuEventSynchronize (a staging buffer of kernel arguments)", "%s (%d) in %s%s%s",
      "\nThe CUDA context cannot be used after this error (a kernel faulted); call cuda.close() to reset it. "
      "Device arrays made before are lost."]),
    ("gpu_after_fault", "cases", "CudaAPIError", ["context was lost", "cuda.close()", "ILLEGAL_ADDRESS"],
     ["the CUDA context was lost to an earlier error and cannot be used until cuda.close() resets it (device "
      "arrays, streams and events made before it are gone); the error was: %.2800s"]),
    ("gpu_closed_array_copy", "cases", "CudaDriverError", ["device array", "cuda.close()"],
     ["this device array was allocated before cuda.close(); its memory is gone"]),
    ("gpu_closed_array_arg", "cases", "CudaDriverError", ["k_store", "argument 1 ('a')", "cuda.close()"],
     ["kernel '%s': argument %d ('%s') is a device array allocated before cuda.close(); its memory is gone"]),
    ("gpu_closed_stream_copy", "cases", "CudaDriverError", ["stream", "cuda.close()"],
     ["this stream was made before cuda.close() and cannot be used any more"]),
    ("gpu_closed_event", "cases", "CudaDriverError", ["event", "cuda.close()"],
     ["this %s was made before cuda.close() and cannot be used any more"]),
    ("gpu_no_device", "no_device", "CudaSupportError", ["CUDA_ERROR_NO_DEVICE", "cuInit", "PTXJIT_SIM=1"],
     ["cuInit", "; no CUDA GPU is visible; %s"]),
    ("gpu_no_driver", "no_driver", "CudaSupportError", ["no CUDA driver", "/nonexistent/libcuda.so",
                                                        "PTXJIT_SIM=1"],
     ["no CUDA driver was found (%s could not be loaded: %s); %s"]),
    ("gpu_old_driver", "old_driver", "CudaSupportError", ["has no entry point cuLaunchHostFunc", "too old",
                                                          "PTXJIT_SIM=1"],
     ["the CUDA driver %s has no entry point %s (it is too old; ptxjit needs CUDA 11.0 or newer); %s"]),
    ("gpu_no_linker", "no_linker", "CudaSupportError", ["no cuLink* entry points"],
     ["the CUDA driver has no cuLink* entry points"]),
    # a debug kernel's error word (src/rt/trapword.c, src/py/kexc.c)
    ("gpu_trap_raise", "cases", "ValueError", ["In function 'k_raise'", "errcat_gpu_child.py, line",
                                               "tid=[3, 0, 0] ctaid=[1, 0, 0]", "a[0] is too big"], []),
    ("gpu_trap_unknown_code", "cases", "TrapError", ["k_raise", "unknown error code 99"],
     ["kernel '%s' stopped with the unknown error code %u"]),
    ("gpu_trap_rebound_class", "cases", "TrapError", ["In function 'k_mine'", "errcat_gpu_child.py, line",
                                                      "tid=[3, 0, 0]", "GpuError: a[0] is mine",
                                                      "no exception class"],
     ["%s: %s (kernel '%s' raised '%s', which is no exception class of the builtins or of the kernel's "
      "globals now)"]),
    # the linker and machine code (src/rt/link.c: the cache of kernels calls these)
    ("gpu_link_rejects", "cases", "CudaAPIError", ["CUDA_ERROR_INVALID_PTX (218)", "cuLink", "k_store",
                                                   "JIT log", "fake linker rejected"],
     ["cuLink (making the machine code of kernel '%s'%s)", "\nThe driver's JIT log:\n%s"]),
    ("gpu_njit_has_no_ptx", "cases", "ValueError", ["n_one", "has no PTX"], ["kernel '%s' has no PTX"]),
    ("gpu_no_such_device", "cases", "IndexError", ["no CUDA device 5", "sees 2 devices"],
     ["there is no CUDA device %ld: the driver sees %d device%s (numbered from 0)"]),
    ("gpu_other_device_array", "cases", "CudaDriverError",
     ["kernel 'k_store': argument 1 ('a'), a device array, is on device 1", "runs on device 0", "cuda.gpus[1]"],
     ["%s is on device %d, and this work runs on device %d: a stream or device array belongs to the device "
      "that was current when it was made; copy the data over (d_b.copy_to_device(d_a)) or make the work's "
      "device current (with cuda.gpus[%d]: ...)"]),
    ("gpu_huge_alloc", "cases", "ValueError", ["cannot allocate 1152921504606846976 bytes of device memory"],
     ["cannot allocate %zu bytes of device memory"]),
]

# Each CUDA driver call the runtime checks (CHECK(...) and rt_fail in
# src/rt), failed by the fake driver where a user's action reaches it
# (tests/errcat_gpu_child.py DRIVER_CASES and _init_cases): (case, part,
# the format, words besides the call's name, the error and its code).
_UNK = ("CUDA_ERROR_UNKNOWN", "(999)")
DRIVER_TRIGGERS = [
    ("drv_graph_begin", "cases", "cuStreamBeginCapture (cuda.graph capture)", _UNK, []),
    ("drv_graph_end", "cases", "cuStreamEndCapture (cuda.graph capture)", _UNK, []),
    ("drv_graph_instantiate", "cases", "cuGraphInstantiate (the captured graph)", _UNK, []),
    ("drv_graph_launch", "cases", "cuGraphLaunch (graph.launch())", _UNK, []),
    ("drv_graph_copy", "cases", "cuMemcpy%sAsync (%zu bytes, in a graph capture)", _UNK, ["DtoD", "400 bytes"]),
    ("drv_graph_memset", "cases", "cuMemsetD8Async (%zu bytes, in a graph capture)", _UNK, ["400 bytes"]),
    ("drv_alloc_code_unnamed", "cases", "cuMemAlloc(%zu bytes)", ("CUDA_ERROR_12345", "(12345)"),
     ["12582912 bytes"]),
    ("drv_htod", "cases", "cuMemcpyHtoD(%zu bytes to a device array)", _UNK, ["4000 bytes", "to a device array"]),
    ("drv_htod_async", "cases", "cuMemcpyHtoDAsync(%zu bytes to a device array)", _UNK, ["400 bytes"]),
    ("drv_htod_staged", "cases", "cuMemcpyHtoDAsync(%zu bytes to a device array, staged)", _UNK,
     ["262144 bytes", "staged"]),
    ("drv_dtoh", "cases", "cuMemcpyDtoH(%zu bytes from a device array)", _UNK, ["4000 bytes", "from a device array"]),
    ("drv_dtoh_async", "cases", "cuMemcpyDtoHAsync(%zu bytes from a device array)", _UNK, ["400 bytes"]),
    ("drv_dtoh_staged", "cases", "cuMemcpyDtoHAsync(%zu bytes from a device array, staged)", _UNK,
     ["262144 bytes", "staged"]),
    ("drv_dtod", "cases", "cuMemcpyDtoD(%zu bytes between device arrays)", _UNK, ["400 bytes"]),
    ("drv_dtod_async", "cases", "cuMemcpyDtoDAsync(%zu bytes between device arrays)", _UNK, ["400 bytes"]),
    ("drv_memset", "cases", "cuMemsetD8(%zu bytes of a device array)", _UNK, ["400 bytes"]),
    ("drv_host_register", "cases", "cuMemHostRegister(%zu bytes: %s host memory)", _UNK,
     ["524288 bytes", "pinning"]),
    ("drv_host_map", "cases", "cuMemHostRegister(%zu bytes: %s host memory)", _UNK, ["8192 bytes", "mapping"]),
    ("drv_host_device_pointer", "cases", "cuMemHostGetDevicePointer (the device address of mapped host memory)",
     _UNK, ["mapped host memory"]),
    ("drv_managed_alloc", "cases", "cuMemAllocManaged(%zu bytes)", _UNK, ["8000 bytes"]),
    ("drv_ipc_range", "cases", "cuMemGetAddressRange (the allocation of a device array)", _UNK, []),
    ("drv_ipc_get", "cases", "cuIpcGetMemHandle (%zu bytes of device memory)", _UNK, ["512 bytes"]),
    ("drv_ipc_open", "cases", "cuIpcOpenMemHandle (device memory of another process)", _UNK, []),
    ("drv_host_unregister", "cases", "cuMemHostUnregister (unpinning host memory)", _UNK, []),
    ("drv_mem_info", "cases", "cuMemGetInfo (the device's free memory)", _UNK, []),
    ("drv_sync", "cases", "cuCtxSynchronize (cuda.synchronize())", _UNK, []),
    ("drv_stream_create", "cases", "cuStreamCreate (cuda.stream())", _UNK, []),
    ("drv_stream_sync", "cases", "cuStreamSynchronize (waiting for a stream's work)", _UNK, []),
    ("drv_stream_query", "cases", "cuStreamQuery (stream.query())", _UNK, []),
    ("drv_host_func", "cases", "cuLaunchHostFunc (stream.add_callback())", _UNK, []),
    ("drv_event_create", "cases", "cuEventCreate (cuda.event())", _UNK, []),
    ("drv_event_record", "cases", "cuEventRecord (event.record())", _UNK, []),
    ("drv_event_sync", "cases", "cuEventSynchronize (event.synchronize())", _UNK, []),
    ("drv_event_query", "cases", "cuEventQuery (event.query())", _UNK, []),
    ("drv_event_wait", "cases", "cuStreamWaitEvent (event.wait())", _UNK, []),
    ("drv_event_elapsed", "cases", "cuEventElapsedTime (cuda.event_elapsed_time())", _UNK, []),
    ("drv_order_event", "cases", "cuEventCreate (for the stream of an array's producer)", _UNK, []),
    ("drv_order_record", "cases", "cuEventRecord (on the stream of an array's producer)", _UNK, []),
    ("drv_order_wait", "cases", "cuStreamWaitEvent (a launch after the stream of an array's producer)", _UNK, []),
    ("drv_launch", "cases", "cuLaunchKernel of kernel '%s' (grid (%u, %u, %u), block (%u, %u, %u), %u bytes of "
     "dynamic shared memory)", ("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "(701)"),
     ["k_store", "grid (2, 3, 1), block (32, 4, 1)"]),
    ("drv_func_attr", "cases", "cuFuncGetAttribute(%d) of kernel '%s'", _UNK, ["k_store"]),
    ("drv_occupancy", "cases", "cuOccupancyMaxPotentialBlockSize (a block size for kernel '%s')", _UNK, ["k_fresh"]),
    ("drv_active_blocks", "cases", "cuOccupancyMaxActiveBlocksPerMultiprocessor (blocks of %d threads of kernel '%s')",
     _UNK, ["128 threads", "k_fresh"]),
    ("drv_dyn_smem", "cases", "cuFuncSetAttribute (%u bytes of dynamic shared memory for kernel '%s')", _UNK,
     ["65536 bytes", "k_dyn"]),
    ("drv_get_function", "cases", "cuModuleGetFunction('%s')", ("CUDA_ERROR_NOT_FOUND", "(500)"), ["k_fresh"]),
    ("drv_arg_htod", "cases", "cuMemcpyHtoDAsync(%zu bytes of a NumPy kernel argument)", _UNK,
     ["kernel 'k_store'", "262144 bytes"]),
    ("drv_arg_htod_staged", "cases", "cuMemcpyHtoDAsync(%zu bytes of a NumPy kernel argument, staged)", _UNK,
     ["kernel 'k_store'", "131072 bytes"]),
    ("drv_arg_dtoh", "cases", "cuMemcpyDtoHAsync(%zu bytes: the copy back of a NumPy kernel argument)", _UNK,
     ["kernel 'k_store'", "262144 bytes"]),
    ("drv_arg_dtoh_staged", "cases",
     "cuMemcpyDtoHAsync(%zu bytes: the copy back of a NumPy kernel argument, staged)", _UNK,
     ["kernel 'k_store'", "131072 bytes"]),
    ("drv_arg_stage_record", "cases", "cuEventRecord (a staging buffer of kernel arguments)", _UNK,
     ["kernel 'k_store'"]),
    ("drv_arg_stage_sync", "cases", "cuEventSynchronize (a staging buffer of kernel arguments)", _UNK,
     ["kernel 'k_store'"]),
    ("drv_arg_copy_back_sync", "cases", "cuEventSynchronize (the copy back of a NumPy kernel argument)", _UNK,
     ["kernel 'k_store'"]),
    ("drv_arg_stream_sync", "cases", "cuStreamSynchronize (after the copy back of NumPy kernel arguments)", _UNK,
     ["kernel 'k_store'"]),
    ("drv_trap_sync", "cases", "cuStreamSynchronize (after kernel '%s')", _UNK, ["k_raise"]),
    ("drv_trap_read", "cases", "cuMemcpyDtoH (the error word of kernel '%s')", _UNK, ["k_raise"]),
    ("drv_trap_clear", "cases", "cuMemsetD8 (the error word of kernel '%s')", _UNK, ["k_raise"]),
    ("drv_link_create", "cases", "cuLinkCreate", _UNK, []),
    ("drv_load_cubin", "cases", "cuModuleLoadDataEx (loading the cached machine code of kernel '%s')",
     ("CUDA_ERROR_INVALID_IMAGE", "(200)"), ["k_store"]),
    ("drv_ctx_get", "cases", "cuCtxGetCurrent (finding this thread's context)", _UNK, []),
    ("drv_ctx_set", "cases", "cuCtxSetCurrent (making ptxjit's context this thread's)", _UNK, []),
    ("drv_release", "init", "cuDevicePrimaryCtxRelease", _UNK, []),
    ("init_cuinit", "init", "cuInit", _UNK, []),
    ("init_version", "init", "cuDriverGetVersion", _UNK, []),
    ("init_count", "init", "cuDeviceGetCount", _UNK, []),
    ("init_get", "init", "cuDeviceGet(%d)", ("CUDA_ERROR_INVALID_DEVICE", "(101)"), ["cuDeviceGet(0)"]),
    ("drv_peer_can", "cases", "cuDeviceCanAccessPeer(%d, %d)", _UNK, ["cuDeviceCanAccessPeer(0, 1)"]),
    ("drv_peer_enable", "cases", "cuCtxEnablePeerAccess (device %d reaching device %d's memory)", _UNK,
     ["device 0 reaching device 1's memory"]),
    ("drv_peer_copy", "cases", "cuMemcpyPeer(%zu bytes from device %d to device %d)", _UNK,
     ["400 bytes from device 0 to device 1"]),
    ("drv_peer_copy_async", "cases", "cuMemcpyPeerAsync(%zu bytes from device %d to device %d)", _UNK,
     ["400 bytes from device 0 to device 1"]),
    ("init_name", "init", "cuDeviceGetName", _UNK, []),
    ("init_total_mem", "init", "cuDeviceTotalMem", _UNK, []),
    ("init_attribute", "init", "cuDeviceGetAttribute(%d)", _UNK, []),
    ("init_retain", "init", "cuDevicePrimaryCtxRetain", _UNK, []),
    ("init_set_current", "init", "cuCtxSetCurrent", _UNK, []),
]


def _call_of(fmt):
    return re.match(r"cu[A-Za-z0-9]+", fmt).group(0)


GPU_CHILD_TRIGGERS += [
    (name, part, "CudaAPIError", [_call_of(fmt), err[0], err[1]] + words,
     [fmt, "%s (%d) in %s%s%s"] + (["kernel '%.100s': "] if words and words[0].startswith("kernel '") else []))
    for name, part, fmt, err, words in DRIVER_TRIGGERS
]
GPU_CHILD_TRIGGERS += [
    ("init_no_gpus", "init", "CudaSupportError", ["found no GPU", "PTXJIT_SIM=1"],
     ["the CUDA driver found no GPU; %s"]),
    ("init_retain_after_fault", "init", "CudaAPIError",
     ["CUDA_ERROR_ILLEGAL_ADDRESS (700)", "cuDevicePrimaryCtxRetain", "after the kernel fault and cuda.close()",
      "restart Python"],
     ["%s (%d) in cuDevicePrimaryCtxRetain: after the kernel fault and cuda.close(), the driver gives this "
      "process no new context. CUDA does not always recover from a kernel fault inside a process (its "
      "documentation: the process must be terminated and relaunched); restart Python to use the GPU again."]),
]
