"""Functions over whole arrays on the GPU: @jit(target='gpu'), vectorize and
guvectorize with target='cuda' (target='cpu', the default of vectorize and
guvectorize, is ptxjit.ufunc_cpu's).

    from ptxjit import jit, vectorize, guvectorize

    @jit(target='gpu')                   # typed from the arguments at each call
    def add(x, y):
        return x + y

    @vectorize(['float32(float32, float32)'], target='cuda')
    def mul(x, y):
        return x * y

    @guvectorize(['void(float32[:,:], float32[:,:], float32[:,:])'],
                 '(m,n),(n,p)->(m,p)', target='cuda')
    def matmul(A, B, C): ...

The user's function is compiled as a device function (cuda.jit(device=True))
and called from a kernel generated here as Python text in the kernel dialect
and compiled through the ordinary cuda.jit path: a grid-stride loop over the
elements of the broadcast shape.  When every array has that shape and the
same contiguous layout the kernel walks one flat index; otherwise each array
is given NumPy's broadcast view (stride 0 along broadcast axes, any strides
otherwise) and the flat index is unravelled against the output's shape.

Typing is lazy: the element types of the arguments (Python scalars are
int64, float64, complex128 or bool, as in kernels) form the key of a plan;
the compiler types the user's function for them (_core.infer_return) and its
return type, or the tuple of them, gives the outputs' dtypes.  With explicit
signatures the first one the arguments convert to safely is used and the
elements are cast to its types inside the kernel.

NumPy arrays are copied to the device and the results copied back; device
arrays (ptxjit's, or any __cuda_array_interface__ object: CuPy, PyTorch) are
used in place and the results stay on the device.  `out=` writes into given
arrays, `stream=` runs everything on a stream.
"""

import ast
import math
import re
import warnings

import numpy as np

from . import _core, _pickle
from . import types as _types
from .errors import TypingError
from .source import REBUILT

TPB = 256                 # threads per block of the elementwise kernels
MAX_BLOCKS = 1 << 20      # grid-stride beyond this

_DA = None                # cuda.DeviceNDArray, once ptxjit.cuda is imported
_cuda_mod = None


def _cuda():
    global _cuda_mod, _DA
    if _cuda_mod is None:
        from . import cuda
        _cuda_mod = cuda
        _DA = cuda.DeviceNDArray
    return _cuda_mod


# ------------------------------------------------------------- types

_NUMBA_OF_NP = {t.np_name: t.name for t in _types.number_types()}
_NP_OF_NUMBA = {t.name: t.np_name for t in _types.number_types()}
_PY_SCALAR = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float64),
              complex: np.dtype(np.complex128)}


def numba_name(dtype):
    """'float32' for np.float32's dtype; 'boolean' for bool."""
    name = _NUMBA_OF_NP.get(dtype.name)
    if name is None:
        raise TypeError("arrays of dtype %s cannot be used on the GPU; use bool, integer, float or "
                        "complex dtypes" % dtype)
    return name


def _dtype_of_numba(name):
    np_name = _NP_OF_NUMBA.get(name) or ("bool" if name == "bool" else None)
    return np.dtype(np_name) if np_name else None


def _can_cast(key, to):
    """Whether an argument of type `key` (a dtype, or a Python scalar
    type, which converts like NumPy's weak scalars) converts safely."""
    if key is bool:
        return True
    if key is int:
        return to.kind in "iufc"
    if key is float:
        return to.kind in "fc"
    if key is complex:
        return to.kind == "c"
    return np.can_cast(key, to, "safe")


def _value_fits(value, to):
    """Whether host scalar `value` (a NumPy scalar or 0-d array) converts to
    dtype `to` without changing: a declared signature of narrower type
    takes np.int64(2) as an int32, never 2**40 or 2.5."""
    v = np.asarray(value)
    if v.ndim != 0 or v.dtype.kind not in "biufc" or to.kind not in "biufc":
        return False
    with np.errstate(all="ignore"):
        c = v.astype(to)
        return bool(c.astype(v.dtype) == v) and (to.kind == "c" or v.dtype.kind != "c" or v.imag == 0)


def split_outputs(what, nin, nout, args, out):
    """(inputs, out) of a gufunc's call: the outputs come after the inputs
    or as out=, not both."""
    if len(args) == nin + nout:
        if out is not None:
            raise ValueError("cannot specify argument 'out' as both positional and keyword")
        return args[:nin], args[nin:]
    if len(args) != nin:
        raise TypeError("%s: the gufunc accepts %d positional arguments (its inputs) or %d positional arguments "
                        "(inputs and outputs). Got %d positional argument%s."
                        % (what, nin, nin + nout, len(args), "" if len(args) == 1 else "s"))
    return args, out


def _split_top(s):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def parse_signature(sig):
    """(return type, [argument types]) of 'float32(float32, int64)', of
    float32(float32, int64) or of a tuple of types; each type is
    (dtype, ndim, layout) with ndim 0 for scalars, the return None for
    void or a missing one."""
    from .cuda.dispatcher import _canon_type, _parse_argtype
    if isinstance(sig, _types.Signature):
        ret, args = str(sig.return_type), [str(a) for a in sig.args]
    elif isinstance(sig, tuple):
        ret, args = None, [str(a) for a in sig]
    elif isinstance(sig, str):
        s = sig.strip()
        if "(" not in s or not s.endswith(")"):
            raise TypeError("a signature reads 'float32(float32, float32)', not %r" % (sig,))
        ret, args = s[:s.index("(")].strip() or None, _split_top(s[s.index("(") + 1:-1])
    else:
        raise TypeError("a signature is a string like 'float32(float32, float32)', not %r" % (sig,))

    def one(t):
        t = _canon_type(t)
        name, ndim, layout = _parse_argtype(t)
        dt = _dtype_of_numba(name)
        if dt is None:
            raise TypeError("unknown type %r in signature %r" % (t, str(sig)))
        return dt, ndim, layout

    if ret is not None and ret.strip() in ("void", "none"):
        ret = None
    return (one(ret) if ret else None), [one(a) for a in args]


# ------------------------------------------------------- device functions

