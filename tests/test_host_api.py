"""Numba's host-side settings and warnings: the NUMBA_* environment
variables ptxjit reads (python/ptxjit/cuda/config.py, src/py/module.c,
src/rt/driver.c), cuda.use_simulator(), and NumbaPerformanceWarning /
NumbaInvalidConfigWarning.

Settings read at import are checked in a child process; the rest in this
one.  Runs on the simulator, and on the GPU with PTXJIT_TEST_GPU=1.
"""

import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import ptxjit
from ptxjit import cuda
from ptxjit.errors import NumbaInvalidConfigWarning, NumbaPerformanceWarning, NumbaWarning

from conftest import ON_GPU

PYDIR = os.path.dirname(os.path.dirname(ptxjit.__file__))


def child(code, tmp_path, **env):
    """Runs code in a fresh interpreter with env (None removes a variable)
    on top of ours; returns the JSON it prints last."""
    e = dict(os.environ)
    for k in ("PTXJIT_SIM", "NUMBA_ENABLE_CUDASIM", "NUMBA_DISABLE_CUDA", "NUMBA_CUDA_DEBUGINFO",
              "NUMBA_CUDA_DEFAULT_PTX_CC", "NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "NUMBA_CUDA_WARN_ON_IMPLICIT_COPY",
              "NUMBA_DISABLE_PERFORMANCE_WARNINGS", "NUMBA_OPT"):
        e.pop(k, None)
    for k, v in env.items():
        if v is not None:
            e[k] = v
    e["PYTHONPATH"] = PYDIR + os.pathsep + e.get("PYTHONPATH", "")
    path = tmp_path / "child.py"
    path.write_text(textwrap.dedent(code))
    r = subprocess.run([sys.executable, str(path)], env=e, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1]), r.stderr


RUN_KERNEL = """
    import json, warnings
    import numpy as np
    from ptxjit import cuda
    from ptxjit.errors import CudaSupportError

    @cuda.jit
    def twice(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = 2 * x[i] + 1

    x = np.random.default_rng(5).standard_normal(300)
    out = np.zeros_like(x)
    res = {"sim": cuda.is_simulator(), "available": cuda.is_available()}
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        try:
            twice[3, 128](x, out)
            res["ok"] = bool(np.array_equal(out, 2 * x + 1))
        except CudaSupportError as e:
            res["error"] = str(e)
    res["warnings"] = [str(w.message) for w in rec]
    print(json.dumps(res))
"""


def test_numba_enable_cudasim_selects_the_simulator(tmp_path):
    res, _ = child(RUN_KERNEL, tmp_path, NUMBA_ENABLE_CUDASIM="1")
    assert res["sim"] and res["available"] and res["ok"], res


def test_ptxjit_sim_wins_over_numba_enable_cudasim(tmp_path):
    res, _ = child("import json\nfrom ptxjit import cuda\nprint(json.dumps({'sim': cuda.is_simulator()}))",
                   tmp_path, PTXJIT_SIM="0", NUMBA_ENABLE_CUDASIM="1")
    assert res == {"sim": False}
    res, _ = child("import json\nfrom ptxjit import cuda\nprint(json.dumps({'sim': cuda.is_simulator()}))",
                   tmp_path, PTXJIT_SIM="1", NUMBA_ENABLE_CUDASIM="0")
    assert res == {"sim": True}


def test_numba_disable_cuda(tmp_path):
    res, _ = child(RUN_KERNEL, tmp_path, NUMBA_DISABLE_CUDA="1")
    assert not res["sim"] and not res["available"] and "ok" not in res, res
    msg = res["error"]
    assert "NUMBA_DISABLE_CUDA=1" in msg and "NUMBA_ENABLE_CUDASIM=1" in msg and "use_simulator()" in msg, msg
    # the simulator does not need CUDA: Numba's simulator ignores the setting too
    res, _ = child(RUN_KERNEL, tmp_path, NUMBA_DISABLE_CUDA="1", NUMBA_ENABLE_CUDASIM="1")
    assert res["sim"] and res["ok"], res


