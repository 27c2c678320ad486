"""Messages of the GPU path, driven through the fake CUDA driver
(tests/fake_cuda/fake_libcuda.c), for tests/test_error_catalogue.py:
`python -c "import errcat_gpu_child; errcat_gpu_child.main(PART)"` with
PTXJIT_SIM=0 and PTXJIT_LIBCUDA naming the fake driver runs each case
of PART (see main) in order, and prints one line, RESULT {case: [exception class,
message] or None}.  The kernels are here so that messages name
errcat_gpu_child.py.  Cases that close the context come last.
"""

import ctypes
import json
import os
import sys

import numpy as np

from ptxjit import cuda

def setf(key, v):
    fake = ctypes.CDLL(os.environ["PTXJIT_LIBCUDA"])
    fake.fake_set(key.encode(), ctypes.c_long(v))


@cuda.jit
def k_store(a, v):
    a[0] = v


@cuda.jit
def k_big_shared(a):
    s = cuda.shared.array(40000, dtype=np.float64)   # 320000 bytes
    s[cuda.threadIdx.x] = 1.0
    a[0] = s[0]


@cuda.jit
def k_fresh(a):
    a[0] = 2.0


class Foreign:
    """Memory of another library: __cuda_array_interface__ over host memory
    (the fake driver's device pointers are host addresses)."""

    def __init__(self, **over):
        self.base = np.zeros(4, np.float32)
        self.__cuda_array_interface__ = dict({"shape": (4,), "typestr": "<f4", "version": 3, "strides": None,
                                              "data": (self.base.ctypes.data, False), "stream": None}, **over)


def _caught(fn):
    try:
        fn()
        cuda.synchronize()
    except Exception as e:          # noqa: BLE001 - the point is the message
        return [type(e).__name__, str(e)]
    return None


def _with(key, v, fn):
    setf(key, v)
    try:
        return _caught(fn)
    finally:
        setf(key, 0)


def _closed():
    """Objects made before cuda.close(), used after it."""
    d = cuda.device_array(4, np.float32)
    s = cuda.stream()
    ev = cuda.event()
    cuda.close()
    return {
        "gpu_closed_array_copy": _caught(lambda: d.copy_to_host()),
        "gpu_closed_array_arg": _caught(lambda: k_store[1, 1](d, 1.0)),
        "gpu_closed_stream_copy": _caught(lambda: cuda.to_device(np.zeros(4), stream=s)),
        "gpu_closed_event": _caught(lambda: ev.record()),
    }


CASES = [
    ("gpu_foreign_dtype", lambda: _caught(lambda: k_store[1, 1](Foreign(typestr="<U1"), 1.0))),
    ("gpu_foreign_0d", lambda: _caught(lambda: k_store[1, 1](Foreign(shape=()), 1.0))),
    ("gpu_foreign_masked", lambda: _caught(lambda: k_store[1, 1](Foreign(mask=1), 1.0))),
    ("gpu_foreign_stream", lambda: _caught(lambda: k_store[1, 1](Foreign(stream="s"), 1.0))),
    ("gpu_too_much_shared", lambda: _caught(lambda: k_big_shared[1, 32](cuda.device_array(1, np.float64)))),
    ("gpu_out_of_memory", lambda: _with("mem_limit", 1 << 20, lambda: cuda.device_array(1 << 22, np.float32))),
    ("gpu_ptx_rejected", lambda: _with("reject_ptx", 1, lambda: k_fresh[1, 1](cuda.device_array(1, np.float64)))),
]


def main(part="cases"):
    """part: "cases"; "no_device" (cuInit fails, which sticks: a process
    of its own); "no_driver" (PTXJIT_LIBCUDA names no library)."""
    res = {}
    if part == "no_device":
        res["gpu_no_device"] = _with("no_device", 1, lambda: cuda.device_array(1))
    elif part == "no_driver":
        res["gpu_no_driver"] = _caught(lambda: cuda.device_array(1))
    else:
        for name, fn in CASES:
            res[name] = fn()
        setf("fault_on_launch", 1)           # a wild address: the context is lost ...
        res["gpu_fault"] = _caught(lambda: k_store[1, 1](np.zeros(1), 1.0))
        res["gpu_after_fault"] = _caught(lambda: cuda.device_array(4))
        cuda.close()                         # ... until cuda.close()
        res.update(_closed())
    sys.stdout.write("RESULT " + json.dumps(res) + "\n")
