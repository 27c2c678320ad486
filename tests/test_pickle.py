"""Pickling of kernels, device functions, @njit functions, functions over
arrays, launch configurations and device arrays (python/ptxjit/_pickle.py).
A module-level object pickles by name; another jitted function as its
Python function (by reference, or by value for a local one) with its
options; a device array as its contents.  Runs on the simulator, and on the GPU with
PTXJIT_TEST_GPU=1 (the child process inherits the back end)."""

import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import ptxjit
from ptxjit import cuda, njit, vectorize

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.dirname(os.path.dirname(ptxjit.__file__))


@cuda.jit(device=True)
def bump(a):
    return a + 1


@cuda.jit
def bump_first(arr):
    arr[0] = bump(arr[0])


@cuda.jit("void(int64[::1], int64)")
def scaled(arr, k):
    i = cuda.grid(1)
    if i < arr.size:
        arr[i] = bump(arr[i]) * k


def triple(arr):
    i = cuda.grid(1)
    if i < arr.size:
        arr[i] = arr[i] * 3


@njit
def poly(x):
    return x * x - 2 * x + 1


@vectorize(["int64(int64)", "float64(float64)"], target="cuda")
def twice(x):
    return x * 2


def test_module_level_objects_pickle_by_name():
    for obj in (bump, bump_first, scaled, poly, twice):
        assert pickle.loads(pickle.dumps(obj)) is obj
    launch = scaled[4, 32]
    back = pickle.loads(pickle.dumps(launch))
    assert (back.griddim, back.blockdim, back.sharedmem) == ((4, 1, 1), (32, 1, 1), 0)
    assert back.dispatcher is scaled


def test_a_jitted_module_function_is_rebuilt(rng):
    k = cuda.jit(triple)                         # not bound to its name
    k2 = pickle.loads(pickle.dumps(k))
    assert k2 is not k and k2.py_func is triple
    a = rng.integers(-50, 50, 100)
    out = a.copy()
    k2[1, 128](out)
    np.testing.assert_array_equal(out, a * 3)
    typed = cuda.jit("void(int64[::1])", fastmath=True)(triple)
    t2 = pickle.loads(pickle.dumps(typed))
    assert t2.signatures == [("int64[::1]",)] and t2.targetoptions["fastmath"] is True
    with pytest.raises(TypeError):           # declared signatures only, as before pickling
        t2[1, 32](np.zeros(4, np.float32))
    p2 = pickle.loads(pickle.dumps(ptxjit.njit("float64(float64)")(poly.py_func)))
    assert p2(3.5) == 3.5 * 3.5 - 7 + 1


def _local_objects(k):
    @cuda.jit(device=True)
    def inner(a):
        return a * k + 1

    @cuda.jit
    def outer(arr):
        i = cuda.grid(1)
        if i < arr.size:
            arr[i] = inner(arr[i])

    @cuda.jit("void(int64[::1])")
    def outer_typed(arr):
        i = cuda.grid(1)
        if i < arr.size:
            arr[i] = inner(arr[i]) - k

    @vectorize(["int64(int64)", "float64(float64)"], target="cuda")
    def local_vec(x):
        return x * k

    @njit
    def local_cpu(x):
        return x * k
    return outer, outer_typed, local_vec, local_cpu


def test_local_functions_pickle_by_value(rng):
    # as Numba's cloudpickle: the code, module, defaults and closure values
    outer, outer_typed, local_vec, local_cpu = _local_objects(7)
    a = rng.integers(-100, 100, 50)
    o2, t2, v2, c2 = pickle.loads(pickle.dumps((outer, outer_typed, local_vec, local_cpu)))
    assert o2 is not outer and t2.signatures == [("int64[::1]",)]
    x = a.copy()
    o2[1, 64](x)
    np.testing.assert_array_equal(x, a * 7 + 1)
    y = a.copy()
    t2[1, 64](y)
    np.testing.assert_array_equal(y, a * 7 + 1 - 7)
    np.testing.assert_array_equal(v2(a), a * 7)
    assert c2(6) == 42
    again = pickle.loads(pickle.dumps(o2))          # a rebuilt one pickles too
    z = a.copy()
    again[1, 64](z)
    np.testing.assert_array_equal(z, a * 7 + 1)


def test_what_cannot_pickle_says_why():
    from ptxjit.ufunc_cpu import vectorize as cpu_vectorize

    @cpu_vectorize(["float64(float64)"])
    def local_cpu_ufunc(x):
        return x + 1
    with pytest.raises(pickle.PicklingError, match="define it at module level"):
        pickle.dumps(local_cpu_ufunc)

    def later():
        return missing(1)      # noqa: F821  (a closure cell with no value yet)
    with pytest.raises(pickle.PicklingError, match="no value yet"):
        pickle.dumps(cuda.jit(device=True)(later))
        missing = None          # noqa: F841
    with pytest.raises(pickle.PicklingError, match="stream"):
        pickle.dumps(scaled[1, 32, cuda.stream()])


def test_device_array_pickles_its_contents(rng):
    a = np.asfortranarray(rng.standard_normal((5, 7)).astype(np.float32))
    d = cuda.to_device(a)
    e = pickle.loads(pickle.dumps(d))
    assert isinstance(e, cuda.DeviceNDArray) and e.shape == (5, 7) and e.dtype == np.float32
    np.testing.assert_array_equal(e.copy_to_host(), a)
    e[0, 0] = 99                                 # a copy, not the same memory
    assert d.copy_to_host()[0, 0] == a[0, 0]
    view = pickle.loads(pickle.dumps(d[1:4, ::2]))
    np.testing.assert_array_equal(view.copy_to_host(), a[1:4, ::2])


def test_pickles_load_in_another_process(rng, tmp_path):
    a = rng.integers(-100, 100, 64)
    d = cuda.to_device(rng.standard_normal(10))
    blob = pickle.dumps({"bump_first": bump_first, "scaled": scaled[2, 32], "poly": poly, "twice": twice,
                         "triple": cuda.jit(triple), "arr": d, "a": a, "local": _local_objects(3)[0]})
    (tmp_path / "blob.pkl").write_bytes(blob)
    child = """
import json, pickle, sys
import numpy as np
o = pickle.loads(open(sys.argv[1], "rb").read())
a = o["a"].copy()
o["bump_first"][1, 1](a)
b = o["a"].copy()
o["scaled"](b, 3)
c = o["a"].copy()
o["triple"][1, 64](c)
e = o["a"].copy()
o["local"][1, 64](e)
print(json.dumps({"first": int(a[0]), "scaled": b.tolist(), "triple": c.tolist(), "poly": o["poly"](4),
                  "twice": o["twice"](o["a"]).tolist(), "arr": o["arr"].copy_to_host().tolist(),
                  "local": e.tolist()}))
"""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([HERE, PYDIR, env.get("PYTHONPATH", "")])
    p = subprocess.run([sys.executable, "-c", child, str(tmp_path / "blob.pkl")], env=env, cwd=str(tmp_path),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    res = json.loads(p.stdout.strip().splitlines()[-1])
    assert res["first"] == a[0] + 1
    assert res["scaled"] == ((a + 1) * 3).tolist()
    assert res["triple"] == (a * 3).tolist()
    assert res["poly"] == 9 and res["twice"] == (a * 2).tolist()
    assert res["arr"] == d.copy_to_host().tolist()
    assert res["local"] == (a * 3 + 1).tolist()
