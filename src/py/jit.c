/*
 * jit.c - compiling a Python function: the resolver that turns the names
 * a kernel uses into compile-time values, the call of pj_compile, and
 * Kernel, the object that holds one compiled signature.
 *
 * Python hands over a function's description (its _pj_info() tuple:
 * name, dedented source, file, first line, columns removed, globals,
 * closure values, the dict of names frozen so far, whether it is a
 * device function, its declared signatures, inline) and the argument
 * signature.  The compiler calls back, during the compile only, to
 * resolve each free name: closure values first, then globals, then the
 * builtins (exception classes only; sema knows the other builtins).  A
 * value found is stored in the function's frozen dict, so later compiles
 * see the same value, as in Numba.
 *
 * Values become PjValues: numbers, None, strings, tuples; modules,
 * functions and types that kernels may use, looked up by identity in the
 * table that ptxjit.cuda builds (set_resolve_table); other ptxjit
 * dispatchers as PjFuncs with their own resolver; exception classes;
 * NumPy arrays as constant arrays.  Anything else is PJ_V_UNKNOWN with
 * its Python type name, which sema reports if the kernel uses it.
 *
 * ptxjit.extending's functions come through the same table: a
 * register_jitable or numba @njit function ("device") is its
 * CUDADispatcher; an @overload-ed one ("overload") is a PjFunc whose
 * choose() calls the Python chooser with the call's argument types and
 * takes the device function it returns.  The ".m.", ".a." and ".q."
 * names sema asks for (methods, attributes, module functions) are looked
 * up with the table's member().
 *
 * A Python exception raised while resolving (a property that fails) is
 * kept and re-raised after pj_compile returns.
 *
 * Every name the compiler asks for, found or not, is noted per function:
 * a compiled Kernel's _deps is [(None, kernel's names), (dispatcher,
 * its names), ...] for the kernel and each function it reached.  That
 * is what the disk cache (python/ptxjit/cuda/cache.py) keys a kernel on
 * besides its source: the values of exactly these names.
 */
#include "py.h"

#include <stdlib.h>
#include <string.h>

/* Dtype names as NumPy spells them (PjValue.s of PJ_V_DTYPE/ARRAY). */
static const char *const kind_npname[K_NKINDS] = {
	"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
	"float16", "float32", "float64", "complex64", "complex128",
};

typedef struct Root Root;

typedef struct Resolver {
	Root *root;
	PyObject *globals, *closure, *frozen;   /* kept alive by Root.keep */
	PyObject *asked;                        /* the names resolve() was asked for (Root.keep) */
} Resolver;

struct Root {
	ModState *st;
	PyObject *keep;            /* what the compile borrows from */
	int failed;                /* a Python exception is saved below */
	PyObject *et, *ev, *etb;
	/* res lives in the compile's arena (gone after pj_compile); asked
	 * (Root.keep) outlives it, for attach_deps */
	struct { PyObject *disp; PjFunc *f; Resolver *res; PyObject *asked; } *funcs;
	int nfuncs, capfuncs;
	/* overloaded functions met (PjFunc.choose), one PjFunc each: its
	 * data is the entry, so that sema knows two lookups for one */
	struct Overloaded { Root *root; PyObject *chooser; PjFunc *f; } *ovls;
	int novls, capovls;
	PyObject *externs;         /* the cuda.declare_device objects resolved (a list, or NULL) */
};

static void save_error(Root *r)
{
	if (!r->failed) {
		PyErr_Fetch(&r->et, &r->ev, &r->etb);
		r->failed = 1;
	} else {
		PyErr_Clear();
	}
}

static char *copy_str(PjArena *arena, const char *s, Py_ssize_t n)
{
	char *p = pj_alloc(arena, (size_t)n + 1);
	memcpy(p, s, (size_t)n);
	p[n] = 0;
	return p;
}

/* The UTF-8 text of a str, copied into the arena (or borrowed when arena
 * is NULL: the str must outlive the compile). */
static const char *text_of(PyObject *o, PjArena *arena)
{
	Py_ssize_t n;
	if (o == Py_None)
		return NULL;
	const char *s = PyUnicode_AsUTF8AndSize(o, &n);
	if (!s)
		return NULL;
	if (strlen(s) != (size_t)n) {   /* the compiler reads C strings */
		PyErr_Format(PyExc_ValueError, "the text %.60R contains a NUL character, which ptxjit "
		             "cannot compile; remove it", o);
		return NULL;
	}
	return arena ? copy_str(arena, s, n) : s;
}

static int resolve(void *data, const char *name, PjValue *out, PjArena *arena);

/* Fills f from a _pj_info() tuple:
 * (name, source, file, first_line, col_shift, globals, closure, frozen,
 *  is_device, sigs (a tuple of str, or None), inline_always). */
static int func_from_info(Root *r, PyObject *info, PjFunc *f, Resolver *res, PjArena *arena)
{
	if (!PyTuple_Check(info) || PyTuple_GET_SIZE(info) < 11) {
		PyErr_SetString(PyExc_TypeError, "_pj_info() must return an 11-tuple");
		return -1;
	}
	if (PyList_Append(r->keep, info) < 0)
		return -1;
	PyObject *name = PyTuple_GET_ITEM(info, 0), *src = PyTuple_GET_ITEM(info, 1);
	PyObject *file = PyTuple_GET_ITEM(info, 2);
	PyObject *g = PyTuple_GET_ITEM(info, 5), *cl = PyTuple_GET_ITEM(info, 6);
	PyObject *fr = PyTuple_GET_ITEM(info, 7), *sig = PyTuple_GET_ITEM(info, 9);
	if (!PyUnicode_Check(name) || !PyUnicode_Check(src) || !PyUnicode_Check(file) ||
	    !PyDict_Check(g) || !PyDict_Check(cl) || !PyDict_Check(fr) ||
	    (sig != Py_None && !PyTuple_Check(sig))) {
		PyErr_SetString(PyExc_TypeError, "_pj_info(): bad field types");
		return -1;
	}
	memset(f, 0, sizeof *f);
	if (!(f->name = text_of(name, arena)) || !(f->source = text_of(src, arena)) ||
	    !(f->file = text_of(file, arena)))
		return -1;
	f->first_line = (int)PyLong_AsLong(PyTuple_GET_ITEM(info, 3));
	f->col_shift = (int)PyLong_AsLong(PyTuple_GET_ITEM(info, 4));
	if (PyErr_Occurred())
		return -1;
	f->is_device = PyObject_IsTrue(PyTuple_GET_ITEM(info, 8));
	f->inline_always = PyObject_IsTrue(PyTuple_GET_ITEM(info, 10));
	if (sig != Py_None) {
		int n = (int)PyTuple_GET_SIZE(sig);
		size_t size = sizeof(char *) * (size_t)(n ? n : 1);
		const char **sigs;
		if (arena) {
			sigs = pj_alloc(arena, size);
		} else {              /* borrowed for the call: r->keep holds the room */
			PyObject *room = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
			if (!room || PyList_Append(r->keep, room) < 0) {
				Py_XDECREF(room);
				return -1;
			}
			Py_DECREF(room);
			sigs = (const char **)(void *)PyBytes_AS_STRING(room);
		}
		for (int i = 0; i < n; i++) {
			PyObject *one = PyTuple_GET_ITEM(sig, i);
			if (!PyUnicode_Check(one)) {
				PyErr_SetString(PyExc_TypeError, "_pj_info(): a signature is a str");
				return -1;
			}
			if (!(sigs[i] = text_of(one, arena)))
				return -1;
		}
		f->sigs = sigs;
		f->nsigs = n;
	}
	res->root = r;
	res->globals = g;
	res->closure = cl;
	res->frozen = fr;
	if (!(res->asked = PyList_New(0)))
		return -1;
	int rc = PyList_Append(r->keep, res->asked);
	Py_DECREF(res->asked);   /* r->keep holds it */
	if (rc < 0)
		return -1;
	f->resolve = resolve;
	f->data = res;
	return 0;
}

static PjFunc *func_of_dispatcher(Root *r, PyObject *disp, PjArena *arena)
{
	for (int i = 0; i < r->nfuncs; i++)
		if (r->funcs[i].disp == disp)
			return r->funcs[i].f;
	PyObject *info = PyObject_CallMethodNoArgs(disp, r->st->s_pj_info);
	if (!info)
		return NULL;
	PjFunc *f = pj_alloc(arena, sizeof *f);
	Resolver *res = pj_alloc(arena, sizeof *res);
	int rc = func_from_info(r, info, f, res, arena);
	Py_DECREF(info);
	if (rc)
		return NULL;
	if (r->nfuncs == r->capfuncs) {
		int cap = r->capfuncs ? r->capfuncs * 2 : 8;
		void *p = realloc(r->funcs, (size_t)cap * sizeof *r->funcs);
		if (!p) {
			PyErr_NoMemory();
			return NULL;
		}
		r->funcs = p;
		r->capfuncs = cap;
	}
	r->funcs[r->nfuncs].disp = disp;
	r->funcs[r->nfuncs].f = f;
	r->funcs[r->nfuncs].res = res;
	r->funcs[r->nfuncs].asked = res->asked;
	r->nfuncs++;
	return f;
}

