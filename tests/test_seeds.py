"""The seed programs (shared/seeds/) run with only their import changed.

tests/seeds/*.py hold the seeds' code with `from ptxjit import cuda` or
`import ptxjit as numba`; each example's script body became a function so
that its output can be checked here against NumPy, on the simulator and
on the GPU.  Seed 002's CPU @jit(nopython=True) functions run on ptxjit's
CPU compiler; seed 000's @jit(target='gpu') waits for issue 7.  Seed 004 is prose only: it has
no kernel.
"""

import os

import numpy as np
import pytest


from conftest import ON_GPU, SEEDS, load_module


_seeds = {}


def seed(name):
    """tests/seeds/NAME.py, imported once per session."""
    if name not in _seeds:
        _seeds[name] = load_module(os.path.join(SEEDS, name + ".py"), "ptxjit_seed_" + name)
    return _seeds[name]


def printed(capsys):
    return capsys.readouterr().out


def test_seed000_add_kernel(capsys):
    out = seed("seed000").main_cuda_jit()
    x = np.arange(1024, dtype=np.float32)
    np.testing.assert_array_equal(out, x + x)
    assert printed(capsys) == "%s\n" % ((x + x)[:5],)


def test_seed000_reduce_kernel(capsys):
    out = seed("seed000").main_reduction_cuda()
    a = np.arange(1024, dtype=np.float32)
    np.testing.assert_array_equal(out, a.reshape(32, 32).sum(axis=1))
    assert printed(capsys) == "%s\n" % (np.sum(out),)
    assert float(np.sum(out)) == 1023 * 1024 / 2


def skip_while_not_implemented(fn, reason):
    """Runs a seed part whose decorator ptxjit may not implement yet: the
    test is skipped, naming the issue that brings it, while ptxjit raises
    NotImplementedError for it, and checked as soon as it does not."""
    try:
        return fn()
    except NotImplementedError as e:
        pytest.skip("%s (ptxjit says: %s)" % (reason, e))


def test_seed000_jit_gpu(capsys):
    out = skip_while_not_implemented(lambda: seed("seed000_jit_gpu").main_jit_gpu(),
                                     "@jit(target='gpu'): issue 7")
    x = np.arange(1024, dtype=np.float32)
    np.testing.assert_array_equal(out, x + x)
    assert printed(capsys) == "%s\n" % ((x + x)[:5],)


def test_seed001(capsys):
    hx, hy, out = seed("seed001").main()
    np.testing.assert_array_equal(out, hx + hy)
    assert hx.size == 1000000
    want = np.arange(10, dtype=np.float32) * 3
    assert printed(capsys) == "%s\n" % (want,)


def test_seed002_matrix_mult():
    # the seed's 1024 x 1024 on the GPU; the simulator interprets every
    # thread, so it gets a smaller matrix (not a multiple of 32)
    n = 1024 if ON_GPU else 72
    A, B, C = seed("seed002").example_matrix(n)
    np.testing.assert_allclose(C, A @ B, rtol=1e-12)


def test_seed002_grayscale():
    h, w = (480, 640) if ON_GPU else (45, 70)
    img, res = seed("seed002").example_grayscale(h, w)
    r, g, b = (img[..., c].astype(np.float64) for c in range(3))
    gray = (0.2989 * r + 0.5870 * g + 0.1140 * b).astype(np.int64)
    want = np.repeat(gray[..., None], 3, axis=2).astype(np.uint8)
    diff = np.abs(res.astype(np.int64) - want)
    assert diff.max() <= 1          # an FMA may move a value that lands on an integer
    assert (diff != 0).mean() < 0.01


def test_seed002_cpu_jit():
    # the seed's three @jit(nopython=True) functions, compiled for the CPU
    mod = seed("seed002_cpu")
    A = np.random.default_rng(1).random((64, 64))
    B = np.random.default_rng(3).random((64, 64))
    np.testing.assert_allclose(mod.cpu_matrix_mult(A, B), A @ B, rtol=1e-9)
    fib = [0, 1]
    while len(fib) <= 25:
        fib.append(fib[-1] + fib[-2])
    assert [mod.cpu_fibonacci(n) for n in range(26)] == fib
    img = np.random.default_rng(2).integers(0, 256, (48, 64, 3), dtype=np.uint8)
    f = img.astype(np.float64)
    gray = (0.2989 * f[..., 0] + 0.5870 * f[..., 1] + 0.1140 * f[..., 2]).astype(np.int64)
    res = mod.cpu_grayscale(img)
    assert res.dtype == np.uint8 and res.shape == img.shape
    assert np.abs(res.astype(np.int64) - gray[..., None]).max() <= 1


def test_seed003_example1(capsys):
    x, y, out = seed("seed003").example1()
    np.testing.assert_array_equal(out, x + y)
    assert printed(capsys) == "First 5 elements of output: %s\n" % ((x + y)[:5],)


def test_seed003_example2_grid0_is_a_compile_error():
    mod = seed("seed003")
    with pytest.raises(Exception) as info:
        mod.example2(32)
    msg = str(info.value)
    assert "cuda.grid" in msg, msg
    assert "seed003.py:29" in msg, msg          # the line of `row = cuda.grid(0)`
    assert "internal compiler error" not in msg, msg
    # Numba raises numba.core.errors.TypingError here; so does ptxjit
    assert type(info.value).__name__ == "TypingError", repr(info.value)


def test_seed003_example3(capsys):
    a, out = seed("seed003").example3()
    assert out[0] == a.sum() == 523776.0
    assert printed(capsys) == "Sum of array elements: %s\n" % (np.float32(523776.0),)
