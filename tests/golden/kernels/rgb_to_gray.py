# RGB uint8 image to gray in integer arithmetic; r, g, b from three loads.
# sig: void(uint8[:, :, ::1], uint8[:, ::1])
from ptxjit import cuda


@cuda.jit
def rgb_to_gray(img, gray):
    i, j = cuda.grid(2)
    if i < img.shape[0] and j < img.shape[1]:
        r, g, b = img[i, j, 0], img[i, j, 1], img[i, j, 2]
        gray[i, j] = (r * 299 + g * 587 + b * 114) // 1000