/* PjFunc.choose of an overloaded function: the chooser (the table's entry,
 * from ptxjit.extending) called with the argument types returns the device
 * function to call, or a str saying why none fits. */
static const PjFunc *choose(const PjFunc *self, const char *args, PjArena *arena, const char **why)
{
	struct Overloaded *ov = self->data;
	Root *r = ov->root;
	*why = NULL;
	if (r->failed)
		return NULL;
	PyObject *got = PyObject_CallFunction(ov->chooser, "s", args);
	if (!got) {
		save_error(r);
		*why = "the typing function raised an exception (raised again after this message)";
		return NULL;
	}
	const PjFunc *f = NULL;
	if (PyObject_TypeCheck(got, r->st->Dispatcher_T)) {
		if (!(f = func_of_dispatcher(r, got, arena)))
			save_error(r);
	} else if (PyUnicode_Check(got)) {
		*why = text_of(got, arena);
		if (!*why)
			save_error(r);
	} else if (got != Py_None) {
		PyErr_Format(PyExc_TypeError, "an overload's chooser returned %.80R, not a device function", got);
		save_error(r);
	}
	if (PyList_Append(r->keep, got) < 0)   /* its PjFunc borrows from it */
		save_error(r);
	Py_DECREF(got);
	return f;
}

static PjFunc *func_of_overload(Root *r, PyObject *chooser, const char *qual, PjArena *arena)
{
	for (int i = 0; i < r->novls; i++)
		if (r->ovls[i].chooser == chooser)
			return r->ovls[i].f;
	if (r->novls == r->capovls) {
		int cap = r->capovls ? r->capovls * 2 : 8;
		void *p = realloc(r->ovls, (size_t)cap * sizeof *r->ovls);
		if (!p) {
			PyErr_NoMemory();
			return NULL;
		}
		r->ovls = p;
		r->capovls = cap;
	}
	/* the array may move: the PjFunc's data is an entry of its own */
	struct Overloaded *ov = pj_alloc(arena, sizeof *ov);
	PjFunc *f = pj_alloc(arena, sizeof *f);
	memset(f, 0, sizeof *f);
	f->name = copy_str(arena, qual, (Py_ssize_t)strlen(qual));
	f->choose = choose;
	f->data = ov;
	ov->root = r;
	ov->chooser = chooser;   /* the table holds it */
	ov->f = f;
	r->ovls[r->novls++] = *ov;
	return f;
}

static void unknown(PyObject *obj, PjValue *out, PjArena *arena, const char *why)
{
	const char *tn = Py_TYPE(obj)->tp_name;
	out->kind = PJ_V_UNKNOWN;
	if (why) {
		size_t n = strlen(tn) + strlen(why) + 4;
		char *s = pj_alloc(arena, n);
		snprintf(s, n, "%s (%s)", tn, why);
		out->s = s;
	} else {
		out->s = copy_str(arena, tn, (Py_ssize_t)strlen(tn));
	}
}

/* A constant array of records: its dtype's Numba spelling in out->s. */
static int record_array(Root *r, PyObject *obj, Py_buffer *v, PjValue *out, PjArena *arena)
{
	PyObject *dt = PyObject_GetAttrString(obj, "dtype");
	PyObject *sig = dt && is_record_dtype(dt) ? record_sig(dt) : NULL;
	Py_XDECREF(dt);
	if (!sig || v->ndim > 8) {
		Py_XDECREF(sig);
		if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_TypeError))
			return -1;
		PyErr_Clear();
		unknown(obj, out, arena, "an array of a dtype kernels do not support");
		return 0;
	}
	Py_ssize_t n;
	const char *s = PyUnicode_AsUTF8AndSize(sig, &n);
	if (!s) {
		Py_DECREF(sig);
		return -1;
	}
	out->kind = PJ_V_ARRAY;
	out->data = v->buf;
	out->s = copy_str(arena, s, n);
	Py_DECREF(sig);
	out->ndim = v->ndim;
	for (int i = 0; i < v->ndim; i++)
		out->shape[i] = v->shape[i];
	return 0;
}

static int const_array(Root *r, PyObject *obj, PjValue *out, PjArena *arena)
{
	PyObject *mv = PyMemoryView_FromObject(obj);
	if (!mv)
		return -1;
	Py_buffer *v = PyMemoryView_GET_BUFFER(mv);
	if (!PyBuffer_IsContiguous(v, 'C')) {
		Py_DECREF(mv);
		PyObject *np = PyImport_ImportModule("numpy"), *c = NULL;
		if (np) {
			c = PyObject_CallMethod(np, "ascontiguousarray", "O", obj);
			Py_DECREF(np);
		}
		if (!c)
			return -1;
		mv = PyMemoryView_FromObject(c);
		Py_DECREF(c);
		if (!mv)
			return -1;
		v = PyMemoryView_GET_BUFFER(mv);
	}
	int rc = PyList_Append(r->keep, mv);
	Py_DECREF(mv);
	if (rc)
		return -1;
	int k = kind_of_format(v->format, v->itemsize);
	if (k < 0 && v->format && v->format[0] == 'T')
		return record_array(r, obj, v, out, arena);
	if (k < 0 || v->ndim > 8 || v->ndim < 0) {
		unknown(obj, out, arena, k < 0 ? "an array of a dtype kernels do not support"
		                               : "an array of more than 8 dimensions");
		return 0;
	}
	out->kind = PJ_V_ARRAY;
	out->data = v->buf;
	out->s = kind_npname[k];
	out->ndim = v->ndim;
	for (int i = 0; i < v->ndim; i++)
		out->shape[i] = v->shape[i];
	return 0;
}

/* A device array (cuda.to_device) or, on the GPU, any object with a
 * __cuda_array_interface__: captured by its address, as Numba does; the
 * resolver's frozen dict keeps the object, and so its memory, alive. */
/* On the simulator, device memory is host memory the allocator handed
 * out: memory described by another object is read only when it lies in
 * such a block. */
static int devarray_value(PjValue *out, CUdeviceptr ptr, int kind, int ndim, const Py_ssize_t *shape,
                          const Py_ssize_t *strides, int readonly)
{
	out->kind = PJ_V_DEVARRAY;
	out->i = (int64_t)ptr;
	out->s = kind_npname[kind];
	out->ndim = ndim;
	out->readonly = readonly;
	for (int d = 0; d < ndim; d++) {
		out->shape[d] = shape[d];
		out->strides[d] = strides[d];
	}
	return 0;
}

static int device_array(Root *r, PyObject *obj, PjValue *out, PjArena *arena)
{
	ModState *st = r->st;
	if (PyObject_TypeCheck(obj, st->DeviceArray_T)) {
		DeviceArrayObject *a = (DeviceArrayObject *)obj;
		if (a->kind < 0)
			unknown(obj, out, arena, "a device array of a dtype kernels do not support");
		else if (a->foreign && st->sim && !sim_holds_span(st, a->ptr, a->itemsize, a->ndim, a->shape, a->strides))
			unknown(obj, out, arena, "memory of another library, which the simulator cannot read");
		else
			devarray_value(out, a->ptr, a->kind, a->ndim, a->shape, a->strides, 0);
		return 0;
	}
	PyObject *cai = PyObject_GetAttr(obj, st->s_cai);
	if (!cai)
		return -1;
	int rc = 0;
	PyObject *shape = PyDict_Check(cai) ? PyDict_GetItemWithError(cai, st->s_shape) : NULL;
	PyObject *ts = PyDict_Check(cai) ? PyDict_GetItemWithError(cai, st->s_typestr) : NULL;
	PyObject *data = PyDict_Check(cai) ? PyDict_GetItemWithError(cai, st->s_data) : NULL;
	PyObject *strides = PyDict_Check(cai) ? PyDict_GetItemWithError(cai, st->s_strides) : NULL;
	int itemsize = 0, kind = -1;
	Py_ssize_t nd = shape && PyTuple_Check(shape) ? PyTuple_GET_SIZE(shape) : -1;
	if (PyErr_Occurred()) {
		rc = -1;
	} else if (nd < 0 || nd > PJ_MAXDIM || !ts || !PyUnicode_Check(ts) || !data || !PyTuple_Check(data) ||
	           PyTuple_GET_SIZE(data) < 1 ||
	           (strides && strides != Py_None && (!PyTuple_Check(strides) || PyTuple_GET_SIZE(strides) != nd))) {
		unknown(obj, out, arena, "a malformed __cuda_array_interface__");
	} else if ((kind = kind_of_typestr(PyUnicode_AsUTF8(ts) ? PyUnicode_AsUTF8(ts) : "", &itemsize)) < 0) {
		PyErr_Clear();
		unknown(obj, out, arena, "a device array of a dtype kernels do not support");
	} else {
		Py_ssize_t sh[PJ_MAXDIM], sd[PJ_MAXDIM], step = itemsize;
		for (Py_ssize_t d = 0; d < nd && rc == 0; d++)
			if ((sh[d] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, d))) == -1 && PyErr_Occurred())
				rc = -1;
		for (Py_ssize_t d = nd - 1; d >= 0 && rc == 0; d--) {
			if (strides && strides != Py_None) {
				if ((sd[d] = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, d))) == -1 && PyErr_Occurred())
					rc = -1;
			} else {
				sd[d] = step;
				step *= sh[d];
			}
		}
		unsigned long long p = rc ? 0 : PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(data, 0));
		int ro = rc || PyTuple_GET_SIZE(data) < 2 ? 0 : PyObject_IsTrue(PyTuple_GET_ITEM(data, 1));
		if (rc || (p == (unsigned long long)-1 && PyErr_Occurred()) || ro < 0)
			rc = -1;
		else if (st->sim && !sim_holds_span(st, (CUdeviceptr)p, itemsize, (int)nd, sh, sd))
			unknown(obj, out, arena, "a GPU array of another library, which the simulator cannot read");
		else
			devarray_value(out, (CUdeviceptr)p, kind, (int)nd, sh, sd, ro);
	}
	Py_DECREF(cai);
	return rc;
}

