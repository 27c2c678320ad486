"""Identifiers are normalised to NFKC, as Python's tokenizer does (PEP 3131).

`ﬁ` (U+FB01, the fi ligature) and `fi` name one variable, `ｇrid` is
`grid`, and `é` written as e + U+0301 is the precomposed `é`.  The lexer
normalises each name holding a non-ASCII character (src/front/nfkc.c,
tables from unicodedata by tools/gen_nfkc_tables.py); the kernels here
give CPython's answers (their plain-Python run where they need no CUDA),
and _core.nfkc, the lexer's normaliser, equals unicodedata.normalize
('NFKC', ...) on every code point an identifier may hold and on random
names made to exercise reordering and composition.
"""

import math
import unicodedata

import numpy as np
import pytest

from ptxjit import _core, cuda, njit
from ptxjit.errors import TypingError

SAME_UNICODE = unicodedata.unidata_version == _core.NFKC_UNICODE_VERSION
needs_same_unicode = pytest.mark.skipif(
    not SAME_UNICODE, reason="this Python's Unicode %s is not the tables' %s"
    % (unicodedata.unidata_version, _core.NFKC_UNICODE_VERSION))

IDENT = [chr(cp) for cp in range(0x80, 0x110000)
         if not 0xD800 <= cp < 0xE000 and ("a" + chr(cp)).isidentifier()]


@needs_same_unicode
def test_every_identifier_code_point():
    bad = [hex(ord(c)) for c in IDENT if _core.nfkc(c) != unicodedata.normalize("NFKC", c)]
    assert not bad, bad[:20]


@needs_same_unicode
def test_random_names(rng):
    marks = [c for c in IDENT if unicodedata.combining(c)]
    composed = [c for c in IDENT if unicodedata.normalize("NFD", c) != c]
    jamo = [chr(c) for c in list(range(0x1100, 0x1113)) + list(range(0x1161, 0x1176)) + list(range(0x11A8, 0x11C3))]
    pools = [IDENT, marks, composed, jamo, list("aeiouAEO_"), [unicodedata.normalize("NFD", c) for c in composed]]
    for _ in range(30000):
        k = int(rng.integers(1, 7))
        s = "".join(p[int(rng.integers(len(p)))] for p in (pools[int(rng.integers(len(pools)))] for _ in range(k)))
        assert _core.nfkc(s) == unicodedata.normalize("NFKC", s), [hex(ord(c)) for c in s]


def test_ascii_is_unchanged():
    assert _core.nfkc("abc_XYZ09") == "abc_XYZ09"


# ----------------------------------------------------------------- kernels

fi = 3
ｍ = 1.25             # a global written in fullwidth: Python names it m


@cuda.jit
def ligature_local(out):
    ﬁ = 5
    out[0] = fi       # the local just assigned, as in Python
    out[1] = ｍ + m


@cuda.jit
def ligature_global(out):
    out[0] = ﬁ        # the global fi
    out[1] = ｆi * 2


@cuda.jit
def params(out, ｘ, ý):
    out[0] = x + ý    # the parameters, spelled another way


@cuda.jit
def attributes(out):
    i = cuda.ｇrid(1)
    if i < out.size:
        out[i] = np.ｓqrt(np.float64(i)) + ｍath.ｆloor(2.5)


@cuda.jit(device=True)
def ﬁnd(x):
    return x + 1


@cuda.jit
def ﬁll(out, v):
    out[0] = find(v)
    out[1] = ﬁnd(v) * 2


@njit
def n_names(x):
    ﬁrst = x * 2
    return first + ｍ


def python(k, *args):
    out = np.zeros(2)
    k.py_func(out, *args)
    return out


def simulated(k, *args):
    out = np.zeros(2)
    k[1, 1](out, *args)
    return out


@pytest.mark.parametrize("k", [ligature_local, ligature_global])
def test_globals_and_locals(k):
    assert python(k).tolist() == [5.0 if k is ligature_local else 3.0, 2.5 if k is ligature_local else 6.0]
    np.testing.assert_array_equal(simulated(k), python(k))


def test_parameters(rng):
    x, y = rng.uniform(1, 9, 2)
    np.testing.assert_array_equal(simulated(params, x, y), python(params, x, y))
    assert simulated(params, x, y)[0] == x + y


def test_attributes_and_modules():
    out = np.zeros(8)
    attributes[1, 8](out)
    np.testing.assert_array_equal(out, np.sqrt(np.arange(8.0)) + 2.0)


def test_function_names(rng):
    v = float(rng.uniform(1, 9))
    assert ﬁll.__name__ == "fill"
    np.testing.assert_array_equal(simulated(ﬁll, v), [v + 1, (v + 1) * 2])


def test_njit(rng):
    x = float(rng.uniform(1, 9))
    assert n_names(x) == n_names.py_func(x) == x * 2 + 1.25


@cuda.jit
def bad_name(out):
    out[0] = ｍ + ｕnknown


def test_caret_points_at_the_name_as_written():
    with pytest.raises(TypingError) as e:
        bad_name[1, 1](np.zeros(1))
    lines = str(e.value).split("\n")
    line = bad_name.py_func.__code__.co_firstlineno + 2
    # columns count characters, as Python's do
    assert lines[0].startswith("%s:%d:18: error:" % (__file__, line)), lines[0]
    assert "unknown" in lines[0]
    src, caret = lines[1], lines[2]
    assert src.strip() == "out[0] = ｍ + ｕnknown"
    assert src[caret.index("^"):].startswith("ｕnknown") and caret.endswith("^" + "~" * 6), (src, caret)
