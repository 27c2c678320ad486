"""compile_ptx(device=True): a device function alone, as a .visible .func
in Numba's ABI or the C ABI, which other code links against.  Round trip:
the PTX made here is the link= code of a cuda.declare_device in the same
ABI, and the kernel calling it links with ptxas and nvlink (no GPU needed)
and, on the GPU, gives NumPy's results on random data."""

import math

import numpy as np
import pytest

from ptxjit import cuda, types

from conftest import ON_GPU
from test_declare_device import _link, _tool


def hyp2(a, b):
    return math.sqrt(a * a + b * b)


@cuda.jit(device=True)
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


def mix(a, b, c, d):
    return (a + b) * c - d


def _dev(fn, sig, **kw):
    return cuda.compile_ptx(fn, sig, device=True, cc=(7, 5), **kw)


def test_abis_and_names():
    ptx, ret = _dev(hyp2, (types.float64, types.float64))
    assert ret == types.float64
    assert ".visible .func (.param .b32 func_retval0) hyp2(.param .b64 hyp2_param_0, .param .f64 hyp2_param_1, " \
           ".param .f64 hyp2_param_2)" in ptx
    assert ".entry" not in ptx and "st.param.b32 [func_retval0], 0;" in ptx
    ptx, ret = _dev(hyp2, "float32(float32, float32)", abi="c")
    assert ret == types.float32 and ".visible .func (.param .f32 func_retval0) hyp2(.param .f32 hyp2_param_0" in ptx
    ptx, ret = _dev(lambda x: x, types.int32(types.int32), abi="c", abi_info={"abi_name": "_Z4funci"})
    assert ".visible .func (.param .b32 func_retval0) _Z4funci(" in ptx
    ptx, ret = cuda.compile(mix, "int64(int64, int64, int64, int64)", device=True, abi="c", cc=(7, 5))
    assert ret == types.int64 and ".visible .func (.param .b64 func_retval0) mix(" in ptx


@pytest.mark.parametrize("sig", ["int8(int8, int8, int8, int8)", "uint16(uint16, uint16, uint16, uint16)",
                                 "int32(int32, int32, int32, int32)", "uint64(uint64, uint64, uint64, uint64)",
                                 "float32(float32, float32, float32, float32)", "float64(float64, int32, float32, int64)",
                                 "boolean(boolean, boolean, boolean, boolean)",
                                 "float16(float16, float16, float16, float16)", "float32(float16, int8, uint8, int16)"])
