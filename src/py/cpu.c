/*
 * cpu.c - calling CPU functions (@njit, src/cgen) from Python, all in C.
 *
 *   CpuDispatcher(*args)   (base of ptxjit.cpu.CPUDispatcher) classifies
 *                          each argument, builds a 4-byte key per argument
 *                          (array or scalar, kind, ndim and read-only
 *                          bit, layout), finds
 *                          the compiled CpuFunc for the key, or asks
 *                          Python for one (self._compile_for(argtypes)),
 *                          packs the parameter buffer as PjKernel.params
 *                          says, calls the function and turns its out
 *                          buffer into the return value.
 *   CpuFunc(kernel, path)  one compiled signature: the shared object at
 *                          path (dlopen, dlsym of the entry), or, with
 *                          path None, the simulator program of the Kernel
 *                          (no C compiler: the IR interpreter, one thread,
 *                          pj_sim_cpu_call in src/sim/cpu.c, which takes
 *                          the same parameter buffer and allocator).
 *   CpuMem                 owns a block that a call allocated (malloc) and
 *                          returned inside an array: freed when the last
 *                          NumPy array over it goes.
 *   CpuView                exports one array over memory (buffer protocol)
 *                          for numpy.asarray; keeps its owner alive.
 *
 * NumPy arrays are read without NumPy's headers.  The buffer protocol is
 * the general way; for exact numpy.ndarray objects the fields are read
 * from the object itself (data, nd, dimensions, strides, descr->type_num,
 * flags: the layout NumPy has kept since 1.7), after the first array
 * seen was read both ways and agreed.  This keeps a call with three
 * arrays well under a microsecond of overhead.
 *
 * Memory the function allocates comes from cpu_alloc and is listed in
 * the call's context; after the call, blocks that a returned array points
 * into become CpuMem owners of those arrays, the others are freed (also
 * when the call fails).  No copy, no leak.
 */
#include "py.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "../cgen/cpurt.h"

enum { CA_ARRAY = 1, CA_SCALAR };
enum { KP_RET = 6 };   /* PjParam.role of the out buffer's address (core.h) */

typedef struct CpuArg {
	int cls;
	int kind;
	int ndim;
	char layout;
	char has_view;
	char readonly;            /* a read-only array: a view of it that we return is read-only too */
	char *ptr;
	Py_ssize_t shape[PJ_MAXDIM], strides[PJ_MAXDIM];
	ScalarVal v;
	Py_buffer view;
	PyObject *obj;
} CpuArg;

typedef struct CpuFuncObject {
	PyObject_HEAD
	ModState *st;
	KernelObject *k;          /* the compiled signature (PjKernel) */
	void *dl;
	PjCpuFn fn;               /* NULL: run the simulator program */
	int out_off;              /* offset of the KP_RET parameter, -1 if none */
	int nogil;
	PyObject *dict;
} CpuFuncObject;

typedef struct CpuEntry {
	unsigned char *key;
	int len;
	CpuFuncObject *f;
} CpuEntry;

typedef struct CpuDispatcherObject {
	PyObject_HEAD
	vectorcallfunc vectorcall;
	ModState *st;
	char name[128];
	int nparams, nrequired;
	PyObject *argnames;
	CpuEntry *tab;
	int n, cap, last;
	PyObject *dict;
} CpuDispatcherObject;

typedef struct CpuMemObject {
	PyObject_HEAD
	void *p;
} CpuMemObject;

typedef struct CpuViewObject {
	PyObject_HEAD
	PyObject *owner;
	char *ptr;
	int ndim, kind, readonly;
	Py_ssize_t shape[PJ_MAXDIM], strides[PJ_MAXDIM];
} CpuViewObject;

typedef struct CpuState {
	PyTypeObject *Dispatcher_T, *Func_T, *Mem_T, *View_T;
	PyObject *asarray;        /* numpy.asarray, on first use */
	PyObject *s_compile_for;
} CpuState;

/* ------------------------------------------------------- arguments */

static const char *argname(CpuDispatcherObject *d, int i)
{
	if (d->argnames && i < PyTuple_GET_SIZE(d->argnames)) {
		const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(d->argnames, i));
		if (s)
			return s;
		PyErr_Clear();
	}
	return "?";
}

static int bad_arg(CpuDispatcherObject *d, int i, PyObject *o, const char *why)
{
	PyErr_Format(PyExc_TypeError, "%s(): argument %d ('%s') is %s (%.100s); @njit functions take NumPy "
	             "arrays, bool, int, float, complex and NumPy scalars", d->name, i + 1, argname(d, i), why,
	             Py_TYPE(o)->tp_name);
	return -1;
}

static int from_buffer(CpuDispatcherObject *d, int i, PyObject *o, CpuArg *a)
{
	NdArg x = {a->shape, a->strides, &a->view};
	int rc = nd_read(d->st, o, 0, &x);
	a->has_view = x.has_view;
	if (rc == ND_NOBUF || x.kind < 0)
		return bad_arg(d, i, o, "an array of a dtype @njit functions do not take (numbers and bools only)");
	if (rc == ND_NDIM || x.ndim < 1) {
		PyErr_Format(PyExc_ValueError, "%s(): argument %d ('%s') is a %d-dimensional array; @njit functions "
		             "take arrays of 1 to %d dimensions (pass a 0-d value as a scalar)", d->name, i + 1,
		             argname(d, i), x.ndim, PJ_MAXDIM);
		return -1;
	}
	a->kind = x.kind;
	a->ndim = x.ndim;
	a->layout = x.layout;
	a->readonly = x.readonly;
	a->ptr = x.ptr;
	a->cls = CA_ARRAY;
	return 0;
}

