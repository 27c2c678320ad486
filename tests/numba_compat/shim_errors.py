"""numba.cuda.core.errors under the ptxjit shim: ptxjit's exceptions under
Numba's names; any other name raises MissingName."""

import sys
import types

from compat_shim import MissingName
from ptxjit.errors import TypingError, InternalCompilerError  # noqa: F401


class _Errors(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise MissingName("%s.%s: ptxjit.errors has no attribute %r" % (self.__name__, name, name))


sys.modules[__name__].__class__ = _Errors
