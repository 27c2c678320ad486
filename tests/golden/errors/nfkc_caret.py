# Names are compared in NFKC (fi is the ligature's normal form); the column
# and the caret of an error count the characters of the line as written.
# sig: void(float64[::1])
# error: name 'unknown' is not defined
# line: 13
from ptxjit import cuda


@cuda.jit
def k(ｘ):
    ﬁ = 2.0
    ｘ[0] = fi
    x[1] = ｘ[0] + ｕnknown
