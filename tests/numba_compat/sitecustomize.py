"""Binds numba.cuda to ptxjit in every Python started with PTXJIT_NUMBA_SHIM=1
and tests/numba_compat on its path (run.py sets both), so that the
subprocesses numba-cuda's tests start (print tests, multiprocessing) run
ptxjit too, never numba-cuda."""

import os

if os.environ.get("PTXJIT_NUMBA_SHIM") == "1":
    import compat_shim
    compat_shim.install()
