"""numba.cuda._internal: the modules numba-cuda generates from CUDA's
headers, under the same names (cuda_fp8)."""
