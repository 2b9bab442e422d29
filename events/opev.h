/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Event specifications: parsing OProfile's "NAME:count[:unitmask[:kernel
 * [:user]]]" lists, encoding each event through libpfm4 into what
 * perf_event_open needs, and the OProfile cpu types and header fields
 * that describe it in sample files (oprofile-ng-formats(5), CPU TYPES AND EVENTS).
 *
 * Nothing here opens a perf event: whether an event can really count on
 * this machine is for daemon/ to find out.  Nothing prints or exits.
 */
#ifndef OPEV_H
#define OPEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_error.h"

#define OPEV_NAME_MAX 64	/* event and unit-mask names, with the NUL */

/* one event as written on the command line, before encoding */
struct opev_spec {
	char name[OPEV_NAME_MAX];	/* as given; never contains '.' or '/' */
	uint64_t count;			/* sample period; 0 = the event's default */
	bool has_count;			/* a count was written (even 0) */
	bool has_unit_mask;		/* a unit mask was given */
	uint64_t unit_mask;		/* numeric unit mask, when um_name is "" */
	char um_name[OPEV_NAME_MAX];	/* symbolic unit mask, or "" */
	bool kernel;			/* count in kernel mode (default true) */
	bool user;			/* count in user mode (default true) */
};

/*
 * Parse a comma-separated list of event specifications.  *specs is an
 * array of *nr entries that the caller frees with free().  Errors:
 * OPEV_ERR_* with a one-line detail in err naming the bad token.
 *
 * Each item is NAME[:count[:unitmask[:kernel[:user]]]], without blanks:
 *  - NAME: letters, digits, '_' and '-', at most OPEV_NAME_MAX - 1 of
 *    them; '.' or '/' is OPEV_ERR_BAD_NAME, anything else BAD_SYNTAX.
 *  - count: decimal, at most OPEV_MAX_PERIOD (COUNT_RANGE); an empty
 *    field means the event's default.  The lower limit depends on the
 *    event and is checked by opev_encode(), which refuses a written 0
 *    (has_count set) like any other count below it.
 *  - unitmask: "0x" and hex digits, decimal digits, or a name (letters,
 *    digits, '_'); at most 0xffffffff.  An empty field means none.
 *  - kernel, user: 0 or 1 (BAD_FLAG), both default 1; both 0 is NO_MODE.
 * A list or item that is empty, an item ending in ':' and a sixth field
 * are BAD_SYNTAX; a NULL or empty list is EMPTY_LIST.  On error *specs
 * is NULL and *nr 0; -ENOMEM when out of memory.  Nothing checks that
 * the events exist: see opev_encode().
 */
int opev_parse_list(const char *list, struct opev_spec **specs, size_t *nr,
		    struct op_err *err);

/*
 * The same for ocount's lists, which have no count field: each item is
 * NAME[:unitmask[:kernel[:user]]], checked as above, with count 0 and
 * has_count false.  A fifth field is BAD_SYNTAX.
 */
int opev_parse_count_list(const char *list, struct opev_spec **specs,
			  size_t *nr, struct op_err *err);

/* how an event's samples are described in sample-file headers */
enum opev_kind {
	OPEV_HARDWARE,		/* a PMU event: real cpu_type and event code */
	OPEV_SOFTWARE_CLOCK,	/* cpu-clock / task-clock: timer cpu type (4) */
};

/* an event encoded for perf_event_open, plus its sample-file identity */
struct opev_event {
	char name[OPEV_NAME_MAX];	/* file-name EVENT field */
	enum opev_kind kind;
	uint32_t attr_type;		/* perf_event_attr.type */
	uint64_t attr_config;		/* perf_event_attr.config */
	uint64_t attr_config1;		/* .config1 (offcore, extra masks) */
	uint64_t attr_config2;
	uint64_t period;		/* sample period (events, or ns for clocks) */
	bool exclude_kernel;
	bool exclude_user;
	uint32_t op_cpu_type;		/* header cpu_type: OProfile op_cpu number */
	uint32_t op_event;		/* header ctr_event */
	uint32_t op_unit_mask;		/* header ctr_um; file-name UMASK */
	char pmu_name[OPEV_NAME_MAX];	/* libpfm4's name of the encoding */
	char desc[256];			/* one-line description for reports */
};

