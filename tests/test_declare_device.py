"""cuda.declare_device: device functions defined outside Python (PTX written
here, CUDA C through NVRTC), called from kernels in Numba's ABI or the C
ABI, linked by the CUDA driver's own linker.

On the GPU the kernels run against NumPy on random data.  Without one,
the PTX is checked by linking it with the toolkit's ptxas and nvlink (the
symbols and their ABI must match), the driver calls by the fake driver
(tests/fake_cuda), and the simulator refuses the call at its line.
"""

import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from ptxjit import cuda
from ptxjit.cuda import linkable, nvrtc

from conftest import ON_GPU, ROOT
from test_runtime import PKG_DIR

HEADER = ".version 7.8\n.target sm_75\n.address_size 64\n"

# Numba's ABI: int NAME(RET *out, ARGS...), the result stored through out.
MULADD_PTX = HEADER + """
.visible .func (.param .b32 st) muladd(.param .b64 rp, .param .b32 a, .param .b32 b)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [rp];
    ld.param.b32 %r1, [a];
    ld.param.b32 %r2, [b];
    mad.lo.s32 %r3, %r1, %r2, 7;
    st.u32 [%rd1], %r3;
    mov.b32 %r4, 0;
    st.param.b32 [st], %r4;
    ret;
}
"""

HYPOT_PTX = HEADER + """
.visible .func (.param .b32 st) hyp(.param .b64 rp, .param .f64 a, .param .f64 b)
{
    .reg .f64 %fd<6>;
    .reg .b64 %rd<2>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [rp];
    ld.param.f64 %fd1, [a];
    ld.param.f64 %fd2, [b];
    mul.rn.f64 %fd3, %fd1, %fd1;
    mul.rn.f64 %fd4, %fd2, %fd2;
    add.rn.f64 %fd5, %fd3, %fd4;
    sqrt.rn.f64 %fd5, %fd5;
    st.f64 [%rd1], %fd5;
    mov.b32 %r1, 0;
    st.param.b32 [st], %r1;
    ret;
}

.visible .func (.param .b32 st) is_odd(.param .b64 rp, .param .b64 a)
{
    .reg .b64 %rd<4>;
    .reg .b16 %h<2>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [rp];
    ld.param.b64 %rd2, [a];
    and.b64 %rd3, %rd2, 1;
    cvt.u16.u64 %h1, %rd3;
    st.u8 [%rd1], %h1;
    mov.b32 %r1, 0;
    st.param.b32 [st], %r1;
    ret;
}
"""

# The C ABI: RET NAME(ARGS...).
CLAMP_PTX = HEADER + """
.visible .func (.param .f32 r) clampf(.param .f32 x)
{
    .reg .f32 %f<3>;
    ld.param.f32 %f1, [x];
    max.f32 %f2, %f1, 0fBF800000;
    min.f32 %f2, %f2, 0f3F800000;
    st.param.f32 [r], %f2;
    ret;
}
"""

muladd = cuda.declare_device("muladd", "int32(int32, int32)", link=cuda.PTXSource(MULADD_PTX, name="muladd.ptx"))
hyp = cuda.declare_device("hyp", "float64(float64, float64)", link=[cuda.PTXSource(HYPOT_PTX, name="hyp.ptx")])
is_odd = cuda.declare_device("is_odd", "boolean(int64)", link=[cuda.PTXSource(HYPOT_PTX, name="hyp.ptx")])
clampf = cuda.declare_device("clampf", "float32(float32)", link=cuda.PTXSource(CLAMP_PTX, name="clamp.ptx"),
                             abi="c")


@cuda.jit(device=True)
def twice_muladd(a, b):
    return muladd(muladd(a, b), 2)


