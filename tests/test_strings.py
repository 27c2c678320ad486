"""Fixed-length strings in kernels: arrays and record fields of NumPy's
|S<n> (bytes) and <U<n> (str) dtypes, Numba's CharSeq and UnicodeCharSeq.
An element or field is assigned a literal of its kind or another string of
its kind, truncated to its length and padded with zero characters, and the
result is what NumPy's own assignment gives."""

import numpy as np
import pytest

from ptxjit import cuda, errors

ALPHABET = "abcXYZ019 éß€漢🙂"


def _words(rng, n, longest):
    return ["".join(rng.choice(list(ALPHABET), rng.integers(0, longest + 1))) for _ in range(n)]


@cuda.jit
def _put_str(a):
    i = cuda.grid(1)
    if i < a.size:
        if i % 3 == 0:
            a[i] = "XYZ"
        elif i % 3 == 1:
            a[i] = "é€漢🙂 and a long tail"
        else:
            a[i] = ""


@cuda.jit
def _put_bytes(a):
    i = cuda.grid(1)
    if i < a.size:
        if i % 2 == 0:
            a[i] = b"XYZ"
        else:
            a[i] = b"a\x00b\xffc and a long tail"


@pytest.mark.parametrize("n", [1, 4, 12, 40])
def test_str_literals_are_stored_as_numpy_stores_them(rng, n):
    a = np.array(_words(rng, 50, n + 3), dtype="<U%d" % n)
    want = a.copy()
    want[0::3], want[1::3], want[2::3] = "XYZ", "é€漢🙂 and a long tail", ""
    _put_str[1, 64](a)
    np.testing.assert_array_equal(a, want)
    assert a.tobytes() == want.tobytes()       # the padding too


@pytest.mark.parametrize("n", [1, 3, 12, 40])
def test_bytes_literals_are_stored_as_numpy_stores_them(rng, n):
    a = np.array([w.encode("utf-8")[:n] for w in _words(rng, 33, n)], dtype="S%d" % n)
    want = a.copy()
    want[0::2], want[1::2] = b"XYZ", b"a\x00b\xffc and a long tail"
    d = cuda.to_device(a)
    _put_bytes[1, 64](d)
    assert d.copy_to_host().tobytes() == want.tobytes()


@cuda.jit
def _copy(src, dst):
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = src[i]


@pytest.mark.parametrize("kind", ["U", "S"])
@pytest.mark.parametrize("ns, nd", [(8, 8), (8, 3), (3, 11)])
def test_strings_copy_between_arrays_of_any_length(rng, kind, ns, nd):
    words = _words(rng, 70, max(ns, nd) + 2)
    if kind == "S":
        words = [w.encode("utf-8") for w in words]
    src = np.array(words, dtype="%s%d" % (kind, ns))
    dst = np.array(words[::-1], dtype="%s%d" % (kind, nd))
    want = dst.copy()
    want[:] = src
    _copy[2, 64](src, dst)
    assert dst.tobytes() == want.tobytes()


def test_record_fields_of_both_kinds(rng):
    @cuda.jit
    def f(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i].x = i
            a[i]["u"] = "ABC"
            a[i].s = b"XYZW"
            if i % 2:
                a[i].u = a[i - 1].u
                a[i]["s"] = b""

    # packed: the strings lie at odd offsets
    dt = np.dtype([("x", np.int8), ("s", "S3"), ("u", "<U5"), ("f", np.float32)])
    a = np.zeros(9, dt)
    a["f"] = rng.standard_normal(9).astype(np.float32)
    want = a.copy()
    want["x"] = np.arange(9)
    want["u"] = "ABC"
    want["s"] = b"XYZW"
    want["s"][1::2] = b""
    f[1, 16](a)
    np.testing.assert_array_equal(a, want)
    assert a.tobytes() == want.tobytes()


def test_signatures_spell_the_types_as_numba():
    assert cuda.jit("void([unichr x 4][::1], [unichr x 12][::1])")(_copy.py_func) is not None
    _put_str[1, 1](np.zeros(1, "<U7"))
    assert "[unichr x 7][::1]" in str(_put_str.signatures)


@pytest.mark.parametrize("body, words", [
    ("a[0] = 'ab'", ["cannot store a str literal", "[char x 3]"]),
    ("a[0] = b[0]", ["cannot store [unichr x 2]", "[char x 3]"]),
    ("a[0] = 1.5", ["cannot store float64", "[char x 3]"]),
    ("x = b'ab'", ["bytes literals are supported only"]),
])
def test_wrong_stores_are_refused(body, words):
    src = "def k(a, b):\n    %s\n" % body
    ns = {}
    exec(compile(src, "<k>", "exec"), ns)
    with pytest.raises(errors.TypingError) as e:
        cuda.jit("void([char x 3][::1], [unichr x 2][::1])")(ns["k"])
    for w in words:
        assert w in str(e.value)


def test_a_sub_array_of_strings_in_a_record():
    @cuda.jit
    def f(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i].s[0] = b"ab"
            a[i].s[1] = b"overlong"
            a[i].u[i % 3] = "\u00e9t\u00e9"

    dt = np.dtype([("x", np.float64), ("s", "S4", (2,)), ("u", "<U2", (3,))])
    a = np.zeros(5, dt)
    want = a.copy()
    want["s"][:, 0] = b"ab"
    want["s"][:, 1] = b"overlong"
    for i in range(5):
        want["u"][i, i % 3] = "\u00e9t\u00e9"
    f[1, 8](a)
    assert a.tobytes() == want.tobytes()
