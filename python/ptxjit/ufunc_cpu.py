"""Functions over whole arrays on the CPU: vectorize and guvectorize with
target='cpu' (Numba's default target) or 'parallel'.

    from ptxjit import vectorize, guvectorize

    @vectorize                                  # typed from the arguments
    def hyp(x, y):
        return math.sqrt(x * x + y * y)

    @vectorize(['float32(float32, float32)', 'float64(float64, float64)'])
    def mul(x, y):
        return x * y

    @guvectorize(['void(float64[:,:], float64[:,:], float64[:,:])'], '(m,n),(n,p)->(m,p)')
    def matmul(A, B, C): ...

The user's function is compiled by the CPU compiler (ptxjit.cpu, @njit:
IR -> C -> the system C compiler, or the IR interpreter without one) and
called from a loop generated here as Python text and compiled the same
way, so the call is inlined into the loop and the C compiler sees one
function.  When every array has the broadcast shape and one contiguous
layout the loop walks one flat index over 1-d views; otherwise each input
is NumPy's broadcast view of itself (stride 0 along broadcast axes, any
strides otherwise) and the loop nests one `for` per dimension.

Typing and dtypes are those of the GPU target (ptxjit.ufunc): without
signatures, the compiler types the function for the arguments' element
types (Python scalars are int64, float64, complex128 or bool) and its
return type, or tuple of them, gives the outputs; with signatures, the
first one the arguments convert to safely is used and the elements are
cast to its types in the loop.  Shapes that do not broadcast are a
ValueError naming them all.  `out=` writes into given arrays (any
strides; a value is cast to the array's dtype), and `.reduce(a, axis=)`
folds a binary function along axes.

target='parallel' compiles the same loop without the GIL and, for
calls of at least PAR_MIN elements, runs it over slices of the first axis
on num_threads() threads (PTXJIT_NUM_THREADS or NUMBA_NUM_THREADS, else
the CPUs available); .reduce runs on one thread.
"""

import numpy as np

from . import _pickle
from . import ufunc as _u
from .errors import TypingError

_DTYPE_OK = "biufc"


# ------------------------------------------------------- compiled pieces

_LambdaCPU = None


def cpu_function(func, options):
    """The @njit dispatcher of the user's function (a def, a one-expression
    lambda, or an @njit function, which is used as it is)."""
    global _LambdaCPU
    from .cpu import CPUDispatcher
    if isinstance(func, CPUDispatcher):
        return func
    if not callable(func) or not hasattr(func, "__code__"):
        raise TypeError("expected a Python function, not %r" % (func,))
    opts = {k: v for k, v in (options or {}).items() if k in ("fastmath", "cache", "nogil", "boundscheck")}
    opts["error_model"] = "numpy"     # a ufunc's element function: 1.0 / 0.0 is inf, as in Numba
    if func.__name__ != "<lambda>":
        return CPUDispatcher(func, None, opts)
    if _LambdaCPU is None:
        class LambdaCPU(CPUDispatcher):
            """A lambda: the compiler reads it out of its source line."""

            def _pj_info(self):
                info = CPUDispatcher._pj_info(self)
                if self._lambda_name is None:
                    text, file, first, shift = self._source
                    off = _u._lambda_offset(self.py_func, text, first, shift)
                    self._lambda_name = "<lambda>" if off is None else "<lambda@%d>" % off
                return (self._lambda_name,) + info[1:]

        _LambdaCPU = LambdaCPU
    d = _LambdaCPU(func, None, opts)
    d._lambda_name = None
    from .cuda.dispatcher import source_of
    d._source = source_of(func)     # a lambda typed at the prompt fails here, saying why
    return d


def make_loop(name, text, glb, options=None):
    """An @njit function from generated source `text` defining `name`,
    with `glb` as its globals (np is there too)."""
    from .cpu import CPUDispatcher
    g = {"np": np}
    g.update(glb)
    filename = "<ptxjit generated %s>" % name
    exec(compile(text, filename, "exec"), g)
    opts = {k: v for k, v in (options or {}).items() if k in ("fastmath", "nogil")}
    d = CPUDispatcher(g[name], None, opts)
    d._source = (text, filename, 1, 0)
    return d


