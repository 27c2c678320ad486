"""ptxjit: Python kernels in Numba's CUDA dialect, compiled to PTX by a compiler in C.

    from ptxjit import cuda            # instead of: from numba import cuda
    import ptxjit as numba             # numba.cuda.jit, numba.float32, ...

`import ptxjit` is cheap: it loads neither NumPy nor the compiler nor the CUDA
driver.  `ptxjit.cuda` is imported on first use; the driver is opened at the
first operation that needs the GPU.  With PTXJIT_SIM=1 in the environment (read
when ptxjit.cuda is imported) kernels run on the CPU simulator instead.
"""

__version__ = "0.1.0"

from .types import (  # noqa: F401  (Numba's type names, for signatures)
    Type, NumberType, ArrayType, Signature,
    void, none, boolean, bool_, b1,
    int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    i1, i2, i4, i8, u1, u2, u4, u8,
    intp, uintp, intc, uintc, int_, uint,
    float16, float32, float64, f2, f4, f8, float_, double, half, single,
    complex64, complex128, c8, c16, cfloat, cdouble,
)

_LAZY = {"cuda", "core", "errors", "types", "ufunc", "ufunc_cpu", "cpu"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        return importlib.import_module("." + name, __name__)
    if name == "literal_unroll":
        from .cuda.misc.special import literal_unroll
        return literal_unroll
    raise AttributeError("module 'ptxjit' has no attribute %r" % (name,))


def __dir__():
    return sorted(set(globals()) | _LAZY)


def _gpu_target(decorator, args, kwargs):
    """@jit/@njit with target='gpu' or 'cuda': a function over arrays on the
    GPU (ptxjit.ufunc)."""
    from . import ufunc
    return ufunc.jit_target(decorator, args, kwargs)


def jit(*args, **kwargs):
    """Numba's @jit.  @jit(target='gpu') makes a function over arrays that
    runs on the GPU (ptxjit.ufunc): its arguments stand for their elements,
    it broadcasts like NumPy and returns arrays.  @jit(target='cuda') is the
    same for a function that returns a value, and @cuda.jit for one that
    does not (a kernel).  Without a GPU target, @jit(nopython=True) compiles
    the function for the CPU (ptxjit.cpu), as @njit does."""
    if kwargs.get("target") in ("gpu", "cuda"):
        return _gpu_target("jit", args, kwargs)
    from . import cpu
    return cpu.jit(*args, **kwargs)


def njit(*args, **kwargs):
    """Numba's @njit: the function compiled to native code for the CPU
    (ptxjit.cpu): lazily per argument types, or for the signatures given."""
    if kwargs.get("target") in ("gpu", "cuda"):
        return _gpu_target("njit", args, kwargs)
    from . import cpu
    return cpu.njit(*args, **kwargs)


def vectorize(*args, **kwargs):
    """Numba's @vectorize: a ufunc-like function, compiled for the CPU
    (target='cpu', the default, or 'parallel': ptxjit.ufunc_cpu) or the
    GPU (target='cuda' or 'gpu': ptxjit.ufunc)."""
    from . import ufunc
    return ufunc.vectorize(*args, **kwargs)


def guvectorize(*args, **kwargs):
    """Numba's @guvectorize: a generalized ufunc, for the CPU (target='cpu',
    the default, or 'parallel') or the GPU (target='cuda' or 'gpu')."""
    from . import ufunc
    return ufunc.guvectorize(*args, **kwargs)


def from_dtype(dtype):
    """Numba's from_dtype: the type of a NumPy dtype's elements in kernels:
    ptxjit's number type of that name (float32), or for a structured dtype
    its record type (types.Record)."""
    from .cuda.records import from_dtype as _from_dtype
    return _from_dtype(dtype)


def as_dtype(typ):
    """Numba's as_dtype, from_dtype's inverse: the NumPy dtype of a number
    type (float32 -> dtype('float32')) or record type; a NumPy dtype is
    returned as it is."""
    import numpy as np
    from .types import Record
    if isinstance(typ, (NumberType, Record)):
        return typ.dtype
    if isinstance(typ, np.dtype):
        return typ
    raise NotImplementedError("%r has no NumPy dtype: as_dtype takes number types (float32, int64, ...) "
                              "and record types" % (typ,))
