"""ptxjit.np.numpy_support: Numba's numpy_support names that kernels and
their tests use: from_dtype and as_dtype (between NumPy dtypes and ptxjit
types) and numpy_version (NumPy's version as a tuple of ints)."""

import numpy as _np

from .. import as_dtype, from_dtype  # noqa: F401

numpy_version = tuple(int(p) for p in _np.__version__.split(".")[:2])
