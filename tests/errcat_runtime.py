"""The runtime's and the simulator's user-facing messages, read from the
sources, for tests/test_error_catalogue.py.

runtime_formats() returns {format: "file:line"} for every message that
src/py, src/rt, src/sim and python/ptxjit raise:
  - C: PyErr_SetString/PyErr_Format (src/py), rt_fail/rt_fail_rt
    (src/rt), fail/bad_launch/stack_fail (src/sim) with a literal format;
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
    ("src/rt/*.c", (("rt_fail_rt", 3), ("rt_fail", 3))),
    ("src/sim/*.c", (("fail", 3), ("bad_launch", 1), ("stack_fail", 3))),
]


def _py_literal(node):
    """The format text of a raise's first argument, or None."""
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
                    if args[idx].startswith('"'):
                        found.setdefault(_literal(args[idx]), where)
                    else:
                        found.setdefault("<dynamic %s: %s(%s)>" % (rel, name, ", ".join(args)), where)
    for path in sorted(glob.glob(os.path.join(ROOT, "python", "ptxjit", "**", "*.py"), recursive=True)):
        rel = os.path.relpath(path, ROOT)
        with open(path) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call) or not node.exc.args:
                continue
            where = "%s:%d" % (rel, node.lineno)
            lit = _py_literal(node.exc.args[0])
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


SIM = "sim"       # runs on the simulator only (the GPU run skips it)
GPU = "gpu"       # needs a GPU (PTXJIT_TEST_GPU=1)

