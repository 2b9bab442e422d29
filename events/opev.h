/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Event specifications: parsing OProfile's "NAME:count[:unitmask[:kernel
 * [:user]]]" lists, encoding each event through libpfm4 into what
 * perf_event_open needs, and the OProfile cpu types and header fields
 * that describe it in sample files (formats.md §6, §9).
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
 */
int opev_parse_list(const char *list, struct opev_spec **specs, size_t *nr,
		    struct op_err *err);

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
 * (formats.md §6.5) from libpfm4's PMU and the cpuid.  Caller frees with
 * opev_ctx_free().  Returns NULL with *err set on failure.
 */
struct opev_ctx *opev_ctx_new(int *err);
void opev_ctx_free(struct opev_ctx *ctx);

/* OProfile op_cpu number of this machine, and its name ("i386/skylake") */
uint32_t opev_ctx_cpu_type(const struct opev_ctx *ctx);

/*
 * Encode one parsed event.  Hardware events go through libpfm4; perf's
 * generic names (cycles, instructions, cpu-clock, task-clock, ...) are
 * accepted too.  A count of 0 takes the event's default period.  Errors:
 * OPEV_ERR_UNKNOWN_EVENT (with the libpfm4 reason in err),
 * OPEV_ERR_BAD_UNIT_MASK, OPEV_ERR_COUNT_RANGE, -ENOMEM.
 */
int opev_encode(const struct opev_ctx *ctx, const struct opev_spec *spec,
		struct opev_event *ev, struct op_err *err);

/*
 * The default hardware event of this cpu type (OProfile's choice,
 * formats.md §6.6, e.g. CPU_CLK_UNHALTED:100000), encoded.  Errors as
 * opev_encode(); OPEV_ERR_NO_DEFAULT when libpfm4 knows no cycles event
 * for this cpu.
 */
int opev_default_event(const struct opev_ctx *ctx, struct opev_event *ev,
		       struct op_err *err);

/*
 * The software clock used when no hardware PMU can count: cpu-clock with
 * a period of OPEV_CLOCK_DEFAULT_NS (perf's default rate, 4 kHz), or
 * period_ns when non-zero.
 */
#define OPEV_CLOCK_DEFAULT_NS 250000u
int opev_software_clock(struct opev_event *ev, uint64_t period_ns);

/* OProfile's name of an op_cpu number ("i386/skylake"), NULL if unknown */
const char *opev_cpu_name(uint32_t cpu_type);
/* number of entries in the OProfile 1.4 op_cpu table (88) */
#define OPEV_NR_CPU_TYPES 88u
#define OPEV_CPU_TIMER 4u

/*
 * List the events libpfm4 knows for this machine's PMUs (for ophelp):
 * calls fn for each with its name, description and unit masks.
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
	OPEV_ERROR(PFM_INIT, "cannot initialise libpfm4")

enum opev_error {
	OPEV_ERR_BASE = -6000,
#define OPEV_ERROR(name, text) OPEV_ERR_##name,
	OPEV_ERRORS
#undef OPEV_ERROR
	OPEV_ERR_END
};

/* text of an opev_error or negative errno; never NULL */
const char *opev_strerror(int err);

#endif
