// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * OProfile cpu types: the op_cpu table of OProfile 1.4 (oprofile-ng-formats(5)),
 * which libpfm4 core PMU is which type, the cpuid fallback for a machine
 * libpfm4 does not know, and OProfile's default event per type (§6.6).
 *
 * The numbers are an on-disk format: sample-file headers store them and
 * OProfile's opreport looks up share/oprofile/<name>/events with them, so
 * the table is never reordered.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "events/opev.h"
#include "events/opev_int.h"

static const char *const cpu_names[OPEV_NR_CPU_TYPES] = {
	"i386/ppro", "i386/pii", "i386/piii", "i386/athlon", "timer",
	"i386/p4", "x86-64/hammer", "i386/p4-ht", "alpha/ev67",
	"i386/p6_mobile", "arm/xscale1", "arm/xscale2", "ppc64/power4",
	"ppc64/power5", "ppc64/power5+", "ppc64/970", "mips/20K", "mips/24K",
	"mips/25K", "mips/34K", "mips/5K", "mips/r10000", "mips/r12000",
	"mips/rm7000", "mips/rm9000", "mips/sb1", "mips/vr5432",
	"mips/vr5500", "ppc/e500", "ppc/e500v2", "i386/core", "ppc/7450",
	"i386/core_2", "ppc64/power6", "ppc64/970MP", "x86-64/family10",
	"arm/mpcore", "arm/armv6", "ppc64/power5++", "ppc/e300", "arm/armv7",
	"i386/arch_perfmon", "x86-64/family11h", "ppc64/power7",
	"i386/core_i7", "i386/atom", "mips/loongson2", "i386/nehalem",
	"arm/armv7-ca9", "mips/74K", "mips/1004K", "x86-64/family12h",
	"x86-64/family14h", "x86-64/family15h", "i386/westmere",
	"arm/armv7-scorpion", "arm/armv7-scorpionmp", "i386/sandybridge",
	"tile/tile64", "tile/tilepro", "tile/tilegx", "s390/z10", "s390/z196",
	"i386/ivybridge", "arm/armv7-ca5", "arm/armv7-ca7", "arm/armv7-ca15",
	"i386/haswell", "s390/zEC12", "x86-64/generic",
	"ppc64/architected_events_v1", "ppc64/power8", "ppc/e500mc",
	"ppc/e6500", "i386/silvermont", "arm/armv7-krait", "arm/armv8-xgene",
	"i386/broadwell", "arm/armv8-ca57", "arm/armv8-ca53", "i386/skylake",
	"i386/goldmont", "i386/goldmontplus", "s390/z13", "arm/armv7-ca17",
	"ppc64/power9", "i386/knightslanding", "arm/armv8-thunderx2",
};

/* how OProfile 1.4's reports name each type ("CPU: NAME, speed ...") */
static const char *const cpu_display_names[OPEV_NR_CPU_TYPES] = {
	"Pentium Pro", "PII", "PIII", "Athlon", "CPU with timer interrupt",
	"P4 / Xeon", "AMD64 processors", "P4 / Xeon with 2 hyper-threads",
	"Alpha EV67", "Pentium M (P6 core)", "ARM/XScale PMU1",
	"ARM/XScale PMU2", "ppc64 POWER4", "ppc64 POWER5", "ppc64 POWER5+",
	"ppc64 970", "MIPS 20K", "MIPS 24K", "MIPS 25K", "MIPS 34K", "MIPS 5K",
	"MIPS R10000", "MIPS R12000", "QED RM7000", "PMC-Sierra RM9000",
	"Sibyte SB1", "NEC VR5432", "NEC VR5500", "e500", "e500v2",
	"Core Solo / Duo", "PowerPC G4", "Core 2", "ppc64 POWER6",
	"ppc64 970MP", "AMD64 family10", "ARM 11MPCore", "ARM V6 PMU",
	"ppc64 POWER5++", "e300", "ARM Cortex-A8",
	"Intel Architectural Perfmon", "AMD64 family11h", "ppc64 POWER7",
	"Intel Core/i7", "Intel Atom", "Loongson2",
	"Intel Nehalem microarchitecture", "ARM Cortex-A9", "MIPS 74K",
	"MIPS 1004K", "AMD64 family12h", "AMD64 family14h", "AMD64 family15h",
	"Intel Westmere microarchitecture", "ARMv7 Scorpion",
	"ARMv7 ScorpionMP", "Intel Sandy Bridge microarchitecture", "TILE64",
	"TILEPro", "TILE-GX", "IBM System z10", "IBM zEnterprise z196",
	"Intel Ivy Bridge microarchitecture", "ARM Cortex-A5", "ARM Cortex-A7",
	"ARM Cortex-A15", "Intel Haswell microarchitecture",
	"IBM zEnterprise EC12", "AMD64 generic",
	"IBM Power Architected Events V1", "ppc64 POWER8", "e500mc", "e6500",
	"Intel Silvermont microarchitecture", "ARMv7 Krait", "APM X-Gene",
	"Intel Broadwell microarchitecture", "ARM Cortex-A57",
	"ARM Cortex-A53", "Intel Skylake microarchitecture",
	"Intel Goldmont microarchitecture",
	"Intel Goldmont Plus microarchitecture", "IBM z13", "ARM Cortex-A17",
	"ppc64 POWER9", "Intel Knights Landing", "Cavium ThunderX2",
};

