"""numba.cuda.config (and numba.cuda.core.config) under the ptxjit shim.

Only settings that describe ptxjit truthfully, or that numba-cuda's tests
set around themselves, are here; ptxjit reads none of them.  Any other
setting raises MissingName, so a test that depends on it is counted as a
gap rather than passing by accident.

ENABLE_CUDASIM is False: ptxjit's simulator (PTXJIT_SIM=1) runs the code
ptxjit compiled, checking every access, as the GPU would; Numba's cudasim
runs the Python function itself.  Tests marked skip_on_cudasim (they need
real compilation) therefore run, and those marked skip_unless_cudasim (they
test cudasim) are skipped.
"""

import sys
import types

from compat_shim import MissingName

ENABLE_CUDASIM = False
CUDA_ENABLE_NRT = False            # ptxjit has no reference-counted runtime
CUDA_LOW_OCCUPANCY_WARNINGS = 1    # the harness switches these warnings off
CUDA_WARN_ON_IMPLICIT_COPY = 1
DISABLE_PERFORMANCE_WARNINGS = 0


class _Config(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise MissingName("%s.%s: ptxjit has no such setting" % (self.__name__, name))


sys.modules[__name__].__class__ = _Config
