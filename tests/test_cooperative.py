"""Cooperative groups: g = cuda.cg.this_grid(); g.sync() is a barrier of the
whole grid, and a kernel that has it is launched cooperatively (every block
resident at once).  On the simulator all blocks of such a launch run
together, each block's threads as frames, with shared memory per block."""

import numpy as np
import pytest

from conftest import ON_GPU, assert_ptx_assembles
from ptxjit import cuda
from test_runtime import fake_driver, run_fake  # noqa: F401  (the fixture)


@cuda.jit
def shift_rows(m):
    # each row reads the previous row's element of the opposite thread,
    # written by another block: wrong without a grid-wide barrier
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    cols = m.shape[1]
    for row in range(1, m.shape[0]):
        m[row, col] = m[row - 1, cols - col - 1] * 3 + row
        g.sync()


def shift_rows_ref(m):
    m = m.copy()
    for row in range(1, m.shape[0]):
        m[row] = m[row - 1][::-1] * 3 + row
    return m


@cuda.jit
def grid_sum(x, partial, out):
    # each block sums its part in shared memory, then block 0 sums the blocks'
    tid = cuda.threadIdx.x
    s = cuda.shared.array(64, np.float64)
    i = cuda.grid(1)
    s[tid] = x[i]
    cuda.syncthreads()
    if tid == 0:
        acc = 0.0
        for k in range(cuda.blockDim.x):
            acc += s[k]
        partial[cuda.blockIdx.x] = acc
    cuda.cg.this_grid().sync()
    # every block's shared memory still holds its own values after the barrier
    out[1 + i] = s[tid] - x[i]
    if i == 0:
        t = 0.0
        for b in range(cuda.gridDim.x):
            t += partial[b]
        out[0] = t


@cuda.jit
def grid_2d(a, out):
    x, y = cuda.grid(2)
    nx = cuda.gridsize(2)[0]
    a[y, x] += 1.0
    g = cuda.cg.this_grid()
    g.sync()
    ny = a.shape[0]
    out[y, x] = a[ny - 1 - y, nx - 1 - x]


@cuda.jit
def only_this_grid(a):
    cuda.cg.this_grid()
    a[0] = 1.5


@cuda.jit
def plain(a):
    a[cuda.grid(1)] = 2.0


@cuda.jit
def early_exit(a):
    g = cuda.cg.this_grid()
    if cuda.blockIdx.x == 1:
        return
    g.sync()
    a[0] = 1.0


def test_rows_follow_each_other_across_blocks(rng):
    m = rng.integers(-50, 50, size=(24, 8 * 32)).astype(np.int64)
    want = shift_rows_ref(m)
    shift_rows[8, 32](m)
    np.testing.assert_array_equal(m, want)


def test_grid_sum_and_shared_memory_per_block(rng):
    x = rng.standard_normal(6 * 64)
    partial = np.zeros(6)
    out = np.full(1 + x.size, np.nan)
    grid_sum[6, 64](x, partial, out)
    np.testing.assert_allclose(out[0], x.sum(), rtol=1e-12)
    np.testing.assert_array_equal(out[1:], 0.0)


def test_2d_grid_and_blocks(rng):
    a = rng.standard_normal((8, 12))
    out = np.zeros_like(a)
    want = (a + 1.0)[::-1, ::-1]
    grid_2d[(3, 2), (4, 4)](a, out)
    np.testing.assert_array_equal(out, want)


def test_cooperative_flag():
    a = np.zeros(4)
    only_this_grid[1, 1](a)
    plain[1, 4](a)
    shift_rows[1, 4](np.ones((3, 4), dtype=np.int64))
    assert a[0] == 2.0
    assert all(k.cooperative for k in only_this_grid.overloads.values())
    assert all(k.cooperative for k in shift_rows.overloads.values())
    assert not any(k.cooperative for k in plain.overloads.values())


def test_max_blocks_and_a_grid_too_large_is_refused():
    k = cuda.jit("void(int64[:, ::1])")(shift_rows.py_func)
    ov = k.overloads[("int64[:, ::1]",)]
    blocks = ov.max_cooperative_grid_blocks(256)
    assert blocks >= 1
    assert ov.max_cooperative_grid_blocks((16, 16)) == blocks
    assert ov.max_cooperative_grid_blocks((16, 4, 4)) == blocks
    assert ov.max_cooperative_grid_blocks(32) >= blocks
    m = np.zeros((2, 32 * (ov.max_cooperative_grid_blocks(32) + 1)), dtype=np.int64)
    with pytest.raises(ValueError, match="max_cooperative_grid_blocks"):
        k[m.shape[1] // 32, 32](m)


@pytest.mark.skipif(ON_GPU, reason="a GPU hangs where the simulator reports")
def test_simulator_reports_a_block_that_skips_the_grid_barrier():
    with pytest.raises(Exception, match="grid's barrier"):
        early_exit[3, 32](np.zeros(1))


def test_ptx_assembles():
    assert_ptx_assembles([shift_rows, grid_sum, grid_2d], 3)


def test_fake_driver_launches_cooperatively(fake_driver, tmp_path):
    res = run_fake("""
        @cuda.jit
        def k(a):
            g = cuda.cg.this_grid()
            a[cuda.grid(1)] = 1.0
            g.sync()

        @cuda.jit
        def plain(a):
            a[cuda.grid(1)] = 1.0

        a = cuda.device_array(64 * 32 * 132 + 64)
        k[(4, 2), 32](a)
        result["coop"] = get("coop_launches")
        grid, block, raw, entry = last_launch()
        result["grid"] = grid; result["block"] = block
        plain[4, 32](a)
        result["coop_after_plain"] = get("coop_launches")
        ov = next(iter(k.overloads.values()))
        result["cooperative"] = [ov.cooperative, next(iter(plain.overloads.values())).cooperative]
        result["most"] = ov.max_cooperative_grid_blocks(32)
        result["ptx_word"] = "__pj_gbar" in ov.ptx
        try:
            k[ov.max_cooperative_grid_blocks(64) + 1, 64](a)
        except ValueError as e:
            result["refused"] = str(e)
        result["coop_at_end"] = get("coop_launches")
    """, fake_driver, tmp_path)
    assert "raised" not in res, res
    assert res["coop"] == 1 and res["grid"] == [4, 2, 1] and res["block"] == [32, 1, 1]
    assert res["coop_after_plain"] == 1 and res["cooperative"] == [True, False]
    assert res["most"] == 32 * 132 and res["ptx_word"]
    assert "max_cooperative_grid_blocks" in res["refused"] and "at most 4224 blocks" in res["refused"]
    assert res["coop_at_end"] == 1        # refused before the driver