static int from_int(CpuDispatcherObject *d, int i, PyObject *o, CpuArg *a)
{
	int overflow = 0;
	long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
	if (v == -1 && PyErr_Occurred())
		return -1;
	if (overflow) {
		PyErr_Format(PyExc_ValueError, "%s(): argument %d ('%s') is an int too large for int64; pass "
		             "numpy.uint64(x) for values up to 2**64-1", d->name, i + 1, argname(d, i));
		return -1;
	}
	a->cls = CA_SCALAR;
	a->kind = K_I64;
	a->v.i = v;
	return 0;
}

static int classify(CpuDispatcherObject *d, CpuState *cs, int i, PyObject *o, CpuArg *a)
{
	PyTypeObject *t = Py_TYPE(o);
	a->obj = o;
	if (t == d->st->ndarray_T)
		return from_buffer(d, i, o, a);
	if (t == &PyLong_Type)
		return from_int(d, i, o, a);
	if (scalar_of_builtin(o, &a->kind, &a->v)) {
		a->cls = CA_SCALAR;
		return 0;
	}
	if (nd_is_ndarray(d->st, t))
		return from_buffer(d, i, o, a);
	if (nd_type_named(t, "numpy.generic")) {
		Py_buffer v;
		if (!nd_numeric_scalar_type(t) || PyObject_GetBuffer(o, &v, PyBUF_FORMAT) < 0) {
			PyErr_Clear();
			return bad_arg(d, i, o, "a NumPy scalar of a dtype @njit functions do not take");
		}
		int k = kind_of_format(v.format, v.itemsize);
		if (k >= 0) {
			a->kind = k;
			scalar_read(&a->v, k, v.buf);
		}
		PyBuffer_Release(&v);
		if (k < 0)
			return bad_arg(d, i, o, "a NumPy scalar of a dtype @njit functions do not take");
		a->cls = CA_SCALAR;
		return 0;
	}
	if (PyLong_Check(o))
		return from_int(d, i, o, a);
	if (PyFloat_Check(o)) {
		a->cls = CA_SCALAR;
		a->kind = K_F64;
		a->v.f = PyFloat_AsDouble(o);
		return 0;
	}
	if (o == Py_None)
		return bad_arg(d, i, o, "None");
	if (PyList_Check(o) || PyTuple_Check(o))
		return bad_arg(d, i, o, "a list or tuple (convert it with numpy.asarray)");
	if (PyObject_CheckBuffer(o))
		return from_buffer(d, i, o, a);
	return bad_arg(d, i, o, "of an unsupported type");
}

static void release_args(CpuArg *a, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].has_view)
			PyBuffer_Release(&a[i].view);
}

/* "float64[:, ::1]", "int64"; a read-only array (numpy's writeable
 * flag off, or a read-only buffer) is "readonly float64[:]", whose
 * stores the compiler refuses at their line, as Numba's typing does */
static PyObject *type_string(const CpuArg *a)
{
	char buf[160];
	const char *name = kind_name[a->kind];
	if (a->cls == CA_SCALAR)
		return PyUnicode_FromString(name);
	int n = snprintf(buf, sizeof buf, "%s%s[", a->readonly ? "readonly " : "", name);
	for (int j = 0; j < a->ndim; j++) {
		const char *dim = ":";
		if ((a->layout == 'C' && j == a->ndim - 1) || (a->layout == 'F' && j == 0))
			dim = "::1";
		n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s", j ? ", " : "", dim);
	}
	snprintf(buf + n, sizeof buf - (size_t)n, "]");
	return PyUnicode_FromString(buf);
}

/* ----------------------------------------------------------- packing */

static int64_t f2i(double f)
{
	if (f != f)
		return 0;
	if (f >= 9223372036854775807.0)
		return INT64_MAX;
	if (f <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)f;
}

/* Writes scalar argument a as kind ty (part 1: the imaginary part). */
static void put_scalar(unsigned char *dst, int ty, const CpuArg *a, int part)
{
	int k = a->kind, isint = k <= K_U64;
	double re = k == K_C64 || k == K_C128 ? a->v.c[0] : isint ? (k == K_U64 ? (double)a->v.u : (double)a->v.i) : a->v.f;
	double im = k == K_C64 || k == K_C128 ? a->v.c[1] : 0;
	double x = part ? im : re;
	int64_t iv = isint && !part ? a->v.i : f2i(x);
	switch (ty) {
	case K_BOOL: *dst = isint && !part ? a->v.i != 0 : x != 0; break;
	case K_I8: case K_U8: { uint8_t b = (uint8_t)iv; memcpy(dst, &b, 1); break; }
	case K_I16: case K_U16: { uint16_t b = (uint16_t)iv; memcpy(dst, &b, 2); break; }
	case K_I32: case K_U32: { uint32_t b = (uint32_t)iv; memcpy(dst, &b, 4); break; }
	case K_F16: { uint16_t h = pj_half_from_double(x); memcpy(dst, &h, 2); break; }
	case K_F32: { float f = (float)x; memcpy(dst, &f, 4); break; }
	case K_F64: memcpy(dst, &x, 8); break;
	default: memcpy(dst, &iv, 8); break;
	}
}

