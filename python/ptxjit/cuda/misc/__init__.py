"""numba.cuda.misc's names that kernels use (literal_unroll, in .special)."""
