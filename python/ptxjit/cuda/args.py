"""cuda.In, cuda.Out, cuda.InOut: how a NumPy array argument is copied.

A NumPy array passed to a kernel is copied to the device before the launch
and back after it (InOut, the default).  Wrapping it says less is needed:

    k[blocks, threads](cuda.In(x), cuda.Out(y))

cuda.In(x): copied to the device only; whatever the kernel writes into it
is not copied back.  cuda.Out(y): not copied to the device (the kernel
sees uninitialised memory) and copied back after the launch.
cuda.InOut(z): both, as without a wrapper.  Device arrays are used in
place whatever the wrapper says.  The launch path (C) reads the class
attribute _ptxjit_copy: 1 In, 2 Out, 0 InOut.
"""


class ArgHint:
    """Base of the copy-direction wrappers; .value is the wrapped argument."""

    _ptxjit_copy = 0
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "cuda.%s(%r)" % (type(self).__name__, self.value)


class In(ArgHint):
    """Copy the array to the device before the launch, not back after it."""

    _ptxjit_copy = 1
    __slots__ = ()


class Out(ArgHint):
    """Copy the array back from the device after the launch, not to it before."""

    _ptxjit_copy = 2
    __slots__ = ()


class InOut(ArgHint):
    """Copy the array to the device before the launch and back after it."""

    _ptxjit_copy = 0
    __slots__ = ()


def wrap_arg(value, default=InOut):
    """value itself if it is a cuda.In/Out/InOut, else default(value)."""
    return value if isinstance(value, ArgHint) else default(value)
