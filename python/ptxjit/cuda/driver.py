"""Names of Numba's numba.cuda.cudadrv.driver that programs import: the
driver's exceptions, Stream, Event, Device and Context, and `driver`, the
loaded driver (is_available, get_version()).

ptxjit opens the driver itself (src/rt/driver.c, with dlopen): there are
no driver entry points to call from Python here, and nvJitLink, which
Numba's link-time optimisation uses, is never used (_have_nvjitlink()).
"""

from .. import _core
from ..errors import CudaAPIError, CudaDriverError, CudaSupportError  # noqa: F401
from .api import Context, Device, Event, Stream  # noqa: F401


class Driver:
    """The CUDA driver: `driver.is_available`, `driver.get_version()`."""

    @property
    def is_available(self):
        return not _core.is_simulator() and _core.available()

    def get_version(self):
        """The driver's CUDA version as (major, minor), e.g. (12, 4); (0, 0)
        on the simulator, which uses no driver."""
        v = _core.device_info()["driver_version"]
        return (v // 1000, v % 1000 // 10)


driver = Driver()


def _have_nvjitlink():
    """False: ptxjit links with the driver, never with nvJitLink."""
    return False