/* A NumPy scalar: its value, and its dtype's name in out->s, which types
 * it (np.float32(0.5) is a float32, np.uint64(2**64 - 1) a uint64), as
 * Numba types a global or closure variable by its NumPy type. */
static int numpy_scalar(PyObject *obj, PjValue *out, PjArena *arena)
{
	Py_buffer v;
	if (!nd_numeric_scalar_type(Py_TYPE(obj)) || PyObject_GetBuffer(obj, &v, PyBUF_FORMAT) < 0) {
		PyErr_Clear();
		unknown(obj, out, arena, NULL);
		return 0;
	}
	int k = kind_of_format(v.format, v.itemsize);
	const void *p = v.buf;
	switch (k) {
	case K_BOOL: out->kind = PJ_V_BOOL; out->i = *(const unsigned char *)p != 0; break;
	case K_I8: out->kind = PJ_V_INT; out->i = *(const int8_t *)p; break;
	case K_I16: out->kind = PJ_V_INT; out->i = *(const int16_t *)p; break;
	case K_I32: out->kind = PJ_V_INT; out->i = *(const int32_t *)p; break;
	case K_I64: out->kind = PJ_V_INT; out->i = *(const int64_t *)p; break;
	case K_U8: out->kind = PJ_V_INT; out->i = *(const uint8_t *)p; break;
	case K_U16: out->kind = PJ_V_INT; out->i = *(const uint16_t *)p; break;
	case K_U32: out->kind = PJ_V_INT; out->i = *(const uint32_t *)p; break;
	case K_U64: out->kind = PJ_V_INT; out->i = (int64_t)*(const uint64_t *)p; break;   /* the bits */
	case K_F16: { uint16_t h; memcpy(&h, p, 2); out->kind = PJ_V_FLOAT; out->f = pj_half_to_double(h); break; }
	case K_F32: out->kind = PJ_V_FLOAT; out->f = *(const float *)p; break;
	case K_F64: out->kind = PJ_V_FLOAT; out->f = *(const double *)p; break;
	case K_C64: out->kind = PJ_V_COMPLEX; out->f = ((const float *)p)[0]; out->im = ((const float *)p)[1]; break;
	case K_C128: out->kind = PJ_V_COMPLEX; out->f = ((const double *)p)[0]; out->im = ((const double *)p)[1]; break;
	default: unknown(obj, out, arena, NULL); break;
	}
	if (out->kind != PJ_V_UNKNOWN)
		out->s = kind_npname[k];
	PyBuffer_Release(&v);
	return 0;
}

static int table_entry(Root *r, const char *name, PyObject *obj, PyObject *ent, PjValue *out, PjArena *arena);

/* Looks obj up in the table from ptxjit.cuda; 1 if found.  The table
 * may be a dict subclass with a method miss(obj, name) that classifies
 * an object it does not hold yet (and files it): ptxjit.cuda builds the
 * costly parts of the table (NumPy's functions) only when one is used. */
static int from_table(Root *r, const char *name, PyObject *obj, PjValue *out, PjArena *arena)
{
	ModState *st = r->st;
	if (!st->resolve_table)
		return 0;
	PyObject *key = PyLong_FromVoidPtr(obj), *found = NULL;
	if (!key)
		return -1;
	PyObject *ent = PyDict_GetItemWithError(st->resolve_table, key);
	Py_DECREF(key);
	if (!ent && !PyErr_Occurred() && !PyDict_CheckExact(st->resolve_table)) {
		found = PyObject_CallMethod(st->resolve_table, "miss", "Os", obj, name ? name : "");
		if (!found)
			return -1;
		ent = found;
	}
	int rc = table_entry(r, name, obj, ent, out, arena);
	Py_XDECREF(found);
	return rc;
}

/* An intrinsic's overload by the user (PjValue.func), from the table's
 * overloaded(obj): used where the compiler does not know the intrinsic. */
static int overloaded_intrinsic(Root *r, PyObject *obj, PjValue *out, PjArena *arena)
{
	ModState *st = r->st;
	if (PyDict_CheckExact(st->resolve_table))
		return 0;
	PyObject *ent = PyObject_CallMethod(st->resolve_table, "overloaded", "O", obj);
	if (!ent)
		return -1;
	int rc = 0;
	if (PyTuple_Check(ent) && PyTuple_GET_SIZE(ent) == 4) {
		const char *qual = PyUnicode_AsUTF8(PyTuple_GET_ITEM(ent, 2));
		if (!qual || !(out->func = func_of_overload(r, PyTuple_GET_ITEM(ent, 3), qual, arena)))
			rc = -1;
	}
	Py_DECREF(ent);
	return rc;
}

static int table_entry(Root *r, const char *name, PyObject *obj, PyObject *ent, PjValue *out, PjArena *arena)
{
	if (!ent)
		return PyErr_Occurred() ? -1 : 0;
	if (!PyTuple_Check(ent) || PyTuple_GET_SIZE(ent) != 4 || PyTuple_GET_ITEM(ent, 0) != obj)
		return 0;
	const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(ent, 1));
	const char *qual = PyUnicode_AsUTF8(PyTuple_GET_ITEM(ent, 2));
	PyObject *module = PyTuple_GET_ITEM(ent, 3);
	if (!kind || !qual)
		return -1;
	if (strcmp(kind, "module") == 0)
		out->kind = PJ_V_MODULE;
	else if (strcmp(kind, "intrin") == 0)
		out->kind = PJ_V_INTRIN;
	else if (strcmp(kind, "dtype") == 0)
		out->kind = PJ_V_DTYPE;
	else if (strcmp(kind, "exc") == 0)
		out->kind = PJ_V_EXC;
	else if (strcmp(kind, "device") == 0 || strcmp(kind, "overload") == 0) {
		/* a function compiled as a device function (register_jitable,
		 * numba's @njit): module is its CUDADispatcher; an overloaded
		 * one: module is its chooser */
		out->kind = PJ_V_FUNC;
		out->func = kind[0] == 'd' ? func_of_dispatcher(r, module, arena) : func_of_overload(r, module, qual, arena);
		return out->func ? 1 : -1;
	} else if (strcmp(kind, "unknown") == 0) {
		out->kind = PJ_V_UNKNOWN;   /* a value kernels cannot use: qual says what it is */
		out->s = copy_str(arena, qual, (Py_ssize_t)strlen(qual));
		return 1;
	} else
		return 0;
	out->s = copy_str(arena, qual, (Py_ssize_t)strlen(qual));
	if (out->kind == PJ_V_INTRIN && overloaded_intrinsic(r, obj, out, arena) < 0)
		return -1;
	/* `from numpy import absolute`: keep the spelling the user imported
	 * when the module has the object under that name too. */
	const char *dot = strrchr(qual, '.');
	if (out->kind == PJ_V_INTRIN && dot && module != Py_None && name && strcmp(dot + 1, name) != 0) {
		PyObject *alt = PyObject_GetAttrString(module, name);
		if (alt == obj) {
			size_t n = (size_t)(dot - qual) + 1 + strlen(name) + 1;
			char *s = pj_alloc(arena, n);
			snprintf(s, n, "%.*s.%s", (int)(dot - qual), qual, name);
			out->s = s;
		}
		if (!alt)
			PyErr_Clear();
		Py_XDECREF(alt);
	}
	return 1;
}

/* A cuda.declare_device object: obj._pj_extern is (symbol, signature,
 * abi_c[, cooperative]). */
static int external(Root *r, PyObject *obj, PjValue *out, PjArena *arena)
{
	PyObject *t = PyObject_GetAttr(obj, r->st->s_pj_extern);
	const char *name, *sig;
	int abi_c, coop = 0;
	if (!t)
		return -1;
	if (!PyArg_ParseTuple(t, "ssp|p;_pj_extern must be (symbol, signature, abi_c, cooperative)", &name, &sig,
	                      &abi_c, &coop)) {
		Py_DECREF(t);
		return -1;
	}
	PjFunc *f = pj_alloc(arena, sizeof *f);
	const char **sigs = pj_alloc(arena, sizeof *sigs);
	f->name = f->external = copy_str(arena, name, (Py_ssize_t)strlen(name));
	sigs[0] = copy_str(arena, sig, (Py_ssize_t)strlen(sig));
	f->sigs = sigs;
	f->nsigs = 1;
	f->abi_c = abi_c;
	f->cooperative = coop;
	f->is_device = 1;
	Py_DECREF(t);
	if (!r->externs && !(r->externs = PyList_New(0)))
		return -1;
	if (PyList_Append(r->externs, obj) < 0)
		return -1;
	out->kind = PJ_V_FUNC;
	out->func = f;
	return 0;
}

