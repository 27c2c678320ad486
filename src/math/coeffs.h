/*
 * coeffs.h - polynomial coefficients of the math library, written by
 * tools/math_coeffs.py (minimax fits with mpmath; do not edit by hand).
 * Low degree first.  The float32 tables hold float32 values.
 */
#ifndef PTXJIT_MATH_COEFFS_H
#define PTXJIT_MATH_COEFFS_H

#include <stdint.h>

/* exp(r) = 1 + (r + r^2 Q(r)), |r| <= ln2/2: [-0.3466, 0.3466], relative error 2^-57.2 */
static const double EXP_Q_D[11] = {
	0x1.0000000000000p-1,
	0x1.5555555555557p-3,
	0x1.555555555554ep-5,
	0x1.11111111100ecp-7,
	0x1.6c16c16c1a07cp-10,
	0x1.a01a01abe0615p-13,
	0x1.a01a0190604c5p-16,
	0x1.71de0246e2be8p-19,
	0x1.27e510dc629dep-22,
	0x1.af4dc1c2b0b4dp-26,
	0x1.1f19f5a697c80p-29,
};

/* exp(r) = 1 + (r + r^2 Q(r)), |r| <= ln2/2, one term fewer (exp and erf's fast paths): [-0.3466, 0.3466], relative error 2^-52.0 */
static const double EXP_Q10_D[10] = {
	0x1.0000000000001p-1,
	0x1.555555555554dp-3,
	0x1.5555555553d7ep-5,
	0x1.111111111448bp-7,
	0x1.6c16c17882ea0p-10,
	0x1.a01a018c30bc4p-13,
	0x1.a019b92b2d71fp-16,
	0x1.71de5a3e14ce1p-19,
	0x1.289165e1daa3ap-22,
	0x1.aeaaf9385e36ap-26,
};

/* exp(r) = 1 + (r + r^2 Q(r)), |r| <= ln2/2: [-0.3466, 0.3466], relative error 2^-22.8 */
static const double EXP_Q_F[5] = {
	0x1.0000000000000p-1,
	0x1.5554de0000000p-3,
	0x1.5555ba0000000p-5,
	0x1.120b240000000p-7,
	0x1.6c69f60000000p-10,
};

/* 2^r = 1 + r P(r), |r| <= 1/2: [-0.5, 0.5], relative error 2^-54.2 */
static const double EXP2_P_D[12] = {
	0x1.62e42fefa39efp-1,
	0x1.ebfbdff82c58fp-3,
	0x1.c6b08d704a0c6p-5,
	0x1.3b2ab6fba4e60p-7,
	0x1.5d87fe78a3fe5p-10,
	0x1.430912f874165p-13,
	0x1.ffcbfc6d8d3cfp-17,
	0x1.62c0221b619cfp-20,
	0x1.b524ec0bf9378p-24,
	0x1.e4cfae5ba10e8p-28,
	0x1.e9ebc1c375a81p-32,
	0x1.c3bd597fd6041p-36,
};

/* 2^r = 1 + r P(r), |r| <= 1/2: [-0.5, 0.5], relative error 2^-25.5 */
static const double EXP2_P_F[6] = {
	0x1.62e4300000000p-1,
	0x1.ebfbde0000000p-3,
	0x1.c6af6e0000000p-5,
	0x1.3b2ba00000000p-7,
	0x1.5f07b40000000p-10,
	0x1.4308fa0000000p-13,
};

/* log1p(f) = 2s + s z P(z), s = f/(2+f), z = s^2: [0, 0.0294373], relative error 2^-54.0 */
static const double LOG_P_D[8] = {
	0x1.5555555555555p-1,
	0x1.9999999999a38p-2,
	0x1.2492492476b9cp-2,
	0x1.c71c720177544p-3,
	0x1.745cf8f913e93p-3,
	0x1.3b1c3796d9285p-3,
	0x1.0fbe5e91f72acp-3,
	0x1.0c05b50f8395cp-3,
};

/* log1p(f) = f + f^2 P(f): [-0.292893, 0.414214], relative error 2^-23.8 */
static const double LOG_P_F[9] = {
	-0x1.fffffe0000000p-2,
	0x1.5555500000000p-2,
	-0x1.00020a0000000p-2,
	0x1.99a22e0000000p-3,
	-0x1.5485dc0000000p-3,
	0x1.22bcb00000000p-3,
	-0x1.0c93520000000p-3,
	0x1.05ae0c0000000p-3,
	-0x1.3e96b20000000p-4,
};

