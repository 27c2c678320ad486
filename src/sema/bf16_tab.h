/* cuda.bf16's functions, one row each: B(X, name, form, a, b).  The
 * forms (BF_*) and the columns are described in core.h, beside the enums
 * the rows name; module.c lists the names for ptxjit.cuda.bf16.  Only
 * the macro lives here, so that the extension can include it alone. */
#ifndef PTXJIT_BF16_TAB_H
#define PTXJIT_BF16_TAB_H
#define BF16_FUNCS(B, X) \
	B(X, hadd, BF_BIN, O_ADD, 0) B(X, hsub, BF_BIN, O_SUB, 0) B(X, hmul, BF_BIN, O_MUL, 0) \
	B(X, hdiv, BF_BIN, O_DIV, 0) B(X, hadd_rn, BF_BIN, O_ADD, 0) B(X, hsub_rn, BF_BIN, O_SUB, 0) \
	B(X, hmul_rn, BF_BIN, O_MUL, 0) B(X, hadd_sat, BF_SAT, O_ADD, 0) B(X, hsub_sat, BF_SAT, O_SUB, 0) \
	B(X, hmul_sat, BF_SAT, O_MUL, 0) B(X, hfma, BF_FMA, 0, RM_N) B(X, hfma_sat, BF_FMA, 0, RM_SAT) \
	B(X, hfma_relu, BF_FMA, 0, RM_RELU) B(X, hneg, BF_NEG, 0, 0) B(X, habs, BF_ABS, 0, 0) \
	B(X, heq, BF_CMP, CC_EQ, 0) B(X, hne, BF_CMP, CC_NE, 0) B(X, hge, BF_CMP, CC_GE, 0) \
	B(X, hgt, BF_CMP, CC_GT, 0) B(X, hle, BF_CMP, CC_LE, 0) B(X, hlt, BF_CMP, CC_LT, 0) \
	B(X, hequ, BF_CMP, CC_EQ, 1) B(X, hneu, BF_CMP, CC_NE, 1) B(X, hgeu, BF_CMP, CC_GE, 1) \
	B(X, hgtu, BF_CMP, CC_GT, 1) B(X, hleu, BF_CMP, CC_LE, 1) B(X, hltu, BF_CMP, CC_LT, 1) \
	B(X, hmax, BF_MAX, 0, 0) B(X, hmin, BF_MIN, 0, 0) B(X, hmax_nan, BF_MAX, 0, RM_NAN) \
	B(X, hmin_nan, BF_MIN, 0, RM_NAN) B(X, hisnan, BF_ISNAN, 0, 0) B(X, hisinf, BF_ISINF, 0, 0) \
	B(X, htrunc, BF_MATH, IN_MATH_TRUNC, 0) B(X, hceil, BF_MATH, IN_MATH_CEIL, 0) \
	B(X, hfloor, BF_MATH, IN_MATH_FLOOR, 0) B(X, hrint, BF_MATH, IN_NP_RINT, 0) \
	B(X, hsqrt, BF_MATH, IN_MATH_SQRT, 0) B(X, hrsqrt, BF_MATH, IN_NONE, 0) \
	B(X, hrcp, BF_MATH, IN_NP_RECIPROCAL, 0) B(X, hlog, BF_MATH, IN_MATH_LOG, 0) \
	B(X, hlog2, BF_MATH, IN_MATH_LOG2, 0) B(X, hlog10, BF_MATH, IN_MATH_LOG10, 0) \
	B(X, hcos, BF_MATH, IN_MATH_COS, 0) B(X, hsin, BF_MATH, IN_MATH_SIN, 0) \
	B(X, htanh, BF_MATH, IN_MATH_TANH, 0) B(X, htanh_approx, BF_MATH, IN_MATH_TANH, 0) \
	B(X, hexp, BF_MATH, IN_MATH_EXP, 0) B(X, hexp2, BF_MATH, IN_MATH_EXP2, 0) \
	B(X, hexp10, BF_MATH, IN_LD_exp10f, 0) \
	B(X, float2bfloat16, BF_TO, SK_F32, RM_N) B(X, double2bfloat16, BF_TO, SK_F64, RM_N) \
	B(X, float2bfloat16_rn, BF_TO, SK_F32, RM_N) B(X, float2bfloat16_rz, BF_TO, SK_F32, RM_Z) \
	B(X, float2bfloat16_rd, BF_TO, SK_F32, RM_D) B(X, float2bfloat16_ru, BF_TO, SK_F32, RM_U) \
	B(X, short2bfloat16_rn, BF_TO, SK_I16, RM_N) B(X, short2bfloat16_rz, BF_TO, SK_I16, RM_Z) \
	B(X, short2bfloat16_rd, BF_TO, SK_I16, RM_D) B(X, short2bfloat16_ru, BF_TO, SK_I16, RM_U) \
	B(X, ushort2bfloat16_rn, BF_TO, SK_U16, RM_N) B(X, ushort2bfloat16_rz, BF_TO, SK_U16, RM_Z) \
	B(X, ushort2bfloat16_rd, BF_TO, SK_U16, RM_D) B(X, ushort2bfloat16_ru, BF_TO, SK_U16, RM_U) \
	B(X, int2bfloat16_rn, BF_TO, SK_I32, RM_N) B(X, int2bfloat16_rz, BF_TO, SK_I32, RM_Z) \
	B(X, int2bfloat16_rd, BF_TO, SK_I32, RM_D) B(X, int2bfloat16_ru, BF_TO, SK_I32, RM_U) \
	B(X, uint2bfloat16_rn, BF_TO, SK_U32, RM_N) B(X, uint2bfloat16_rz, BF_TO, SK_U32, RM_Z) \
	B(X, uint2bfloat16_rd, BF_TO, SK_U32, RM_D) B(X, uint2bfloat16_ru, BF_TO, SK_U32, RM_U) \
	B(X, ll2bfloat16_rn, BF_TO, SK_I64, RM_N) B(X, ll2bfloat16_rz, BF_TO, SK_I64, RM_Z) \
	B(X, ll2bfloat16_rd, BF_TO, SK_I64, RM_D) B(X, ll2bfloat16_ru, BF_TO, SK_I64, RM_U) \
	B(X, ull2bfloat16_rn, BF_TO, SK_U64, RM_N) B(X, ull2bfloat16_rz, BF_TO, SK_U64, RM_Z) \
	B(X, ull2bfloat16_rd, BF_TO, SK_U64, RM_D) B(X, ull2bfloat16_ru, BF_TO, SK_U64, RM_U) \
	B(X, bfloat162float, BF_FROM, SK_F32, RM_N) \
	B(X, bfloat162char_rz, BF_FROM, SK_I8, RM_Z) B(X, bfloat162uchar_rz, BF_FROM, SK_U8, RM_Z) \
	B(X, bfloat162short_rn, BF_FROM, SK_I16, RM_N) B(X, bfloat162short_rz, BF_FROM, SK_I16, RM_Z) \
	B(X, bfloat162short_rd, BF_FROM, SK_I16, RM_D) B(X, bfloat162short_ru, BF_FROM, SK_I16, RM_U) \
	B(X, bfloat162ushort_rn, BF_FROM, SK_U16, RM_N) B(X, bfloat162ushort_rz, BF_FROM, SK_U16, RM_Z) \
	B(X, bfloat162ushort_rd, BF_FROM, SK_U16, RM_D) B(X, bfloat162ushort_ru, BF_FROM, SK_U16, RM_U) \
	B(X, bfloat162int_rn, BF_FROM, SK_I32, RM_N) B(X, bfloat162int_rz, BF_FROM, SK_I32, RM_Z) \
	B(X, bfloat162int_rd, BF_FROM, SK_I32, RM_D) B(X, bfloat162int_ru, BF_FROM, SK_I32, RM_U) \
	B(X, bfloat162uint_rn, BF_FROM, SK_U32, RM_N) B(X, bfloat162uint_rz, BF_FROM, SK_U32, RM_Z) \
	B(X, bfloat162uint_rd, BF_FROM, SK_U32, RM_D) B(X, bfloat162uint_ru, BF_FROM, SK_U32, RM_U) \
	B(X, bfloat162ll_rn, BF_FROM, SK_I64, RM_N) B(X, bfloat162ll_rz, BF_FROM, SK_I64, RM_Z) \
	B(X, bfloat162ll_rd, BF_FROM, SK_I64, RM_D) B(X, bfloat162ll_ru, BF_FROM, SK_I64, RM_U) \
	B(X, bfloat162ull_rn, BF_FROM, SK_U64, RM_N) B(X, bfloat162ull_rz, BF_FROM, SK_U64, RM_Z) \
	B(X, bfloat162ull_rd, BF_FROM, SK_U64, RM_D) B(X, bfloat162ull_ru, BF_FROM, SK_U64, RM_U) \
	B(X, bfloat16_as_short, BF_AS, SK_I16, 0) B(X, bfloat16_as_ushort, BF_AS, SK_U16, 0) \
	B(X, short_as_bfloat16, BF_FROM_BITS, SK_I16, 0) B(X, ushort_as_bfloat16, BF_FROM_BITS, SK_U16, 0)
