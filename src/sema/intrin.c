/*
 * intrin.c - the names of the intrinsics (functions, constructors, thread
 * objects and constants that kernels may use) and their lookup by
 * qualified Python name.
 *
 * The table itself is the INTRINSICS X-macro in core.h.  Lookup accepts
 * the spellings users write and normalises them first:
 *   np.X, numpy.X                 -> numpy.X
 *   numba.cuda.X, ptxjit.cuda.X   -> cuda.X
 *   numpy dtype aliases           -> numpy.<canonical> (numpy.double ->
 *                                    numpy.float64, numpy.float_ ->
 *                                    numpy.float64, numpy.intp ->
 *                                    numpy.int64, numpy.bool -> numpy.bool_)
 *   numpy.absolute                -> numpy.abs
 *   numpy.asin, .mod, .conj, ...  -> numpy.arcsin, .remainder, .conjugate,
 *                                    ... (the math library's ufuncs)
 * Names of Numba's types namespace (numba.float32, numba.types.int64) are
 * dtypes, not intrinsics; resolve.c and sema handle them.
 */
#include <stdio.h>
#include <string.h>

#include "../core.h"

const char *const intrin_name[NINTRIN] = {
#define X(id, name) [id] = name,
	INTRINSICS(X)
#undef X
};

static const struct {
	const char *alias, *name;
} numpy_alias[] = {
	{"bool", "bool_"}, {"byte", "int8"}, {"ubyte", "uint8"}, {"short", "int16"},
	{"ushort", "uint16"}, {"intc", "int32"}, {"uintc", "uint32"}, {"int_", "int64"},
	{"intp", "int64"}, {"uint", "uint64"}, {"uintp", "uint64"}, {"long", "int64"},
	{"ulong", "uint64"}, {"longlong", "int64"}, {"ulonglong", "uint64"},
	{"half", "float16"}, {"single", "float32"}, {"double", "float64"}, {"float_", "float64"},
	{"csingle", "complex64"}, {"cdouble", "complex128"}, {"complex_", "complex128"},
	{"cfloat", "complex128"}, {"absolute", "abs"},
	/* the math library's ufuncs under their other names (NumPy 2 spellings too) */
	{"asin", "arcsin"}, {"acos", "arccos"}, {"atan", "arctan"}, {"atan2", "arctan2"},
	{"asinh", "arcsinh"}, {"acosh", "arccosh"}, {"atanh", "arctanh"}, {"pow", "power"},
	{"mod", "remainder"}, {"true_divide", "divide"}, {"bitwise_not", "invert"},
	{"bitwise_invert", "invert"}, {"bitwise_left_shift", "left_shift"},
	{"bitwise_right_shift", "right_shift"}, {"conj", "conjugate"},
};

/* the C names of the vector types' bases: cuda.float3 is cuda.float32x3 */
static const struct {
	const char *alias, *base;
} vector_alias[] = {
	{"char", "int8"}, {"short", "int16"}, {"int", "int32"}, {"long", "int64"}, {"longlong", "int64"},
	{"uchar", "uint8"}, {"ushort", "uint16"}, {"uint", "uint32"}, {"ulong", "uint64"},
	{"ulonglong", "uint64"}, {"float", "float32"}, {"double", "float64"},
};

static int has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

int intrin_lookup(const char *qualname)
{
	char buf[256];
	if (!qualname)
		return IN_NONE;
	const char *rest = NULL, *ns = NULL;
	if (has_prefix(qualname, "np."))
		ns = "numpy.", rest = qualname + 3;
	else if (has_prefix(qualname, "numpy."))
		ns = "numpy.", rest = qualname + 6;
	else if (has_prefix(qualname, "numba.cuda."))
		ns = "cuda.", rest = qualname + 11;
	else if (has_prefix(qualname, "ptxjit.cuda."))
		ns = "cuda.", rest = qualname + 12;
	if (ns) {
		if (strcmp(ns, "numpy.") == 0)
			for (size_t i = 0; i < sizeof numpy_alias / sizeof numpy_alias[0]; i++)
				if (strcmp(rest, numpy_alias[i].alias) == 0) {
					rest = numpy_alias[i].name;
					break;
				}
		if (strlen(ns) + strlen(rest) >= sizeof buf)
			return IN_NONE;
		strcpy(buf, ns);
		strcat(buf, rest);
		qualname = buf;
	}
	if (!*qualname)
		return IN_NONE;
	char vbuf[64];
	if (has_prefix(qualname, "cuda.")) {
		const char *r = qualname + 5;
		size_t n = strlen(r);
		for (size_t i = 0; n >= 2 && i < sizeof vector_alias / sizeof vector_alias[0]; i++)
			if (strlen(vector_alias[i].alias) == n - 1 && !strncmp(r, vector_alias[i].alias, n - 1) &&
			    r[n - 1] >= '1' && r[n - 1] <= '4') {
				snprintf(vbuf, sizeof vbuf, "cuda.%sx%c", vector_alias[i].base, r[n - 1]);
				qualname = vbuf;
				break;
			}
	}
	for (int i = IN_NONE + 1; i < NINTRIN; i++)
		if (intrin_name[i][0] && strcmp(intrin_name[i], qualname) == 0)
			return i;
	return IN_NONE;
}

int intrin_pure(int intrin)
{
	if (intrin <= IN_NONE || intrin >= NINTRIN)
		return 0;
	const char *name = intrin_name[intrin];
	switch (intrin) {
	case IN_MIN: case IN_MAX: case IN_ABS: case IN_INT: case IN_FLOAT: case IN_BOOL:
	case IN_COMPLEX: case IN_ROUND: case IN_POW:
		return 1;
	case IN_NP_EMPTY: case IN_NP_ZEROS: case IN_NP_ONES: case IN_NP_EMPTY_LIKE:
	case IN_NP_ZEROS_LIKE: case IN_NP_ONES_LIKE: case IN_NP_COPY: case IN_NP_ARANGE:
		return 0;   /* they make arrays */
	default:
		return !strncmp(name, "math.", 5) || !strncmp(name, "numpy.", 6) || !strncmp(name, "cuda.fp16.", 10) ||
		       !strncmp(name, "cuda.libdevice.", 15);
	}
}

int intrin_dtype(int intrin)
{
	switch (intrin) {
	case IN_NP_BOOL: return SK_BOOL;
	case IN_NP_INT8: return SK_I8;
	case IN_NP_INT16: return SK_I16;
	case IN_NP_INT32: return SK_I32;
	case IN_NP_INT64: return SK_I64;
	case IN_NP_UINT8: return SK_U8;
	case IN_NP_UINT16: return SK_U16;
	case IN_NP_UINT32: return SK_U32;
	case IN_NP_UINT64: return SK_U64;
	case IN_NP_FLOAT16: return SK_F16;
	case IN_NP_FLOAT32: return SK_F32;
	case IN_NP_FLOAT64: return SK_F64;
	case IN_NP_COMPLEX64: return SK_C64;
	case IN_NP_COMPLEX128: return SK_C128;
	case IN_BF16_CTOR: return SK_BF16;
	case IN_FP8_E5M2: return SK_E5M2;
	case IN_FP8_E4M3: return SK_E4M3;
	case IN_FP8_E8M0: return SK_E8M0;
	default: return -1;
	}
}

int intrin_fp16_compare(int intrin)
{
	return intrin >= IN_FP16_HEQ && intrin <= IN_FP16_HLEU;
}
