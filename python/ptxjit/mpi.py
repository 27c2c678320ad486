"""Kernels on several GPUs through MPI: one rank per GPU, halo exchange.

mpi4py and an MPI library are not dependencies of ptxjit (``pip install
mpi4py mpich`` brings both, or build mpi4py against the MPI of a cluster);
this module imports mpi4py when one of its functions is called.

    from ptxjit import mpi
    mpi.bind_gpu()                  # before the first CUDA call of the process
    from ptxjit import cuda
    ...
    mpi.exchange_halos(d_u)         # ghost rows from the neighbouring ranks

A rank's array holds its part of a domain split along axis 0, in rank
order, with `width` ghost rows at each end.  By default the rows travel
through host memory (NumPy buffers), which every MPI accepts; with
``device_buffers=True`` the device array itself is handed to MPI, which only
a CUDA-aware MPI may read (cuda_aware() tells; asking for it on another MPI
raises RuntimeError instead of letting MPI read device memory as host
memory).  On the simulator (PTXJIT_SIM=1) device arrays live in host memory,
so both ways work on any MPI once PTXJIT_MPI_CUDA_AWARE=1 says so.
"""

import ctypes
import os
import re
import sys

import numpy as np

from ._gpus import cuda_started, gpu_count, visible_ids


def _mpi():
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise ImportError("ptxjit.mpi needs mpi4py and an MPI library (pip install mpi4py mpich, or mpi4py "
                          "built against the cluster's MPI): %s" % e) from None
    return MPI


def _world(comm):
    return _mpi().COMM_WORLD if comm is None else comm


def local_rank(comm=None):
    """This process's rank among the ranks of `comm` (COMM_WORLD by
    default) that run on the same machine."""
    MPI = _mpi()
    node = _world(comm).Split_type(MPI.COMM_TYPE_SHARED)
    try:
        return node.Get_rank()
    finally:
        node.Free()


def bind_gpu(comm=None):
    """Makes this rank see one GPU, number local_rank() % gpu_count() of
    those it may use, by setting CUDA_VISIBLE_DEVICES; ranks share GPUs
    when there are more ranks than GPUs on a machine.  Call it before the
    first CUDA call of the process (ptxjit opens the driver at its first
    use, not at import).  Returns the value set, or None when there is no
    GPU to choose (the simulator on a machine without one)."""
    if cuda_started():
        raise RuntimeError("ptxjit.mpi.bind_gpu() comes too late: the CUDA driver is already loaded in this "
                           "process and reads CUDA_VISIBLE_DEVICES only once; call it before the first kernel, "
                           "device array or cuda.* call (and before CuPy or another CUDA library starts)")
    n = gpu_count()
    rank = local_rank(comm)
    if n == 0:
        return None
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    ids = visible_ids(visible) if visible is not None else [str(i) for i in range(n)]
    os.environ["CUDA_VISIBLE_DEVICES"] = ids[rank % n]
    return ids[rank % n]


def _mpi_libraries():
    """The MPI shared libraries loaded in this process (mpi4py's)."""
    found = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if re.match(r"lib(mpi|mpich|pmpi)\w*\.so", os.path.basename(path)) and path not in found:
                    found.append(path)
    except OSError:
        pass
    return found


def _library_name():
    MPI = sys.modules.get("mpi4py.MPI")        # not started here only to be named
    if MPI is None:
        return "not started yet"
    return " ".join(MPI.Get_library_version().splitlines()[0].split())


