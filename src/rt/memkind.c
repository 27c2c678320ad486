/*
 * memkind.c - the memory kinds beside device arrays and pinned host
 * memory: managed (unified) memory and IPC handles, device memory that
 * another process opens.
 *
 * Their entry points (cuMemAllocManaged, cuIpcGetMemHandle,
 * cuIpcOpenMemHandle_v2, cuIpcCloseMemHandle, cuMemGetAddressRange_v2,
 * cuMemHostGetDevicePointer_v2) are looked up when first used, so a
 * driver without them still runs everything else; a call that needs a
 * missing one fails with RT_E_SYMBOL.
 *
 * In the simulator managed memory is zeroed host memory; IPC is done by
 * the Python layer there (shared files), so the IPC calls refuse.
 *
 * Memory of an older context generation (before rt_close) went with its
 * context: freeing or closing it is skipped.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct {
	unsigned char reserved[RT_IPC_HANDLE];
} CUipcMemHandle;

void *rt_driver_sym(Rt *rt, const char *name, RtErr *e)
{
	void *sym = rt->sim || !rt->lib ? NULL : dlsym(rt->lib, name);
	if (!sym)
		rt_fail_rt(e, RT_E_SYMBOL, "no entry point", "the CUDA driver has no %s", name);
	return sym;
}

#define LOOKUP(var, name)                                                                      \
	do {                                                                                   \
		void *sym_ = rt_driver_sym(rt, name, e);                                       \
		if (!sym_)                                                                     \
			return -1;                                                             \
		memcpy(&var, &sym_, sizeof var);                                               \
	} while (0)

int rt_managed_alloc(Rt *rt, size_t n, int global, CUdeviceptr *p, unsigned *gen, RtErr *e)
{
	*p = 0;
	*gen = rt->gen;
	size_t size = n ? n : 1;
	if (rt->sim) {
		void *q = NULL;
		if (posix_memalign(&q, 4096, size) != 0)
			return rt_fail_rt(e, RT_E_HOSTMEM, "out of memory",
			                  "out of host memory allocating %zu bytes of managed memory", n);
		memset(q, 0, size);
		*p = (CUdeviceptr)(uintptr_t)q;
		return 0;
	}
	if (rt_enter(rt, e))
		return -1;
	CUresult (*alloc)(CUdeviceptr *, size_t, unsigned);
	LOOKUP(alloc, "cuMemAllocManaged");
	CUresult r = alloc(p, size, global ? 1 /* CU_MEM_ATTACH_GLOBAL */ : 2 /* CU_MEM_ATTACH_HOST */);
	if (r != CUDA_SUCCESS) {
		*p = 0;
		return rt_fail(rt, e, r, "cuMemAllocManaged(%zu bytes)", size);
	}
	*gen = rt->gen;
	return 0;
}

void rt_managed_free(Rt *rt, CUdeviceptr p, unsigned gen)
{
	RtErr ignored;
	if (!p)
		return;
	if (rt->sim)
		free((void *)(uintptr_t)p);
	else if (gen == rt->gen && rt->state == RT_READY && !rt->sticky && rt_enter(rt, &ignored) == 0)
		rt->d.cuMemFree_v2(p);
}

int rt_ipc_get(Rt *rt, CUdeviceptr p, unsigned char h[RT_IPC_HANDLE], CUdeviceptr *base, size_t *size, RtErr *e)
{
	if (rt->sim)
		return rt_fail_rt(e, RT_E_ARG, "not simulated", "IPC handles of the simulator are made in Python");
	if (rt_enter(rt, e))
		return -1;
	CUresult (*range)(CUdeviceptr *, size_t *, CUdeviceptr);
	CUresult (*get)(CUipcMemHandle *, CUdeviceptr);
	LOOKUP(range, "cuMemGetAddressRange_v2");
	LOOKUP(get, "cuIpcGetMemHandle");
	CUresult r = range(base, size, p);
	if (r != CUDA_SUCCESS)
		return rt_fail(rt, e, r, "cuMemGetAddressRange (the allocation of a device array)");
	CUipcMemHandle hh;
	r = get(&hh, *base);
	if (r != CUDA_SUCCESS)
		return rt_fail(rt, e, r, "cuIpcGetMemHandle (%zu bytes of device memory)", *size);
	memcpy(h, hh.reserved, RT_IPC_HANDLE);
	return 0;
}

int rt_ipc_open(Rt *rt, const unsigned char h[RT_IPC_HANDLE], CUdeviceptr *p, unsigned *gen, RtErr *e)
{
	*p = 0;
	if (rt->sim)
		return rt_fail_rt(e, RT_E_ARG, "not simulated", "IPC handles of the simulator are opened in Python");
	if (rt_enter(rt, e))
		return -1;
	CUresult (*open)(CUdeviceptr *, CUipcMemHandle, unsigned);
	LOOKUP(open, "cuIpcOpenMemHandle_v2");
	CUipcMemHandle hh;
	memcpy(hh.reserved, h, RT_IPC_HANDLE);
	CUresult r = open(p, hh, 1 /* CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS */);
	if (r != CUDA_SUCCESS) {
		*p = 0;
		return rt_fail(rt, e, r, "cuIpcOpenMemHandle (device memory of another process)");
	}
	*gen = rt->gen;
	return 0;
}

void rt_ipc_close(Rt *rt, CUdeviceptr p, unsigned gen)
{
	RtErr ignored;
	CUresult (*close)(CUdeviceptr);
	void *sym = rt_driver_sym(rt, "cuIpcCloseMemHandle", &ignored);
	if (!p || !sym || gen != rt->gen || rt->state != RT_READY || rt->sticky || rt_enter(rt, &ignored))
		return;
	memcpy(&close, &sym, sizeof close);
	close(p);
}
