"""numba.core.errors' names: the exceptions and warnings of ptxjit.errors."""

from ..errors import *  # noqa: F401,F403
from ..errors import __all__  # noqa: F401
