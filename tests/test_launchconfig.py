"""cuda.launchconfig: the configuration of a launch, seen while that launch
compiles its kernel (through the dispatcher's _compile_for_args), per
thread, and None at any other time."""

import threading

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.cuda import launchconfig


def _spy(kernel, seen):
    orig = kernel._compile_for_args

    def wrapped(*args, **kws):
        seen.append(launchconfig.current_launch_config())
        return orig(*args, **kws)
    kernel._compile_for_args = wrapped


def test_the_launch_compiling_sees_its_configuration():
    @cuda.jit
    def scale(r, x, a):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = x[i] * a

    seen = []
    _spy(scale, seen)
    rng = np.random.default_rng(3)
    x = rng.standard_normal(300).astype(np.float32)
    r = np.zeros_like(x)
    assert launchconfig.current_launch_config() is None
    scale[(3, 1), (128, 1, 1), 0, 64](r, x, np.float32(2.5))
    np.testing.assert_array_equal(r, x * np.float32(2.5))
    (cfg,) = seen
    assert cfg.dispatcher is scale and cfg.griddim == (3, 1, 1) and cfg.blockdim == (128, 1, 1)
    assert cfg.sharedmem == 64 and cfg.args[0] is r and cfg.args[1] is x
    assert launchconfig.current_launch_config() is None
    scale[3, 128](r, x, np.float32(2.5))          # compiled already: no compile, no configuration
    assert len(seen) == 1
    scale[3, 128](r.astype(np.float64), x, 2.5)   # other types: compiled again, at this launch
    assert len(seen) == 2 and seen[1].blockdim == (128, 1, 1)
    with pytest.raises(RuntimeError, match="No launch config"):
        launchconfig.ensure_current_launch_config()


def test_capture_and_mark():
    @cuda.jit
    def put(x, v):
        x[0] = v

    x = np.zeros(1, np.int64)
    with launchconfig.capture_compile_config(put) as cap:
        put[2, 4](x, 7)
    assert x[0] == 7 and cap["config"].griddim == (2, 1, 1) and cap["config"].args[1] == 7
    assert "_compile_for_args" not in put.__dict__

    @cuda.jit
    def put2(x, v):
        x[0] = v
    orig = put2._compile_for_args

    def marking(*args):
        launchconfig.ensure_current_launch_config().dispatcher.mark_launch_config_sensitive()
        return orig(*args)
    put2._compile_for_args = marking
    put2[1, 1](x, 9)
    assert x[0] == 9 and put2.launch_config_sensitive
    assert all(k.launch_config_sensitive for k in put2.overloads.values())
    assert not any(k.launch_config_sensitive for k in put.overloads.values())


def test_configurations_are_per_thread():
    @cuda.jit
    def put(x, v):
        x[0] = v

    barrier = threading.Barrier(2)
    seen, errors = [], []
    orig = put._compile_for_args

    def wrapped(*args):
        cfg = launchconfig.ensure_current_launch_config()
        barrier.wait(timeout=10)
        seen.append(id(cfg.args[0]))
        return orig(*args)
    put._compile_for_args = wrapped
    arrays = [np.zeros(1, np.int32), np.zeros(1, np.int64)]   # two types: each thread compiles

    def launch(a):
        try:
            put[1, 1](a, 5)
        except BaseException as e:      # noqa: B036
            errors.append(e)
    ts = [threading.Thread(target=launch, args=(a,)) for a in arrays]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout=30)
    assert not errors and sorted(seen) == sorted(id(a) for a in arrays)
    assert all(a[0] == 5 for a in arrays)


def test_compile_for_args_compiles_for_the_argument_types():
    @cuda.jit
    def add(r, x):
        r[0] = x + 1

    k = add._compile_for_args(np.zeros(1, np.float32), np.float32(1))
    assert k is add.overloads[("float32[::1]", "float32")]


def test_a_launchers_args_are_those_of_the_launch_compiling_on_this_thread():
    @cuda.jit
    def put(x, v):
        x[0] = v

    configured = put[1, 1]
    barrier = threading.Barrier(2)
    seen, errors = [], []
    orig = put._compile_for_args

    def wrapped(*args, **kws):
        try:
            barrier.wait(timeout=10)          # both threads compile at once
            seen.append((threading.get_ident(), configured.args))
        except BaseException as e:            # noqa: BLE001
            errors.append(e)
            raise
        return orig(*args, **kws)
    put._compile_for_args = wrapped
    rng = np.random.default_rng(5)
    arrays = [np.zeros(1, np.int32), np.zeros(1, np.float64)]
    vals = [int(rng.integers(1, 100)), float(rng.uniform(1, 2))]
    assert configured.args is None
    threads = [threading.Thread(target=lambda a=a, v=v: configured(a, v)) for a, v in zip(arrays, vals)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert not errors and len(seen) == 2
    assert {id(args[0]) for _, args in seen} == {id(a) for a in arrays}
    assert configured.args is None
    assert arrays[0][0] == vals[0] and arrays[1][0] == vals[1]