CUDA_ERROR = """
    import json
    from ptxjit import cuda
    res = {"before": cuda.cuda_error()}
    try:
        cuda.device_array(1)
    except ImportError as e:            # Numba's CudaSupportError is an ImportError
        res.update(msg=e.msg, runtime=isinstance(e, RuntimeError))
    res["after"] = cuda.cuda_error()
    print(json.dumps(res))
"""


def test_cuda_error_and_support_error_as_numba(tmp_path):
    res, _ = child(CUDA_ERROR, tmp_path, NUMBA_DISABLE_CUDA="1")
    want = "CUDA is disabled due to setting NUMBA_DISABLE_CUDA=1"
    assert res["before"].startswith(want) and res["msg"].startswith(want) and res["runtime"], res
    assert res["after"] == res["before"]
    res, _ = child(CUDA_ERROR, tmp_path, PTXJIT_SIM="1")
    assert res == {"before": None, "after": None}, res


def test_is_supported_version():
    assert cuda.is_supported_version() is True
    if ON_GPU:
        assert cuda.driver.driver.get_version() >= (10, 0)


def test_driver_counts_the_devices():
    n = cuda.driver.driver.get_device_count()
    assert n == len(cuda.gpus) == len(cuda.list_devices()) >= 1


def test_driver_memory_info_is_the_contexts():
    free, total = cuda.driver.driver.cuMemGetInfo()
    info = cuda.current_context().get_memory_info()
    assert total == info.total > 0 and 0 < free <= total


def test_no_driver_error_says_how_to_use_the_simulator(tmp_path):
    res, _ = child(RUN_KERNEL, tmp_path, PTXJIT_SIM="0", PTXJIT_LIBCUDA="/nonexistent/libcuda.so.1")
    msg = res["error"]
    assert "/nonexistent/libcuda.so.1" in msg
    for how in ("PTXJIT_SIM=1", "NUMBA_ENABLE_CUDASIM=1", "use_simulator()"):
        assert how in msg, msg


USE_SIM = """
    import json
    import numpy as np
    from ptxjit import cuda

    res = {"before": cuda.is_simulator(), "available": cuda.is_available()}
    %s
    cuda.use_simulator()
    res["after"] = cuda.is_simulator()
    res["config"] = cuda.config.ENABLE_CUDASIM

    @cuda.jit
    def inc(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] += 3

    x = np.random.default_rng(1).integers(1, 100, 77)
    y = x.copy()
    inc[1, 128](y)
    res["ok"] = bool(np.array_equal(y, x + 3))
    print(json.dumps(res))
"""


@pytest.mark.parametrize("env", [{"PTXJIT_LIBCUDA": "/nonexistent/libcuda.so.1"}, {"NUMBA_DISABLE_CUDA": "1"}])
def test_use_simulator_after_import(tmp_path, env):
    res, _ = child(USE_SIM % "", tmp_path, PTXJIT_SIM="0", **env)
    assert res == {"before": False, "available": False, "after": True, "config": True, "ok": True}


def test_use_simulator_after_a_gpu_kernel_is_refused(tmp_path):
    code = """
        import json
        from ptxjit import cuda

        @cuda.jit("void(float64[::1])")
        def k(x):
            x[0] = 1.0

        try:
            cuda.use_simulator()
            print(json.dumps({"error": None}))
        except RuntimeError as e:
            print(json.dumps({"error": str(e), "sim": cuda.is_simulator()}))
    """
    res, _ = child(code, tmp_path, PTXJIT_SIM="0", NUMBA_DISABLE_CUDA="1")
    assert res["sim"] is False and "too late" in res["error"] and "already compiled" in res["error"], res


def test_use_simulator_after_compile_ptx(tmp_path):
    """compile_ptx makes PTX for no backend: the simulator can still be chosen."""
    before = "def f(x):\n        x[0] = 1.0\n    res['ptx'] = '.entry' in cuda.compile_ptx(f, 'void(float64[::1])')[0]"
    res, _ = child(USE_SIM % before, tmp_path, PTXJIT_SIM="0", NUMBA_DISABLE_CUDA="1")
    assert res["ptx"] and res["after"] and res["ok"], res


