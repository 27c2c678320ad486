"""A collections.namedtuple passed to a kernel keeps its field names, as
Numba's NamedTuple and NamedUniTuple types do: fields by name (p.x) and by
index, len(), unpacking, a device function reading the fields of the
namedtuple it is given, namedtuples nested and holding arrays.  Two classes
of one shape whose fields differ in name are two signatures.

Each test runs on the simulator (the default) or the GPU (PTXJIT_TEST_GPU=1),
on random data, against the Python function's answers.
"""

from collections import namedtuple

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.errors import TypingError

Point = namedtuple("Point", ("x", "y"))
Swapped = namedtuple("Swapped", ("y", "x"))
Particle = namedtuple("Particle", ("pos", "mass", "charge"))
Batch = namedtuple("Batch", ("data", "scale"))


@cuda.jit(device=True)
def energy(p):
    return p.mass * (p.pos.x * p.pos.x + p.pos.y * p.pos.y) + p.charge


@cuda.jit
def fields_k(out, p, q):
    out[0] = p.x - 2 * p.y
    out[1] = p[0] + len(p)
    a, b = p
    out[2] = a * 10 + b
    out[3] = energy(q)
    out[4] = q.pos[1]


@cuda.jit
def batch_k(out, b):
    i = cuda.grid(1)
    if i < b.data.shape[0]:
        out[i] = b.data[i] * b.scale


def test_fields_by_name_and_index(rng):
    x, y = (int(v) for v in rng.integers(-50, 50, 2))
    mass, px, py = rng.standard_normal(3)
    q = Particle(Point(px, py), mass, 3)
    out = np.zeros(5)
    fields_k[1, 1](out, Point(x, y), q)
    ref = [x - 2 * y, x + 2, x * 10 + y, mass * (px * px + py * py) + 3, py]
    np.testing.assert_allclose(out, ref, rtol=1e-15)


def test_classes_of_one_shape_are_two_signatures(rng):
    x, y = (int(v) for v in rng.integers(1, 50, 2))
    out = np.zeros(5)
    q = Particle(Point(1.0, 2.0), 1.0, 0)
    fields_k[1, 1](out, Point(x, y), q)
    first = out[0]
    fields_k[1, 1](out, Swapped(x, y), q)     # .x is the second element now
    assert first == x - 2 * y
    assert out[0] == y - 2 * x
    assert len(fields_k.signatures) == 2


def test_a_namedtuple_holding_an_array(rng):
    data = rng.standard_normal(70)
    out = np.zeros(70)
    batch_k[3, 32](out, Batch(data, 0.5))
    np.testing.assert_array_equal(out, data * 0.5)


@cuda.jit
def missing_k(out, p):
    out[0] = p.z


def test_a_missing_field_is_an_error():
    with pytest.raises(TypingError, match="NamedUniTuple\\(int64 x 2, Point\\) has no attribute 'z'"):
        missing_k[1, 1](np.zeros(1), Point(1, 2))