/* 1: obj is an Enum class, or a class of int members that has an Enum's
 * __members__ (cuda-bindings' FastEnum: cudaRoundMode); 2: a member of an
 * Enum (an IntEnum's members are ints, and never get here); 0: neither;
 * -1: an error */
static int enum_kind(PyObject *obj)
{
	if (PyType_Check(obj) && PyType_IsSubtype((PyTypeObject *)obj, &PyLong_Type) &&
	    PyObject_HasAttrString(obj, "__members__"))
		return 1;
	PyObject *m = PyImport_ImportModule("enum");
	if (!m)
		return -1;
	PyObject *meta = PyObject_GetAttrString(m, "EnumMeta"), *base = PyObject_GetAttrString(m, "Enum");
	Py_DECREF(m);
	int rc = -1;
	if (meta && base) {
		int a = PyObject_IsInstance(obj, meta);
		int b = a == 0 ? PyObject_IsInstance(obj, base) : 0;
		rc = a < 0 || b < 0 ? -1 : a ? 1 : b ? 2 : 0;
	}
	Py_XDECREF(meta);
	Py_XDECREF(base);
	return rc;
}

/* A member of an Enum that is not an IntEnum: its int value, with the
 * class's name in out->s (Numba's EnumMember(cls, int64)); other values
 * are refused.  -1 on a Python error. */
static int enum_member(PyObject *obj, PjValue *out, PjArena *arena)
{
	PyObject *v = PyObject_GetAttrString(obj, "value");
	PyObject *cls = PyObject_GetAttrString((PyObject *)Py_TYPE(obj), "__qualname__");
	int rc = v && cls ? 0 : -1;
	if (rc == 0 && PyLong_CheckExact(v) && PyUnicode_Check(cls)) {
		int overflow;
		long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
		Py_ssize_t n;
		const char *s = PyUnicode_AsUTF8AndSize(cls, &n);
		if ((i == -1 && PyErr_Occurred()) || !s)
			rc = -1;
		else if (overflow)
			unknown(obj, out, arena, "a member of an Enum whose value is too large for int64");
		else {
			out->kind = PJ_V_INT;
			out->i = i;
			out->s = copy_str(arena, s, n);
		}
	} else if (rc == 0) {
		unknown(obj, out, arena, "a member of an Enum whose value is not an int (kernels use Enum members of "
		        "int values, and IntEnums)");
	}
	Py_XDECREF(v);
	Py_XDECREF(cls);
	return rc;
}

/* The member that "NAME.attr" or "NAME[key]" names of the object base
 * (a new reference; NULL with an AttributeError or KeyError when there
 * is none) */
static PyObject *member_of(PyObject *base, const char *rest)
{
	if (rest[0] == '.')
		return PyObject_GetAttrString(base, rest + 1);
	size_t n = strlen(rest);
	PyObject *key = PyUnicode_FromStringAndSize(rest + 1, (Py_ssize_t)(n >= 2 ? n - 2 : 0));
	if (!key)
		return NULL;
	PyObject *v = PyObject_GetItem(base, key);
	Py_DECREF(key);
	return v;
}

static int to_value(Root *r, const char *name, PyObject *obj, PjValue *out, PjArena *arena, int depth)
{
	ModState *st = r->st;
	memset(out, 0, sizeof *out);
	if (obj == Py_None) {
		out->kind = PJ_V_NONE;
	} else if (PyBool_Check(obj)) {
		out->kind = PJ_V_BOOL;
		out->i = obj == Py_True;
	} else if (PyLong_Check(obj)) {
		int overflow = 0;
		long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
		if (v == -1 && PyErr_Occurred())
			return -1;
		if (overflow)
			unknown(obj, out, arena, "too large for int64");
		else {
			out->kind = PJ_V_INT;
			out->i = v;
		}
	} else if (PyFloat_Check(obj)) {
		out->kind = PJ_V_FLOAT;
		out->f = PyFloat_AS_DOUBLE(obj);
	} else if (PyComplex_Check(obj)) {
		out->kind = PJ_V_COMPLEX;
		out->f = PyComplex_RealAsDouble(obj);
		out->im = PyComplex_ImagAsDouble(obj);
	} else if (PyUnicode_Check(obj)) {
		Py_ssize_t n;
		const char *s = PyUnicode_AsUTF8AndSize(obj, &n);
		if (!s)
			return -1;
		out->kind = PJ_V_STR;
		out->s = copy_str(arena, s, n);
	} else if (PyTuple_Check(obj)) {
		Py_ssize_t n = PyTuple_GET_SIZE(obj);
		if (depth > 16 || n > 1 << 16) {
			unknown(obj, out, arena, "nested too deeply or too long");
			return 0;
		}
		out->kind = PJ_V_TUPLE;
		out->n = (int)n;
		out->elts = pj_alloc(arena, (size_t)(n ? n : 1) * sizeof(PjValue));
		for (Py_ssize_t i = 0; i < n; i++)
			if (to_value(r, NULL, PyTuple_GET_ITEM(obj, i), &out->elts[i], arena, depth + 1))
				return -1;
	} else if (PyObject_TypeCheck(obj, st->Dispatcher_T) || cpu_is_dispatcher(st, obj)) {
		out->kind = PJ_V_FUNC;
		if (!(out->func = func_of_dispatcher(r, obj, arena)))
			return -1;
	} else if (!PyType_Check(obj) && PyObject_HasAttr(obj, st->s_pj_extern)) {
		return external(r, obj, out, arena);
	} else {
		int t = from_table(r, name, obj, out, arena);
		if (t < 0)
			return -1;
		if (t)
			return 0;
		if (PyExceptionClass_Check(obj)) {
			const char *tn = ((PyTypeObject *)obj)->tp_name, *dot = strrchr(tn, '.');
			if (dot)
				tn = dot + 1;
			out->kind = PJ_V_EXC;
			out->s = copy_str(arena, tn, (Py_ssize_t)strlen(tn));
		} else if (nd_type_named(Py_TYPE(obj), "numpy.ndarray")) {
			return const_array(r, obj, out, arena);
		} else if (PyObject_TypeCheck(obj, st->DeviceArray_T) || PyObject_HasAttr(obj, st->s_cai)) {
			return device_array(r, obj, out, arena);
		} else if (nd_type_named(Py_TYPE(obj), "numpy.dtype") && is_record_dtype(obj)) {
			PyObject *sig = record_sig(obj);
			if (!sig) {
				if (!PyErr_ExceptionMatches(PyExc_TypeError))
					return -1;
				PyErr_Clear();
				unknown(obj, out, arena, "a record dtype kernels do not support");
				return 0;
			}
			Py_ssize_t n;
			const char *s = PyUnicode_AsUTF8AndSize(sig, &n);
			out->kind = PJ_V_DTYPE;
			out->s = s ? copy_str(arena, s, n) : NULL;
			Py_DECREF(sig);
			if (!s)
				return -1;
		} else if (nd_type_named(Py_TYPE(obj), "numpy.generic")) {
			return numpy_scalar(obj, out, arena);
		} else if ((t = is_record_type(obj)) != 0) {
			PyObject *sig = t < 0 ? NULL : PyObject_Str(obj);
			Py_ssize_t n;
			const char *s = sig ? PyUnicode_AsUTF8AndSize(sig, &n) : NULL;
			out->kind = PJ_V_DTYPE;
			out->s = s ? copy_str(arena, s, n) : NULL;
			Py_XDECREF(sig);
			if (!s)
				return -1;
		} else {
			int e = enum_kind(obj);
			if (e < 0)
				return -1;
			if ((e == 1 || PyModule_Check(obj)) && name && !strpbrk(name, ".[")) {
				/* an Enum class: a namespace of its members; a module kernels
				 * do not know (mymod.f): a namespace of its attributes */
				out->kind = PJ_V_NAMESPACE;
				out->s = copy_str(arena, name, (Py_ssize_t)strlen(name));
			} else if (e == 2) {
				if (enum_member(obj, out, arena) < 0)
					return -1;
			}
			else
				unknown(obj, out, arena, NULL);
		}
	}
	return 0;
}

static PyObject *lookup(PyObject *dict, PyObject *key)
{
	if (!dict || !PyDict_Check(dict))
		return NULL;
	return PyDict_GetItemWithError(dict, key);
}

/* The overloaded function of a method or an attribute (".m.NAME",
 * ".a.NAME"), from the table's member(); 1 found, 0 none, -1 error. */
static int member(Root *r, const char *name, PjValue *out, PjArena *arena)
{
	ModState *st = r->st;
	memset(out, 0, sizeof *out);
	if (!st->resolve_table || PyDict_CheckExact(st->resolve_table))
		return 0;
	PyObject *ent = PyObject_CallMethod(st->resolve_table, "member", "s", name);
	if (!ent)
		return -1;
	int rc = 0;
	if (PyTuple_Check(ent) && PyTuple_GET_SIZE(ent) == 4)
		rc = table_entry(r, NULL, PyTuple_GET_ITEM(ent, 0), ent, out, arena);
	Py_DECREF(ent);
	return rc;
}

