# Seed 002, the CPU @jit(nopython=True) functions, with only the import
# changed.  They need ptxjit's CPU compiler.
import numpy as np
from ptxjit import jit

@jit(nopython=True)
def cpu_matrix_mult(A, B):
    C = np.zeros_like(A)
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            for k in range(A.shape[1]):
                C[i, j] += A[i, k] * B[k, j]
    return C

@jit(nopython=True)
def cpu_fibonacci(n):
    if n <= 1:
        return n
    else:
        return cpu_fibonacci(n-1) + cpu_fibonacci(n-2)

@jit(nopython=True)
def cpu_grayscale(image_data):
    result = np.copy(image_data)
    for i in range(result.shape[0]):
        for j in range(result.shape[1]):
            r, g, b = image_data[i, j]
            gray = int(0.2989 * r + 0.5870 * g + 0.1140 * b)
            result[i, j] = (gray, gray, gray)
    return result
