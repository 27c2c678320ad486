/*
 * trapword.c - the error word of kernels that can trap.
 *
 * A kernel compiled with debug=True turns a failing assert or a raise
 * (and every kernel a range() whose step is zero at run time) into a
 * store of the trap's code, threadIdx and blockIdx into its
 * module's global __pj_err (PJ_TRAP_WORDS x u32, the first thread that gets there
 * wins, see ptx/call.c) and ends the thread, where `trap` would leave the
 * context unusable.  After the launch the runtime waits for the stream,
 * reads the word and clears it, and the glue raises the exception.
 *
 * cuModuleGetGlobal is looked up when first needed: only kernels that
 * can trap use it, and a driver without it simply reports no trap.  A module whose
 * traps the optimiser removed has no __pj_err either.
 */
#include <dlfcn.h>
#include <string.h>

#include "rt.h"

typedef CUresult (*GetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);

int rt_read_trap(Rt *rt, RtKernel *k, CUstream s, uint32_t out[PJ_TRAP_WORDS], RtErr *e)
{
	memset(out, 0, PJ_TRAP_WORDS * sizeof *out);
	if (rt->sim || !k->loaded || !rt->lib)
		return 0;
	CUresult r = rt->d.cuStreamSynchronize(s);
	if (r != CUDA_SUCCESS)
		return rt_fail(rt, e, r, "cuStreamSynchronize (after kernel '%s')", k->pk->entry);
	GetGlobal get;
	void *sym = dlsym(rt->lib, "cuModuleGetGlobal_v2");
	if (!sym)
		return 0;
	memcpy(&get, &sym, sizeof get);
	CUdeviceptr p = 0;
	size_t n = 0;
	if (get(&p, &n, k->mod, "__pj_err") != CUDA_SUCCESS || n < PJ_TRAP_WORDS * sizeof *out)
		return 0;
	r = rt->d.cuMemcpyDtoH_v2(out, p, PJ_TRAP_WORDS * sizeof *out);
	if (r != CUDA_SUCCESS)
		return rt_fail(rt, e, r, "cuMemcpyDtoH (the error word of kernel '%s')", k->pk->entry);
	if (out[0] && (r = rt->d.cuMemsetD8_v2(p, 0, PJ_TRAP_WORDS * sizeof *out)) != CUDA_SUCCESS)
		return rt_fail(rt, e, r, "cuMemsetD8 (the error word of kernel '%s')", k->pk->entry);
	return 0;
}
