"""ptxjit under MPI: examples/mpi_heat.py on 2 ranks (mpiexec -n 2), a 2-D
heat equation split by rows with a halo exchange before every step, gives
the one-process result bit for bit; device buffers on an MPI that is not
CUDA-aware are refused with a RuntimeError, not a crash.

mpi4py and an MPI library are test-only dependencies (pyproject's [test]
extra installs mpi4py and MPICH's wheel); without them these tests skip and
say why.  On the simulator the ranks run there; under PTXJIT_TEST_GPU=1
rank r uses GPU r % (GPUs on the machine)."""

import importlib.util
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import ptxjit
from conftest import ON_GPU, ROOT, load_module

EXAMPLE = os.path.join(ROOT, "examples", "mpi_heat.py")


def _mpiexec():
    """(the mpiexec command for mpi4py's MPI, or None; why not)."""
    if importlib.util.find_spec("mpi4py") is None:
        return None, "mpi4py is not installed (pip install -e .[test] installs it with MPICH's wheel)"
    # MPICH's wheel puts mpiexec beside the Python of its environment
    here = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    exe = here if os.access(here, os.X_OK) else shutil.which("mpiexec")
    if exe is None:
        return None, "mpi4py is installed but no mpiexec is on the PATH"
    try:
        version = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as e:
        return None, "%s --version failed: %s" % (exe, e)
    cmd = [exe]
    if "Open MPI" in version or "OpenRTE" in version:
        cmd.append("--oversubscribe")            # 2 ranks on fewer cores
    return cmd, None


MPIEXEC, WHY = _mpiexec()
if "libasan" in os.environ.get("LD_PRELOAD", ""):
    # make asan-py: MPI's processes are not instrumented (make pytest runs these)
    MPIEXEC, WHY = None, "the MPI ranks do not run under AddressSanitizer's preload (make pytest runs them)"
pytestmark = pytest.mark.skipif(MPIEXEC is None, reason=WHY or "")


def run_ranks(*args, env=None, timeout=120):
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(ptxjit.__file__)),
                                       e.get("PYTHONPATH", "")])
    # Open MPI refuses to start as root without these; MPICH ignores them
    e.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    e.pop("PTXJIT_MPI_CUDA_AWARE", None)
    e.update(env or {})
    return subprocess.run(MPIEXEC + ["-n", "2", sys.executable, EXAMPLE] + list(args), env=e,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def heat():
    return load_module(EXAMPLE, "example_mpi_heat")


def numpy_heat(plate, steps, r):
    u = plate.copy()
    for _ in range(steps):
        v = u.copy()
        v[1:-1, 1:-1] = u[1:-1, 1:-1] + r * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                                             - 4.0 * u[1:-1, 1:-1])
        u = v
    return u


def check_two_ranks(heat, tmp_path, *args, env=None):
    out = str(tmp_path / "plate.npy")
    r = run_ranks("--rows", "40", "--cols", "24", "--steps", "12", "--out", out, *args, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "rank 0 of 2" in r.stdout and "rank 1 of 2" in r.stdout, r.stdout
    got = np.load(out)
    plate = heat.initial_plate(40, 24)
    one = heat.one_process(plate, 12, 0.2)
    assert np.array_equal(got, one), "2 ranks differ from one process at %d elements" % np.sum(got != one)
    assert not np.array_equal(one, plate)
    np.testing.assert_allclose(one, numpy_heat(plate, 12, 0.2), rtol=1e-13, atol=0)
    return r.stdout


def test_two_ranks_host_halos_equal_one_process(heat, tmp_path):
    stdout = check_two_ranks(heat, tmp_path)
    assert "halos through host memory" in stdout
    where = "GPU" if ON_GPU else "the simulator"
    assert stdout.count(where) == 2, stdout


def test_device_buffers_on_an_mpi_that_is_not_cuda_aware_raise():
    r = run_ranks("--rows", "8", "--cols", "8", "--steps", "2", "--device-buffers",
                  env={"PTXJIT_MPI_CUDA_AWARE": "0"})
    assert r.returncode > 0, "rc %d\n%s%s" % (r.returncode, r.stdout, r.stderr)
    assert "RuntimeError: exchange_halos(device_buffers=True): this MPI" in r.stderr, r.stderr
    assert "is not CUDA-aware" in r.stderr


def test_device_buffers_follow_what_the_mpi_says(heat, tmp_path):
    """Unforced: a CUDA-aware MPI takes the device arrays; another refuses
    them with the message (the MPI library is asked, not the variable)."""
    r = run_ranks("--rows", "8", "--cols", "8", "--steps", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    aware = "MPI is CUDA-aware: yes" in r.stdout
    if aware:
        assert "halos through device memory" in check_two_ranks(heat, tmp_path, "--device-buffers")
    else:
        assert "MPI is CUDA-aware: no" in r.stdout, r.stdout
        r = run_ranks("--rows", "8", "--cols", "8", "--steps", "2", "--device-buffers")
        assert r.returncode > 0 and "is not CUDA-aware" in r.stderr, r.stdout + r.stderr


@pytest.mark.skipif(ON_GPU, reason="device arrays are host memory only on the simulator")
def test_device_buffers_on_the_simulator_equal_one_process(heat, tmp_path):
    """The simulator's device arrays are host memory, which any MPI reads:
    the device-buffer path runs there once the variable vouches for it."""
    stdout = check_two_ranks(heat, tmp_path, "--device-buffers", env={"PTXJIT_MPI_CUDA_AWARE": "1"})
    assert "halos through device memory" in stdout
