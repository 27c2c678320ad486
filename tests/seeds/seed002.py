# Seed 002 (shared/seeds/002_301fc92f4379e825.txt), the @cuda.jit parts,
# with only the import changed.  The CPU @jit functions are in
# seed002_cpu.py.  The example usage is in functions with the sizes as
# parameters; the image is random (the seed opens input.jpg with PIL).
import numpy as np
from ptxjit import cuda


@cuda.jit
def gpu_matrix_mult(A, B, C):
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        for k in range(A.shape[1]):
            C[i, j] += A[i, k] * B[k, j]


def example_matrix(n=1024, seed=0):
    np.random.seed(seed)
    A = np.random.rand(n, n)
    B = np.random.rand(n, n)
    C_gpu = np.zeros_like(A)

    threads_per_block = (32, 32)
    blocks_per_grid_x = (A.shape[0] + threads_per_block[0] - 1) // threads_per_block[0]
    blocks_per_grid_y = (B.shape[1] + threads_per_block[1] - 1) // threads_per_block[1]
    blocks_per_grid = (blocks_per_grid_x, blocks_per_grid_y)

    gpu_matrix_mult[blocks_per_grid, threads_per_block](A, B, C_gpu)
    return A, B, C_gpu


@cuda.jit
def gpu_grayscale(image_data, result):
    i, j = cuda.grid(2)
    if i < image_data.shape[0] and j < image_data.shape[1]:
        r, g, b = image_data[i, j]
        gray = int(0.2989 * r + 0.5870 * g + 0.1140 * b)
        result[i, j] = (gray, gray, gray)


def example_grayscale(height=480, width=640, seed=0):
    image_data = np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)
    result_gpu = np.zeros_like(image_data)

    threads_per_block = (16, 16)
    blocks_per_grid_x = (image_data.shape[0] + threads_per_block[0] - 1) // threads_per_block[0]
    blocks_per_grid_y = (image_data.shape[1] + threads_per_block[1] - 1) // threads_per_block[1]
    blocks_per_grid = (blocks_per_grid_x, blocks_per_grid_y)

    gpu_grayscale[blocks_per_grid, threads_per_block](image_data, result_gpu)
    return image_data, result_gpu
