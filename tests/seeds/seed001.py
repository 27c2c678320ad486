# Seed 001 (shared/seeds/001_34f3c02015a35977.txt) with only the import
# changed; the script's body is the function main() so that a test can
# run it (n is the seed's 1000000 unless a test asks for less).
import ptxjit as numba
import numpy as np

@numba.cuda.jit
def add_arrays_cuda(x, y, out):
    idx = numba.cuda.grid(1)
    if idx < out.size:
        out[idx] = x[idx] + y[idx]

def main(n=1000000):
    # Create sample data on the host
    host_x = np.arange(n, dtype=np.float32)
    host_y = np.arange(n, dtype=np.float32) * 2

    # Allocate memory on the device and copy data
    device_x = numba.cuda.to_device(host_x)
    device_y = numba.cuda.to_device(host_y)
    device_out = numba.cuda.device_array_like(host_x)

    # Configure the kernel launch
    threads_per_block = 128
    blocks_per_grid = (host_x.size + (threads_per_block - 1)) // threads_per_block

    # Launch the kernel
    add_arrays_cuda[blocks_per_grid, threads_per_block](device_x, device_y, device_out)

    # Copy the result back to the host
    host_out = device_out.copy_to_host()

    print(host_out[:10])
    # Expected output: [  0.   3.   6.   9.  12.  15.  18.  21.  24.  27.]
    return host_x, host_y, host_out
