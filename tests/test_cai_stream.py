"""The stream field of the CUDA array interface, as Numba gives it: the
handle of the stream an array was made with, for a consumer to synchronise
with; an array made without one gives None (no synchronisation), on the GPU too."""

import numpy as np

from ptxjit import cuda


def test_arrays_made_on_a_stream_name_it(rng):
    s = cuda.stream()
    h = rng.standard_normal(17)
    arrays = [cuda.to_device(h, stream=s), cuda.device_array(17, stream=s),
              cuda.device_array_like(h, stream=s), cuda.mapped_array(17, stream=s),
              cuda.managed_array(17, stream=s)]
    s.synchronize()
    for a in arrays:
        assert a.__cuda_array_interface__["stream"] == int(s.handle) != 0
    assert all(a.stream is s for a in arrays[:3])
    np.testing.assert_array_equal(arrays[0].copy_to_host(), h)


def test_arrays_made_without_a_stream_keep_the_default(rng):
    h = rng.standard_normal(5)
    for a in (cuda.to_device(h), cuda.device_array(5), cuda.device_array(5, stream=0)):
        assert a.__cuda_array_interface__["stream"] is None
        assert a.stream == 0
    assert cuda.mapped_array(5).__cuda_array_interface__["stream"] is None
    assert cuda.managed_array(5).__cuda_array_interface__["stream"] is None


@cuda.jit
def _twice(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = 2 * a[i]


def test_a_kernel_reads_an_array_made_on_a_stream(rng):
    s = cuda.stream()
    h = rng.standard_normal(300)
    d = cuda.to_device(h, stream=s)
    out = cuda.device_array_like(h, stream=s)
    _twice[3, 128, s](d, out)
    np.testing.assert_array_equal(out.copy_to_host(stream=s), 2 * h)