@pytest.mark.parametrize("abi", ["numba", "c"])
def test_ptxas_takes_every_type(tmp_path, sig, abi):
    ptxas = _tool("ptxas")
    import subprocess
    ptx, _ = _dev(mix, sig, abi=abi)
    p = tmp_path / "f.ptx"
    p.write_text(ptx)
    r = subprocess.run([ptxas, "-arch=sm_75", "-c", str(p), "-o", str(tmp_path / "f.o")], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr + ptx


def test_refusals():
    with pytest.raises(NotImplementedError, match="Unsupported ABI: fastcall"):
        _dev(hyp2, "float64(float64, float64)", abi="fastcall")
    with pytest.raises(NotImplementedError, match="The C ABI is not supported for kernels"):
        cuda.compile_ptx(hyp2, "void(float64, float64)", abi="c")
    with pytest.raises(cuda.TypingError, match="parameter 'a' is a array"):
        _dev(lambda a: a[0], "float32(float32[::1])")
    with pytest.raises(cuda.TypingError, match="returns UniTuple|returns Tuple|returns \\("):
        _dev(lambda a: (a, a), "(float32,)")
    with pytest.raises(TypeError, match="abi_info"):
        _dev(hyp2, "float64(float64, float64)", abi="c", abi_info={"name": "x"})
    with pytest.raises(NotImplementedError, match="output='ptx'"):
        cuda.compile(hyp2, "float64(float64, float64)", device=True, output="cubin")


# the functions compiled above, declared in their ABI, called by kernels
HYP2_PTX = _dev(hyp2, "float64(float64, float64)")[0]
FACT_PTX = _dev(fact, "int64(int64)", abi="c", abi_info={"abi_name": "fact_c"})[0]
ext_hyp2 = cuda.declare_device("hyp2", "float64(float64, float64)", link=cuda.PTXSource(HYP2_PTX, name="hyp2.ptx"))
ext_fact = cuda.declare_device("fact_c", "int64(int64)", link=cuda.PTXSource(FACT_PTX, name="fact.ptx"), abi="c")


def k_round_trip(r, f, a, b, n):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = ext_hyp2(a[i], b[i])
        f[i] = ext_fact(n[i])


SIG = "void(float64[::1], int64[::1], float64[::1], float64[::1], int64[::1])"


def test_round_trip_links(tmp_path):
    kernel = cuda.compile_ptx(k_round_trip, SIG, cc=(7, 5))[0]
    rc, err = _link(tmp_path, [kernel, HYP2_PTX, FACT_PTX])
    assert rc == 0 and "error" not in err, err         # (a warning: recursion's stack size is unknown)
    assert "fact_c" in FACT_PTX and FACT_PTX.count("call (") >= 1     # recursion: a real call


def half_fma(a, b):
    return a * b + np.float16(1)


def test_float16_travels_as_its_16_bits():
    """Numba's ABI passes a float16 argument or result as .b16 (a result
    stored with st.b16), and so does the C ABI; ptxjit computes in f32."""
    ptx, ret = _dev(half_fma, (types.float16, types.float16))
    assert ret == types.float16
    assert "half_fma(.param .b64 half_fma_param_0, .param .b16 half_fma_param_1, .param .b16 half_fma_param_2)" \
        in ptx
    assert "ld.param.b16" in ptx and "cvt.f32.f16" in ptx and "st.b16 [" in ptx
    ptx, ret = _dev(half_fma, "float16(float16, float16)", abi="c")
    assert ".visible .func (.param .b16 func_retval0) half_fma(.param .b16 half_fma_param_0, " in ptx
    assert "st.param.b16 [func_retval0]" in ptx
    ptx, _ = _dev(lambda x: np.float16(x) * np.float16(0.5), (types.int8,))
    assert "cvt.rn.f16.s8" in ptx


HALF_PTX = _dev(half_fma, "float16(float16, float16)")[0]
HALF_C_PTX = _dev(half_fma, "float16(float16, float16)", abi="c", abi_info={"abi_name": "half_fma_c"})[0]
ext_half = cuda.declare_device("half_fma", "float16(float16, float16)",
                               link=cuda.PTXSource(HALF_PTX, name="half.ptx"))
ext_half_c = cuda.declare_device("half_fma_c", "float16(float16, float16)",
                                 link=cuda.PTXSource(HALF_C_PTX, name="half_c.ptx"), abi="c")


def k_half(r, a, b):
    i = cuda.grid(1)
    if i < a.size:
        r[0, i] = ext_half(a[i], b[i])
        r[1, i] = ext_half_c(a[i], b[i])


HALF_SIG = "void(float16[:, ::1], float16[::1], float16[::1])"


def test_float16_round_trip_links(tmp_path):
    kernel = cuda.compile_ptx(k_half, HALF_SIG, cc=(7, 5))[0]
    assert ".extern .func (.param .b32 __pj_st) half_fma(.param .b64 __pj_rp, .param .b16 __pj_a0, " \
           ".param .b16 __pj_a1);" in kernel
    assert ".extern .func (.param .b16 __pj_r) half_fma_c(.param .b16 __pj_a0, .param .b16 __pj_a1);" in kernel
    assert "ld.local.b16" in kernel
    rc, err = _link(tmp_path, [kernel, HALF_PTX, HALF_C_PTX])
    assert rc == 0 and "error" not in err, err


@pytest.mark.skipif(not ON_GPU, reason="external code runs on the GPU only")
def test_float16_round_trip_results_on_the_gpu():
    rng = np.random.default_rng(12)
    n = 300
    a = (rng.standard_normal(n) * 8).astype(np.float16)
    b = (rng.standard_normal(n) * 8).astype(np.float16)
    r = np.zeros((2, n), np.float16)
    cuda.jit(k_half)[(n + 63) // 64, 64](r, a, b)
    # one fused multiply-add rounded once to float16 (as Numba's half
    # arithmetic, which ptxas contracts); exact in float64 before it
    want = (a.astype(np.float64) * b + 1).astype(np.float16)
    np.testing.assert_array_equal(r[0], want)
    np.testing.assert_array_equal(r[1], want)


@pytest.mark.skipif(not ON_GPU, reason="external code runs on the GPU only")
def test_round_trip_results_on_the_gpu():
    rng = np.random.default_rng(11)
    n = 513
    a, b = rng.standard_normal(n) * 10, rng.standard_normal(n) * 10
    m = rng.integers(0, 20, n)
    r, f = np.zeros(n), np.zeros(n, np.int64)
    cuda.jit(k_round_trip)[(n + 63) // 64, 64](r, f, a, b, m)
    # a * a + b * b has a fused multiply-add in it (as NVVM would make), so
    # the last bit may differ from NumPy's
    np.testing.assert_allclose(r, np.sqrt(a * a + b * b), rtol=4e-16, atol=0)
    np.testing.assert_array_equal(f, [math.factorial(max(int(x), 1)) for x in m])