/* numba-cuda's spellings with NumPy's type names: A(alias, name). */
#define BF16_ALIASES(A) \
	A(float32_to_bfloat16, float2bfloat16) A(float64_to_bfloat16, double2bfloat16) \
	A(bfloat16_to_float32, bfloat162float) A(bfloat16_as_int16, bfloat16_as_short) \
	A(bfloat16_as_uint16, bfloat16_as_ushort) A(int16_as_bfloat16, short_as_bfloat16) \
	A(uint16_as_bfloat16, ushort_as_bfloat16) A(float32_to_bfloat16_rn, float2bfloat16_rn) \
	A(float32_to_bfloat16_rz, float2bfloat16_rz) A(float32_to_bfloat16_rd, float2bfloat16_rd) \
	A(float32_to_bfloat16_ru, float2bfloat16_ru) A(bfloat16_to_int8_rz, bfloat162char_rz) \
	A(bfloat16_to_uint8_rz, bfloat162uchar_rz) A(int16_to_bfloat16_rn, short2bfloat16_rn) \
	A(bfloat16_to_int16_rn, bfloat162short_rn) A(int16_to_bfloat16_rz, short2bfloat16_rz) \
	A(bfloat16_to_int16_rz, bfloat162short_rz) A(int16_to_bfloat16_rd, short2bfloat16_rd) \
	A(bfloat16_to_int16_rd, bfloat162short_rd) A(int16_to_bfloat16_ru, short2bfloat16_ru) \
	A(bfloat16_to_int16_ru, bfloat162short_ru) A(uint16_to_bfloat16_rn, ushort2bfloat16_rn) \
	A(bfloat16_to_uint16_rn, bfloat162ushort_rn) A(uint16_to_bfloat16_rz, ushort2bfloat16_rz) \
	A(bfloat16_to_uint16_rz, bfloat162ushort_rz) A(uint16_to_bfloat16_rd, ushort2bfloat16_rd) \
	A(bfloat16_to_uint16_rd, bfloat162ushort_rd) A(uint16_to_bfloat16_ru, ushort2bfloat16_ru) \
	A(bfloat16_to_uint16_ru, bfloat162ushort_ru) A(int32_to_bfloat16_rn, int2bfloat16_rn) \
	A(bfloat16_to_int32_rn, bfloat162int_rn) A(int32_to_bfloat16_rz, int2bfloat16_rz) \
	A(bfloat16_to_int32_rz, bfloat162int_rz) A(int32_to_bfloat16_rd, int2bfloat16_rd) \
	A(bfloat16_to_int32_rd, bfloat162int_rd) A(int32_to_bfloat16_ru, int2bfloat16_ru) \
	A(bfloat16_to_int32_ru, bfloat162int_ru) A(uint32_to_bfloat16_rn, uint2bfloat16_rn) \
	A(bfloat16_to_uint32_rn, bfloat162uint_rn) A(uint32_to_bfloat16_rz, uint2bfloat16_rz) \
	A(bfloat16_to_uint32_rz, bfloat162uint_rz) A(uint32_to_bfloat16_rd, uint2bfloat16_rd) \
	A(bfloat16_to_uint32_rd, bfloat162uint_rd) A(uint32_to_bfloat16_ru, uint2bfloat16_ru) \
	A(bfloat16_to_uint32_ru, bfloat162uint_ru) A(int64_to_bfloat16_rn, ll2bfloat16_rn) \
	A(bfloat16_to_int64_rn, bfloat162ll_rn) A(int64_to_bfloat16_rz, ll2bfloat16_rz) \
	A(bfloat16_to_int64_rz, bfloat162ll_rz) A(int64_to_bfloat16_rd, ll2bfloat16_rd) \
	A(bfloat16_to_int64_rd, bfloat162ll_rd) A(int64_to_bfloat16_ru, ll2bfloat16_ru) \
	A(bfloat16_to_int64_ru, bfloat162ll_ru) A(uint64_to_bfloat16_rn, ull2bfloat16_rn) \
	A(bfloat16_to_uint64_rn, bfloat162ull_rn) A(uint64_to_bfloat16_rz, ull2bfloat16_rz) \
	A(bfloat16_to_uint64_rz, bfloat162ull_rz) A(uint64_to_bfloat16_rd, ull2bfloat16_rd) \
	A(bfloat16_to_uint64_rd, bfloat162ull_rd) A(uint64_to_bfloat16_ru, ull2bfloat16_ru) \
	A(bfloat16_to_uint64_ru, bfloat162ull_ru)
#endif