/* --------------------------------------------------------- allocations */

typedef struct Alloc {
	void *p;
	uint64_t n;
	PyObject *owner;    /* CpuMem once adopted */
} Alloc;

typedef struct CallCtx {
	PjCpuCtx ctx;       /* first: the generated code sees only this */
	Alloc local[8];
	Alloc *a;
	int n, cap;
} CallCtx;

static void *cpu_alloc(PjCpuCtx *ctx, uint64_t bytes, int zero)
{
	CallCtx *cc = (CallCtx *)ctx;
	if (cc->n == cc->cap) {
		int cap = cc->cap * 2;
		Alloc *na = malloc(sizeof *na * (size_t)cap);
		if (!na)
			return NULL;
		memcpy(na, cc->a, sizeof *na * (size_t)cc->n);
		if (cc->a != cc->local)
			free(cc->a);
		cc->a = na;
		cc->cap = cap;
	}
	void *p = zero ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);
	if (!p)
		return NULL;
	cc->a[cc->n++] = (Alloc){p, bytes, NULL};
	return p;
}

static void free_allocs(CallCtx *cc)
{
	for (int i = 0; i < cc->n; i++) {
		if (cc->a[i].owner)
			Py_DECREF(cc->a[i].owner);
		else
			free(cc->a[i].p);
	}
	if (cc->a != cc->local)
		free(cc->a);
}

/* ------------------------------------------------------------- results */

/* A float16 result is a NumPy float16, as NumPy would give. */
static PyObject *half_obj(const unsigned char *p)
{
	uint16_t h;
	memcpy(&h, p, 2);
	PyObject *np = PyImport_ImportModule("numpy");
	if (!np)
		return NULL;
	PyObject *r = PyObject_CallMethod(np, "float16", "d", pj_half_to_double(h));
	Py_DECREF(np);
	return r;
}

static PyObject *scalar_obj(int ty, const unsigned char *p)
{
	switch (ty) {
	case K_BOOL: return PyBool_FromLong(*p != 0);
	case K_I8: return PyLong_FromLong(*(const int8_t *)p);
	case K_I16: { int16_t x; memcpy(&x, p, 2); return PyLong_FromLong(x); }
	case K_I32: { int32_t x; memcpy(&x, p, 4); return PyLong_FromLong(x); }
	case K_I64: { int64_t x; memcpy(&x, p, 8); return PyLong_FromLongLong(x); }
	case K_U8: return PyLong_FromLong(*p);
	case K_U16: { uint16_t x; memcpy(&x, p, 2); return PyLong_FromLong(x); }
	case K_U32: { uint32_t x; memcpy(&x, p, 4); return PyLong_FromUnsignedLong(x); }
	case K_U64: { uint64_t x; memcpy(&x, p, 8); return PyLong_FromUnsignedLongLong(x); }
	case K_F16: return half_obj(p);
	case K_F32: { float x; memcpy(&x, p, 4); return PyFloat_FromDouble(x); }
	case K_F64: { double x; memcpy(&x, p, 8); return PyFloat_FromDouble(x); }
	case K_C64: { float x[2]; memcpy(x, p, 8); return PyComplex_FromDoubles(x[0], x[1]); }
	case K_C128: { double x[2]; memcpy(x, p, 16); return PyComplex_FromDoubles(x[0], x[1]); }
	default:
		PyErr_Format(PyExc_TypeError, "cannot return a value of kind %d", ty);
		return NULL;
	}
}

static PyObject *mem_owner(CpuState *cs, Alloc *al)
{
	if (!al->owner) {
		CpuMemObject *m = PyObject_New(CpuMemObject, cs->Mem_T);
		if (!m)
			return NULL;
		m->p = al->p;
		al->owner = (PyObject *)m;
	}
	Py_INCREF(al->owner);
	return al->owner;
}