def _lambda_offset(func, text, first, shift):
    """Byte offset in `text` of the `lambda` keyword that made func (a
    line may hold several lambdas): the last one before its body."""
    body = []
    try:
        for p in func.__code__.co_positions():
            if p[0] is not None and p[2] is not None and (p[2], p[3]) != (0, 0):
                body.append((p[0], p[2]))
    except AttributeError:
        return None
    if not body:
        return None
    if shift == REBUILT:     # the text was written from the bytecode: one lambda, at its start
        return text.find("lambda")
    line, col = min(body)
    lines = text.splitlines(keepends=True)
    k = line - first
    if not 0 <= k < len(lines):
        return None
    raw = lines[k].encode()
    upto = "".join(lines[:k]).encode() + raw[:max(col - shift, 0)]
    prefix = upto.decode(errors="replace")
    found = [m.start() for m in re.finditer(r"\blambda\b", prefix)]
    if not found:
        return None
    return len(prefix[:found[-1]].encode())


_LambdaDispatcher = None


def device_function(func, options=None):
    """The device-function dispatcher that compiles `func` (a def, a
    one-expression lambda, or a cuda.jit(device=True) function)."""
    global _LambdaDispatcher
    _cuda()
    from .cuda.dispatcher import CUDADispatcher, source_of
    if isinstance(func, CUDADispatcher):
        if not func._device:
            raise TypeError("%r is a kernel; give a Python function or a cuda.jit(device=True) function"
                            % func.__name__)
        return func
    if not callable(func) or not hasattr(func, "__code__"):
        raise TypeError("expected a Python function, not %r" % (func,))
    opts = {k: v for k, v in (options or {}).items()
            if k in ("fastmath", "debug", "lineinfo", "opt", "max_registers", "inline")}
    if func.__name__ != "<lambda>":
        return CUDADispatcher(func, None, True, opts)
    if _LambdaDispatcher is None:
        class LambdaDispatcher(CUDADispatcher):
            """A lambda: the compiler reads it out of its source line."""

            def _pj_info(self):
                info = CUDADispatcher._pj_info(self)
                if self._lambda_name is None:
                    text, file, first, shift = self._source
                    off = _lambda_offset(self.py_func, text, first, shift)
                    self._lambda_name = "<lambda>" if off is None else "<lambda@%d>" % off
                return (self._lambda_name,) + info[1:]

        _LambdaDispatcher = LambdaDispatcher
    d = _LambdaDispatcher(func, None, True, opts)
    d._lambda_name = None
    source_of(func)         # a lambda typed at the prompt fails here, saying why
    return d


def infer_return(dev, argtypes):
    """The compiler's spelling of the return type of device function `dev`
    for argument types (Numba names)."""
    from .cuda import dispatcher as D
    if not D._table_ready:
        D._build_resolve_table()
    return _core.infer_return(dev._pj_info(), ", ".join(argtypes))


def return_dtypes(text, what):
    """The dtypes of a return type spelled by infer_return: one for a
    number, one per element for a tuple of numbers."""
    if text == "none":
        raise TypingError("%s returns nothing: a function over arrays returns the value of each "
                          "element (return x + y), or a tuple of values for several outputs" % what)
    names = _split_top(text[1:-1]) if text.startswith("(") else [text]
    out = []
    for n in names:
        dt = _dtype_of_numba(n)
        if dt is None:
            raise TypingError("%s returns %s; a function over arrays returns a number per element, or a "
                              "tuple of numbers for several outputs" % (what, text))
        out.append(dt)
    if not out:
        raise TypingError("%s returns an empty tuple" % what)
    return tuple(out)


def make_kernel(name, text, glb, options=None):
    """A cuda.jit kernel from generated source `text` defining `name`,
    with `glb` as its globals (cuda and np are there too)."""
    cuda = _cuda()
    from .cuda.dispatcher import CUDADispatcher
    g = {"cuda": cuda, "np": np, "math": math}
    g.update(glb)
    filename = "<ptxjit generated %s>" % name
    exec(compile(text, filename, "exec"), g)
    opts = {k: v for k, v in (options or {}).items()
            if k in ("fastmath", "debug", "lineinfo", "opt", "max_registers")}
    d = CUDADispatcher(g[name], None, False, opts)
    d._source = (text, filename, 1, 0)
    return d


def launch(kern, config, args, what, types):
    """kern[config](*args); a compile error inside the generated kernel
    (not in the user's function, which names its own line) is told in the
    words of the function the user called."""
    try:
        kern[config](*args)
    except TypingError as e:
        msg = str(e)
        if not msg.startswith("<ptxjit generated"):
            raise
        first = msg.splitlines()[0]
        why = first.split("error: ", 1)[-1]
        raise TypingError("%s cannot run on arguments of types (%s): %s" % (what, ", ".join(types), why)) from None


def _ident(name):
    s = re.sub(r"\W", "_", name or "f", flags=re.ASCII).strip("_")
    return s or "f"


# ------------------------------------------------- the elementwise check

_SHAPE_ATTRS = {"shape", "size", "ndim", "strides", "T", "flat", "itemsize", "nbytes"}
_THREAD_NAMES = {"grid", "gridsize", "threadIdx", "blockIdx", "blockDim", "gridDim", "syncthreads",
                 "shared", "laneid", "atomic"}
ELEMENTWISE_HINT = ("each argument of a function over arrays stands for one element (scalars for all "
                    "elements): use arithmetic, comparisons, math and NumPy functions, locals, if, loops "
                    "and device functions on the elements; to index arrays, write a kernel with @cuda.jit")


def _error_at(text, file, first, shift, node, what, hint):
    if shift == REBUILT:     # no source text: the line and column the bytecode gives
        return TypingError("%s:%d:%d: error: %s\n    (no source text: the function was rebuilt from its "
                           "bytecode)\nhint: %s\n" % (file, first + node.lineno - 1, node.col_offset + 1, what, hint))
    lines = text.splitlines()
    line = lines[node.lineno - 1] if 0 < node.lineno <= len(lines) else ""
    col = node.col_offset
    end = getattr(node, "end_col_offset", None)
    if end is None or getattr(node, "end_lineno", node.lineno) != node.lineno:
        end = col + 1
    caret = "".join("\t" if ch == "\t" else " " for ch in line[:col]) + "^" + "~" * max(end - col - 1, 0)
    pad = " " * shift
    return TypingError("%s:%d:%d: error: %s\n    %s%s\n    %s%s\nhint: %s\n"
                       % (file, first + node.lineno - 1, col + 1 + shift, what, pad, line, pad, caret, hint))


def _function_node(tree, func):
    name = func.__name__
    for node in ast.walk(tree):
        if name == "<lambda>" and isinstance(node, ast.Lambda):
            return node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    return None