static int resolve(void *data, const char *name, PjValue *out, PjArena *arena)
{
	Resolver *res = data;
	Root *r = res->root;
	if (r->failed)
		return 0;
	PyObject *key = PyUnicode_FromString(name), *obj = NULL;
	if (name[0] == '.') {          /* ".m.NAME", ".a.NAME", ".q.M.NAME": see PjFunc.resolve;
	                                  noted only when found (the disk cache keeps no such kernel) */
		int rc = key ? member(r, name, out, arena) : -1;
		if (rc > 0 && PyList_Append(res->asked, key) < 0)
			rc = -1;
		Py_XDECREF(key);
		if (rc < 0)
			save_error(r);
		return rc > 0;
	}
	if (!key || PyList_Append(res->asked, key) < 0)
		goto pyerr;
	obj = lookup(res->frozen, key);
	const char *sep = strpbrk(name, ".[");
	if (!obj && !PyErr_Occurred() && sep) {
		/* a member of a namespace global (NAME.attr, NAME[key]): from
		 * the global as it is now, frozen under the whole name */
		PyObject *bkey = PyUnicode_FromStringAndSize(name, (Py_ssize_t)(sep - name)), *base = NULL;
		if (!bkey)
			goto pyerr;
		base = lookup(res->closure, bkey);
		if (!base && !PyErr_Occurred())
			base = lookup(res->globals, bkey);
		Py_DECREF(bkey);
		if (!base) {
			if (PyErr_Occurred())
				goto pyerr;
			Py_DECREF(key);
			return 0;
		}
		PyObject *m = member_of(base, sep);
		if (!m) {
			if (!PyErr_ExceptionMatches(PyExc_AttributeError) && !PyErr_ExceptionMatches(PyExc_KeyError))
				goto pyerr;
			PyErr_Clear();
			Py_DECREF(key);
			return 0;
		}
		int rc = PyDict_SetItem(res->frozen, key, m);
		Py_DECREF(m);
		if (rc < 0)
			goto pyerr;
		obj = lookup(res->frozen, key);
	}
	if (!obj && !PyErr_Occurred()) {
		obj = lookup(res->closure, key);
		if (!obj && !PyErr_Occurred())
			obj = lookup(res->globals, key);
		if (!obj && !PyErr_Occurred()) {
			obj = lookup(PyEval_GetBuiltins(), key);
			if (obj && !PyExceptionClass_Check(obj))
				obj = NULL;
		}
		/* a NumPy array is frozen as a copy: later changes on the host do
		 * not reach kernels compiled afterwards (Numba's constant arrays) */
		if (obj && nd_type_named(Py_TYPE(obj), "numpy.ndarray")) {
			if (!(obj = PyObject_CallMethod(obj, "copy", NULL)))
				goto pyerr;
			int rc = PyDict_SetItem(res->frozen, key, obj);
			Py_DECREF(obj);   /* the frozen dict keeps it */
			if (rc < 0)
				goto pyerr;
		} else if (obj && PyDict_SetItem(res->frozen, key, obj) < 0)
			goto pyerr;
	}
	if (!obj) {
		if (PyErr_Occurred())
			goto pyerr;
		Py_DECREF(key);
		return 0;
	}
	Py_INCREF(obj);
	int rc = to_value(r, name, obj, out, arena, 0);
	Py_DECREF(obj);
	Py_DECREF(key);
	if (rc) {
		save_error(r);
		return 0;
	}
	return 1;
pyerr:
	Py_XDECREF(key);
	save_error(r);
	return 0;
}

/* ------------------------------------------------------------ Kernel */

static void Kernel_dealloc(KernelObject *k)
{
	PyTypeObject *tp = Py_TYPE(k);
	PyObject_GC_UnTrack(k);
	if (k->pk) {
		NOGIL(rt_kernel_unload(k->rt, &k->rk);     /* cuModuleUnload waits (py.h) */
		      for (int i = 0; i < RT_MAXDEV; i++)
			      if (k->on[i]) {
				      rt_kernel_unload(k->on[i]->rt, &k->on[i]->rk);
				      free(k->on[i]);
			      });
		pj_kernel_free(k->pk);
	}
	Py_CLEAR(k->dict);
	Py_CLEAR(k->links);
	PyMem_Free(k->link_inputs);
	tp->tp_free((PyObject *)k);
	Py_DECREF(tp);
}

static int Kernel_traverse(KernelObject *k, visitproc visit, void *arg)
{
	Py_VISIT(k->dict);
	Py_VISIT(k->links);
	Py_VISIT(Py_TYPE(k));
	return 0;
}

static int Kernel_clear(KernelObject *k)
{
	Py_CLEAR(k->dict);
	return 0;
}

static PyObject *str_or_none(const char *s)
{
	if (!s)
		Py_RETURN_NONE;
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

static PyObject *Kernel_ptx(KernelObject *k, void *c) { return str_or_none(k->pk->ptx); }
static PyObject *Kernel_entry(KernelObject *k, void *c) { return str_or_none(k->pk->entry); }
static PyObject *Kernel_types(KernelObject *k, void *c) { return str_or_none(k->pk->types); }
/* Numba's TypeAnnotation of the overload (ptxjit.cuda.typeann): the
 * variables' types read from the typed source. */
static PyObject *Kernel_type_annotation(KernelObject *k, void *c)
{
	PyObject *m = PyImport_ImportModule("ptxjit.cuda.typeann");
	PyObject *a = m ? PyObject_CallMethod(m, "type_annotation", "O", (PyObject *)k) : NULL;
	Py_XDECREF(m);
	return a;
}
static PyObject *Kernel_ir(KernelObject *k, void *c) { return str_or_none(k->pk->ir); }
static PyObject *Kernel_log(KernelObject *k, void *c) { return str_or_none(k->rk.log); }
static PyObject *Kernel_compile_us(KernelObject *k, void *c) { return PyFloat_FromDouble(k->pk->compile_us); }
static PyObject *Kernel_static_smem(KernelObject *k, void *c) { return PyLong_FromLongLong(k->pk->static_smem); }
static PyObject *Kernel_dynamic_smem(KernelObject *k, void *c) { return PyBool_FromLong(k->pk->dynamic_smem); }
static PyObject *Kernel_cooperative(KernelObject *k, void *c) { return PyBool_FromLong(k->pk->cooperative); }
static PyObject *Kernel_devmem(KernelObject *k, void *c) { return PyBool_FromLong(k->pk->devmem); }
static PyObject *Kernel_param_bytes(KernelObject *k, void *c) { return PyLong_FromLong(k->pk->param_bytes); }
static PyObject *Kernel_has_sim(KernelObject *k, void *c) { return PyBool_FromLong(k->pk->sim != NULL); }

/* params: [(role, arg, dim, kind, offset)] -- the parameter buffer layout */
static PyObject *Kernel_params(KernelObject *k, void *c)
{
	PyObject *l = PyList_New(k->pk->nparams);
	if (!l)
		return NULL;
	for (int i = 0; i < k->pk->nparams; i++) {
		PjParam *p = &k->pk->params[i];
		static const char *const roles[] = {"data", "extent", "stride", "scalar", "real", "imag", "ret",
		                                    "pointer base", "pointer bytes"};
		const char *role = p->role >= 0 && p->role < 9 ? roles[p->role] : "?";
		const char *kind = p->ty >= 0 && p->ty < K_NKINDS ? kind_name[p->ty] : "?";
		PyObject *t = Py_BuildValue("(siisi)", role, p->arg, p->dim, kind, p->off);
		if (!t) {
			Py_DECREF(l);
			return NULL;
		}
		PyList_SET_ITEM(l, i, t);
	}
	return l;
}

/* The indices of the arguments whose bit is set in mask (bit 63 stands
 * for every argument from 63 on). */
static PyObject *arg_indices(KernelObject *k, uint64_t mask)
{
	PyObject *l = PyList_New(0);
	if (!l)
		return NULL;
	for (int i = 0; i < k->nargs; i++) {
		if (!(mask >> (i < 63 ? i : 63) & 1))
			continue;
		PyObject *x = PyLong_FromLong(i);
		if (!x || PyList_Append(l, x) < 0) {
			Py_XDECREF(x);
			Py_DECREF(l);
			return NULL;
		}
		Py_DECREF(x);
	}
	PyObject *t = PyList_AsTuple(l);
	Py_DECREF(l);
	return t;
}

static PyObject *Kernel_read_args(KernelObject *k, void *c) { return arg_indices(k, k->pk->read_args); }
static PyObject *Kernel_written_args(KernelObject *k, void *c) { return arg_indices(k, k->pk->written_args); }

/* _load(): loads the module on the device now (otherwise the first
 * launch does). */
static PyObject *Kernel_load(KernelObject *k, PyObject *unused)
{
	ModState *st = k->st;
	RtKernel *rk = kernel_on(k, cur_rt(st));
	RtErr e;
	int rc;
	if (!rk || enter_rt(st, cur_rt(st)))
		return NULL;
	NOGIL(rc = rt_kernel_load(cur_rt(st), rk, &e));
	if (rc)
		return raise_rt(st, &e);
	Py_RETURN_NONE;
}

/* _attr(n): a CUfunction_attribute of the loaded kernel. */
static PyObject *Kernel_attr(KernelObject *k, PyObject *arg)
{
	ModState *st = k->st;
	long a = PyLong_AsLong(arg);
	if (a == -1 && PyErr_Occurred())
		return NULL;
	int v = 0;
	RtKernel *rk = kernel_on(k, cur_rt(st));
	RtErr e;
	if (!rk || enter_rt(st, cur_rt(st)))
		return NULL;
	if (rt_kernel_attr(cur_rt(st), rk, (int)a, &v, &e))
		return raise_rt(st, &e);
	return PyLong_FromLong(v);
}

/* regs_per_thread, shared_mem_per_block, ...: the CUfunction_attribute
 * whose number the getter's closure holds, as Numba's _Kernel has them. */
static PyObject *Kernel_resource(KernelObject *k, void *attr)
{
	PyObject *a = PyLong_FromLong((long)(intptr_t)attr);
	PyObject *v = a ? Kernel_attr(k, a) : NULL;
	Py_XDECREF(a);
	return v;
}

/* max_cooperative_grid_blocks(blockdim, dynsmemsize=0): the blocks that
 * can be resident at once on the whole device. */
static PyObject *Kernel_max_coop_blocks(KernelObject *k, PyObject *args, PyObject *kwds)
{
	static char *kw[] = {"blockdim", "dynsmemsize", NULL};
	ModState *st = k->st;
	PyObject *bd;
	long long smem = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|L", kw, &bd, &smem))
		return NULL;
	long long threads = 1;
	PyObject *dims = PyTuple_Check(bd) ? (Py_INCREF(bd), bd) : PyTuple_Pack(1, bd);
	if (!dims)
		return NULL;
	for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(dims) && threads > 0; j++) {
		long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(dims, j));
		if (v == -1 && PyErr_Occurred()) {
			Py_DECREF(dims);
			return PyErr_Format(PyExc_TypeError, "max_cooperative_grid_blocks: blockdim must be an int or a "
			                    "tuple of ints, not %R", bd);
		}
		threads = v < 1 || v > 1024 ? -1 : threads * v;
	}
	Py_DECREF(dims);
	if (threads < 1 || threads > 1024 || smem < 0)
		return PyErr_Format(PyExc_ValueError, "max_cooperative_grid_blocks: blockdim %R with %lld bytes of "
		                    "shared memory is not a block a kernel can have (1 to 1024 threads)", bd, smem);
	int n = 0;
	Rt *rt = cur_rt(st);
	RtKernel *rk = kernel_on(k, rt);
	RtErr e;
	if (!rk || enter_rt(st, rt))
		return NULL;
	if (rt_kernel_active_blocks(rt, rk, (int)threads, (size_t)smem, &n, &e))
		return raise_rt(st, &e);
	return PyLong_FromLong((long)n * rt->sm_count);
}

