"""Data for tests/test_error_catalogue.py: the compiler messages that need
more than one kernel text and a signature to trigger (device functions,
@njit functions, other architectures, globals), the ones only the
ptxjitc command can reach, and the ones no user input can reach.

A trigger is (name, source, signature[, extra]); extra may hold
  "globals": names the source can use besides cuda, np and math;
  "devsig":  {function: signature} for device functions with a signature
             (every def of the source but k becomes a device function);
  "cpu":     compile for the CPU (@njit) instead of a CUDA kernel;
  "opts":    compile options (such as {"arch": 60});
  "name":    the function to compile instead of k;
  "infer":   type the function with _core.infer_return (as ufuncs do).
"#!" marks the line the message must name; a name ending in "@N" names
line N.
"""

import numpy as np

from ptxjit.extending import overload
from ptxjit import cuda
from ptxjit.cuda.fp8 import cvt_bfloat16raw_to_fp8, cvt_float_to_e8m0, fp8_e4m3

A = "void(float32[::1])"
K = "def k(a):\n    a[0] = 1\n"
CPU = {"cpu": True}
F64 = "(float64[::1],)"
REC = "Record(x[type=int32;offset=0];4;False)"
R = "void(%s[::1])" % REC
RO_R = "void(array(%s, 1d, C, readonly))" % REC
G = {"G": np.arange(4.0)}


class _E(__import__("enum").Enum):
    a = "x"


class _IE(__import__("enum").IntEnum):
    a = 1



def declined(x):
    """Overloaded below for no types: a kernel's call of it has no implementation."""


@overload(declined)
def _ol_declined(x):
    return None


