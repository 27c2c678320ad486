"""numba.cuda.vectorizers' builders, through which numba.vectorize and
numba.guvectorize make functions for target='cuda': Numba's decorators
call CUDAVectorize(func, identity=, cache=, targetoptions=) (or
CUDAGUFuncVectorize with the layout), add() each signature and
build_ufunc().  The result is ptxjit's (ptxjit.ufunc)."""


class CUDAVectorize:
    def __init__(self, func, identity=None, cache=False, targetoptions=None):
        if cache:
            raise TypeError("caching is not supported for cuda vectorize functions")
        self.py_func = func
        self.identity = identity
        self.targetoptions = dict(targetoptions or {})
        self.signatures = []

    def add(self, sig=None):
        self.signatures.append(sig)

    def disable_compile(self):
        pass

    def build_ufunc(self):
        from ..ufunc import vectorize
        opts = dict(self.targetoptions, target="cuda", identity=self.identity)
        if self.signatures:
            return vectorize(self.signatures, **opts)(self.py_func)
        return vectorize(self.py_func, **opts)


class CUDAGUFuncVectorize:
    def __init__(self, func, sig, identity=None, cache=False, targetoptions=None, writable_args=()):
        if cache:
            raise TypeError("caching is not supported for cuda guvectorize functions")
        self.py_func = func
        self.layout = sig
        self.identity = identity
        self.targetoptions = dict(targetoptions or {})
        self.signatures = []

    def add(self, sig=None):
        self.signatures.append(sig)

    def disable_compile(self):
        pass

    def build_ufunc(self):
        from ..ufunc import guvectorize
        args = (self.signatures, self.layout) if self.signatures else (self.layout,)
        return guvectorize(*args, target="cuda", **self.targetoptions)(self.py_func)
