"""Memory accesses after the address passes: the same bits as opt=False.

src/opt/addr.c rebuilds the address of every load and store (constant
displacements pulled out into [reg+imm], 32-bit offsets when the launch
says every array is small, 32-bit comparisons of index values that fit)
and nc.c reads arrays nothing writes through ld.global.nc.  Each kernel of
the benchmark suite runs optimised and with opt=False on the same random
inputs, in the launch-time variant a launch picks (small, disjoint arrays)
and in the one for arrays that share memory; the outputs must be equal bit
for bit.  Kernels below cover what the suite does not: negative indices
that wrap, negative strides, non-contiguous views, odd widths, shared
memory neighbours and pointers chosen at run time.  The PTX of the small
variant is checked for the forms themselves.

Runs on the simulator (CI) and on the GPU (PTXJIT_TEST_GPU=1).
"""

import math
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ROOT, load_module, same_bits

sys.path.insert(0, os.path.join(ROOT, "bench"))
import suite_cases  # noqa: E402

_mod = []


def suite():
    if not _mod:
        _mod.append(load_module(os.path.join(ROOT, "bench", "suite_kernels.py"), "ptxjit_suite_kernels_mem"))
    return _mod[0]


def launch(kernel, grid, block, args):
    kernel[grid, block](*args)


def run_both(py_func, grid, block, args, outs):
    """(optimised outputs, opt=False outputs, the optimised dispatcher)."""
    opt = cuda.jit(py_func)
    plain = cuda.jit(opt=False)(py_func)
    got, want = [], []
    for k, res in ((opt, got), (plain, want)):
        a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        for j in outs:
            a[j][...] = 0
        launch(k, grid, block, a)
        res.extend(a[j] for j in outs)
    return got, want, opt


def assert_same(got, want, what):
    for g, w in zip(got, want):
        assert same_bits(g, w), "%s: the optimised kernel's result differs from opt=False" % what


# ------------------------------------------------------- the benchmark suite

@pytest.mark.parametrize("name", [n for n, _ in suite_cases.CASES])
def test_suite_kernel_bit_identical(name, rng):
    inst = dict(suite_cases.CASES)[name](rng, "small")
    got, want, k = run_both(getattr(suite(), name).py_func, inst.grid, inst.block, inst.args, inst.outputs)
    inst.check(got)
    assert_same(got, want, name)
    # the launch picked a variant for small arrays (32-bit offsets); host
    # arrays that lie within 16 bytes of each other count as sharing memory
    assert [f & 1 for (_, f) in k._variants] == [1]


def test_suite_kernels_sharing_memory(rng):
    """The variant without noalias (no ld.global.nc): inputs passed twice."""
    mod = suite()
    n = 777
    x = rng.random(n, dtype=np.float32)
    for name, args, out in (("vector_add", [x, x, np.zeros(n, np.float32)], 2),
                            ("saxpy", [np.float32(1.5), x, x, np.zeros(n, np.float32)], 3)):
        got, want, k = run_both(getattr(mod, name).py_func, 4, 256, args, [out])
        assert_same(got, want, name)
        # saxpy: one fused multiply-add
        np.testing.assert_allclose(got[0], x + x if name == "vector_add" else np.float32(1.5) * x + x, rtol=1e-6)
    z = x.copy()
    k = cuda.jit(mod.vector_add.py_func)
    k[4, 256](z, x, z)
    np.testing.assert_array_equal(z, x + x)
    assert [f for (_, f) in k._variants] == [1 | 4]   # small extents, small grid


# ----------------------------------------------------------- address shapes

def neighbours_1d(a, out):
    i = cuda.grid(1)
    if i < a.size:
        # i - 1 is -1 for the first thread: Python's wrap to the last element
        out[i] = a[i - 1] + np.float32(2) * a[i] + a[(i + 1) % a.size] - a[i - 3]


def neighbours_2d(a, out):
    y, x = cuda.grid(2)
    h, w = a.shape
    if y < h and x < w:
        out[y, x] = a[y - 1, x] + a[y, x - 1] + a[y, x] * np.float32(3) + a[(y + 1) % h, (x + 2) % w]


def rows_3d(img, out):
    y, x = cuda.grid(2)
    if y < out.shape[0] and x < out.shape[1]:
        out[y, x] = img[y, x, 2] * 4 + img[y, x, 1] * 2 + img[y, x, 0] - img[y - 1, x - 1, 0]


