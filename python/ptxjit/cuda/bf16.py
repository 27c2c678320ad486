"""numba.cuda.bf16: the bfloat16 type and its functions, in kernels.

`bfloat16(x)` makes a bfloat16 (x rounded to nearest even); bfloat16
values compute with + - * / and the compares, and the functions here
(hadd, hfma, hsqrt, htrunc, the conversions with a rounding mode such as
float32_to_bfloat16_rz, the bit casts bfloat16_as_int16, ...) work as
numba-cuda's module of the same name defines them.  bfloat16 needs a
device of compute capability 8.0 or newer (cuda.is_bfloat16_supported());
the simulator has it.  The names are ptxjit's own (src/sema/sema_bf16.c
types them); kernels cannot take or store bfloat16 arrays yet.
"""

from .. import _core
from ..types import bfloat16
from .stubs import Stub

# The functions under the names of CUDA's cuda_bf16.h, without the
# leading underscores (hadd, float2bfloat16_rz, bfloat162int_rn, ...).
FUNCTIONS = {name: Stub("cuda.bf16." + name) for name in _core.bf16_functions()}
globals().update(FUNCTIONS)

# numba-cuda's spellings with NumPy's type names: float32_to_bfloat16_rz
# is float2bfloat16_rz.
ALIASES = {alias: FUNCTIONS[name] for alias, name in _core.bf16_aliases()}
globals().update(ALIASES)

__all__ = ["bfloat16"] + list(FUNCTIONS) + list(ALIASES)
