"""Can a process use the GPU again after a kernel fault?  The driver's answer.

    python3 bench/fault_probe.py

Straight on libcuda (ctypes, no ptxjit): each way below runs in a fresh
process that makes a context, checks that a kernel writes a value and
reads it back, launches a kernel that stores to address 0x10 (an illegal
address: a sticky error), then tries to get a context that works again:

  reset_retain          cuDevicePrimaryCtxReset, then retain the primary context
  release_retain        release the primary context (count 0), then retain it
  release_reset_retain  release, reset, retain
  reset_create          reset the primary context, then cuCtxCreate a new one
  own_destroy_create    a context of its own (cuCtxCreate) faults, is destroyed,
                        and a new one is created
  own_create_beside     a second context created beside the faulted one

and then loads a module, allocates and runs the working kernel again.  It
prints the CUDA result code of every call (0 success, 700 illegal address,
709 context destroyed, 201 invalid context).  ptxjit's cuda.close() does
the first of these; soak.py's fault test checks ptxjit's side (a clear
error, nothing written to the user's arrays, recovery where the driver
allows it).  Needs a GPU.
"""

import ctypes
import subprocess
import sys

PTX = rb"""
.version 7.0
.target sm_50
.address_size 64
.visible .entry put(.param .u64 p, .param .u32 v)
{
    .reg .u64 %a;
    .reg .u32 %v;
    ld.param.u64 %a, [p];
    ld.param.u32 %v, [v];
    st.global.u32 [%a], %v;
    ret;
}
"""

WAYS = ["reset_retain", "release_retain", "release_reset_retain", "reset_create",
        "own_destroy_create", "own_create_beside"]


class Driver:
    def __init__(self):
        self.cu = ctypes.CDLL("libcuda.so.1")
        self.calls = []

    def __call__(self, name, *args):
        r = getattr(self.cu, name)(*args)
        self.calls.append("%s %d" % (name, r))
        return r


def launch_put(cu, addr, value):
    """Loads the module and runs put(addr, value); the launch's result."""
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    if cu("cuModuleLoadData", ctypes.byref(mod), ctypes.c_char_p(PTX)) or \
            cu("cuModuleGetFunction", ctypes.byref(fn), mod, b"put"):
        return None
    p, v = ctypes.c_uint64(addr), ctypes.c_uint32(value)
    args = (ctypes.c_void_p * 2)(ctypes.cast(ctypes.byref(p), ctypes.c_void_p),
                                 ctypes.cast(ctypes.byref(v), ctypes.c_void_p))
    return cu("cuLaunchKernel", fn, 1, 1, 1, 1, 1, 1, 0, None, args, None) or cu("cuCtxSynchronize")


def works(cu):
    """Does the current context run a kernel and give its result back?"""
    buf, out = ctypes.c_uint64(), ctypes.c_uint32()
    if cu("cuMemAlloc_v2", ctypes.byref(buf), ctypes.c_size_t(4)):
        return False
    return launch_put(cu, buf.value, 1234) == 0 and \
        cu("cuMemcpyDtoH_v2", ctypes.byref(out), buf, ctypes.c_size_t(4)) == 0 and out.value == 1234


def probe(way):
    cu = Driver()
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    cu("cuInit", 0)
    cu("cuDeviceGet", ctypes.byref(dev), 0)
    if way.startswith("own"):
        cu("cuCtxCreate_v2", ctypes.byref(ctx), 0, dev)
    else:
        cu("cuDevicePrimaryCtxRetain", ctypes.byref(ctx), dev)
        cu("cuCtxSetCurrent", ctx)
    before = works(cu)
    fault = launch_put(cu, 0x10, 1)
    cu.calls.append("-- after the fault (%s):" % fault)
    new = ctypes.c_void_p()
    if way in ("reset_retain", "release_retain", "release_reset_retain", "reset_create"):
        cu("cuCtxSetCurrent", None)
        if way.startswith("release"):
            cu("cuDevicePrimaryCtxRelease_v2", dev)
        if "reset" in way:
            cu("cuDevicePrimaryCtxReset_v2", dev)
        if way == "reset_create":
            cu("cuCtxCreate_v2", ctypes.byref(new), 0, dev)
        else:
            cu("cuDevicePrimaryCtxRetain", ctypes.byref(new), dev)
            cu("cuCtxSetCurrent", new)
    elif way == "own_destroy_create":
        cu("cuCtxDestroy_v2", ctx)
        cu("cuCtxCreate_v2", ctypes.byref(new), 0, dev)
    else:
        cu("cuCtxCreate_v2", ctypes.byref(new), 0, dev)
    after = works(cu)
    print("%-22s before %-5s fault %-4s after %-5s | %s" % (
        way, before, fault, after, ", ".join(cu.calls[cu.calls.index("-- after the fault (%s):" % fault) + 1:])))
    return after


def main():
    if len(sys.argv) > 1:
        sys.exit(0 if probe(sys.argv[1]) else 1)
    recovered = []
    for way in WAYS:
        r = subprocess.run([sys.executable, __file__, way], capture_output=True, text=True, timeout=120)
        sys.stdout.write(r.stdout or r.stderr[-400:] + "\n")
        if r.returncode == 0:
            recovered.append(way)
    print("recovered in process by: %s" % (", ".join(recovered) or "none of the %d ways" % len(WAYS)))


if __name__ == "__main__":
    main()
