"""The names kernels use from `cuda`: thread indices, barriers, shared and local
arrays, atomics, warp operations.

On the host these are placeholders: the compiler recognises them (by identity,
through the table in dispatcher.py, or by the name `cuda.X`) and calling one
from ordinary Python says that it only works inside a kernel.
"""


class Stub:
    """A function that exists only inside kernels."""
    __slots__ = ("_qualname",)

    def __init__(self, qualname):
        self._qualname = qualname

    def __call__(self, *args, **kwargs):
        raise RuntimeError("%s() can only be used inside a @cuda.jit kernel or device function"
                           % self._qualname)

    def __repr__(self):
        return "<%s (kernel-only)>" % self._qualname


class Dim3Stub(Stub):
    """threadIdx, blockIdx, blockDim, gridDim: .x, .y, .z inside kernels."""
    __slots__ = ()

    def _fail(self):
        raise RuntimeError("%s can only be read inside a @cuda.jit kernel or device function"
                           % self._qualname)

    x = property(lambda self: self._fail())
    y = property(lambda self: self._fail())
    z = property(lambda self: self._fail())


class ValueStub(Stub):
    """laneid, warpsize: int32 values inside kernels."""
    __slots__ = ()

    def __int__(self):
        raise RuntimeError("%s can only be read inside a @cuda.jit kernel or device function"
                           % self._qualname)

    __index__ = __int__


class Namespace:
    """cuda.shared, cuda.local, cuda.const, cuda.atomic, cuda.fp16, cuda.cg."""

    def __init__(self, qualname, members):
        self._qualname = qualname
        for m in members:
            setattr(self, m, Stub("%s.%s" % (qualname, m)))

    def __repr__(self):
        return "<%s (kernel-only namespace)>" % self._qualname


threadIdx = Dim3Stub("cuda.threadIdx")
blockIdx = Dim3Stub("cuda.blockIdx")
blockDim = Dim3Stub("cuda.blockDim")
gridDim = Dim3Stub("cuda.gridDim")
laneid = ValueStub("cuda.laneid")
warpsize = ValueStub("cuda.warpsize")

FUNCTIONS = [
    "grid", "gridsize", "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or",
    "syncwarp", "threadfence", "threadfence_block", "threadfence_system",
    "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
    "all_sync", "any_sync", "eq_sync", "ballot_sync", "match_any_sync", "match_all_sync",
    "activemask", "lanemask_lt", "popc", "brev", "clz", "ffs", "fma", "cbrt", "selp",
    "nanosleep", "const_array_like",
    "ldca", "ldcg", "ldcs", "ldlu", "ldcv", "stcg", "stcs", "stwb", "stwt",
]

_g = globals()
for _n in FUNCTIONS:
    _g[_n] = Stub("cuda." + _n)
del _g, _n

shared = Namespace("cuda.shared", ["array"])
local = Namespace("cuda.local", ["array"])
const = Namespace("cuda.const", ["array_like"])
atomic = Namespace("cuda.atomic", [
    "add", "sub", "max", "min", "and_", "or_", "xor", "exch", "inc", "dec", "cas",
    "compare_and_swap", "nanmax", "nanmin",
])

fp16 = Namespace("cuda.fp16", [
    "hadd", "hsub", "hmul", "hdiv", "hfma", "hneg", "habs", "hsin", "hcos", "hlog", "hlog10", "hlog2",
    "hexp", "hexp10", "hexp2", "hfloor", "hceil", "hsqrt", "hrsqrt", "hrcp", "hrint", "htrunc", "htanh",
    "heq", "hne", "hgt", "hge", "hlt", "hle", "hmax", "hmin",
    "__hequ", "__hneu", "__hgtu", "__hgeu", "__hltu", "__hleu", "__hmax_nan", "__hmin_nan", "__hisnan", "__hisinf",
])

# cooperative groups: g = cuda.cg.this_grid(); g.sync() is the grid-wide barrier,
# and a kernel that has it is launched cooperatively
cg = Namespace("cuda.cg", ["this_grid"])

DIM3 = {"threadIdx": threadIdx, "blockIdx": blockIdx, "blockDim": blockDim, "gridDim": gridDim}
VALUES = {"laneid": laneid, "warpsize": warpsize}
NAMESPACES = {"shared": shared, "local": local, "const": const, "atomic": atomic, "fp16": fp16, "cg": cg}

__all__ = list(DIM3) + list(VALUES) + FUNCTIONS + list(NAMESPACES)