def check_elementwise(func, what):
    """Refuses, at its line, what does not make sense per element:
    indexing an argument, its shape, or the thread indices."""
    from .cuda.dispatcher import source_of, CUDADispatcher
    if isinstance(func, CUDADispatcher):
        func = func.py_func
    try:
        text, file, first, shift = source_of(func)
        tree = ast.parse(text)
    except (SyntaxError, TypingError, OSError, TypeError, ValueError):
        return      # the compiler reports what it cannot read
    fn = _function_node(tree, func)
    if fn is None:
        return
    params = {a.arg for a in fn.args.args}
    body = fn.body if isinstance(fn.body, list) else [fn.body]
    for stmt in body:
        for node in ast.walk(stmt):
            bad = None
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in params:
                bad = "%s indexes its argument '%s'" % (what, node.value.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in params and node.attr in _SHAPE_ATTRS:
                    bad = "%s reads '%s.%s', but '%s' is one element here" % (what, node.value.id, node.attr,
                                                                             node.value.id)
                elif node.value.id == "cuda" and node.attr in _THREAD_NAMES:
                    bad = "%s uses cuda.%s; the threads are ptxjit's to arrange here" % (what, node.attr)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"
                  and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in params):
                bad = "%s takes len() of its argument '%s'" % (what, node.args[0].id)
            if bad:
                raise _error_at(text, file, first, shift, node, bad + ": it is not elementwise",
                                ELEMENTWISE_HINT)


def returns_value(func):
    """True if a def has a `return <value>` (a lambda always does)."""
    from .cuda.dispatcher import source_of
    if func.__name__ == "<lambda>":
        return True
    try:
        tree = ast.parse(source_of(func)[0])
    except Exception:
        return True
    fn = _function_node(tree, func)
    if fn is None:
        return True
    todo = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


# -------------------------------------------------------- operands

def broadcast_shapes(shapes, what):
    """NumPy's broadcast of shapes; ValueError naming them when they do not."""
    nd = max(len(s) for s in shapes)
    out = [1] * nd
    for s in shapes:
        for k, n in enumerate(s):
            j = nd - len(s) + k
            if n != 1:
                if out[j] != 1 and out[j] != n:
                    raise ValueError("%s: operands could not be broadcast together with shapes %s"
                                     % (what, " ".join(str(tuple(x)) for x in shapes)))
                out[j] = n
    return tuple(out)


def broadcast_view(d, shape):
    """A view of device array d with `shape` (stride 0 along broadcast axes)."""
    if d.shape == shape:
        return d
    nd = len(shape)
    lead = nd - d.ndim
    strides = [0] * nd
    for k in range(d.ndim):
        if d.shape[k] != 1 or shape[lead + k] == 1:
            strides[lead + k] = d.strides[k]
    return _DA._view(d, d._ptr, shape, tuple(strides), d.dtype)


def _f_strides(shape, itemsize):
    strides, s = [], itemsize
    for n in shape:
        strides.append(s)
        s *= max(n, 1)
    return tuple(strides)


def flat_view(d, size):
    if d.ndim == 1:
        return d
    return _DA._view(d, d._ptr, (size,), (d.itemsize,), d.dtype)


def as_device(a, stream):
    """(device array, was it on the host) for any array argument."""
    if isinstance(a, _DA):
        return a, False
    if isinstance(a, np.ndarray):
        return _cuda().to_device(a, stream=stream), True
    return _cuda().as_cuda_array(a), False


def _is_array(a):
    return isinstance(a, (np.ndarray, _DA)) or hasattr(a, "__cuda_array_interface__")


def _device_view(a):
    """An out= array as NumPy's or ours: another library's device array (its
    __cuda_array_interface__) becomes a DeviceNDArray on its memory."""
    if isinstance(a, (np.ndarray, _DA)) or not hasattr(a, "__cuda_array_interface__"):
        return a
    return _cuda().as_cuda_array(a)


def _sync(stream):
    if stream is not None and not (isinstance(stream, int) and stream == 0):
        stream.synchronize()


def _launch_dims(n):
    blocks = (n + TPB - 1) // TPB
    return min(max(blocks, 1), MAX_BLOCKS), TPB


# ---------------------------------------------------- elementwise source

def _loop_head(ndim, shaped):
    """A grid-stride loop over n elements, in uint64 (an unsigned index
    needs no check for negative values), unravelled against the shape of
    array `shaped` into i0, i1, ... when ndim > 1."""
    L = ["    i = np.uint64(cuda.grid(1))",
         "    s = np.uint64(cuda.gridsize(1))",
         "    while i < n:"]
    if ndim > 1:
        L.append("        t = i")
        for d in range(ndim - 1, 0, -1):
            L.append("        e = np.uint64(%s.shape[%d])" % (shaped, d))
            L.append("        i%d = t %% e" % d)
            L.append("        t = t // e")
        L.append("        i0 = t")
    return L


def elementwise_source(kname, nin, nout, arrays, ndim, cast_in, cast_out):
    """A kernel that calls _f per element.  arrays[k]: input k is an
    array (else a scalar); ndim 0: one flat index over contiguous arrays."""
    params = ["a%d" % k for k in range(nin)] + ["o%d" % k for k in range(nout)] + ["n"]
    L = ["def %s(%s):" % (kname, ", ".join(params))]
    L += _loop_head(ndim, "o0")
    idx = "i" if ndim <= 1 else ", ".join("i%d" % d for d in range(ndim))
    args = []
    for k in range(nin):
        e = "a%d[%s]" % (k, idx) if arrays[k] else "a%d" % k
        args.append("_t%d(%s)" % (k, e) if cast_in else e)
    call = "_f(%s)" % ", ".join(args)
    if nout == 1:
        L.append("        o0[%s] = %s" % (idx, "_r0(%s)" % call if cast_out else call))
    else:
        L.append("        r = %s" % call)
        for k in range(nout):
            v = "r[%d]" % k
            L.append("        o%d[%s] = %s" % (k, idx, "_r%d(%s)" % (k, v) if cast_out else v))
    L.append("        i += s")
    return "\n".join(L) + "\n"


class _Plan:
    """What a call with given element types runs: the argument types the
    function is called with (cast to them when a signature says so) and
    the outputs' dtypes."""
    __slots__ = ("in_dtypes", "out_dtypes", "cast", "castkey")

    def __init__(self, in_dtypes, out_dtypes, cast):
        self.in_dtypes = in_dtypes
        self.out_dtypes = out_dtypes
        self.cast = cast
        self.castkey = (in_dtypes, out_dtypes) if cast else None


