"""Evaluation order: every operand of a call, an operator or a statement
is evaluated once, in Python's order.

Each case is a statement whose operands are calls of device functions
that append their number to a[0] (a[0] = a[0] * 10 + v) and return it as
a float, an int, a complex or a float16.  The numbers are written in the
order Python evaluates the operands (an assignment's value before its
target's subscripts, a conditional expression's test first), so a[0]
must read 1, 12, 123...: a digit out of place is an operand evaluated out
of order, an extra digit one evaluated twice.  The cases that need no
CUDA intrinsic run through @njit too (the CPU target shares the lowering).
"""

import numpy as np
import pytest

from conftest import load_module

F, I, C, H = "tf(a, %d)", "ti(a, %d)", "tc(a, %d)", "th(a, %d)"


def _call_cases():
    out = []

    def add(expr, *kinds):
        args = [{"F": F, "I": I, "C": C, "H": H}[k] % (i + 1) for i, k in enumerate(kinds)]
        out.append(("r = " + expr.format(*args), len(kinds)))

    for f in ["math.atan2", "math.hypot", "math.copysign", "math.fmod", "math.remainder",
              "math.nextafter", "math.pow", "math.log", "np.arctan2", "np.hypot", "np.copysign",
              "np.nextafter", "np.fmod", "np.remainder", "np.power", "np.float_power", "np.logaddexp",
              "np.logaddexp2", "np.maximum", "np.minimum", "np.fmax", "np.fmin", "np.greater",
              "np.greater_equal", "np.less", "np.less_equal", "np.not_equal", "np.equal",
              "np.logical_and", "np.logical_or", "np.logical_xor", "np.add", "np.subtract",
              "np.multiply", "np.divide", "np.true_divide", "np.floor_divide", "np.mod", "np.divmod",
              "divmod", "pow", "min", "max", "complex"]:
        add(f + "({0}, {1})", "F", "F")
    for f in ["math.ldexp", "np.ldexp", "round"]:
        add(f + "({0}, {1})", "F", "I")
    for f in ["np.bitwise_and", "np.bitwise_or", "np.bitwise_xor", "np.left_shift",
              "np.right_shift", "np.gcd", "np.lcm", "pow", "divmod", "min", "max"]:
        add(f + "({0}, {1})", "I", "I")
    for f in ["math.sqrt", "math.floor", "math.trunc", "math.sin", "math.exp", "math.log",
              "math.erf", "math.gamma", "math.frexp", "math.modf", "math.isnan", "math.radians",
              "np.sqrt", "np.abs", "np.sin", "np.arctanh", "np.log1p", "np.square", "np.reciprocal",
              "np.negative", "np.positive", "np.sign", "np.signbit", "np.spacing", "np.frexp",
              "np.modf", "np.rint", "np.isinf", "np.logical_not", "abs", "int", "float", "bool",
              "round", "np.float32", "np.int8", "np.float16", "cuda.cbrt"]:
        add(f + "({0})", "F")
    for f in ["np.invert", "cuda.popc", "cuda.brev", "cuda.clz", "cuda.ffs", "np.abs", "np.sign"]:
        add(f + "({0})", "I")
    for f in ["cmath.sqrt", "cmath.exp", "cmath.log", "cmath.sin", "cmath.atanh", "cmath.phase",
              "cmath.polar", "cmath.isnan", "abs", "np.exp", "np.square", "np.reciprocal",
              "np.negative", "np.conjugate", "np.isfinite"]:
        add(f + "({0})", "C")
    for f in ["cuda.fp16.hneg", "cuda.fp16.hsin", "cuda.fp16.hrcp", "math.sqrt", "abs"]:
        add(f + "({0})", "H")
    add("min({0}, {1}, {2})", "F", "F", "F")
    add("max({0}, {1}, {2})", "I", "I", "I")
    add("cuda.fma({0}, {1}, {2})", "F", "F", "F")
    add("cuda.selp({0} > 0, {1}, {2})", "I", "F", "F")
    add("cmath.rect({0}, {1})", "F", "F")
    add("cmath.log({0}, {1})", "C", "C")
    add("cuda.fp16.hadd({0}, {1})", "H", "H")
    add("cuda.fp16.hfma({0}, {1}, {2})", "H", "H", "H")
    add("cuda.fp16.hmax({0}, {1})", "H", "H")
    add("cuda.fp16.hne({0}, {1})", "H", "H")
    add("cuda.atomic.add(arr, {0}, {1})", "I", "F")
    add("cuda.atomic.max(arr, {0}, {1})", "I", "F")
    add("cuda.atomic.add(m2, ({0}, {1}), {2})", "I", "I", "F")
    add("cuda.atomic.cas(iarr, {0}, {1}, {2})", "I", "I", "I")
    add("cuda.atomic.compare_and_swap(iarr[{0}:], {1}, {2})", "I", "I", "I")
    add("cuda.shfl_sync({0} * 0 + 1, {1}, {2} * 0)", "I", "F", "I")
    add("dev2({0}, {1})", "F", "F")
    return out