/* log1p(f) = 2s + 2s^3/3 + s^5 P(z), s = f/(2+f), z = s^2 (for pow): [0, 0.0294373], relative error 2^-53.8 */
static const double LOG_P5_D[8] = {
	0x1.999999999999ap-2,
	0x1.2492492492522p-2,
	0x1.c71c71c6ea926p-3,
	0x1.745d177aa1073p-3,
	0x1.3b1395ce2e1afp-3,
	0x1.1118c89b15606p-3,
	0x1.df7ca82cdf151p-4,
	0x1.e02f95700d5b2p-4,
};

/* sin(r) = r + r^3 S(r^2), |r| <= pi/4: [0, 0.616912], relative error 2^-54.0 */
static const double SIN_S_D[7] = {
	-0x1.5555555555555p-3,
	0x1.1111111111110p-7,
	-0x1.a01a01a019929p-13,
	0x1.71de3a545efe1p-19,
	-0x1.ae64541044183p-26,
	0x1.61217d3a65ccdp-33,
	-0x1.ab16d70133931p-41,
};

/* cos(r) = 1 - r^2/2 + r^4 C(r^2), |r| <= pi/4: [0, 0.616912], relative error 2^-54.0 */
static const double COS_C_D[7] = {
	0x1.5555555555555p-5,
	-0x1.6c16c16c16c16p-10,
	0x1.a01a01a019d06p-16,
	-0x1.27e4fb77125c2p-22,
	0x1.1eed8dead6a13p-29,
	-0x1.9394b8f3ca67dp-37,
	0x1.ab77c18e7ac12p-45,
};

/* sin(r) = r + r^3 S(r^2), |r| <= pi/4: [0, 0.616912], relative error 2^-25.0 */
static const double SIN_S_F[4] = {
	-0x1.5555560000000p-3,
	0x1.11110e0000000p-7,
	-0x1.a013a00000000p-13,
	0x1.6dbc280000000p-19,
};

/* cos(r) = 1 - r^2/2 + r^4 C(r^2), |r| <= pi/4: [0, 0.616912], relative error 2^-25.0 */
static const double COS_C_F[4] = {
	0x1.5555560000000p-5,
	-0x1.6c16c00000000p-10,
	0x1.a015c20000000p-16,
	-0x1.25237c0000000p-22,
};

/* sin(r) = r + r^3 S(r^2), |r| <= pi/4, weighted by r^2: [1.0e-8, 0.616912], absolute error 2^-27.5 */
static const double SIN_S3_F[3] = {
	-0x1.5555460000000p-3,
	0x1.1107600000000p-7,
	-0x1.994e880000000p-13,
};

/* cos(r) = 1 + r^2 P(r^2), |r| <= pi/4, weighted by r^2 / cos(r): [1.0e-8, 0.616912], absolute error 2^-28.3 */
static const double COS_P_F[4] = {
	-0x1.0000000000000p-1,
	0x1.55553c0000000p-5,
	-0x1.6c07f00000000p-10,
	0x1.9916720000000p-16,
};

/* tan(r) = r + r^3 T(r^2), |r| <= pi/4: [0, 0.616912], relative error 2^-53.4 */
static const double TAN_T_D[15] = {
	0x1.5555555555555p-2,
	0x1.1111111111099p-3,
	0x1.ba1ba1ba29ccap-5,
	0x1.664f487d7eceap-6,
	0x1.226e366367399p-7,
	0x1.d6d394235f076p-9,
	0x1.7da7fce319936p-10,
	0x1.351b64a23c8d6p-11,
	0x1.f9e52390cf66fp-13,
	0x1.7962e9c56b066p-14,
	0x1.d276487e6121ep-15,
	-0x1.726dc106fffaep-17,
	0x1.32848ab5e0127p-15,
	-0x1.337dc974ef29cp-16,
	0x1.1cc1131691195p-17,
};

/* tan(r) = r + r^3 T(r^2), |r| <= pi/4: [0, 0.616912], relative error 2^-24.8 */
static const double TAN_T_F[7] = {
	0x1.5555560000000p-2,
	0x1.1110880000000p-3,
	0x1.ba52b00000000p-5,
	0x1.623c480000000p-6,
	0x1.4679240000000p-7,
	0x1.36517c0000000p-10,
	0x1.f7d7d80000000p-9,
};

