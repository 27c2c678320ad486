"""The dispatcher's host API as Numba's: the compiled kernels of
k.overloads and their resource attributes, device functions' compile /
overloads / inspection, cuda.compile's outputs and pickling.  Runs on the
simulator, and on the GPU with PTXJIT_TEST_GPU=1; test_fake_driver_* run a
child on the fake driver (tests/fake_cuda)."""

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ON_GPU
from test_runtime import fake_driver, run_fake  # noqa: F401  (fixture)


@cuda.jit("void(float32[::1], float32[::1])")
def smooth(x, out):
    s = cuda.shared.array(128, np.float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    if i < x.size:
        s[t] = x[i]
    cuda.syncthreads()
    if i < x.size:
        out[i] = s[t] + s[(t + 1) % 128]


SIG = ("float32[::1]", "float32[::1]")


def test_overload_resource_attributes_match_the_getters(rng):
    k = smooth.overloads[SIG]
    if not ON_GPU:
        with pytest.raises(ValueError, match="the simulator has none"):
            k.regs_per_thread
        with pytest.raises(ValueError, match="the simulator has none"):
            k.max_cooperative_grid_blocks(128)
        return
    assert k.regs_per_thread == smooth.get_regs_per_thread(SIG) > 0
    assert k.shared_mem_per_block == smooth.get_shared_mem_per_block(SIG) >= 128 * 4
    assert k.local_mem_per_thread == smooth.get_local_mem_per_thread(SIG)
    assert k.const_mem_size == smooth.get_const_mem_size(SIG)
    assert k.max_threads_per_block == smooth.get_max_threads_per_block(SIG) >= 128
    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    blocks = k.max_cooperative_grid_blocks(128)
    assert blocks >= sms and blocks % sms == 0
    assert k.max_cooperative_grid_blocks((8, 16)) == blocks
    assert k.max_cooperative_grid_blocks(1024) <= blocks
    assert k.cooperative is False


def test_fake_driver_overload_resources(fake_driver, tmp_path):
    res = run_fake("""
        @cuda.jit("void(float32[::1], float32[::1])")
        def k(x, y):
            y[0] = x[0]
        o = k.overloads[("float32[::1]", "float32[::1]")]
        result["attrs"] = [o.max_threads_per_block, o.shared_mem_per_block, o.const_mem_size,
                           o.local_mem_per_thread, o.regs_per_thread]
        result["coop"] = [o.max_cooperative_grid_blocks(256), o.max_cooperative_grid_blocks((16, 16), 1024),
                          o.max_cooperative_grid_blocks(1024), o.max_cooperative_grid_blocks(blockdim=32)]
        errs = []
        for bad in (0, 2000, (32, 64), "x"):
            try:
                o.max_cooperative_grid_blocks(bad)
            except (TypeError, ValueError) as e:
                errs.append(type(e).__name__ + ": " + str(e))
        result["errs"] = errs
    """, fake_driver, tmp_path)
    assert "raised" not in res, res
    assert res["attrs"] == [1024, 256, 8, 16, 32]
    assert res["coop"] == [8 * 132, 8 * 132, 2 * 132, 32 * 132]     # the fake's SM: 2048 threads, 32 blocks
    assert len(res["errs"]) == 4 and all("max_cooperative_grid_blocks" in e for e in res["errs"]), res
    assert res["errs"][3].startswith("TypeError")