# -------------------------------------------------------------- ufuncs

class ElementwiseFunction:
    """A scalar function applied to every element of its broadcast
    arguments on the GPU (@jit(target='gpu'), vectorize(target='cuda')).
    Call it like a NumPy ufunc: f(x, y), f(x, y, out=o), f(x, y, stream=s),
    f.reduce(x, axis=0)."""

    def __init__(self, py_func, signatures=None, options=None, what=None, identity=None):
        options = dict(options or {})
        take_names(self, py_func, "ufunc")
        self._what = what or "%s()" % self.__name__
        self._options = options
        self.identity = identity
        if not callable(self.py_func) or not hasattr(self.py_func, "__code__"):
            raise TypeError("expected a Python function, not %r" % (py_func,))
        code = self.py_func.__code__
        if code.co_flags & 0x0C or code.co_kwonlyargcount:
            raise TypeError("%s: *args, **kwargs and keyword-only parameters are not supported; a function "
                            "over arrays takes one parameter per array" % self._what)
        self.nin = code.co_argcount
        self._dev = device_function(py_func, options)
        self._signatures = signatures
        self._sigs = scalar_signatures(signatures, self.nin, self._what)
        self._checked = False
        self._plans = {}
        self._kernels = {}
        self._nout = None

    # ---- typing

    @property
    def nout(self):
        if self._nout is None:
            if self._sigs:
                self._nout = 1
            else:
                raise AttributeError("%s: the number of outputs is known after the first call" % self._what)
        return self._nout

    @property
    def nargs(self):
        return self.nin + self.nout

    @property
    def types(self):
        """The signatures compiled so far (NumPy's 'ff->f' spelling)."""
        out = []
        for p in self._plans.values():
            out.append("".join(d.char for d in p.in_dtypes) + "->" + "".join(d.char for d in p.out_dtypes))
        return out

    @property
    def ntypes(self):
        return len(self._sigs) if self._sigs else len(self._plans)

    def _check(self):
        if not self._checked:
            check_elementwise(self.py_func, self._what)
            self._checked = True

    def _plan(self, key):
        self._check()
        if self._sigs:
            for ins, ret in self._sigs:
                if all(_can_cast(k, d) for k, d in zip(key, ins)):
                    plan = _Plan(ins, (ret,), True)
                    self._nout = 1
                    break
            else:
                names = ", ".join(k.__name__ if isinstance(k, type) else str(k) for k in key)
                have = "; ".join("%s(%s)" % (numba_name(r), ", ".join(numba_name(d) for d in ins))
                                 for ins, r in self._sigs)
                raise TypeError("%s: no signature takes arguments of types (%s) without losing precision; "
                                "the signatures are %s" % (self._what, names, have))
        else:
            ins = tuple(_PY_SCALAR[k] if isinstance(k, type) else k for k in key)
            text = infer_return(self._dev, [numba_name(d) for d in ins])
            outs = return_dtypes(text, self._what)
            if self._nout is not None and len(outs) != self._nout:
                raise TypingError("%s returns %d value%s for arguments (%s) but %d for others: give every "
                                  "call the same number of outputs" % (self._what, len(outs),
                                                                      "" if len(outs) == 1 else "s",
                                                                      ", ".join(map(str, ins)), self._nout))
            self._nout = len(outs)
            plan = _Plan(ins, outs, False)
        self._plans[key] = plan
        return plan

    def _kernel(self, arrays, ndim, plan):
        kkey = (arrays, ndim, len(plan.out_dtypes), plan.castkey)
        k = self._kernels.get(kkey)
        if k is None:
            kname = "ufunc_%s" % _ident(self.__name__)
            text = elementwise_source(kname, self.nin, len(plan.out_dtypes), arrays, ndim,
                                      plan.cast, plan.cast)
            glb = {"_f": self._dev}
            if plan.cast:
                for j, d in enumerate(plan.in_dtypes):
                    glb["_t%d" % j] = getattr(np, d.name if d.name != "bool" else "bool_")
                for j, d in enumerate(plan.out_dtypes):
                    glb["_r%d" % j] = getattr(np, d.name if d.name != "bool" else "bool_")
            k = make_kernel(kname, text, glb, self._options)
            self._kernels[kkey] = k
        return k

    # ---- calling

    def __call__(self, *args, out=None, stream=0):
        if _DA is None:
            _cuda()
        nin = self.nin
        if len(args) != nin:
            if len(args) > nin and out is None and self._nout in (None, len(args) - nin):
                out = args[nin:] if len(args) - nin > 1 else args[nin]
                args = args[:nin]
            else:
                raise TypeError("%s takes %d argument%s, %d given" % (self._what, nin, "" if nin == 1 else "s",
                                                                      len(args)))
        key = []
        vals = []
        shapes = []
        dev_in = False
        for a in args:
            if isinstance(a, _DA):
                dev_in = True
                key.append(a.dtype)
                shapes.append(a.shape)
            elif isinstance(a, np.ndarray):
                if a.ndim == 0:
                    a = a[()]
                    key.append(a.dtype)
                else:
                    key.append(a.dtype)
                    shapes.append(a.shape)
            elif type(a) in _PY_SCALAR:
                if type(a) is int and not -2**63 <= a < 2**63:
                    if not 0 <= a < 2**64:
                        raise OverflowError("%s: the integer %d does not fit in 64 bits" % (self._what, a))
                    a = np.uint64(a)
                    key.append(a.dtype)
                else:
                    key.append(type(a))
            elif isinstance(a, np.generic):
                key.append(a.dtype)
            elif hasattr(a, "__cuda_array_interface__"):
                a = _cuda().as_cuda_array(a)
                dev_in = True
                key.append(a.dtype)
                shapes.append(a.shape)
            else:
                a = np.asarray(a)
                if a.dtype.kind not in "biufc":
                    raise TypeError("%s: argument %d is %r, which is not a number or an array of numbers"
                                    % (self._what, len(vals) + 1, args[len(vals)]))
                if a.ndim == 0:
                    a = a[()]
                else:
                    shapes.append(a.shape)
                key.append(a.dtype)
            vals.append(a)
        key = tuple(key)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plan(key)
        nout = len(plan.out_dtypes)

        if not shapes:
            shape = ()
        else:
            shape = shapes[0]
            for s in shapes:
                if s != shape:
                    shape = broadcast_shapes(shapes, self._what)
                    break

        outs = None
        if out is not None:
            outs = out if isinstance(out, tuple) else (out,)
            if len(outs) != nout:
                raise ValueError("%s has %d output%s; out= gives %d" % (self._what, nout, "" if nout == 1 else "s",
                                                                       len(outs)))
            for o in outs:
                if not _is_array(o):
                    raise TypeError("%s: out= takes arrays (NumPy or device), not %s"
                                    % (self._what, type(o).__name__))
            outs = tuple(_device_view(o) for o in outs)
            for o in outs:
                if isinstance(o, np.ndarray) and not o.flags.writeable:
                    raise ValueError("%s: the out= array is read-only" % self._what)
                if tuple(o.shape) != shape:
                    full = broadcast_shapes([shape, tuple(o.shape)], self._what) if shapes else tuple(o.shape)
                    if full != tuple(o.shape):
                        raise ValueError("%s: the out= array has shape %s; the result has shape %s"
                                         % (self._what, tuple(o.shape), shape))
                    shape = full

        scalar_result = shape == ()
        run_shape = (1,) if scalar_result else shape
        size = 1
        for n in run_shape:
            size *= n

        # the arrays on the device
        dins = []
        arrays = []
        host_in = False
        copied = {}
        order = None        # "C" or "F" when every array has the full shape and that layout
        for a in vals:
            if isinstance(a, _DA):
                dins.append(a)
                arrays.append(True)
            elif isinstance(a, np.ndarray):
                host_in = True
                d = copied.get(id(a))
                if d is None:
                    d = copied[id(a)] = _cuda().to_device(a, stream=stream)
                dins.append(d)
                arrays.append(True)
            else:
                dins.append(a)
                arrays.append(False)
                continue
            d = dins[-1]
            lay = d._layout if d.shape == run_shape else "A"
            order = lay if order in (None, lay) else "A"
        fortran = order == "F" and len(run_shape) > 1
        douts = []
        host_outs = []
        for k in range(nout):
            o = outs[k] if outs is not None else None
            if isinstance(o, _DA):
                douts.append(o.reshape(1) if scalar_result and o.ndim == 0 else o)
            else:
                dt = o.dtype if o is not None else plan.out_dtypes[k]
                d = _DA(run_shape, _f_strides(run_shape, dt.itemsize) if fortran else None, dt)
                douts.append(d)
                if o is not None:
                    host_outs.append((d, o))
        if size:
            lay = "F" if fortran else "C"
            flat = order in (None, lay)
            if flat:
                for d in douts:
                    if d.shape != run_shape or d._layout != lay:
                        flat = False
            if flat:
                ndim = 0
                kin = [flat_view(d, size) if arrays[k] else d for k, d in enumerate(dins)]
                kout = [flat_view(d, size) for d in douts]
            else:
                ndim = len(run_shape)
                kin = [broadcast_view(d, run_shape) if arrays[k] else d for k, d in enumerate(dins)]
                kout = douts
            kern = self._kernel(tuple(arrays), ndim, plan)
            blocks, tpb = _launch_dims(size)
            n = np.uint64(size)
            try:
                kern[blocks, tpb, stream](*kin, *kout, n)
            except TypingError:
                launch(kern, (blocks, tpb, stream), kin + kout + [n], self._what,
                       [str(d) for d in plan.in_dtypes])

        if outs is not None:
            for d, o in host_outs:
                if scalar_result:
                    o[...] = d.copy_to_host(stream=stream).reshape(())
                else:
                    d.copy_to_host(o, stream=stream)
            if host_outs:
                _sync(stream)
            return out if isinstance(out, tuple) else outs[0]
        if scalar_result:
            res = [d.copy_to_host(stream=stream) for d in douts]
            _sync(stream)
            res = tuple(r[0] for r in res)
        elif dev_in or not host_in:
            res = tuple(douts)
        else:
            res = tuple(d.copy_to_host(stream=stream) for d in douts)
            _sync(stream)
        return res[0] if nout == 1 else res

    # ---- reduce

    def reduce(self, array, axis=0, stream=0, out=None):
        """Reduces `array` along `axis` with this binary function, pairing
        halves of the array on the device (as Numba does).  1-d arrays give
        a scalar; others an array without that axis."""
        _cuda()
        if self.nin != 2:
            raise TypeError("%s.reduce needs a function of two arguments; this one takes %d"
                            % (self.__name__, self.nin))
        on_host = not isinstance(array, _DA) and not hasattr(array, "__cuda_array_interface__")
        if on_host:
            array = np.asarray(array)
        if array.ndim == 0:
            raise ValueError("%s.reduce: a 0-d array has no axis to reduce" % self.__name__)
        ax = axis + array.ndim if axis < 0 else axis
        if not 0 <= ax < array.ndim:
            raise ValueError("%s.reduce: axis %d is out of bounds for an array of %d dimensions"
                             % (self.__name__, axis, array.ndim))
        d, _ = as_device(array, stream)
        if ax:
            order = (ax,) + tuple(k for k in range(d.ndim) if k != ax)
            d = _DA._view(d, d._ptr, tuple(d.shape[k] for k in order), tuple(d.strides[k] for k in order), d.dtype)
        n = d.shape[0]
        rest = d.shape[1:]
        if n == 0:
            if self.identity is None:
                raise TypeError("%s.reduce of an empty array: the function has no identity (give "
                                "identity= to vectorize)" % self.__name__)
            res = np.full(rest, self.identity, dtype=d.dtype)
            return res[()] if not rest else (res if on_host else _cuda().to_device(res))
        cur = d
        while n > 1:
            half = n // 2
            nxt = self(cur[:half], cur[half:2 * half], stream=stream)
            if n % 2:
                self(nxt[:1], cur[n - 1:n], out=nxt[:1], stream=stream)
            cur, n = nxt, half
        if not rest:
            _sync(stream)
        res = cur[0]
        if not isinstance(res, _DA):     # a 1-d array reduced to its element
            return res
        if out is not None:
            if isinstance(out, np.ndarray):
                res.copy_to_host(out, stream=stream)
                _sync(stream)
            else:
                out.copy_to_device(res, stream=stream)
            return out
        if on_host:
            r = res.copy_to_host(stream=stream)
            _sync(stream)
            return r
        return res

    def __reduce__(self):
        # ptxjit/_pickle.py: by name, or the function with what rebuilds it
        return _pickle.reduce_jitted(self, "function over arrays", lambda: (ElementwiseFunction, (
            _pickle.function(self.py_func), self._signatures, self._options, self._what, self.identity)))

    def __repr__(self):
        return "<ptxjit GPU ufunc %s>" % self.__qualname__


