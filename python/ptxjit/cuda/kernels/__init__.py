"""Kernels ptxjit ships, written in its own kernel dialect (numba.cuda.kernels)."""
