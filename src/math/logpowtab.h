/*
 * logpowtab.h - polynomials and tables of the fast float32 log, log2,
 * log10, log1p, erf and pow and of float64 erf, written by
 * tools/gen_logpow_coeffs.py (minimax fits with mpmath; do not edit
 * by hand).  Low degree first.
 */
#ifndef PTXJIT_MATH_LOGPOWTAB_H
#define PTXJIT_MATH_LOGPOWTAB_H

/* log1p(f) = f + f^2 Q(f), f = m - 1, m in [2/3, 4/3): [-0.33333331, 0.33333337], weighted error 2^-26.6 */
static const double LOG_Q_F[9] = {
	-0x1.0000000000000p-1,
	0x1.5555020000000p-2,
	-0x1.fffe840000000p-3,
	0x1.99d1f20000000p-3,
	-0x1.55a7540000000p-3,
	0x1.1ebe680000000p-3,
	-0x1.f25dda0000000p-4,
	0x1.1ed1420000000p-3,
	-0x1.0931e00000000p-3,
};

/* log1p(f) = f + f^2 Q(f), f in [-1/4, 1/2]: [-0.2500001, 0.5000001], weighted error 2^-26.8 */
static const double LOG1P_Q_F[9] = {
	-0x1.0000000000000p-1,
	0x1.5555a60000000p-2,
	-0x1.0000240000000p-2,
	0x1.99685a0000000p-3,
	-0x1.54f23e0000000p-3,
	0x1.2897b60000000p-3,
	-0x1.0d90020000000p-3,
	0x1.abf6bc0000000p-4,
	-0x1.6fe6560000000p-5,
};

/* log2(1 + f) = C f + f R(f), C = log2(e) in float32, m in [sqrt(1/2), sqrt(2)): [-0.29289323, 0.41421354], weighted error 2^-27.6 */
static const double LOG2_R_F[11] = {
	0x1.5a85f60000000p-26,
	-0x1.7154760000000p-1,
	0x1.ec70800000000p-2,
	-0x1.7154900000000p-2,
	0x1.2780840000000p-2,
	-0x1.ec7a120000000p-3,
	0x1.a3edd80000000p-3,
	-0x1.6e67b00000000p-3,
	0x1.605f560000000p-3,
	-0x1.5a3dea0000000p-3,
	0x1.8d736e0000000p-4,
};

/* log10(1 + f) = C f + f R(f), C = log10(e) in float32, m in [2/3, 4/3): [-0.33333331, 0.33333337], weighted error 2^-25.1 */
static const double LOG10_R_F[9] = {
	-0x1.25efde0000000p-27,
	-0x1.bcb78a0000000p-3,
	0x1.287a160000000p-3,
	-0x1.bcdc400000000p-4,
	0x1.63fc8c0000000p-4,
	-0x1.23f6560000000p-4,
	0x1.f1a4f20000000p-5,
	-0x1.1200be0000000p-4,
	0x1.f4147a0000000p-5,
};

/* erf(x) = x + x P(x^2), |x| <= 1.00296: [0.0, 1.0059287], weighted error 2^-27.3 */
static const double ERF_SMALL_F[7] = {
	0x1.06eba80000000p-3,
	-0x1.81273e0000000p-2,
	0x1.ce2ce80000000p-4,
	-0x1.b7f7ea0000000p-6,
	0x1.53fc220000000p-8,
	-0x1.a3ad600000000p-11,
	0x1.4896ee0000000p-14,
};

/* erf(t) = 1 - 2^(-t - t P(t)), 1.00296 <= t <= 3.92 (weighted by t erfc(t) / erf(t)): [1.00296, 3.92], weighted error 2^-28.3 */
static const double ERF_BIG_F[7] = {
	0x1.41b8f20000000p-1,
	0x1.d5058e0000000p-1,
	0x1.3aca660000000p-3,
	-0x1.1bdd480000000p-5,
	0x1.63a06a0000000p-8,
	-0x1.09dee80000000p-11,
	0x1.5412a80000000p-16,
};

/* erf(t) = -expm1(-t Q(t)), 0 <= t <= 5.93 (weighted by erfc(t) t / erf(t)): [0.0, 5.93], weighted error 2^-54.9 */
static const double ERF_Q23_D[24] = {
	0x1.20dd750429b6dp+0,
	0x1.45f306dc9c8d9p-1,
	0x1.a4f4e2a1a9b45p-4,
	-0x1.396685908d2c5p-6,
	-0x1.b6b6a1cafe3c1p-13,
	0x1.bca691e01114bp-10,
	-0x1.35663be16878bp-11,
	0x1.b29af7cec9171p-16,
	0x1.0e32f6ae19389p-14,
	-0x1.f032996aef08ap-16,
	0x1.a96e0ced8e12fp-19,
	0x1.a47e995c74487p-19,
	-0x1.116c2d41c7d2ap-19,
	0x1.3257f06058fa8p-21,
	-0x1.91d344d25ba29p-27,
	-0x1.1a59bf9e7c4d6p-24,
	0x1.291a0a95abeb8p-25,
	-0x1.723165010b949p-27,
	0x1.4472a4540bf44p-29,
	-0x1.9d85ff35dcc81p-32,
	0x1.7a6af2ed48263p-35,
	-0x1.d98785c0a8c22p-39,
	0x1.6bab69e796a5ap-43,
	-0x1.02dedbd2bf997p-48,
};

#endif