CONFIG = """
    import json, warnings
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        from ptxjit import cuda
    c = cuda.config
    print(json.dumps({"debuginfo": c.CUDA_DEBUGINFO_DEFAULT, "ptx_cc": c.CUDA_DEFAULT_PTX_CC,
                      "occupancy": c.CUDA_LOW_OCCUPANCY_WARNINGS, "copy": c.CUDA_WARN_ON_IMPLICIT_COPY,
                      "perf_off": c.DISABLE_PERFORMANCE_WARNINGS, "opt": c.OPT,
                      "warnings": [str(w.message) for w in rec if w.category is RuntimeWarning]}))
"""


def test_config_from_the_environment(tmp_path):
    res, _ = child(CONFIG, tmp_path, PTXJIT_SIM="1")
    assert res == {"debuginfo": False, "ptx_cc": None, "occupancy": True, "copy": True, "perf_off": False,
                   "opt": 3, "warnings": []}
    res, _ = child(CONFIG, tmp_path, PTXJIT_SIM="1", NUMBA_CUDA_DEBUGINFO="1", NUMBA_CUDA_DEFAULT_PTX_CC="7.5",
                   NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS="0", NUMBA_CUDA_WARN_ON_IMPLICIT_COPY="0",
                   NUMBA_DISABLE_PERFORMANCE_WARNINGS="1", NUMBA_OPT="0")
    assert res == {"debuginfo": True, "ptx_cc": [7, 5], "occupancy": False, "copy": False, "perf_off": True,
                   "opt": 0, "warnings": []}
    res, _ = child(CONFIG, tmp_path, PTXJIT_SIM="1", NUMBA_CUDA_DEFAULT_PTX_CC="sm80", NUMBA_CUDA_DEBUGINFO="yes")
    assert res["ptx_cc"] is None and res["debuginfo"] is False
    assert len(res["warnings"]) == 2, res
    assert any("NUMBA_CUDA_DEFAULT_PTX_CC='sm80'" in w and 'such as "8.0"' in w for w in res["warnings"])
    assert any("NUMBA_CUDA_DEBUGINFO='yes'" in w for w in res["warnings"])


def test_opt_level_setting(tmp_path):
    from ptxjit.cuda import config
    assert isinstance(config.OPT, config._OptLevel) and config.OPT == 3
    for v, want in ((0, 0), (2, 2), ("1", 1), ("max", 3)):
        o = config._OptLevel(v)
        assert o == want and isinstance(o, int) and o.is_opt_max == (v == "max")
    assert repr(config._OptLevel("max")) == "_OptLevel('max')"
    for bad in (4, -1, "fast", 1.5, True):
        with pytest.raises(ValueError, match="0, 1, 2, 3 or 'max'"):
            config._OptLevel(bad)
    res, _ = child(CONFIG, tmp_path, PTXJIT_SIM="1", NUMBA_OPT="max")
    assert res["opt"] == 3 and res["warnings"] == []
    res, _ = child(CONFIG, tmp_path, PTXJIT_SIM="1", NUMBA_OPT="7")
    assert res["opt"] == 3 and len(res["warnings"]) == 1 and "NUMBA_OPT='7'" in res["warnings"][0]
    # OPT = _OptLevel(0) makes opt=False the default of @cuda.jit, as NUMBA_OPT=0 does
    old = config.OPT
    try:
        config.OPT = config._OptLevel(0)
        k = cuda.jit(lambda a: None)
        assert k.targetoptions["opt"] is False
    finally:
        config.OPT = old


def test_environment_silences_performance_warnings(tmp_path):
    res, _ = child(RUN_KERNEL, tmp_path, PTXJIT_SIM="1")
    assert res["ok"] and len(res["warnings"]) == 2, res
    for env in ({"NUMBA_DISABLE_PERFORMANCE_WARNINGS": "1"},
                {"NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS": "0", "NUMBA_CUDA_WARN_ON_IMPLICIT_COPY": "0"}):
        res, _ = child(RUN_KERNEL, tmp_path, PTXJIT_SIM="1", **env)
        assert res["ok"] and res["warnings"] == [], (env, res)


# ------------------------------------------------- in this process

