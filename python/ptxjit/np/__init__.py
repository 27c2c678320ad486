"""ptxjit.np: NumPy-facing helpers, under the names of numba.cuda.np."""
