"""A configured launch's pre_launch_callbacks, as Numba's: each is called
(kernel, launch configuration) right before every launch through that
configuration, in order; an exception stops the launch; a configured
launch that has callbacks cannot be pickled.  Runs on the simulator, and
on the GPU with PTXJIT_TEST_GPU=1."""

import pickle

import numpy as np
import pytest

from ptxjit import cuda


@cuda.jit
def bump(arr, v):
    i = cuda.grid(1)
    if i < arr.size:
        arr[i] += v


def test_callbacks_run_before_each_launch_of_their_configuration(rng):
    x = rng.random(40)
    want = x.copy()
    d = cuda.to_device(x)
    cfg = bump[5, 8]
    seen = []

    def first(kernel, config):
        assert config is cfg
        seen.append(("first", kernel, config.griddim, config.blockdim))
        # the launch has not happened yet
        seen.append(d.copy_to_host().copy())

    cfg.pre_launch_callbacks.append(first)
    cfg.pre_launch_callbacks.append(lambda kernel, config: seen.append("second"))
    cfg(d, 1.5)
    want += 1.5
    cfg(d, 2.0)
    want += 2.0
    np.testing.assert_array_equal(d.copy_to_host(), want)
    assert [s[0] if isinstance(s, tuple) else s for s in seen if not isinstance(s, np.ndarray)] == \
        ["first", "second", "first", "second"]
    np.testing.assert_array_equal(seen[1], x)
    np.testing.assert_array_equal(seen[4], x + 1.5)
    kernel = seen[0][1]
    assert kernel is bump.overloads[("float64[::1]", "float64")]
    assert seen[0][2:] == ((5, 1, 1), (8, 1, 1))


def test_other_configurations_do_not_run_them(rng):
    d = cuda.to_device(rng.random(40))
    calls = []
    cfg = bump[5, 8]
    cfg.pre_launch_callbacks.append(lambda k, c: calls.append(c))
    again = bump[5, 8]
    assert again is not cfg and again.pre_launch_callbacks == []
    again(d, 1.0)
    bump[40, 1](d, 1.0)
    assert calls == []
    cfg(d, 1.0)
    assert calls == [cfg]


def test_a_raising_callback_stops_the_launch(rng):
    x = rng.random(40)
    d = cuda.to_device(x)
    cfg = bump[5, 8]

    def refuse(kernel, config):
        raise RuntimeError("not now")

    cfg.pre_launch_callbacks.append(refuse)
    with pytest.raises(RuntimeError, match="not now"):
        cfg(d, 1.0)
    np.testing.assert_array_equal(d.copy_to_host(), x)
    cfg.pre_launch_callbacks.clear()
    cfg(d, 1.0)
    np.testing.assert_array_equal(d.copy_to_host(), x + 1.0)


def test_pickling_a_configured_launch_with_callbacks_raises():
    cfg = bump[5, 8]
    assert pickle.loads(pickle.dumps(cfg)).griddim == (5, 1, 1)
    cfg.pre_launch_callbacks.append(print)
    with pytest.raises(pickle.PicklingError, match="Cannot pickle configured launches with pre-launch callbacks"):
        pickle.dumps(cfg)