_Static_assert(sizeof(cpu_display_names) / sizeof(cpu_display_names[0]) == 88,
	       "a display name per cpu type");

/* the op_cpu numbers this file refers to by name */
enum {
	CPU_PPRO = 0, CPU_PII = 1, CPU_PIII = 2, CPU_ATHLON = 3, CPU_P4 = 5,
	CPU_HAMMER = 6, CPU_P4_HT = 7, CPU_P6_MOBILE = 9, CPU_POWER4 = 12,
	CPU_POWER5 = 13, CPU_POWER5P = 14, CPU_PPC970 = 15, CPU_CORE = 30,
	CPU_CORE_2 = 32, CPU_POWER6 = 33, CPU_PPC970MP = 34,
	CPU_FAMILY10 = 35, CPU_ARMV6 = 37, CPU_ARMV7 = 40,
	CPU_ARCH_PERFMON = OPEV_CPU_ARCH_PERFMON, CPU_FAMILY11H = 42,
	CPU_POWER7 = 43, CPU_ATOM = 45, CPU_NEHALEM = 47, CPU_ARMV7_CA9 = 48,
	CPU_FAMILY12H = 51, CPU_FAMILY14H = 52, CPU_FAMILY15H = 53,
	CPU_WESTMERE = 54, CPU_SANDYBRIDGE = 57, CPU_IVYBRIDGE = 63,
	CPU_ARMV7_CA7 = 65, CPU_ARMV7_CA15 = 66, CPU_HASWELL = 67,
	CPU_X86_64_GENERIC = 69, CPU_POWER8 = 71, CPU_SILVERMONT = 74,
	CPU_ARMV7_KRAIT = 75, CPU_ARMV8_XGENE = 76, CPU_BROADWELL = 77,
	CPU_ARMV8_CA57 = 78, CPU_ARMV8_CA53 = 79, CPU_SKYLAKE = 80,
	CPU_GOLDMONT = 81, CPU_GOLDMONTPLUS = 82, CPU_POWER9 = 85,
	CPU_KNIGHTSLANDING = 86, CPU_ARMV8_THUNDERX2 = 87,
};

_Static_assert(sizeof(cpu_names) / sizeof(cpu_names[0]) == 88,
	       "OProfile 1.4 has 88 cpu types");

const char *opev_cpu_name(uint32_t cpu_type)
{
	return cpu_type < OPEV_NR_CPU_TYPES ? cpu_names[cpu_type] : NULL;
}

int opev_cpu_parse(const char *text, uint32_t *cpu_type)
{
	uint32_t i;
	size_t len;

	if (!text || !cpu_type)
		return OPEV_ERR_UNKNOWN_CPU;
	len = strlen(text);
	if (len && len <= 2 && strspn(text, "0123456789") == len) {
		i = (uint32_t)strtoul(text, NULL, 10);
		if (i >= OPEV_NR_CPU_TYPES)
			return OPEV_ERR_UNKNOWN_CPU;
		*cpu_type = i;
		return 0;
	}
	for (i = 0; i < OPEV_NR_CPU_TYPES; i++) {
		if (!strcasecmp(text, cpu_names[i])) {
			*cpu_type = i;
			return 0;
		}
	}
	return OPEV_ERR_UNKNOWN_CPU;
}