@pytest.fixture
def perf_warnings():
    """Numba's performance warnings on (conftest turns them off)."""
    c = cuda.config
    saved = c.CUDA_LOW_OCCUPANCY_WARNINGS, c.CUDA_WARN_ON_IMPLICIT_COPY, c.DISABLE_PERFORMANCE_WARNINGS
    c.CUDA_LOW_OCCUPANCY_WARNINGS, c.CUDA_WARN_ON_IMPLICIT_COPY, c.DISABLE_PERFORMANCE_WARNINGS = 1, 1, 0
    yield c
    c.CUDA_LOW_OCCUPANCY_WARNINGS, c.CUDA_WARN_ON_IMPLICIT_COPY, c.DISABLE_PERFORMANCE_WARNINGS = saved


def make_axpy():
    @cuda.jit
    def axpy(a, x, y):
        i = cuda.grid(1)
        if i < x.size:
            y[i] = a * x[i] + y[i]
    return axpy


def perf_messages(rec):
    return [str(w.message) for w in rec if issubclass(w.category, NumbaPerformanceWarning)]


def test_warning_classes():
    from ptxjit.core import errors as core_errors
    assert issubclass(NumbaPerformanceWarning, NumbaWarning) and issubclass(NumbaWarning, Warning)
    assert issubclass(NumbaInvalidConfigWarning, NumbaWarning)
    assert core_errors.NumbaPerformanceWarning is NumbaPerformanceWarning
    assert core_errors.NumbaInvalidConfigWarning is NumbaInvalidConfigWarning
    assert cuda.NumbaPerformanceWarning is NumbaPerformanceWarning
    assert ptxjit.core.errors.NumbaWarning is NumbaWarning


def test_low_occupancy_warning(perf_warnings):
    rng = np.random.default_rng(7)
    x = cuda.to_device(rng.standard_normal(4096))
    y0 = rng.standard_normal(4096)
    y = cuda.to_device(y0)
    axpy = make_axpy()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        axpy[4, 1024](2.5, x, y)       # 4 blocks: Numba's rule is fewer than 128
        axpy[(8, 1), 512](2.5, x, y)
    assert perf_messages(rec) == [
        "Grid size 4 will likely result in GPU under-utilization due to low occupancy.",
        "Grid size 8 will likely result in GPU under-utilization due to low occupancy."]
    assert rec[0].filename == __file__
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        axpy[128, 32](0.5, x, y)       # 128 blocks: no warning
        axpy[(128, 1, 1), 32](0.5, x, y)
    assert perf_messages(rec) == []
    np.testing.assert_allclose(y.copy_to_host(), y0 + 6 * x.copy_to_host(), rtol=1e-12)


def test_low_occupancy_warning_once_per_configuration(perf_warnings):
    """The warning is decided when a configuration is first made, so the
    steady launch loop pays nothing for it; Numba warns at every
    subscript, which the default warning filter shows once too."""
    x = cuda.to_device(np.arange(64.0))
    y = cuda.to_device(np.zeros(64))
    axpy = make_axpy()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        for _ in range(5):
            axpy[2, 32](1.0, x, y)
    assert len(perf_messages(rec)) == 1
    np.testing.assert_array_equal(y.copy_to_host(), 5 * np.arange(64.0))


@pytest.mark.parametrize("how", ["occupancy", "all", "filter"])
def test_low_occupancy_warning_silenced(perf_warnings, how):
    if how == "occupancy":
        perf_warnings.CUDA_LOW_OCCUPANCY_WARNINGS = 0
    elif how == "all":
        perf_warnings.DISABLE_PERFORMANCE_WARNINGS = 1
    x = cuda.to_device(np.arange(64.0))
    y = cuda.to_device(np.ones(64))
    axpy = make_axpy()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        if how == "filter":
            warnings.filterwarnings("ignore", category=NumbaPerformanceWarning)
        axpy[2, 32](3.0, x, y)
    assert perf_messages(rec) == []
    np.testing.assert_array_equal(y.copy_to_host(), 3 * np.arange(64.0) + 1)