# ------------------------------------------------------------- gufuncs

_LAYOUT_ARG = re.compile(r"\(\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)?\s*,?\s*\)")


def parse_layout(layout):
    """'(m,n),(n,p)->(m,p)' -> ([('m','n'), ('n','p')], [('m','p')])."""
    if not isinstance(layout, str) or "->" not in layout:
        raise ValueError("a gufunc layout reads '(m,n),(n,p)->(m,p)', not %r" % (layout,))
    left, right = layout.replace(" ", "").split("->", 1)

    def side(s):
        dims, pos = [], 0
        while pos < len(s):
            m = _LAYOUT_ARG.match(s, pos)
            if not m:
                raise ValueError("cannot read the gufunc layout %r at %r" % (layout, s[pos:]))
            dims.append(tuple(x for x in (m.group(1) or "").split(",") if x))
            pos = m.end()
            if pos < len(s):
                if s[pos] != ",":
                    raise ValueError("cannot read the gufunc layout %r at %r" % (layout, s[pos:]))
                pos += 1
        return dims

    ins, outs = side(left), side(right)
    if not ins or not outs:
        raise ValueError("a gufunc layout names inputs and outputs: '(n),()->(n)', not %r" % (layout,))
    known = {d for a in ins for d in a}
    for a in outs:
        for d in a:
            if d not in known:
                raise ValueError("gufunc layout %r: the output dimension %r is not an input dimension"
                                 % (layout, d))
    return ins, outs


