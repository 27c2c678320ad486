"""@cuda.jit(launch_bounds=...): PTX's .maxntid / .minnctapersm /
.maxclusterrank on the entry, and a launch with more threads a block than
the bound refused before the driver.  On a GPU:
PTXJIT_TEST_GPU=1 python3 -m pytest -q tests/test_launch_bounds.py
"""

import numpy as np
import pytest

from ptxjit import cuda, errors


def fill(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = i * 2


@pytest.mark.parametrize("bounds, lines", [
    (128, [".maxntid 128, 1, 1"]),
    ((256,), [".maxntid 256, 1, 1"]),
    ((64, 4), [".maxntid 64, 1, 1", ".minnctapersm 4"]),
    ((128, 2, 2), [".maxntid 128, 1, 1", ".minnctapersm 2", ".maxclusterrank 2"]),
])
def test_directives_and_launch(rng, bounds, lines):
    k = cuda.jit(launch_bounds=bounds)(fill)
    n = int(rng.integers(300, 600))
    a = np.zeros(n)
    threads = bounds if isinstance(bounds, int) else bounds[0]
    k[(n + threads - 1) // threads, threads](a)
    np.testing.assert_array_equal(a, np.arange(n) * 2)
    ptx = k.inspect_asm(k.signatures[0])
    for line in lines:
        assert line in ptx
    assert ptx.index(lines[0]) < ptx.index("{")
    ptx2, _ = cuda.compile_ptx(fill, "void(float64[::1])", launch_bounds=bounds)
    assert all(line in ptx2 for line in lines)


def test_no_bounds_no_directive():
    ptx, _ = cuda.compile_ptx(fill, "void(float64[::1])")
    assert ".maxntid" not in ptx and ".minnctapersm" not in ptx


def test_a_larger_block_is_refused():
    k = cuda.jit(launch_bounds=(64, 2))(fill)
    a = np.zeros(256)
    with pytest.raises(ValueError, match=r"a block of \(8, 16, 1\) is 128 threads; its launch_bounds allow at most 64"):
        k[2, (8, 16)](a)
    assert not a.any()
    k[4, 64](a)
    np.testing.assert_array_equal(a, np.arange(256) * 2)


def test_a_refused_launch_is_a_driver_error_named_invalid_value():
    # the driver returns CUDA_ERROR_INVALID_VALUE for such a launch; it is refused before it, as that
    k = cuda.jit(launch_bounds=128)(fill)
    a = np.zeros(256)
    for grid, block in ((1, 256), (1, 2048), (1, (1, 1, 128)), ((1, 70000), 1)):
        with pytest.raises(errors.CudaLaunchError, match="CUDA_ERROR_INVALID_VALUE") as info:
            k[grid, block](a)
        e = info.value
        assert isinstance(e, errors.CudaAPIError) and isinstance(e, ValueError)
        assert (e.code, e.name) == (1, "CUDA_ERROR_INVALID_VALUE")
    assert not a.any()


def test_a_refused_launch_is_cuda_cores_error_where_it_is_loaded():
    core = pytest.importorskip("cuda.core._utils.cuda_utils")
    k = cuda.jit(launch_bounds=64)(fill)
    with pytest.raises(core.CUDAError, match="CUDA_ERROR_INVALID_VALUE") as info:
        k[1, 128](np.zeros(128))
    assert isinstance(info.value, errors.CudaLaunchError)
    assert type(info.value).__name__ == "CudaLaunchError"


@pytest.mark.parametrize("bad, exc", [((), TypeError), ((1, 2, 3, 4), ValueError), ("128", TypeError),
                                      (2048, ValueError), ((128, 0), ValueError), (1.5, TypeError)])
def test_bad_bounds(bad, exc):
    """Numba's exceptions: more than three bounds are a ValueError."""
    with pytest.raises(exc, match="launch_bounds|Got 4 launch bounds: \\(1, 2, 3, 4\\)"):
        cuda.jit(launch_bounds=bad)(fill)