/* _max_block_size(smem): the driver's occupancy-maximising block size
 * with smem bytes of dynamic shared memory (forall's threads per block). */
static PyObject *Kernel_max_block_size(KernelObject *k, PyObject *arg)
{
	ModState *st = k->st;
	long long smem = PyLong_AsLongLong(arg);
	if (smem == -1 && PyErr_Occurred())
		return NULL;
	if (smem < 0)
		return PyErr_Format(PyExc_ValueError, "shared memory of %lld bytes", smem);
	int tpb = 0;
	RtKernel *rk = kernel_on(k, cur_rt(st));
	RtErr e;
	if (!rk || enter_rt(st, cur_rt(st)))
		return NULL;
	if (rt_kernel_max_block(cur_rt(st), rk, (size_t)smem, &tpb, &e))
		return raise_rt(st, &e);
	return PyLong_FromLong(tpb);
}

/* kcache.c: the disk cache's side of Kernel */
extern long kcache_loads;
PyObject *kcache_entry(KernelObject *k, PyObject *args);
PyObject *kcache_from_entry(PyObject *type, PyObject *args);
PyObject *kcache_adopt_sim(KernelObject *k, PyObject *fresh);
PyObject *kcache_build_id(PyObject *type, PyObject *unused);
static PyObject *Kernel_counters(PyObject *type, PyObject *unused);

static PyGetSetDef Kernel_getset[] = {
	{"ptx", (getter)Kernel_ptx, NULL, "the PTX text", NULL},
	{"entry", (getter)Kernel_entry, NULL, "the .entry name", NULL},
	{"types", (getter)Kernel_types, NULL, "the source with the type of every variable", NULL},
	{"_type_annotation", (getter)Kernel_type_annotation, NULL,
	 "the kernel's variables and their types (.typemap), as Numba's TypeAnnotation", NULL},
	{"ir", (getter)Kernel_ir, NULL, "the optimised IR", NULL},
	{"jit_log", (getter)Kernel_log, NULL, "the driver's JIT log of the last module load", NULL},
	{"compile_us", (getter)Kernel_compile_us, NULL, "microseconds pj_compile took", NULL},
	{"static_smem", (getter)Kernel_static_smem, NULL, "bytes of static shared memory", NULL},
	{"dynamic_smem", (getter)Kernel_dynamic_smem, NULL, "uses dynamic shared memory", NULL},
	{"cooperative", (getter)Kernel_cooperative, NULL,
	 "waits at the grid's barrier (cuda.cg.this_grid().sync()): launched cooperatively", NULL},
	{"uses_device_globals", (getter)Kernel_devmem, NULL, "uses global device arrays by their address", NULL},
	{"param_bytes", (getter)Kernel_param_bytes, NULL, "size of the parameter buffer", NULL},
	{"params", (getter)Kernel_params, NULL, "[(role, arg, dim, kind, offset)]", NULL},
	{"has_sim", (getter)Kernel_has_sim, NULL, "a simulator program was built", NULL},
	{"read_args", (getter)Kernel_read_args, NULL,
	 "indices of the array arguments the kernel may read", NULL},
	{"written_args", (getter)Kernel_written_args, NULL,
	 "indices of the array arguments the kernel may write (NumPy arrays among them are copied back)", NULL},
	{"max_threads_per_block", (getter)Kernel_resource, NULL, "the most threads a block of it can have",
	 (void *)0},
	{"shared_mem_per_block", (getter)Kernel_resource, NULL, "bytes of static shared memory a block",
	 (void *)1},
	{"const_mem_size", (getter)Kernel_resource, NULL, "bytes of constant memory", (void *)2},
	{"local_mem_per_thread", (getter)Kernel_resource, NULL, "bytes of local memory a thread", (void *)3},
	{"regs_per_thread", (getter)Kernel_resource, NULL, "registers a thread", (void *)4},
	{NULL, NULL, NULL, NULL, NULL},
};

/* k._link(inputs): the code linked with the kernel's PTX when it is
 * loaded, a sequence of (kind, bytes, name), kind a CUjitInputType
 * (RT_LINK_*).  Before the first load only. */
static PyObject *Kernel_link(KernelObject *k, PyObject *arg)
{
	int loaded = k->rk.loaded;
	for (int i = 0; i < RT_MAXDEV; i++)
		loaded |= k->on[i] && k->on[i]->rk.loaded;
	if (loaded || k->links) {
		PyErr_SetString(PyExc_RuntimeError, "Kernel._link: the kernel's code is linked once, before it is loaded");
		return NULL;
	}
	PyObject *t = PySequence_Tuple(arg);
	if (!t)
		return NULL;
	Py_ssize_t n = PyTuple_GET_SIZE(t);
	RtLinkInput *in = PyMem_Calloc((size_t)(n ? n : 1), sizeof *in);
	if (!in) {
		Py_DECREF(t);
		return PyErr_NoMemory();
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *e = PyTuple_GET_ITEM(t, i);
		int type;
		const char *data, *name;
		Py_ssize_t size;
		if (!PyArg_ParseTuple(e, "iy#s;a link input is (kind, bytes, name)", &type, &data, &size, &name)) {
			PyMem_Free(in);
			Py_DECREF(t);
			return NULL;
		}
		if (type < RT_LINK_CUBIN || type > RT_LINK_LIBRARY) {
			PyErr_Format(PyExc_ValueError, "link input '%s': kind %d is none the driver's linker takes", name, type);
			PyMem_Free(in);
			Py_DECREF(t);
			return NULL;
		}
		in[i] = (RtLinkInput){type, data, (size_t)size, name};
	}
	k->links = t;
	k->link_inputs = in;
	k->nlinks = (int)n;
	k->rk.links = in;
	k->rk.nlinks = (int)n;
	for (int i = 0; i < RT_MAXDEV; i++)
		if (k->on[i]) {
			k->on[i]->rk.links = in;
			k->on[i]->rk.nlinks = (int)n;
		}
	Py_RETURN_NONE;
}

/* k._set_carveout(percent): the shared memory carveout (-1 the driver's
 * default, 0 .. 100) set on the function when it is loaded. */