def take_names(obj, py_func, default):
    """Gives a function over arrays the names and docstring of the Python
    function it wraps (a dispatcher's own py_func when it is given one)."""
    obj.py_func = getattr(py_func, "py_func", py_func)
    obj.__name__ = getattr(obj.py_func, "__name__", default)
    obj.__qualname__ = getattr(obj.py_func, "__qualname__", obj.__name__)
    obj.__doc__ = getattr(obj.py_func, "__doc__", None)
    obj.__module__ = getattr(obj.py_func, "__module__", None)
    obj.__wrapped__ = obj.py_func


def scalar_signatures(signatures, nin, what):
    """[(argument dtypes, result dtype)] of a ufunc's signature list: each
    takes nin scalars and returns one."""
    sigs = []
    for s in signatures or ():
        ret, args = parse_signature(s)
        if len(args) != nin:
            raise TypeError("%s: the signature %r has %d argument%s, the function %d"
                            % (what, str(s), len(args), "" if len(args) == 1 else "s", nin))
        if ret is None or any(a[1] for a in args) or ret[1]:
            raise TypeError("%s: a signature of a function over arrays takes and returns scalars: "
                            "'float32(float32, float32)', not %r" % (what, str(s)))
        sigs.append((tuple(a[0] for a in args), ret[0]))
    return sigs


def layout_signatures(signatures, layout, ins, outs, nparams, what):
    """[parsed arguments] of a gufunc's signature list, each checked
    against the layout's core dimensions; the function must take one
    parameter per input and output."""
    if nparams != len(ins) + len(outs):
        raise TypeError("%s: the layout %r has %d inputs and %d outputs, the function %d parameters"
                        % (what, layout, len(ins), len(outs), nparams))
    sigs = []
    for s in signatures or ():
        ret, args = parse_signature(s)
        if ret is not None:
            raise TypeError("%s: guvectorized functions cannot return values: the signature %r specifies %s "
                            "return type; they write their outputs into the output arguments (void(...))"
                            % (what, str(s), np.dtype(ret[0]).name))
        if len(args) != nparams:
            raise TypeError("%s: the signature %r has %d arguments; the layout needs %d"
                            % (what, str(s), len(args), nparams))
        for k, (dt, nd, _) in enumerate(args):
            core = (ins + outs)[k]
            if nd != len(core) and not (nd == 1 and not core):
                raise TypeError("%s: argument %d of %r has %d dimensions; the layout gives it %d"
                                % (what, k + 1, str(s), nd, len(core)))
        sigs.append(args)
    return sigs


def gufunc_source(kname, nin, nout, loop_nd, arrays, out_scalar):
    params = ["a%d" % k for k in range(nin)] + ["o%d" % k for k in range(nout)] + ["n"]
    L = ["def %s(%s):" % (kname, ", ".join(params))]
    L += _loop_head(loop_nd, "o0")
    if loop_nd == 1:
        idx = "[i]"
    elif loop_nd:
        idx = "[%s]" % ", ".join("i%d" % d for d in range(loop_nd))
    else:
        idx = ""
    args = ["a%d%s" % (k, idx if arrays[k] else "") for k in range(nin)]
    args += ["o%d%s" % (k, idx) for k in range(nout)]
    L.append("        _f(%s)" % ", ".join(args))
    L.append("        i += s")
    return "\n".join(L) + "\n"


