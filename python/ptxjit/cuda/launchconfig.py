"""The launch configuration seen while a launch compiles its kernel
(numba.cuda.launchconfig).

When `kernel[grid, block](args)` finds no compiled kernel for its argument
types, it compiles one through the dispatcher's `_compile_for_args(*args)`;
while that runs, current_launch_config() is the launch's configuration:

    cfg.dispatcher    the kernel (its CUDADispatcher)
    cfg.griddim       (x, y, z) blocks
    cfg.blockdim      (x, y, z) threads a block
    cfg.stream        the stream (0: the default one)
    cfg.sharedmem     bytes of dynamic shared memory
    cfg.args          the launch's arguments, as given

It is per thread and None at any other time (a compile of its own, a
launch that finds its kernel compiled).  cfg.dispatcher.
mark_launch_config_sensitive() marks the kernel being compiled
(kernel.launch_config_sensitive); ptxjit compiles one kernel per argument
types, whatever the configuration, so the mark does not make a launch
with another configuration compile again.
"""

import contextlib
import threading
from functools import wraps
from types import MethodType

from .. import _core

_tls = threading.local()


class LaunchConfig:
    """The configuration of the launch that is compiling (see the top)."""

    __slots__ = ("dispatcher", "griddim", "blockdim", "stream", "sharedmem", "args", "_pending")

    def __init__(self, launcher, args):
        self.dispatcher = launcher.dispatcher
        self.griddim = launcher.griddim
        self.blockdim = launcher.blockdim
        self.stream = launcher.stream
        self.sharedmem = launcher.sharedmem
        self.args = args
        self._pending = None      # (argument types, launch flags) the launch asked for

    def __repr__(self):
        return "<LaunchConfig %s[%s, %s] sharedmem=%d>" % (self.dispatcher.__name__, self.griddim, self.blockdim,
                                                          self.sharedmem)


def _entering(launcher, args):
    prev = getattr(_tls, "config", None)
    _tls.config = LaunchConfig(launcher, args)

    def restore():
        _tls.config = prev
    return restore


_core.set_launch_hook(_entering)


def current_launch_config():
    """The configuration of the launch compiling on this thread, or None."""
    return getattr(_tls, "config", None)


def ensure_current_launch_config():
    """current_launch_config(), or RuntimeError when there is none."""
    cfg = current_launch_config()
    if cfg is None:
        raise RuntimeError("No launch config set for this thread: it exists only while a kernel launch "
                           "compiles its kernel")
    return cfg


@contextlib.contextmanager
def capture_compile_config(dispatcher):
    """with capture_compile_config(kernel) as rec: rec["config"] is the
    launch configuration of the compile a launch triggers inside the block
    (None when the kernel was compiled already)."""
    if dispatcher is None:
        raise TypeError("capture_compile_config needs a dispatcher")
    record = {"config": None}
    missing = object()
    saved = dispatcher.__dict__.get("_compile_for_args", missing)
    original = dispatcher._compile_for_args

    @wraps(original)
    def wrapped(self, *args, **kws):
        record["config"] = current_launch_config()
        return original(*args, **kws)

    dispatcher._compile_for_args = MethodType(wrapped, dispatcher)
    try:
        yield record
    finally:
        if saved is missing:
            del dispatcher._compile_for_args
        else:
            dispatcher._compile_for_args = saved


__all__ = ["current_launch_config", "ensure_current_launch_config", "capture_compile_config"]