static PyObject *array_obj(CpuState *cs, const PjRet *r, const unsigned char *out, CallCtx *cc, CpuArg *args,
                           int nargs)
{
	char *ptr;
	int64_t shape[PJ_MAXDIM], strides[PJ_MAXDIM];
	int nd = r->ndim;
	memcpy(&ptr, out + r->off, sizeof ptr);
	memcpy(shape, out + r->off + 8, 8 * (size_t)nd);
	memcpy(strides, out + r->off + 8 + 8 * nd, 8 * (size_t)nd);
	/* the memory it lies in: a block of this call, or an argument */
	PyObject *owner = NULL;
	int readonly = 0;
	for (int i = 0; i < cc->n && !owner; i++) {
		char *b = cc->a[i].p;
		if (ptr >= b && ptr <= b + cc->a[i].n && !(owner = mem_owner(cs, &cc->a[i])))
			return NULL;
	}
	for (int i = 0; i < nargs && !owner; i++) {
		CpuArg *a = &args[i];
		if (a->cls != CA_ARRAY)
			continue;
		char *lo = a->ptr, *hi = a->ptr;
		for (int j = 0; j < a->ndim; j++) {
			Py_ssize_t e = (a->shape[j] - 1) * a->strides[j];
			if (a->shape[j] <= 0)
				continue;
			if (e < 0)
				lo += e;
			else
				hi += e;
		}
		if (ptr >= lo && ptr <= hi + kind_size[a->kind]) {
			owner = a->obj;
			Py_INCREF(owner);
			readonly = a->readonly;
		}
	}
	if (!owner) {
		PyErr_SetString(PyExc_RuntimeError, "an @njit function returned an array whose memory is unknown");
		return NULL;
	}
	CpuViewObject *v = PyObject_New(CpuViewObject, cs->View_T);
	if (!v) {
		Py_DECREF(owner);
		return NULL;
	}
	v->owner = owner;
	v->ptr = ptr;
	v->ndim = nd;
	v->kind = r->ty;
	v->readonly = readonly;
	for (int j = 0; j < nd; j++) {
		v->shape[j] = (Py_ssize_t)shape[j];
		v->strides[j] = (Py_ssize_t)strides[j];
	}
	if (!cs->asarray) {
		PyObject *np = PyImport_ImportModule("numpy");
		if (!np) {
			Py_DECREF(v);
			return NULL;
		}
		cs->asarray = PyObject_GetAttrString(np, "asarray");
		Py_DECREF(np);
		if (!cs->asarray) {
			Py_DECREF(v);
			return NULL;
		}
	}
	PyObject *res = PyObject_CallOneArg(cs->asarray, (PyObject *)v);
	Py_DECREF(v);
	return res;
}

static PyObject *result_obj(CpuState *cs, const PjRet **rp, const unsigned char *out, CallCtx *cc, CpuArg *args,
                            int nargs)
{
	const PjRet *r = (*rp)++;
	switch (r->kind) {
	case PJ_RET_SCALAR:
		return scalar_obj(r->ty, out + r->off);
	case PJ_RET_ARRAY:
		return array_obj(cs, r, out, cc, args, nargs);
	case PJ_RET_TUPLE: {
		PyObject *t = PyTuple_New(r->n);
		if (!t)
			return NULL;
		for (int i = 0; i < r->n; i++) {
			PyObject *x = result_obj(cs, rp, out, cc, args, nargs);
			if (!x) {
				Py_DECREF(t);
				return NULL;
			}
			PyTuple_SET_ITEM(t, i, x);
		}
		return t;
	}
	default:
		Py_RETURN_NONE;
	}
}

/* ------------------------------------------------------------ failures */

static PyObject *raise_trap(const char *msg)
{
	char name[64];
	const char *colon = strchr(msg, ':'), *paren = strstr(msg, " (at ");
	size_t n = colon ? (size_t)(colon - msg) : paren ? (size_t)(paren - msg) : strlen(msg);
	if (n >= sizeof name)
		n = sizeof name - 1;
	memcpy(name, msg, n);
	name[n] = 0;
	PyObject *exc = PyExc_Exception;
	PyObject *b = PyEval_GetBuiltins();
	PyObject *cand = b ? PyDict_GetItemString(b, name) : NULL;
	if (cand && PyExceptionClass_Check(cand))
		exc = cand;
	const char *text = colon ? colon + 1 : paren ? paren : "";
	while (*text == ' ')
		text++;
	PyErr_SetString(exc, text);
	return NULL;
}

static PyObject *raise_ctx(PjCpuCtx *ctx)
{
	char buf[1024];
	switch (ctx->code) {
	case PJ_CPU_INDEX:
		snprintf(buf, sizeof buf, ctx->msg ? ctx->msg : "index %lld is out of bounds (size %lld)",
		         (long long)ctx->index, (long long)ctx->extent);
		PyErr_SetString(PyExc_IndexError, buf);
		return NULL;
	case PJ_CPU_TRAP:
		return raise_trap(ctx->msg ? ctx->msg : "Exception");
	case PJ_CPU_NOMEM:
		return PyErr_NoMemory();
	default:
		PyErr_Format(PyExc_RuntimeError, "an @njit function failed (code %d)", ctx->code);
		return NULL;
	}
}

static PyObject *raise_sim(ModState *st, int rc, const PjError *e)
{
	if (rc == PJ_SIM_INDEX) {
		PyErr_SetString(PyExc_IndexError, e->msg);
		return NULL;
	}
	if (rc == PJ_SIM_TRAP) {
		const char *m = e->msg;
		return raise_trap(m);
	}
	PyErr_SetString(st->SimulatorError, e->msg);
	return NULL;
}

/* ------------------------------------------------------------- the call */