/* asin(s) = s + s^3 A(s^2), |s| <= 1/2: [0, 0.25], relative error 2^-53.0 */
static const double ASIN_A_D[13] = {
	0x1.5555555555556p-3,
	0x1.3333333332e84p-4,
	0x1.6db6db6e38805p-5,
	0x1.f1c71c19d53bep-6,
	0x1.6e8bb25de0c3bp-6,
	0x1.1c4d286b6a3b1p-6,
	0x1.c9d08bc890cacp-7,
	0x1.7817d8bea4624p-7,
	0x1.529e18bdecc67p-7,
	0x1.62a4abbe3f87cp-8,
	0x1.1f1b100a0978cp-6,
	-0x1.eccf9fdc65439p-7,
	0x1.d9390701de2adp-6,
};

/* asin(s) = s + s^3 A(s^2), |s| <= 1/2: [0, 0.25], relative error 2^-21.3 */
static const double ASIN_A_F[5] = {
	0x1.55555e0000000p-3,
	0x1.3326c20000000p-4,
	0x1.70b89e0000000p-5,
	0x1.b22a460000000p-6,
	0x1.38e7920000000p-5,
};

/* atan(t) = t + t^3 T(t^2), |t| <= 7/16: [0, 0.191406], relative error 2^-51.4 */
static const double ATAN_T_D[11] = {
	-0x1.5555555555554p-2,
	0x1.99999999988c4p-3,
	-0x1.24924923b4ab5p-3,
	0x1.c71c71388754ep-4,
	-0x1.745cffac1dfaap-4,
	0x1.3b116724db8adp-4,
	-0x1.10ed609112351p-4,
	0x1.df0f52d6751d9p-5,
	-0x1.9c7193dd970aap-5,
	0x1.3604d09fdb1bep-5,
	-0x1.1fd0f1b51725ep-6,
};

/* atan(t) = t + t^3 T(t^2), |t| <= 7/16: [0, 0.191406], relative error 2^-23.3 */
static const double ATAN_T_F[5] = {
	-0x1.5555540000000p-2,
	0x1.99960e0000000p-3,
	-0x1.23faca0000000p-3,
	0x1.b50f500000000p-4,
	-0x1.fda1020000000p-5,
};

/* sinh(a) = a + a^3 S(a^2), |a| <= 1: [0, 1], relative error 2^-54.0 */
static const double SINH_S_D[8] = {
	0x1.5555555555555p-3,
	0x1.1111111111111p-7,
	0x1.a01a01a01a001p-13,
	0x1.71de3a556f8e6p-19,
	0x1.ae64567936642p-26,
	0x1.612467c3f11f8p-33,
	0x1.ae7782967fd2ep-41,
	0x1.99eeaddf33ce1p-49,
};

/* sinh(a) = a + a^3 S(a^2), |a| <= 1: [0, 1], relative error 2^-24.9 */
static const double SINH_S_F[4] = {
	0x1.5555560000000p-3,
	0x1.11111e0000000p-7,
	0x1.a0091c0000000p-13,
	0x1.78a24c0000000p-19,
};

/* tanh(a) = a + a^3 T(a^2), |a| <= 0.55: [0, 0.3025], relative error 2^-53.7 */
static const double TANH_T_D[13] = {
	-0x1.5555555555555p-2,
	0x1.1111111111111p-3,
	-0x1.ba1ba1ba1b95bp-5,
	0x1.664f4882ba313p-6,
	-0x1.226e355c62664p-7,
	0x1.d6d3d028ba0aap-9,
	-0x1.7da34f4dcddaap-10,
	0x1.35568885103e9p-11,
	-0x1.f5520e09dc180p-13,
	0x1.94e8a0aa4fc06p-14,
	-0x1.3f590e6869ddfp-15,
	0x1.bfb98491c6b30p-17,
	-0x1.93f04833bb718p-19,
};

/* tanh(a) = a + a^3 T(a^2), |a| <= 0.55: [0, 0.3025], relative error 2^-24.5 */
static const double TANH_T_F[6] = {
	-0x1.5555560000000p-2,
	0x1.1111040000000p-3,
	-0x1.ba142e0000000p-5,
	0x1.6579420000000p-6,
	-0x1.17646e0000000p-7,
	0x1.4b258a0000000p-9,
};

