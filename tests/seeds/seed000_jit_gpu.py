# Seed 000, example 2: @jit(target='gpu'), with only the import changed.
import numpy as np
from ptxjit import jit

@jit(target='gpu')
def add_gpu(x, y):
    return x + y

def main_jit_gpu():
    N = 1024
    x = np.arange(N, dtype=np.float32)
    y = np.arange(N, dtype=np.float32)
    out = add_gpu(x, y)

    print(out[:5])
    return out
