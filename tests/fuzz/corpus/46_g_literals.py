# Literal spellings, comments, line continuations (backslash and
# brackets), an annotated assignment, pass.
# sig: void(float64[:, ::1])
from ptxjit import cuda


@cuda.jit
def literals(out):   # a comment after the def
    i = cuda.grid(1)
    if i < out.shape[0]:
        # 1000 + 31 + 15 + 5
        out[i, 0] = 1_000 + 0x1f + 0o17 + 0b101
        out[i, 1] = 1e-3 + 2.5E2 + .5 + 3.
        out[i, 2] = (i +
                     1) * \
            2
        total: int = 0
        total += (
            i
            * 3   # inside brackets
        )
        out[i, 3] = total
        out[i, 4] = 1 if True and not False else 0
        if i < 0:
            pass
        out[i, 5] = 0XFF + 1_0.5e1_0 * 0
