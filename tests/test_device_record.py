"""Records on the device (Numba's DeviceRecord): d[i] of a structured device
array, cuda.to_device(record), DeviceRecord(dtype) and from_record_like;
kernels take them by reference, in place.  Random data, NumPy references;
the simulator in CI and, with PTXJIT_TEST_GPU=1, the GPU."""

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.cuda.devicearray import DeviceNDArray, DeviceRecord, from_record_like

DT = np.dtype([("a", np.int32), ("b", np.float64), ("c", np.float32, 3)], align=True)


def _records(rng, n):
    h = np.zeros(n, DT)
    h["a"] = rng.integers(-1000, 1000, n)
    h["b"] = rng.standard_normal(n)
    h["c"] = rng.standard_normal((n, 3))
    return h


@cuda.jit
def scale_record(r, k, out):
    out[0] = r.a * k + r.b
    for j in range(3):
        out[1 + j] = r.c[j]
    r.a = r.a * k
    r.c[1] = r.b


def test_a_record_of_a_device_array_is_changed_in_place(rng):
    h = _records(rng, 8)
    d = cuda.to_device(h)
    r = d[5]
    assert isinstance(r, DeviceRecord) and r.shape == () and r.strides == () and r.dtype == DT
    assert r.alloc_size == DT.itemsize
    out = np.zeros(4)
    scale_record[1, 1](r, 3, out)
    np.testing.assert_array_equal(out, [h["a"][5] * 3 + h["b"][5]] + list(h["c"][5].astype(np.float64)))
    want = h.copy()
    want["a"][5] *= 3
    want["c"][5, 1] = np.float32(h["b"][5])
    got = d.copy_to_host()
    np.testing.assert_array_equal(got, want)     # the other records are as they were


def test_to_device_of_a_record_and_back(rng):
    h = _records(rng, 3)
    r = cuda.to_device(h[1])
    assert isinstance(r, DeviceRecord)
    back = r.copy_to_host()
    assert isinstance(back, np.void) and back.dtype == DT
    np.testing.assert_array_equal(np.array(back), np.array(h[1]))
    out = np.zeros(4)
    scale_record[1, 1](r, 2, out)
    into = np.zeros(1, DT)
    r.copy_to_host(into[0])        # into the memory the record shares with its array
    assert into["a"][0] == h["a"][1] * 2
    assert into["b"][0] == h["b"][1]


def test_device_record_constructor_and_record_like(rng):
    h = _records(rng, 2)
    r = DeviceRecord(DT)
    r.copy_to_device(h[0])
    np.testing.assert_array_equal(np.array(r.copy_to_host()), np.array(h[0]))
    r2 = from_record_like(r)
    assert isinstance(r2, DeviceRecord) and r2.dtype == DT and r2.device_ctypes_pointer != r.device_ctypes_pointer
    r2.copy_to_device(r)
    np.testing.assert_array_equal(np.array(r2.copy_to_host()), np.array(h[0]))
    assert from_record_like(h[1]).dtype == DT


def test_a_plain_element_is_still_a_number_and_misuse_is_refused(rng):
    d = cuda.to_device(rng.standard_normal(4))
    assert isinstance(d[2], np.float64) and not isinstance(d[2:3], DeviceRecord)
    assert isinstance(d[2:3], DeviceNDArray)
    with pytest.raises(TypeError, match="not a structured dtype"):
        DeviceRecord(np.float64)
    r = DeviceRecord(DT)
    with pytest.raises(TypeError, match="dtype"):
        r.copy_to_device(np.zeros(1, np.float64)[0])


def test_fields_of_a_device_record_by_name(rng):
    inner = np.dtype([("i", np.int32), ("j", np.float32, (3, 3))])
    outer = np.dtype([("x", np.int32), ("y", inner), ("s", "U4")])
    d = cuda.to_device(np.zeros(3, outer))
    v, m = int(rng.integers(1, 100)), rng.standard_normal((3, 3)).astype(np.float32)
    d[1]["x"] = v
    d[1]["s"] = "ab"
    d[1]["y"]["i"] = v + 1
    d[1]["y"]["j"][:] = m
    d[1]["y"]["j"][0, 2] = 7.5
    assert d[1]["x"] == v and d[1]["s"] == "ab" and d[1]["y"]["i"] == v + 1
    want = np.zeros(3, outer)
    want[1]["x"], want[1]["s"], want[1]["y"]["i"], want[1]["y"]["j"] = v, "ab", v + 1, m
    want[1]["y"]["j"][0, 2] = 7.5
    np.testing.assert_array_equal(d.copy_to_host(), want)
    np.testing.assert_array_equal(d[1]["y"]["j"].copy_to_host(), want[1]["y"]["j"])
    with pytest.raises(KeyError, match="no field 'z'"):
        d[0]["z"]