static PyObject *call_func(CpuDispatcherObject *d, CpuFuncObject *f, CpuArg *args, int nargs)
{
	PjKernel *pk = f->k->pk;
	CpuState *cs = d->st->cpu;
	unsigned char stackbuf[512], outstack[256];
	unsigned char *params = stackbuf, *out = outstack;
	if (pk->param_bytes > (int)sizeof stackbuf)
		params = calloc(1, (size_t)pk->param_bytes);
	if (pk->ret_bytes > (int)sizeof outstack)
		out = calloc(1, (size_t)pk->ret_bytes);
	if (!params || !out) {
		if (params != stackbuf)
			free(params);
		if (out != outstack)
			free(out);
		return PyErr_NoMemory();
	}
	for (int i = 0; i < pk->nparams; i++) {
		const PjParam *p = &pk->params[i];
		unsigned char *dst = params + p->off;
		if (p->role == KP_RET) {
			uint64_t a = (uint64_t)(uintptr_t)out;
			memcpy(dst, &a, 8);
			continue;
		}
		const CpuArg *a = &args[p->arg];
		switch (p->role) {
		case 0: { uint64_t x = (uint64_t)(uintptr_t)a->ptr; memcpy(dst, &x, 8); break; }
		case 1: { int64_t x = a->shape[p->dim]; memcpy(dst, &x, 8); break; }
		case 2: { int64_t x = a->strides[p->dim]; memcpy(dst, &x, 8); break; }
		case 3: put_scalar(dst, p->ty, a, 0); break;
		case 4: put_scalar(dst, p->ty, a, 0); break;
		case 5: put_scalar(dst, p->ty, a, 1); break;
		}
	}
	CallCtx cc;
	cc.ctx = (PjCpuCtx){.alloc = cpu_alloc};
	cc.a = cc.local;
	cc.n = 0;
	cc.cap = 8;
	PyObject *res = NULL;
	int rc;
	if (f->fn) {
		if (f->nogil) {
			Py_BEGIN_ALLOW_THREADS
			rc = f->fn(params, &cc.ctx);
			Py_END_ALLOW_THREADS
		} else {
			rc = f->fn(params, &cc.ctx);
		}
		if (rc)
			raise_ctx(&cc.ctx);
	} else {
		PjError e;      /* filled only on failure */
		if (stop_begin()) {
			rc = -1;
			goto done;
		}
		if (f->nogil) {
			Py_BEGIN_ALLOW_THREADS
			rc = pj_sim_cpu_call(pk, params, &cc.ctx, &e);
			Py_END_ALLOW_THREADS
		} else {
			rc = pj_sim_cpu_call(pk, params, &cc.ctx, &e);
		}
		stop_end();
		if (rc == PJ_SIM_STOPPED)
			raise_stopped();   /* Ctrl-C (interrupt.c) */
		else if (rc)
			raise_sim(d->st, rc, &e);
	}
	if (!rc) {
		const PjRet *rp = pk->rets;
		res = pk->nrets ? result_obj(cs, &rp, out, &cc, args, nargs) : (Py_INCREF(Py_None), Py_None);
	}
done:
	free_allocs(&cc);
	if (params != stackbuf)
		free(params);
	if (out != outstack)
		free(out);
	return res;
}

static int table_add(CpuDispatcherObject *d, const unsigned char *key, int len, CpuFuncObject *f)
{
	if (d->n == d->cap) {
		int cap = d->cap ? d->cap * 2 : 4;
		CpuEntry *t = realloc(d->tab, sizeof *t * (size_t)cap);
		if (!t) {
			PyErr_NoMemory();
			return -1;
		}
		d->tab = t;
		d->cap = cap;
	}
	unsigned char *k = malloc(len ? (size_t)len : 1);
	if (!k) {
		PyErr_NoMemory();
		return -1;
	}
	memcpy(k, key, (size_t)len);
	Py_INCREF(f);
	d->tab[d->n] = (CpuEntry){k, len, f};
	d->last = d->n++;
	return 0;
}

static CpuFuncObject *table_find(CpuDispatcherObject *d, const unsigned char *key, int len)
{
	if (d->last >= 0 && d->tab[d->last].len == len && memcmp(d->tab[d->last].key, key, (size_t)len) == 0)
		return d->tab[d->last].f;
	for (int i = 0; i < d->n; i++)
		if (d->tab[i].len == len && memcmp(d->tab[i].key, key, (size_t)len) == 0) {
			d->last = i;
			return d->tab[i].f;
		}
	return NULL;
}

static CpuFuncObject *compile_for(CpuDispatcherObject *d, CpuArg *args, int n, const unsigned char *key)
{
	CpuState *cs = d->st->cpu;
	PyObject *types = PyTuple_New(n);
	if (!types)
		return NULL;
	for (int i = 0; i < n; i++) {
		PyObject *s = type_string(&args[i]);
		if (!s) {
			Py_DECREF(types);
			return NULL;
		}
		PyTuple_SET_ITEM(types, i, s);
	}
	PyObject *r = PyObject_CallMethodOneArg((PyObject *)d, cs->s_compile_for, types);
	Py_DECREF(types);
	if (!r)
		return NULL;
	if (!PyObject_TypeCheck(r, cs->Func_T)) {
		PyErr_SetString(PyExc_TypeError, "_compile_for must return a CpuFunc");
		Py_DECREF(r);
		return NULL;
	}
	CpuFuncObject *f = (CpuFuncObject *)r;
	int rc = table_add(d, key, 4 * n, f);
	Py_DECREF(r);
	return rc ? NULL : f;
}