static PyObject *Kernel_set_carveout(KernelObject *k, PyObject *arg)
{
	long v = PyLong_AsLong(arg);
	if (v == -1 && PyErr_Occurred())
		return NULL;
	if (v < -1 || v > 100)
		return PyErr_Format(PyExc_ValueError, "a shared memory carveout is -1 to 100, not %ld", v);
	k->rk.carveout = (int)v + 1;   /* -1, the driver's default: nothing set */
	for (int i = 0; i < RT_MAXDEV; i++)
		if (k->on[i])
			k->on[i]->rk.carveout = k->rk.carveout;
	Py_RETURN_NONE;
}

/* Kernel.inspect_asm(cc=None): the PTX, as Numba's overloads give it for a
 * compute capability; this kernel's PTX is for one target only. */
static PyObject *Kernel_inspect_asm(KernelObject *k, PyObject *args)
{
	PyObject *cc = Py_None;
	int major, minor;
	if (!PyArg_ParseTuple(args, "|O:inspect_asm", &cc))
		return NULL;
	const char *ptx = k->pk->ptx, *t = ptx ? strstr(ptx, "\n.target sm_") : NULL;
	if (cc != Py_None && t) {
		if (!PyArg_ParseTuple(cc, "ii;cc is a (major, minor) pair", &major, &minor))
			return NULL;
		int arch = atoi(t + 12);
		if (arch != major * 10 + minor)
			return PyErr_Format(PyExc_ValueError,
			                    "this kernel was compiled for sm_%d, not compute capability (%d, %d); "
			                    "compile_ptx(func, sig, cc=(%d, %d)) makes the PTX for another target",
			                    arch, major, minor, major, minor);
	}
	return str_or_none(ptx);
}

static PyMethodDef Kernel_methods[] = {
	{"inspect_asm", (PyCFunction)Kernel_inspect_asm, METH_VARARGS,
	 "inspect_asm(cc=None): the PTX (for compute capability cc, which must be the kernel's target)"},
	{"_set_carveout", (PyCFunction)Kernel_set_carveout, METH_O,
	 "_set_carveout(percent): the shared memory carveout set when the kernel is loaded"},
	{"_link", (PyCFunction)Kernel_link, METH_O,
	 "_link([(kind, bytes, name), ...]): code the driver's linker adds to the PTX at load"},
	{"_load", (PyCFunction)Kernel_load, METH_NOARGS, "loads the module on the device"},
	{"_attr", (PyCFunction)Kernel_attr, METH_O, "a CUfunction_attribute value"},
	{"max_cooperative_grid_blocks", (PyCFunction)(void (*)(void))Kernel_max_coop_blocks, METH_VARARGS | METH_KEYWORDS,
	 "max_cooperative_grid_blocks(blockdim, dynsmemsize=0): the blocks resident at once on the device"},
	{"_max_block_size", (PyCFunction)Kernel_max_block_size, METH_O,
	 "the block size of highest occupancy for this many bytes of dynamic shared memory"},
	{"_cubin", (PyCFunction)kcache_cubin, METH_NOARGS, "the machine code (linked and loaded now), as bytes"},
	{"_load_cubin", (PyCFunction)kcache_load, METH_O, "loads machine code made by _cubin()"},
	{"_cache_entry", (PyCFunction)kcache_entry, METH_VARARGS,
	 "_cache_entry(key, image): the disk cache's file of this kernel (kcache.c)"},
	{"_from_cache", (PyCFunction)kcache_from_entry, METH_VARARGS | METH_CLASS,
	 "_from_cache(data, key, max_registers, load): the Kernel of a disk cache file, or None"},
	{"_adopt_sim", (PyCFunction)kcache_adopt_sim, METH_O,
	 "takes the simulator program of a fresh compile of the same kernel; False if that differs"},
	{"_build_id", (PyCFunction)kcache_build_id, METH_NOARGS | METH_CLASS,
	 "the build id of the compiler library (hex), or '' when it has none"},
	{"_counters", (PyCFunction)Kernel_counters, METH_NOARGS | METH_CLASS,
	 "compiles, simulator-program compiles and disk cache loads in this process"},
	{NULL, NULL, 0, NULL},
};

static PyMemberDef Kernel_members[] = {
	{"__dictoffset__", T_PYSSIZET, offsetof(KernelObject, dict), READONLY, NULL},
	{NULL, 0, 0, 0, NULL},
};

static PyObject *Kernel_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	PyErr_SetString(PyExc_TypeError, "Kernel objects come from compiling a function (ptxjit._core.compile)");
	return NULL;
}

static PyType_Slot Kernel_slots[] = {
	{Py_tp_new, Kernel_new},
	{Py_tp_dealloc, Kernel_dealloc},
	{Py_tp_traverse, Kernel_traverse},
	{Py_tp_clear, Kernel_clear},
	{Py_tp_getset, Kernel_getset},
	{Py_tp_methods, Kernel_methods},
	{Py_tp_members, Kernel_members},
	{Py_tp_doc, "One compiled signature of a kernel: PTX, parameter layout, loaded module."},
	{0, NULL},
};

PyType_Spec Kernel_spec = {
	.name = "ptxjit._core.Kernel",
	.basicsize = sizeof(KernelObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
	.slots = Kernel_slots,
};

/* ----------------------------------------------------------- compile */

static int opt_int(PyObject *opts, const char *key, int dflt, int *out)
{
	PyObject *v = PyDict_GetItemString(opts, key);
	if (!v || v == Py_None) {
		*out = dflt;
		return 0;
	}
	if (PyBool_Check(v)) {
		*out = v == Py_True;
		return 0;
	}
	long x = PyLong_AsLong(v);
	if (x == -1 && PyErr_Occurred())
		return -1;
	*out = (int)x;
	return 0;
}

/* Calls of pj_compile from compile(): for code, and (options with
 * _sim_program) for the simulator program of a kernel the disk cache
 * loaded (Kernel._counters()). */
static long n_compiles, n_sim_programs;

/* Kernel._counters(): {"compiles", "sim_programs", "cache_loads"} */
static PyObject *Kernel_counters(PyObject *type, PyObject *unused)
{
	return Py_BuildValue("{slslsl}", "compiles", n_compiles, "sim_programs", n_sim_programs,
	                     "cache_loads", kcache_loads);
}

/* k._deps: the names each function was asked for (see the top). */
static int attach_deps(Root *r, Resolver *res, KernelObject *k)
{
	PyObject *l = PyList_New(0), *t;
	if (!l)
		return -1;
	if (!(t = Py_BuildValue("(OO)", Py_None, res->asked)) || PyList_Append(l, t) < 0)
		goto fail;
	Py_DECREF(t);
	for (int i = 0; i < r->nfuncs; i++) {
		if (!(t = Py_BuildValue("(OO)", r->funcs[i].disp, r->funcs[i].asked)) || PyList_Append(l, t) < 0)
			goto fail;
		Py_DECREF(t);
	}
	int rc = PyObject_SetAttrString((PyObject *)k, "_deps", l);
	Py_DECREF(l);
	return rc;
fail:
	Py_XDECREF(t);
	Py_DECREF(l);
	return -1;
}

/* k._externals: the cuda.declare_device objects whose functions the
 * kernel calls (the first resolved of each symbol), for Python to link
 * their code (Kernel._link). */
static int attach_externals(Root *r, KernelObject *k)
{
	PyObject *l = PyList_New(0);
	if (!l)
		return -1;
	for (int i = 0; i < k->pk->nexterns; i++) {
		Py_ssize_t n = r->externs ? PyList_GET_SIZE(r->externs) : 0;
		for (Py_ssize_t j = 0; j < n; j++) {
			PyObject *o = PyList_GET_ITEM(r->externs, j), *t = PyObject_GetAttr(o, r->st->s_pj_extern);
			const char *name = t && PyTuple_Check(t) && PyTuple_GET_SIZE(t) > 0 ?
			                   PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 0)) : NULL;
			int same = name && strcmp(name, k->pk->externs[i]) == 0;
			Py_XDECREF(t);
			if (PyErr_Occurred()) {
				Py_DECREF(l);
				return -1;
			}
			if (same) {
				if (PyList_Append(l, o) < 0) {
					Py_DECREF(l);
					return -1;
				}
				break;
			}
		}
	}
	PyObject *t = PyList_AsTuple(l);
	Py_DECREF(l);
	int rc = t ? PyObject_SetAttrString((PyObject *)k, "_externals", t) : -1;
	Py_XDECREF(t);
	return rc;
}

KernelObject *kernel_new(ModState *st, PjKernel *pk, int max_registers)
{
	KernelObject *k = (KernelObject *)st->Kernel_T->tp_alloc(st->Kernel_T, 0);
	if (!k) {
		pj_kernel_free(pk);
		return NULL;
	}
	k->st = st;
	k->rt = cur_rt(st);
	k->pk = pk;
	k->rk.pk = pk;
	k->rk.max_registers = max_registers;
	k->nargs = 0;
	for (int i = 0; i < pk->nparams; i++)
		if (pk->params[i].arg + 1 > k->nargs)
			k->nargs = pk->params[i].arg + 1;
	return k;
}

