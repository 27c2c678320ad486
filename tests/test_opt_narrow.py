"""32-bit grid indices (the small-grid launch variant) and 32-bit int -> float.

What is checked here:
- a launch whose gridDim * blockDim is below 2^31 in every dimension
  picks the variant with flag 4 (PjOptions.small_grid); a grid of 2^31
  threads or more in x picks the variant without it (the launch is
  stopped early by an out-of-bounds access, which the simulator reports
  at the first thread);
- in that variant the comparison of cuda.grid(1) with an array extent,
  and of cuda.grid(2)'s components with the extents, is a 32-bit one;
  without the flag it stays 64-bit;
- a grid-stride loop's counter (and one counting from just below 2^31
  past it) is a 32-bit register, compared unsigned;
- `np.float32(k)` of a counter of range(64) converts from 32 bits
  (cvt.rn.f32.s32), a value of up to 3e9 from an unsigned 32-bit one, and
  one beyond 2^32 from 64 bits;
- every result, optimised in each variant, equals the unoptimised
  compile bit for bit: indices compared with extents, with int64 scalars
  far above 2^31, with negative bounds, grid-stride loops with gridsize.

Runs on the simulator (CI) and on the GPU (PTXJIT_TEST_GPU=1); the
huge-grid selection test is simulator-only.
"""

import math
import re

import numpy as np
import pytest

from ptxjit import cuda

from conftest import launch_all

SIM = cuda.is_simulator() if hasattr(cuda, "is_simulator") else True


def compiled(kernel, args, flags):
    d = cuda.jit(kernel.py_func)
    argtypes = d._typeof(tuple(args))
    return d._compile(", ".join(argtypes), argtypes, flags)


def all_variants(kernel, grid, block, args, outs):
    return launch_all(kernel, grid, block, args, outs, variants=(0, 3, 4, 7))


# ------------------------------------------------------------------ kernels

