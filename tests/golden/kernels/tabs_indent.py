# Indentation with tabs.
# sig: void(int64[::1])
from ptxjit import cuda


@cuda.jit
def tabs(out):
	i = cuda.grid(1)
	if i < out.size:
		if i % 2 == 0:
			out[i] = i
		else:
			out[i] = -i
