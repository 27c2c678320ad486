"""Several GPUs in one process, on real devices (PTXJIT_TEST_GPU=1 on a
machine with two or more GPUs): kernels on each device, copies between
them, `with cuda.gpus[i]`, and threads each working on its own device,
all checked against NumPy.  With fewer than two devices (the simulator
has one) these tests skip, saying so; the single-device behaviour
(select_device(1) refused) is tested everywhere.  The same paths run
without a GPU on a fake driver of two devices: tests/test_multi_gpu_fake.py.
"""

import math
import threading

import numpy as np
import pytest

from ptxjit import cuda, errors

from conftest import ON_GPU


def _ndev():
    try:
        return len(cuda.gpus)
    except Exception:       # noqa: BLE001 - no driver: the suite's own skip says why
        return 0


NDEV = _ndev()
two_gpus = pytest.mark.skipif(NDEV < 2, reason="needs two or more GPUs (PTXJIT_TEST_GPU=1 on a multi-GPU "
                              "machine); this one has %d device%s%s" % (NDEV, "" if NDEV == 1 else "s",
                                                                       "" if ON_GPU else " (the simulator)"))


@cuda.jit
def saxpy(out, a, x, y):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def row_sums(out, m):
    i = cuda.grid(1)
    if i < m.shape[0]:
        s = 0.0
        for j in range(m.shape[1]):
            s += m[i, j]
        out[i] = s


def _launch_saxpy(a, x, y):
    d_out = cuda.device_array_like(x)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    saxpy[math.ceil(x.size / 128), 128](d_out, a, dx, dy)
    return d_out


def test_one_device_refuses_another():
    """select_device and cuda.gpus name how many devices exist."""
    n = len(cuda.gpus)
    with pytest.raises(IndexError, match="no CUDA device %d" % n) as e:
        cuda.select_device(n)
    assert ("one device" in str(e.value)) if not ON_GPU else ("sees %d device" % n in str(e.value))
    with pytest.raises(IndexError, match=r"cuda.gpus\[%d\]" % n):
        cuda.gpus[n]
    assert cuda.get_current_device().id == 0
    assert [d.id for d in cuda.list_devices()] == list(range(n))


@two_gpus
def test_kernels_run_on_each_device(rng):
    for i in range(NDEV):
        x = rng.standard_normal(5000).astype(np.float32)
        y = rng.standard_normal(5000).astype(np.float32)
        a = np.float32(rng.uniform(0.5, 2.0))
        with cuda.gpus[i] as dev:
            assert dev.id == i and cuda.get_current_device().id == i
            assert cuda.get_current_device().compute_capability == cuda.gpus[i].compute_capability
            d = _launch_saxpy(a, x, y)
            assert d.device_id == i
        assert cuda.get_current_device().id == 0
        # one rounding (a fused multiply-add) against NumPy's two
        np.testing.assert_allclose(d.copy_to_host(), a * x + y, rtol=1e-6, atol=1e-6)   # device 0 current


@two_gpus
def test_two_dimensional_work_split_over_the_devices(rng):
    m = rng.standard_normal((4096, 64))
    parts = np.array_split(np.arange(m.shape[0]), NDEV)
    outs = []
    for i, rows in enumerate(parts):
        with cuda.gpus[i]:
            dm = cuda.to_device(m[rows])
            do = cuda.device_array(len(rows))
            row_sums[math.ceil(len(rows) / 64), 64](do, dm)
            outs.append(do)
    got = np.concatenate([o.copy_to_host() for o in outs])
    np.testing.assert_allclose(got, m.sum(axis=1), rtol=1e-12, atol=1e-12)   # NumPy sums pairwise


@two_gpus
def test_copies_between_devices(rng):
    a = rng.integers(-2**40, 2**40, 1 << 20)
    d0 = cuda.to_device(a)
    with cuda.gpus[1]:
        d1 = cuda.device_array_like(d0)
        d1.copy_to_device(d0)
        assert d1.device_id == 1
        s = cuda.stream()
        d1b = cuda.device_array_like(d0)
        d1b.copy_to_device(d1, stream=s)
        s.synchronize()
    np.testing.assert_array_equal(d1.copy_to_host(), a)
    np.testing.assert_array_equal(d1b.copy_to_host(), a)
    d0.copy_to_device(np.zeros_like(a))
    d0.copy_to_device(d1b)                      # back to device 0
    np.testing.assert_array_equal(d0.copy_to_host(), a)


@two_gpus
def test_an_array_of_another_device_is_refused(rng):
    x = rng.standard_normal(256).astype(np.float32)
    with cuda.gpus[1]:
        dx = cuda.to_device(x)
    out = cuda.device_array_like(x)
    with pytest.raises(errors.CudaDriverError, match="is on device 1, and this work runs on device 0"):
        saxpy[2, 128](out, np.float32(2), dx, dx)
    with cuda.gpus[1]:
        out1 = cuda.device_array_like(x)
        saxpy[2, 128](out1, np.float32(2), dx, dx)
    np.testing.assert_allclose(out1.copy_to_host(), 3 * x, rtol=1e-6)


@two_gpus
def test_threads_each_on_their_own_device(rng):
    n_threads = 2 * NDEV
    xs = [rng.standard_normal(100_000) for _ in range(n_threads)]
    results, errors, devs = {}, [], {}

    def work(t):
        try:
            dev = t % NDEV
            with cuda.gpus[dev]:
                devs[t] = cuda.get_current_device().id
                for r in range(10):
                    d = _launch_saxpy(np.float64(r + 1), xs[t], xs[t])
                    results[t] = (r + 2) * xs[t], d.copy_to_host(), d.device_id
        except BaseException as e:      # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(n_threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    for t in range(n_threads):
        want, got, dev = results[t]
        np.testing.assert_allclose(got, want, rtol=1e-12)
        assert dev == devs[t] == t % NDEV
    assert cuda.get_current_device().id == 0


@two_gpus
def test_select_device_and_free_from_another_device(rng):
    x = rng.standard_normal(1000)
    try:
        assert cuda.select_device(1).id == 1
        d1 = cuda.to_device(x)
        assert d1.device_id == 1 and cuda.gpus.current.id == 1
        cuda.select_device(0)
        np.testing.assert_array_equal(d1.copy_to_host(), x)
        del d1                              # freed into device 1's cache, device 0 current
        with cuda.gpus[1]:
            d = cuda.to_device(x)
            np.testing.assert_array_equal(d.copy_to_host(), x)
    finally:
        cuda.select_device(0)