def test_warning_as_error_stops_the_launch(perf_warnings):
    x = cuda.to_device(np.arange(64.0))
    y = cuda.to_device(np.ones(64))
    axpy = make_axpy()
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumbaPerformanceWarning)
        for _ in range(2):           # raised again: the configuration was not kept
            with pytest.raises(NumbaPerformanceWarning, match="Grid size 2 "):
                axpy[2, 32](3.0, x, y)
    np.testing.assert_array_equal(y.copy_to_host(), np.ones(64))


def test_implicit_copy_warning(perf_warnings):
    perf_warnings.CUDA_LOW_OCCUPANCY_WARNINGS = 0
    rng = np.random.default_rng(3)
    x = rng.standard_normal(1000)
    y0 = rng.standard_normal(1000)
    axpy = make_axpy()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        axpy[8, 128](2.0, cuda.to_device(x), y := cuda.to_device(y0))   # device arrays: no copies
        assert perf_messages(rec) == []
        axpy[8, 128](2.0, cuda.In(x), y)                                # asked for: no warning
        assert perf_messages(rec) == []
        yh = y.copy_to_host()
        axpy[7, 128](2.0, x, yh)                                        # NumPy arrays: copied
    msgs = perf_messages(rec)
    assert len(msgs) == 1 and msgs[0].startswith(
        "Host array used in CUDA kernel will incur copy overhead to/from device (kernel 'axpy')"), msgs
    np.testing.assert_allclose(yh[:896], y0[:896] + 6 * x[:896], rtol=1e-12)
    np.testing.assert_allclose(yh[896:], y0[896:] + 4 * x[896:], rtol=1e-12)
    perf_warnings.CUDA_WARN_ON_IMPLICIT_COPY = 0
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        axpy[9, 128](1.0, x, yh)
    assert perf_messages(rec) == []


def test_invalid_config_warning():
    with pytest.warns(NumbaInvalidConfigWarning, match="debug and lineinfo"):
        cuda.jit(debug=True, lineinfo=True)(lambda x: None)
    # Numba's condition: debug (default NUMBA_CUDA_DEBUGINFO) and opt (default NUMBA_OPT != 0)
    for kw in ({"debug": True, "opt": True}, {"debug": True}):
        with pytest.warns(NumbaInvalidConfigWarning, match="not supported by CUDA's NVVM.*ptxjit optimises"):
            cuda.jit(**kw)
    with pytest.warns(NumbaInvalidConfigWarning, match="not supported by CUDA"):
        cuda.compile_ptx(lambda x: None, "(float32[::1],)", debug=True)
    from ptxjit.cuda import config
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda.jit(debug=True, opt=False)
        cuda.jit()
        cuda.compile_ptx(lambda x: None, "(float32[::1],)", debug=True, opt=False)
        old = config.OPT
        try:
            config.OPT = config._OptLevel(0)
            cuda.jit(debug=True)
        finally:
            config.OPT = old
    old = config.CUDA_DEBUGINFO_DEFAULT
    try:
        config.CUDA_DEBUGINFO_DEFAULT = True
        for opt in (1, 2, 3, "max"):
            config.OPT, keep = config._OptLevel(opt), config.OPT
            try:
                with pytest.warns(NumbaInvalidConfigWarning, match="not supported by CUDA"):
                    cuda.jit()
            finally:
                config.OPT = keep
    finally:
        config.CUDA_DEBUGINFO_DEFAULT = old


def _divide(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] // y[i]


