"""Numba's CUDA settings from the environment, read once when ptxjit.cuda
is imported, under Numba's attribute names (numba.config.CUDA_...).

    NUMBA_ENABLE_CUDASIM=1                kernels run on the simulator (as PTXJIT_SIM=1;
                                          PTXJIT_SIM wins when both are set)
    NUMBA_DISABLE_CUDA=1                  no GPU: cuda.is_available() is False and
                                          launches raise CudaSupportError
    NUMBA_CUDA_DEBUGINFO=1                debug=True is the default of @cuda.jit
    NUMBA_OPT=0                           opt=False is the default of @cuda.jit (OPT is an
                                          _OptLevel, an int: 0 to 3, and "max" reads as 3)
    NUMBA_CUDA_DEFAULT_PTX_CC=8.0         compile_ptx's compute capability when cc is not given
    NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0   no NumbaPerformanceWarning for small grids
    NUMBA_CUDA_WARN_ON_IMPLICIT_COPY=0    no NumbaPerformanceWarning for host arrays
    NUMBA_DISABLE_PERFORMANCE_WARNINGS=1  neither performance warning
    NUMBA_CUDA_ARRAY_INTERFACE_SYNC=0     no waiting for the stream a __cuda_array_interface__
                                          names (as_cuda_array, launches)
    NUMBA_CUDA_DEBUG_POLY=1               read, without effect: Numba's DWARF variant parts for
                                          variables of several types; ptxjit's debug
                                          information names functions and lines, not variables

The backend and NUMBA_DISABLE_CUDA are taken by ptxjit._core itself when
it is imported (src/py/module.c, src/rt/driver.c); the values here say
what it saw.  A value that cannot be read gives a RuntimeWarning naming
the variable, and the default is kept, as in Numba.  As in Numba, the
warning settings may be changed from Python (config.CUDA_LOW_OCCUPANCY_WARNINGS
= 0); launches see the change at once.
"""

import os
import re
import sys
import types
import warnings

from .. import _core


def _flag(text):
    return int(text) != 0


def _cc(text):
    m = re.fullmatch(r"\s*(\d+)\.(\d+)\s*", text)
    if not m:
        raise ValueError('a compute capability is written "major.minor", such as "8.0"')
    return int(m.group(1)), int(m.group(2))


def _read(name, parse, default, accepted):
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        return parse(text)
    except (ValueError, TypeError):
        warnings.warn("environment variable %s=%r cannot be read (%s); the default %r is used"
                      % (name, text, accepted, default), RuntimeWarning, stacklevel=3)
        return default


class _OptLevel(int):
    """Numba's optimisation level setting: an int from 0 to 3, made from
    0..3 or "max" (3, with .is_opt_max true); config.OPT holds one."""

    def __new__(cls, value):
        level = 3 if value == "max" else value
        if isinstance(level, str) and level.strip().isdigit():
            level = int(level)
        if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 3:
            raise ValueError("an optimisation level is 0, 1, 2, 3 or 'max', not %r" % (value,))
        self = int.__new__(cls, level)
        self._raw_value = "max" if value == "max" else level
        return self

    @property
    def is_opt_max(self):
        return self._raw_value == "max"

    def __repr__(self):
        return "_OptLevel(%r)" % (self._raw_value,)


def _on(name):      # the rule of ptxjit._core for the variables it reads itself
    return os.environ.get(name, "") not in ("", "0", "false", "no")


ENABLE_CUDASIM = _core.is_simulator()      # cuda.use_simulator() sets it too
DISABLE_CUDA = _on("NUMBA_DISABLE_CUDA") and not ENABLE_CUDASIM
CUDA_DEBUGINFO_DEFAULT = _read("NUMBA_CUDA_DEBUGINFO", _flag, False, "0 or 1")
OPT = _read("NUMBA_OPT", lambda t: _OptLevel(t.strip()), _OptLevel(3), "0 to 3 or max")
CUDA_DEFAULT_PTX_CC = _read("NUMBA_CUDA_DEFAULT_PTX_CC", _cc, None, 'a compute capability such as "8.0"')
DISABLE_PERFORMANCE_WARNINGS = _read("NUMBA_DISABLE_PERFORMANCE_WARNINGS", _flag, False, "0 or 1")
CUDA_LOW_OCCUPANCY_WARNINGS = _read("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", _flag, True, "0 or 1")
CUDA_WARN_ON_IMPLICIT_COPY = _read("NUMBA_CUDA_WARN_ON_IMPLICIT_COPY", _flag, True, "0 or 1")
CUDA_ARRAY_INTERFACE_SYNC = _read("NUMBA_CUDA_ARRAY_INTERFACE_SYNC", _flag, True, "0 or 1")
CUDA_DEBUG_POLY = _read("NUMBA_CUDA_DEBUG_POLY", _flag, False, "0 or 1")


_LAUNCH_SETTINGS = {"DISABLE_PERFORMANCE_WARNINGS", "CUDA_LOW_OCCUPANCY_WARNINGS", "CUDA_WARN_ON_IMPLICIT_COPY",
                    "CUDA_ARRAY_INTERFACE_SYNC"}


def _push(cfg):
    on = not cfg.DISABLE_PERFORMANCE_WARNINGS
    _core.set_config(bool(on and cfg.CUDA_LOW_OCCUPANCY_WARNINGS), bool(on and cfg.CUDA_WARN_ON_IMPLICIT_COPY),
                     bool(cfg.CUDA_ARRAY_INTERFACE_SYNC))


class _Config(types.ModuleType):
    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name in _LAUNCH_SETTINGS:
            _push(self)


sys.modules[__name__].__class__ = _Config
_push(sys.modules[__name__])