# operators and statements: (statement, number of calls)
_STATEMENTS = [
    ("r = tf(a, 1) + tf(a, 2) * tf(a, 3)", 3),
    ("r = tf(a, 1) ** tf(a, 2)", 2),
    ("r = tc(a, 1) ** tc(a, 2)", 2),
    ("r = tc(a, 1) * tc(a, 2)", 2),
    ("r = tc(a, 1) / tc(a, 2)", 2),
    ("r = ti(a, 1) // ti(a, 2)", 2),
    ("r = tf(a, 1) % tf(a, 2)", 2),
    ("r = ti(a, 1) < ti(a, 2) < ti(a, 3)", 3),
    ("r = ti(a, 1) == ti(a, 2)", 2),
    ("r = ti(a, 1) and ti(a, 2)", 2),
    ("r = ti(a, 1) * 0 or ti(a, 2)", 2),
    ("r = tf(a, 2) if ti(a, 1) else tf(a, 3)", 2),
    ("r = (ti(a, 1), tf(a, 2), tc(a, 3))", 3),
    ("r = arr[ti(a, 1)] + iarr[ti(a, 2)]", 2),
    ("r = m2[ti(a, 1), ti(a, 2)]", 2),
    ("arr[ti(a, 2)] = tf(a, 1)", 2),
    ("m2[ti(a, 2), ti(a, 3)] = tf(a, 1)", 3),
    ("arr[ti(a, 1)] += tf(a, 2)", 2),
    ("m2[ti(a, 1), ti(a, 2)] -= tf(a, 3)", 3),
    ("x, y = ti(a, 1), ti(a, 2)", 2),
    ("s = arr[ti(a, 1):ti(a, 2)]", 2),
    ("for q in range(ti(a, 1), ti(a, 2), ti(a, 3)):\n        pass", 3),
    ("r = complex(tf(a, 1), tf(a, 2)).imag", 2),
]

CASES = _call_cases() + _STATEMENTS

_SOURCE = '''
import cmath
import math

import numpy as np
from numba import cuda, njit


@cuda.jit(device=True)
def tf(a, v):
    a[0] = a[0] * 10 + v
    return np.float64(v) * 0.5 + 0.25


@cuda.jit(device=True)
def ti(a, v):
    a[0] = a[0] * 10 + v
    return v


@cuda.jit(device=True)
def tc(a, v):
    a[0] = a[0] * 10 + v
    return complex(v, 0.5)


@cuda.jit(device=True)
def th(a, v):
    a[0] = a[0] * 10 + v
    return np.float16(v)


@cuda.jit(device=True)
def dev2(x, y):
    return x - y
'''


def _on_cpu(stmt):
    return "cuda." not in stmt and "th(" not in stmt


def _module(tmp_path_factory, cpu):
    src = [_SOURCE.replace("@cuda.jit(device=True)", "@njit") if cpu else _SOURCE]
    for n, (stmt, _) in enumerate(CASES):
        if not cpu or _on_cpu(stmt):
            src.append("\n@%s\ndef k%d(a, arr, iarr, m2):\n    %s\n" % ("njit" if cpu else "cuda.jit", n, stmt))
    name = "eval_order_%s" % ("cpu" if cpu else "kernels")
    path = tmp_path_factory.mktemp(name) / (name + ".py")
    path.write_text("".join(src))
    return load_module(str(path), name)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    return _module(tmp_path_factory, False)


@pytest.fixture(scope="module")
def cpu_functions(tmp_path_factory):
    return _module(tmp_path_factory, True)


def _run(fn, n):
    stmt, calls = CASES[n]
    a = np.zeros(1, np.int64)
    arr = np.linspace(1.5, 9.0, 8)
    iarr = np.arange(1, 9, dtype=np.int64)
    m2 = np.linspace(1.0, 4.0, 16).reshape(4, 4)
    fn(a, arr, iarr, m2)
    want = int("".join(str(i + 1) for i in range(calls)))
    assert a[0] == want, "%s: the calls ran in the order %d" % (stmt, a[0])


_IDS = [c[0].split("\n")[0] for c in CASES]


@pytest.mark.parametrize("n", range(len(CASES)), ids=_IDS)
def test_operands_once_in_order(kernels, n):
    _run(getattr(kernels, "k%d" % n)[1, 1], n)


@pytest.mark.parametrize("n", [n for n, c in enumerate(CASES) if _on_cpu(c[0])],
                         ids=[i for i, c in zip(_IDS, CASES) if _on_cpu(c[0])])
def test_operands_once_in_order_njit(cpu_functions, n):
    _run(getattr(cpu_functions, "k%d" % n), n)
