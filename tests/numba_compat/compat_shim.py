"""`numba.cuda` as ptxjit: the import hook under numba-cuda's own tests.

install() (or sitecustomize.py, in every Python started with
PTXJIT_NUMBA_SHIM=1, so that the tests' subprocesses get it too) puts a
finder first on sys.meta_path that answers every import of `numba.cuda` and
`numba.cuda.*`:

  numba.cuda                  a module whose attributes are ptxjit.cuda's (and
                              ptxjit's type names, as numba.cuda exports them)
  numba.cuda.tests[.cudapy.*] numba-cuda's test files, read from the installed
                              package (the code under test)
  numba.cuda.testing          our test infrastructure (shim_testing.py)
  numba.cuda.tests.support    our test infrastructure (shim_support.py)
  numba.cuda.config,          ptxjit.cuda.config, with ENABLE_CUDASIM False: ptxjit's
  numba.cuda.core.config      simulator is not Numba's cudasim (shim_config.py)
  numba.cuda.core.errors      ptxjit.core.errors (Numba's names of ptxjit's exceptions)
  numba.cuda.types            ptxjit.types
  numba.cuda.cudadrv.driver   ptxjit.cuda.driver (and cudadrv.error: ptxjit.errors,
                              cudadrv.devicearray: ptxjit.cuda.devicearray; cuda.cudadrv
                              and cuda.cudadrv.driver are attributes too, as numba.cuda's
                              __init__ imports them)
  numba.cuda.vectorizers      ptxjit.cuda.vectorizers (numba.vectorize(target='cuda'))
  numba.cuda.misc[.special]   ptxjit.cuda.misc[.special] (literal_unroll)
  numba.cuda.kernels[.transpose]  ptxjit.cuda.kernels[.transpose] (ptxjit's own kernel)
  numba.cuda.extending        ptxjit.extending (@overload, register_jitable, ...)
  numba.cuda.cudaimpl,        ptxjit._lowlevel: Numba's LLVM-level extension API,
  cudadecl, cgutils, models,  whose registrations are accepted and refused where a
  typing.templates,           kernel reaches them
  core.imputils
  numba.cuda.bf16             ptxjit.cuda.bf16 (and _internal.cuda_bf16: its names
                              as CUDA's cuda_bf16.h spells them)
  numba.cuda.fp8              ptxjit.cuda.fp8 (and _internal.cuda_fp8)
  numba.cuda.random           ptxjit.cuda.random (and compiler, dispatcher, api,
                              stubs, np.numpy_support: the ptxjit modules of
                              the same role)
  anything else               MissingModule (an ImportError)

A name that ptxjit lacks raises MissingName (an AttributeError) that names it;
nothing ever falls back to numba-cuda's implementation, so a test that passes
ran ptxjit.  The test runner (run.py) classifies both exceptions.
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))

# numba.cuda.<sub> -> a file of ours, loaded under that name
OWN_FILES = {
    "testing": "shim_testing.py",
    "tests.support": "shim_support.py",
    "config": "shim_config.py",
    "core.config": "shim_config.py",
}
# numba.cuda.<sub> -> the ptxjit module it is
PTXJIT_MODULES = {
    "types": "ptxjit.types",
    "random": "ptxjit.cuda.random",
    "compiler": "ptxjit.cuda",          # compile_ptx, compile, ... live in numba.cuda.compiler
    "dispatcher": "ptxjit.cuda.dispatcher",
    "api": "ptxjit.cuda.api",
    "stubs": "ptxjit.cuda.stubs",
    "np.numpy_support": "ptxjit.np.numpy_support",
    "core.errors": "ptxjit.core.errors",
    "errors": "ptxjit.core.errors",
    "cudadrv.driver": "ptxjit.cuda.driver",
    "cudadrv.devicearray": "ptxjit.cuda.devicearray",
    "cudadrv.devices": "ptxjit.cuda.devices",
    "cudadrv.error": "ptxjit.errors",
    "vectorizers": "ptxjit.cuda.vectorizers",
    "libdevice": "ptxjit.cuda.libdevice",
    "libdevicefuncs": "ptxjit.cuda.libdevicefuncs",
    "vector_types": "ptxjit.cuda.vector_types",
    "typing": "ptxjit.typing",
    "typing.typeof": "ptxjit.typing",
    "args": "ptxjit.cuda.args",
    "extending": "ptxjit.extending",
    "cudaimpl": "ptxjit._lowlevel",      # Numba's LLVM-level extension API: accepted, refused
    "cudadecl": "ptxjit._lowlevel",      # where a kernel uses it (ptxjit/_lowlevel.py)
    "typing.templates": "ptxjit._lowlevel",
    "core.imputils": "ptxjit._lowlevel",
    "cgutils": "ptxjit._lowlevel",
    "models": "ptxjit._lowlevel",
    "core.datamodel": "ptxjit._lowlevel",
    "launchconfig": "ptxjit.cuda.launchconfig",
    "cudadrv.nvrtc": "ptxjit.cuda.nvrtc",
    "cudadrv.linkable_code": "ptxjit.cuda.linkable",
    "core.callconv": "ptxjit.cuda.callconv",
    "bf16": "ptxjit.cuda.bf16",
    "_internal.cuda_bf16": "ptxjit.cuda._cuda_bf16",
    "fp8": "ptxjit.cuda.fp8",
    "_internal.cuda_fp8": "ptxjit.cuda._internal.cuda_fp8",
    "misc": "ptxjit.cuda.misc",
    "misc.special": "ptxjit.cuda.misc.special",
    "kernels": "ptxjit.cuda.kernels",
    "kernels.transpose": "ptxjit.cuda.kernels.transpose",
}
# packages of ours that only hold the files above
OWN_PACKAGES = {"core", "np", "cudadrv", "_internal"}


# the settings shim_config.py answers itself (one dict for every module
# loaded from that file: numba.cuda.config, numba.cuda.core.config)
OWN_SETTINGS = {"ENABLE_CUDASIM": False, "CUDA_ENABLE_NRT": False}


class MissingName(AttributeError):
    """numba.cuda (or a module it maps to ptxjit) has a name that ptxjit lacks."""


class MissingModule(ImportError):
    """A numba.cuda submodule without a counterpart in ptxjit."""


def real_cuda_dir():
    """numba-cuda's installed numba/cuda folder (where its tests are)."""
    spec = importlib.util.find_spec("numba_cuda")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("numba-cuda is not installed (pip install '.[compat]', or run tests/numba_compat/run.py)")
    return os.path.join(list(spec.submodule_search_locations)[0], "numba", "cuda")


