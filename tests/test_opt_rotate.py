"""Rotations as funnel shifts, float32 compares kept in float32.

- `x << k | x >> (w - k)` (the right shift logical) is written as
  shf.l.wrap.b32 (two of them on the halves of a 64-bit value, which
  swap places for k >= 32; one for a uint32 value, which Numba's typing
  widens to 64 bits and the store narrows) by src/ptx/ops.c; ptxas left to itself merges
  the or into the logic around it and keeps the four shifts of a 64-bit
  rotation.  Every count of both widths is checked against NumPy on
  random words, and against the unoptimised compile bit for bit; the
  shapes that are not rotations (counts not summing to the width, an
  arithmetic right shift, two different values) keep their or.
- A compare of float32 values widened to double, or of one and a double
  constant that a float32 holds exactly (`x * x + y * y <= 1.0`), is made
  on the floats (src/opt/fold.c): no cvt.f64.f32 and no setp .f64 is
  left.  NaN, infinities, subnormals and the neighbours of the constant
  give the unoptimised compile's bits; a constant a float does not hold
  (0.1) keeps the double compare.

The PTX forms are checked on any machine; the results on the simulator
(CI) and on the GPU (PTXJIT_TEST_GPU=1), where the rotations' PTX itself
runs.
"""

import os
import re
import shutil
import subprocess
import tempfile

import numpy as np
import pytest

from ptxjit import cuda

from conftest import launch_all

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1


def ptx_of(kernel, args):
    d = cuda.jit(kernel.py_func)
    argtypes = d._typeof(tuple(args))
    return d._compile(", ".join(argtypes), argtypes, 7).ptx


def rot_kernel(k, width):
    """A kernel rotating each word left by the constant k."""
    dt = "uint64" if width == 64 else "uint32"
    src = (
        "def rot(a, out):\n"
        "    i = cuda.grid(1)\n"
        "    if i < a.size:\n"
        "        x = a[i]\n"
        "        out[i] = (x << np.{dt}({k})) | (x >> np.{dt}({r}))\n"
    ).format(dt=dt, k=k, r=width - k)
    ns = {"cuda": cuda, "np": np}
    exec(compile(src, "<rot%d_%d>" % (width, k), "exec"), ns)
    return cuda.jit(ns["rot"])


def rotl(a, k, width):
    m = M64 if width == 64 else M32
    return [((int(x) << k) | (int(x) >> (width - k))) & m for x in a]


@pytest.mark.parametrize("width", [64, 32])
def test_every_count(width, rng):
    dt = np.uint64 if width == 64 else np.uint32
    a = rng.integers(0, 1 << width, 200, dtype=dt)
    for k in range(1, width):
        kern = rot_kernel(k, width)
        out = np.zeros_like(a)
        want = launch_all(kern, 2, 128, [a, out], [1], variants=(7,))[0]
        np.testing.assert_array_equal(want, np.array(rotl(a, k, width), dt))
        body = ptx_of(kern, [a, out])
        if width == 64:
            assert body.count("shf.l.wrap.b32") == (0 if k == 32 else 2), (k, body)
            assert "or.b64" not in body, (k, body)
        else:       # the or of the widened operand stays, for nothing: ptxas drops it
            assert body.count("shf.l.wrap.b32") == 1, (k, body)


PTXAS = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)


@pytest.mark.skipif(not PTXAS, reason="needs ptxas")
def test_rotations_assemble():
    with tempfile.TemporaryDirectory() as tmp:
        for width, dt in ((64, np.uint64), (32, np.uint32)):
            a = np.zeros(4, dt)
            for k in (1, 9, 31, 32, 33, 55, 63):
                if k >= width:
                    continue
                path = os.path.join(tmp, "r.ptx")
                with open(path, "w") as f:
                    f.write(ptx_of(rot_kernel(k, width), [a, a]))
                r = subprocess.run([PTXAS, "-arch=sm_90", path, "-o", os.devnull], capture_output=True, text=True)
                assert r.returncode == 0, (width, k, r.stderr)


