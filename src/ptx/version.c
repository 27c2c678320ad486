/*
 * version.c - the PTX ISA version a module declares.
 *
 * The driver's JIT accepts PTX up to the ISA version its CUDA release
 * introduced, and each target needs a minimum version.  We ask for the
 * newest version the driver knows (so nothing we might emit is refused)
 * but never less than the target needs.  Versions are written as
 * major*10 + minor: 78 is PTX ISA 7.8.  Driver versions are in
 * cuDriverGetVersion's form, 12080 for CUDA 12.8; 0 means the newest
 * release this table knows.
 */
#include "../core.h"

/* PTX ISA version introduced with each CUDA release, newest last. */
static const struct { int cuda, ptx; } isa[] = {
	{10000, 63}, {10010, 64}, {10020, 65},
	{11000, 70}, {11010, 71}, {11020, 72}, {11030, 73}, {11040, 74},
	{11050, 75}, {11060, 76}, {11070, 77}, {11080, 78},
	{12000, 80}, {12010, 81}, {12020, 82}, {12030, 83}, {12040, 84},
	{12050, 85}, {12060, 85}, {12070, 86}, {12080, 87}, {12090, 88},
	{13000, 90},
};
enum { NISA = sizeof isa / sizeof isa[0] };

/* The oldest PTX ISA version that knows .target sm_<arch>. */
static int arch_min(int arch)
{
	if (arch >= 120)
		return arch >= 121 ? 88 : 87;
	if (arch >= 100)
		return arch >= 103 ? 88 : 86;
	if (arch >= 89)
		return 78;
	if (arch >= 87)
		return 74;
	if (arch >= 86)
		return 71;
	if (arch >= 80)
		return 70;
	if (arch >= 75)
		return 63;
	if (arch >= 72)
		return 61;
	if (arch >= 70)
		return 60;
	return 50;
}

/* variant: PjOptions.arch_variant; sm_90a needs PTX ISA 8.0, the family
 * targets (sm_100f, ...) 8.8 */
int ptx_version_for(int driver_version, int arch, int variant)
{
	int v = isa[NISA - 1].ptx;
	if (driver_version > 0) {
		v = 60;
		for (int i = 0; i < NISA; i++)
			if (driver_version >= isa[i].cuda)
				v = isa[i].ptx;
	}
	int need = arch_min(arch);
	if (variant == 'a' && need < 80)
		need = 80;
	if (variant == 'f' && need < 88)
		need = 88;
	return v > need ? v : need;
}
