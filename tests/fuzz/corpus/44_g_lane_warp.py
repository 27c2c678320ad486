# cuda.laneid and cuda.warpsize.
# sig: void(int32[::1], int32[::1], int32[::1])
from ptxjit import cuda


@cuda.jit
def lane_ids(lane, warp, wid):
    i = cuda.grid(1)
    if i < lane.size:
        lane[i] = cuda.laneid
        warp[i] = cuda.warpsize
        wid[i] = cuda.threadIdx.x // cuda.warpsize