class GUFunction:
    """A generalized ufunc on the GPU: `func` works on the core dimensions
    of the layout and writes its outputs; the loop dimensions in front
    broadcast like a ufunc's."""

    def __init__(self, py_func, signatures, layout, options=None):
        take_names(self, py_func, "gufunc")
        self._options = dict(options or {})
        self.layout = layout
        self._ins, self._outs = parse_layout(layout)
        self.nin, self.nout = len(self._ins), len(self._outs)
        self._what = "gufunc %s" % self.__name__
        self._sigs = layout_signatures(signatures, layout, self._ins, self._outs,
                                       self.py_func.__code__.co_argcount, self._what)
        self._dev = device_function(py_func, options)
        self._kernels = {}

    def _choose(self, in_dtypes, vals):
        """The first declared signature every input converts to: safely, or,
        for a host scalar, with its value unchanged (a device array is
        never converted: it would need a copy of another type)."""
        if not self._sigs:
            outdt = np.result_type(*in_dtypes) if in_dtypes else np.dtype(np.float64)
            return list(in_dtypes), [outdt] * self.nout, [False] * self.nout, [False] * self.nin
        for args in self._sigs:
            if all(_can_cast(k, a[0]) or isinstance(v, np.ndarray) and _value_fits(v, a[0])
                   for k, v, a in zip(in_dtypes, vals, args)):
                ins, outs = args[:self.nin], args[self.nin:]
                return ([a[0] for a in ins], [a[0] for a in outs],
                        [not core and a[1] == 1 for a, core in zip(outs, self._outs)],
                        [not core and a[1] == 1 for a, core in zip(ins, self._ins)])
        hint = ""
        if any(not isinstance(v, np.ndarray) for v in vals) and any(
                all(np.can_cast(a[0], k) for k, a in zip(in_dtypes, args)) for args in self._sigs):
            hint = ("; a signature fits by casting, but a device array does not support .astype() here: "
                    "convert it to the signature's type first")
        raise TypeError("%s: no signature takes arguments of types (%s); the signatures are %s%s"
                        % (self._what, ", ".join(str(k) for k in in_dtypes),
                           "; ".join("(%s)" % ", ".join(numba_name(a[0]) for a in s) for s in self._sigs), hint))

    def __call__(self, *args, out=None, stream=0):
        _cuda()
        nin, nout = self.nin, self.nout
        args, out = split_outputs(self._what, nin, nout, args, out)
        outs = None
        if out is not None:
            outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
            if len(outs) != nout:
                raise ValueError("%s has %d outputs; out= gives %d" % (self._what, nout, len(outs)))
            outs = tuple(_device_view(o) for o in outs)
        vals, keys, dev_in = [], [], False
        for a in args:
            if isinstance(a, _DA) or (not isinstance(a, np.ndarray) and hasattr(a, "__cuda_array_interface__")):
                a = as_device(a, stream)[0]
                dev_in = True
            elif type(a) in _PY_SCALAR or isinstance(a, np.generic):
                a = np.asarray(a)
            else:
                a = np.asarray(a)
            vals.append(a)
            keys.append(a.dtype)
        in_dt, out_dt, out_one, in_one = self._choose(keys, vals)

        # sizes of the core dimensions, and the loop shape
        sizes = {}
        loops = []
        for k, (a, core) in enumerate(zip(vals, self._ins)):
            if a.ndim < len(core):
                raise ValueError("%s: input %d has %d dimensions; the layout %r needs at least %d"
                                 % (self._what, k + 1, a.ndim, self.layout, len(core)))
            cshape = a.shape[a.ndim - len(core):]
            for name, n in zip(core, cshape):
                if sizes.setdefault(name, n) != n:
                    raise ValueError("%s: dimension %r is %d in one input and %d in another (layout %r)"
                                     % (self._what, name, sizes[name], n, self.layout))
            loops.append(tuple(a.shape[:a.ndim - len(core)]))
        if outs is not None:
            for o, core in zip(outs, self._outs):
                loops.append(tuple(o.shape[:o.ndim - len(core)]))
        loop = broadcast_shapes(loops, self._what) if loops else ()
        if outs is not None:
            outs = list(outs)
            for k, (o, core) in enumerate(zip(outs, self._outs)):
                want = loop + tuple(sizes[d] for d in core)
                if isinstance(o, np.ndarray) and not o.flags.writeable:
                    raise ValueError("%s: the out= array is read-only" % self._what)
                extra = len(want) - o.ndim
                if 0 < extra <= len(loop) and all(n == 1 for n in want[:extra]) and tuple(o.shape) == want[extra:]:
                    # Numba's old style: a (1,) input for a () core dimension leaves out= without the unit
                    # loop dimension it brings
                    o = outs[k] = o[(np.newaxis,) * extra] if isinstance(o, np.ndarray) else o.reshape(want)
                if tuple(o.shape) != want:
                    raise ValueError("%s: the out= array has shape %s; the layout %r gives %s"
                                     % (self._what, tuple(o.shape), self.layout, want))
        cuda = _cuda()
        size = 1
        for n in loop:
            size *= n

        dins = []
        arrays = []
        for a, core, dt, one in zip(vals, self._ins, in_dt, in_one):
            if isinstance(a, np.ndarray):
                if not core and a.ndim == 0 and not one:
                    dins.append(a.astype(dt)[()])      # a scalar argument
                    arrays.append(False)
                    continue
                a = cuda.to_device(np.ascontiguousarray(a, dtype=dt), stream=stream)
            elif a.dtype != dt:
                a = _astype_device(a, dt, stream)
            cshape = a.shape[a.ndim - len(core):]
            v = broadcast_view(a, loop + cshape)
            if one:   # Numba's old style: a () core dimension declared as a 1-d array gets one element
                v = _DA._view(v, v._ptr, v.shape + (1,), v.strides + (v.itemsize,), v.dtype)
            dins.append(v)
            arrays.append(True)
        douts, host_outs = [], []
        for k, (core, dt, one) in enumerate(zip(self._outs, out_dt, out_one)):
            cshape = tuple(sizes[d] for d in core) + ((1,) if one else ())
            o = outs[k] if outs is not None else None
            if o is not None and not isinstance(o, np.ndarray):
                d = as_device(o, stream)[0]
                if one:
                    d = _DA._view(d, d._ptr, d.shape + (1,), d.strides + (d.itemsize,), d.dtype)
            else:
                d = _DA(loop + cshape, None, o.dtype if o is not None else dt)
                if o is not None:
                    host_outs.append((d, o))
            douts.append(d)
        if size:
            kkey = (tuple(arrays), len(loop))
            kern = self._kernels.get(kkey)
            if kern is None:
                kname = "gufunc_%s" % _ident(self.__name__)
                kern = make_kernel(kname, gufunc_source(kname, nin, nout, len(loop), arrays, out_one),
                                   {"_f": self._dev}, self._options)
                self._kernels[kkey] = kern
            blocks, tpb = _launch_dims(size)
            launch(kern, (blocks, tpb, stream), dins + douts + [np.uint64(size)], self._what,
                   [str(d.dtype) for d in dins])
        res = []
        for k, d in enumerate(douts):
            if out_one[k]:
                d = _DA._view(d, d._ptr, d.shape[:-1], d.strides[:-1], d.dtype)
            res.append(d)
        if outs is not None:
            for d, o in host_outs:
                d.copy_to_host(o.reshape(d.shape) if o.shape != d.shape else o, stream=stream)
            _sync(stream)
            return out if isinstance(out, (tuple, list)) else outs[0]
        if not dev_in:
            res = [d.copy_to_host(stream=stream) for d in res]
            _sync(stream)
        return res[0] if nout == 1 else tuple(res)

    def __reduce__(self):
        return _pickle.reduce_jitted(self, "function over arrays")     # by name only (ptxjit/_pickle.py)

    def __repr__(self):
        return "<ptxjit GPU gufunc %s %s>" % (self.__qualname__, self.layout)


