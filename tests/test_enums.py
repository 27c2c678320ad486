"""Enum classes in kernels, as Numba reads them: the members of an IntEnum
are ints (compare, compute, convert, pass as arguments), named by
attribute (RequestError.not_found) or by a constant string
(RequestError["not_found"]), from globals and closures, in kernels and
device functions.  Members of an Enum that is not an IntEnum (of int
values) are Numba's EnumMember: compared with == != is and `is not` to
members of their class, .value, returned from device functions; arithmetic
on them and storing them are refused, as is an Enum of other values; a
missing member is an error at its line."""

from enum import Enum, IntEnum

import numpy as np
import pytest

from conftest import assert_ptx_assembles
from ptxjit import cuda, int16, int32
from ptxjit.errors import TypingError


class Status(IntEnum):
    ok = 200
    not_found = 404
    teapot = 418
    error = 500


class Level(IntEnum):
    low = -3
    high = 7


class Color(Enum):
    red = 1
    green = 2
    blue = 3
    crimson = 1     # an alias of red


class Planet(Enum):
    earth = (5.976e+24, 6.37814e6)
    mars = (6.421e+23, 3.3972e6)


@cuda.jit(device=True)
def pick(pred):
    return Color.red if pred else Color["green"]


@cuda.jit
def color_k(preds, out):
    i = cuda.grid(1)
    if i < preds.shape[0]:
        c = pick(preds[i] > 0)
        out[i, 0] = c == Color.red
        out[i, 1] = c != Color.green
        out[i, 2] = c is Color.crimson
        out[i, 3] = c is not Color.blue
        out[i, 4] = c.value * 10 + Color.blue.value


def test_enum_members(rng):
    preds = rng.integers(-5, 5, 60)
    out = np.zeros((60, 5), np.int64)
    color_k[2, 32](preds, out)
    for i, p in enumerate(preds):
        c = Color.red if p > 0 else Color["green"]
        assert list(out[i]) == [c == Color.red, c != Color.green, c is Color.crimson, c is not Color.blue,
                                c.value * 10 + Color.blue.value]


KERNELS = []


@cuda.jit(device=True)
def classify(code):
    if code >= Status.error:
        return Level.high
    return Level["low"]


@cuda.jit
def kernel(codes, out):
    i = cuda.grid(1)
    if i < codes.shape[0]:
        c = codes[i]
        out[i, 0] = c == Status.not_found
        out[i, 1] = c - Status["teapot"]
        out[i, 2] = int16(Status.ok) * classify(c)
        out[i, 3] = c > int32(Status.teapot)


KERNELS.append(kernel)


def reference(codes):
    out = np.zeros((codes.size, 4), np.int64)
    for i, c in enumerate(codes):
        lvl = Level.high if c >= Status.error else Level["low"]
        out[i] = [c == Status.not_found, c - Status["teapot"], int(Status.ok) * lvl, c > Status.teapot]
    return out


def test_intenum_members(rng):
    codes = rng.choice([200, 404, 418, 500, 503, 301], size=97).astype(np.int64)
    out = np.zeros((97, 4), np.int64)
    kernel[4, 32](codes, out)
    np.testing.assert_array_equal(out, reference(codes))


def test_member_as_argument_and_closure(rng):
    limit = Status.teapot

    @cuda.jit
    def k(s, x, out):
        out[0] = s == Status.not_found
        out[1] = x[0] < limit
        out[2] = s + Level.high
    KERNELS.append(k)
    for s in (Status.not_found, Status.error):
        x = rng.integers(300, 500, 1)
        out = np.zeros(3, np.int64)
        k[1, 1](s, x, out)
        assert list(out) == [s == Status.not_found, x[0] < limit, s + Level.high]


@pytest.mark.parametrize("body, msg", [
    ("out[0] = Color.red", "cannot store a EnumMember\\(Color, int64\\) value"),
    ("out[0] = Color.red + 1", "unsupported operand types for \\+: EnumMember\\(Color, int64\\) and int64"),
    ("out[0] = Color.red == 1", "compare a member of an Enum with == or != to members of its class"),
    ("out[0] = Planet.earth == Planet.mars", "a member of an Enum whose value is not an int"),
    ("out[0] = Status.missing", "Status has no attribute 'missing'"),
    ("out[0] = Status['missing']", "Status has no member 'missing'"),
    ("n = 1\n    out[0] = Status[n]", "needs a constant string"),
])
def test_refused(body, msg):
    ns = {"Color": Color, "Status": Status, "Planet": Planet}
    exec("def k(out):\n    %s\n" % body, ns)
    with pytest.raises(TypingError, match=msg):
        cuda.jit(ns["k"])[1, 1](np.zeros(1))


def test_ptx_assembles():
    assert_ptx_assembles(KERNELS, 2)