def k_int(r, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = twice_muladd(x[i], y[i])


def k_float(r, o, c, a, b, n):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = hyp(a[i], b[i])
        o[i] = is_odd(n[i])
        c[i] = clampf(np.float32(a[i]))


def _ptx(kernel, sig):
    return cuda.compile_ptx(kernel, sig, cc=(7, 5))[0]


# ------------------------------------------------------------- the API

def test_declaration_api():
    f = cuda.declare_device("f1", "int32(float32[:])")
    assert f.name == "f1"
    from ptxjit import types
    assert f.sig.return_type == types.int32 and f.sig.args == (types.float32[:],)
    from ptxjit.cuda.callconv import CCallConv, CUDACallConv
    assert f.call_conv == CUDACallConv() and clampf.call_conv == CCallConv()
    g = cuda.declare_device("f1", types.int32(types.float32[:]))
    assert g.sig == f.sig
    with pytest.raises(TypeError, match="Return type"):
        cuda.declare_device("f1", (types.float32[:],))
    with pytest.raises(TypeError, match="Return type"):
        cuda.declare_device("f1", "(float32[:],)")
    with pytest.raises(NotImplementedError, match="Unsupported ABI"):
        cuda.declare_device("f1", "int32(int32)", abi="fortran")
    with pytest.raises(TypeError, match="call it from a kernel"):
        muladd(1, 2)


def test_linkable_code_kinds(tmp_path):
    p = tmp_path / "fn.ptx"
    p.write_text(MULADD_PTX)
    code = cuda.LinkableCode.from_path(str(p))
    assert isinstance(code, cuda.PTXSource) and code.name == "fn.ptx" and code.data == MULADD_PTX
    for ext, cls in ((".cu", cuda.CUSource), (".cubin", cuda.Cubin), (".fatbin", cuda.Fatbin), (".o", cuda.Object),
                     (".a", cuda.Archive), (".ltoir", cuda.LTOIR)):
        q = tmp_path / ("x" + ext)
        q.write_bytes(b"abc")
        assert type(cuda.LinkableCode.from_path(str(q))) is cls
    with pytest.raises(ValueError, match="extension"):
        (tmp_path / "x.txt").write_text("")
        cuda.LinkableCode.from_path(str(tmp_path / "x.txt"))
    kind, data, name = linkable.link_inputs(code, (9, 0))
    assert kind == 1 and data == MULADD_PTX.encode() + b"\0" and name == "fn.ptx"
    assert linkable.link_inputs(cuda.Cubin(b"\x7fELF..", name="a.cubin"), (9, 0))[0] == 0
    with pytest.raises(NotImplementedError, match="nvJitLink"):
        linkable.link_inputs(cuda.LTOIR(b"x"), (9, 0))
    with pytest.raises(TypeError, match="link= takes"):
        cuda.declare_device("f", "int32(int32)", link=[42])


def test_missing_nvrtc_is_named(monkeypatch):
    monkeypatch.setenv("PTXJIT_NVRTC", "/nonexistent/libnvrtc.so")
    monkeypatch.setattr(nvrtc, "_lib", None)
    src = cuda.CUSource('extern "C" __device__ int f(int *out, int a) { *out = a; return 0; }', name="f.cu")
    with pytest.raises(nvrtc.NvrtcError) as e:
        linkable.link_inputs(src, (9, 0))
    msg = str(e.value)
    assert "libnvrtc" in msg and "/nonexistent/libnvrtc.so" in msg and "PTXSource" in msg


# ------------------------------------------- the PTX, linked by the toolkit

def _tool(name):
    path = shutil.which(name) or os.path.join("/usr/local/cuda/bin", name)
    if not os.path.exists(path):
        pytest.skip("%s is not installed" % name)
    return path


def _link(tmp_path, pieces):
    """ptxas -c each PTX text, then nvlink them: (returncode, stderr)."""
    ptxas, nvlink = _tool("ptxas"), _tool("nvlink")
    objs = []
    for n, text in enumerate(pieces):
        src, obj = tmp_path / ("p%d.ptx" % n), tmp_path / ("p%d.o" % n)
        src.write_text(text)
        r = subprocess.run([ptxas, "-arch=sm_75", "-c", str(src), "-o", str(obj)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        objs.append(str(obj))
    r = subprocess.run([nvlink, "-arch=sm_75", *objs, "-o", str(tmp_path / "out.cubin")], capture_output=True,
                       text=True)
    return r.returncode, r.stderr


def test_calls_link_with_the_functions_they_declare(tmp_path):
    ptx_i = _ptx(k_int, "void(int32[::1], int32[::1], int32[::1])")
    assert ".extern .func (.param .b32 __pj_st) muladd(.param .b64 __pj_rp, .param .b32 __pj_a0, " \
           ".param .b32 __pj_a1);" in ptx_i
    assert ptx_i.count("call (__pj_cst), muladd,") == 2
    ptx_f = _ptx(k_float, "void(float64[::1], boolean[::1], float32[::1], float64[::1], float64[::1], int64[::1])")
    assert ".extern .func (.param .f32 __pj_r) clampf(.param .f32 __pj_a0);" in ptx_f
    assert _link(tmp_path, [ptx_i, MULADD_PTX]) == (0, "")
    assert _link(tmp_path, [ptx_f, HYPOT_PTX, CLAMP_PTX]) == (0, "")
    rc, err = _link(tmp_path, [ptx_f, HYPOT_PTX])
    assert rc != 0 and "clampf" in err


@pytest.mark.skipif(not nvrtc.is_available(), reason="libnvrtc is not installed")
def test_cuda_c_compiles_through_nvrtc(tmp_path):
    src = cuda.CUSource(textwrap.dedent("""
        extern "C" __device__ int muladd(int *out, int a, int b) { *out = a * b + 7; return 0; }
    """), name="muladd.cu")
    kind, ptx, name = linkable.link_inputs(src, (7, 5))
    assert kind == 1 and name == "muladd.cu" and b".func" in ptx and b"muladd" in ptx
    text = ptx.rstrip(b"\0").decode()
    assert _link(tmp_path, [_ptx(k_int, "void(int32[::1], int32[::1], int32[::1])"), text]) == (0, "")
    with pytest.raises(nvrtc.NvrtcError, match="bad.cu"):
        linkable.link_inputs(cuda.CUSource("this is not C", name="bad.cu"), (7, 5))


# ---------------------------------------------------- running the kernels

@pytest.mark.skipif(not ON_GPU, reason="external code runs on the GPU only")
def test_results_on_the_gpu():
    rng = np.random.default_rng(7)
    n = 1000
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    y = rng.integers(-1000, 1000, n).astype(np.int32)
    r = np.zeros(n, np.int32)
    cuda.jit(k_int)[(n + 127) // 128, 128](r, x, y)
    np.testing.assert_array_equal(r, (x * y + 7) * 2 + 7)
    a, b = rng.standard_normal(n) * 3, rng.standard_normal(n) * 3
    m = rng.integers(-2**40, 2**40, n)
    rf, o, c = np.zeros(n), np.zeros(n, np.bool_), np.zeros(n, np.float32)
    cuda.jit(k_float)[(n + 127) // 128, 128](rf, o, c, a, b, m)
    np.testing.assert_array_equal(rf, np.sqrt(a * a + b * b))
    np.testing.assert_array_equal(o, (m & 1) == 1)
    np.testing.assert_array_equal(c, np.clip(a.astype(np.float32), -1, 1))


@pytest.mark.skipif(ON_GPU, reason="the simulator's refusal")
def test_simulator_refuses_the_call_at_its_line():
    r, x, y = np.zeros(4, np.int32), np.ones(4, np.int32), np.ones(4, np.int32)
    with pytest.raises(cuda.TypingError) as e:
        cuda.jit(k_int)[1, 4](r, x, y)
    msg = str(e.value)
    assert "'muladd' is an external function" in msg and "simulator" in msg
    assert "test_declare_device.py:%d:" % (twice_muladd.py_func.__code__.co_firstlineno + 2) in msg


# ------------------------------------------------- the driver's linker calls

FAKE_SRC = os.path.join(ROOT, "tests", "fake_cuda", "fake_libcuda.c")

CHILD = """
import ctypes, os, sys
import numpy as np
fake = ctypes.CDLL(os.environ["PTXJIT_LIBCUDA"])
fake.fake_get.restype = ctypes.c_long
sys.path.insert(0, {tests!r})
from ptxjit import cuda
import test_declare_device as t
r = np.zeros(8, np.int32)
cuda.jit(t.k_int)[1, 8](r, r, r)
print("links", fake.fake_get(b"links"), fake.fake_get(b"link_inputs"))
rf, o, c, a = np.zeros(8), np.zeros(8, np.bool_), np.zeros(8, np.float32), np.ones(8)
cuda.jit(t.k_float)[1, 8](rf, o, c, a, a, np.ones(8, np.int64))
print("links", fake.fake_get(b"links"), fake.fake_get(b"link_inputs"))
missing = cuda.declare_device("nowhere", "int32(int32)", link=cuda.PTXSource(t.CLAMP_PTX, name="clamp.ptx"))
def k(r):
    r[0] = missing(r[0])
try:
    cuda.jit(k)[1, 1](r)
except Exception as e:
    print("error", type(e).__name__, str(e).replace(chr(10), " | "))
def k2(r):
    r[0] = 1
cuda.jit(link=[cuda.PTXSource(t.CLAMP_PTX, name="clamp.ptx")])(k2)[1, 1](r)
print("links", fake.fake_get(b"links"), fake.fake_get(b"link_inputs"))
"""


@pytest.fixture(scope="module")
def fake_lib(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if ON_GPU or not cc:
        pytest.skip("the fake driver replaces a GPU; it needs a C compiler")
    lib = str(tmp_path_factory.mktemp("fake_cuda") / "libcuda.so")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-pthread", "-o", lib, FAKE_SRC], check=True)
    return lib


def test_the_driver_links_the_declared_code(fake_lib, tmp_path):
    env = dict(os.environ, PTXJIT_LIBCUDA=fake_lib, PTXJIT_SIM="0",
               PYTHONPATH=PKG_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(tests=os.path.join(ROOT, "tests")))
    r = subprocess.run([sys.executable, "-W", "ignore", str(script)], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "links 1 1"            # the kernel's PTX and muladd.ptx
    assert lines[1] == "links 2 3"            # hyp.ptx once for two functions, and clamp.ptx
    assert lines[2].startswith("error CudaAPIError") and "Undefined reference to 'nowhere'" in lines[2]
    assert lines[3] == "links 3 5"            # a failed link adds its input; jit(link=) one more
