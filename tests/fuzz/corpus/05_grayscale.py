from numba import cuda

@cuda.jit
def gpu_grayscale(image_data, result):
    i, j = cuda.grid(2)
    if i < image_data.shape[0] and j < image_data.shape[1]:
        r, g, b = image_data[i, j]
        gray = int(0.2989 * r + 0.5870 * g + 0.1140 * b)
        result[i, j] = (gray, gray, gray)