static PyObject *Dispatcher_vectorcall(PyObject *self, PyObject *const *argv, size_t nargsf, PyObject *kwnames)
{
	CpuDispatcherObject *d = (CpuDispatcherObject *)self;
	CpuState *cs = d->st->cpu;
	Py_ssize_t n = PyVectorcall_NARGS(nargsf);
	if (kwnames && PyTuple_GET_SIZE(kwnames)) {
		PyErr_Format(PyExc_TypeError, "%s(): keyword arguments are not supported; pass them by position", d->name);
		return NULL;
	}
	if (d->nparams < 0) {
		PyErr_SetString(PyExc_TypeError, "CpuDispatcher used before _setup()");
		return NULL;
	}
	if (n > d->nparams || n < d->nrequired) {
		PyErr_Format(PyExc_TypeError, "%s() takes %s%d positional argument%s but %zd %s given", d->name,
		             d->nrequired < d->nparams ? "up to " : "", d->nparams, d->nparams == 1 ? "" : "s", n,
		             n == 1 ? "was" : "were");
		return NULL;
	}
	CpuArg stack[8], *args = stack;
	if (n > 8 && !(args = calloc((size_t)n, sizeof *args)))
		return PyErr_NoMemory();
	unsigned char kstack[32], *key = kstack;
	if (n > 8 && !(key = malloc(4 * (size_t)n))) {
		free(args);
		return PyErr_NoMemory();
	}
	PyObject *res = NULL;
	int i = 0;
	for (; i < n; i++) {
		args[i].has_view = 0;
		if (classify(d, cs, (int)i, argv[i], &args[i]))
			goto done;
		int arr = args[i].cls == CA_ARRAY;
		key[4 * i] = arr ? 'a' : 's';
		key[4 * i + 1] = (unsigned char)args[i].kind;
		key[4 * i + 2] = arr ? (unsigned char)(args[i].ndim | (args[i].readonly ? 0x80 : 0)) : 0;
		key[4 * i + 3] = arr ? (unsigned char)args[i].layout : 0;
	}
	CpuFuncObject *f = table_find(d, key, 4 * (int)n);
	if (!f && !(f = compile_for(d, args, (int)n, key)))
		goto done;
	res = call_func(d, f, args, (int)n);
done:
	release_args(args, i);
	if (args != stack)
		free(args);
	if (key != kstack)
		free(key);
	return res;
}

/* _setup(name, argnames, nrequired) */
static PyObject *Dispatcher_setup(CpuDispatcherObject *d, PyObject *a)
{
	const char *name;
	PyObject *argnames;
	int nreq;
	if (!PyArg_ParseTuple(a, "sO!i", &name, &PyTuple_Type, &argnames, &nreq))
		return NULL;
	snprintf(d->name, sizeof d->name, "%s", name);
	Py_INCREF(argnames);
	Py_XSETREF(d->argnames, argnames);
	d->nparams = (int)PyTuple_GET_SIZE(argnames);
	d->nrequired = nreq;
	Py_RETURN_NONE;
}

/* _add(argtypes_key_source, func): files func for the arguments of a call
 * given as a tuple of example objects is not needed: lookups go through
 * _compile_for.  _clear() forgets every compiled signature. */
static PyObject *Dispatcher_clear(CpuDispatcherObject *d, PyObject *unused)
{
	for (int i = 0; i < d->n; i++) {
		free(d->tab[i].key);
		Py_DECREF(d->tab[i].f);
	}
	d->n = 0;
	d->last = -1;
	Py_RETURN_NONE;
}

static PyObject *Dispatcher_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	CpuDispatcherObject *d = (CpuDispatcherObject *)type->tp_alloc(type, 0);
	if (!d)
		return NULL;
	d->vectorcall = Dispatcher_vectorcall;
	d->st = state_of_type(type);
	d->nparams = -1;
	d->last = -1;
	snprintf(d->name, sizeof d->name, "function");
	return (PyObject *)d;
}

static int Dispatcher_traverse(CpuDispatcherObject *d, visitproc visit, void *arg)
{
	Py_VISIT(Py_TYPE(d));
	Py_VISIT(d->argnames);
	Py_VISIT(d->dict);
	for (int i = 0; i < d->n; i++)
		Py_VISIT(d->tab[i].f);
	return 0;
}

static int Dispatcher_clear_gc(CpuDispatcherObject *d)
{
	Py_CLEAR(d->argnames);
	Py_CLEAR(d->dict);
	for (int i = 0; i < d->n; i++) {
		free(d->tab[i].key);
		Py_CLEAR(d->tab[i].f);
	}
	d->n = 0;
	return 0;
}

static void Dispatcher_dealloc(CpuDispatcherObject *d)
{
	PyTypeObject *t = Py_TYPE(d);
	PyObject_GC_UnTrack(d);
	Dispatcher_clear_gc(d);
	free(d->tab);
	t->tp_free(d);
	Py_DECREF(t);
}

static PyMethodDef Dispatcher_methods[] = {
	{"_setup", (PyCFunction)Dispatcher_setup, METH_VARARGS, "_setup(name, argnames, nrequired)"},
	{"_clear", (PyCFunction)Dispatcher_clear, METH_NOARGS, "forgets every compiled signature"},
	{NULL, NULL, 0, NULL},
};