def run_loop(loop, args, what, types):
    """loop(*args); a compile error inside the generated loop (not in the
    user's function, which names its own line) is told in the words of the
    function the user called."""
    try:
        return loop(*args)
    except TypingError as e:
        msg = str(e)
        if not msg.startswith("<ptxjit generated"):
            raise
        why = msg.splitlines()[0].split("error: ", 1)[-1]
        raise TypingError("%s cannot run on arguments of types (%s): %s" % (what, ", ".join(types), why)) from None


# ---------------------------------------------------------- target='parallel'

PAR_MIN = 1 << 15        # elements below which even target='parallel' runs on one thread
_pool = None
_pool_n = 0


def num_threads():
    """Threads of target='parallel': PTXJIT_NUM_THREADS, else
    NUMBA_NUM_THREADS, else the CPUs this process may use."""
    import os
    for var in ("PTXJIT_NUM_THREADS", "NUMBA_NUM_THREADS"):
        v = os.environ.get(var)
        if v:
            try:
                return max(int(v), 1)
            except ValueError:
                raise ValueError("%s=%r: give a number of threads" % (var, v)) from None
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_parallel(loop, args, split, n0, what, types):
    """loop(*args) over chunks of axis 0 (of length n0) of the arguments
    marked in `split`, on threads: the loop is compiled with nogil, so the
    chunks run at once.  The first chunk runs on the calling thread first
    (compiling the loop if needed)."""
    global _pool, _pool_n
    nt = min(num_threads(), n0)
    if nt <= 1:
        return run_loop(loop, args, what, types)
    bounds = [n0 * k // nt for k in range(nt + 1)]
    chunks = [[a[bounds[k]:bounds[k + 1]] if sp else a for a, sp in zip(args, split)] for k in range(nt)]
    run_loop(loop, chunks[0], what, types)
    if _pool is None or _pool_n < nt - 1:
        from concurrent.futures import ThreadPoolExecutor
        _pool = ThreadPoolExecutor(max_workers=nt - 1, thread_name_prefix="ptxjit-parallel")
        _pool_n = nt - 1
    for f in [_pool.submit(loop, *c) for c in chunks[1:]]:
        f.result()


def _caster(dt):
    return getattr(np, "bool_" if dt.name == "bool" else dt.name)


def _nest(ndim, shaped, body, indent=1):
    """`for` loops over the first ndim extents of array `shaped`, with
    body (lines using i0, i1, ...) inside."""
    L = []
    pad = "    " * indent
    for d in range(ndim):
        L.append("%sfor i%d in range(%s.shape[%d]):" % (pad, d, shaped, d))
        pad += "    "
    L += [pad + b for b in body]
    return L


def elementwise_loop(name, nin, nout, arrays, ndim, cast):
    """The loop of a ufunc: o_k[idx] = _f(a_0[idx], ...)[k]; arrays[k]
    says whether input k is an array (else a scalar)."""
    params = ["a%d" % k for k in range(nin)] + ["o%d" % k for k in range(nout)]
    idx = ", ".join("i%d" % d for d in range(ndim))
    args = []
    for k in range(nin):
        e = "a%d[%s]" % (k, idx) if arrays[k] else "a%d" % k
        args.append("_t%d(%s)" % (k, e) if cast else e)
    call = "_f(%s)" % ", ".join(args)
    if nout == 1:
        body = ["o0[%s] = %s" % (idx, "_r0(%s)" % call if cast else call)]
    else:
        body = ["r = %s" % call]
        for k in range(nout):
            v = "r[%d]" % k
            body.append("o%d[%s] = %s" % (k, idx, "_r%d(%s)" % (k, v) if cast else v))
    L = ["def %s(%s):" % (name, ", ".join(params))] + _nest(ndim, "o0", body)
    return "\n".join(L) + "\n"


def reduce_loop(name, cast_in):
    """acc = f(acc, a[i, k]) along the last axis of a 2-d array, into o[i];
    the accumulator has the output's dtype (_r), the arguments are cast to
    the signature's types (_t0, _t1) when one is used."""
    a0 = "_t0(acc)" if cast_in else "acc"
    a1 = "_t1(a[i, k])" if cast_in else "a[i, k]"
    return ("def %s(a, o):\n"
            "    for i in range(a.shape[0]):\n"
            "        acc = _r(a[i, 0])\n"
            "        for k in range(1, a.shape[1]):\n"
            "            acc = _r(_f(%s, %s))\n"
            "        o[i] = acc\n" % (name, a0, a1))


def gufunc_loop(name, nin, nout, loop_nd, arrays):
    params = ["a%d" % k for k in range(nin)] + ["o%d" % k for k in range(nout)]
    idx = "[%s]" % ", ".join("i%d" % d for d in range(loop_nd)) if loop_nd else ""
    args = ["a%d%s" % (k, idx if arrays[k] else "") for k in range(nin)]
    args += ["o%d%s" % (k, idx) for k in range(nout)]
    L = ["def %s(%s):" % (name, ", ".join(params))] + _nest(loop_nd, "o0", ["_f(%s)" % ", ".join(args)])
    return "\n".join(L) + "\n"


# --------------------------------------------------------------- operands

def _operand(a, what, k):
    """(value, key): an array (ndim >= 1), or a scalar with its key (a
    dtype, or a Python scalar type, which converts like NumPy's weak
    scalars)."""
    t = type(a)
    if t is np.ndarray:
        if a.ndim == 0:
            a = a[()]
            return a, a.dtype
        if a.dtype.kind not in _DTYPE_OK:
            raise TypeError("%s: argument %d is an array of %s; use bool, integer, float or complex arrays"
                            % (what, k + 1, a.dtype))
        return a, a.dtype
    if t in _u._PY_SCALAR:
        if t is int and not -2 ** 63 <= a < 2 ** 63:
            if not 0 <= a < 2 ** 64:
                raise OverflowError("%s: the integer %d does not fit in 64 bits" % (what, a))
            a = np.uint64(a)
            return a, a.dtype
        return a, t
    if isinstance(a, np.generic):
        if a.dtype.kind not in _DTYPE_OK:
            raise TypeError("%s: argument %d is %r, which is not a number" % (what, k + 1, a))
        return a, a.dtype
    try:
        x = np.asarray(a)
    except Exception:
        x = None
    if x is None or x.dtype.kind not in _DTYPE_OK:
        raise TypeError("%s: argument %d is %r, which is not a number or an array of numbers"
                        % (what, k + 1, a))
    if x.ndim == 0:
        x = x[()]
    return x, x.dtype




# ------------------------------------------------------------------ ufuncs

class CPUUFunc:
    """A scalar function applied to every element of its broadcast
    arguments on the CPU (vectorize(target='cpu' or 'parallel')).  Call it like a NumPy
    ufunc: f(x, y), f(x, y, out=o), f.reduce(x, axis=0)."""

    def __init__(self, py_func, signatures=None, options=None, what=None, identity=None, target="cpu"):
        options = dict(options or {})
        _u.take_names(self, py_func, "ufunc")
        self._what = what or "vectorize function %s" % self.__name__
        if target == "parallel":
            options["nogil"] = True      # the loop's chunks run on threads at once
        self._options = options
        self.identity = identity
        self.target = target
        code = self.py_func.__code__
        if code.co_flags & 0x0C or code.co_kwonlyargcount:
            raise TypeError("%s: *args, **kwargs and keyword-only parameters are not supported; a function "
                            "over arrays takes one parameter per array" % self._what)
        self.nin = code.co_argcount
        if self.nin < 1:
            raise TypeError("%s takes no arguments; a function over arrays takes one per array" % self._what)
        self._f = cpu_function(py_func, options)
        self._sigs = _u.scalar_signatures(signatures, self.nin, self._what)
        self._checked = False
        self._plans = {}
        self._loops = {}
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
        """NumPy's spelling of the signatures ('ff->f'): the declared ones,
        or those typed so far."""
        if self._sigs:
            return ["".join(d.char for d in ins) + "->" + r.char for ins, r in self._sigs]
        seen = []
        for p in self._plans.values():
            t = "".join(d.char for d in p.in_dtypes) + "->" + "".join(d.char for d in p.out_dtypes)
            if t not in seen:
                seen.append(t)
        return seen

    @property
    def ntypes(self):
        return len(self.types)

    def _plan(self, key):
        if not self._checked:
            _u.check_elementwise(self.py_func, self._what)
            self._checked = True
        if self._sigs:
            for ins, ret in self._sigs:
                if all(_u._can_cast(k, d) for k, d in zip(key, ins)):
                    plan = _u._Plan(ins, (ret,), True)
                    self._nout = 1
                    break
            else:
                names = ", ".join(k.__name__ if isinstance(k, type) else str(k) for k in key)
                have = "; ".join("%s(%s)" % (_u.numba_name(r), ", ".join(_u.numba_name(d) for d in ins))
                                 for ins, r in self._sigs)
                raise TypeError("%s: no signature takes arguments of types (%s) without losing precision; "
                                "the signatures are %s" % (self._what, names, have))
        else:
            ins = tuple(_u._PY_SCALAR[k] if isinstance(k, type) else k for k in key)
            text = _u.infer_return(self._f, [_u.numba_name(d) for d in ins])
            outs = _u.return_dtypes(text, self._what)
            if self._nout is not None and len(outs) != self._nout:
                raise TypingError("%s returns %d value%s for arguments (%s) but %d for others: give every "
                                  "call the same number of outputs" % (self._what, len(outs),
                                                                      "" if len(outs) == 1 else "s",
                                                                      ", ".join(map(str, ins)), self._nout))
            self._nout = len(outs)
            plan = _u._Plan(ins, outs, False)
        self._plans[key] = plan
        return plan

    def _loop(self, arrays, ndim, plan):
        lkey = (arrays, ndim, len(plan.out_dtypes), plan.castkey)
        loop = self._loops.get(lkey)
        if loop is None:
            name = "ufunc_%s" % _u._ident(self.__name__)
            text = elementwise_loop(name, self.nin, len(plan.out_dtypes), arrays, ndim, plan.cast)
            glb = {"_f": self._f}
            if plan.cast:
                for j, d in enumerate(plan.in_dtypes):
                    glb["_t%d" % j] = _caster(d)
                for j, d in enumerate(plan.out_dtypes):
                    glb["_r%d" % j] = _caster(d)
            loop = make_loop(name, text, glb, self._options)
            self._loops[lkey] = loop
        return loop

    # ---- calling

    def __call__(self, *args, out=None):
        nin = self.nin
        if len(args) != nin:
            if len(args) > nin and out is None and self._nout in (None, len(args) - nin):
                out = args[nin:] if len(args) - nin > 1 else args[nin]
                args = args[:nin]
            else:
                raise TypeError("%s takes %d argument%s, %d given" % (self._what, nin, "" if nin == 1 else "s",
                                                                      len(args)))
        vals, key, shapes = [], [], []
        for k, a in enumerate(args):
            v, t = _operand(a, self._what, k)
            vals.append(v)
            key.append(t)
            if type(v) is np.ndarray:
                shapes.append(v.shape)
        key = tuple(key)
        plan = self._plans.get(key) or self._plan(key)
        nout = len(plan.out_dtypes)

        shape = shapes[0] if shapes else ()
        for s in shapes:
            if s != shape:
                shape = _u.broadcast_shapes(shapes, self._what)
                break

        outs = None
        if out is not None:
            outs = out if isinstance(out, tuple) else (out,)
            if len(outs) != nout:
                raise ValueError("%s has %d output%s; out= gives %d" % (self._what, nout, "" if nout == 1 else "s",
                                                                       len(outs)))
            for o in outs:
                if not isinstance(o, np.ndarray):
                    raise TypeError("%s: out= takes NumPy arrays, not %s" % (self._what, type(o).__name__))
                if not o.flags.writeable:
                    raise ValueError("%s: the out= array is read-only" % self._what)
                if o.dtype.kind not in _DTYPE_OK:
                    raise TypeError("%s: the out= array has dtype %s; use bool, integer, float or complex"
                                    % (self._what, o.dtype))
                if o.shape != shape:
                    full = _u.broadcast_shapes([shape, o.shape], self._what) if shapes else o.shape
                    if full != o.shape:
                        raise ValueError("%s: the out= array has shape %s; the result has shape %s"
                                         % (self._what, o.shape, shape))
                    shape = full

        scalar_result = shape == ()
        run_shape = (1,) if scalar_result else shape
        size = 1
        for n in run_shape:
            size *= n

        arrays = tuple(type(v) is np.ndarray for v in vals)
        # one flat loop when every array has the full shape and one layout
        order = None
        for v, isarr in zip(vals, arrays):
            if isarr:
                if v.shape != run_shape:
                    order = "A"
                    break
                lay = "C" if v.flags.c_contiguous else "F" if v.flags.f_contiguous else "A"
                order = lay if order in (None, lay) else "A"
        if outs is not None:
            for o in outs:
                if o.shape != run_shape and not scalar_result:
                    order = "A"
                lay = "C" if o.flags.c_contiguous else "F" if o.flags.f_contiguous else "A"
                order = lay if order in (None, lay) else "A"
        if order is None:
            order = "C"
        fortran = order == "F"
        if outs is not None:
            res = [o.reshape(1) if scalar_result else o for o in outs]
        else:
            res = [np.empty(run_shape, dt, order="F" if fortran else "C") for dt in plan.out_dtypes]
        if size:
            if order != "A":
                ndim = 1
                ins = [v.ravel(order="K") if isarr else v for v, isarr in zip(vals, arrays)]
                kout = [o.ravel(order="K") for o in res]
            else:
                ndim = len(run_shape)
                ins = [np.broadcast_to(v, run_shape) if isarr and v.shape != run_shape else v
                       for v, isarr in zip(vals, arrays)]
                kout = res
            loop = self._loop(arrays, ndim, plan)
            types = [str(d) for d in plan.in_dtypes]
            if self.target == "parallel" and size >= PAR_MIN:
                run_parallel(loop, ins + kout, list(arrays) + [True] * nout, kout[0].shape[0], self._what, types)
            else:
                run_loop(loop, ins + kout, self._what, types)
        if outs is not None:
            return out if isinstance(out, tuple) else outs[0]
        if scalar_result:
            res = [r[0] for r in res]
        return res[0] if nout == 1 else tuple(res)

    # ---- reduce

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False):
        """Folds `array` along `axis` (an int, a tuple of ints, or None for
        all) with this binary function: f(f(a[0], a[1]), a[2]) ...  The
        result has the function's output dtype for two elements of the
        array's dtype; a scalar when no axis is left."""
        if self.nin != 2:
            raise ValueError("%s.reduce: reduce only supported for binary functions; this one takes %d "
                             "argument%s" % (self.__name__, self.nin, "" if self.nin == 1 else "s"))
        a = np.asarray(array)
        if dtype is not None:
            a = a.astype(dtype, copy=False)
        if a.dtype.kind not in _DTYPE_OK:
            raise TypeError("%s.reduce: an array of %s; use bool, integer, float or complex arrays"
                            % (self.__name__, a.dtype))
        nd = a.ndim
        if nd == 0:
            raise ValueError("%s.reduce: a 0-d array has no axis to reduce" % self.__name__)
        if axis is None:
            axes = tuple(range(nd))
        else:
            axes = axis if isinstance(axis, tuple) else (axis,)
            norm = []
            for ax in axes:
                if not isinstance(ax, (int, np.integer)):
                    raise TypeError("%s.reduce: axis must be an int, a tuple of ints or None, not %r"
                                    % (self.__name__, ax))
                k = int(ax) + nd if ax < 0 else int(ax)
                if not 0 <= k < nd:
                    raise np.exceptions.AxisError(int(ax), nd) if hasattr(np, "exceptions") else \
                        ValueError("%s.reduce: axis %d is out of bounds for an array of %d dimensions"
                                   % (self.__name__, ax, nd))
                if k in norm:
                    raise ValueError("%s.reduce: duplicate value in 'axis'" % self.__name__)
                norm.append(k)
            axes = tuple(norm)
        rest = tuple(k for k in range(nd) if k not in axes)
        rshape = tuple(a.shape[k] for k in rest)
        n = 1
        for k in axes:
            n *= a.shape[k]
        m = 1
        for s in rshape:
            m *= s
        key = (a.dtype, a.dtype)
        plan = self._plans.get(key) or self._plan(key)
        if len(plan.out_dtypes) != 1:
            raise ValueError("%s.reduce: the function has %d outputs; reduce needs one"
                             % (self.__name__, len(plan.out_dtypes)))
        odt = plan.out_dtypes[0]
        if n == 0 and m:
            if self.identity is None or isinstance(self.identity, str):
                raise ValueError("zero-size array to reduction operation %s which has no identity (give "
                                 "identity= to vectorize)" % self.__name__)
            flat = np.full(m, self.identity, dtype=odt)
        else:
            flat = np.empty(m, odt)
            if m:
                x = np.ascontiguousarray(a.transpose(rest + axes)).reshape(m, n) if axes != () else a
                lkey = ("reduce", odt, plan.castkey)     # _r is the output dtype's caster
                loop = self._loops.get(lkey)
                if loop is None:
                    name = "reduce_%s" % _u._ident(self.__name__)
                    glb = {"_f": self._f, "_r": _caster(odt)}
                    if plan.cast:
                        glb["_t0"], glb["_t1"] = _caster(plan.in_dtypes[0]), _caster(plan.in_dtypes[1])
                    loop = make_loop(name, reduce_loop(name, plan.cast), glb, self._options)
                    self._loops[lkey] = loop
                run_loop(loop, [x, flat], "%s.reduce" % self._what, [str(a.dtype)] * 2)
        if keepdims:
            res = flat.reshape(tuple(1 if k in axes else a.shape[k] for k in range(nd)))
        else:
            res = flat.reshape(rshape)
        if out is not None:
            if not isinstance(out, np.ndarray) or out.shape != res.shape:
                raise ValueError("%s.reduce: out= must be an array of shape %s" % (self.__name__, res.shape))
            out[...] = res
            return out
        return res[()] if res.ndim == 0 else res

    def __reduce__(self):
        return _pickle.reduce_jitted(self, "function over arrays")     # by name only (ptxjit/_pickle.py)

    def __repr__(self):
        return "<ptxjit CPU ufunc %s>" % self.__qualname__


