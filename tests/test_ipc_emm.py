"""IPC handles between two processes (darr.get_ipc_handle(), open(),
cuda.open_ipc_array) and external memory managers
(cuda.set_memory_manager, NUMBA_CUDA_MEMORY_MANAGER).

On the GPU (PTXJIT_TEST_GPU=1) the handles are the driver's; on the
simulator the memory is shared through a memfd, so the two-process tests
run there too."""

import multiprocessing
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ptxjit
from ptxjit import cuda

import ipc_child
from conftest import ON_GPU

from test_runtime import fake_driver, run_fake  # noqa: F401  (the fixture)

# the copy of ptxjit this run imports (make asan-py's instrumented one too)
PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(ptxjit.__file__)))


@cuda.jit
def double(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * 2


@cuda.jit
def add(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


def _run_child(fn, *args):
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    p = ctx.Process(target=fn, args=args + (child,))
    p.start()
    msgs = []
    while True:
        if not parent.poll(120):
            p.kill()
            raise AssertionError("the child process sent nothing for 120 s")
        kind, val = parent.recv()
        msgs.append((kind, val))
        if kind in ("done", "error"):
            break
    p.join(60)
    assert p.exitcode == 0, msgs
    return msgs


def test_ipc_handle_between_two_processes():
    rng = np.random.default_rng(21)
    host = rng.random(3000) + 1
    whole = cuda.to_device(np.zeros(5000))
    d = whole[1000:4000]                 # a view: the handle carries its offset
    d.copy_to_device(host)
    h = d.get_ipc_handle()
    h2 = pickle.loads(pickle.dumps(h))
    assert h2.ipc_handle.offset == h.ipc_handle.offset and h2.ipc_handle.handle == h.ipc_handle.handle
    msgs = _run_child(ipc_child.open_and_double, h)
    assert msgs[-1] == ("done", None), msgs
    np.testing.assert_array_equal(msgs[0][1], host)          # the child saw our data
    np.testing.assert_array_equal(d.copy_to_host(), host * 2)   # and its kernel wrote ours
    np.testing.assert_array_equal(whole.copy_to_host()[:1000], 0)


def test_open_ipc_array_with_raw_handle():
    rng = np.random.default_rng(22)
    host = rng.integers(1, 1000, (40, 30)).astype(np.int32)
    d = cuda.to_device(host)
    ih = d.get_ipc_handle().ipc_handle
    msgs = _run_child(ipc_child.open_raw, bytes(ih.handle), ih.offset, host.shape, host.dtype)
    assert msgs[-1] == ("done", None), msgs
    np.testing.assert_array_equal(d.copy_to_host(), host + 1)


def test_context_ipc_handle_of_gpu_data():
    """ctx.get_ipc_handle(darr.gpu_data): the memory from the array's start,
    to the end of the allocation for the array that owns it and to the end
    of a view's last element (Numba's sizes of gpu_data)."""
    rng = np.random.default_rng(23)
    host = rng.integers(-10**6, 10**6, 10).astype(np.int64)
    ctx = cuda.current_context()
    for index in (slice(None), slice(3, None), slice(3, 8), slice(None, 8)):
        whole = cuda.to_device(host)
        d = whole[index]
        assert d.gpu_data.size == d.nbytes
        h = ctx.get_ipc_handle(d.gpu_data)
        assert h.size == d.nbytes and len(h.handle.reserved) == 64
        h2 = pickle.loads(pickle.dumps(h))
        assert h2.base is None and h2.size == h.size and h2.handle.reserved == h.handle.reserved
        msgs = _run_child(ipc_child.open_memory, h2, np.int64)
        assert msgs[-1] == ("done", None), msgs
        np.testing.assert_array_equal(msgs[0][1], host[index])
        want = host.copy()
        want[index] = -want[index]
        np.testing.assert_array_equal(whole.copy_to_host(), want)


def test_open_staged_and_driver_copies_in_another_process():
    rng = np.random.default_rng(24)
    host = rng.integers(-10**9, 10**9, 37)
    d = cuda.to_device(host)
    h = pickle.loads(pickle.dumps(cuda.current_context().get_ipc_handle(d.gpu_data)))
    msgs = _run_child(ipc_child.open_staged_copy, h, host.nbytes)
    assert msgs[-1] == ("done", None), msgs
    np.testing.assert_array_equal(msgs[0][1], host)


def test_driver_copies_between_raw_device_memory_and_the_host():
    from ptxjit.cuda import driver
    rng = np.random.default_rng(25)
    a, b = rng.standard_normal(50), rng.standard_normal(50)
    da, db = cuda.to_device(a), cuda.device_array(50)
    driver.device_to_device(db.gpu_data, da[10:].gpu_data, 40 * 8)
    out = np.zeros(50)
    driver.device_to_host(out, db.device_ctypes_pointer.value, 40 * 8)
    np.testing.assert_array_equal(out[:40], a[10:])
    driver.host_to_device(da.gpu_data, b, b.nbytes)
    np.testing.assert_array_equal(da.copy_to_host(), b)
    with pytest.raises(ValueError, match="do not fit"):
        driver.device_to_host(out, da[45:].gpu_data, 80)
    if cuda.is_simulator():
        with pytest.raises(TypeError, match="did not allocate"):
            driver.device_to_host(out, out.ctypes.data, 8)


def test_ipc_errors():
    d = cuda.to_device(np.arange(10.0))
    if cuda.is_simulator():
        with pytest.raises(ValueError, match="process that made it"):
            d.get_ipc_handle().open()
        with pytest.raises(ValueError, match="GPU memory"):
            cuda.IpcHandle(None, bytes(64), 80).open()
        with pytest.raises(ValueError, match="not allocated by ptxjit"):
            cuda.from_dlpack(np.arange(5.0)).get_ipc_handle()
    with pytest.raises(ValueError, match="64"):
        cuda.IpcHandle(None, b"short", 8)
    with pytest.raises(ValueError, match="no elements"):
        cuda.device_array(0).get_ipc_handle()
    h = cuda.IpcHandle(None, bytes(64), 8)
    with pytest.raises(ValueError, match="800 bytes"):
        h.open_array(None, 100, np.float64)


class _Counting(cuda.HostOnlyCUDAMemoryManager):
    """Allocates through the built-in manager, counting."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.inner = cuda.NumbaCUDAMemoryManager(context=self.context)
        self.allocs, self.frees, self.nbytes = 0, 0, 0

    def initialize(self):
        self.inner.initialize()

    def memalloc(self, size):
        self.allocs += 1
        self.nbytes += size
        inner = self.inner.memalloc(size)

        def free(inner=inner, mgr=self):
            mgr.frees += 1
        return cuda.MemoryPointer(self.context, inner.device_pointer, size, owner=inner, finalizer=free)

    def get_memory_info(self):
        return self.inner.get_memory_info()

    def get_ipc_handle(self, memory):
        return self.inner.get_ipc_handle(memory)

    @property
    def interface_version(self):
        return 1


@pytest.fixture
def counting():
    cuda.set_memory_manager(_Counting)
    try:
        yield cuda.emm.memory_manager()
    finally:
        cuda.set_memory_manager(None)


def test_memory_manager_serves_every_allocation(counting):
    import gc
    rng = np.random.default_rng(23)
    n = 1500
    x, y = rng.random(n), rng.random(n)
    dx = cuda.to_device(x)
    assert counting.allocs == 1 and counting.nbytes == n * 8
    dout = cuda.device_array(n)
    like = cuda.device_array_like(np.zeros((4, 5), np.float32, order="F"))
    assert counting.allocs == 3 and like.is_f_contiguous()
    add[(n + 127) // 128, 128](dx, y, dout)      # y: a NumPy array, copied through the manager
    assert counting.allocs == 4
    np.testing.assert_array_equal(dout.copy_to_host(), x + y)
    out = np.zeros(n)
    add[(n + 127) // 128, 128](x, y, out)        # all NumPy: three copies, the result comes back
    assert counting.allocs == 7
    np.testing.assert_array_equal(out, x + y)
    out2 = np.zeros(n)
    add[(n + 127) // 128, 128](cuda.In(x), cuda.In(y), cuda.Out(out2))
    np.testing.assert_array_equal(out2, x + y)
    del dx, dout, like
    gc.collect()
    assert counting.frees >= 7                   # given back through the plugin's finalizer
    ptr = cuda.to_device(x).__cuda_array_interface__["data"][0]
    assert ptr != 0


def test_memory_manager_checks():
    class Old(_Counting):
        @property
        def interface_version(self):
            return 0
    with pytest.raises(RuntimeError, match="interface version"):
        cuda.set_memory_manager(Old)
    with pytest.raises(TypeError, match="BaseCUDAMemoryManager"):
        cuda.set_memory_manager(object)
    assert cuda.emm.memory_manager() is None


def test_memory_manager_from_the_environment(tmp_path):
    (tmp_path / "countmm.py").write_text(textwrap.dedent('''
        from ptxjit import cuda
        class M(cuda.HostOnlyCUDAMemoryManager):
            allocs = 0
            def initialize(self):
                self.inner = cuda.NumbaCUDAMemoryManager(context=self.context)
            def memalloc(self, size):
                M.allocs += 1
                return self.inner.memalloc(size)
            def get_memory_info(self):
                return self.inner.get_memory_info()
            def get_ipc_handle(self, memory):
                return self.inner.get_ipc_handle(memory)
            @property
            def interface_version(self):
                return 1
        _numba_memory_manager = M
    '''))
    code = textwrap.dedent('''
        import numpy as np
        from ptxjit import cuda
        import countmm
        a = cuda.to_device(np.arange(5.0))
        print(countmm.M.allocs, a.copy_to_host().sum())
    ''')
    env = dict(os.environ, NUMBA_CUDA_MEMORY_MANAGER="countmm",
               PYTHONPATH=os.pathsep.join([str(tmp_path), PKG_PARENT]))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1", "10.0"]
    env["NUMBA_CUDA_MEMORY_MANAGER"] = "no_such_module_here"
    r = subprocess.run([sys.executable, "-c", "from ptxjit import cuda"], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode != 0 and "NUMBA_CUDA_MEMORY_MANAGER=no_such_module_here" in r.stderr


def test_fake_driver_ipc_handle_round_trip(fake_driver, tmp_path):  # noqa: F811
    """The driver path of get_ipc_handle/open/close (the fake driver lets
    a process open its own handle, which a real driver refuses)."""
    res = run_fake("""
        import gc, pickle
        whole = cuda.to_device(np.arange(100, dtype=np.float32))
        d = whole[10:40]
        h = pickle.loads(pickle.dumps(d.get_ipc_handle()))
        result["offset"] = h.ipc_handle.offset
        with h as arr:
            result["same"] = arr.__cuda_array_interface__["data"][0] == d.__cuda_array_interface__["data"][0]
            result["values"] = arr.copy_to_host().tolist()
        result["closes_while_used"] = get("ipc_closes")
        del arr
        gc.collect()
        result["closes"] = get("ipc_closes"); result["gets"] = get("ipc_gets"); result["opens"] = get("ipc_opens")
    """, fake_driver, tmp_path)
    assert "raised" not in res, res
    assert res["offset"] == 40 and res["same"]
    assert res["values"] == list(range(10, 40))
    assert res["closes_while_used"] == 0 and res["closes"] == 1
    assert res["gets"] == 1 and res["opens"] == 1


def _numba_plugin_class():
    """A plugin written against numba-cuda's own classes, as RAPIDS RMM's
    RMMNumbaManager is: it derives from numba.cuda.HostOnlyCUDAMemoryManager
    and returns numba.cuda.MemoryPointer, whose device_pointer is a
    cuda.bindings CUdeviceptr; the memory itself comes from ptxjit."""
    np.row_stack = getattr(np, "row_stack", np.vstack)
    nbcuda = pytest.importorskip("numba.cuda")
    binding = pytest.importorskip("cuda.bindings.driver")

    class NumbaStyle(nbcuda.HostOnlyCUDAMemoryManager):
        calls = []

        def initialize(self):
            self.inner = cuda.emm.NumbaCUDAMemoryManager(context=self.context)

        def memalloc(self, size):
            block = self.inner.memalloc(size)
            ptr = binding.CUdeviceptr(block.device_pointer.value)
            self.allocations[int(ptr)] = block
            NumbaStyle.calls.append(size)

            def free(key=int(ptr), allocations=self.allocations):
                allocations.pop(key, None)
            return nbcuda.MemoryPointer(self.context, ptr, size, finalizer=free)

        def get_memory_info(self):
            raise NotImplementedError

        def get_ipc_handle(self, memory):
            raise NotImplementedError

        @property
        def interface_version(self):
            return 1
    return NumbaStyle


def test_plugin_of_numba_cudas_classes_serves_ptxjit_arrays():
    import gc
    plugin = _numba_plugin_class()
    rng = np.random.default_rng(31)
    n = 777
    x, y = rng.random(n), rng.random(n)
    cuda.set_memory_manager(plugin)
    try:
        mgr = cuda.emm.memory_manager()
        dx = cuda.to_device(x)
        dout = cuda.device_array(n)
        assert plugin.calls == [n * 8, n * 8] and len(mgr.allocations) == 2
        add[(n + 127) // 128, 128](dx, y, dout)
        np.testing.assert_array_equal(dout.copy_to_host(), x + y)
        ptrs = {dx.__cuda_array_interface__["data"][0], dout.__cuda_array_interface__["data"][0]}
        assert ptrs <= set(mgr.allocations)
        del dx, dout
        gc.collect()
        assert not ptrs & set(mgr.allocations)       # freed through Numba's MemoryPointer finalizer
    finally:
        cuda.set_memory_manager(None)


@pytest.mark.skipif(not ON_GPU, reason="RMM allocates on a GPU")
def test_rmm_numba_plugin_unchanged():
    """RAPIDS RMM's own Numba plugin, as it is, serves ptxjit's device arrays
    (the allocations are RMM's: its pool's statistics count them)."""
    np.row_stack = getattr(np, "row_stack", np.vstack)
    rmm = pytest.importorskip("rmm")
    from rmm.allocators.numba import RMMNumbaManager
    import rmm.statistics
    rng = np.random.default_rng(32)
    n = 1 << 16
    x, y = rng.random(n), rng.random(n)
    rmm.reinitialize(pool_allocator=True, initial_pool_size=1 << 26)
    cuda.set_memory_manager(RMMNumbaManager)
    try:
        with rmm.statistics.statistics():
            dx = cuda.to_device(x)
            dout = cuda.device_array(n)
            stats = rmm.statistics.get_statistics()
            assert stats.current_count >= 2 and stats.current_bytes >= 2 * n * 8
            add[(n + 255) // 256, 256](dx, y, dout)
            np.testing.assert_array_equal(dout.copy_to_host(), x + y)
    finally:
        cuda.set_memory_manager(None)


def test_context_memory_manager_is_settable_and_used():
    """Numba's Context.memory_manager: the built-in one by default; an
    instance assigned to it serves allocations, its get_memory_info is the
    context's, and Context.reset() resets it."""
    ctx = cuda.current_context()
    assert isinstance(ctx.memory_manager, cuda.emm.NumbaCUDAMemoryManager)

    class Info(_Counting):
        resets = 0

        def get_memory_info(self):
            return cuda.MemoryInfo(free=32, total=64)

        def reset(self):
            Info.resets += 1

    mgr = Info(context=ctx)
    ctx.memory_manager = mgr
    try:
        assert cuda.current_context().memory_manager is mgr
        d = cuda.device_array(100)
        assert mgr.allocs == 1 and d.shape == (100,)
        assert tuple(cuda.current_context().get_memory_info()) == (32, 64)
        cuda.current_context().reset()
        assert Info.resets == 1
    finally:
        cuda.current_context().memory_manager = None
    assert isinstance(cuda.current_context().memory_manager, cuda.emm.NumbaCUDAMemoryManager)
    assert cuda.current_context().get_memory_info().total > 64


def test_driver_memset_and_memory_size():
    from ptxjit.cuda import driver
    rng = np.random.default_rng(41)
    h = rng.integers(1, 1000, 37).astype(np.uint32)
    d = cuda.to_device(h)
    assert driver.device_memory_size(d) == h.nbytes
    driver.device_memset(d, 0xAB, 4 * 10)
    want = h.copy()
    want[:10] = 0xABABABAB
    np.testing.assert_array_equal(d.copy_to_host(), want)
    m = cuda.mapped_array(9, np.uint16)
    m[:] = 5
    driver.device_memset(m, 1, driver.device_memory_size(m))
    assert (m == 0x0101).all()
    mem = cuda.current_context().memalloc(64)
    driver.device_memset(mem, 2, 64)
    out = np.zeros(64, np.uint8)
    driver.device_to_host(out, mem, 64)
    assert (out == 2).all()
    with pytest.raises(ValueError, match="do not fit"):
        driver.device_memset(mem, 0, 65)


def test_memory_pointer_views_and_driver_helpers():
    import ctypes
    import gc
    from ptxjit.cuda import driver
    ctx = cuda.current_context()
    m = ctx.memalloc(1024)
    assert driver.is_device_memory(m) and driver.is_device_memory(cuda.device_array(3))
    assert not driver.is_device_memory(np.zeros(3))
    with pytest.raises(Exception, match="Not a CUDA memory object"):
        driver.require_device_memory(np.zeros(3))
    assert isinstance(m.device_ctypes_pointer, ctypes.c_size_t)
    assert int(m.handle) == m.device_pointer.value == driver.device_pointer(m) != 0
    v1 = m.view(16)
    v2 = v1.view(16, 80)
    assert v1.owner is m and v2.owner is m and m.refct == 3
    assert (int(v1.handle) - int(m.handle), int(v2.handle) - int(m.handle)) == (16, 32)
    assert (v1.size, v2.size) == (1008, 64)
    with pytest.raises(IndexError):
        m.view(10, 2000)
    # bytes written through a view land at its offset
    rng = np.random.default_rng(43)
    h = rng.integers(0, 256, 64).astype(np.uint8)
    driver.host_to_device(v2, h, 64)
    back = np.zeros(1024, np.uint8)
    driver.device_to_host(back, m, 1024)
    np.testing.assert_array_equal(back[32:96], h)
    del v1, v2
    gc.collect()
    assert m.refct == 1
    f = np.asfortranarray(np.arange(100).reshape(2, 50))
    assert driver.host_memory_extents(f) == (f.ctypes.data, f.ctypes.data + f.nbytes)
    assert driver.host_memory_size(np.arange(10.0)[::3]) == 8 * 9 + 8
    assert driver.host_memory_size(ctypes.c_double(1.5)) == 8
