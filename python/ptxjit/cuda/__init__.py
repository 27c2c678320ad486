"""ptxjit.cuda: Numba's `cuda` namespace, compiled by ptxjit.

    from ptxjit import cuda

    @cuda.jit
    def add(x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] + y[i]

    add[blocks, threads](x, y, out)

Kernels run on the GPU through the CUDA driver (libcuda.so.1, opened at the
first use), or on the CPU simulator when PTXJIT_SIM=1 (or Numba's
NUMBA_ENABLE_CUDASIM=1) is set before import, or cuda.use_simulator() is
called before the first kernel; PTXJIT_SIM_CHECK=uninit,race adds the
simulator's optional checks.  Numba's other settings (NUMBA_DISABLE_CUDA,
NUMBA_CUDA_DEBUGINFO, ...) are read too: see ptxjit.cuda.config.

NumPy arrays passed to a kernel are copied to the GPU before the launch and
the ones the kernel writes are copied back after it (the call returns when
they are back).  The copies go through a ring of pinned buffers, host memcpy
overlapped with the DMA; PTXJIT_TRANSFER=register page-locks big arrays for
the launch instead, PTXJIT_TRANSFER=driver leaves pageable copies to the
driver; PTXJIT_COPY_THREADS and PTXJIT_STAGE_CHUNK (bytes, "1M") tune the
ring.  Arrays from cuda.pinned_array are copied without staging.
"""

from .. import _core
from ..errors import (  # noqa: F401
    CudaAPIError, CudaDriverError, CudaSupportError, TypingError, InternalCompilerError,
    SimulatorError, SimIndexError, DeadlockError, TrapError, UninitializedReadError, RaceError,
    NumbaWarning, NumbaPerformanceWarning, NumbaInvalidConfigWarning,
)
from . import config  # noqa: F401  (reads Numba's settings from the environment)
from .api import (  # noqa: F401
    Context, Device, Event, MemoryInfo, Stream,
    as_cuda_array, close, cuda_error, current_context, default_stream, defer_cleanup, detect,
    device_array, device_array_like, event, event_elapsed_time, external_stream, from_cuda_array_interface,
    get_current_device, gpus, is_available, is_bfloat16_supported, is_cuda_array, is_float16_supported,
    is_fp8_supported,
    is_supported_version,
    legacy_default_stream, list_devices, managed_array, mapped, mapped_array, mapped_array_like, pinned, pinned_array,
    pinned_array_like, per_thread_default_stream, profile_start, profile_stop, profiling, require_context, select_device,
    simulator_active, stream, synchronize, to_device,
)
from .devicearray import DeviceNDArray  # noqa: F401
from .memkinds import ManagedNDArray, MappedNDArray  # noqa: F401
from .ipc import IpcArrayHandle, open_ipc_array  # noqa: F401
from .emm import (  # noqa: F401
    AutoFreePointer, BaseCUDAMemoryManager, GetIpcHandleMixin, HostOnlyCUDAMemoryManager, IpcHandle,
    MappedMemory, MemoryPointer, NumbaCUDAMemoryManager, PinnedMemory, set_memory_manager,
)
from .graph import Graph, graph  # noqa: F401
from .dlpack import from_dlpack  # noqa: F401
from . import libdevice  # noqa: F401,E402
from .vector_types import STUBS as _VECTOR_STUBS  # noqa: E402
globals().update(_VECTOR_STUBS)     # cuda.float32x3, cuda.float3, ...
from .args import In, InOut, Out  # noqa: F401
from . import launchconfig, nvrtc  # noqa: F401,E402
from .linkable import (  # noqa: F401
    LinkableCode, PTXSource, CUSource, Cubin, Fatbin, Object, Archive, LTOIR, declare_device,
)
from . import bf16  # noqa: F401,E402
from . import fp8  # noqa: F401,E402
from .dispatcher import (  # noqa: F401
    CUDADispatcher, compile, compile_all, compile_for_current_device, compile_ptx, compile_ptx_for_current_device, jit,
)
from .stubs import (  # noqa: F401
    threadIdx, blockIdx, blockDim, gridDim, laneid, warpsize,
    grid, gridsize, syncthreads, syncthreads_count, syncthreads_and, syncthreads_or, syncwarp,
    threadfence, threadfence_block, threadfence_system,
    shfl_sync, shfl_up_sync, shfl_down_sync, shfl_xor_sync,
    all_sync, any_sync, eq_sync, ballot_sync, match_any_sync, match_all_sync,
    activemask, lanemask_lt, popc, brev, clz, ffs, fma, cbrt, selp, nanosleep,
    ldca, ldcg, ldcs, ldlu, ldcv, stcg, stcs, stwb, stwt,
    shared, local, const, atomic, fp16, cg,
)
from .misc.special import literal_unroll  # noqa: F401,E402
from ..np.numpy_support import carray, farray  # noqa: F401,E402  (arrays over pointers, in kernels too)


def is_simulator():
    """True when kernels run on the CPU simulator (PTXJIT_SIM=1 or
    NUMBA_ENABLE_CUDASIM=1 at import, or cuda.use_simulator())."""
    return _core.is_simulator()


def use_simulator():
    """Runs kernels on the CPU simulator from now on, as PTXJIT_SIM=1 in the
    environment would.  Call it before the first kernel is compiled and
    before anything uses the GPU; later, it raises RuntimeError."""
    _core.use_simulator()
    config.ENABLE_CUDASIM = True
    config.DISABLE_CUDA = False


from .reduction import Reduce, reduce  # noqa: F401,E402


def vectorize(*args, **kwargs):
    """numba.cuda.vectorize: ptxjit.vectorize with target='cuda'."""
    from ..ufunc import vectorize as _v
    kwargs.setdefault("target", "cuda")
    return _v(*args, **kwargs)


def guvectorize(*args, **kwargs):
    """numba.cuda.guvectorize: ptxjit.guvectorize with target='cuda'."""
    from ..ufunc import guvectorize as _g
    kwargs.setdefault("target", "cuda")
    return _g(*args, **kwargs)


def __getattr__(name):
    if name in ("random", "driver", "devices"):   # cuda.random without importing ptxjit.cuda.random
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError("module 'ptxjit.cuda' has no attribute %r" % (name,))


def _memory_manager_from_environment():
    """NUMBA_CUDA_MEMORY_MANAGER=module: the module's _numba_memory_manager
    becomes the memory manager ("default" or unset: the built-in one)."""
    import os
    name = os.environ.get("NUMBA_CUDA_MEMORY_MANAGER", "").strip()
    if name and name != "default":
        import importlib
        try:
            cls = importlib.import_module(name)._numba_memory_manager
        except (ImportError, AttributeError) as e:
            raise RuntimeError("NUMBA_CUDA_MEMORY_MANAGER=%s: cannot load the memory manager (%s); the module "
                               "must define _numba_memory_manager" % (name, e)) from None
        set_memory_manager(cls)


_memory_manager_from_environment()