# ----------------------------------------------------------------- gufuncs

class CPUGUFunc:
    """A generalized ufunc on the CPU (guvectorize(target='cpu')): `func`
    works on the core dimensions of the layout and writes its outputs; the
    loop dimensions in front broadcast like a ufunc's."""

    def __init__(self, py_func, signatures, layout, options=None, target="cpu"):
        _u.take_names(self, py_func, "gufunc")
        self._options = dict(options or {})
        if target == "parallel":
            self._options["nogil"] = True
        self.target = target
        self.layout = layout
        self.signature = layout.replace(" ", "")
        self._ins, self._outs = _u.parse_layout(layout)
        self.nin, self.nout = len(self._ins), len(self._outs)
        self.nargs = self.nin + self.nout
        self._what = "gufunc %s" % self.__name__
        self._sigs = _u.layout_signatures(signatures, layout, self._ins, self._outs,
                                          self.py_func.__code__.co_argcount, self._what)
        self._f = cpu_function(py_func, options)
        self._loops = {}

    @property
    def types(self):
        return ["".join(a[0].char for a in s[:self.nin]) + "->" + "".join(a[0].char for a in s[self.nin:])
                for s in self._sigs]

    def _choose(self, keys):
        if not self._sigs:
            dts = [np.dtype(_u._PY_SCALAR[k]) if isinstance(k, type) else k for k in keys]
            outdt = np.result_type(*dts) if dts else np.dtype(np.float64)
            return dts, [outdt] * self.nout, [False] * self.nout
        for args in self._sigs:
            if all(_u._can_cast(k, a[0]) for k, a in zip(keys, args)):
                outs = args[self.nin:]
                return ([a[0] for a in args[:self.nin]], [a[0] for a in outs],
                        [not core and a[1] == 1 for a, core in zip(outs, self._outs)])
        raise TypeError("%s: no signature takes arguments of types (%s); the signatures are %s"
                        % (self._what, ", ".join(k.__name__ if isinstance(k, type) else str(k) for k in keys),
                           "; ".join("(%s)" % ", ".join(_u.numba_name(a[0]) for a in s) for s in self._sigs)))

    def __call__(self, *args, out=None):
        nin, nout = self.nin, self.nout
        args, out = _u.split_outputs(self._what, nin, nout, args, out)
        outs = None
        if out is not None:
            outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
            if len(outs) != nout:
                raise ValueError("%s has %d outputs; out= gives %d" % (self._what, nout, len(outs)))
            for o in outs:
                if not isinstance(o, np.ndarray):
                    raise TypeError("%s: out= takes NumPy arrays, not %s" % (self._what, type(o).__name__))
                if not o.flags.writeable:
                    raise ValueError("%s: the out= array is read-only" % self._what)
        vals, keys = [], []
        for k, a in enumerate(args):
            v, t = _operand(a, self._what, k)
            vals.append(v)
            keys.append(t)
        in_dt, out_dt, out_one = self._choose(keys)

        sizes, loops = {}, []
        for k, (a, core) in enumerate(zip(vals, self._ins)):
            nd = a.ndim if type(a) is np.ndarray else 0
            if nd < len(core):
                raise ValueError("%s: input %d has %d dimension%s; the layout %r needs at least %d"
                                 % (self._what, k + 1, nd, "" if nd == 1 else "s", self.layout, len(core)))
            shape = a.shape if nd else ()
            for name, n in zip(core, shape[nd - len(core):]):
                if sizes.setdefault(name, n) != n:
                    raise ValueError("%s: dimension %r is %d in one input and %d in another (layout %r)"
                                     % (self._what, name, sizes[name], n, self.layout))
            loops.append(tuple(shape[:nd - len(core)]))
        if outs is not None:
            for o, core in zip(outs, self._outs):
                if o.ndim < len(core):
                    raise ValueError("%s: the out= array has %d dimensions; the layout %r needs at least %d"
                                     % (self._what, o.ndim, self.layout, len(core)))
                loops.append(tuple(o.shape[:o.ndim - len(core)]))
        loop = _u.broadcast_shapes(loops, self._what) if loops else ()
        if outs is not None:
            for o, core in zip(outs, self._outs):
                want = loop + tuple(sizes[d] for d in core)
                if o.shape != want:
                    raise ValueError("%s: the out= array has shape %s; the layout %r gives %s"
                                     % (self._what, o.shape, self.layout, want))

        ins, arrays = [], []
        for a, core, dt in zip(vals, self._ins, in_dt):
            if type(a) is not np.ndarray:
                ins.append(_caster(dt)(a))          # a scalar argument of core ()
                arrays.append(False)
                continue
            if a.dtype != dt:
                a = a.astype(dt)
            cshape = a.shape[a.ndim - len(core):]
            full = loop + cshape
            ins.append(a if a.shape == full else np.broadcast_to(a, full))
            arrays.append(True)
        res, kout = [], []
        for k, (core, dt, one) in enumerate(zip(self._outs, out_dt, out_one)):
            cshape = tuple(sizes[d] for d in core)
            if outs is not None:
                o = outs[k]
            else:
                o = np.empty(loop + cshape, dt)
            res.append(o)
            kout.append(o[..., np.newaxis] if one else o)
        size = 1
        for n in loop:
            size *= n
        if size:
            lkey = (tuple(arrays), len(loop))
            fn = self._loops.get(lkey)
            if fn is None:
                name = "gufunc_%s" % _u._ident(self.__name__)
                fn = make_loop(name, gufunc_loop(name, nin, nout, len(loop), arrays), {"_f": self._f},
                               self._options)
                self._loops[lkey] = fn
            types = [str(d) for d in in_dt]
            work = sum(a.size for a, isarr in zip(ins, arrays) if isarr) + sum(o.size for o in kout)
            if self.target == "parallel" and loop and work >= PAR_MIN:
                run_parallel(fn, ins + kout, list(arrays) + [True] * nout, loop[0], self._what, types)
            else:
                run_loop(fn, ins + kout, self._what, types)
        if outs is not None:
            return out if isinstance(out, (tuple, list)) else outs[0]
        res = [r[()] if r.ndim == 0 else r for r in res]
        return res[0] if nout == 1 else tuple(res)

    def __reduce__(self):
        return _pickle.reduce_jitted(self, "function over arrays")     # by name only (ptxjit/_pickle.py)

    def __repr__(self):
        return "<ptxjit CPU gufunc %s %s>" % (self.__qualname__, self.layout)