const char *opev_cpu_display_name(uint32_t cpu_type)
{
	return cpu_type < OPEV_NR_CPU_TYPES ? cpu_display_names[cpu_type] : NULL;
}

/*
 * libpfm4 core PMU names (as LIBPFM_FORCE_PMU takes them) and the type
 * OProfile 1.4 gives those cpus.  Intel models newer than OProfile 1.4
 * (Ice Lake and later, Tremont) are left out: they get i386/arch_perfmon
 * like every Intel cpu with architectural perfmon.  Skylake-X and Cascade
 * Lake share Skylake's core events, so they are i386/skylake.  AMD cpus
 * from family 16h on have no type of their own in 1.4: x86-64/generic.
 */
static const struct {
	const char *pmu;
	uint32_t cpu_type;
	enum opev_style style;
} pmu_map[] = {
	{ "ppro", CPU_PPRO, OPEV_STYLE_INTEL },
	{ "pii", CPU_PII, OPEV_STYLE_INTEL },
	{ "p6", CPU_PIII, OPEV_STYLE_INTEL },
	{ "pm", CPU_P6_MOBILE, OPEV_STYLE_INTEL },
	{ "coreduo", CPU_CORE, OPEV_STYLE_INTEL },
	{ "netburst", CPU_P4, OPEV_STYLE_PLAIN },
	{ "netburst_p", CPU_P4, OPEV_STYLE_PLAIN },
	{ "core", CPU_CORE_2, OPEV_STYLE_INTEL },
	{ "atom", CPU_ATOM, OPEV_STYLE_INTEL },
	{ "nhm", CPU_NEHALEM, OPEV_STYLE_INTEL },
	{ "nhm_ex", CPU_NEHALEM, OPEV_STYLE_INTEL },
	{ "wsm", CPU_WESTMERE, OPEV_STYLE_INTEL },
	{ "wsm_dp", CPU_WESTMERE, OPEV_STYLE_INTEL },
	{ "snb", CPU_SANDYBRIDGE, OPEV_STYLE_INTEL },
	{ "snb_ep", CPU_SANDYBRIDGE, OPEV_STYLE_INTEL },
	{ "ivb", CPU_IVYBRIDGE, OPEV_STYLE_INTEL },
	{ "ivb_ep", CPU_IVYBRIDGE, OPEV_STYLE_INTEL },
	{ "hsw", CPU_HASWELL, OPEV_STYLE_INTEL },
	{ "hsw_ep", CPU_HASWELL, OPEV_STYLE_INTEL },
	{ "bdw", CPU_BROADWELL, OPEV_STYLE_INTEL },
	{ "bdw_ep", CPU_BROADWELL, OPEV_STYLE_INTEL },
	{ "skl", CPU_SKYLAKE, OPEV_STYLE_INTEL },
	{ "skx", CPU_SKYLAKE, OPEV_STYLE_INTEL },
	{ "clx", CPU_SKYLAKE, OPEV_STYLE_INTEL },
	{ "slm", CPU_SILVERMONT, OPEV_STYLE_INTEL },
	{ "glm", CPU_GOLDMONT, OPEV_STYLE_INTEL },
	{ "glp", CPU_GOLDMONTPLUS, OPEV_STYLE_INTEL },
	{ "knl", CPU_KNIGHTSLANDING, OPEV_STYLE_INTEL },
	{ "knm", CPU_KNIGHTSLANDING, OPEV_STYLE_INTEL },
	{ "amd64_k7", CPU_ATHLON, OPEV_STYLE_AMD },
	{ "amd64_k8_revb", CPU_HAMMER, OPEV_STYLE_AMD },
	{ "amd64_k8_revc", CPU_HAMMER, OPEV_STYLE_AMD },
	{ "amd64_k8_revd", CPU_HAMMER, OPEV_STYLE_AMD },
	{ "amd64_k8_reve", CPU_HAMMER, OPEV_STYLE_AMD },
	{ "amd64_k8_revf", CPU_HAMMER, OPEV_STYLE_AMD },
	{ "amd64_k8_revg", CPU_HAMMER, OPEV_STYLE_AMD },
	{ "amd64_fam10h_barcelona", CPU_FAMILY10, OPEV_STYLE_AMD },
	{ "amd64_fam10h_shanghai", CPU_FAMILY10, OPEV_STYLE_AMD },
	{ "amd64_fam10h_istanbul", CPU_FAMILY10, OPEV_STYLE_AMD },
	{ "amd64_fam11h_turion", CPU_FAMILY11H, OPEV_STYLE_AMD },
	{ "amd64_fam12h_llano", CPU_FAMILY12H, OPEV_STYLE_AMD },
	{ "amd64_fam14h_bobcat", CPU_FAMILY14H, OPEV_STYLE_AMD },
	{ "amd64_fam15h_interlagos", CPU_FAMILY15H, OPEV_STYLE_AMD },
	{ "amd64_fam16h", CPU_X86_64_GENERIC, OPEV_STYLE_AMD },
	{ "amd64_fam17h", CPU_X86_64_GENERIC, OPEV_STYLE_AMD },
	{ "amd64_fam17h_zen1", CPU_X86_64_GENERIC, OPEV_STYLE_AMD },
	{ "amd64_fam17h_zen2", CPU_X86_64_GENERIC, OPEV_STYLE_AMD },
	{ "amd64_fam19h_zen3", CPU_X86_64_GENERIC, OPEV_STYLE_AMD },
	{ "amd64_fam19h_zen4", CPU_X86_64_GENERIC, OPEV_STYLE_AMD },
	{ "arm_1176", CPU_ARMV6, OPEV_STYLE_PLAIN },
	{ "arm_ac7", CPU_ARMV7_CA7, OPEV_STYLE_PLAIN },
	{ "arm_ac8", CPU_ARMV7, OPEV_STYLE_PLAIN },
	{ "arm_ac9", CPU_ARMV7_CA9, OPEV_STYLE_PLAIN },
	{ "arm_ac15", CPU_ARMV7_CA15, OPEV_STYLE_PLAIN },
	{ "qcom_krait", CPU_ARMV7_KRAIT, OPEV_STYLE_PLAIN },
	{ "arm_ac53", CPU_ARMV8_CA53, OPEV_STYLE_PLAIN },
	{ "arm_ac57", CPU_ARMV8_CA57, OPEV_STYLE_PLAIN },
	{ "arm_xgene", CPU_ARMV8_XGENE, OPEV_STYLE_PLAIN },
	{ "arm_thunderx2", CPU_ARMV8_THUNDERX2, OPEV_STYLE_PLAIN },
	{ "power4", CPU_POWER4, OPEV_STYLE_PLAIN },
	{ "power5", CPU_POWER5, OPEV_STYLE_PLAIN },
	{ "power5p", CPU_POWER5P, OPEV_STYLE_PLAIN },
	{ "ppc970", CPU_PPC970, OPEV_STYLE_PLAIN },
	{ "ppc970mp", CPU_PPC970MP, OPEV_STYLE_PLAIN },
	{ "power6", CPU_POWER6, OPEV_STYLE_PLAIN },
	{ "power7", CPU_POWER7, OPEV_STYLE_PLAIN },
	{ "power8", CPU_POWER8, OPEV_STYLE_PLAIN },
	{ "power9", CPU_POWER9, OPEV_STYLE_PLAIN },
	/* last resort for Intel: any model with architectural perfmon */
	{ "ix86arch", CPU_ARCH_PERFMON, OPEV_STYLE_INTEL },
};