/* erf(x) = x + x E(x^2), |x| <= 1: [0, 1], absolute error 2^-54.9 */
static const double ERF_E_D[12] = {
	0x1.06eba8214db68p-3,
	-0x1.812746b0379c2p-2,
	0x1.ce2f21a041017p-4,
	-0x1.b82ce31206286p-6,
	0x1.565bccfa9a2c2p-8,
	-0x1.c02db072ea0aap-11,
	0x1.f9a2bf733e518p-14,
	-0x1.f4ca94915c94cp-17,
	0x1.b9827ae5f76c8p-20,
	-0x1.5c16e25e185aap-23,
	0x1.d78491a6d3cbfp-27,
	-0x1.acdffba75844cp-31,
};

/* erf(t) = -expm1(-t Q(t)), 0 <= t <= 5.93 (weighted by erfc(t) t / erf(t)): [0, 5.93], absolute error 2^-56.0 */
static const double ERF_Q_D[25] = {
	0x1.20dd750429b6dp+0,
	0x1.45f306dc9c897p-1,
	0x1.a4f4e2a1b207bp-4,
	-0x1.39668593d7cccp-6,
	-0x1.b6b68bee4ea01p-13,
	0x1.bca67bd0df4f6p-10,
	-0x1.35654f99168a8p-11,
	0x1.b22bc1c2ec23dp-16,
	0x1.0e7f9c2ebfd8cp-14,
	-0x1.f2afd2d009dd7p-16,
	0x1.c9510106c5689p-19,
	0x1.7c86537f0e4cbp-19,
	-0x1.d37d7db1a994dp-20,
	0x1.6928cde4bb755p-22,
	0x1.269bb399d836cp-23,
	-0x1.306ff6d058a33p-23,
	0x1.1a53edbf5eaebp-24,
	-0x1.68243d53945a4p-26,
	0x1.57721b2763a28p-28,
	-0x1.f34f8d443f21bp-31,
	0x1.1288e147b7826p-33,
	-0x1.bbb8fb527fd91p-37,
	0x1.f1fa82eea1d53p-41,
	-0x1.5ad6c3ef8be34p-45,
	0x1.c3a1f0d33c2eap-51,
};

/* erf(t) = -expm1(-t Q(t)), 0 <= t <= 3.92 (weighted by erfc(t) t / erf(t)): [0, 3.92], absolute error 2^-24.2 */
static const double ERF_Q_F[10] = {
	0x1.20dd760000000p+0,
	0x1.45f3080000000p-1,
	0x1.a4f37e0000000p-4,
	-0x1.39396c0000000p-6,
	-0x1.095a7e0000000p-12,
	0x1.d7b0920000000p-10,
	-0x1.8455220000000p-11,
	0x1.5f3b900000000p-13,
	-0x1.6645120000000p-16,
	0x1.40527a0000000p-20,
};

/* erfc(a) = exp(-a^2 + H(a - 1)), 1 <= a <= 2: [0, 1], absolute error 2^-54.6 */
static const double ERFC_H_D[15] = {
	-0x1.b2ff7e4f54542p-1,
	-0x1.4726c001b08ecp-1,
	0x1.4150fb975b9c8p-3,
	-0x1.5477f09c63385p-5,
	0x1.48c9d3fad0b64p-7,
	-0x1.033f67071a2e6p-9,
	0x1.f1b3be18eecc5p-13,
	0x1.b8e02aab3452fp-16,
	-0x1.c7c0732311c07p-16,
	0x1.431cb4acdbd75p-17,
	-0x1.1a1e4ba3f22e2p-19,
	0x1.ac7177af11d24p-23,
	0x1.8c70f3c270477p-25,
	-0x1.6538cf1ad8c24p-26,
	0x1.708adcb4d0383p-29,
};

/* erfc(a) = exp(-a^2) G(Y) / (1 + 2a), Y = (a - 4)/(a + 4), 2 <= a <= 27.5: [-0.333333, 0.746032], relative error 2^-54.4 */
static const double ERFC_G_D[19] = {
	0x1.3ba5916e9fd7fp+0,
	-0x1.1df1ad154a28ep-3,
	0x1.f7f5df66fd65ep-7,
	0x1.16ecefcfa5362p-4,
	-0x1.9ddb23c3e7c53p-4,
	0x1.7fee004e11c84p-4,
	-0x1.0fb06dfe83de8p-4,
	0x1.3079edf736716p-5,
	-0x1.0962387176563p-6,
	0x1.49c671bf10ec9p-8,
	-0x1.8d4ab2676c2f3p-11,
	-0x1.a1dda59542db3p-13,
	0x1.3be1533580508p-13,
	-0x1.99aefe1873a14p-16,
	-0x1.77fa2df2729f6p-17,
	0x1.82b0ad9494d67p-18,
	0x1.893294dbbffcep-23,
	-0x1.ad68121c07d0bp-21,
	0x1.92e0f1facf00fp-23,
};

