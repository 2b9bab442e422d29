/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal interface of the events library: the encoder context, the
 * tables that need no libpfm4 (OProfile cpu types, perf's generic event
 * names) and the helpers that fill a struct opev_event.  Only events/
 * includes this header; opev_encode.c is the one file that calls libpfm4.
 */
#ifndef OPEV_INT_H
#define OPEV_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "events/opev.h"

/* how a raw PMU config turns into OProfile's (event code, unit mask) */
enum opev_style {
	OPEV_STYLE_PLAIN,	/* code = low 32 bits of config, unit mask 0 */
	OPEV_STYLE_INTEL,	/* code config[7:0], unit mask config[15:8] */
	OPEV_STYLE_AMD,		/* code config[35:32,7:0], mask config[15:8] */
};

struct opev_ctx {
	uint32_t cpu_type;		/* OProfile op_cpu number */
	enum opev_style style;		/* of the core PMU's raw encodings */
	char core_pmu[OPEV_NAME_MAX];	/* libpfm4's name of the core PMU */
};

#define OPEV_CPU_ARCH_PERFMON 41u	/* i386/arch_perfmon */

/* perf_event_attr.type values (linux/perf_event.h), for the tables */
#define OPEV_TYPE_HARDWARE 0u
#define OPEV_TYPE_SOFTWARE 1u
#define OPEV_TYPE_TRACEPOINT 2u
#define OPEV_TYPE_HW_CACHE 3u
#define OPEV_TYPE_RAW 4u

/* opev_cpu.c: which OProfile cpu type a libpfm4 core PMU is */

/*
 * The OProfile cpu type of the libpfm4 PMU called pmu_name ("skl"), and
 * the style of its raw encodings.  Returns false for a PMU that has no
 * OProfile type of its own (the caller then falls back).
 */
bool opev_cpu_of_pmu(const char *pmu_name, uint32_t *cpu_type,
		     enum opev_style *style);
/*
 * The type of a core PMU that libpfm4 knows but OProfile 1.4 did not
 * (Ice Lake: i386/arch_perfmon); false where no type fits.
 */
bool opev_cpu_of_new_pmu(const char *pmu_name, uint32_t *cpu_type,
			 enum opev_style *style);
/* the type for a machine without a core PMU libpfm4 knows (cpuid) */
uint32_t opev_cpu_fallback(enum opev_style *style);

/* opev_generic.c: perf's generic event names */

struct opev_generic {
	const char *name;		/* perf's name: "cycles" */
	uint32_t type;			/* OPEV_TYPE_HARDWARE or _SOFTWARE */
	uint64_t config;		/* PERF_COUNT_HW_* / PERF_COUNT_SW_* */
	const char *pfm_name;		/* libpfm4's: "perf::PERF_COUNT_..." */
	const char *desc;		/* what it counts, for descriptions */
	bool is_clock;			/* cpu-clock, task-clock */
	const char *const *equiv;	/* NULL-terminated names of core PMU
					   events counting the same, or NULL */
};

/* the generic event called name (exact, case-sensitive), or NULL */
const struct opev_generic *opev_generic_by_name(const char *name);
/* the generic event with this perf type and config, or NULL */
const struct opev_generic *opev_generic_by_config(uint32_t type,
						  uint64_t config);
/*
 * Core PMU events to try, in order, for an OProfile event name that
 * libpfm4 spells differently on some PMUs (CPU_CLK_UNHALTED); NULL if
 * name has no such list.  Case-insensitive.
 */
const char *const *opev_generic_alias(const char *name);

/* opev_name.c: what names may hold, and quoting them in messages */

/*
 * Check the len bytes at p as an event name (the file-name EVENT field):
 * letters, digits, '_' and '-', 1 to OPEV_NAME_MAX - 1 bytes.  Returns 0,
 * OPEV_ERR_BAD_NAME for a '.' or '/', OPEV_ERR_BAD_SYNTAX for an empty
 * name or another character, OPEV_ERR_NAME_TOO_LONG; *bad is the offset
 * of the offending byte.
 */
int opev_name_check(const char *p, size_t len, size_t *bad);
/* the same for a symbolic unit mask name: letters, digits and '_' */
int opev_um_name_check(const char *p, size_t len, size_t *bad);
/*
 * The len bytes at p as printable text for a message, in buf: bytes
 * outside ' '..'~' and '\' are written \xNN, and long text is cut with
 * "...".  Returns buf.
 */
const char *opev_quote(char *buf, size_t size, const char *p, size_t len);
/* copy a NUL-terminated string into a fixed buffer, cutting it to fit */
void opev_copy(char *dst, size_t size, const char *src);

/* size of an opev_quote() buffer that fits any of our messages */
#define OPEV_QUOTE_SIZE 128

/* opev_event.c: filling a struct opev_event */

/*
 * Start ev from spec: zero it, check and copy the name, set the mode
 * bits.  Errors: those of opev_name_check(), and OPEV_ERR_NO_MODE.
 */
int opev_event_start(struct opev_event *ev, const struct opev_spec *spec,
		     struct op_err *err);
/*
 * Set ev->period from count (0: the default of ev->kind), checking the
 * range: OPEV_ERR_COUNT_RANGE.
 */
int opev_event_set_period(struct opev_event *ev, uint64_t count,
			  struct op_err *err);
/*
 * The error for a count written as 0 on the command line (encoded ev,
 * whose kind gives the minimum and the default to name):
 * OPEV_ERR_COUNT_RANGE.
 */
int opev_event_refuse_zero(const struct opev_event *ev, struct op_err *err);
/*
 * Make ev (started) the software clock g with period count (0: default):
 * kind, perf type and config, timer cpu type, period, description.
 * Errors: OPEV_ERR_COUNT_RANGE.
 */
int opev_event_clock(struct opev_event *ev, const struct opev_generic *g,
		     uint64_t count, struct op_err *err);
/* OProfile's event code and unit mask from a raw PMU config */
void opev_event_set_codes(struct opev_event *ev, enum opev_style style,
			  uint64_t config);
/*
 * Write ev->desc: "NAME: what, sample every N events" (or "N ns" for a
 * clock), then ", user mode only" or ", kernel mode only", then
 * ": detail" when detail is not NULL.  Text that does not fit is cut.
 */
void opev_event_describe(struct opev_event *ev, const char *what,
			 const char *detail);

#endif
