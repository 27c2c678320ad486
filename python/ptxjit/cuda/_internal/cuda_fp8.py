"""numba.cuda._internal.cuda_fp8: the names of ptxjit.cuda.fp8 as
numba-cuda's bindings of cuda_fp8.h spell them."""

from ..fp8 import *  # noqa: F401,F403
from ..fp8 import __all__  # noqa: F401
