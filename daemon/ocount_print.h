/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ocount's report, in OProfile 1.4's two layouts: the table ("Event
 * counts (actual) for ...", columns Event, [CPU | Task ID,] Count and
 * "% time counted") and --brief-format's comma-separated lines.
 */
#ifndef OCOUNT_PRINT_H
#define OCOUNT_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/perf_events.h"
#include "libutil/op_strbuf.h"

enum ocount_sep {
	OCOUNT_SEP_NONE,	/* one row per event */
	OCOUNT_SEP_CPU,		/* one row per event and cpu */
	OCOUNT_SEP_THREAD,	/* one row per event and thread */
};

struct ocount_row {
	const char *label;	/* the event as given; borrowed */
	long element;		/* cpu or thread id, with a separation */
	uint64_t count;		/* scaled */
	struct opd_count raw;	/* summed over what the row covers */
	bool scaled;		/* some counter of it did not always run */
};

struct ocount_report {
	const char *subject;	/* "for ls:", "for the whole system:", ... */
	enum ocount_sep sep;
	bool brief;
	bool interval;		/* a dump of --time-interval: no time line */
	uint64_t elapsed_ns;	/* how long counting went on */
	const struct ocount_row *rows;
	size_t nr_rows;
};

/* append report r to out (check op_strbuf_failed() after) */
void ocount_print(struct op_strbuf *out, const struct ocount_report *r);

/*
 * the line that opens each --time-interval dump: the time of day in
 * seconds, with tenths when the interval is not whole seconds
 */
void ocount_print_time(struct op_strbuf *out, bool brief, bool tenths);

#endif