TRIGGERS = [
    # launch configuration (src/py/config.c)
    ("block_too_large", lambda: k_store[1, 2000](_f32(), 1.0), "ValueError", ["k_store", "2000", "1024"]),
    ("grid_zero", lambda: k_store[0, 32](_f32(), 1.0), "ValueError", ["k_store", "at least 1"]),
    ("grid_four_dims", lambda: k_store[(1, 1, 1, 1), 32](_f32(), 1.0), "ValueError", ["k_store", "4 dimensions"]),
    ("grid_float", lambda: k_store[1.5, 32](_f32(), 1.0), "TypeError", ["k_store", "grid", "float"]),
    ("grid_holds_str", lambda: k_store[(1, "x"), 32](_f32(), 1.0), "TypeError", ["k_store", "str"]),
    ("block_z_too_large", lambda: k_store[1, (1, 1, 128)](_f32(), 1.0), "ValueError", ["k_store", "dimension z"]),
    ("grid_y_too_large", lambda: k_store[(1, 70000), 1](_f32(), 1.0), "ValueError", ["k_store", "grid dimension y"]),
    ("config_one_element", lambda: k_store[1](_f32(), 1.0), "ValueError", ["k_store", "[grid, block]"]),
    ("shared_bytes_str", lambda: k_store[1, 8, 0, "x"](_f32(), 1.0), "TypeError", ["k_store", "bytes"]),
    ("shared_bytes_negative", lambda: k_store[1, 8, 0, -5](_f32(), 1.0), "ValueError", ["k_store", "-5"]),
    ("no_launch_config", lambda: k_store(_f32(), 1.0), "ValueError", ["k_store", "k_store[blocks, threads]"]),
    ("device_fn_launched", lambda: d_add[1, 1](1, 2), "TypeError", ["d_add", "device function"]),
    ("device_fn_called", lambda: d_add(1, 2), "TypeError", ["d_add", "call it from a kernel"]),
    ("too_much_shared", lambda: k_big_shared[1, 32](cuda.device_array(1, np.float64)), "Exception",
     ["k_big_shared", "320000"]),
    ("dynamic_shared_too_large", lambda: k_store[1, 8, 0, 1 << 30](_f32(), 1.0), "Exception", ["k_store", "shared"]),
    # arguments (src/py/launch.c, argclass.c)
    ("arg_str", lambda: k_store[1, 8](_f32(), "x"), "TypeError", ["k_store", "argument 2", "'v'"]),
    ("arg_object", lambda: k_store[1, 8](_f32(), object()), "TypeError", ["k_store", "argument 2"]),
    ("arg_missing", lambda: k_store[1, 8](_f32()), "TypeError", ["k_store", "1 was given"]),
    ("arg_kw", lambda: k_store[1, 8](_f32(), v=1.0), "TypeError", ["k_store", "positional"]),
    ("arg_list", lambda: k_store[1, 8]([1, 2], 1.0), "TypeError", ["k_store", "argument 1", "'a'"]),
    ("arg_big_int", lambda: k_store[1, 8](_f32(), 1 << 70), "ValueError", ["k_store", "int64"]),
    ("arg_object_array", lambda: k_store[1, 8](np.array([None, 1]), 1.0), "TypeError", ["k_store", "'O'"]),
    ("arg_noncontiguous", lambda: k_store[1, 8](np.zeros((8, 8))[:, 0], 1.0), "ValueError",
     ["k_store", "non-contiguous", "ascontiguousarray"]),
    ("arg_too_many_dims", lambda: k_store[1, 8](np.zeros((1,) * 9), 1.0), "ValueError", ["k_store", "9-dimensional"]),
    ("arg_tuple_too_long", lambda: k_tuple[1, 1](_f32(), tuple(range(300))), "ValueError",
     ["k_tuple", "300 elements"]),
    ("no_matching_signature", lambda: k_two_sigs[1, 1](np.zeros(4, np.int8)), "TypeError",
     ["k_two_sigs", "match none"]),
    ("no_such_signature", lambda: k_two_sigs.inspect_asm("void(int8[::1])"), "KeyError", ["k_two_sigs", "int8"]),
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
    ("view_itemsize", lambda: cuda.device_array((4, 3), np.float32)[:, :2].view(np.float64), "ValueError",
     ["view", "item size"]),
    ("split_2d", lambda: cuda.device_array((2, 2)).split(1), "ValueError", ["split", "1-d"]),
    ("len_0d", lambda: len(cuda.device_array(())), "TypeError", ["len()", "0-d"]),
    ("mapped_array", lambda: cuda.mapped_array(3), "NotImplementedError", ["mapped", "pinned_array"]),
    ("managed_array", lambda: cuda.managed_array(3), "NotImplementedError", ["managed", "device_array"]),
    ("as_cuda_array_numpy", lambda: cuda.as_cuda_array(np.zeros(3)), "TypeError", ["__cuda_array_interface__"]),
    ("select_device_1", lambda: cuda.select_device(1), "ValueError", ["device 0"]),
    ("device_attribute", lambda: cuda.get_current_device().NO_SUCH_ATTRIBUTE, "AttributeError",
     ["NO_SUCH_ATTRIBUTE"]),
    # streams and events (src/py/array.c, stream.c, src/rt/stream.c)
    ("stream_int", lambda: cuda.to_device(np.zeros(3), stream=5), "TypeError", ["stream=5"]),
    ("stream_str", lambda: cuda.to_device(np.zeros(3), stream="s"), "TypeError", ["stream", "str"]),
    ("elapsed_unrecorded", lambda: cuda.event_elapsed_time(cuda.event(), cuda.event()), "ValueError",
     ["recorded"]),
    ("elapsed_no_timing", _recorded_no_timing, "ValueError", ["timing=True"]),
    ("elapsed_not_event", lambda: cuda.event().elapsed_time(3), "TypeError", ["event", "int"]),
    ("set_transfer_mode", lambda: ptxjit._core.set_transfer(mode="nope"), "ValueError", ["'nope'", "staged"]),
    ("set_transfer_threads", lambda: ptxjit._core.set_transfer(threads=0), "ValueError", ["threads"]),
    # the dispatcher and cuda.jit (dispatcher.py)
    ("jit_bad_keyword", lambda: cuda.jit(nosuch=1), "TypeError", ["nosuch"]),
    ("jit_boundscheck", lambda: cuda.jit(boundscheck=True)(lambda a: None), "NotImplementedError",
     ["boundscheck", "PTXJIT_SIM=1"]),
    ("jit_link", lambda: cuda.jit(link=["x.cu"]), "NotImplementedError", ["link="]),
    ("jit_number", lambda: cuda.jit(3), "TypeError", ["3"]),
    ("jit_varargs", lambda: cuda.jit(lambda *a: None), "TypeError", ["*args"]),
    ("jit_bad_signature", lambda: cuda.jit(3.5), "TypeError", ["3.5"]),
    ("compile_device", lambda: d_add.compile("int64(int64, int64)"), "TypeError", ["d_add", "device function"]),
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
    ("vectorize_bad_option", lambda: vectorize(["float32(float32)"], target="cuda", nosuch=1), "TypeError",
     ["nosuch"]),
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
     ["gsum", "inputs"]),
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
    ("compile_ptx_device", lambda: cuda.compile_ptx(d_add.py_func, "int64(int64, int64)", device=True),
     "NotImplementedError", ["device=True"]),
    ("compile_output", lambda: cuda.compile(k_store.py_func, "void(float32[::1], float32)", output="ltoir"),
     "NotImplementedError", ["ltoir"]),
    ("random_bad_states", lambda: cuda.random.init_xoroshiro128p_states(np.zeros(3), 1), "TypeError",
     ["xoroshiro128p_dtype"]),
    ("njit_no_sig_match", lambda: _njit_sigs()(np.zeros(3)), "TypeError", ["n_sig", "match none"]),
    ("njit_object_mode_flag", lambda: njit(nopython=False), "NotImplementedError", ["object mode"]),
]


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
    ("sim_out_of_bounds", lambda: k_oob[1, 1](_f32(), 8), "SimIndexError",
     ["index 8", "size 8", "'a'", "k_oob", "errcat_runtime.py:"]),
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
     ["cuda.shfl_sync()", "mask", "lane 1", "k_shfl_mask", "errcat_runtime.py:"]),
    ("sim_warp_mismatch", lambda: k_warp_mismatch[1, 32](_f32(32)), "DeadlockError",
     ["different warp operations", "cuda.ballot_sync()", "k_warp_mismatch"]),
    ("sim_barrier_kinds", lambda: k_barrier_kinds[1, 32](_f32(32)), "DeadlockError",
     ["barriers of different kinds", "syncthreads_count", "k_barrier_kinds"]),
]