/* m^(-1/3) ~ R(m), 1 <= m <= 8 (a start for Newton): [1, 8], relative error 2^-5.9 */
static const double CBRT_R0[4] = {
	0x1.3cad5d64c0692p+0,
	-0x1.30576cdb8677cp-2,
	0x1.77f88e6828854p-5,
	-0x1.4e17830e380a8p-9,
};

/* 1/gamma(1 + u), 0 <= u <= 1: [0, 1], relative error 2^-54.3 */
static const double GAMMA_R_D[16] = {
	0x1.0000000000000p+0,
	0x1.2788cfc6fb617p-1,
	-0x1.4fcf4026af99fp-1,
	-0x1.5815e8fa39739p-5,
	0x1.5512320b936fap-3,
	-0x1.59af10491269ep-5,
	-0x1.3b4af128d4067p-7,
	0x1.d919b89b18f4dp-8,
	-0x1.31706fa709dbfp-10,
	-0x1.c370c7e53040bp-13,
	0x1.0c9db66f39e0bp-13,
	-0x1.52792e2f5bf90p-16,
	-0x1.48a22d034afdcp-20,
	0x1.2f1804fd7a1d8p-20,
	-0x1.cfd1638f02474p-23,
	0x1.2086153529bdep-26,
};

/* gamma(x) = sqrt(2 pi) x^(x - 1/2) e^-x S(1/x), x >= 10: [0, 0.1], relative error 2^-56.5 */
static const double GAMMA_S_D[9] = {
	0x1.0000000000000p+0,
	0x1.5555555555320p-4,
	0x1.c71c71cbc5ac8p-9,
	-0x1.5f726ad33373bp-9,
	-0x1.e136b1b51b078p-13,
	0x1.9ae24ac9efb8fp-11,
	0x1.3d5178446ba98p-14,
	-0x1.5655825b18d73p-11,
	0x1.314980e86c031p-12,
};

/* lgamma(x) = (x - 1/2) log x - x + log(2 pi)/2 + w L(w), w = 1/x, x >= 10: [0, 0.1], relative error 2^-44.3 */
static const double LGAMMA_S_D[7] = {
	0x1.5555555555662p-4,
	-0x1.f1fbb748a78eap-39,
	-0x1.6c16bcbb72ec6p-9,
	-0x1.0cefb7765b9cbp-25,
	0x1.a08a6aa3b69afp-11,
	-0x1.6f29be1ff68d0p-17,
	-0x1.1891549c6b657p-11,
};

/* lgamma(2 + v) = v G(v), |v| <= 1/2: [-0.5, 0.5], relative error 2^-53.7 */
static const double LGAMMA_G_D[19] = {
	0x1.b0ee6072093cep-2,
	0x1.4a34cc4a60fa7p-2,
	-0x1.13e001a557616p-4,
	0x1.51322ac7d8009p-6,
	-0x1.e404fc21888aap-8,
	0x1.7add6eae5594fp-9,
	-0x1.38ac5c309c5bcp-10,
	0x1.0b36af367ddebp-11,
	-0x1.d3fd4943c8dbep-13,
	0x1.a127dc28c4ad3p-14,
	-0x1.78defd9f89a51p-15,
	0x1.5806f50c19092p-16,
	-0x1.3ca940def2dfap-17,
	0x1.263ea86edd786p-18,
	-0x1.131ce75347d50p-19,
	0x1.ee177959aed57p-21,
	-0x1.c306a9e6160abp-22,
	0x1.2b0738e1744e2p-22,
	-0x1.33b56d13570bap-23,
};

/* the rounding errors of LGAMMA_G_D's first 2 coefficients */
static const double LGAMMA_G_D_LO[2] = {
	0x1.847cb505ab0bap-58,
	-0x1.b925e76bb23a5p-56,
};

