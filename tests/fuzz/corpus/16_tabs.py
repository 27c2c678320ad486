from numba import cuda

@cuda.jit
def k(a, n):
	i = cuda.grid(1)
	if i < n:
		a[i] = \
			a[i] * 2
		b = (1,
	2)