# Formats that a trigger gives but that are almost all conversions (so
# that a regex would match any message) are named by the trigger itself,
# as its fifth element.

# ----------------------------------------------- what no trigger here covers
#
# GPU_ONLY: the messages of the CUDA driver's path, and of GPU memory and
# contexts (tests/test_fault.py drives some of them through the fake
# driver in tests/fake_cuda; the GPU run reaches the others).
# INTERNAL: not for users: internal errors, out of host memory, and the
# private _core API that ptxjit's own Python code calls correctly.
# COVERED_ELSEWHERE: {format: the test in test_error_catalogue.py that
# triggers it in a child process (the simulator's checks are chosen when
# ptxjit is imported)}.
# NOT_YET_TRIGGERED: reachable by users, no trigger yet.  Shrink it; never
# add to it to make a new message pass.

GPU_ONLY = {
    'py:masked arrays are not supported': 'needs GPU memory or a GPU context',  # python/ptxjit/cuda/api.py:312
    "kernel '%s': argument %d ('%s'): masked arrays are not supported": 'needs GPU memory or a GPU context',  # src/py/argclass.c:202
    "kernel '%s': argument %d ('%s'): the 'stream' of its __cuda_array_interface__ is %R; it must be None or a CUstream handle (an int)": 'needs GPU memory or a GPU context',  # src/py/argclass.c:254
    "kernel '%s': argument %d ('%s') is a device array allocated before cuda.close(); its memory is gone": 'needs GPU memory or a GPU context',  # src/py/argclass.c:412
    'this device array was allocated before cuda.close(); its memory is gone': 'needs GPU memory or a GPU context',  # src/py/array.c:248
    'this stream was made before cuda.close() and cannot be used any more': 'needs GPU memory or a GPU context',  # src/py/array.c:81
    '<dynamic src/py/kexc.c: PyErr_SetString(st->TrapError, whole)>': 'needs GPU memory or a GPU context',  # src/py/kexc.c:58
    "kernel '%s' stopped with the unknown error code %u": 'needs GPU memory or a GPU context',  # src/py/kexc.c:94
    '<dynamic src/rt/driver.c: rt_fail(rt, e, r_, __VA_ARGS__)>': "the CUDA driver's path",  # src/rt/driver.c:176
    'no CUDA driver was found (%s could not be loaded: %s); %s': "the CUDA driver's path",  # src/rt/driver.c:184
    'the CUDA driver %s has no entry point %s (it is too old; ptxjit needs CUDA 11.0 or newer); %s': "the CUDA driver's path",  # src/rt/driver.c:194
    'cuInit': "the CUDA driver's path",  # src/rt/driver.c:217
    'the CUDA driver found no GPU; %s': "the CUDA driver's path",  # src/rt/driver.c:227
    'cuDevicePrimaryCtxRetain': "the CUDA driver's path (after a fault: bench/soak.py fault)",  # src/rt/driver.c:247
    "kernel '%s' needs %lld bytes of shared memory per block (%lld static, %u dynamic); a block of this device has at most %d": "the CUDA driver's path (too_much_shared on the GPU)",  # src/rt/stream.c
    'cuCtxSetCurrent': "the CUDA driver's path",  # src/rt/driver.c:250
    'device attribute %d has no value on the simulator': "the CUDA driver's path",  # src/rt/driver.c:310
    'cuDevicePrimaryCtxRelease': "the CUDA driver's path",  # src/rt/driver.c:384
    'cuLinkCreate': "the CUDA driver's path",  # src/rt/link.c:106
    "cuLink (making the machine code of kernel '%s')": "the CUDA driver's path",  # src/rt/link.c:114
    'out of host memory for a %zu-byte cubin': "the CUDA driver's path",  # src/rt/link.c:124
    'the CUDA driver has no cuLink* entry points': "the CUDA driver's path",  # src/rt/link.c:48
    'the simulator runs no machine code': "the CUDA driver's path",  # src/rt/link.c:55
    "cuModuleLoadDataEx (loading the cached machine code of kernel '%s')": "the CUDA driver's path",  # src/rt/link.c:61
    "cuModuleGetFunction('%s')": "the CUDA driver's path",  # src/rt/link.c:67
    'the simulator makes no machine code': "the CUDA driver's path",  # src/rt/link.c:84
    "kernel '%s' has no PTX": "the CUDA driver's path",  # src/rt/link.c:86
    'out of host memory allocating %zu bytes for a simulated device array': "the CUDA driver's path",  # src/rt/mem.c:117
    'cuMemAlloc(%zu bytes)': "the CUDA driver's path",  # src/rt/mem.c:119
    '<dynamic src/rt/mem.c: rt_fail(rt, e, r_, __VA_ARGS__)>': "the CUDA driver's path",  # src/rt/mem.c:194
    'cuMemcpyHtoDAsync(%zu bytes, staged)': "the CUDA driver's path",  # src/rt/mem.c:276
    'cuMemcpyDtoHAsync(%zu bytes, staged)': "the CUDA driver's path",  # src/rt/mem.c:348
    'out of host memory': "the CUDA driver's path",  # src/rt/mem.c:446
    'out of host memory allocating %zu bytes of pinned memory': "the CUDA driver's path",  # src/rt/mem.c:467
    'cannot allocate %zu bytes of device memory': "the CUDA driver's path",  # src/rt/mem.c:91
    'this %s was made before cuda.close() and cannot be used any more': "the CUDA driver's path",  # src/rt/stream.c:108
    '<dynamic src/rt/stream.c: rt_fail(rt, e, r_, __VA_ARGS__)>': "the CUDA driver's path",  # src/rt/stream.c:21
    "cuModuleLoadDataEx (loading the PTX of kernel '%s')": "the CUDA driver's path",  # src/rt/stream.c:252
    "cuStreamSynchronize (after kernel '%s')": "the CUDA driver's path",  # src/rt/trapword.c:29
    "cuMemcpyDtoH (the error word of kernel '%s')": "the CUDA driver's path",  # src/rt/trapword.c:41
    "cuMemsetD8 (the error word of kernel '%s')": "the CUDA driver's path",  # src/rt/trapword.c:43
    "transfer settings: mode 'staged', 'register' or 'driver', chunk >= 1 byte, 1 to %d threads": "the CUDA driver's path",  # src/rt/xfer.c:304
    '<dynamic src/rt/xfer.c: rt_fail(rt, e, r_, __VA_ARGS__)>': "the CUDA driver's path",  # src/rt/xfer.c:50
}

