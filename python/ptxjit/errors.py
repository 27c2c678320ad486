"""The exceptions ptxjit raises.

Compiling:
    TypingError            the kernel uses Python that ptxjit does not support; the
                           message names file:line:col, shows the line with a caret
                           and says what is supported (Numba raises TypingError too).
                           CompileError is the same class.
    KernelTypeError        a TypingError that is also a TypeError, where Numba raises
                           TypeError: a kernel that returns a value
    KernelValueError       a TypingError that is also a ValueError, where Numba raises
                           ValueError: an alignment that is no power of two
    SourceNotFoundError    the function's source text cannot be found (a TypingError)
    SourceChangedError     the function's file no longer holds the code Python runs
                           (edited after the import; a TypingError)
    LoweringError          Numba's name, for code that catches it (a TypingError;
                           ptxjit's compile errors are TypingErrors)
    InternalCompilerError  a bug in ptxjit's compiler

Running on the GPU:
    CudaSupportError       no CUDA driver or no GPU (an ImportError and a RuntimeError)
    CudaDriverError        the driver refused an operation (a RuntimeError);
    CudaAPIError           its subclass for a failed driver call: .code is the
                           CUresult, .name its name (CUDA_ERROR_ILLEGAL_ADDRESS)
    CudaLaunchError        a launch configuration the driver would refuse (a block
                           beyond the kernel's launch_bounds or over 1024 threads,
                           a grid too large), refused before the launch: a
                           CudaAPIError named CUDA_ERROR_INVALID_VALUE, as the
                           driver would return, and a ValueError
    Where cuda.core (CUDA Python) is loaded, these CudaAPIErrors are also its
    CUDAError, which numba-cuda's launches raise, so code that catches it works;
    likewise where Numba is loaded, a compile error (TypingError) is also
    numba.core.errors.TypingError, as numba-cuda's are then.

Running on the simulator (PTXJIT_SIM=1):
    SimulatorError         base class (a RuntimeError)
    SimIndexError          an out-of-bounds array access; also an IndexError
    DeadlockError          not every thread of a block reached a barrier
    TrapError              the kernel stopped itself (a failed assert, a raise)
    UninitializedReadError shared memory read before it was written (PTXJIT_SIM_CHECK=uninit)
    RaceError              two threads wrote one shared address between barriers
                           (PTXJIT_SIM_CHECK=race)

Launch arguments and configurations that are wrong raise TypeError or ValueError
(CudaLaunchError for those the driver would refuse) before anything reaches the
device.

Warnings, with Numba's names (also importable from ptxjit.core.errors, where
numba.core.errors has them):
    NumbaWarning              their base class (a Warning)
    NumbaPerformanceWarning   a launch of fewer than 128 blocks (Numba's rule;
                              NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0 silences it),
                              or NumPy arrays copied to the GPU and back at a
                              launch (NUMBA_CUDA_WARN_ON_IMPLICIT_COPY=0);
                              NUMBA_DISABLE_PERFORMANCE_WARNINGS=1 silences both.
                              Each is given once per kernel and configuration.
    NumbaInvalidConfigWarning options that do not go together
    NumbaDebugInfoWarning     debug=True for a function whose source text
                              Python cannot show (exec(), `python -c`)
Warning filters (warnings.filterwarnings, python -W) silence them as usual.
"""

from ._core import (  # noqa: F401
    TypingError,
    KernelTypeError,
    KernelValueError,
    InternalCompilerError,
    CudaSupportError,
    CudaDriverError,
    CudaAPIError,
    CudaLaunchError,
    SimulatorError,
    SimIndexError,
    DeadlockError,
    TrapError,
    UninitializedReadError,
    RaceError,
    NumbaWarning,
    NumbaPerformanceWarning,
    NumbaInvalidConfigWarning,
)

CompileError = TypingError


class NumbaDebugInfoWarning(NumbaWarning):
    """debug=True for a function whose source text cannot be found: the
    debug information names its lines, but no text a debugger can show."""


class SourceNotFoundError(TypingError):
    """The source text of a function to compile cannot be found."""


class LoweringError(TypingError):
    """Numba's error of its lowering stage, for code that names it
    (numba.cuda.errors.LoweringError).  ptxjit types and checks a kernel
    before lowering, so its compile errors are TypingErrors."""


class SourceChangedError(TypingError):
    """The source file of a function to compile no longer holds the code
    Python runs: it was edited after the module was imported."""


# ptxjit's class -> (module, class) of a package whose code catches such
# errors: numba-cuda's launches raise cuda.core's CUDAError, and its compile
# errors are Numba's TypingError where Numba is installed.
_FOREIGN = {"CudaAPIError": ("cuda.core._utils.cuda_utils", "CUDAError"),
            "TypingError": ("numba.core.errors", "TypingError")}
_FOREIGN_CLASSES = {}


def _foreign_class(cls):
    """cls, or where the package of its _FOREIGN entry is loaded, its
    subclass that is also that package's class (made once per class; the
    extension raises through it, so code written for numba-cuda catches
    ptxjit's errors)."""
    import sys
    for c in cls.__mro__:
        entry = _FOREIGN.get(c.__name__) if c.__module__ == __name__ else None
        if entry:
            break
    else:
        return cls
    base = getattr(sys.modules.get(entry[0]), entry[1], None)
    if not isinstance(base, type) or issubclass(cls, base):
        return cls
    sub = _FOREIGN_CLASSES.get(cls)
    if sub is None:
        sub = type(cls.__name__, (cls, base), {"__module__": cls.__module__, "__doc__": cls.__doc__,
                                               "__qualname__": cls.__qualname__,
                                               "__reduce__": lambda e: (cls, e.args, e.__dict__ or None)})
        _FOREIGN_CLASSES[cls] = sub
    return sub


__all__ = [
    "TypingError", "KernelTypeError", "KernelValueError", "CompileError", "LoweringError", "SourceNotFoundError", "SourceChangedError",
    "InternalCompilerError",
    "CudaSupportError", "CudaDriverError", "CudaAPIError", "CudaLaunchError",
    "SimulatorError", "SimIndexError", "DeadlockError", "TrapError",
    "UninitializedReadError", "RaceError",
    "NumbaWarning", "NumbaPerformanceWarning", "NumbaInvalidConfigWarning", "NumbaDebugInfoWarning",
]
