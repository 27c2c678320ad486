"""Numba's numba.cuda.devices names: `gpus` (the devices, `with
cuda.gpus[i]:`) and get_context(devnum=None), the context of a device."""

from .api import current_context, gpus  # noqa: F401


def get_context(devnum=None):
    """The context of device devnum (the current device when None), made
    if it has none yet."""
    if devnum is None:
        return current_context()
    with gpus[devnum]:
        return current_context()