bool opev_cpu_of_pmu(const char *pmu_name, uint32_t *cpu_type,
		     enum opev_style *style)
{
	size_t i;

	for (i = 0; i < sizeof(pmu_map) / sizeof(pmu_map[0]); i++) {
		if (strcasecmp(pmu_name, pmu_map[i].pmu))
			continue;
		*cpu_type = pmu_map[i].cpu_type;
		*style = pmu_map[i].style;
		return true;
	}
	return false;
}

/*
 * A core PMU that libpfm4 knows and we do not is a cpu newer than
 * OProfile 1.4.  On x86 libpfm4's core PMUs are AMD's ("amd64_...") or
 * Intel's, which have architectural perfmon.
 */
bool opev_cpu_of_new_pmu(const char *pmu_name, uint32_t *cpu_type,
			 enum opev_style *style)
{
#if defined(__x86_64__) || defined(__i386__)
	if (!strncasecmp(pmu_name, "amd64", 5)) {
		*cpu_type = CPU_X86_64_GENERIC;
		*style = OPEV_STYLE_AMD;
	} else {
		*cpu_type = CPU_ARCH_PERFMON;
		*style = OPEV_STYLE_INTEL;
	}
	return true;
#else
	(void)pmu_name;
	(void)cpu_type;
	(void)style;
	return false;
#endif
}

