/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SESSION/samples/NAME/session.info: what a recording was, written by
 * operf at its end for the report tools.  OProfile 1.4 has no such file;
 * its tools ignore it.  Text, one "KEY VALUE" line each, in this order:
 *
 *	tool operf VERSION
 *	started YYYY-MM-DD HH:MM:SS
 *	target command ARGS... | target pid PID | target system-wide
 *	event NAME KIND PERIOD CPU_TYPE CODE UNIT_MASK DESCRIPTION...
 *	fallback REASON			the default event fell back to cpu-clock
 *	kernel-excluded REASON		kernel samples were not recorded
 *	separate-thread 0|1
 *	separate-cpu 0|1
 *	callgraph 0|1
 *	slice NS			time slices of NS ns (only when sliced)
 *	vmlinux PATH			operf --vmlinux
 *
 * with one event line per event (KIND "software" for a clock event, else
 * "hardware"; the numbers decimal; DESCRIPTION the rest of the line, maybe
 * empty) and fallback, kernel-excluded and vmlinux only when they apply.
 * Readers skip lines they do not know and event lines that do not parse,
 * so keys can be added; a NUL byte ends its line.  Values are one line:
 * the writer turns control characters in them into spaces.
 *
 * Nothing here prints or exits; allocation failures are -ENOMEM.
 */
#ifndef ODB_SESSION_INFO_H
#define ODB_SESSION_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_dir.h"

/* an "event" line: one event the recording opened */
struct odb_session_event {
	char *name;		/* as in the sample-file names; no blanks */
	bool software;		/* a clock event ("software"), else "hardware" */
	uint64_t period;	/* events (or ns) per sample */
	uint32_t cpu_type;	/* OProfile op_cpu number */
	uint32_t code;		/* OProfile event code */
	uint32_t unit_mask;
	char *desc;		/* one-line description, maybe "" */
};

enum odb_target_kind {
	ODB_TARGET_UNKNOWN,	/* no (valid) target line */
	ODB_TARGET_COMMAND,	/* a command operf started */
	ODB_TARGET_PID,		/* a running process (--pid) */
	ODB_TARGET_SYSTEM,	/* every process (--system-wide) */
};

/*
 * The contents of a session.info.  Every string is owned by the struct
 * and may be NULL where its line is absent.
 */
struct odb_session_info {
	char *tool;		/* "operf VERSION" */
	char *started;		/* local time profiling started */
	enum odb_target_kind target;
	uint32_t pid;		/* ODB_TARGET_PID */
	char *command;		/* ODB_TARGET_COMMAND: its words, space-separated */
	struct odb_session_event *events;	/* in file order */
	size_t nr_events;
	bool fallback;		/* the default event fell back to cpu-clock */
	char *fallback_reason;
	bool kernel_excluded;	/* kernel samples were not recorded */
	char *kernel_excluded_reason;	/* e.g. "perf_event_paranoid" */
	bool separate_thread;
	bool separate_cpu;
	bool callgraph;
	uint64_t slice_ns;	/* time slices' length, 0 when none */
	char *vmlinux;		/* operf --vmlinux; NULL when not given */
};

/*
 * The text of info (see the top of this file) into *text, NUL-terminated,
 * *len bytes without the NUL; the caller frees *text.  NULL strings write
 * nothing (tool, started) or an empty value.  Returns 0, -ENOMEM, or
 * -EINVAL for an event whose name is empty or holds a blank or control
 * character (it could not be read back).
 */
int odb_session_info_format(const struct odb_session_info *info, char **text,
			    size_t *len);

/*
 * Parse len bytes of session.info text (not NUL-terminated; may hold
 * anything) into *info, which is cleared first.  Lines that do not parse
 * are skipped (see the top).  Returns 0 or -ENOMEM (then *info holds
 * nothing to release).  The caller releases *info.
 */
int odb_session_info_parse(const char *text, size_t len,
			   struct odb_session_info *info);

/* write dir/session.info (dir: the samples directory) whole, never
 * through a symlink (op_dir.h); 0 or -errno */
int odb_session_info_write(const struct op_dir *dir,
			   const struct odb_session_info *info);

/*
 * Read dir/session.info into *info (cleared first).  Returns 0, -ENOENT
 * when there is none (a session OProfile 1.4 made), ODB_ERR_NOT_REGULAR,
 * -EFBIG past 1 MiB, another negative errno when it cannot be read, or
 * -ENOMEM; on error *info is empty.
 */
int odb_session_info_read(const char *dir, struct odb_session_info *info);

/* free everything info owns and clear it; NULL is fine, so is twice */
void odb_session_info_release(struct odb_session_info *info);

#endif
