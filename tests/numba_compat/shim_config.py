"""numba.cuda.config (and numba.cuda.core.config) under the ptxjit shim:
ptxjit.cuda.config, read and written through (so a test that switches a
warning off switches ptxjit's off), with two answers of the shim's own:

ENABLE_CUDASIM is False: ptxjit's simulator (PTXJIT_SIM=1) runs the code
ptxjit compiled, checking every access, as the GPU would; Numba's cudasim
runs the Python function itself.  Tests marked skip_on_cudasim (they need
real compilation) therefore run, and those marked skip_unless_cudasim (they
test cudasim) are skipped.

CUDA_ENABLE_NRT is False: ptxjit has no reference-counted runtime.

A setting ptxjit.cuda.config lacks raises MissingName, so a test that
depends on it counts as a gap rather than passing by accident.
"""

import sys
import types

from compat_shim import MissingName, OWN_SETTINGS as _OWN
import ptxjit.cuda.config as _ptxjit_config


class _Config(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name in _OWN:
            return _OWN[name]
        try:
            return getattr(_ptxjit_config, name)
        except AttributeError:
            raise MissingName("%s.%s: ptxjit.cuda.config has no setting %r" % (self.__name__, name, name)) from None

    def __setattr__(self, name, value):
        if name.startswith("__"):
            super().__setattr__(name, value)
        elif name in _OWN:
            _OWN[name] = value
        else:
            getattr(self, name)          # MissingName for a setting ptxjit lacks
            setattr(_ptxjit_config, name, value)


sys.modules[__name__].__class__ = _Config