def _identity(x):
    return x


_caster = None


def _astype_device(d, dtype, stream=0):
    """A copy of device array d converted to dtype, on the device."""
    global _caster
    if _caster is None:
        _caster = ElementwiseFunction(_identity, what="astype")
    out = _DA(d.shape, None, dtype)
    _caster(d, out=out, stream=stream)
    return out


# ------------------------------------------------------------ decorators

_IGNORED = {"nopython", "nogil", "cache", "forceobj", "looplift", "parallel", "writable_args", "boundscheck",
            "no_cpython_wrapper", "error_model", "inline"}
_KNOWN = {"fastmath", "debug", "lineinfo", "opt", "max_registers", "identity"} | _IGNORED


def _options(kwargs, what):
    """The options of a GPU function over arrays; unknown ones raise as in
    Numba: a KeyError for vectorize, a TypeError for guvectorize."""
    unknown = set(kwargs) - _KNOWN
    if unknown and what == "guvectorize":
        raise TypeError("The following target options are not supported: %s"     # Numba's words, exactly
                        % ", ".join(repr(u) for u in sorted(unknown)))
    if unknown:
        raise KeyError("Unrecognized options. %s for the cuda target does not support option%s %s; it takes %s"
                       % (what, "s" if len(unknown) > 1 else "", ", ".join(sorted(unknown)),
                          ", ".join(sorted(_KNOWN - _IGNORED))))
    if what == "guvectorize" and kwargs.get("nopython", True) is not True:
        raise TypeError("nopython flag must be True")
    if "nopython" in kwargs and what != "guvectorize":
        warnings.warn("nopython kwarg for cuda target is redundant", RuntimeWarning, stacklevel=3)
    return {k: v for k, v in kwargs.items() if k not in _IGNORED}


def _is_sigs(x):
    return isinstance(x, (str, _types.Signature, tuple, list))


def _sig_list(x):
    if x is None or (isinstance(x, (list, tuple)) and not x):
        return None
    return list(x) if isinstance(x, list) else [x]


def jit_target(decorator, args, kwargs):
    """@jit(target='gpu'|'cuda', ...): a function over arrays; with
    target='cuda', a function that returns nothing (or device=True, or a
    void signature) stays a @cuda.jit kernel or device function."""
    kwargs = dict(kwargs)
    target = kwargs.pop("target")
    sigs = None
    if args and _is_sigs(args[0]):
        sigs, args = _sig_list(args[0]), args[1:]
    what_dec = "@%s(target=%r)" % (decorator, target)

    def wrap(func):
        from . import cuda
        if target == "cuda":
            void = sigs and any(parse_signature(s)[0] is None for s in sigs)
            if kwargs.get("device") or void or not returns_value(getattr(func, "py_func", func)):
                return cuda.jit(sigs, **kwargs)(func) if sigs else cuda.jit(**kwargs)(func)
        if kwargs.get("device"):
            raise TypeError("%s: device=True is a @cuda.jit option; a function over arrays is called from "
                            "the host" % what_dec)
        opts = _options(kwargs, what_dec)
        identity = opts.pop("identity", None)
        name = getattr(func, "__name__", "function")
        return ElementwiseFunction(func, sigs, opts, what="%s function %s" % (what_dec, name), identity=identity)

    if args:
        if len(args) == 1 and callable(args[0]):
            return wrap(args[0])
        raise TypeError("%s takes the function, or signatures and options" % what_dec)
    return wrap


_TARGETS = "'cpu' (the default), 'parallel' (the CPU, on threads), 'cuda' or 'gpu'"


def vectorize(ftylist_or_function=None, **kwargs):
    """Numba's @vectorize: a ufunc-like function.  With signatures it
    casts the arguments to the first one they convert to safely; without,
    it is typed from the arguments.  target='cpu' (the default, as in
    Numba) or 'parallel' compile it for the CPU (ptxjit.ufunc_cpu);
    target='cuda' or 'gpu' for the GPU."""
    target = kwargs.pop("target", "cpu")
    if target in ("cpu", "parallel"):
        from . import ufunc_cpu
        return ufunc_cpu.vectorize(ftylist_or_function, target=target, **kwargs)
    if target not in ("cuda", "gpu"):
        raise ValueError("vectorize(target=%r): the targets are %s" % (target, _TARGETS))
    opts = _options(kwargs, "vectorize")
    identity = opts.pop("identity", None)
    if callable(ftylist_or_function) and not _is_sigs(ftylist_or_function):
        f = ftylist_or_function
        return ElementwiseFunction(f, None, opts, what="vectorize function %s" % f.__name__, identity=identity)
    sigs = _sig_list(ftylist_or_function) or None

    def wrap(func):
        return ElementwiseFunction(func, sigs, opts, what="vectorize function %s" % getattr(func, "__name__", func),
                                   identity=identity)
    return wrap


def guvectorize(*args, **kwargs):
    """Numba's @guvectorize: guvectorize(signatures, layout, target=...),
    or guvectorize(layout, target=...) typed from the arguments (the
    outputs take the inputs' common dtype).  target='cpu' (the default)
    or 'parallel' for the CPU (ptxjit.ufunc_cpu), 'cuda' or 'gpu' for the
    GPU."""
    target = kwargs.pop("target", "cpu")
    if target not in ("cpu", "parallel", "cuda", "gpu"):
        raise ValueError("guvectorize(target=%r): the targets are %s" % (target, _TARGETS))
    layout = kwargs.pop("layout", None)
    sigs = None
    args = list(args)
    if args and isinstance(args[0], str) and "->" in args[0] and layout is None:
        layout = args.pop(0)
    elif args:
        sigs = _sig_list(args.pop(0))
        if args and layout is None:
            layout = args.pop(0)
    if layout is None:
        raise TypeError("guvectorize needs a layout: guvectorize(signatures, '(m,n),(n,p)->(m,p)', target='cuda')")
    if args:
        raise TypeError("guvectorize takes signatures and a layout")
    if target in ("cpu", "parallel"):
        from . import ufunc_cpu
        return ufunc_cpu.guvectorize(sigs, layout, target=target, **kwargs)
    opts = _options(kwargs, "guvectorize")
    opts.pop("identity", None)

    def wrap(func):
        return GUFunction(func, sigs, layout, opts)
    return wrap