/* encoder state: libpfm4 initialised, the running cpu's OProfile type */
struct opev_ctx;

/*
 * Initialise libpfm4 and work out the OProfile cpu type of this machine
 * (oprofile-ng-formats(5), CPU TYPES AND EVENTS) from libpfm4's PMU and the cpuid.  Caller frees with
 * opev_ctx_free().  Returns NULL with *err set on failure:
 * OPEV_ERR_PFM_INIT or -ENOMEM.
 *
 * The first present libpfm4 core PMU that OProfile 1.4 has a type for
 * decides (skl -> i386/skylake, amd64_fam15h -> x86-64/family15h, ...);
 * other Intel cpus with architectural perfmon are i386/arch_perfmon,
 * AMD families after 15h and other x86 cpus x86-64/generic.  libpfm4 may
 * report a PMU that the kernel or hypervisor does not expose: whether
 * events count is for the caller to find out.  libpfm4's state is
 * process-wide: LIBPFM_FORCE_PMU is read by the first call only, and
 * opev_ctx_free() leaves libpfm4 initialised for other contexts.
 */
struct opev_ctx *opev_ctx_new(int *err);
void opev_ctx_free(struct opev_ctx *ctx);

/*
 * OProfile op_cpu number of this machine (OPEV_CPU_TIMER for a NULL ctx);
 * opev_cpu_name() gives its name
 */
uint32_t opev_ctx_cpu_type(const struct opev_ctx *ctx);

/*
 * Encode one parsed event.  Hardware events go through libpfm4; perf's
 * generic names (cycles, instructions, cpu-clock, task-clock, ...) are
 * accepted too.  A count of 0 takes the event's default period unless
 * spec->has_count says it was written: then it is below every minimum,
 * OPEV_ERR_COUNT_RANGE naming the event and its minimum.  Errors:
 * OPEV_ERR_UNKNOWN_EVENT (with the libpfm4 reason in err),
 * OPEV_ERR_BAD_UNIT_MASK, OPEV_ERR_COUNT_RANGE, -ENOMEM; for a spec not
 * made by opev_parse_list() also its name and mode errors.
 *
 * What ends up in the sample-file identity:
 *  - cpu-clock, task-clock: OPEV_SOFTWARE_CLOCK, op_cpu_type
 *    OPEV_CPU_TIMER, op_event 0, op_unit_mask 0 (oprofile-ng-formats(5)); the
 *    period is in ns, default OPEV_CLOCK_DEFAULT_NS, at least
 *    OPEV_CLOCK_MIN_NS.  No unit mask other than 0.
 *  - PMU events by libpfm4 name (CPU_CLK_UNHALTED, INST_RETIRED, ...),
 *    looked up in the core PMU first, then in libpfm4's others:
 *    op_cpu_type is the context's, op_event the raw event select (Intel:
 *    config & 0xff; AMD: config bits 35:32 and 7:0), op_unit_mask
 *    config bits 15:8, as OProfile's events files list them; elsewhere
 *    op_event is the low 32 bits of config.  A numeric unit mask must
 *    equal the code of one of the event's named unit masks (or be 0 for
 *    an event without any).  CPU_CLK_UNHALTED without a unit mask is
 *    encoded as the core PMU's architectural cycles event (0x3c on
 *    Intel, 0x76 on AMD), which is what OProfile's event code means.
 *  - perf's generic hardware events (cycles, instructions, cache-misses,
 *    branch-misses, ...): perf_event_attr stays generic, and op_event and
 *    op_unit_mask are those of the equivalent core PMU event when
 *    libpfm4 knows one for this cpu (cycles: 0x3c on Intel, 0x76 on AMD),
 *    else 0.  Also so for perf's cache events (L1-dcache-load-misses).
 *  - Hardware periods: default OPEV_DEFAULT_PERIOD, at least
 *    OPEV_MIN_PERIOD events.  Every period is at most OPEV_MAX_PERIOD
 *    (OProfile reads it back as an int).
 *  - perf's other software events and tracepoints are refused
 *    (UNKNOWN_EVENT): OProfile's sample files cannot describe them.  So
 *    are hardware events when this machine's cpu type is timer.
 * ctx may be NULL; then only cpu-clock and task-clock encode, and other
 * events give OPEV_ERR_PFM_INIT.  A NULL spec or ev is -EINVAL.
 */