def shared_neighbours(a, out):
    sm = cuda.shared.array(130, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    sm[t + 1] = a[i] if i < a.size else 0.0
    if t == 0:
        sm[0] = a[i - 1] if i > 0 else 0.0
        sm[129] = a[i + 128] if i + 128 < a.size else 0.0
    cuda.syncthreads()
    if i < a.size:
        out[i] = sm[t] - 2.0 * sm[t + 1] + sm[t + 2]


def pick_pointer(a, b, flag, out):
    i = cuda.grid(1)
    if i < out.size:
        src = a if flag[i % flag.size] else b
        out[i] = src[i] + src[i + 1] + a[i + 2]


def test_wrapping_neighbours_1d(rng):
    a = rng.random(1001, dtype=np.float32)
    out = np.zeros_like(a)
    got, want, _ = run_both(neighbours_1d, 4, 256, [a, out], [1])
    assert_same(got, want, "neighbours_1d")
    ref = np.roll(a, 1) + np.float32(2) * a + np.roll(a, -1) - np.roll(a, 3)
    np.testing.assert_allclose(got[0], ref, rtol=1e-6)


@pytest.mark.parametrize("view", ["contiguous", "reversed", "strided", "transposed"])
def test_neighbours_2d_views(rng, view):
    base = rng.random((37, 53), dtype=np.float32)
    a = {"contiguous": base, "reversed": base[::-1, ::-1], "strided": base[::2, 1::3],
         "transposed": base.T}[view]
    out = np.zeros(a.shape, np.float32)
    h, w = a.shape
    got, want, _ = run_both(neighbours_2d, ((h + 7) // 8, (w + 15) // 16), (8, 16), [a, out], [1])
    assert_same(got, want, "neighbours_2d " + view)
    ref = np.roll(a, 1, 0) + np.roll(a, 1, 1) + a * np.float32(3) + np.roll(np.roll(a, -1, 0), -2, 1)
    np.testing.assert_allclose(got[0], ref, rtol=1e-5)


def test_uint8_rows_odd_width(rng):
    img = rng.integers(0, 256, (13, 31, 3), dtype=np.uint8)
    out = np.zeros((13, 31), np.int64)
    got, want, _ = run_both(rows_3d, (2, 4), (8, 8), [img, out], [1])
    assert_same(got, want, "rows_3d")
    i = img.astype(np.int64)
    ref = i[..., 2] * 4 + i[..., 1] * 2 + i[..., 0] - np.roll(np.roll(i[..., 0], 1, 0), 1, 1)
    np.testing.assert_array_equal(got[0], ref)


def test_shared_memory_neighbours(rng):
    a = rng.random(1000)
    out = np.zeros_like(a)
    got, want, _ = run_both(shared_neighbours, 8, 128, [a, out], [1])
    assert_same(got, want, "shared_neighbours")
    p = np.concatenate([[0.0], a, [0.0]])
    np.testing.assert_allclose(got[0], p[:-2] - 2.0 * p[1:-1] + p[2:], rtol=1e-12)


def test_pointer_chosen_at_run_time(rng):
    a = rng.random(600, dtype=np.float32)
    b = rng.random(600, dtype=np.float32)
    flag = rng.integers(0, 2, 7).astype(np.bool_)
    out = np.zeros(590, np.float32)
    got, want, _ = run_both(pick_pointer, 3, 256, [a, b, flag, out], [3])
    assert_same(got, want, "pick_pointer")
    i = np.arange(590)
    f = flag[i % 7]
    ref = np.where(f, a[i] + a[i + 1], b[i] + b[i + 1]) + a[i + 2]
    np.testing.assert_allclose(got[0], ref, rtol=1e-6)


# ------------------------------------------------------------ the PTX forms

def small_variant_ptx(kernel, args, grid, block):
    kernel[grid, block](*args)
    ((_, flags), k), = kernel._variants.items()
    assert flags & 1
    return k.ptx


def body(ptx):
    return ptx[ptx.index(".entry"):]


def test_stencil_ptx_forms(rng):
    """One base for a[y, x - 1], a[y, x], a[y, x + 1]: [%rd+-4] and [%rd+4];
    32-bit row arithmetic widened once by mul.wide.s32; the row test in
    32 bits; no 64-bit multiply left (the launch's grid is small, so x of
    cuda.grid is below 2^31 and its test against the width is 32-bit)."""
    inst = suite_cases.stencil_5pt(rng, "small")
    k = cuda.jit(suite().stencil_5pt.py_func)
    text = body(small_variant_ptx(k, inst.args, inst.grid, inst.block))
    assert text.count("mul.lo.s64") + text.count("mul.wide.u32") == 0
    assert text.count("mul.wide.s32") == 4
    loads = re.findall(r"ld\.global(?:\.nc)?\.f32 %f\d+, \[(%rd\d+)(\+-?\d+)?\]", text)
    assert len(loads) == 5
    disp = {d for _, d in loads}
    assert {"+-4", "+4", ""} <= disp
    (centre,) = {r for r, d in loads if d in ("+-4", "+4")}
    assert (centre, "") in loads
    assert "setp.lt.s32" in text


def test_read_only_loads_come_first(rng):
    """sched.c: `sqrt(T[i])` then `S[i] / X[i]`: the three read-only loads
    are issued before the square root and the division (ptxas expands
    both into a branch to a slow path and does not move a load across
    it), and the values stay those of opt=False (test_suite_kernel_bit_identical)."""
    inst = suite_cases.black_scholes(rng, "small")
    k = cuda.jit(suite().black_scholes.py_func)
    lines = [ln.strip() for ln in body(small_variant_ptx(k, inst.args, inst.grid, inst.block)).splitlines()]
    first_math = min(n for n, ln in enumerate(lines) if ln.startswith(("sqrt.rn", "div.rn")))
    nc = [n for n, ln in enumerate(lines) if ln.startswith("ld.global.nc")]
    assert len(nc) == 3 and max(nc) < first_math


def test_special_registers_read_in_cuda_c_order(rng):
    """sched.c: per dimension %ntid, %ctaid, %tid, x before y, at the
    front of the block, whatever order the source names them in."""
    def k2(a, out):
        y = cuda.threadIdx.y + cuda.blockIdx.y * cuda.blockDim.y
        x = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
        if y < out.shape[0] and x < out.shape[1]:
            out[y, x] = a[y, x] * 2

    a = rng.random((20, 30))
    for kern, args, grid, block in (
            (suite().rgb_to_gray.py_func, None, None, None),
            (k2, [a, np.zeros_like(a)], (2, 3), (16, 8))):
        if args is None:
            inst = suite_cases.rgb_to_gray(rng, "small")
            args, grid, block = inst.args, inst.grid, inst.block
        text = body(small_variant_ptx(cuda.jit(kern), args, grid, block))
        regs = re.findall(r"mov\.u32 %r\d+, %(\w+\.[xyz]);", text)
        assert regs == ["ntid.x", "ctaid.x", "tid.x", "ntid.y", "ctaid.y", "tid.y"], regs
    got, want, _ = run_both(k2, (2, 3), (16, 8), [a, np.zeros_like(a)], [1])
    assert_same(got, want, "k2")
    np.testing.assert_array_equal(got[0], a * 2)


def test_loads_do_not_pass_a_store():
    """A load of an array the kernel writes moves up only past pure
    instructions: the first idx[i] comes first, before the store; the one
    after the store takes the value stored (reload.c) and is no load; the
    read-only src[i] still comes before the square root.  The values are
    opt=False's."""
    def gather(idx, src, out):
        i = cuda.grid(1)
        if i < out.size:
            j = idx[i]
            idx[i] = j + 1
            k = idx[i]
            out[i] = math.sqrt(src[i]) + src[k - 1]

    rng = np.random.default_rng(3)
    n = 1000
    idx = rng.integers(0, n, n).astype(np.int64)
    src = rng.random(n)
    got, want, _ = run_both(gather, 4, 256, [idx, src, np.zeros(n)], [2])
    assert_same(got, want, "gather")
    np.testing.assert_array_equal(got[0], np.sqrt(src) + src[idx])
    text = body(small_variant_ptx(cuda.jit(gather), [idx.copy(), src, np.zeros(n)], 4, 256))
    lines = [ln.strip() for ln in text.splitlines()]
    at = {}
    for n_, ln in enumerate(lines):
        for key in ("ld.global.s64", "st.global.s64", "ld.global.nc.f64", "sqrt.rn.f64"):
            if ln.startswith(key):
                at.setdefault(key, []).append(n_)
    (ld1,), (st,) = at["ld.global.s64"], at["st.global.s64"]
    (nc1, nc2), (sq,) = at["ld.global.nc.f64"], at["sqrt.rn.f64"]
    assert ld1 < st
    assert nc1 < sq


def test_rgb_ptx_forms(rng):
    inst = suite_cases.rgb_to_gray(rng, "small")
    k = cuda.jit(suite().rgb_to_gray.py_func)
    text = body(small_variant_ptx(k, inst.args, inst.grid, inst.block))
    assert text.count("mul.lo.s64") + text.count("mul.wide.u32") == 0 and "mul.lo.s32" in text
    loads = re.findall(r"ld\.global(?:\.nc)?\.u8 %r\d+, \[(%rd\d+)(\+\d+)?\]", text)
    assert sorted(d for _, d in loads) == ["", "+1", "+2"]
    assert len({r for r, _ in loads}) == 1


def test_large_variant_keeps_64_bit_offsets():
    """Without the launch's small-array fact the offsets stay 64-bit (the
    displacements still move into the address)."""
    k = cuda.jit(suite().stencil_5pt.py_func)
    text = body(k.compile("void(float32[:, ::1], float32[:, ::1])").ptx)
    assert "mul.wide.s32" not in text and "cvt.s64.s32" not in text
    assert re.search(r"ld\.global\.f32 %f\d+, \[%rd\d+\+-4\]", text)
    assert re.search(r"ld\.global\.f32 %f\d+, \[%rd\d+\+4\]", text)


@pytest.mark.skipif(not (shutil.which("ptxas") or os.path.exists("/usr/local/cuda/bin/ptxas")),
                    reason="no ptxas")
def test_small_variants_assemble(rng, tmp_path):
    """ptxas accepts the PTX of every suite kernel's small variant."""
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    mod = suite()
    for name, make in suite_cases.CASES:
        inst = make(rng, "small")
        k = cuda.jit(getattr(mod, name).py_func)
        a = [x.copy() if isinstance(x, np.ndarray) else x for x in inst.args]
        ptx = small_variant_ptx(k, a, inst.grid, inst.block)
        ptx = re.sub(r"\.version \d+\.\d+", ".version 7.8", ptx)
        p = tmp_path / (name + ".ptx")
        p.write_text(ptx)
        r = subprocess.run([ptxas, "-arch=sm_90", str(p), "-o", str(tmp_path / (name + ".cubin"))],
                           capture_output=True, text=True)
        assert r.returncode == 0, "%s: %s" % (name, r.stderr)


# ------------------------------------------- the catalogue's address kernels
# tests/golden/kernels/addr_*.py (their optimised IR is golden); these run
# them against NumPy and opt=False.  test_kernels.py names them.

def test_addr_neighbours_catalogue(load, rng):
    a = rng.random(700, dtype=np.float32)
    got, want, _ = run_both(load("addr_neighbours").smooth.py_func, 3, 256, [a, np.zeros_like(a)], [1])
    assert_same(got, want, "addr_neighbours")
    ref = np.zeros_like(a)
    ref[1:-1] = a[:-2] + a[1:-1] + a[2:]
    np.testing.assert_array_equal(got[0], ref)


def test_addr_rows_catalogue(load, rng):
    a = rng.random((21, 35))
    got, want, _ = run_both(load("addr_rows").rows.py_func, (3, 3), (8, 16), [a, np.zeros_like(a)], [1])
    assert_same(got, want, "addr_rows")
    ref = np.zeros_like(a)
    ref[1:-1, 2:-2] = a[:-2, 2:-2] + a[2:, 2:-2] + a[1:-1, :-4] + a[1:-1, 4:]
    np.testing.assert_array_equal(got[0], ref)


def test_addr_shared_catalogue(load, rng):
    a = rng.random(1024, dtype=np.float32)     # whole blocks: every sm[t + 1] written
    got, want, _ = run_both(load("addr_shared").tile.py_func, 4, 256, [a, np.zeros_like(a)], [1])
    assert_same(got, want, "addr_shared")
    p = np.zeros((4, 258), np.float32)
    p[:, 1:257] = a.reshape(4, 256)
    np.testing.assert_array_equal(got[0], (p[:, :256] + p[:, 2:]).ravel())