@cuda.jit
def add1(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + np.float32(1)


@cuda.jit
def bounded(out, n, lo):
    i = cuda.grid(1)
    if i < out.size:
        v = 0
        if i < n:
            v += 1
        if i - 5 < lo:
            v += 10
        if i * 3 > n:
            v += 100
        out[i] = v


@cuda.jit
def image(img, out):
    x, y = cuda.grid(2)
    if 0 < x < img.shape[1] - 1 and y < img.shape[0]:
        out[y, x] = img[y, x - 1] + img[y, x + 1] + np.float32(x) + np.float32(y * 1000)


@cuda.jit
def stride_loop(data, out):
    i = cuda.grid(1)
    s = cuda.gridsize(1)
    acc = 0
    while i < data.size:
        acc += data[i]
        i += s
    j = cuda.grid(1)
    if j < out.size:
        out[j] = acc


@cuda.jit
def floats(out, big):
    i = cuda.grid(1)
    if i < out.shape[0]:
        a = np.float32(0)
        for k in range(64):
            a += np.float32(k) * np.float32(0.5)
        b = 0.0
        for k in range(4):
            b += float(k * 1000000007)          # up to 3e9: fits uint32
        c = 0.0
        for k in range(4):
            c += float(k * 3000000019)          # up to 9e9: 64-bit
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = c
        out[i, 3] = float(i) + float(big)
        out[i, 4] = np.float32(i - 100)


@cuda.jit
def high_counter(out):
    j = cuda.grid(1)
    if j < out.shape[0]:
        i = (j & 1023) * 7 + 2**31 - 1000    # 2^31 - 1000 .. above 2^31: uint32
        c = 0
        while i < 3000000000:
            c += 1
            i += 1000000000 - (j & 1023)
        out[j, 0] = c
        out[j, 1] = i


@cuda.jit
def oob_first(a):
    i = cuda.grid(1)
    a[i + 5] = 1


# ------------------------------------------------------- variant selection

def test_small_grid_selected():
    k = cuda.jit(add1.py_func)
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    k[4, 256](x, out)
    np.testing.assert_array_equal(out, x + 1)
    assert [f & 4 for (_, f) in k._variants] == [4]


@pytest.mark.skipif(not SIM, reason="launches 2^31 threads; the simulator stops at the first")
@pytest.mark.parametrize("blocks,small", [((1 << 21) - 1, True), (1 << 21, False), ((1 << 22) + 3, False)])
def test_grid_at_the_limit(blocks, small):
    """2^31 - 1024 threads in x keep the flag; 2^31 and more drop it."""
    k = cuda.jit(oob_first.py_func)
    a = np.zeros(1, np.int32)
    with pytest.raises(Exception, match="out of bounds"):
        k[blocks, 1024](a)
    assert [bool(f & 4) for (_, f) in k._variants] == [small]


def test_grid_2d_selected():
    k = cuda.jit(image.py_func)
    img = np.ones((5, 7), np.float32)
    out = np.zeros_like(img)
    k[(2, 2), (4, 4)](img, out)
    assert [f & 4 for (_, f) in k._variants] == [4]


# --------------------------------------------------------------- IR forms

def compare_types(ir):
    return re.findall(r"cmp\.\w+ (\w+)", ir)


def test_grid_compare_is_32_bit():
    x = np.zeros(10, np.float32)
    ir7 = compiled(add1, (x, x.copy()), 7).ir
    ir3 = compiled(add1, (x, x.copy()), 3).ir
    assert compare_types(ir7) == ["i32"]
    assert compare_types(ir3) == ["i64"]


def test_grid2_compares_are_32_bit():
    img = np.zeros((5, 7), np.float32)
    ir7 = compiled(image, (img, img.copy()), 7).ir
    ir3 = compiled(image, (img, img.copy()), 3).ir
    assert "i64" not in compare_types(ir7)
    assert "i64" in compare_types(ir3)


def test_compare_with_large_scalar_stays_64_bit():
    """i < n with n an int64 scalar: n may exceed 2^31, the compare stays."""
    out = np.zeros(10, np.int64)
    ir = compiled(bounded, (out, 1, 2), 7).ir
    types = compare_types(ir)
    assert types[0] == "i32"                    # i < out.size
    assert "i64" in types                       # i < n, i * 3 > n


def test_int_to_float_from_32_bits():
    out = np.zeros((3, 5), np.float64)
    k = compiled(floats, (out, 7), 7)
    ptx = k.ptx
    assert "cvt.rn.f32.s64" not in ptx          # range(64) and the grid index
    assert "cvt.rn.f64.u32" in ptx or "cvt.rn.f64.s32" in ptx
    assert "cvt.rn.f64.s64" in ptx or "cvt.rn.f64.u64" in ptx   # 9e9 and `big`


def test_grid_stride_counter_is_32_bit():
    data = np.zeros(100, np.int64)
    ir = compiled(stride_loop, (data, data[:10].copy()), 7).ir
    assert re.search(r"\.i =w phi", ir) and "cmp.lt u32" in ir
    assert not re.search(r"\.i =l phi", ir)
    assert "cmp.lt u32" not in compiled(stride_loop, (data, data[:10].copy()), 3).ir


def test_unsigned_counter_is_32_bit():
    out = np.zeros((10, 2), np.int64)
    ir = compiled(high_counter, (out,), 7).ir
    assert re.search(r"\.i =w phi", ir) and "cmp.lt u32" in ir


# ------------------------------------------------------ bit-identical runs

def test_add1_results():
    x = np.random.default_rng(1).random(1000).astype(np.float32)
    want = all_variants(add1, 4, 256, [x, np.zeros_like(x)], [1])
    np.testing.assert_array_equal(want[0], x + 1)


@pytest.mark.parametrize("n,lo", [(0, 0), (37, -3), (2**31 - 1, 2**31), (2**40, -2**40), (-5, 2**33)])
def test_bounded_results(n, lo):
    out = np.zeros(300, np.int64)
    want = all_variants(bounded, 3, 128, [out, n, lo], [0])
    i = np.arange(300)
    ref = (i < n) * 1 + (i - 5 < lo) * 10 + (i * 3 > n) * 100
    np.testing.assert_array_equal(want[0], ref)


def test_image_results():
    img = np.random.default_rng(2).random((19, 23)).astype(np.float32)
    want = all_variants(image, (3, 5), (8, 4), [img, np.zeros_like(img)], [1])
    ref = np.zeros_like(img)
    ys, xs = np.mgrid[0:19, 1:22]
    ref[:, 1:22] = img[:, 0:21] + img[:, 2:23] + xs.astype(np.float32) + (ys * 1000).astype(np.float32)
    np.testing.assert_array_equal(want[0], ref)


def test_stride_loop_results():
    data = np.arange(5000, dtype=np.int64)
    want = all_variants(stride_loop, 3, 64, [data, np.zeros(192, np.int64)], [1])
    ref = np.array([data[j::192].sum() for j in range(192)])
    np.testing.assert_array_equal(want[0], ref)


def test_floats_results():
    out = np.zeros((70, 5), np.float64)
    want = all_variants(floats, 2, 64, [out, 2**40 + 3], [0])[0]
    i = np.arange(70)
    np.testing.assert_array_equal(want[:, 0], np.float32(sum(np.float32(k) * np.float32(0.5) for k in range(64))))
    np.testing.assert_array_equal(want[:, 1], float(sum(k * 1000000007 for k in range(4))))
    np.testing.assert_array_equal(want[:, 2], float(sum(k * 3000000019 for k in range(4))))
    np.testing.assert_array_equal(want[:, 3], i.astype(np.float64) + float(2**40 + 3))
    np.testing.assert_array_equal(want[:, 4], (i - 100).astype(np.float32).astype(np.float64))
    assert math.isfinite(want.sum())


def test_high_counter_results():
    out = np.zeros((150, 2), np.int64)
    want = all_variants(high_counter, 2, 128, [out], [0])[0]
    for j in range(150):
        i, c = (j & 1023) * 7 + 2**31 - 1000, 0
        while i < 3000000000:
            c += 1
            i += 1000000000 - (j & 1023)
        assert (want[j, 0], want[j, 1]) == (c, i)


@cuda.jit
def _two_float_conversions(out_i, out_s, s0, s1):
    tid = cuda.grid(1)
    if tid >= out_i.shape[0]:
        return
    out_i[tid, 1] = np.uint32(max(tid, (+s1)))
    out_s[tid, 0] = (+s0)


def test_float_conversions_keep_their_own_sources():
    # narrowing the first int64-to-float conversion inserted an instruction
    # and made the second one read its neighbour's source (difftest seed
    # 300232 on the GPU)
    oi = np.zeros((128, 3), np.int64)
    os_ = np.zeros((128, 3), np.float32)
    _two_float_conversions[2, 64](oi, os_, np.int32(1173099100), np.uint8(7))
    np.testing.assert_array_equal(os_[:, 0], np.float32(1173099100))
    np.testing.assert_array_equal(oi[:, 1], np.maximum(np.arange(128), 7))
    assert any(flags & 4 for (_, flags) in _two_float_conversions._variants)
