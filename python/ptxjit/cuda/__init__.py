"""ptxjit.cuda: Numba's `cuda` namespace, compiled by ptxjit.

    from ptxjit import cuda

    @cuda.jit
    def add(x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] + y[i]

    add[blocks, threads](x, y, out)

Kernels run on the GPU through the CUDA driver (libcuda.so.1, opened at the
first use), or on the CPU simulator when PTXJIT_SIM=1 is set before import;
PTXJIT_SIM_CHECK=uninit,race adds the simulator's optional checks.
"""

from .. import _core
from ..errors import (  # noqa: F401
    CudaAPIError, CudaDriverError, CudaSupportError, TypingError, InternalCompilerError,
    SimulatorError, SimIndexError, DeadlockError, TrapError, UninitializedReadError, RaceError,
)
from .api import (  # noqa: F401
    Context, Device, Event, MemoryInfo, Stream,
    as_cuda_array, close, current_context, default_stream, defer_cleanup, detect,
    device_array, device_array_like, event, event_elapsed_time, from_cuda_array_interface,
    get_current_device, gpus, is_available, is_cuda_array, legacy_default_stream, list_devices,
    managed_array, mapped_array, pinned, pinned_array, pinned_array_like, profile_start,
    profile_stop, profiling, require_context, select_device, simulator_active, stream,
    synchronize, to_device,
)
from .devicearray import DeviceNDArray  # noqa: F401
from .dispatcher import CUDADispatcher, compile, compile_ptx, compile_ptx_for_current_device, jit  # noqa: F401
from .stubs import (  # noqa: F401
    threadIdx, blockIdx, blockDim, gridDim, laneid, warpsize,
    grid, gridsize, syncthreads, syncthreads_count, syncthreads_and, syncthreads_or, syncwarp,
    threadfence, threadfence_block, threadfence_system,
    shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync,
    all_sync, any_sync, eq_sync, ballot_sync, match_any_sync, match_all_sync,
    activemask, lanemask_lt, popc, brev, clz, ffs, fma, cbrt, selp, nanosleep,
    shared, local, const, atomic,
)


def is_simulator():
    """True when kernels run on the CPU simulator (PTXJIT_SIM=1 at import)."""
    return _core.is_simulator()
