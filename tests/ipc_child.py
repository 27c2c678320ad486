"""The other process of tests/test_ipc_emm.py: opens IPC handles it is
sent and works on the arrays (spawned by multiprocessing; ptxjit comes
from the parent's sys.path and PTXJIT_SIM from its environment)."""

import numpy as np


def open_and_double(handle, conn):
    """Opens an IpcArrayHandle, sends back what it holds, doubles it in
    place with a kernel."""
    from ptxjit import cuda
    from test_ipc_emm import double
    try:
        with handle as arr:
            conn.send(("seen", arr.copy_to_host()))
            double[(arr.size + 63) // 64, 64](arr)
            cuda.synchronize()
        conn.send(("done", None))
    except Exception as e:  # noqa: BLE001  (reported to the parent)
        conn.send(("error", "%s: %s" % (type(e).__name__, e)))


def open_raw(raw, offset, shape, dtype, conn):
    """cuda.open_ipc_array with the handle's bytes: adds 1 to every element."""
    from ptxjit import cuda
    try:
        with cuda.open_ipc_array(raw, shape, dtype, offset=offset) as arr:
            arr.copy_to_device(arr.copy_to_host() + 1)
        conn.send(("done", None))
    except Exception as e:  # noqa: BLE001
        conn.send(("error", "%s: %s" % (type(e).__name__, e)))
    np.zeros(1)


def open_memory(handle, dtype, conn):
    """An IpcHandle of a MemoryPointer (Context.get_ipc_handle): opens its
    size bytes as an array, sends them back and negates them in place."""
    try:
        arr = handle.open_array(None, handle.size // np.dtype(dtype).itemsize, dtype)
        got = arr.copy_to_host()
        conn.send(("seen", got))
        arr.copy_to_device(-got)
        handle.close()
        conn.send(("done", None))
    except Exception as e:  # noqa: BLE001
        conn.send(("error", "%s: %s" % (type(e).__name__, e)))


def open_staged_copy(handle, nbytes, conn):
    """handle.open_staged(ctx) and driver.device_to_host of its bytes."""
    from ptxjit import cuda
    from ptxjit.cuda import devices, driver
    try:
        mem = handle.open_staged(devices.get_context())
        host = np.zeros(nbytes // 8, np.int64)
        driver.device_to_host(host, mem, nbytes)
        handle.close()
        conn.send(("seen", host))
        conn.send(("done", None))
    except Exception as e:  # noqa: BLE001
        conn.send(("error", "%s: %s" % (type(e).__name__, e)))
    assert cuda