@cuda.jit
def not_rotations(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = (x << np.uint64(5)) | (x >> np.uint64(60))     # 5 + 60 != 64
        out[i, 1] = (x << np.uint64(5)) | (y >> np.uint64(59))     # two values
        s = np.int64(x)
        out[i, 2] = np.uint64((s << np.int64(5)) | (s >> np.int64(59)))    # arithmetic shift


def test_other_shapes_keep_their_or(rng):
    a = rng.integers(0, 1 << 64, 100, dtype=np.uint64)
    b = rng.integers(0, 1 << 64, 100, dtype=np.uint64)
    out = np.zeros((100, 3), np.uint64)
    got = launch_all(not_rotations, 1, 128, [a, b, out], [2])[0]
    ai, bi = [int(x) for x in a], [int(x) for x in b]
    for j in range(100):
        x, y = ai[j], bi[j]
        s = x - (1 << 64) if x >> 63 else x
        assert int(got[j, 0]) == ((x << 5) | (x >> 60)) & M64
        assert int(got[j, 1]) == ((x << 5) | (y >> 59)) & M64
        assert int(got[j, 2]) == ((s << 5) | (s >> 59)) & M64
    body = ptx_of(not_rotations, [a, b, out])
    assert "shf.l.wrap" not in body
    assert len(re.findall(r"\bor\.b64\b", body)) == 3


@cuda.jit
def xoroshiro_next(s, out, n):
    """xoroshiro128+ steps, written out: rotations by 55 and 36."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        s0 = s[i, 0]
        s1 = s[i, 1]
        for k in range(n):
            out[i, k] = s0 + s1
            s1 ^= s0
            s0 = ((s0 << np.uint64(55)) | (s0 >> np.uint64(9))) ^ s1 ^ (s1 << np.uint64(14))
            s1 = (s1 << np.uint64(36)) | (s1 >> np.uint64(28))


def test_xoroshiro_steps(rng):
    s = rng.integers(1, 1 << 64, (64, 2), dtype=np.uint64)
    out = np.zeros((64, 9), np.uint64)
    got = launch_all(xoroshiro_next, 1, 64, [s, out, 9], [1])[0]
    for i in range(64):
        s0, s1 = int(s[i, 0]), int(s[i, 1])
        for k in range(9):
            assert int(got[i, k]) == (s0 + s1) & M64
            s1 ^= s0
            s0 = ((((s0 << 55) | (s0 >> 9)) & M64) ^ s1 ^ (s1 << 14)) & M64
            s1 = ((s1 << 36) | (s1 >> 28)) & M64
    assert ptx_of(xoroshiro_next, [s, out, 9]).count("shf.l.wrap.b32") >= 4


# ------------------------------------------------------------ float compares

@cuda.jit
def inside(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        r = a * a + b * b
        out[i, 0] = r <= 1.0
        out[i, 1] = r > 0.5
        out[i, 2] = a == -2.0
        out[i, 3] = np.float64(a) < np.float64(b)       # both widened
        out[i, 4] = 1.0 != r
        out[i, 5] = r >= 0.1                            # 0.1 is no float32


def special_floats(rng, n):
    f = np.float32
    edge = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, -2.0, 0.5, 0.1, 1e-45, -1e-45,
                     np.nextafter(f(1), f(2)), np.nextafter(f(1), f(0)), np.nextafter(f(0.5), f(1)),
                     f(0.1), np.nextafter(f(0.1), f(1)), 3.4e38, -3.4e38], np.float32)
    x = rng.standard_normal(n).astype(np.float32)
    x[: edge.size] = edge
    return x


def test_compares_bit_identical(rng):
    n = 300
    x = special_floats(rng, n)
    y = special_floats(rng, n)[::-1].copy()
    out = np.zeros((n, 6), np.bool_)
    got = launch_all(inside, 3, 128, [x, y, out], [2])[0]
    with np.errstate(over="ignore", invalid="ignore"):
        r = x * x + y * y
        want = np.stack([r.astype(np.float64) <= 1.0, r.astype(np.float64) > 0.5, x.astype(np.float64) == -2.0,
                         x.astype(np.float64) < y.astype(np.float64), r.astype(np.float64) != 1.0,
                         r.astype(np.float64) >= 0.1], axis=1)
    np.testing.assert_array_equal(got, want)


def test_compares_in_float32():
    x = np.zeros(8, np.float32)
    body = ptx_of(inside, [x, x, np.zeros((8, 6), np.bool_)])
    assert len(re.findall(r"setp\.\w+\.f32", body)) == 5, body
    assert len(re.findall(r"setp\.\w+\.f64", body)) == 1, body           # r >= 0.1
    assert len(re.findall(r"cvt\.f64\.f32", body)) == 1, body            # for it
