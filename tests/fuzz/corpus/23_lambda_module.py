from numba import cuda
import numpy as np

square = cuda.jit(device=True)(lambda x: x * x)
SCALE = np.float64(2.5)
VALUES = [1, 2, 3]

@cuda.jit
def k(a):
    i = cuda.grid(1)
    a[i] = square(a[i]) + SCALE

if __name__ == "__main__":
    a = np.zeros(10)
    k[1, 10](a)