INTERNAL = {
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
}

COVERED_ELSEWHERE = {
    "race on shared memory: this thread %s byte %lld of shared array '%s' that %s %s%s with no cuda.syncthreads() between them\n  %s": 'test_sim_race',  # src/sim/launch.c:192
    "read of uninitialised shared memory: byte %lld of shared array '%s' was not written by any thread of block (%u, %u, %u) before this %s\n  %s": 'test_sim_uninitialised_read',  # src/sim/launch.c:247
}

NOT_YET_TRIGGERED = {
    'py:@%s(target=%r) on %r is not implemented yet in ptxjit; write a kernel with @cuda.jit (from ptxjit import cuda) or call the Python function as %s.py_func(...)',  # python/ptxjit/__init__.py:55
    'py:@%s on %r: ptxjit compiles for the GPU only so far (there is no CPU compiler yet); call the plain Python function as %s.py_func(...), or write a kernel with @cuda.jit',  # python/ptxjit/__init__.py:59
    'py:the C compiler failed on the code ptxjit generated (%s):\n%s',  # python/ptxjit/cpu.py:119
    'py:njit needs a Python function, not %s',  # python/ptxjit/cpu.py:146
    'py:ptxjit uses device 0 only',  # python/ptxjit/cuda/api.py:119
    'py:the simulator (PTXJIT_SIM=1) cannot use GPU memory of another library; copy the data to a NumPy array',  # python/ptxjit/cuda/api.py:314
    'py:copy_to_device: the source has shape %s and dtype %s; this array has shape %s and dtype %s',  # python/ptxjit/cuda/devicearray.py:152
    'py:cannot find the source code of function %r (file %s, line %d): ptxjit compiles a kernel from its source text, so the function must be defined in a file Python can read; functions typed at the interactive prompt or made with exec() have no source (%s)',  # python/ptxjit/cuda/dispatcher.py:244
    'py:cuda.jit needs a Python function, not %s',  # python/ptxjit/cuda/dispatcher.py:362
    'py:kernel %r has %d compiled signatures; name one',  # python/ptxjit/cuda/dispatcher.py:485
    'py:record field %r is an array of arrays (%s)',  # python/ptxjit/cuda/records.py:32
    'py:dtype %s is not a structured dtype (it has no fields)',  # python/ptxjit/cuda/records.py:55
    'py:dtype %s has no fields',  # python/ptxjit/cuda/records.py:63
    'py:%s() takes types to make a signature',  # python/ptxjit/types.py:35
    'py:%s: the out= array has shape %s; the layout %r gives %s',  # python/ptxjit/ufunc.py:1000
    'py:%s: device=True is a @cuda.jit option; a function over arrays is called from the host',  # python/ptxjit/ufunc.py:1124
    'py:%s takes the function, or signatures and options',  # python/ptxjit/ufunc.py:1134
    'py:guvectorize takes signatures and a layout',  # python/ptxjit/ufunc.py:1187
    "py:a signature is a string like 'float32(float32, float32)', not %r",  # python/ptxjit/ufunc.py:135
    'py:%s returns nothing: a function over arrays returns the value of each element (return x + y), or a tuple of values for several outputs',  # python/ptxjit/ufunc.py:230
    'py:%s returns %s; a function over arrays returns a number per element, or a tuple of numbers for several outputs',  # python/ptxjit/ufunc.py:237
    'py:%s returns an empty tuple',  # python/ptxjit/ufunc.py:241
    'py:%s cannot run on arguments of types (%s): %s',  # python/ptxjit/ufunc.py:273
    "<dynamic python/ptxjit/ufunc.py: _error_at(text, file, first, shift, node, bad + ': it is not elementwise', ELEMENTWISE_HINT)>",  # python/ptxjit/ufunc.py:345
    'py:%s: the number of outputs is known after the first call',  # python/ptxjit/ufunc.py:545
    'py:%s returns %d value%s for arguments (%s) but %d for others: give every call the same number of outputs',  # python/ptxjit/ufunc.py:588
    'py:%s: the out= array has shape %s; the result has shape %s',  # python/ptxjit/ufunc.py:699
    'py:arrays of dtype %s cannot be used on the GPU; use bool, integer, float or complex dtypes',  # python/ptxjit/ufunc.py:78
    "py:a gufunc layout reads '(m,n),(n,p)->(m,p)', not %r",  # python/ptxjit/ufunc.py:859
    'py:%s: the signature %r has %d arguments; the layout needs %d',  # python/ptxjit/ufunc.py:929
    'py:%s: argument %d of %r has %d dimensions; the layout gives it %d',  # python/ptxjit/ufunc.py:934
    'py:%s: no signature takes arguments of types (%s); the signatures are %s',  # python/ptxjit/ufunc.py:949
    'py:%s has %d outputs; out= gives %d',  # python/ptxjit/ufunc.py:965
    'py:%s: dimension %r is %d in one input and %d in another (layout %r)',  # python/ptxjit/ufunc.py:989
    'py:%s=%r: give a number of threads',  # python/ptxjit/ufunc_cpu.py:132
    'py:%s: argument %d is %r, which is not a number',  # python/ptxjit/ufunc_cpu.py:243
    'py:%s takes no arguments; a function over arrays takes one per array',  # python/ptxjit/ufunc_cpu.py:286
    'py:%s: the out= array has dtype %s; use bool, integer, float or complex',  # python/ptxjit/ufunc_cpu.py:421
    'py:%s.reduce: reduce only supported for binary functions; this one takes %d argument%s',  # python/ptxjit/ufunc_cpu.py:489
    'py:%s.reduce: an array of %s; use bool, integer, float or complex arrays',  # python/ptxjit/ufunc_cpu.py:495
    'py:%s.reduce: the function has %d outputs; reduce needs one',  # python/ptxjit/ufunc_cpu.py:529
    'py:%s.reduce: out= must be an array of shape %s',  # python/ptxjit/ufunc_cpu.py:557
    'py:%s: input %d has %d dimension%s; the layout %r needs at least %d',  # python/ptxjit/ufunc_cpu.py:654
    'py:%s: the size of output dimension %r is unknown',  # python/ptxjit/ufunc_cpu.py:665
    'py:%s: the out= array has %d dimensions; the layout %r needs at least %d',  # python/ptxjit/ufunc_cpu.py:669
    "py:guvectorize needs a layout: guvectorize(signatures, '(m,n),(n,p)->(m,p)')",  # python/ptxjit/ufunc_cpu.py:768
    "kernel '%s': argument %d ('%s') has dtype '%U', which kernels do not take",  # src/py/argclass.c:218
    "kernel '%s': argument %d ('%s') has %zd dimensions; kernels take arrays of 1 to %d dimensions",  # src/py/argclass.c:224
    "kernel '%s': argument %d ('%s'): %S",  # src/py/argclass.c:293
    "kernel '%s': argument %d ('%s') is a NumPy array of dtype %S, which kernels do not take (numbers and bools only)",  # src/py/argclass.c:354
    "kernel '%s': argument %d ('%s') is a device array of dtype %R, which kernels do not take (numbers, bools and records of them only)",  # src/py/argclass.c:406
    'shape must be a tuple',  # src/py/array.c:102
    'strides must be None or a tuple of %zd ints',  # src/py/array.c:108
    'dtype must be a numpy.dtype',  # src/py/array.c:112
    'dtype %R has no item size',  # src/py/array.c:118
    'a new device array cannot have negative strides',  # src/py/array.c:176
    "copy of %zd bytes at offset %zd is outside the device array's %zd bytes",  # src/py/array.c:261
    'expected a device array, not %.100s',  # src/py/array.c:402
    'negative size %zd',  # src/py/array.c:560
    "kernel '%s' has %zd parameters; at most %d are supported",  # src/py/config.c:374
    '<dynamic src/py/cpu.c: PyErr_SetString(exc, text)>',  # src/py/cpu.c:477
    '<dynamic src/py/cpu.c: PyErr_SetString(PyExc_IndexError, buf)>',  # src/py/cpu.c:488
    '<dynamic src/py/cpu.c: PyErr_SetString(PyExc_IndexError, e->msg)>',  # src/py/cpu.c:503
    '<dynamic src/py/cpu.c: PyErr_SetString(st->SimulatorError, e->msg)>',  # src/py/cpu.c:510
    'cannot load the compiled function: %s',  # src/py/cpu.c:839
    'the compiled function has no symbol %s',  # src/py/cpu.c:845
    'the array is read-only',  # src/py/cpu.c:970
    'shared memory of %lld bytes',  # src/py/jit.c:642
    "kernel '%s': argument %d ('%s') is a tuple nested too deeply or too large",  # src/py/launch.c:321
    "kernel '%s' takes at most %d numbers and arrays in its arguments (tuples count their elements)",  # src/py/launch.c:344
    'negative size',  # src/py/module.c:393
    'kernels in this process have taken %d different record dtypes, the most ptxjit handles',  # src/py/records.c:68
    'kernel attributes come from the driver; the simulator has none',  # src/rt/stream.c:287
    "the occupancy calculator is the driver's; the simulator has none",  # src/rt/stream.c:299
    '%s',  # src/rt/stream.c:319
    '<dynamic src/sim/call.c: stack_fail(L, fr, ip, L->cpu ? "RecursionError: maximum recursion depth exceeded (10000 nested "\n\t\t                                      "calls on the interpreter)"\n\t\t                             : "RecursionError: maximum recursion depth exceeded (10000 nested calls of "\n\t\t                               "device functions; on a GPU the stack overflows much earlier)")>',  # src/sim/call.c:290
    "access of %d bytes at byte %lld of the dynamic shared array '%s', which has %lld bytes (the launch's fourth element, kernel[blocks, threads, stream, bytes], sizes it)\n  %s",  # src/sim/launch.c:212
    "access outside the block's %lld bytes of shared memory\n  %s",  # src/sim/launch.c:217
    'cuda.%s()%s in warp %u waits for %s of its mask 0x%08x%s: every lane of the mask must reach the warp operation or return (on a GPU this is undefined behaviour, often a hang)',  # src/sim/warp.c:376
}