class Forward(types.ModuleType):
    """A module whose attributes are another's; a miss raises MissingName."""

    def __init__(self, name, target, label):
        super().__init__(name)
        self.__dict__["_target"] = target
        self.__dict__["_label"] = label

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        try:
            value = getattr(self._target, name)
        except AttributeError:
            raise MissingName("%s.%s: %s has no attribute %r" % (self.__name__, name, self._label, name)) from None
        self.__dict__[name] = value
        return value

    def __dir__(self):
        return sorted(set(dir(self._target)) | set(self.__dict__))


class CudaNamespace(Forward):
    """numba.cuda: ptxjit.cuda's names, ptxjit's type names, and the few
    settings numba-cuda's tests read at the top of the namespace."""

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        import ptxjit
        import ptxjit.types as ptypes
        if name == "HAS_NUMBA":          # numba (the CPU target) is installed beside
            value = importlib.util.find_spec("numba.core") is not None
        elif name in ("config", "types", "random") or name in OWN_PACKAGES:
            value = importlib.import_module("numba.cuda." + name)
        elif name in ptypes.__all__ and not hasattr(self._target, name):
            value = getattr(ptxjit, name, None) or getattr(ptypes, name)
        else:
            return Forward.__getattr__(self, name)
        self.__dict__[name] = value
        return value


class Package(types.ModuleType):
    """One of OWN_PACKAGES (numba.cuda.cudadrv): its attributes are the
    submodules mapped under it, imported at first use, as numba.cuda's
    __init__ imports them (cuda.cudadrv.driver.Stream); a miss raises
    MissingName."""

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        sub = self.__name__[len("numba.cuda."):] + "." + name
        if sub not in PTXJIT_MODULES and sub not in OWN_FILES:
            raise MissingName("%s.%s: ptxjit has no counterpart of this numba-cuda module" % (self.__name__, name))
        value = importlib.import_module(self.__name__ + "." + name)
        self.__dict__[name] = value
        return value


class _Loader(importlib.abc.Loader):
    def __init__(self, make):
        self.make = make

    def create_module(self, spec):
        return self.make(spec)

    def exec_module(self, module):
        pass


class Finder(importlib.abc.MetaPathFinder):
    def __init__(self):
        self.real = real_cuda_dir()

    def find_spec(self, name, path=None, target=None):
        if name == "numba.cuda":
            return importlib.machinery.ModuleSpec(name, _Loader(self._namespace), is_package=True)
        if not name.startswith("numba.cuda."):
            return None
        sub = name[len("numba.cuda."):]
        if sub in OWN_FILES:
            return importlib.util.spec_from_file_location(name, os.path.join(HERE, OWN_FILES[sub]))
        if sub in OWN_PACKAGES:
            spec = importlib.machinery.ModuleSpec(name, _Loader(lambda s: Package(s.name)),
                                                  is_package=True)
            spec.submodule_search_locations = []
            return spec
        if sub in PTXJIT_MODULES:
            target = PTXJIT_MODULES[sub]
            package = any(k.startswith(sub + ".") for k in PTXJIT_MODULES)
            spec = importlib.machinery.ModuleSpec(
                name, _Loader(lambda s: Forward(s.name, importlib.import_module(target), target)),
                is_package=package)
            if package:          # numba.cuda.typing with numba.cuda.typing.typeof under it
                spec.submodule_search_locations = []
            return spec
        if sub == "tests" or sub.startswith("tests."):
            base = os.path.join(self.real, *sub.split("."))
            if os.path.isdir(base):
                return importlib.util.spec_from_file_location(
                    name, os.path.join(base, "__init__.py"), submodule_search_locations=[base])
            if os.path.isfile(base + ".py"):
                return importlib.util.spec_from_file_location(name, base + ".py")
            return None
        real = os.path.join(self.real, *sub.split("."))
        if not os.path.exists(real) and not os.path.exists(real + ".py"):
            # `from numba.cuda import X` of a name, tried as a module after the attribute
            raise MissingModule("%s: ptxjit.cuda has no attribute %r" % (name, sub), name=name)
        raise MissingModule("%s: ptxjit has no counterpart of this numba-cuda module" % name, name=name)

    def _namespace(self, spec):
        import ptxjit.cuda
        m = CudaNamespace(spec.name, ptxjit.cuda, "ptxjit.cuda")
        m.__path__ = []
        m.__file__ = ptxjit.cuda.__file__
        return m


def install():
    """Makes `numba.cuda` ptxjit in this process (idempotent)."""
    if any(isinstance(f, Finder) for f in sys.meta_path):
        return
    for mod in list(sys.modules):
        if mod == "numba.cuda" or mod.startswith("numba.cuda."):
            raise RuntimeError("numba.cuda was imported before the ptxjit shim was installed")
    sys.meta_path.insert(0, Finder())
    import numba
    numba.cuda = importlib.import_module("numba.cuda")