TRIGGERS = [
    # isinstance, tuple, cache hints through pointers, record array fields
    ("isinstance_of_array_class", "def k(a):\n    a[0] = isinstance(a, range)  #!\n", A),
    ("isinstance_of_range", "def k(a):\n    a[0] = isinstance(range(3), int)  #!\n", A),
    ("tuple_of_array", "def k(a):\n    t = tuple(a)  #!\n", A),
    ("cache_hint_pointer_index", "def k(p, a):\n    a[0] = cuda.ldcs(p, 1.5)  #!\n", "void(float32*, float32[::1])"),
    ("cache_hint_pointer_elem", "def k(p, a):\n    a[0] = cuda.ldcs(p, 0)  #!\n", "void(complex64*, float32[::1])"),
    ("record_array_subarray_field", "def k(a, o):\n    o[0] = a.j[0, 0]  #!\n",
     "void(Record(j[type=nestedarray(int32, (2,));offset=0];8;False)[::1], int32[::1])"),
    # lexer and parser
    ("bad_hex_literal", "def k(a):\n    a[0] = 0x  #!\n", A),
    ("bad_exp_literal", "def k(a):\n    a[0] = 1e+  #!\n", A),
    ("unicode_too_big", "def k(a):\n    x = '\\U00110000'  #!\n", A),
    ("close_bracket_expected", "def k(a):\n    a[0] = max(1 2)  #!\n", A),
    ("slice_in_parens", "def k(a):\n    a[0] = a[(0, 1:2)]  #!\n", A),
    ("unexpected_eq", "def k(a):\n    a[0] += 1 = 2  #!\n", A),
    ("nested_unary", "def k(a):\n    a[0] = " + "-" * 400 + "1  #!\n", A),
    ("decorator_on_stmt", "def k(a):\n    @cuda.jit\n    x = 1  #!\n", A),
    ("plusplus", "def k(a):\n    a[0] = a[1] ++  #!\n", A),
    ("ampamp", "def k(a):\n    if a[0] && a[1]:  #!\n        pass\n", A),
    ("expr_expected", "def k(a):\n    a[0] =   #!\n", A),
    ("attr_expected", "def k(a):\n    a[0] = cuda.+1  #!\n", A),
    ("grid_group_attr", "def k(a):\n    cuda.cg.this_grid().wait()  #!\n", A),
    ("for_without_in", "def k(a):\n    for i range(3):  #!\n        pass\n", A),
    ("not_a_lambda@1", K, A, {"name": "<lambda@3>"}),
    # signatures
    ("sig_expected_type@1", K, "void(float32[::1], 3)"),
    ("sig_unituple_comma@1", K, "void(UniTuple(int64 3))"),
    ("sig_unituple_count@1", K, "void(UniTuple(int64, x))"),
    ("sig_unituple_long@1", K, "void(UniTuple(int64, 65))"),
    ("sig_tuple_long@1", K, "void(Tuple(" + ", ".join(["int64"] * 65) + "))"),
    ("sig_array_ndim@1", K, "void(array(float32, x, C))"),
    ("sig_array_d@1", K, "void(array(float32, 2, C))"),
    ("sig_array_9d@1", K, "void(array(float32, 9d, C))"),
    ("sig_array_layout@1", K, "void(array(float32, 1d, X))"),
    ("sig_array_readonly@1", K, "void(array(float32, 1d, C, ro))"),
    ("sig_rec_type@1", K, "void(Record(x[typ=int32;offset=0];4;False)[::1])"),
    ("sig_string_width@1", K, "void([wchar x 3][::1])"),
    ("sig_string_x@1", K, "void([char 3][::1])"),
    ("sig_string_length@1", K, "void([char x 0][::1])"),
    ("sig_string_close@1", K, "void([char x 3[::1])"),
    # fixed-length strings
    ("bytes_literal_not_stored", "def k(a):\n    x = b'ab'  #!\n", A),
    ("string_store_kind", "def k(a):\n    a[0] = 'ab'  #!\n", "void([char x 3][::1])"),
    ("string_store_number", "def k(a):\n    a[0] = 1  #!\n", "void([unichr x 3][::1])"),
    ("sig_rec_field_arr@1", K, "void(Record(x[type=int32[::1];offset=0];4;False)[::1])"),
    ("sig_rec_offset@1", K, "void(Record(x[type=int32;off=0];4;False)[::1])"),
    ("sig_rec_offset_val@1", K, "void(Record(x[type=int32;offset=z];4;False)[::1])"),
    ("sig_rec_dup@1", K, "void(Record(x[type=int32;offset=0],x[type=int32;offset=4];8;False)[::1])"),
    ("sig_rec_size@1", K, "void(Record(x[type=int32;offset=0];z;False)[::1])"),
    ("sig_rec_aligned@1", K, "void(Record(x[type=int32;offset=0];4;3)[::1])"),
    ("sig_rec_outside@1", K, "void(Record(x[type=int32;offset=4];4;False)[::1])"),
    ("sig_contig@1", K, "void(float32[::2])"),
    ("sig_9dims@1", K, "void(float32[:,:,:,:,:,:,:,:,:])"),
    ("sig_void_arg@1", K, "void(void)"),
    # names, types, operators
    ("tuple_index_float", "def k(a):\n    t = (1, 2)\n    i = a[0]\n    a[0] = t[i]  #!\n", A),
    ("tuple_holds_range", "def k(a):\n    x = (range(3), 1)  #!\n", A),
    ("dim3_attr", "def k(a):\n    a[0] = cuda.threadIdx.w  #!\n", A),
    ("complex_attr", "def k(a):\n    z = 1j\n    a[0] = z.foo  #!\n", A),
    ("boolop_no_common", "def k(a):\n    x = a[0] or None  #!\n", A),
    ("record_slice", "def k(a):\n    x = a[0][0:1]  #!\n", R),
    ("record_tuple_slice", "def k(a):\n    x = a[0][0, 1:2]  #!\n", R),
    ("too_many_indices", "def k(a):\n    a[" + ",".join(["0"] * 65) + "] = 1  #!\n", A),
    ("tuple_slice_var", "def k(a):\n    t = (1, 2, 3)\n    n = int(a[0])\n    u = t[n:]  #!\n", A),
    ("str_reassigned", "def k(a):\n    s = 'a'\n    if a[0] > 0:\n        s = 'b'\n    print(s)  #!\n", A),
    ("record_field_index", "def k(a):\n    a[0][5] = 1  #!\n", R),
    ("record_float_index", "def k(a):\n    a[0][1.5] = 1  #!\n", R),
    ("record_store_number", "def k(a):\n    a[0] = 1  #!\n", R),
    ("record_store_readonly", "def k(a):\n    a[0].x = 1  #!\n", RO_R),
    ("len_0d", "def k(a, b):\n    a[0] = len(b)  #!\n", "void(float32[::1], array(float32, 0d, C))"),
    ("fp16_arity", "def k(a):\n    a[0] = cuda.fp16.hfma(a[0], a[1])  #!\n", "void(float16[::1])"),
    ("fp16_complex", "def k(a):\n    a[0] = cuda.fp16.hadd(a[0], 1j)  #!\n", "void(float16[::1])"),
    ("fp16_keyword", "def k(a):\n    a[0] = cuda.fp16.hneg(a=a[0])  #!\n", "void(float16[::1])"),
    # statements
    ("assign_2d_part", "def k(a):\n    a[0] = (1.0, 2.0)  #!\n", "void(float32[:, :, ::1])"),
    ("unpack_number", "def k(a):\n    x, y = 3  #!\n", A),
    ("store_complex_aug", "def k(a):\n    z = 1j\n    a[0] += z  #!\n", A),
    ("iter_mixed_tuple", "def k(a):\n    for x in (1, a):  #!\n        pass\n", A),
    # calls and builtins
    ("shared_too_large", "def k(a):\n    s = cuda.shared.array(1 << 41, dtype=np.float32)  #!\n", A),
    ("string_dtype_unknown", "def k(a):\n    s = cuda.local.array(2, dtype='int33')  #!\n", A),
    ("shared_float_shape", "def k(a):\n    s = cuda.shared.array(2.0, dtype=np.float32)  #!\n", A),
    ("shared_too_many_args", "def k(a):\n    s = cuda.shared.array(4, np.float32, 8, 9)  #!\n", A),
    ("shared_kw_twice", "def k(a):\n    s = cuda.shared.array(4, np.float32, shape=4)  #!\n", A),
    ("atomic_records", "def k(a):\n    cuda.atomic.add(a, 0, 1)  #!\n", R),
    ("cas_2d", "def k(a):\n    cuda.atomic.compare_and_swap(a, 0, 1)  #!\n", "void(int32[:, ::1])"),
    ("minmax_tuple_of_arrays", "def k(a):\n    t = (a, a)\n    a[0] = min(t)  #!\n", A),
    ("pow_tuple", "def k(a):\n    t = (1, 2)\n    a[0] = pow(t, 2)  #!\n", A),
    ("np_sin_two_args", "def k(a):\n    a[0] = np.sin(1.0, a)  #!\n", A),
    ("np_sin_array", "def k(a):\n    a[0] = np.sin(a)  #!\n", A),
    ("np_bitand_float", "def k(a):\n    a[0] = np.bitwise_and(1.5, 2)  #!\n", A),
    ("const_array_like_two", "def k(a):\n    c = cuda.const.array_like(a, a)  #!\n", A),
    ("const_too_large", "def k(a):\n    c = cuda.const.array_like(BIG)  #!\n    a[0] = c[0]\n", A,
     {"globals": {"BIG": np.zeros(20000, np.float64)}}),
    ("shfl_kw_twice", "def k(a):\n    a[0] = cuda.shfl_sync(0xffffffff, a[1], 0, mask=1)  #!\n", A),
    ("activemask_kw", "def k(a):\n    a[0] = cuda.activemask(x=1)  #!\n", A),
    ("fma_complex", "def k(a):\n    a[0] = cuda.fma(1j, 2.0, 3.0)  #!\n", A),
    ("vector_count", "def k(a):\n    v = cuda.float3(1.0, 2.0)  #!\n", A),
    ("vector_attr", "def k(a):\n    v = cuda.float2(1.0, 2.0)\n    a[0] = v.z  #!\n", A),
    ("device_array_param@1", "def k(a):\n    return a[0]\n", "float32[::1]", {"opts": {"device_abi": 1}}),
    ("device_tuple_result@1", "def k(a):\n    return (a, a)\n", "float32", {"opts": {"device_abi": 2}}),
    ("nanosleep_sm60", "def k(a):\n    cuda.nanosleep(100)  #!\n", A, {"opts": {"arch": 60}}),
    # overloaded functions (ptxjit.extending)
    ("overload_declined", "def k(a):\n    a[0] = F(1)  #!\n", A, {"globals": {"F": declined}}),
    # device functions
    ("dev_str_not_const", "def f(v):\n    return 1\n\ndef k(a):\n    s = 'a'\n    if a[1] > 0:\n"
     "        s = 'b'\n    a[0] = f(s)  #!\n", A),
    ("dev_sig_argc", "def f(x, y=1):\n    return x\n\ndef k(a):\n    a[0] = f(1, 2)  #!\n", A,
     {"devsig": {"f": "float32(float32)"}}),
    ("dev_sig_convert", "def f(x):\n    return x\n\ndef k(a):\n    a[0] = f(a)  #!\n", A,
     {"devsig": {"f": "float32(float32)"}}),
    ("dev_sigs_none_fits", "def f(x):\n    return x\n\ndef k(a):\n    a[0] = f(1j)  #!\n", A,
     {"devsig": {"f": ["float32(float32)", "int32(int32)"]}}),
    ("dev_default_not_const", "def f(x, y=G[0]):  #!\n    return x\n\ndef k(a):\n    a[0] = f(1)\n", A,
     {"globals": G}),
    ("dev_nested_too_deeply@95", "".join("def f%d(x):\n    return f%d(x)\n\n" % (i, i + 1) for i in range(40))
     + "def f40(x):\n    return x\n\ndef k(a):\n    a[0] = f0(1)\n", A),
    ("dev_shape_param_not_const", "def f(n):\n    s = cuda.local.array(n, np.float32)  #!\n    return s[0]\n\n"
     "def k(a):\n    a[0] = f(int(a[1]))\n", A),
    ("enumerate_bad_kw", "def k(a):\n    for i, v in enumerate(a, begin=1):  #!\n        a[i] = v\n", A),
    ("enumerate_no_args", "def k(a):\n    for i, v in enumerate():  #!\n        a[i] = v\n", A),
    ("zip_kw", "def k(a):\n    for u, v in zip(a, a, strict=True):  #!\n        a[0] = u\n", A),
    ("literal_unroll_args", "def k(a):\n    for x in cuda.literal_unroll((1,), (2,)):  #!\n        a[0] = x\n", A),
    ("literal_unroll_length", "def k(a):\n    for x in cuda.literal_unroll(a):  #!\n        a[0] = x\n", A),
    ("literal_unroll_value", "def k(a):\n    t = cuda.literal_unroll((1, 2))  #!\n    a[0] = t[0]\n", A),
    ("dev_pass_range", "def f(x):\n    return 1\n\ndef k(a):\n    a[0] = f(range(3))  #!\n", A),
    ("dev_kw_twice", "def f(x):\n    return x\n\ndef k(a):\n    a[0] = f(1, x=2)  #!\n", A),
    ("dev_return_sig", "def f(x):\n    return (1, 2)  #!\n\ndef k(a):\n    a[0] = f(1.0)\n", A,
     {"devsig": {"f": "float32(float32)"}}),
    ("dev_return_mixed", "def f(x):\n    if x > 0:\n        return (1, 2)\n    return 1.0  #!\n\n"
     "def k(a):\n    a[0] = f(1.0)\n", A),
    ("dev_return_module", "def f(x):\n    return math  #!\n\ndef k(a):\n    f(1.0)\n", A),
    ("infer_argc@1", "def k(a):\n    return a\n", "float32, float32", {"infer": True}),
    # @njit functions
    ("njit_cuda", "def k(a):\n    return cuda.threadIdx.x  #!\n", F64, CPU),
    ("njit_extern", "def k(a):\n    return EXT(a[0])  #!\n", F64,
     {"cpu": True, "globals": {"EXT": cuda.declare_device("ext", "float64(float64)")}}),
    ("njit_return_str@1", "def k(a):\n    return (1, 'x')\n", F64, CPU),
    ("njit_return_records@1", "def k(a):\n    return a\n", "(%s[::1],)" % REC, CPU),
    ("njit_bad_dtype", "def k(a):\n    return np.zeros(3, dtype=3)  #!\n", F64, CPU),
    ("njit_float_shape", "def k(a):\n    return np.zeros(2.5)  #!\n", F64, CPU),
    ("njit_zeros_like_number", "def k(a):\n    return np.zeros_like(3)  #!\n", F64, CPU),
    ("njit_zeros_like_records", "def k(a):\n    return np.zeros_like(a)  #!\n", "(%s[::1],)" % REC, CPU),
    ("njit_copy_args", "def k(a):\n    return a.copy(1)  #!\n", F64, CPU),
    ("njit_arange_complex", "def k(a):\n    return np.arange(1j)  #!\n", F64, CPU),
    # Enum members, ufuncs with outputs, array views and reductions in kernels
    ("enum_member_not_int", "def k(a):\n    a[0] = E.a  #!\n", A, {"globals": {"E": _E}}),
    ("enum_member_not_str", "def k(a):\n    a[0] = IE[1]  #!\n", A, {"globals": {"IE": _IE}}),
    ("ufunc_out_records", "def k(a, r):\n    np.sin(a, r)  #!\n", "void(float32[::1], %s[::1])" % REC),
    ("ufunc_in_records", "def k(a, r):\n    np.sin(r, a)  #!\n", "void(float32[::1], %s[::1])" % REC),
    ("ufunc_out_cast", "def k(a, o):\n    np.sin(a, o)  #!\n", "void(float64[::1], int32[::1])"),
    ("ufunc_too_many", "def k(a, o):\n    np.sin(a, o, o)  #!\n", "void(float32[::1], float32[::1])"),
    ("ufunc_out_ndim", "def k(a, o):\n    np.sin(a, o)  #!\n", "void(float32[:, ::1], float32[::1])"),
    ("ufunc_out_readonly", "def k(a, o):\n    np.sin(a, o)  #!\n",
     "void(float32[::1], array(float32, 1d, C, readonly))"),
    ("ufunc_out_scalar", "def k(a, o):\n    np.sin(a, 1.0)  #!\n", "void(float32[::1], float32[::1])"),
    ("ufunc_outs_differ", "def k(a, m, e):\n    np.frexp(a, m, e)  #!\n",
     "void(float32[::1], float32[:, ::1], int32[::1])"),
    ("reduce_axis", "def k(a):\n    a[0] = np.sum(a, axis=0)  #!\n", A),
    ("reduce_scalar", "def k(a):\n    a[0] = np.sum(a[0])  #!\n", A),
    ("reduce_complex_max", "def k(a, o):\n    o[0] = np.max(a).real  #!\n", "void(complex64[::1], float32[::1])"),
    ("reduce_records", "def k(r, o):\n    o[0] = np.sum(r)  #!\n", "void(%s[::1], float32[::1])" % REC),
    ("view_kw", "def k(a):\n    b = a.view(dtype=np.int32)  #!\n", A),
    ("imag_of_real", "def k(a):\n    b = a.imag  #!\n", A),
    ("reshape_empty", "def k(a):\n    b = a.reshape()  #!\n", A),
    ("reshape_F", "def k(a):\n    b = a.reshape(4)  #!\n", "void(float32[::1, :])"),
    ("reshape_A", "def k(a):\n    b = a.reshape(4)  #!\n", "void(float32[:])"),
    ("reshape_tuple_float", "def k(a):\n    b = a.reshape((2, 2.0))  #!\n", A),
    ("reshape_float", "def k(a):\n    b = a.reshape(2.0)  #!\n", A),
    ("transpose_axes", "def k(a):\n    b = a.transpose(1, 0)  #!\n", "void(float32[:, ::1])"),
    ("view_records", "def k(r):\n    b = r.view(np.int32)  #!\n", "void(%s[::1])" % REC),
    ("view_no_dtype", "def k(a):\n    b = a.view()  #!\n", A),
    ("view_size_0d", "def k(a):\n    b = a.view(np.int16)  #!\n", "void(array(float32, 0d, C))"),
    # bfloat16 and float() of a string
    ("local_bf16", "def k(a):\n    s = cuda.local.array(4, cuda.bf16.bfloat16)  #!\n", A),
    ("sig_bfloat16@1", "def k(a, x):\n    a[0] = 1\n", "void(float32[::1], bfloat16)"),
    ("bf16_old_arch", "def k(a):\n    a[0] = cuda.bf16.bfloat16(a[1])  #!\n", A, {"opts": {"arch": 75}}),
    # fp8
    ("sig_fp8@1", "def k(a, x):\n    a[0] = 1\n", "void(float32[::1], fp8_e4m3)"),
    ("local_fp8", "def k(a):\n    s = cuda.local.array(4, FP8)  #!\n", A, {"globals": {"FP8": fp8_e4m3}}),
    ("fp8_raw_arg", "def k(a):\n    a[0] = CVT(a[1], 0, 0)  #!\n", A, {"globals": {"CVT": cvt_bfloat16raw_to_fp8}}),
    ("fp8_enum_arg", "def k(a):\n    a[0] = CVT(a[1], 0, 0)  #!\n", A, {"globals": {"CVT": cvt_float_to_e8m0}}),
    ("float_of_bad_str", "def k(a):\n    a[0] = float('1.5x')  #!\n", A),
    # loads and stores with a cache operator
    ("cache_hint_float_index", "def k(a):\n    a[0] = cuda.ldcs(a, 1.0)  #!\n", A),
    ("cache_hint_index_count", "def k(a):\n    a[0] = cuda.ldcs(a, (1, 2))  #!\n", A),
    ("cache_hint_scalar_index", "def k(a):\n    cuda.stcs(a, 1, 2)  #!\n", "void(float32[:, ::1])"),
    ("cache_hint_not_array", "def k(a):\n    a[0] = cuda.ldcg(a[0], 0)  #!\n", A),
    ("cache_hint_complex", "def k(a):\n    cuda.stwt(a, 0, 1)  #!\n", "void(complex64[::1])"),
    ("align_not_int", "def k(a):\n    s = cuda.local.array(4, np.float32, alignment=1.5)  #!\n", A),
    ("align_negative", "def k(a):\n    s = cuda.local.array(4, np.float32, alignment=-8)  #!\n", A),
    ("align_not_multiple_of_8", "def k(a):\n    s = cuda.local.array(4, np.float32, alignment=4)  #!\n", A),
    ("align_too_large", "def k(a):\n    s = cuda.shared.array(4, np.float32, alignment=8192)  #!\n", A),
    ("dtype_string_invalid", "def k(a):\n    s = cuda.shared.array(4, dtype='int33')  #!\n", A),
    ("dtype_string_unsupported", "def k(a):\n    s = cuda.shared.array(4, dtype='U8')  #!\n", A),
    ("shfl_float_lane", "def k(a):\n    a[0] = cuda.shfl_sync(0xffffffff, a[0], 1.5)  #!\n", A),
    ("cache_hint_local", "def k(a):\n    s = cuda.local.array(2, np.float32)\n    a[0] = cuda.ldlu(s, 0)  #!\n", A),
]

