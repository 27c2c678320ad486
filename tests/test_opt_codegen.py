"""Code generation of hot loops: results bit-identical, and the forms kept.

What is checked here:
- strength reduction in the launch variant for small extents: a pointer
  stepped by a column of a row-major array is stepped by the extent
  widened from 32 bits, the unrolled copies chained one extent apart
  (p1 = p0 + 4 * w, ...), with one product of the extent that only
  those adds read (ops.c's "twin"): ptxas makes each step one IMAD.WIDE;
- bottom-tested loops in the PTX (emit.c): the back edge repeats the
  header's test and branches to the body, no `bra.uni` to the header;
- `a and b` / `a or b` with a cheap, safe right operand as one predicate
  (cond.c), in a loop header too (Mandelbrot);
- every result of these kernels, optimised in the plain and in the small
  launch variant, equals the unoptimised compile bit for bit: trip counts
  0 to 33, starts that are negative, bounds next to INT32_MAX, a while
  loop with an int64 limit far above 2^31, conditions in every
  combination of outcomes.

Runs on the simulator (CI) and on the GPU (PTXJIT_TEST_GPU=1); the SASS
check needs ptxas and cuobjdump (or nvdisasm) and is skipped without them.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ROOT, launch_all, load_module, run_variant, same_bits

sys.path.insert(0, os.path.join(ROOT, "bench"))
import suite_cases  # noqa: E402

INT32_MAX = 2**31 - 1

_mod = []


def suite():
    if not _mod:
        _mod.append(load_module(os.path.join(ROOT, "bench", "suite_kernels.py"), "ptxjit_suite_kernels_codegen"))
    return _mod[0]




def small_ptx(kernel, args):
    d = cuda.jit(kernel.py_func)
    argtypes = d._typeof(tuple(args))
    return d._compile(", ".join(argtypes), argtypes, 3).ptx


# ------------------------------------------------------------------ kernels

@cuda.jit
def column_dot(A, B, out, start, n):
    """A row of A against a column of B from `start` to `n`."""
    y, x = cuda.grid(2)
    if y < out.shape[0] and x < out.shape[1]:
        s = np.float32(0)
        for k in range(start, n):
            s += A[y, k] * B[k, x]
        out[y, x] = s


@cuda.jit
def counted(out, start, stop):
    i = cuda.grid(1)
    if i < out.size:
        c = 0
        last = -1
        for k in range(start, stop):
            c += 1
            last = k
        out[i] = c * 1000003 + last


@cuda.jit
def escape(out, limit, cap):
    """A while loop with an int64 limit and a second test (Mandelbrot's shape)."""
    i = cuda.grid(1)
    if i < out.size:
        z = 0.0
        c = 0.26 + 0.01 * i
        n = 0
        while n < limit and z * z <= cap:
            z = z * z + c
            n += 1
        out[i] = n


@cuda.jit
def conditions(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        x = a[i]
        y = b[i]
        r = 0
        if x > 0 and y < 5:
            r += 1
        if x < -3 or y * y > 20:
            r += 10
        if 0 <= x < 4 and -2 < y <= 6:
            r += 100
        out[i] = r


@cuda.jit
def strided4(arr, part, n):
    """Four loads a run-time stride apart per iteration (cuda.reduce's
    first stage): one pointer phi, the others reached by invariant terms."""
    tid = np.uint64(cuda.threadIdx.x)
    blk = np.uint64(cuda.blockIdx.x)
    step = np.uint64(cuda.gridDim.x) * np.uint64(32)
    s2 = step + step
    s3 = s2 + step
    i = blk * np.uint64(32) + tid
    acc = 0.0
    while i + s3 < n:
        acc += (arr[i] + arr[i + step]) + (arr[i + s2] + 2.0 * arr[i + s3])
        i += s2 + s2
    part[blk * np.uint64(32) + tid] = acc


# ------------------------------------------------------------ correctness

@pytest.mark.parametrize("n", [0, 100, 257, 1000])
def test_strided_loads(n, rng):
    a = rng.random(max(n, 1))
    part = np.zeros(96)
    (got,) = launch_all(strided4, 3, 32, [a, part, np.uint64(n)], [1])
    want = np.zeros(96)
    for t in range(96):
        i, step = t, 96
        while i + 3 * step < n:
            want[t] += (a[i] + a[i + step]) + (a[i + 2 * step] + 2.0 * a[i + 3 * step])
            i += 4 * step
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("n", list(range(0, 34)))
def test_column_dot_trip_counts(n, rng):
    A = rng.random((5, 40), dtype=np.float32)
    B = rng.random((40, 7), dtype=np.float32)
    out = np.zeros((5, 7), np.float32)
    for start in (0, 3, -2):
        s = start
        (got,) = launch_all(column_dot, (1, 1), (8, 8), [A, B, out, np.int64(s), np.int64(n)], [2])
        want = np.zeros((5, 7), np.float32)
        for k in range(s, n):
            want += A[:, k][:, None] * B[k][None, :]   # negative k wraps, as in the kernel
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("start,stop", [
    (0, 0), (0, 1), (0, 33), (-5, 3), (-1, 0), (-40, -7), (3, -2),
    (INT32_MAX - 4, INT32_MAX), (INT32_MAX - 3, INT32_MAX + 2), (INT32_MAX, INT32_MAX + 1),
    (-2**31, -2**31 + 5), (-2**31 - 2, -2**31 + 2),
])
def test_counted_ranges(start, stop):
    out = np.zeros(9, np.int64)
    for kind in (np.int64,) + ((np.int32,) if -2**31 <= start and stop <= INT32_MAX else ()):
        (got,) = launch_all(counted, 1, 32, [out, kind(start), kind(stop)], [0])
        c = max(0, stop - start)
        last = stop - 1 if c else -1
        np.testing.assert_array_equal(got, np.full(9, c * 1000003 + last, np.int64))


@pytest.mark.parametrize("limit", [0, 1, 7, 2**31 - 1, 2**31, 2**40, 2**63 - 1, -5])
def test_escape_huge_limit(limit):
    """Every thread escapes (c > 1/4) within a few dozen iterations, so a
    limit far above 2^31 is never reached but must be compared exactly."""
    out = np.zeros(40, np.int64)
    (got,) = launch_all(escape, 1, 64, [out, np.int64(limit), 4.0], [0])
    want = []
    for i in range(40):
        z, c, n = 0.0, 0.26 + 0.01 * i, 0
        while n < limit and z * z <= 4.0:
            z = z * z + c
            n += 1
        want.append(n)
    np.testing.assert_array_equal(got, np.array(want, np.int64))


def test_escape_bounded_limit():
    out = np.zeros(40, np.int64)
    (got,) = launch_all(escape, 1, 64, [out, np.int64(20), 4.0], [0])
    assert got[0] == 20 and got[39] < 20


def test_conditions_all_outcomes():
    vals = np.array([-5, -3, -1, 0, 1, 3, 4, 5, 6, 7], np.int64)
    a, b = [x.ravel().copy() for x in np.meshgrid(vals, vals)]
    out = np.zeros(a.size, np.int64)
    (got,) = launch_all(conditions, 2, 64, [a, b, out], [2])
    want = (((a > 0) & (b < 5)) * 1 + ((a < -3) | (b * b > 20)) * 10 +
            ((0 <= a) & (a < 4) & (-2 < b) & (b <= 6)) * 100)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["matmul_naive", "mandelbrot", "stencil_5pt", "histogram"])
def test_suite_kernels_bit_identical(name, rng):
    inst = dict(suite_cases.CASES)[name](rng, "small")
    func = getattr(suite(), name).py_func
    want, _ = run_variant(func, inst.args, inst.outputs, inst.grid, inst.block, 0, opt=False)
    inst.check(want)
    for flags in (0, 3, 7):
        got, _ = run_variant(func, inst.args, inst.outputs, inst.grid, inst.block, flags)
        for g, w in zip(got, want):
            assert same_bits(g, w)


# ------------------------------------------------------------- PTX forms

def loops(ptx):
    """(head label, text up to its back branch) of every bottom-tested loop."""
    out = []
    for m in re.finditer(r"^\t@%p\d+ bra (\$L_\d+);$", ptx, re.M):
        head = m.group(1)
        start = ptx.find("\n%s:\n" % head)
        if 0 <= start < m.start():
            out.append((head, ptx[start:m.end()]))
    return out


def test_matmul_pointer_chain():
    rng = np.random.default_rng(1)
    inst = suite_cases.matmul_naive(rng, "small")
    ptx = small_ptx(suite().matmul_naive, inst.args)
    body = ptx[ptx.index(".entry"):]
    # no loop goes back through `bra.uni` to a test at its top
    assert not re.search(r"bra\.uni (\$L_\d+);\n(?:.*\n)*?\1:", body) or loops(body)
    main = max((t for _, t in loops(body)), key=lambda t: t.count("fma.rn.f32"))
    assert main.count("fma.rn.f32") == 4
    assert "mul.lo.s64" not in main and "mad.wide" not in main
    # B's column pointer: one product of the 32-bit extent, chained
    twin = re.findall(r"mul\.wide\.[su]32 (%rd\d+), %r\d+, 4;", body)
    assert twin
    steps = [t for t in twin
             if len(re.findall(r"add\.s64 %rd\d+, (?:%rd\d+, " + t + "|" + t + r", %rd\d+);", main)) >= 4]
    assert steps, "the column steps read one widened product"


def test_mandelbrot_one_branch_per_iteration():
    rng = np.random.default_rng(1)
    inst = suite_cases.mandelbrot(rng, "small")
    ptx = small_ptx(suite().mandelbrot, inst.args)
    body = ptx[ptx.index(".entry"):]
    (loop,) = [t for _, t in loops(body) if "fma.rn.f64" in t]
    assert loop.count(" bra ") == 1 and "and.pred" in loop
    assert "bra.uni" not in loop


def test_conditions_merged():
    a = np.zeros(4, np.int64)
    ptx = small_ptx(conditions, [a, a, a])
    body = ptx[ptx.index(".entry"):]
    assert body.count("and.pred") >= 2 and "or.pred" in body


@cuda.jit
def reciprocals(x, out64, out32):
    i = cuda.grid(1)
    if i < x.size:
        out64[i] = 1.0 / x[i]
        out32[i] = np.float32(1) / np.float32(x[i])


def test_reciprocal_float64_is_rcp_rn():
    """1/x in float64 is rcp.rn (the same IEEE result as div.rn, faster);
    float32 keeps div.rn.  The results are the correctly rounded ones."""
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-1e3, 1e3, 500), [1e-310, -1e-310, 3.0, 0.0, -0.0, np.inf, 1e308]])
    o64, o32 = np.zeros_like(x), np.zeros(x.size, np.float32)
    body = small_ptx(reciprocals, [x, o64, o32])
    body = body[body.index(".entry"):]
    assert "rcp.rn.f64" in body and "div.rn.f64" not in body
    assert "div.rn.f32" in body
    with np.errstate(divide="ignore", over="ignore"):
        reciprocals[2, 256](x, o64, o32)
        assert np.array_equal(o64, 1.0 / x)
        assert np.array_equal(o32, np.float32(1) / x.astype(np.float32))


