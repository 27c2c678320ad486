from numba import cuda

@cuda.jit
def gpu_reduce(in_array, out_array):
    thread_id = cuda.grid(1)
    stride = cuda.gridsize(1)
    temp_sum = 0.0
    for i in range(thread_id, in_array.shape[0], stride):
        temp_sum += in_array[i]
    cuda.atomic.add(out_array, 0, temp_sum)
