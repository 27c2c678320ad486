"""NVRTC, CUDA's run-time C++ compiler, for the CUDA C of
cuda.declare_device(link=...) (.cu files, CUSource).

ptxjit itself needs no part of the toolkit; only CUDA C sources need
NVRTC.  libnvrtc is opened when the first one is compiled: PTXJIT_NVRTC
(a path) when set, else libnvrtc.so from the loader's path, else from
$CUDA_HOME/lib64 (or /usr/local/cuda/lib64).  The source compiles to PTX
for the kernel's compute capability, with $CUDA_HOME/include on the
include path when it exists; the PTX goes to the driver's linker.
"""

import ctypes
import os
import threading

_lock = threading.Lock()
_lib = None
_NAMES = ("libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2")


class NvrtcError(RuntimeError):
    """NVRTC is missing, or it failed to compile a CUDA C source."""


def _cuda_home():
    for v in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(v):
            return os.environ[v]
    return "/usr/local/cuda"


def _candidates():
    env = os.environ.get("PTXJIT_NVRTC")
    if env:
        return [env]
    lib = os.path.join(_cuda_home(), "lib64")
    return list(_NAMES) + [os.path.join(lib, n) for n in _NAMES]


def _open():
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for name in _candidates():
            try:
                lib = ctypes.CDLL(name)
            except OSError as e:
                tried.append("%s (%s)" % (name, e))
                continue
            c = ctypes
            lib.nvrtcCreateProgram.argtypes = [c.POINTER(c.c_void_p), c.c_char_p, c.c_char_p, c.c_int,
                                               c.c_void_p, c.c_void_p]
            lib.nvrtcCompileProgram.argtypes = [c.c_void_p, c.c_int, c.POINTER(c.c_char_p)]
            lib.nvrtcGetProgramLogSize.argtypes = [c.c_void_p, c.POINTER(c.c_size_t)]
            lib.nvrtcGetProgramLog.argtypes = [c.c_void_p, c.c_char_p]
            lib.nvrtcGetPTXSize.argtypes = [c.c_void_p, c.POINTER(c.c_size_t)]
            lib.nvrtcGetPTX.argtypes = [c.c_void_p, c.c_char_p]
            lib.nvrtcDestroyProgram.argtypes = [c.POINTER(c.c_void_p)]
            lib.nvrtcVersion.argtypes = [c.POINTER(c.c_int), c.POINTER(c.c_int)]
            _lib = lib
            return lib
        raise NvrtcError("CUDA C sources (.cu files, CUSource) in link= need NVRTC, and libnvrtc could not be "
                         "opened; tried: %s.  Install the CUDA toolkit's NVRTC (pip install "
                         "nvidia-cuda-nvrtc, or the toolkit) and set PTXJIT_NVRTC to its libnvrtc.so, or link "
                         "PTX instead (PTXSource, .ptx files), which needs only the driver" % "; ".join(tried))


def is_available():
    """True when libnvrtc can be opened."""
    try:
        _open()
        return True
    except NvrtcError:
        return False


def _get_nvrtc_version():
    """NVRTC's (major, minor)."""
    lib = _open()
    a, b = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(a), ctypes.byref(b))
    return a.value, b.value


def find_closest_arch(cc):
    """The compute capability ptxjit compiles for when the device has cc:
    cc itself (PTX is made for the device's own architecture)."""
    return tuple(cc)


def compile_ptx(source, name, cc):
    """The PTX (bytes) of CUDA C source, for compute capability cc (a
    (major, minor) pair).  Raises NvrtcError with NVRTC's log."""
    lib = _open()
    prog = ctypes.c_void_p()
    rc = lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), name.encode(), 0, None, None)
    if rc:
        raise NvrtcError("NVRTC could not create a program of %s (error %d)" % (name, rc))
    try:
        opts = ["--gpu-architecture=compute_%d%d" % (cc[0], cc[1]), "-rdc=true", "-default-device"]
        inc = os.path.join(_cuda_home(), "include")
        if os.path.isdir(inc):
            opts.append("-I" + inc)
        arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
        rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
        n = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
        log = ctypes.create_string_buffer(n.value + 1)
        lib.nvrtcGetProgramLog(prog, log)
        if rc:
            raise NvrtcError("NVRTC failed to compile %s:\n%s" % (name, log.value.decode(errors="replace")))
        lib.nvrtcGetPTXSize(prog, ctypes.byref(n))
        ptx = ctypes.create_string_buffer(n.value)
        lib.nvrtcGetPTX(prog, ptx)
        return ptx.raw.rstrip(b"\0") + b"\0"
    finally:
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
