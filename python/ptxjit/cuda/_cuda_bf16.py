"""numba.cuda._internal.cuda_bf16: CUDA's cuda_bf16.h names for the
functions of ptxjit.cuda.bf16 (nv_bfloat16 is the type, __hadd is hadd,
__float2bfloat16_rz is float2bfloat16_rz, htrunc is htrunc)."""

from . import bf16 as _bf16

nv_bfloat16 = _bf16.bfloat16
_g = globals()
for _name, _stub in _bf16.FUNCTIONS.items():
    _g[_name] = _stub
    if not _name.startswith("h") or _name.startswith(("hadd", "hsub", "hmul", "hdiv", "hfma", "hneg", "habs",
                                                       "heq", "hne", "hge", "hgt", "hle", "hlt", "hmax",
                                                       "hmin", "his")):
        _g["__" + _name] = _stub
del _g, _name, _stub
