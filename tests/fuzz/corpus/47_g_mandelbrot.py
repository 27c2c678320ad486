# Mandelbrot set in float64: a while loop that leaves with break, the
# count stored into a uint8 image.
# sig: void(float64, float64, float64, float64, int64, uint8[:, ::1])
# golden: ast, opt
from ptxjit import cuda


@cuda.jit
def mandel(min_x, max_x, min_y, max_y, iters, image):
    height = image.shape[0]
    width = image.shape[1]
    pixel_size_x = (max_x - min_x) / width
    pixel_size_y = (max_y - min_y) / height
    x, y = cuda.grid(2)
    if x < width and y < height:
        c_re = min_x + x * pixel_size_x
        c_im = min_y + y * pixel_size_y
        z_re = 0.0
        z_im = 0.0
        count = iters
        i = 0
        while i < iters:
            zr2 = z_re * z_re
            zi2 = z_im * z_im
            if zr2 + zi2 >= 4.0:
                count = i
                break
            z_im = 2.0 * z_re * z_im + c_im
            z_re = zr2 - zi2 + c_re
            i += 1
        image[y, x] = count