#if defined(__x86_64__) || defined(__i386__)
/* AMD families OProfile 1.4 names; the rest are x86-64/generic */
static uint32_t amd_family_type(unsigned int family)
{
	switch (family) {
	case 0x6:
		return CPU_ATHLON;
	case 0xf:
		return CPU_HAMMER;
	case 0x10:
		return CPU_FAMILY10;
	case 0x11:
		return CPU_FAMILY11H;
	case 0x12:
		return CPU_FAMILY12H;
	case 0x14:
		return CPU_FAMILY14H;
	case 0x15:
		return CPU_FAMILY15H;
	default:
		return CPU_X86_64_GENERIC;
	}
}

uint32_t opev_cpu_fallback(enum opev_style *style)
{
	unsigned int eax, ebx, ecx, edx, family;
	char vendor[13];

	*style = OPEV_STYLE_PLAIN;
	if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
		return CPU_X86_64_GENERIC;
	memcpy(vendor, &ebx, 4);
	memcpy(vendor + 4, &edx, 4);
	memcpy(vendor + 8, &ecx, 4);
	vendor[12] = '\0';
	if (!strcmp(vendor, "GenuineIntel")) {
		*style = OPEV_STYLE_INTEL;
		/* leaf 0xa, eax[7:0]: architectural perfmon version */
		if (__get_cpuid(0xa, &eax, &ebx, &ecx, &edx) && (eax & 0xff))
			return CPU_ARCH_PERFMON;
		return CPU_X86_64_GENERIC;
	}
	if (!strcmp(vendor, "AuthenticAMD") ||
	    !strcmp(vendor, "HygonGenuine")) {
		*style = OPEV_STYLE_AMD;
		if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
			return CPU_X86_64_GENERIC;
		family = (eax >> 8) & 0xf;
		if (family == 0xf)
			family += (eax >> 20) & 0xff;
		return amd_family_type(family);
	}
	return CPU_X86_64_GENERIC;
}
#else
/*
 * No OProfile type fits a PMU libpfm4 does not know on other
 * architectures: timer, and opev_encode() refuses hardware events.
 */
uint32_t opev_cpu_fallback(enum opev_style *style)
{
	*style = OPEV_STYLE_PLAIN;
	return OPEV_CPU_TIMER;
}
#endif

const char *opev_cpu_default_name(uint32_t cpu_type)
{
	const char *name = opev_cpu_name(cpu_type);

	/* the Pentium 4's default needs a unit mask: left to the user */
	if (!name || cpu_type == OPEV_CPU_TIMER || cpu_type == CPU_P4 ||
	    cpu_type == CPU_P4_HT)
		return NULL;
	if (cpu_type == CPU_SKYLAKE || cpu_type == CPU_GOLDMONT ||
	    cpu_type == CPU_GOLDMONTPLUS)
		return "cpu_clk_unhalted";
	if (!strncmp(name, "i386/", 5) || !strncmp(name, "x86-64/", 7))
		return "CPU_CLK_UNHALTED";
	if (!strncmp(name, "arm/", 4))
		return "CPU_CYCLES";
	if (!strncmp(name, "ppc64/", 6))
		return "CYCLES";
	return NULL;
}

const char *opev_cpu_pmu_name(uint32_t cpu_type)
{
	size_t i;

	for (i = 0; i < sizeof(pmu_map) / sizeof(pmu_map[0]); i++)
		if (pmu_map[i].cpu_type == cpu_type)
			return pmu_map[i].pmu;
	return NULL;
}

