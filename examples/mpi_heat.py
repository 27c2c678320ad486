"""The heat equation on a 2-D plate, split between MPI ranks, one GPU each:
each rank owns a band of rows with a ghost row above and below, and the
ranks swap their edge rows (a halo exchange) before every step.  Rank 0
gathers the plate and compares it with the same steps in one process.

    mpiexec -n 2 python3 examples/mpi_heat.py [--rows N] [--cols N] [--steps N]
        [--device-buffers] [--out FILE.npy]

Rank r uses GPU r % (GPUs on its machine), set through CUDA_VISIBLE_DEVICES
before the first CUDA call; without a GPU the ranks run on ptxjit's
simulator.  The halo rows go through host memory; --device-buffers hands
the device arrays to MPI, which only a CUDA-aware MPI accepts (ptxjit says
so with a RuntimeError on another).  Needs mpi4py and an MPI library
(pip install mpi4py mpich).
"""
import argparse
import os
import sys
import warnings

# PTXJIT_SIM is read when ptxjit is imported, and the CUDA driver must not
# start before each rank has chosen its GPU: look for one without it.
if "PTXJIT_SIM" not in os.environ and not (os.path.isdir("/proc/driver/nvidia/gpus")
                                           and os.listdir("/proc/driver/nvidia/gpus")):
    os.environ["PTXJIT_SIM"] = "1"

import numpy as np  # noqa: E402
from ptxjit import cuda  # noqa: E402
from ptxjit.errors import NumbaPerformanceWarning  # noqa: E402

warnings.simplefilter("ignore", NumbaPerformanceWarning)   # small grids, on purpose

TPB = (8, 16)


@cuda.jit
def heat_step(u, out, r):
    i, j = cuda.grid(2)
    if 1 <= i < u.shape[0] - 1 and 1 <= j < u.shape[1] - 1:
        out[i, j] = u[i, j] + r * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j])


def initial_plate(rows, cols, seed=1):
    """A (rows + 2) x (cols + 2) plate of random temperatures; the outer
    rows and columns are the boundary, held fixed."""
    return np.random.default_rng(seed).uniform(0.5, 1.5, (rows + 2, cols + 2))


def band(rows, rank, size):
    """The plate rows [lo, hi) that `rank` computes (interior rows lo..hi-1
    of 1..rows)."""
    edges = np.linspace(0, rows, size + 1).astype(int) + 1
    return edges[rank], edges[rank + 1]


def run_steps(u0, steps, r, exchange=None):
    """`steps` steps on the device from the array u0 (ghost or boundary
    rows and columns included); exchange(d_u) fills the ghost rows first."""
    d_u = cuda.to_device(u0)
    d_v = cuda.to_device(u0)         # the boundary stays fixed in both buffers
    blocks = ((u0.shape[0] + TPB[0] - 1) // TPB[0], (u0.shape[1] + TPB[1] - 1) // TPB[1])
    for _ in range(steps):
        if exchange is not None:
            exchange(d_u)
        heat_step[blocks, TPB](d_u, d_v, r)
        d_u, d_v = d_v, d_u
    return d_u.copy_to_host()


def one_process(plate, steps, r):
    """The same steps on the whole plate in this process."""
    return run_steps(plate, steps, r)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=64)
    p.add_argument("--cols", type=int, default=48)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--device-buffers", action="store_true",
                   help="pass device arrays to MPI (needs a CUDA-aware MPI)")
    p.add_argument("--out", help="rank 0 saves the gathered plate here (.npy)")
    args = p.parse_args(argv)

    from ptxjit import mpi
    gpu = mpi.bind_gpu()              # before the first CUDA call of this rank
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    if args.rows < size:
        if rank == 0:
            print("--rows must be at least the number of ranks (%d)" % size, file=sys.stderr)
        return 2

    r = 0.2
    plate = initial_plate(args.rows, args.cols)
    lo, hi = band(args.rows, rank, size)
    mine = run_steps(plate[lo - 1:hi + 1], args.steps, r,
                     lambda d_u: mpi.exchange_halos(d_u, comm, device_buffers=args.device_buffers))
    parts = comm.gather(mine[1:-1], root=0)
    where = "the simulator" if cuda.simulator_active() else "GPU %s" % gpu
    print("rank %d of %d: rows %d..%d on %s" % (rank, size, lo, hi - 1, where), flush=True)
    if rank != 0:
        return 0
    result = plate.copy()
    result[1:-1] = np.concatenate(parts)
    expect = one_process(plate, args.steps, r)
    same = np.array_equal(result, expect)
    print("MPI is CUDA-aware: %s; halos through %s memory" % (
        "yes" if mpi.cuda_aware() else "no", "device" if args.device_buffers else "host"))
    print("%d ranks, %d steps on a %dx%d plate: %s the one-process result"
          % (size, args.steps, args.rows, args.cols, "equals" if same else "DIFFERS from"), flush=True)
    if args.out:
        np.save(args.out, result)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