# -------------------------------------------------------------- decorators

_IGNORED = {"nopython", "forceobj", "looplift", "writable_args", "no_cpython_wrapper", "error_model", "inline",
            "cache_dir"}
_KNOWN = {"fastmath", "nogil", "cache", "boundscheck", "identity"} | _IGNORED
TARGETS = ("cpu", "parallel")


def _options(kwargs, what):
    unknown = set(kwargs) - _KNOWN
    if unknown:
        raise TypeError("%s got unexpected option%s %s" % (what, "s" if len(unknown) > 1 else "",
                                                           ", ".join(sorted(unknown))))
    if kwargs.get("forceobj") or kwargs.get("nopython") is False:
        raise NotImplementedError("%s: object mode (nopython=False, forceobj=True) is not supported; the "
                                  "function is compiled to native code" % what)
    return {k: v for k, v in kwargs.items() if k not in _IGNORED}


def vectorize(ftylist_or_function=None, target="cpu", **kwargs):
    """Numba's @vectorize for the CPU (target='cpu', or 'parallel': the
    same loop over slices on several threads)."""
    opts = _options(kwargs, "vectorize")
    identity = opts.pop("identity", None)
    if callable(ftylist_or_function) and not _u._is_sigs(ftylist_or_function):
        f = ftylist_or_function
        return CPUUFunc(f, None, opts, identity=identity, target=target)
    sigs = _u._sig_list(ftylist_or_function) or None

    def wrap(func):
        return CPUUFunc(func, sigs, opts, identity=identity, target=target)
    return wrap


def guvectorize(sigs, layout, target="cpu", **kwargs):
    """Numba's @guvectorize for the CPU: guvectorize(signatures, layout),
    or with signatures None, typed from the arguments (the outputs take
    the inputs' common dtype)."""
    opts = _options(kwargs, "guvectorize")
    opts.pop("identity", None)
    if not isinstance(layout, str) or "->" not in layout:
        raise TypeError("guvectorize needs a layout: guvectorize(signatures, '(m,n),(n,p)->(m,p)')")

    def wrap(func):
        return CPUGUFunc(func, sigs, layout, opts, target=target)
    return wrap