int opev_encode(const struct opev_ctx *ctx, const struct opev_spec *spec,
		struct opev_event *ev, struct op_err *err);

/*
 * The default hardware event of this cpu type (OProfile's choice,
 * oprofile-ng-formats(5), e.g. CPU_CLK_UNHALTED:100000), encoded.  Errors as
 * opev_encode(); OPEV_ERR_NO_DEFAULT when libpfm4 knows no cycles event
 * for this cpu, -EINVAL for a NULL ctx.  The name is OProfile's:
 * CPU_CLK_UNHALTED on x86 (cpu_clk_unhalted on skylake, goldmont,
 * goldmontplus), CPU_CYCLES on ARM, CYCLES on ppc64; counting in kernel
 * and user mode.
 */
int opev_default_event(const struct opev_ctx *ctx, struct opev_event *ev,
		       struct op_err *err);

/*
 * The software clock used when no hardware PMU can count: cpu-clock with
 * a period of OPEV_CLOCK_DEFAULT_NS (perf's default rate, 4 kHz), or
 * period_ns when non-zero, counting in kernel and user mode.  Errors:
 * OPEV_ERR_COUNT_RANGE (period_ns outside OPEV_CLOCK_MIN_NS ..
 * OPEV_MAX_PERIOD), -EINVAL for a NULL ev.
 */
#define OPEV_CLOCK_DEFAULT_NS 250000u
int opev_software_clock(struct opev_event *ev, uint64_t period_ns);

/* period limits (see opev_encode()) */
#define OPEV_DEFAULT_PERIOD 100000u	/* events, as CPU_CLK_UNHALTED:100000 */
#define OPEV_MIN_PERIOD 1000u		/* events */
#define OPEV_CLOCK_MIN_NS 10000u	/* ns: 100 kHz */
#define OPEV_MAX_PERIOD 2147483647u	/* INT32_MAX: file names print %d */

/* OProfile's name of an op_cpu number ("i386/skylake"), NULL if unknown */
const char *opev_cpu_name(uint32_t cpu_type);
/*
 * The op_cpu number of text: OProfile's name ("i386/skylake", any case)
 * or the decimal number (0 to OPEV_NR_CPU_TYPES - 1).  0, or
 * OPEV_ERR_UNKNOWN_CPU.
 */
int opev_cpu_parse(const char *text, uint32_t *cpu_type);
/*
 * libpfm4's name of the core PMU whose tables describe cpu_type ("skl"
 * for i386/skylake, what LIBPFM_FORCE_PMU takes), or NULL when libpfm4
 * has none for it (timer, MIPS, ...)
 */
const char *opev_cpu_pmu_name(uint32_t cpu_type);
/*
 * OProfile's default event of cpu_type, without a count
 * ("CPU_CLK_UNHALTED"), or NULL where it has none we can encode (timer,
 * the Pentium 4, whose default needs a unit mask)
 */
const char *opev_cpu_default_name(uint32_t cpu_type);
/* how OProfile 1.4's reports name it ("Intel Skylake microarchitecture"),
 * or NULL past the table */