def cuda_aware():
    """True when the MPI library takes device memory in its calls
    (CUDA-aware): PTXJIT_MPI_CUDA_AWARE=1 or 0 when set, else what the
    library says: Open MPI's and MPICH's MPIX_Query_cuda_support(), or
    MPICH's MPIX_GPU_query_support(CUDA).  False for a library that has
    neither (set PTXJIT_MPI_CUDA_AWARE=1 for one known to be CUDA-aware)."""
    env = os.environ.get("PTXJIT_MPI_CUDA_AWARE", "")
    if env in ("0", "1"):
        return env == "1"
    if env:
        raise ValueError("PTXJIT_MPI_CUDA_AWARE=%r: set it to 1 (the MPI is CUDA-aware) or 0 (it is not), or "
                         "leave it unset to ask the MPI library" % env)
    _mpi()      # initialises MPI: the queries need it
    for path in _mpi_libraries():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        if hasattr(lib, "MPIX_Query_cuda_support"):
            return lib.MPIX_Query_cuda_support() == 1
        if hasattr(lib, "MPIX_GPU_query_support"):
            flag = ctypes.c_int(0)
            return lib.MPIX_GPU_query_support(0, ctypes.byref(flag)) == 0 and flag.value == 1
    return False


def exchange_halos(u, comm=None, width=1, device_buffers=False):
    """Fills the ghost rows of `u` from the neighbouring ranks of `comm`
    (COMM_WORLD by default).  `u` is this rank's device array (a ptxjit one,
    or any with __cuda_array_interface__, such as CuPy's) of the domain split
    along axis 0 in rank order, with `width` ghost rows at each end: rows
    [0, width) receive rank-1's last `width` interior rows, and the last
    `width` rows rank+1's first; an end without a neighbour is left as it
    is (the domain's boundary).  Blocks until both exchanges are done.

    The rows go through host memory unless device_buffers=True, which hands
    the device memory to MPI and needs a CUDA-aware MPI (cuda_aware())."""
    from . import cuda
    if not cuda.is_cuda_array(u):
        raise TypeError("exchange_halos: u must be a device array (cuda.to_device, cuda.device_array, or an "
                        "array with __cuda_array_interface__), not %s" % type(u).__name__)
    u = cuda.as_cuda_array(u)
    if not isinstance(width, (int, np.integer)) or width < 1:
        raise ValueError("exchange_halos: width must be a positive int, not %r" % (width,))
    if u.ndim < 1 or u.shape[0] < 3 * width:
        raise ValueError("exchange_halos: u has shape %s; it needs at least %d rows along axis 0 (%d ghost "
                         "rows at each end around at least %d interior ones)"
                         % (u.shape, 3 * width, width, width))
    if device_buffers:
        if not cuda_aware():
            raise RuntimeError("exchange_halos(device_buffers=True): this MPI (%s) is not CUDA-aware, so it "
                               "cannot read device memory; leave device_buffers off to send the halos through "
                               "host memory, use a CUDA-aware MPI, or set PTXJIT_MPI_CUDA_AWARE=1 if it is one "
                               "that ptxjit cannot ask" % _library_name())
        if not u.is_c_contiguous():
            raise ValueError("exchange_halos(device_buffers=True): u must be C-contiguous, so that its rows "
                             "are one block of memory each (strides %s)" % (u.strides,))
    MPI = _mpi()
    comm = _world(comm)
    rank, size = comm.Get_rank(), comm.Get_size()
    left = rank - 1 if rank > 0 else MPI.PROC_NULL
    right = rank + 1 if rank < size - 1 else MPI.PROC_NULL
    n, w = u.shape[0], width
    # first interior rows go left while the right ghost rows arrive; then the other way
    for send, recv, dest, source in ((u[w:2 * w], u[n - w:], left, right),
                                     (u[n - 2 * w:n - w], u[:w], right, left)):
        if device_buffers:
            cuda.synchronize()          # the kernels that wrote `send` have finished
            comm.Sendrecv(send, dest=dest, recvbuf=recv, source=source)
            continue
        host_send = send.copy_to_host()
        host_recv = np.empty_like(host_send)
        comm.Sendrecv(host_send, dest=dest, recvbuf=host_recv, source=source)
        if source != MPI.PROC_NULL:
            recv.copy_to_device(host_recv)
