"""The two calling conventions of device functions that cross ptxjit's
boundary (numba.cuda.core.callconv's names):

CUDACallConv  Numba's ABI, abi="numba": `int NAME(RET *out, ARGS...)`; the
              function stores its result through `out` and returns a status
              (0: no exception).  cuda.declare_device calls external
              functions this way by default, and compile_ptx(device=True)
              makes functions this way.
CCallConv     the C ABI, abi="c": `RET NAME(ARGS...)`.

In PTX both are a `.func` with `.param` arguments (ptx/call.c); an
ExternFunction's `call_conv` is one of these.
"""


class BaseCallConv:
    abi = None

    def __repr__(self):
        return "<%s: abi=%r>" % (type(self).__name__, self.abi)

    def __eq__(self, other):
        return type(self) is type(other)

    def __hash__(self):
        return hash(type(self))


class CUDACallConv(BaseCallConv):
    """Numba's ABI: a status returned, the result through a pointer."""
    abi = "numba"


class CCallConv(BaseCallConv):
    """The C ABI: the result returned."""
    abi = "c"


def of_abi(abi):
    """The calling convention of abi ("numba" or "c")."""
    return CUDACallConv() if abi == "numba" else CCallConv()