# ------------------------------------------------------------------ SASS

def _tool(name):
    for d in [None, "/work/tools-bin", "/usr/local/cuda/bin"]:
        p = shutil.which(name) if d is None else os.path.join(d, name)
        if p and os.access(p, os.X_OK):
            return p
    return None


@pytest.mark.skipif(not (_tool("ptxas") and _tool("cuobjdump")), reason="needs ptxas and cuobjdump")
def test_matmul_sass_loop_size():
    """ptxas's loop for the launch variant of matmul_naive: at most 73
    instructions per 16 FMAs, CUDA C's count with int indices (nvcc 12,
    sm_90)."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import dump_sass
    rng = np.random.default_rng(1)
    inst = suite_cases.matmul_naive(rng, "small")
    ptx = small_ptx(suite().matmul_naive, inst.args)
    with tempfile.TemporaryDirectory() as d:
        src, cub = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        subprocess.run([_tool("ptxas"), "-arch=sm_90", src, "-o", cub], check=True)
        text = subprocess.run([_tool("cuobjdump"), "-sass", cub], capture_output=True, text=True).stdout
    ins = next(iter(dump_sass.functions(text).values()))
    sizes = sorted(((sum(1 for _, t in body if t.startswith("FFMA")), len(body))
                    for _, _, body in dump_sass.inner_loops(ins)), reverse=True)
    ffma, n = sizes[0]
    assert ffma >= 4 and n <= 73 * ffma / 16 + 1, sizes
    for ffma, n in sizes[1:]:    # the rest: CUDA C's 25 per 4 FMAs
        assert ffma and n <= 25 * ffma / 4 + 1, sizes


@cuda.jit
def bool_compares(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        p = a[i] > b[i]
        q = (i & 2) == 0
        if p == q:
            out[i, 0] = 1
        if p != q:
            out[i, 1] = 1
        if p < q:
            out[i, 2] = 1
        if p <= q:
            out[i, 3] = 1
        if p > q:
            out[i, 4] = 1
        if p >= q:
            out[i, 5] = 1
        if p == True:  # noqa: E712
            out[i, 6] = 1
        if False < q:
            out[i, 7] = 1


def test_bool_compares_on_predicates(rng):
    """Bools compared with each other (Numba widens both to integers)
    compare as predicates: no selp of 0 and 1 feeding a setp."""
    a, b = rng.random(300), rng.random(300)
    out = np.zeros((300, 8), np.int64)
    got = launch_all(bool_compares, 2, 256, [a, b, out], [2])[0]
    p, q = a > b, (np.arange(300) & 2) == 0
    want = np.stack([p == q, p != q, p < q, p <= q, p > q, p >= q, p, q], axis=1).astype(np.int64)
    np.testing.assert_array_equal(got, want)
    body = small_ptx(bool_compares, [a, b, out])
    body = body[body.index(".entry"):]
    assert "xor.pred" in body
    assert "selp" not in body, body
