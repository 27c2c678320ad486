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


SIM = "sim"       # runs on the simulator only (the lead's GPU run skips it)
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
]


def _readonly(n):
    a = np.zeros(n)
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
     ["a[0] is too small"]),
    ("sim_endless", lambda: k_endless[1, 1](cuda.to_device(np.zeros(1, np.float32))), "DeadlockError",
     ["endless loop", "k_endless"]),
    ("sim_shfl_mask", lambda: k_shfl_mask[1, 32](_f32(32)), "DeadlockError",
     ["cuda.shfl_sync()", "mask", "lane 1", "k_shfl_mask", "errcat_runtime.py:"]),
    ("sim_warp_mismatch", lambda: k_warp_mismatch[1, 32](_f32(32)), "DeadlockError",
     ["different warp operations", "cuda.ballot_sync()", "k_warp_mismatch"]),
    ("sim_barrier_kinds", lambda: k_barrier_kinds[1, 32](_f32(32)), "DeadlockError",
     ["barriers of different kinds", "syncthreads_count", "k_barrier_kinds"]),
]
