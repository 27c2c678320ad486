"""numba.cuda.testing under the ptxjit shim.

The skip decorators answer for ptxjit: it is not Numba's cudasim (see
shim_config.py); it links no CUDA C, LTO-IR or cudadevrt and ships no
toolkit, so tests that need nvjitlink, curand headers or nvdisasm
are skipped as numba-cuda skips them where those are absent (they appear in
RESULTS.md's skip reasons).  Compute capability comes from ptxjit's current
device (the simulator's on PTXJIT_SIM=1).  Any other name raises MissingName.
"""

import os
import platform
import sys
import types
import unittest  # noqa: F401  (tests import it from here)
from pathlib import Path

from compat_shim import MissingName, OWN_SETTINGS, real_cuda_dir
from shim_support import TestCase

ENABLE_CUDASIM = OWN_SETTINGS["ENABLE_CUDASIM"]

test_data_dir = Path(real_cuda_dir()) / "tests" / "data"


class CUDATestCase(TestCase):
    """A test that uses the device (ptxjit's GPU or its simulator)."""

    FLOAT16_RTOL = 0.0009765625      # float16's machine epsilon

    def setUp(self):
        # as numba-cuda's CUDATestCase: the suite launches small grids on host
        # arrays on purpose, so its performance warnings are off per test
        from ptxjit.cuda import config
        self._low_occupancy_warnings = config.CUDA_LOW_OCCUPANCY_WARNINGS
        self._warn_on_implicit_copy = config.CUDA_WARN_ON_IMPLICIT_COPY
        config.CUDA_LOW_OCCUPANCY_WARNINGS = 0
        config.CUDA_WARN_ON_IMPLICIT_COPY = 0

    def tearDown(self):
        from ptxjit.cuda import config
        config.CUDA_LOW_OCCUPANCY_WARNINGS = self._low_occupancy_warnings
        config.CUDA_WARN_ON_IMPLICIT_COPY = self._warn_on_implicit_copy

    def assertFileCheckMatches(self, text, check_patterns, check_prefixes=("CHECK",), **options):
        """FileCheck (the filecheck package) of check_patterns against text,
        ptxjit's PTX where a test gives inspect_asm()'s."""
        from io import StringIO
        from filecheck.finput import FInput
        from filecheck.matcher import Matcher
        from filecheck.options import Options
        from filecheck.parser import Parser, pattern_for_opts
        opts = Options(match_filename="-", check_prefixes=list(check_prefixes), **options)
        matcher = Matcher(opts, FInput(fname="-", content=text),
                          Parser(opts, StringIO(check_patterns), *pattern_for_opts(opts)))
        matcher.stderr = StringIO()
        if matcher.run() != 0:
            self.fail("FileCheck failed:\n%s\n--- checks:\n%s\n--- text:\n%s"
                      % (matcher.stderr.getvalue(), check_patterns, text))

    def assertFileCheckAsm(self, ir_producer, signature=None, check_prefixes=("ASM",), **options):
        asm = ir_producer.inspect_asm()
        texts = list(asm.values()) if signature is None else [asm[signature]]
        assert texts and ir_producer.__doc__, "no PTX for the signature, or no checks in the docstring"
        for text in texts:
            self.assertFileCheckMatches(text, ir_producer.__doc__, check_prefixes, **options)

    def assertFileCheckLLVM(self, ir_producer, signature=None, check_prefixes=("LLVM",), **options):
        raise MissingName("CUDATestCase.assertFileCheckLLVM: Numba's LLVM IR (ptxjit writes PTX)")


def skip_on_cudasim(reason):
    return unittest.skipIf(ENABLE_CUDASIM, reason)


def skip_unless_cudasim(reason):
    return unittest.skipUnless(ENABLE_CUDASIM, reason)


def xfail_unless_cudasim(fn):
    return fn if ENABLE_CUDASIM else unittest.expectedFailure(fn)


skip_on_standalone_numba_cuda = unittest.skipUnless(
    __import__("importlib").util.find_spec("numba.core") is not None, "requires base numba install")


def _no_toolkit(what):
    def deco(reason):
        return unittest.skip("ptxjit has no %s: %s" % (what, reason))
    return deco


skip_if_nvjitlink_missing = _no_toolkit("nvjitlink")
skip_without_nvdisasm = _no_toolkit("nvdisasm")
skip_on_nvjitlink_13_1_sm_120 = lambda reason: unittest.skipIf(False, reason)  # noqa: E731


def skip_with_nvdisasm(reason):
    return unittest.skipIf(False, reason)


def skip_if_cudadevrt_missing(fn):
    # ptxjit's grid-wide barrier (cuda.cg.this_grid().sync()) is its own PTX
    # and needs no cudadevrt, so the tests that want it run
    return fn


def skip_if_curand_kernel_missing(fn):
    return unittest.skip("ptxjit has no CUDA headers (curand_kernel.h)")(fn)


def skip_if_cuda_includes_missing(fn):
    return unittest.skip("ptxjit has no CUDA headers")(fn)


def skip_if_external_memmgr(reason):
    return unittest.skipIf(False, reason)


def skip_under_cuda_memcheck(reason):
    return unittest.skipIf(os.environ.get("CUDA_MEMCHECK") is not None, reason)


def skip_on_arm(reason):
    return unittest.skipIf(platform.machine().lower().startswith(("arm", "aarch")), reason)


def skip_on_wsl2(reason):
    return unittest.skipIf("wsl2" in platform.release().lower(), reason)


def cc_X_or_above(major, minor):
    from ptxjit import cuda
    return tuple(cuda.get_current_device().compute_capability) >= (major, minor)


def _cc(major, minor):
    def deco(fn):
        return unittest.skipUnless(cc_X_or_above(major, minor), "requires cc >= %d.%d" % (major, minor))(fn)
    return deco


skip_unless_cc_50 = _cc(5, 0)
skip_unless_cc_53 = _cc(5, 3)
skip_unless_cc_60 = _cc(6, 0)
skip_unless_cc_75 = _cc(7, 5)
skip_unless_cc_90 = _cc(9, 0)


class ForeignArray:
    """An array from another library: only its __cuda_array_interface__."""

    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__


class _Testing(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise MissingName("%s.%s: not provided for ptxjit" % (self.__name__, name))


sys.modules[__name__].__class__ = _Testing
