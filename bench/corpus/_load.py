"""Imports a corpus file with `numba` bound to ptxjit or to Numba.

The file's own `from numba import cuda` then binds the compiler under test:
the same source is compiled by both in one process.  opt=False (ptxjit
only) imports it as NUMBA_OPT=0 would, so every @cuda.jit of the file
compiles without the IR optimisation passes.
"""

import glob
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_BOUND = ("numba", "numba.cuda", "numba.cuda.random")


def files():
    return sorted(p for p in glob.glob(os.path.join(HERE, "*.py"))
                  if not os.path.basename(p).startswith("_"))


def load(path, numba_mod, tag, opt=True):
    """The module of corpus file `path`, imported with numba_mod as `numba`."""
    added = HERE not in sys.path     # for the files' `from _case import ...`, while they load
    if added:
        sys.path.insert(0, HERE)
    cuda = importlib.import_module(numba_mod.__name__ + ".cuda")
    rand = importlib.import_module(numba_mod.__name__ + ".cuda.random")
    binds = {"numba": numba_mod, "numba.cuda": cuda, "numba.cuda.random": rand}
    saved = {k: sys.modules.get(k) for k in _BOUND}
    sys.modules.update(binds)
    config, old_opt = None, None
    if not opt:
        from ptxjit.cuda import config
        old_opt, config.OPT = config.OPT, 0
    name = "corpus_%s_%s" % (os.path.basename(path)[:-3], tag)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    finally:
        if added:
            sys.path.remove(HERE)
        if config is not None:
            config.OPT = old_opt
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return mod


def load_all(numba_mod, tag, opt=True):
    """[(file stem, module)] for every corpus file."""
    return [(os.path.basename(p)[:-3], load(p, numba_mod, tag, opt)) for p in files()]
