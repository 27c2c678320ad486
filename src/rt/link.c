/*
 * link.c - PTX to machine code with the driver's linker, and machine code
 * loaded back, for the disk cache of kernels (python/ptxjit/cuda/cache.py).
 *
 * cuModuleLoadDataEx on PTX runs the driver's ptxas every time a process
 * loads a kernel (7 to 33 ms for the benchmark kernels, unless the
 * driver's own cache has it).  The linker (cuLinkCreate, cuLinkAddData,
 * cuLinkComplete) gives the cubin it makes from the PTX as bytes, which
 * the cache keeps on disk; a later process hands those bytes to
 * cuModuleLoadDataEx, which loads them without compiling.  The linker's
 * entry points are looked up here (by dlsym on the driver the runtime
 * opened), so a driver without them only loses the cache.
 *
 * rt_link_cubin also loads the module it made into the kernel, so the
 * first process does not compile twice.
 *
 * A kernel that calls external functions (cuda.declare_device) has link
 * inputs (RtKernel.links: PTX, cubin, fatbin, object or library bytes):
 * the linker adds them after the kernel's PTX and resolves the kernel's
 * .extern .func declarations against them; rt_link_load loads the result.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct CUlinkState_st *CUlinkState;

enum {
	JIT_MAX_REGISTERS = 0,
	JIT_ERROR_LOG_BUFFER = 5,
	JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
	JIT_INPUT_PTX = 1,
};

typedef struct Linker {
	CUresult (*create)(unsigned, int *, void **, CUlinkState *);
	CUresult (*add)(CUlinkState, int, void *, size_t, const char *, unsigned, int *, void **);
	CUresult (*complete)(CUlinkState, void **, size_t *);
	CUresult (*destroy)(CUlinkState);
} Linker;

static int linker(Rt *rt, Linker *l, RtErr *e)
{
	l->create = (CUresult(*)(unsigned, int *, void **, CUlinkState *))dlsym(rt->lib, "cuLinkCreate_v2");
	l->add = (CUresult(*)(CUlinkState, int, void *, size_t, const char *, unsigned, int *, void **))
		dlsym(rt->lib, "cuLinkAddData_v2");
	l->complete = (CUresult(*)(CUlinkState, void **, size_t *))dlsym(rt->lib, "cuLinkComplete");
	l->destroy = (CUresult(*)(CUlinkState))dlsym(rt->lib, "cuLinkDestroy");
	if (!l->create || !l->add || !l->complete || !l->destroy)
		return rt_fail_rt(e, RT_E_SYMBOL, "no linker", "the CUDA driver has no cuLink* entry points");
	return 0;
}

int rt_kernel_load_image(Rt *rt, RtKernel *k, const void *image, RtErr *e)
{
	if (rt->sim)
		return rt_fail_rt(e, RT_E_ARG, "not simulated", "the simulator runs no machine code");
	if (rt_enter(rt, e))
		return -1;
	CUmodule mod = NULL;
	CUresult r = rt->d.cuModuleLoadDataEx(&mod, image, 0, NULL, NULL);
	if (r != CUDA_SUCCESS)
		return rt_fail(rt, e, r, "cuModuleLoadDataEx (loading the cached machine code of kernel '%s')",
		               k->pk->entry);
	CUfunction fn = NULL;
	r = rt->d.cuModuleGetFunction(&fn, mod, k->pk->entry);
	if (r != CUDA_SUCCESS) {
		rt->d.cuModuleUnload(mod);
		return rt_fail(rt, e, r, "cuModuleGetFunction('%s')", k->pk->entry);
	}
	if (k->loaded && k->gen == rt->gen && k->mod)
		rt->d.cuModuleUnload(k->mod);
	k->mod = mod;
	k->fn = fn;
	k->gen = rt->gen;
	k->loaded = 1;
	k->dyn_smem_set = 0;
	return rt_kernel_set_attrs(rt, k, e);
}

static const char *input_kind(int type)
{
	switch (type) {
	case RT_LINK_CUBIN: return "cubin";
	case RT_LINK_PTX: return "PTX";
	case RT_LINK_FATBIN: return "fatbin";
	case RT_LINK_OBJECT: return "object";
	case RT_LINK_LIBRARY: return "library";
	default: return "input";
	}
}

/* The machine code of k's PTX and its link inputs, in malloc'd memory. */
static int link_image(Rt *rt, RtKernel *k, void **out, size_t *size, RtErr *e)
{
	*out = NULL;
	*size = 0;
	if (rt->sim)
		return rt_fail_rt(e, RT_E_ARG, "not simulated", "the simulator makes no machine code");
	if (!k->pk->ptx)
		return rt_fail_rt(e, RT_E_ARG, "no PTX", "kernel '%s' has no PTX", k->pk->entry);
	Linker l;
	if (rt_enter(rt, e) || linker(rt, &l, e))
		return -1;
	char errlog[8192];
	errlog[0] = 0;
	int opts[3];
	void *vals[3];
	unsigned n = 0;
	opts[n] = JIT_ERROR_LOG_BUFFER;
	vals[n++] = errlog;
	opts[n] = JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
	vals[n++] = (void *)(uintptr_t)sizeof errlog;
	if (k->max_registers > 0) {
		opts[n] = JIT_MAX_REGISTERS;
		vals[n++] = (void *)(uintptr_t)k->max_registers;
	}
	CUlinkState st = NULL;
	CUresult r = l.create(n, opts, vals, &st);
	if (r != CUDA_SUCCESS)
		return rt_fail(rt, e, r, "cuLinkCreate");
	r = l.add(st, JIT_INPUT_PTX, (void *)k->pk->ptx, strlen(k->pk->ptx) + 1, k->pk->entry, 0, NULL, NULL);
	char what[400];
	what[0] = 0;
	for (int i = 0; r == CUDA_SUCCESS && i < k->nlinks; i++) {
		const RtLinkInput *in = &k->links[i];
		r = l.add(st, in->type, (void *)in->data, in->size, in->name ? in->name : "link", 0, NULL, NULL);
		if (r != CUDA_SUCCESS)
			snprintf(what, sizeof what, "the %s '%s'", input_kind(in->type), in->name ? in->name : "?");
	}
	void *cubin = NULL;
	size_t len = 0;
	if (r == CUDA_SUCCESS)
		r = l.complete(st, &cubin, &len);
	if (r != CUDA_SUCCESS) {
		errlog[sizeof errlog - 1] = 0;
		if (what[0])
			rt_fail(rt, e, r, "cuLinkAddData (adding %s to kernel '%s')", what, k->pk->entry);
		else
			rt_fail(rt, e, r, "cuLink (making the machine code of kernel '%s'%s)", k->pk->entry,
			        k->nlinks ? " and the code it links" : "");
		size_t m = strlen(e->msg);
		if (errlog[0])
			snprintf(e->msg + m, sizeof e->msg - m, "\nThe driver's JIT log:\n%s", errlog);
		l.destroy(st);
		return -1;
	}
	void *copy = malloc(len ? len : 1);
	if (!copy) {
		l.destroy(st);
		return rt_fail_rt(e, RT_E_HOSTMEM, "host memory", "out of host memory for a %zu-byte cubin", len);
	}
	memcpy(copy, cubin, len);
	l.destroy(st);
	*out = copy;
	*size = len;
	return 0;
}

int rt_link_cubin(Rt *rt, RtKernel *k, void **out, size_t *size, RtErr *e)
{
	if (link_image(rt, k, out, size, e))
		return -1;
	if (rt_kernel_load_image(rt, k, *out, e)) {
		free(*out);
		*out = NULL;
		*size = 0;
		return -1;
	}
	return 0;
}

int rt_link_load(Rt *rt, RtKernel *k, RtErr *e)
{
	void *image;
	size_t size;
	if (link_image(rt, k, &image, &size, e))
		return -1;
	int rc = rt_kernel_load_image(rt, k, image, e);
	free(image);
	return rc;
}