def test_debuginfo_default(monkeypatch):
    """NUMBA_CUDA_DEBUGINFO=1 makes debug=True the default: a division by
    zero raises ZeroDivisionError, as Numba's debug kernels do."""
    x = np.random.default_rng(2).integers(1, 1000, 64)
    y = np.random.default_rng(4).integers(1, 9, 64)
    y[17] = 0
    monkeypatch.setattr(cuda.config, "CUDA_DEBUGINFO_DEFAULT", True)
    k = cuda.jit(_divide)
    assert k.targetoptions["debug"] is True
    with pytest.raises(ZeroDivisionError):
        k[1, 64](cuda.to_device(x), cuda.to_device(y), cuda.device_array(64, np.int64))
    assert cuda.jit(debug=False)(_divide).targetoptions["debug"] is False
    monkeypatch.setattr(cuda.config, "CUDA_DEBUGINFO_DEFAULT", False)
    k = cuda.jit(_divide)
    out = cuda.device_array(64, np.int64)
    y[17] = 1
    k[1, 64](cuda.to_device(x), cuda.to_device(y), out)
    np.testing.assert_array_equal(out.copy_to_host(), x // y)


def test_default_ptx_cc(monkeypatch):
    def store(x):
        x[0] = 1.5
    monkeypatch.setattr(cuda.config, "CUDA_DEFAULT_PTX_CC", (7, 5))
    ptx, _ = cuda.compile_ptx(store, "void(float64[::1])")
    assert ".target sm_75" in ptx
    ptx, _ = cuda.compile_ptx(store, "void(float64[::1])", cc=(8, 6))
    assert ".target sm_86" in ptx


# ------------------------------------------- on the fake CUDA driver

from test_runtime import fake_driver, run_fake  # noqa: E402,F401  (a driver that counts its calls)

FOREIGN_STREAMS = """
    class Foreign:
        def __init__(self, d, stream):
            self.d = d
            cai = dict(d.__cuda_array_interface__)
            cai["stream"] = stream
            self.__cuda_array_interface__ = cai

    @cuda.jit
    def k(a, b):
        i = cuda.grid(1)
        if i < a.size:
            b[i] = a[i]

    x = cuda.to_device(np.arange(8, dtype=np.float32))
    y = cuda.device_array(8, np.float32)
    s = cuda.stream()
    w0 = get("stream_waits")
    k[1, 8](Foreign(x, s.handle), y)
    result["launch_waits"] = get("stream_waits") - w0
    y0 = get("syncs")
    v = cuda.as_cuda_array(Foreign(x, s.handle))
    result["as_array_syncs"] = get("syncs") - y0
    result["same_memory"] = v._ptr == x._ptr
"""


def test_array_interface_sync_setting(fake_driver, tmp_path):
    """NUMBA_CUDA_ARRAY_INTERFACE_SYNC=0: neither a launch nor as_cuda_array
    waits for the stream a __cuda_array_interface__ names."""
    on = run_fake(FOREIGN_STREAMS, fake_driver, tmp_path)
    assert on == {"launch_waits": 1, "as_array_syncs": 1, "same_memory": True}, on
    off = run_fake(FOREIGN_STREAMS, fake_driver, tmp_path, NUMBA_CUDA_ARRAY_INTERFACE_SYNC=0)
    assert off == {"launch_waits": 0, "as_array_syncs": 0, "same_memory": True}, off
    off = run_fake("cuda.config.CUDA_ARRAY_INTERFACE_SYNC = 0\n" + textwrap.dedent(FOREIGN_STREAMS),
                   fake_driver, tmp_path)
    assert off == {"launch_waits": 0, "as_array_syncs": 0, "same_memory": True}, off


def test_dlpack_on_the_gpu_backend(fake_driver, tmp_path):
    """On the GPU a device array is kDLCUDA memory of device 0; __dlpack__
    waits for the device unless the consumer says stream=-1, and refuses
    stream=0 (ambiguous for CUDA)."""
    res = run_fake("""
        d = cuda.to_device(np.arange(6.0))
        result["device"] = list(d.__dlpack_device__())
        syncs = []
        for s in (None, 1, 2, -1):
            y0 = get("syncs")
            d.__dlpack__(stream=s)
            syncs.append(get("syncs") - y0)
        result["syncs"] = syncs
        try:
            d.__dlpack__(stream=0)
        except ValueError as e:
            result["zero"] = str(e)
        try:
            cuda.from_dlpack(np.arange(3.0))
        except BufferError as e:
            result["cpu"] = str(e)
        e = cuda.from_dlpack(d)
        result["shared"] = e._ptr == d._ptr and e.shape == (6,)
    """, fake_driver, tmp_path)
    assert res["device"] == [2, 0] and res["syncs"] == [1, 1, 1, 0] and res["shared"], res
    assert "ambiguous" in res["zero"] and "kDLCPU" in res["cpu"], res
