/*
 * approx.c - O_APPROX in PTX: the hardware approximations that fastmath
 * kernels use for float32 (Numba's fastmath maps math.sin to
 * __nv_fast_sinf, which is sin.approx.ftz.f32, and so on):
 *
 *   AP_SIN AP_COS    sin.approx.ftz.f32, cos.approx.ftz.f32
 *   AP_EX2 AP_LG2    ex2.approx.ftz.f32, lg2.approx.ftz.f32
 *   AP_RSQRT AP_RCP  rsqrt.approx.ftz.f32, rcp.approx.ftz.f32
 *   AP_TANH          tanh.approx.f32 (sm_75 and later); before sm_75,
 *                    1 - 2 / (2^(2x log2 e) + 1) from ex2 and rcp
 *   AP_EX2S          ex2.approx.f32 (subnormals kept: CUDA's exp2f)
 *
 * Their errors are the PTX ISA's (sin/cos: 2^-20.9 absolute in [-pi, pi];
 * ex2: 2 ulp; lg2: 2^-22.6 absolute; tanh: 2^-10.99 relative).
 */
#include "ptx.h"

void ptx_approx(Emit *e, const Ins *i)
{
	static const char *const op[NAP] = {
		[AP_SIN] = "sin.approx.ftz.f32", [AP_COS] = "cos.approx.ftz.f32",
		[AP_EX2] = "ex2.approx.ftz.f32", [AP_LG2] = "lg2.approx.ftz.f32",
		[AP_RSQRT] = "rsqrt.approx.ftz.f32", [AP_RCP] = "rcp.approx.ftz.f32",
		[AP_TANH] = "tanh.approx.f32", [AP_EX2S] = "ex2.approx.f32",
	};
	if (i->cls != KS || i->aux < 0 || i->aux >= NAP)
		ICE(e->c, "approximation %d of class %d", (int)i->aux, i->cls);
	const char *a = ptx_reg(e, i->arg[0]);
	const char *d = ptx_def(e, i);
	if (i->aux == AP_TANH && e->arch < 75) {
		const char *t = ptx_tmp(e, KS);
		ptx_line(e, "mul.ftz.f32 %s, %s, 0f4038AA3B;", t, a);   /* 2 log2(e) */
		ptx_line(e, "ex2.approx.ftz.f32 %s, %s;", t, t);
		ptx_line(e, "add.ftz.f32 %s, %s, 0f3F800000;", t, t);
		ptx_line(e, "rcp.approx.ftz.f32 %s, %s;", t, t);
		ptx_line(e, "fma.rn.ftz.f32 %s, %s, 0fC0000000, 0f3F800000;", d, t);
		return;
	}
	ptx_line(e, "%s %s, %s;", op[i->aux], d, a);
}
