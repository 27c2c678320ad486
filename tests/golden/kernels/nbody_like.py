# All-pairs softened accelerations in float32.
# sig: void(float32[:, ::1], float32[:, ::1], float32)
import math
import numpy as np
from ptxjit import cuda


@cuda.jit
def accel(pos, acc, eps2):
    i = cuda.grid(1)
    n = pos.shape[0]
    if i < n:
        xi = pos[i, 0]
        yi = pos[i, 1]
        zi = pos[i, 2]
        ax = np.float32(0)
        ay = np.float32(0)
        az = np.float32(0)
        for j in range(n):
            dx = pos[j, 0] - xi
            dy = pos[j, 1] - yi
            dz = pos[j, 2] - zi
            d2 = dx * dx + dy * dy + dz * dz + eps2
            inv = np.float32(1) / (d2 * math.sqrt(d2))
            ax += dx * inv
            ay += dy * inv
            az += dz * inv
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az
