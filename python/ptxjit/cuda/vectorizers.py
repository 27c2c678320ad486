"""numba.cuda.vectorizers' builders, through which numba.vectorize and
numba.guvectorize make functions for target='cuda': Numba's decorators
call CUDAVectorize(func, identity=, cache=, targetoptions=) (or
CUDAGUFuncVectorize with the layout), add() each signature and
build_ufunc().  The result is ptxjit's (ptxjit.ufunc)."""


class _Builder:
    """What both builders share: the function, its options and the
    signatures add() collects."""

    kind = ""

    def __init__(self, func, identity=None, cache=False, targetoptions=None):
        if cache:
            raise TypeError("caching is not supported for cuda %s functions" % self.kind)
        self.py_func = func
        self.identity = identity
        self.targetoptions = dict(targetoptions or {})
        self.signatures = []

    def add(self, sig=None):
        self.signatures.append(sig)

    def disable_compile(self):
        pass


class CUDAVectorize(_Builder):
    kind = "vectorize"

    def build_ufunc(self):
        from ..ufunc import vectorize
        opts = dict(self.targetoptions, target="cuda", identity=self.identity)
        if self.signatures:
            return vectorize(self.signatures, **opts)(self.py_func)
        return vectorize(self.py_func, **opts)


class CUDAGUFuncVectorize(_Builder):
    kind = "guvectorize"

    def __init__(self, func, sig, identity=None, cache=False, targetoptions=None, writable_args=()):
        super().__init__(func, identity, cache, targetoptions)
        self.layout = sig

    def build_ufunc(self):
        from ..ufunc import guvectorize
        args = (self.signatures, self.layout) if self.signatures else (self.layout,)
        return guvectorize(*args, target="cuda", **self.targetoptions)(self.py_func)