# Messages the ptxjitc command reaches (Python hands the compiler valid
# UTF-8 without NUL bytes): (name, source bytes, line).
CLI_TRIGGERS = [
    ("null_byte", b"def k(a):\n    a[0] = 1\x00\n", 2),
    ("invalid_utf8", b"def k(a):\n    a[0] = \xff1\n", 2),
]

# Messages an earlier check always pre-empts: {format: (why, trigger,
# what fires instead)}.  The trigger is the input that would reach the
# message; what fires instead is the earlier message's format, None when
# the input compiles (an earlier stage gives it another meaning), or
# (exception type name, fragment) for a check in Python.
UNREACHABLE = {
    "bfloat16 is a type of CUDA kernels; the CPU target does not support it": (
        "sema_cpu_refuse() refuses cuda.bf16's names (ml_dtypes.bfloat16 among them) in @njit functions first",
        ("njit_bf16", "def k(a):\n    return cuda.bf16.bfloat16(a[0])  #!\n", F64, CPU),
        "%s exists only in CUDA kernels, not in @njit functions"),
    # front end
    "'tuple' is an illegal target for %s": (
        "parse.c refuses a tuple before check_target() sees it (annotated and augmented assignment)",
        ("annotated_tuple_target", "def k(a):\n    (x, y): int = 1, 2  #!\n", A),
        "only single target (not tuple) can be annotated"),
    "invalid syntax: expected a function name after 'def', found %s": (
        "parse_function() starts only at 'def NAME'; a def without a name is 'no function named'",
        ("def_no_name@1", "def (a):\n    a[0] = 1\n", A), "no function named '%s' in the source"),
    "no function definition in the source": (
        "Python and ptxjitc always name the function; a missing one is 'no function named'",
        ("no_def@1", "x = 1\n", A), "no function named '%s' in the source"),
    "thread indices (cuda.threadIdx, cuda.grid, ...) exist only in CUDA kernels": (
        "sema_cpu_refuse() refuses cuda.* in @njit functions before the C back end",
        ("njit_grid", "def k(a):\n    return cuda.grid(1)  #!\n", F64, CPU),
        "%s exists only in CUDA kernels, not in @njit functions"),
    "%s is not supported yet": (
        "lowering's guard (lower_unsupported) for forms that sema refuses first with a message of its own",
        ("tuple_order", "def k(a):\n    i = cuda.threadIdx.x\n    x = (i, 2) < (1, 3)  #!\n", A),
        "unsupported operand types for %s: %s and %s"),
    "unexpected '%s' after the type": (
        "ty_parse_one() reads only record dtype strings that ptxjit's Python side writes itself",
        ("record_string_dtype", "def k(a):\n    r = cuda.local.array(2, dtype='int32 x')  #!\n", A),
        "Invalid NumPy dtype specified: '%.200s' is not a dtype NumPy knows"),
    # sema checks that pre-empt others in sema
    "device functions with *args or **kwargs are not supported": (
        "cuda.jit(device=True) refuses **kwargs and keyword-only parameters when the function is decorated",
        ("dev_varargs", "def f(**x):\n    return 1\n\ndef k(a):\n    a[0] = f(1)  #!\n", A),
        ("TypeError", "*args")),
    "%s() missing argument '%s'": (
        "its only caller (shared/local arrays) has no optional argument before another: "
        "'missing required argument' comes first",
        ("shared_no_dtype", "def k(a):\n    s = cuda.shared.array(4, alignment=8)  #!\n", A),
        "%s() missing required argument '%s'"),
    "%s() cannot change a constant array": (
        "constant arrays are read-only, and the read-only check comes first",
        ("atomic_const", "def k(a):\n    c = cuda.const.array_like(G)\n    cuda.atomic.add(c, 0, 1)  #!\n", A,
         {"globals": G}),
        "%s() cannot change a read-only array"),
    "%s is not callable": (
        "every callable intrinsic has a case in type_call(); names that are values come first",
        ("call_pi", "def k(a):\n    a[0] = math.pi()  #!\n", A), "this %s value is not callable"),
    "%s has no method conjugate()": (
        "only scalars reach type_conjugate() and every scalar is a number; others lack the attribute",
        ("tuple_conjugate", "def k(a):\n    t = (1, 2)\n    a[0] = t.conjugate()  #!\n", A),
        "%s has no attribute '%s' that kernels can use"),
    # lowering checks that sema pre-empts
    "slice bounds must be integers": (
        "sema checks slice bounds", ("slice_float", "def k(a):\n    b = a[1.5:3]  #!\n", A),
        "slice %s must be an integer or None, not %s"),
    "tuple index out of range (the tuple has %d elements)": (
        "sema checks constant tuple indices", ("tuple_oor", "def k(a):\n    t = (1, 2)\n    a[0] = t[-3]  #!\n", A),
        "tuple index %lld is out of range for %s"),
    "a tuple index must be an integer": (
        "sema checks the type of tuple indices",
        ("tuple_float_index", "def k(a):\n    t = (1, 2)\n    i = a[0]\n    a[0] = t[i]  #!\n", A),
        "tuple index must be an integer, not %s"),
    "index into an empty tuple": (
        "sema refuses variable indices into tuples of mixed or no elements",
        ("empty_tuple_var", "def k(a):\n    t = ()\n    i = int(a[0])\n    a[0] = t[i]  #!\n", A),
        "a %s can only be indexed with a constant"),
    "%s cannot be indexed": (
        "sema checks what is indexed", ("index_none", "def k(a):\n    x = None\n    a[0] = x[0]  #!\n", A),
        "a value of type %s cannot be indexed"),
    "tuples cannot be assigned to": (
        "sema refuses stores into tuples", ("tuple_store", "def k(a):\n    t = (1, 2)\n    t[0] = 1  #!\n", A),
        "tuples cannot be changed: a tuple element cannot be assigned"),
    "this value cannot be assigned to by index": (
        "sema checks item assignment", ("int_store", "def k(a):\n    x = 3\n    x[0] = 1  #!\n", A),
        "a value of type %s does not support item assignment"),
    "this array is read-only": (
        "sema checks stores into read-only arrays",
        ("readonly_aug", "def k(a):\n    a[0] += 1  #!\n", "void(array(float32, 1d, C, readonly))"),
        "cannot assign to an element of a read-only array"),
    "this value cannot be updated by index": (
        "sema checks item assignment", ("int_aug", "def k(a):\n    x = 3\n    x[0] += 1  #!\n", A),
        "a value of type %s does not support item assignment"),
    "%s() needs a constant shape": (
        "sema checks the shape of shared and local arrays",
        ("shape_var", "def k(a):\n    n = int(a[0])\n    s = cuda.shared.array(n, dtype=np.float32)  #!\n", A),
        "the shape of a %s array must be a constant: an int or a tuple of ints known when the kernel is compiled"),
    "the shape of %s() must hold integers": (
        "sema checks the shape of shared and local arrays",
        ("shape_float_dim", "def k(a):\n    s = cuda.shared.array((2, 2.5), dtype=np.float32)  #!\n", A),
        "the shape of a %s array must be a tuple of ints"),
    "%s() of shape %lld is not possible": (
        "sema checks the size of shared and local arrays",
        ("shape_huge", "def k(a):\n    s = cuda.local.array((1 << 21, 1 << 21), dtype=np.float32)  #!\n", A),
        "a %s array of %.0f elements is too large"),
    "%s() is missing an argument": (
        "sema checks the number of arguments of atomics",
        ("atomic_two_args", "def k(a):\n    cuda.atomic.add(a, 0)  #!\n", A), "%s() takes %d argument%s (%d given)"),
    "the first argument of %s() must be an array": (
        "sema checks the array of atomics",
        ("atomic_number", "def k(a):\n    x = 1\n    cuda.atomic.add(x, 0, 1)  #!\n", A), "%s() needs an array, not %s"),
    "atomics on local arrays are not supported": (
        "sema refuses atomics on local arrays",
        ("atomic_local_array", "def k(a):\n    s = cuda.local.array(4, dtype=np.int32)\n    cuda.atomic.add(s, 0, 1)  #!\n",
         A), "%s() on a local array is not supported"),
    "%s() needs a 1-D array": (
        "sema checks the array of compare_and_swap",
        ("cas_2d_array", "def k(a):\n    cuda.atomic.compare_and_swap(a, 0, 1)  #!\n", "void(int32[:, ::1])"),
        "%s() needs a 1d array, not %s"),
    "%s() needs one index per axis of the array (%d)": (
        "sema checks the indices of atomics",
        ("atomic_2d_one_index", "def k(a):\n    cuda.atomic.add(a, 0, 1)  #!\n", "void(float32[:, ::1])"),
        "%s needs one element: %d of the %d dimensions of %s are indexed with integers"),
    "%s() takes integer indices, not slices": (
        "a slice can only be written inside [ ], so the parser refuses one in a call's arguments",
        ("atomic_slice", "def k(a):\n    cuda.atomic.add(a, (0, 1:2), 1)  #!\n", "void(float32[:, ::1])"),
        "invalid syntax: expected '%s', found %s"),
    "%s() on an array of %s is not supported": (
        "sema checks the dtype of atomics",
        ("atomic_int16", "def k(a):\n    cuda.atomic.add(a, 0, 1)  #!\n", "void(int16[::1])"),
        "%s() does not support arrays of %s"),
    "too many indices for the array": (
        "sema counts the indices", ("two_indices", "def k(a):\n    a[0] = a[0, 0]  #!\n", A),
        "too many indices for %s: %d given, it has %d dimension%s"),
    "an array index must be an integer, not %s": (
        "sema checks the index types", ("float_index", "def k(a):\n    x = a[0]\n    a[0] = a[x]  #!\n", A),
        "array index must be an integer, not %s"),
    "cannot shift a float": (
        "sema types the operands of << and >>", ("shift_float_var", "def k(a):\n    x = a[0]\n    a[0] = x << 2  #!\n", A),
        "unsupported operand types for %s: %s and %s"),
    "bitwise operators do not apply to floats": (
        "sema types the operands of &, | and ^", ("and_float", "def k(a):\n    x = a[0]\n    a[0] = x & 2  #!\n", A),
        "unsupported operand types for %s: %s and %s"),
    "this power is not supported yet": (
        "sema types an int ** non-int power as float64, so an integer power always has an integer exponent",
        ("int_pow_float", "def k(a):\n    n = int(a[1])\n    a[0] = n ** a[2]\n", A), None),
    "~ does not apply to %s": (
        "sema types the operand of ~", ("invert_complex", "def k(a):\n    z = 1j\n    a[0] = (~z).real  #!\n", A),
        "unsupported operand type for unary ~: %s"),
    "a number was expected here, not %s": (
        "sema types the operands of arithmetic", ("none_plus", "def k(a):\n    x = None\n    a[0] = x + 1  #!\n", A),
        "unsupported operand types for %s: %s and %s"),
    "None cannot be ordered": (
        "sema types the operands of comparisons", ("none_lt", "def k(a):\n    x = None\n    if x < None:  #!\n        pass\n", A),
        "unsupported operand types for %s: %s and %s"),
    "cannot compare %s with %s": (
        "sema types the operands of comparisons", ("array_lt", "def k(a):\n    if a < a:  #!\n        pass\n", A),
        "unsupported operand types for %s: %s and %s"),
    "complex numbers cannot be ordered": (
        "sema types the operands of comparisons", ("complex_lt", "def k(a):\n    if 1j < 2:  #!\n        pass\n", A),
        "unsupported operand types for %s: %s and %s"),
    "a slice cannot be used here": (
        "sema refuses slices outside subscripts first", ("record_slice2", "def k(a):\n    x = a[0][0:1]  #!\n", R),
        "a slice cannot be used as a value"),
    "%s() needs arguments": (
        "sema counts the arguments of min and max", ("min_none", "def k(a):\n    a[0] = min()  #!\n", A),
        "%s() takes at least 1 argument (0 given)"),
    "%s() needs a real number": (
        "sema types the argument of floor, ceil and trunc", ("floor_complex", "def k(a):\n    a[0] = math.floor(1j)  #!\n", A),
        "%s() does not accept a %s argument"),
    "%s() takes one argument": (
        "sema counts the arguments of conversions", ("int_two", "def k(a):\n    a[0] = int(1, 2)  #!\n", A),
        "%s() takes %d argument%s (%d given)"),
    "range() is only supported in a for loop": (
        "sema refuses a range stored in a variable", ("range_var", "def k(a):\n    r = range(3)  #!\n", A),
        "a %s cannot be stored in a variable"),
    "%s() is not supported in kernels yet": (
        "lowering has a case for every intrinsic sema types; names that are values come first",
        ("call_nan", "def k(a):\n    a[0] = np.nan()  #!\n", A), "this %s value is not callable"),
    "%s has no attribute %s": (
        "sema checks Dim3 attributes", ("dim3_w", "def k(a):\n    a[0] = cuda.blockIdx.w  #!\n", A),
        "%s has no attribute '%s'"),
    "%s() takes the number of dimensions 1, 2 or 3": (
        "sema checks cuda.grid()'s argument", ("grid_four", "def k(a):\n    i = cuda.grid(4)  #!\n", A),
        "%s() takes a constant 1, 2 or 3"),
    "%s() of one argument needs a tuple": (
        "sema checks min and max of one argument", ("min_one", "def k(a):\n    a[0] = min(a[1])  #!\n", A),
        "%s() of one %s is not supported"),
    "cannot assign to this expression": (
        "the parser checks assignment targets", ("assign_call", "def k(a):\n    len(a) = 3  #!\n", A),
        "cannot assign to %s"),
    "cannot update this expression in place": (
        "the parser checks augmented assignment targets", ("aug_call", "def k(a):\n    len(a) += 1  #!\n", A),
        "cannot assign to %s"),
    "range() takes 1 to 3 positional arguments": (
        "sema counts range()'s arguments", ("range_four", "def k(a):\n    for i in range(1, 2, 3, 4):  #!\n        pass\n", A),
        "%s() takes %d to %d arguments (%d given)"),
    "range() step must not be zero": (
        "sema checks a constant step", ("range_zero", "def k(a):\n    for i in range(0, 3, 0):  #!\n        a[0] = i\n", A),
        "range() arg 3 must not be zero"),
    "'break' outside a loop": (
        "sema checks break", ("break_top", "def k(a):\n    break  #!\n", A), "'%s' outside loop"),
    "'continue' outside a loop": (
        "sema checks continue", ("continue_top", "def k(a):\n    continue  #!\n", A), "'%s' outside loop"),
    "recursive device functions are not supported (%s calls itself)": (
        "recursion compiles to real calls; sema stops inlining deeper than 32 levels first",
        ("dev_deep@95", "".join("def f%d(x):\n    return f%d(x)\n\n" % (i, i + 1) for i in range(40))
         + "def f40(x):\n    return x\n\ndef k(a):\n    a[0] = f0(1)\n", A),
        "device function calls nested too deeply"),
    "%s() takes %d arguments but %d were given": (
        "sema matches the arguments of device functions",
        ("dev_too_many", "def f(x):\n    return x\n\ndef k(a):\n    a[0] = f(1, 2)  #!\n", A),
        "%s() takes %d argument%s but %d were given"),
    "%s() got %s keyword argument '%s'": (
        "sema matches the arguments of device functions",
        ("dev_bad_kw", "def f(x):\n    return x\n\ndef k(a):\n    a[0] = f(y=2)  #!\n", A),
        "%s() got an unexpected keyword argument '%s'"),
    "%s() is missing the argument '%s'": (
        "sema matches the arguments of device functions",
        ("dev_missing", "def f(x, y):\n    return x\n\ndef k(a):\n    a[0] = f(1)  #!\n", A),
        "%s() missing required argument '%s'"),
    "cannot unpack %d values into %d targets": (
        "sema counts the targets", ("unpack_three", "def k(a):\n    x, y = (1, 2, 3)  #!\n", A),
        "cannot unpack a tuple of %d value%s into %d target%s"),
    "cannot unpack %s": (
        "sema checks what is unpacked", ("unpack_int", "def k(a):\n    x, y = 3  #!\n", A), "cannot unpack a %s"),
    "this constant cannot be used as a number": (
        "sema types the operands of arithmetic", ("str_times", "def k(a):\n    a[0] = 'x' * 2  #!\n", A),
        "string operations are not supported in kernels"),
    "cannot convert %s to %s": (
        "sema refuses complex to real conversions", ("int_complex", "def k(a):\n    a[0] = int(1j)  #!\n", A),
        "%s() cannot convert a complex number"),
    "None cannot be used as %s": (
        "sema checks stores of None", ("store_none", "def k(a):\n    a[0] = None  #!\n", A),
        "cannot store a %s value into %s"),
    "the truth value of an array is ambiguous": (
        "sema checks conditions", ("if_array", "def k(a):\n    if a:  #!\n        a[0] = 1\n", A),
        "the truth value of an array is ambiguous in a kernel"),
}
