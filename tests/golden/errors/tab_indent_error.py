# An unknown name in a kernel indented with tabs: the column counts a tab as one.
# sig: void(float32[::1])
# error: undefined_thing
# line: 12
from ptxjit import cuda


@cuda.jit
def k(x):
	i = cuda.grid(1)
	if i < x.size:
		x[i] = undefined_thing