RtKernel *kernel_on_other(KernelObject *k, Rt *rt)
{
	KernelOn **p = &k->on[rt->devnum];
	if (!*p) {
		if (!(*p = calloc(1, sizeof **p))) {
			PyErr_NoMemory();
			return NULL;
		}
		(*p)->rt = rt;
		(*p)->rk.pk = k->pk;
		(*p)->rk.max_registers = k->rk.max_registers;
		(*p)->rk.carveout = k->rk.carveout;
		(*p)->rk.links = k->link_inputs;
		(*p)->rk.nlinks = k->nlinks;
	}
	return &(*p)->rk;
}

/* compile(info, argsig, options) -> Kernel */
PyObject *py_compile(PyObject *mod, PyObject *args)
{
	ModState *st = PyModule_GetState(mod);
	PyObject *info, *opts;
	const char *argsig;
	if (!PyArg_ParseTuple(args, "OsO!", &info, &argsig, &PyDict_Type, &opts))
		return NULL;
	PjOptions o;
	memset(&o, 0, sizeof o);
	int optimise = 1, maxreg = 0;
	if (opt_int(opts, "fastmath", 0, &o.fastmath) || opt_int(opts, "debug", 0, &o.debug) ||
	    opt_int(opts, "lineinfo", 0, &o.lineinfo) || opt_int(opts, "opt", 1, &optimise) ||
	    opt_int(opts, "max_registers", 0, &maxreg))
		return NULL;
	o.opt_level = optimise ? 1 : 0;
	if (opt_int(opts, "target_cpu", 0, &o.target_cpu) || opt_int(opts, "boundscheck", 0, &o.boundscheck) ||
	    opt_int(opts, "error_model_numpy", 0, &o.error_model_numpy))
		return NULL;
	if (opt_int(opts, "maxntid", 0, &o.maxntid) || opt_int(opts, "minnctapersm", 0, &o.minnctapersm) ||
	    opt_int(opts, "maxclusterrank", 0, &o.maxclusterrank))
		return NULL;
	if (opt_int(opts, "small_extents", 0, &o.small_extents) || opt_int(opts, "noalias", 0, &o.noalias) ||
	    opt_int(opts, "small_grid", 0, &o.small_grid))
		return NULL;
	int sim_program = 0, ptx_only = 0;
	if (opt_int(opts, "_sim_program", 0, &sim_program) || opt_int(opts, "ptx_only", 0, &ptx_only))
		return NULL;
	if (opt_int(opts, "device_abi", 0, &o.device_abi))
		return NULL;
	PyObject *abi_name = PyDict_GetItemString(opts, "abi_name");
	if (abi_name && abi_name != Py_None && !(o.abi_name = PyUnicode_AsUTF8(abi_name)))
		return NULL;
	PyObject *dump = PyDict_GetItemString(opts, "dump");
	if (dump && dump != Py_None && !(o.dump = PyUnicode_AsUTF8(dump)))
		return NULL;
	if (o.target_cpu) {
		if (opt_int(opts, "sim", 0, &o.sim))   /* the CPU target: the interpreter only without a C compiler */
			return NULL;
		o.arch = 90;
	} else if (st->sim) {
		o.sim = !ptx_only;   /* compile_ptx needs no simulator program */
		o.arch = cur_rt(st)->cc_major * 10 + cur_rt(st)->cc_minor;
	} else if (rt_available(cur_rt(st))) {
		st->gpu_compiled |= !ptx_only;
		o.arch = cur_rt(st)->cc_major * 10 + cur_rt(st)->cc_minor;
		o.driver_version = cur_rt(st)->driver_version;
	} else {
		st->gpu_compiled |= !ptx_only;
		o.arch = 90;
	}
	PyObject *variant = PyDict_GetItemString(opts, "arch_variant");
	if (variant && variant != Py_None) {
		const char *v = PyUnicode_AsUTF8(variant);
		if (!v)
			return NULL;
		o.arch_variant = v[0];
	}
	PyObject *arch = PyDict_GetItemString(opts, "arch");
	if (arch && arch != Py_None) {
		long a = PyLong_AsLong(arch);
		if (a == -1 && PyErr_Occurred())
			return NULL;
		o.arch = (int)a;
	}

	Root r;
	memset(&r, 0, sizeof r);
	r.st = st;
	if (!(r.keep = PyList_New(0)))
		return NULL;
	PjFunc f;
	Resolver res;
	PjKernel *pk = NULL;
	PjError err;
	PyObject *result = NULL;
	memset(&err, 0, sizeof err);
	if (func_from_info(&r, info, &f, &res, NULL))
		goto done;
	if (sim_program)
		n_sim_programs++;
	else
		n_compiles++;
	int rc = pj_compile(&f, argsig, &o, &pk, &err);
	if (r.failed) {
		PyErr_Restore(r.et, r.ev, r.etb);
		r.et = r.ev = r.etb = NULL;
		pj_kernel_free(pk);
		goto done;
	}
	if (rc != PJ_OK) {
		pj_kernel_free(pk);
		raise_pj(st, &err);
		goto done;
	}
	KernelObject *k = kernel_new(st, pk, maxreg);
	if (!k)
		goto done;
	if (attach_deps(&r, &res, k) < 0 || attach_externals(&r, k) < 0) {
		Py_DECREF(k);
		goto done;
	}
	result = (PyObject *)k;
done:
	Py_XDECREF(r.et);
	Py_XDECREF(r.ev);
	Py_XDECREF(r.etb);
	free(r.funcs);
	free(r.ovls);
	Py_DECREF(r.keep);
	Py_XDECREF(r.externs);
	return result;
}

/* infer_return(info, argsig) -> str: the return type of the device
 * function that info describes, for the argument types in argsig
 * (pj_infer_return's spelling); errors raise as compile errors do. */
PyObject *py_infer_return(PyObject *mod, PyObject *args)
{
	ModState *st = PyModule_GetState(mod);
	PyObject *info;
	const char *argsig;
	if (!PyArg_ParseTuple(args, "Os", &info, &argsig))
		return NULL;
	Root r;
	memset(&r, 0, sizeof r);
	r.st = st;
	if (!(r.keep = PyList_New(0)))
		return NULL;
	PjFunc f;
	Resolver res;
	PjError err;
	PyObject *result = NULL;
	char out[512];
	if (func_from_info(&r, info, &f, &res, NULL))
		goto done;
	int rc = pj_infer_return(&f, argsig, out, sizeof out, &err);
	if (r.failed) {
		PyErr_Restore(r.et, r.ev, r.etb);
		r.et = r.ev = r.etb = NULL;
		goto done;
	}
	if (rc != PJ_OK) {
		raise_pj(st, &err);
		goto done;
	}
	result = PyUnicode_FromString(out);
done:
	Py_XDECREF(r.et);
	Py_XDECREF(r.ev);
	Py_XDECREF(r.etb);
	free(r.funcs);
	free(r.ovls);
	Py_DECREF(r.keep);
	return result;
}

/* pick_signature(argsig, sigs) -> tuple: the indices of the signatures in
 * sigs (a tuple of str) that suit arguments of the types in argsig best,
 * the first declared first; () when none does (pj_pick_signature). */
PyObject *py_pick_signature(PyObject *mod, PyObject *args)
{
	ModState *st = PyModule_GetState(mod);
	const char *argsig;
	PyObject *sigs;
	if (!PyArg_ParseTuple(args, "sO!", &argsig, &PyTuple_Type, &sigs))
		return NULL;
	int n = (int)PyTuple_GET_SIZE(sigs);
	const char **texts = PyMem_Calloc((size_t)n + 1, sizeof *texts);
	int *best = PyMem_Calloc((size_t)n + 1, sizeof *best);
	PyObject *result = NULL;
	if (!texts || !best) {
		PyErr_NoMemory();
		goto done;
	}
	for (int i = 0; i < n; i++)
		if (!(texts[i] = text_of(PyTuple_GET_ITEM(sigs, i), NULL)))
			goto done;
	PjError err;
	int nbest = 0;
	if (pj_pick_signature(argsig, texts, n, best, &nbest, &err) != PJ_OK) {
		raise_pj(st, &err);
		goto done;
	}
	if (!(result = PyTuple_New(nbest)))
		goto done;
	for (int i = 0; i < nbest; i++)
		PyTuple_SET_ITEM(result, i, PyLong_FromLong(best[i]));
done:
	PyMem_Free(texts);
	PyMem_Free(best);
	return result;
}

/* nfkc(name) -> str: name in NFKC as the lexer normalises identifiers
 * (pj_nfkc); for tests against unicodedata. */
PyObject *py_nfkc(PyObject *mod, PyObject *arg)
{
	(void)mod;
	if (!PyUnicode_Check(arg)) {
		PyErr_SetString(PyExc_TypeError, "nfkc() takes a str");
		return NULL;
	}
	Py_UCS4 *in = PyUnicode_AsUCS4Copy(arg);
	if (!in)
		return NULL;
	Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
	uint32_t *out = PyMem_Malloc(sizeof(uint32_t) * (size_t)(n ? n : 1) * PJ_NFKC_GROWTH);
	PyObject *r = NULL;
	if (!out)
		PyErr_NoMemory();
	else
		r = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, pj_nfkc((const uint32_t *)in, (int)n, out));
	PyMem_Free(out);
	PyMem_Free(in);
	return r;
}
