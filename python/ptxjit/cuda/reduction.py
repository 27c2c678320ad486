"""cuda.reduce / cuda.Reduce: reductions with a binary function, on the GPU.

    sum_reduce = cuda.reduce(lambda a, b: a + b)
    total = sum_reduce(arr)                    # a NumPy scalar
    sum_reduce(darr, res=dres, init=1.0, stream=s)   # result in dres[0]

The binary function (a def, a one-expression lambda read out of its source
line, or a cuda.jit(device=True) function) becomes a device function, called
from two kernels generated here in the kernel dialect:

  stage 1   a grid of at most as many blocks as the device keeps resident; every thread
            starts from its first element and folds in the elements one grid
            stride apart (four loads in flight per step), then each block
            folds its threads' values in shared memory in a tree and writes
            one partial result;
  stage 2   one block folds the partials the same way and combines the
            result with `init` (always, as Numba does: init defaults to 0).

A thread without elements does not take part: every thread of the first
stage owns at least one element (the grid is never larger than the array),
and the tree skips the slots past a block's last thread that has one.  So
the function needs no identity, and any length from 1 up works.

As in Numba: 1-d arrays only, `size=` reduces a prefix, `init` is cast to
the array's dtype and returned for an empty array, `res=` (a device array)
receives the result in res[0] and the call returns None.  The partials and
the result have the array's dtype.  Kernels are cached per (function, dtype).
"""

import numpy as np

TPB = 256

_STAGE1 = """\
def reduce_{name}_partials(arr, part, n):
    tid = np.uint64(cuda.threadIdx.x)
    blk = np.uint64(cuda.blockIdx.x)
    tpb = np.uint64({tpb})
    step = np.uint64(cuda.gridDim.x) * tpb
    s2 = step + step
    s3 = s2 + step
    s4 = s2 + s2
    i = blk * tpb + tid
    sm = cuda.shared.array({tpb}, _dt)
    if i < n:
        acc = arr[i]
        i += step
        while i + s3 < n:
            v0 = arr[i]
            v1 = arr[i + step]
            v2 = arr[i + s2]
            v3 = arr[i + s3]
            acc = _op(acc, _op(_op(v0, v1), _op(v2, v3)))
            i += s4
        while i < n:
            acc = _op(acc, arr[i])
            i += step
        sm[tid] = acc
    cuda.syncthreads()
    cnt = n - blk * tpb
    w = np.uint64({half})
    while w > np.uint64(0):
        if tid < w and tid + w < cnt:
            sm[tid] = _op(sm[tid], sm[tid + w])
        cuda.syncthreads()
        w = w >> np.uint64(1)
    if tid == np.uint64(0):
        part[blk] = sm[0]
"""

_STAGE2 = """\
def reduce_{name}_final(part, res, n, init):
    tid = np.uint64(cuda.threadIdx.x)
    tpb = np.uint64({tpb})
    sm = cuda.shared.array({tpb}, _dt)
    if tid < n:
        acc = part[tid]
        i = tid + tpb
        while i < n:
            acc = _op(acc, part[i])
            i += tpb
        sm[tid] = acc
    cuda.syncthreads()
    w = np.uint64({half})
    while w > np.uint64(0):
        if tid < w and tid + w < n:
            sm[tid] = _op(sm[tid], sm[tid + w])
        cuda.syncthreads()
        w = w >> np.uint64(1)
    if tid == np.uint64(0):
        res[0] = _op(sm[0], init)
"""


class Reduce:
    """A reduction with a binary function: Reduce(lambda a, b: a + b)(arr).
    Compiled once per dtype and kept in this object (and in a cache shared
    by Reduce objects of the same function)."""

    _cache = {}

    def __init__(self, functor):
        self._functor = functor
        self._dev = None
        self.__name__ = getattr(functor, "__name__", "reduce")
        self.__doc__ = getattr(functor, "__doc__", None)
        self.__wrapped__ = functor

    def _kernels(self, dtype):
        key = (self._functor, dtype)
        ks = self._cache.get(key)
        if ks is None:
            from .. import ufunc
            if self._dev is None:
                self._dev = ufunc.device_function(self._functor)
            name = ufunc._ident(self.__name__)
            fmt = {"name": name, "tpb": TPB, "half": TPB // 2}
            g = {"_op": self._dev, "_dt": getattr(np, dtype.name if dtype.name != "bool" else "bool_")}
            ks = (ufunc.make_kernel("reduce_%s_partials" % name, _STAGE1.format(**fmt), g),
                  ufunc.make_kernel("reduce_%s_final" % name, _STAGE2.format(**fmt), g))
            self._cache[key] = ks
        return ks

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        """Reduces the 1-d array `arr` (host or device); returns the result
        as a NumPy scalar, or writes it to res[0] and returns None."""
        from . import api
        from .devicearray import DeviceNDArray
        from .. import ufunc
        if not isinstance(arr, DeviceNDArray):
            if hasattr(arr, "__cuda_array_interface__") and not isinstance(arr, np.ndarray):
                arr = api.as_cuda_array(arr)
            else:
                arr = np.asarray(arr)
        if arr.ndim != 1:
            raise TypeError("reduce: only 1-d arrays are supported, not an array of %d dimensions "
                            "(reduce arr.ravel(), or one row at a time)" % arr.ndim)
        if size is not None:
            arr = arr[:size]
        dtype = arr.dtype
        ufunc.numba_name(dtype)
        init = dtype.type(init)
        n = arr.shape[0]
        if n < 1:
            if res is not None:
                res[:1].copy_to_device(np.array([init], dtype=res.dtype), stream=stream)
                return None
            return init
        if not isinstance(arr, DeviceNDArray):
            arr = api.to_device(arr, stream=stream)
        stage1, stage2 = self._kernels(dtype)
        blocks = min((n + TPB - 1) // TPB, _max_blocks())
        part = DeviceNDArray((blocks,), None, dtype)
        what = "reduction %s" % self.__name__
        ufunc.launch(stage1, (blocks, TPB, stream), (arr, part, np.uint64(n)), what, [str(dtype)])
        out = res if res is not None else DeviceNDArray((1,), None, dtype)
        if res is not None and res.dtype != dtype:
            out = DeviceNDArray((1,), None, dtype)
        ufunc.launch(stage2, (1, TPB, stream), (part, out, np.uint64(blocks), init), what, [str(dtype)])
        if res is not None:
            if out is not res:
                res[:1].copy_to_device(out.copy_to_host(stream=stream).astype(res.dtype), stream=stream)
            return None
        host = np.empty(1, dtype)
        out._dtoh(host, 0, None if isinstance(stream, int) and stream == 0 else stream)
        if not (isinstance(stream, int) and stream == 0):
            stream.synchronize()
        return host[0]

    def __repr__(self):
        return "<ptxjit cuda.Reduce %s>" % self.__name__


_blocks = None


def _max_blocks():
    """Blocks of the first stage: as many as the device keeps resident
    (2048 threads per multiprocessor), so that enough loads are in flight
    to reach the memory's bandwidth; the second stage folds their partials."""
    global _blocks
    if _blocks is None:
        from .. import _core
        try:
            sms = int(_core.device_info().get("multiprocessor_count") or 0)
        except Exception:
            sms = 0
        _blocks = sms * (2048 // TPB) if sms > 0 else 1024
    return _blocks


def reduce(functor):
    """@cuda.reduce: a Reduce object for a binary function."""
    return Reduce(functor)
