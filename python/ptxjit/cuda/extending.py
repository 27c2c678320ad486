"""ptxjit.cuda.extending: numba.cuda.extending's names (ptxjit/extending.py)."""

from ..extending import *  # noqa: F401,F403
from ..extending import __all__  # noqa: F401
