"""The dispatcher's host API as Numba's: the compiled kernels of
k.overloads and their resource attributes, device functions' compile /
overloads / inspection, cuda.compile's outputs and pickling.  Runs on the
simulator, and on the GPU with PTXJIT_TEST_GPU=1; test_fake_driver_* run a
child on the fake driver (tests/fake_cuda)."""

import math

import numpy as np
import pytest

from ptxjit import cuda

from conftest import ON_GPU
from test_runtime import fake_driver, run_fake  # noqa: F401  (fixture)


@cuda.jit("void(float32[::1], float32[::1])")
def smooth(x, out):
    s = cuda.shared.array(128, np.float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    if i < x.size:
        s[t] = x[i]
    cuda.syncthreads()
    if i < x.size:
        out[i] = s[t] + s[(t + 1) % 128]


SIG = ("float32[::1]", "float32[::1]")


def test_overload_resource_attributes_match_the_getters(rng):
    k = smooth.overloads[SIG]
    if not ON_GPU:
        # the compiled code's figures (tests/test_kernel_resources.py), registers estimated
        assert k.shared_mem_per_block == smooth.get_shared_mem_per_block(SIG) == 128 * 4
        assert k.local_mem_per_thread == k.const_mem_size == 0
        assert k.max_threads_per_block == 1024
        assert 0 < k.regs_per_thread == smooth.get_regs_per_thread(SIG) <= 255
        # the simulated device is one H100 SM: 2048 threads, 32 blocks
        assert k.max_cooperative_grid_blocks(128) == k.max_cooperative_grid_blocks((8, 16)) == 16
        assert k.max_cooperative_grid_blocks(1024) == 2
        assert k.cooperative is False
        return
    assert k.regs_per_thread == smooth.get_regs_per_thread(SIG) > 0
    assert k.shared_mem_per_block == smooth.get_shared_mem_per_block(SIG) >= 128 * 4
    assert k.local_mem_per_thread == smooth.get_local_mem_per_thread(SIG)
    assert k.const_mem_size == smooth.get_const_mem_size(SIG)
    assert k.max_threads_per_block == smooth.get_max_threads_per_block(SIG) >= 128
    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    blocks = k.max_cooperative_grid_blocks(128)
    assert blocks >= sms and blocks % sms == 0
    assert k.max_cooperative_grid_blocks((8, 16)) == blocks
    assert k.max_cooperative_grid_blocks(1024) <= blocks
    assert k.cooperative is False


def test_fake_driver_overload_resources(fake_driver, tmp_path):
    res = run_fake("""
        @cuda.jit("void(float32[::1], float32[::1])")
        def k(x, y):
            y[0] = x[0]
        o = k.overloads[("float32[::1]", "float32[::1]")]
        result["attrs"] = [o.max_threads_per_block, o.shared_mem_per_block, o.const_mem_size,
                           o.local_mem_per_thread, o.regs_per_thread]
        result["coop"] = [o.max_cooperative_grid_blocks(256), o.max_cooperative_grid_blocks((16, 16), 1024),
                          o.max_cooperative_grid_blocks(1024), o.max_cooperative_grid_blocks(blockdim=32)]
        errs = []
        for bad in (0, 2000, (32, 64), "x"):
            try:
                o.max_cooperative_grid_blocks(bad)
            except (TypeError, ValueError) as e:
                errs.append(type(e).__name__ + ": " + str(e))
        result["errs"] = errs
    """, fake_driver, tmp_path)
    assert "raised" not in res, res
    assert res["attrs"] == [1024, 256, 8, 16, 32]
    assert res["coop"] == [8 * 132, 8 * 132, 2 * 132, 32 * 132]     # the fake's SM: 2048 threads, 32 blocks
    assert len(res["errs"]) == 4 and all("max_cooperative_grid_blocks" in e for e in res["errs"]), res
    assert res["errs"][3].startswith("TypeError")


@cuda.jit(device=True)
def fma1(x, y):
    return x * y + 1


@cuda.jit
def use_fma1(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = fma1(a[i], b[i])


def test_device_function_compile_device_and_overloads(rng):
    from ptxjit import float32, int32
    o = fma1.compile_device((int32, int32))
    assert o.argument_types == ("int32", "int32") and o.return_type == "int64"     # Numba's int32 * int32
    assert fma1.compile_device(("int32", "int32")) is o and fma1.overloads[("int32", "int32")] is o
    assert fma1.compile("(float32, float32)").return_type == "float64"        # float32 + an int64 literal
    assert fma1.compile_device((float32, float32), float32).return_type == "float64"   # already typed
    assert fma1.compile("float32(int16, int16)").signature == "float32(int16, int16)"
    assert set(fma1.signatures) >= {("int32", "int32"), ("float32", "float32"), ("int16", "int16")}
    assert o.py_func is fma1.py_func
    with pytest.raises(TypeError, match="is a kernel, not a device function"):
        use_fma1.compile_device((int32,))
    # typing it changes nothing for the kernels that call it
    a = rng.integers(-1000, 1000, 300).astype(np.int32)
    b = rng.integers(-1000, 1000, 300).astype(np.int32)
    out = np.zeros(300, np.int64)
    use_fma1[3, 128](a, b, out)
    np.testing.assert_array_equal(out, a.astype(np.int64) * b + 1)


def test_device_function_inspection():
    import io
    from ptxjit import float64
    fma1.compile_device((float64, float64))
    buf = io.StringIO()
    fma1.inspect_types(file=buf)
    text = buf.getvalue()
    assert "fma1 float64(float64, float64)" in text and "return x * y + 1" in text, text
    buf = io.StringIO()
    fma1.inspect_types(file=buf, signature=("int8", "int8"))
    assert "fma1 int64(int8, int8)" in buf.getvalue()
    with pytest.raises(RuntimeError, match="Cannot inspect SASS of a device function"):
        fma1.inspect_sass()
    asm = fma1.inspect_asm()
    assert set(asm) == set(fma1.overloads) and ("int8", "int8") in asm
    for ptx in asm.values():
        assert ".visible .func (.param .b32 func_retval0) fma1(" in ptx and ".entry" not in ptx


@cuda.jit(device=True, fastmath=True)
def fast_ratio(x, y):
    return math.sin(x) / y


@cuda.jit("float32(float32, float32)", device=True)
def ratio(x, y):
    return math.sin(x) / y


def test_device_function_inspect_asm_is_the_function_alone():
    """inspect_asm() of a device function is its PTX compiled on its own
    (compile_ptx(device=True)), with the dispatcher's options, for every
    signature typed (the declared ones without a call, the one asked for
    when none is declared); ptxas takes it."""
    from ptxjit import float32, int32
    from conftest import assert_ptx_assembles
    sig = (float32, float32)
    fast = fast_ratio.inspect_asm(sig)
    assert "sin.approx.ftz.f32" in fast and "div.approx.ftz.f32" in fast and "div.rn.f32" not in fast
    prec = ratio.inspect_asm(sig)
    assert "div.rn.f32" in prec and ".approx" not in prec
    assert list(ratio.inspect_asm()) == [("float32", "float32")]
    assert ratio.overloads[sig].inspect_asm() == prec
    name = ratio.overloads[sig].fndesc.mangled_name
    assert "ratio" in name and (".func (.param .b32 func_retval0) %s(" % name) in prec
    assert ".target sm_80" in ratio.overloads[sig].inspect_asm((8, 0))
    fast_ratio.compile_device((int32, float32))
    assert set(fast_ratio.inspect_asm()) == {("float32", "float32"), ("int32", "float32")}
    assert "st.f64" in fast_ratio.inspect_asm((int32, float32))     # sin of an int is a float64
    with pytest.raises(KeyError, match="no compiled signature"):
        ratio.inspect_asm((int32, int32))
    assert_ptx_assembles([fast_ratio, ratio], 3)


def test_inspect_dicts_take_type_tuples_and_kernels_inspect_asm():
    """inspect_asm() and the other per-signature dicts are looked up with
    a tuple of types, as overloads are (Numba's users write
    `k.inspect_asm()[(float32[::1],)]`); a compiled kernel gives its PTX
    through inspect_asm(cc) for its own target and refuses another."""
    from ptxjit import float32
    sig = (float32[::1], float32[::1])
    ptx = smooth.inspect_asm()
    assert ptx[sig] == ptx[SIG] == smooth.overloads[sig].ptx
    k = smooth.overloads[sig]
    arch = int(k.ptx.split("\n.target sm_")[1][:2])
    assert k.inspect_asm() == k.inspect_asm((arch // 10, arch % 10)) == k.ptx
    with pytest.raises(ValueError, match="compile_ptx.*cc="):
        k.inspect_asm((arch // 10 - 1, 0))


def test_forceinline_is_for_ltoir_only():
    """As Numba: cuda.compile(forceinline=True) asks for LTO-IR, which
    ptxjit does not make; a PTX request with it is a ValueError."""
    def set_zero(a):
        a[0] = 0
    with pytest.raises(ValueError, match="Can only designate forced inlining in LTO-IR"):
        cuda.compile(set_zero, "void(float32[::1])", device=True, forceinline=True)
    with pytest.raises(ValueError, match="Can only designate forced inlining in LTO-IR"):
        cuda.compile_all(set_zero, "void(float32[::1])", device=True, output="ptx", forceinline=True)


def test_debug_without_source_warns():
    """debug=True for a function whose text Python cannot show (exec)
    gives Numba's NumbaDebugInfoWarning naming the function, once; one
    defined in a file gives none."""
    import warnings
    from ptxjit.errors import NumbaDebugInfoWarning, NumbaWarning
    assert issubclass(NumbaDebugInfoWarning, NumbaWarning)
    ns = {"cuda": cuda}
    exec("def fill(a):\n    a[cuda.grid(1)] = 7\n", ns)
    k = cuda.jit(debug=True, opt=False)(ns["fill"])
    a = np.zeros(4, np.int32)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        k[1, 4](a)
        k[1, 4](a)
    found = [x for x in w if x.category is NumbaDebugInfoWarning]
    assert len(found) == 1 and "Could not find source for function" in str(found[0].message)
    assert str(ns["fill"]) in str(found[0].message)
    assert a.tolist() == [7] * 4
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        cuda.jit(debug=True, opt=False)(scale)[1, 4](np.zeros(4, np.float32), np.ones(4, np.float32), 2.0)
    assert not [x for x in w if x.category is NumbaDebugInfoWarning], [str(x.message) for x in w]


def test_inspect_sass():
    from ptxjit.inspect_html import _tool
    if _tool("nvdisasm") is None:
        with pytest.raises(RuntimeError, match=r"nvdisasm was not found.*inspect_asm\(\)"):
            smooth.inspect_sass(SIG)
        with pytest.raises(RuntimeError, match="nvdisasm was not found"):
            smooth.inspect_sass_cfg()
    elif ON_GPU:
        sass = smooth.inspect_sass(SIG)
        assert smooth.overloads[SIG].entry in sass and "EXIT" in sass
        assert set(smooth.inspect_sass()) == {SIG}
        assert "digraph" in smooth.inspect_sass_cfg(SIG)
    else:
        with pytest.raises(ValueError, match="the simulator makes no machine code"):
            smooth.inspect_sass(SIG)


def scale(out, x, a):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * a


def test_compile_outputs():
    sig = "void(float32[::1], float32[::1], float32)"
    ptx, ret = cuda.compile(scale, sig, device=False, output="ptx")
    assert ".entry" in ptx and str(ret) == "void"
    with pytest.raises(NotImplementedError, match="NVVM or nvJitLink"):
        cuda.compile(scale, sig, device=False, output="ltoir")
    if ON_GPU:
        cubin, ret = cuda.compile(scale, sig, device=False, output="cubin")
        assert isinstance(cubin, bytes) and cubin[:4] == b"\x7fELF" and str(ret) == "void"
        codes, _ = cuda.compile_all(scale, sig, device=False, output="cubin")
        assert len(codes) == 1 and codes[0][:4] == b"\x7fELF"
    else:
        with pytest.raises(RuntimeError, match="simulator"):
            cuda.compile(scale, sig, device=False, output="cubin")


def test_fake_driver_compile_cubin(fake_driver, tmp_path):
    res = run_fake("""
        def scale(out, x, a):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = x[i] * a
        cubin, ret = cuda.compile(scale, "void(float32[::1], float32[::1], float32)", device=False, output="cubin")
        result["head"] = cubin[:16].decode("latin-1")
        result["has_entry"] = b".entry" in cubin
        result["links"] = get("links")
    """, fake_driver, tmp_path)
    assert "raised" not in res, res
    assert res["head"].startswith("\x7fELF") and res["has_entry"] and res["links"] == 1, res
