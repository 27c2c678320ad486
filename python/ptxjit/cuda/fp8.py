"""numba.cuda.fp8: CUDA's fp8 types and conversions, in kernels.

fp8_e5m2, fp8_e4m3 and fp8_e8m0 are the types of cuda_fp8.h: a kernel
makes one from a number (`fp8_e4m3(x)`, rounded as CUDA rounds it) and
converts it to any number type (`float32(v)`, `int32(v)`); they have no
arithmetic.  The cvt_* functions convert to and from the storage bits
(uint8) with a saturation_t, an fp8_interpretation_t or a cudaRoundMode
member; cvt_e8m0_to_bf16raw returns a bfloat16_raw, whose .x is the bits.
The simulator and every device give the same bits (src/ir/lower_fp8.c);
the vector forms (fp8x2_e4m3, cvt_float2_to_fp8x2, ...) are not supported.
"""

from enum import IntEnum

from .stubs import Stub


class cudaRoundMode(IntEnum):
    """cuda-bindings' cudaRoundMode (cuda.bindings.runtime), whose members
    kernels may name as well: the same names and values."""
    cudaRoundNearest = 0
    cudaRoundZero = 1
    cudaRoundPosInf = 2
    cudaRoundMinInf = 3


class saturation_t(IntEnum):
    NOSAT = 0
    SATFINITE = 1


class fp8_interpretation_t(IntEnum):
    E4M3 = 0
    E5M2 = 1


def _fp8_type(name):
    def new(cls, *args, **kwargs):
        raise RuntimeError("%s() can only be used inside a @cuda.jit kernel or device function" % name)
    return type(name, (), {"__new__": new, "__module__": __name__,
                           "__doc__": "CUDA's __nv_%s: a scalar type of kernels, converted to and from numbers"
                           % name})


fp8_e5m2 = _fp8_type("fp8_e5m2")
fp8_e4m3 = _fp8_type("fp8_e4m3")
fp8_e8m0 = _fp8_type("fp8_e8m0")
TYPES = (fp8_e5m2, fp8_e4m3, fp8_e8m0)

FUNCTIONS = {name: Stub("cuda.fp8." + name) for name in (
    "cvt_float_to_fp8", "cvt_double_to_fp8", "cvt_bfloat16raw_to_fp8", "cvt_float_to_e8m0",
    "cvt_double_to_e8m0", "cvt_bfloat16raw_to_e8m0", "cvt_e8m0_to_bf16raw")}
globals().update(FUNCTIONS)

# cuda_fp8.h's vector forms: names kernels refuse, with the reason
UNSUPPORTED = {name: Stub("cuda.fp8." + name) for name in (
    "fp8x2_e5m2", "fp8x4_e5m2", "fp8x2_e4m3", "fp8x4_e4m3", "fp8x2_e8m0", "fp8x4_e8m0",
    "cvt_float2_to_fp8x2", "cvt_double2_to_fp8x2", "cvt_float2_to_e8m0x2", "cvt_double2_to_e8m0x2")}
globals().update(UNSUPPORTED)

__all__ = (["fp8_e5m2", "fp8_e4m3", "fp8_e8m0", "saturation_t", "fp8_interpretation_t", "cudaRoundMode"]
           + list(FUNCTIONS) + list(UNSUPPORTED))