static PyMemberDef Dispatcher_members[] = {
	{"__vectorcalloffset__", T_PYSSIZET, offsetof(CpuDispatcherObject, vectorcall), READONLY, NULL},
	{"__dictoffset__", T_PYSSIZET, offsetof(CpuDispatcherObject, dict), READONLY, NULL},
	{NULL, 0, 0, 0, NULL},
};

static PyType_Slot Dispatcher_slots[] = {
	{Py_tp_new, Dispatcher_new},
	{Py_tp_dealloc, Dispatcher_dealloc},
	{Py_tp_traverse, Dispatcher_traverse},
	{Py_tp_clear, Dispatcher_clear_gc},
	{Py_tp_call, PyVectorcall_Call},
	{Py_tp_methods, Dispatcher_methods},
	{Py_tp_members, Dispatcher_members},
	{Py_tp_doc, "The call path of @njit functions (subclassed by ptxjit.cpu.CPUDispatcher)."},
	{0, NULL},
};

static PyType_Spec CpuDispatcher_spec = {
	.name = "ptxjit._core.CpuDispatcher",
	.basicsize = sizeof(CpuDispatcherObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
	.slots = Dispatcher_slots,
};

/* ------------------------------------------------------------ CpuFunc */

static PyObject *Func_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
	ModState *st = state_of_type(type);
	PyObject *k, *path;
	int nogil = 0;
	if (!PyArg_ParseTuple(args, "O!O|p", st->Kernel_T, &k, &path, &nogil))
		return NULL;
	KernelObject *ko = (KernelObject *)k;
	if (!ko->pk->csrc) {
		PyErr_SetString(PyExc_TypeError, "CpuFunc needs a Kernel compiled with target_cpu");
		return NULL;
	}
	void *dl = NULL;
	PjCpuFn fn = NULL;
	if (path != Py_None) {
		PyObject *b = PyUnicode_EncodeFSDefault(path);
		if (!b)
			return NULL;
		dl = dlopen(PyBytes_AS_STRING(b), RTLD_NOW | RTLD_LOCAL);
		Py_DECREF(b);
		if (!dl) {
			const char *e = dlerror();
			PyErr_Format(PyExc_OSError, "cannot load the compiled function %s: %s (the C compiler made "
			             "an object this process cannot load: is PTXJIT_CC or CC a compiler for this "
			             "machine?)", ko->pk->entry, e ? e : "dlopen failed");
			return NULL;
		}
		fn = (PjCpuFn)(uintptr_t)dlsym(dl, ko->pk->entry);
		if (!fn) {
			dlclose(dl);
			PyErr_Format(PyExc_OSError, "the compiled function's file %U has no symbol %s (the C compiler "
			             "made an object without it: is PTXJIT_CC or CC a C compiler?)", path, ko->pk->entry);
			return NULL;
		}
	} else if (!ko->pk->sim) {
		PyErr_SetString(PyExc_TypeError, "CpuFunc(kernel, None) needs a Kernel compiled with sim=True "
		                "(the interpreter's program)");
		return NULL;
	}
	CpuFuncObject *f = (CpuFuncObject *)type->tp_alloc(type, 0);
	if (!f) {
		if (dl)
			dlclose(dl);
		return NULL;
	}
	f->st = st;
	Py_INCREF(k);
	f->k = ko;
	f->dl = dl;
	f->fn = fn;
	f->nogil = nogil;
	f->out_off = -1;
	for (int i = 0; i < ko->pk->nparams; i++)
		if (ko->pk->params[i].role == KP_RET)
			f->out_off = ko->pk->params[i].off;
	return (PyObject *)f;
}

static int Func_traverse(CpuFuncObject *f, visitproc visit, void *arg)
{
	Py_VISIT(Py_TYPE(f));
	Py_VISIT(f->k);
	Py_VISIT(f->dict);
	return 0;
}

static int Func_clear(CpuFuncObject *f)
{
	Py_CLEAR(f->dict);
	return 0;
}

static void Func_dealloc(CpuFuncObject *f)
{
	PyTypeObject *t = Py_TYPE(f);
	PyObject_GC_UnTrack(f);
	Func_clear(f);
	Py_CLEAR(f->k);
	/* the shared object stays mapped: returned arrays never point into it,
	 * but another CpuFunc may share its handle (dlopen counts) */
	if (f->dl)
		dlclose(f->dl);
	t->tp_free(f);
	Py_DECREF(t);
}

static PyObject *Func_kernel(CpuFuncObject *f, void *c)
{
	Py_INCREF(f->k);
	return (PyObject *)f->k;
}

static PyObject *Func_native(CpuFuncObject *f, void *c)
{
	return PyBool_FromLong(f->fn != NULL);
}

