"""Builds ptxjit's C extension, ptxjit._core, from src/ with a C compiler and
Python's headers only: no CUDA toolkit (the driver is opened with dlopen at
run time) and no NumPy headers (arrays are read through the buffer protocol).

    pip install .                         # or, offline: pip install --no-build-isolation .
    python setup.py build_ext --inplace   # python/ptxjit/_core*.so, for tests in the checkout
    PTXJIT_SANITIZE=address,undefined CC=clang ...   # instrumented (make asan-py)

The sources are compiled in parallel (PTXJIT_BUILD_JOBS, default: all CPUs).
tools/build-wheels.sh builds the manylinux wheels from the same sources and
flags (it imports this file).
"""

import glob
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
STAGES = ["base", "front", "sema", "ir", "opt", "ptx", "sim", "rt", "cgen", "math", "py"]


def sources():
    files = []
    for stage in STAGES:
        files += sorted(glob.glob(os.path.join("src", stage, "*.c")))
    # the ptxjitc command without its main(): python -m ptxjit.cli, the
    # console script `ptxjitc`
    files += sorted(f for f in glob.glob(os.path.join("src", "cli", "*.c")) if not f.endswith("main.c"))
    return files


class ParallelBuildExt(build_ext):
    """Compiles the extension's sources in parallel."""

    def build_extensions(self):
        compile_one = self.compiler.compile
        jobs = int(os.environ.get("PTXJIT_BUILD_JOBS", "0")) or os.cpu_count() or 4

        def compile_all(srcs, output_dir=None, macros=None, include_dirs=None, debug=0,
                        extra_preargs=None, extra_postargs=None, depends=None):
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                parts = pool.map(lambda s: compile_one([s], output_dir, macros, include_dirs, debug,
                                                       extra_preargs, extra_postargs, depends), srcs)
                return [obj for objs in parts for obj in objs]

        self.compiler.compile = compile_all
        super().build_extensions()


cflags = ["-std=c11", "-O2", "-fvisibility=hidden", "-Wall", "-Wextra", "-Wno-unused-parameter",
          "-Wno-missing-field-initializers"]
ldflags = []
if os.environ.get("PTXJIT_DEBUG_BUILD"):
    cflags += ["-O0", "-g", "-UNDEBUG"]
# PTXJIT_SANITIZE=address,undefined: an instrumented build for `make asan-py`
# (the sanitizer's runtime is preloaded into Python, so it is not linked in).
SANITIZE = os.environ.get("PTXJIT_SANITIZE")
if SANITIZE:
    cflags += ["-O1", "-g", "-fsanitize=" + SANITIZE, "-fno-omit-frame-pointer",
               "-fno-sanitize-recover=all"]
    ldflags += ["-fsanitize=" + SANITIZE]

ext = Extension(
    "ptxjit._core",
    sources=sources(),
    include_dirs=["src"],
    define_macros=[("_GNU_SOURCE", None)],
    extra_compile_args=cflags,
    extra_link_args=ldflags,
    libraries=["m", "dl", "pthread"] if sys.platform.startswith("linux") else ["m"],
)

# tools/build-wheels.sh imports this file for sources() and cflags
if __name__ == "__main__":
    setup(
        ext_modules=[ext],
        cmdclass={"build_ext": ParallelBuildExt},
    )
