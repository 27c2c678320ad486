"""ptxjit.core: where Numba users find numba.core's modules (errors)."""