static PyGetSetDef Func_getset[] = {
	{"kernel", (getter)Func_kernel, NULL, "the compiled Kernel (IR, types, C text)", NULL},
	{"native", (getter)Func_native, NULL, "True for machine code, False for the IR interpreter", NULL},
	{NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef Func_members[] = {
	{"__dictoffset__", T_PYSSIZET, offsetof(CpuFuncObject, dict), READONLY, NULL},
	{NULL, 0, 0, 0, NULL},
};

static PyType_Slot Func_slots[] = {
	{Py_tp_new, Func_new},
	{Py_tp_dealloc, Func_dealloc},
	{Py_tp_traverse, Func_traverse},
	{Py_tp_clear, Func_clear},
	{Py_tp_getset, Func_getset},
	{Py_tp_members, Func_members},
	{Py_tp_doc, "CpuFunc(kernel, path, nogil=False): one compiled signature of an @njit function."},
	{0, NULL},
};

static PyType_Spec CpuFunc_spec = {
	.name = "ptxjit._core.CpuFunc",
	.basicsize = sizeof(CpuFuncObject),
	.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
	.slots = Func_slots,
};

/* -------------------------------------------------------- CpuMem, CpuView */

static void Mem_dealloc(CpuMemObject *m)
{
	PyTypeObject *t = Py_TYPE(m);
	free(m->p);
	PyObject_Free(m);
	Py_DECREF(t);
}

static PyType_Slot Mem_slots[] = {
	{Py_tp_dealloc, Mem_dealloc},
	{Py_tp_doc, "Memory an @njit function allocated, owned by the arrays it returned."},
	{0, NULL},
};

static PyType_Spec CpuMem_spec = {
	.name = "ptxjit._core.CpuMem",
	.basicsize = sizeof(CpuMemObject),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = Mem_slots,
};

static const char *const kind_format[K_NKINDS] = {
	"?", "b", "h", "i", "q", "B", "H", "I", "Q", "e", "f", "d", "Zf", "Zd",
};

static int View_getbuffer(CpuViewObject *v, Py_buffer *b, int flags)
{
	if ((flags & PyBUF_WRITABLE) && v->readonly) {
		PyErr_SetString(PyExc_BufferError, "the array is read-only");
		return -1;
	}
	Py_ssize_t n = kind_size[v->kind];
	for (int j = 0; j < v->ndim; j++)
		n *= v->shape[j];
	b->buf = v->ptr;
	b->obj = (PyObject *)v;
	Py_INCREF(v);
	b->len = n;
	b->readonly = v->readonly;
	b->itemsize = kind_size[v->kind];
	b->format = (flags & PyBUF_FORMAT) ? (char *)kind_format[v->kind] : NULL;
	b->ndim = v->ndim;
	b->shape = v->shape;
	b->strides = v->strides;
	b->suboffsets = NULL;
	b->internal = NULL;
	return 0;
}

static void View_dealloc(CpuViewObject *v)
{
	PyTypeObject *t = Py_TYPE(v);
	Py_XDECREF(v->owner);
	PyObject_Free(v);
	Py_DECREF(t);
}

static PyType_Slot View_slots[] = {
	{Py_bf_getbuffer, View_getbuffer},
	{Py_tp_dealloc, View_dealloc},
	{Py_tp_doc, "One array an @njit function returned, as a buffer for numpy.asarray."},
	{0, NULL},
};

static PyType_Spec CpuView_spec = {
	.name = "ptxjit._core.CpuView",
	.basicsize = sizeof(CpuViewObject),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = View_slots,
};

/* -------------------------------------------------------------- setup */

/* c_source(kernel) -> str: the C text of a Kernel compiled with target_cpu */
static PyObject *py_c_source(PyObject *m, PyObject *k)
{
	ModState *st = PyModule_GetState(m);
	if (!PyObject_TypeCheck(k, st->Kernel_T)) {
		PyErr_SetString(PyExc_TypeError, "c_source() takes a Kernel");
		return NULL;
	}
	const char *s = ((KernelObject *)k)->pk->csrc;
	if (!s)
		Py_RETURN_NONE;
	return PyUnicode_FromString(s);
}

static PyMethodDef cpu_methods[] = {
	{"c_source", py_c_source, METH_O, "c_source(kernel) -> the C text of a CPU function (or None)"},
	{NULL, NULL, 0, NULL},
};

int cpu_is_dispatcher(ModState *st, PyObject *o)
{
	return st->cpu && PyObject_TypeCheck(o, st->cpu->Dispatcher_T);
}

static PyTypeObject *add_type(PyObject *m, PyType_Spec *spec, const char *name)
{
	PyObject *t = PyType_FromModuleAndSpec(m, spec, NULL);
	if (!t)
		return NULL;
	if (PyModule_AddObjectRef(m, name, t) < 0) {
		Py_DECREF(t);
		return NULL;
	}
	return (PyTypeObject *)t;
}

int cpu_init(PyObject *m, ModState *st)
{
	CpuState *cs = calloc(1, sizeof *cs);
	if (!cs) {
		PyErr_NoMemory();
		return -1;
	}
	st->cpu = cs;
	if (!(cs->Dispatcher_T = add_type(m, &CpuDispatcher_spec, "CpuDispatcher")) ||
	    !(cs->Func_T = add_type(m, &CpuFunc_spec, "CpuFunc")) ||
	    !(cs->Mem_T = add_type(m, &CpuMem_spec, "CpuMem")) ||
	    !(cs->View_T = add_type(m, &CpuView_spec, "CpuView")) ||
	    !(cs->s_compile_for = PyUnicode_InternFromString("_compile_for")))
		return -1;
	return PyModule_AddFunctions(m, cpu_methods);
}