const char *opev_cpu_display_name(uint32_t cpu_type);

/*
 * How OProfile's report headers describe event (a sample file's event
 * name, any case) with unit mask um, recorded with cpu_type: the event's
 * description into desc and the unit mask's into umdesc ("No unit mask"
 * for 0 without one, "multiple flags" for a value no single unit mask
 * has), from libpfm4's tables of that type's PMU, present here or not.
 * 0, or OPEV_ERR_UNKNOWN_EVENT when libpfm4 has no such event there.
 */
int opev_describe(uint32_t cpu_type, const char *event, uint32_t um, char *desc,
		  size_t desc_size, char *umdesc, size_t umdesc_size);
/* number of entries in the OProfile 1.4 op_cpu table (88) */
#define OPEV_NR_CPU_TYPES 88u
#define OPEV_CPU_TIMER 4u

/*
 * List the events libpfm4 knows for this machine's PMUs (for ophelp):
 * calls fn for each with its name, description and unit masks.  Every
 * pointer in *info is borrowed, valid during that call only.  Stops at
 * the first non-zero return of fn and returns it; else 0, -ENOMEM,
 * OPEV_ERR_PFM_INIT when ctx is NULL or -EINVAL when fn is.
 */
struct opev_info {
	const char *pmu;		/* libpfm4 PMU name ("skl", "perf") */
	const char *name;		/* event name */
	const char *desc;		/* description */
	uint64_t code;			/* raw event code, when there is one */
	size_t nr_unit_masks;
	const char *const *um_names;	/* unit-mask names */
	const char *const *um_descs;
	const uint64_t *um_codes;
};

typedef int (*opev_info_fn)(const struct opev_info *info, void *data);
int opev_for_each_event(const struct opev_ctx *ctx, opev_info_fn fn,
			void *data);

#define OPEV_ERRORS							\
	OPEV_ERROR(EMPTY_LIST, "empty event list")			\
	OPEV_ERROR(BAD_SYNTAX, "bad event specification")		\
	OPEV_ERROR(BAD_NAME, "event names may not contain '.' or '/'")	\
	OPEV_ERROR(NAME_TOO_LONG, "event or unit mask name too long")	\
	OPEV_ERROR(BAD_COUNT, "bad sample count")			\
	OPEV_ERROR(COUNT_RANGE, "sample count out of range")		\
	OPEV_ERROR(BAD_UNIT_MASK, "bad unit mask")			\
	OPEV_ERROR(BAD_FLAG, "kernel and user flags must be 0 or 1")	\
	OPEV_ERROR(NO_MODE, "event counts in neither kernel nor user mode") \
	OPEV_ERROR(UNKNOWN_EVENT, "unknown event")			\
	OPEV_ERROR(NO_DEFAULT, "no default hardware event for this cpu")	\
	OPEV_ERROR(PFM_INIT, "cannot initialise libpfm4")		\
	OPEV_ERROR(UNKNOWN_CPU, "unknown cpu type")

enum opev_error {
	OPEV_ERR_BASE = -6000,
#define OPEV_ERROR(name, text) OPEV_ERR_##name,
	OPEV_ERRORS
#undef OPEV_ERROR
	OPEV_ERR_END
};

/* text of an opev_error or negative errno; never NULL */
const char *opev_strerror(int err);

/*
 * Does event (a name as sample files write it: CPU_CLK_UNHALTED,
 * cpu-clock, inst_retired) count what perf's generic event called
 * generic does (cycles, instructions, cache-misses, branch-misses, ...)?
 * True when it is that name, or one of the core PMU events that count
 * the same in libpfm4's spellings (INST_RETIRED, RETIRED_INSTRUCTIONS,
 * LLC_MISSES, ...).  Case is ignored, and '_' matches '-'.
 */
bool opev_counts_as(const char *event, const char *generic);

#endif
