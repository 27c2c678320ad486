/*
 * launch_floor.c - the driver's own cost of a launch, for comparison with
 * launches from Python: an empty kernel and a three-pointer kernel
 * launched back to back from C with cuLaunchKernel, in batches of BATCH
 * followed by cuCtxSynchronize, as bench_launch.py times its launches.
 * Prints "empty US\nadd3 US" (medians over REPS batches, us per launch),
 * then the empty kernel on other streams (a stream made with
 * CU_STREAM_NON_BLOCKING, the per-thread default stream) and the host's
 * time in cuLaunchKernel alone (batches of 50 timed without their
 * synchronize, which shows whether the host or the GPU sets the pace).
 *
 *     cc -O2 bench/c/launch_floor.c -ldl -o launch_floor && ./launch_floor
 *
 * The driver is opened with dlopen; no CUDA toolkit is needed.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int CUresult;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream;
typedef unsigned long long CUdeviceptr;

static const char ptx[] =
	".version 7.8\n.target sm_90\n.address_size 64\n"
	".visible .entry empty() { ret; }\n"
	".visible .entry add3(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 n)\n"
	"{ .reg .b32 %r<4>; .reg .b64 %rd<12>; .reg .f32 %f<4>; .reg .pred %p;\n"
	"  mov.u32 %r1, %ctaid.x; mov.u32 %r2, %ntid.x; mov.u32 %r3, %tid.x;\n"
	"  mad.wide.u32 %rd1, %r1, %r2, 0; cvt.u64.u32 %rd2, %r3; add.s64 %rd1, %rd1, %rd2;\n"
	"  ld.param.u64 %rd3, [n]; setp.ge.u64 %p, %rd1, %rd3; @%p ret;\n"
	"  ld.param.u64 %rd4, [a]; ld.param.u64 %rd5, [b]; ld.param.u64 %rd6, [c];\n"
	"  shl.b64 %rd7, %rd1, 2; add.s64 %rd8, %rd4, %rd7; add.s64 %rd9, %rd5, %rd7; add.s64 %rd10, %rd6, %rd7;\n"
	"  ld.global.f32 %f1, [%rd8]; ld.global.f32 %f2, [%rd9]; add.rn.f32 %f3, %f1, %f2; st.global.f32 [%rd10], %f3; ret; }\n";

enum { BATCH = 500, REPS = 21 };

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#define SYM(name) CUresult (*name)
int main(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "no libcuda.so.1: %s\n", dlerror());
		return 1;
	}
	SYM(cuInit)(unsigned) = dlsym(h, "cuInit");
	SYM(cuDevicePrimaryCtxRetain)(CUcontext *, int) = dlsym(h, "cuDevicePrimaryCtxRetain");
	SYM(cuCtxSetCurrent)(CUcontext) = dlsym(h, "cuCtxSetCurrent");
	SYM(cuModuleLoadData)(CUmodule *, const void *) = dlsym(h, "cuModuleLoadData");
	SYM(cuModuleGetFunction)(CUfunction *, CUmodule, const char *) = dlsym(h, "cuModuleGetFunction");
	SYM(cuMemAlloc)(CUdeviceptr *, size_t) = dlsym(h, "cuMemAlloc_v2");
	SYM(cuCtxSynchronize)(void) = dlsym(h, "cuCtxSynchronize");
	SYM(cuStreamCreate)(CUstream *, unsigned) = dlsym(h, "cuStreamCreate");
	SYM(cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
			    unsigned, void *, void **, void **) = dlsym(h, "cuLaunchKernel");
	CUcontext ctx;
	CUmodule mod;
	CUfunction fe, fa;
	CUdeviceptr a, b, c;
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) || cuCtxSetCurrent(ctx) ||
	    cuModuleLoadData(&mod, ptx) || cuModuleGetFunction(&fe, mod, "empty") ||
	    cuModuleGetFunction(&fa, mod, "add3") || cuMemAlloc(&a, 4096) || cuMemAlloc(&b, 4096) ||
	    cuMemAlloc(&c, 4096)) {
		fprintf(stderr, "driver set-up failed\n");
		return 1;
	}
	unsigned long long n = 1024;
	void *args[] = {&a, &b, &c, &n};
	CUstream own = NULL;
	if (cuStreamCreate(&own, 1)) {
		fprintf(stderr, "cuStreamCreate failed\n");
		return 1;
	}
	static const char *name[] = {"empty", "add3", "empty_own_stream", "empty_per_thread_stream",
				     "empty_host_only"};
	for (int which = 0; which < 5; which++) {
		CUstream s = which == 2 ? own : which == 3 ? (CUstream)0x2 : NULL;
		int batch = which == 4 ? 50 : BATCH;
		double t[REPS];
		for (int r = 0; r < REPS; r++) {
			double t0 = now();
			for (int i = 0; i < batch; i++)
				if (which == 1)
					cuLaunchKernel(fa, 4, 1, 1, 256, 1, 1, 0, NULL, args, NULL);
				else
					cuLaunchKernel(fe, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL);
			double t1 = now();
			cuCtxSynchronize();
			t[r] = ((which == 4 ? t1 : now()) - t0) / batch * 1e6;
		}
		qsort(t, REPS, sizeof t[0], cmp);
		printf("%s %.3f\n", name[which], t[REPS / 2]);
	}
	return 0;
}