/* pi/2 = PIO2_1 + PIO2_2 + PIO2_3 (+ 2^-160 or so), each rounded to the precision */
static const double PIO2_1_D = 0x1.921fb54442d18p+0;
static const double PIO2_2_D = 0x1.1a62633145c07p-54;
static const double PIO2_3_D = -0x1.f1976b7ed8fbcp-110;
static const double PIO2_1_F = 0x1.921fb60000000p+0;
static const double PIO2_2_F = -0x1.777a5c0000000p-25;
static const double PIO2_3_F = -0x1.ee59da0000000p-50;
static const double PIO2T_1_F = 0x1.921fb40000000p+0;
static const double PIO2T_2_F = 0x1.4442d00000000p-24;
static const double PIO2T_3_F = 0x1.8469880000000p-48;
static const double PI_HI = 0x1.921fb54442d18p+1, PI_LO = 0x1.1a62633145c07p-53;
static const double PIO2_HI = 0x1.921fb54442d18p+0, PIO2_LO = 0x1.1a62633145c07p-54;
static const double PIO4_HI = 0x1.921fb54442d18p-1, PIO4_LO = 0x1.1a62633145c07p-55;
static const double TWO_OVER_PI_HI = 0x1.45f306dc9c883p-1, TWO_OVER_PI_LO = -0x1.6b01ec5417056p-55;
/* 2/pi in 32-bit words: word 0 is 0, word k holds bits 32(k-1)+1 .. 32k of the fraction */
static const uint32_t TWO_OVER_PI_BITS[40] = {
	0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599,
	0x3c439041, 0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea,
	0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026,
	0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff,
	0xde05980f, 0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66,
	0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1,
	0x1f8d5d08, 0x56033046, 0xfc7b6bab, 0xf0cfbc20,
};

/* ---- begin: written by tools/trig_coeffs.py ---- */
/* pi/2 = PIO2_1_D + PIO2T_2_D + PIO2T_3_D (+ 2^-160 or so), the second part truncated */
static const double PIO2T_2_D = 0x1.1a62633145c06p-54;
static const double PIO2T_3_D = 0x1.c1cd129024e09p-107;

/* atan(t) = t + t z P(z), z = t^2 <= 1, float32 values: relative error 2^-25.7 */
static const double ATAN_P_F[8] = {
	-0x1.5554dc0000000p-2,
	0x1.9978f40000000p-3,
	-0x1.230adc0000000p-3,
	0x1.b4e12a0000000p-4,
	-0x1.3556b60000000p-4,
	0x1.61fdda0000000p-5,
	-0x1.0c2c140000000p-6,
	0x1.7ed2320000000p-9,
};

/* sin(r) = r + r p(z) (row 0), cos(r) = 1 + z p(z) (row 1), z = r^2 <= (pi/4)^2, p's coefficients highest first, rows of 8; relative error sin 2^-56.4, cos 2^-57.7 */
static const double SINCOS_T_D[16] = {
	0x1.5d8fba8cd7ff1p-33,
	-0x1.ae5e5a4410615p-26,
	0x1.71de356773704p-19,
	-0x1.a01a019bfd842p-13,
	0x1.111111110f7cdp-7,
	-0x1.5555555555548p-3,
	0x0.0p+0,
	0x0.0p+0,
	-0x1.8f7528d506f57p-37,
	0x1.1ee96c903133fp-29,
	-0x1.27e4f72b1e9c5p-22,
	0x1.a01a019b2d036p-16,
	-0x1.6c16c16c13ba0p-10,
	0x1.5555555555539p-5,
	-0x1.0000000000000p-1,
	0x0.0p+0,
};

/* tanh(a) = a + a z S(z), z = a^2, a <= 0.55, float32 values: relative error 2^-24.6 */
static const double TANH_S_F[4] = {
	-0x1.5554520000000p-2,
	0x1.10cef20000000p-3,
	-0x1.af7c520000000p-5,
	0x1.0d4e540000000p-6,
};

/* tan(r) = r + r z T(z), z = r^2 <= (pi/4)^2, float32 values: relative error 2^-25.5 */
static const double TAN_S_F[6] = {
	0x1.5554de0000000p-2,
	0x1.112dc00000000p-3,
	0x1.b58ad60000000p-5,
	0x1.9048ca0000000p-6,
	0x1.98a94a0000000p-9,
	0x1.3394ee0000000p-7,
};
/* ---- end: tools/trig_coeffs.py ---- */

#endif
