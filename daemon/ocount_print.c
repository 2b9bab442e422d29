// SPDX-License-Identifier: GPL-2.0-or-later
/* ocount's table and brief layouts (ocount_print.h). */
#include "config.h"

#include <string.h>
#include <time.h>

#include "daemon/ocount_print.h"

/* OProfile 1.4's column widths */
#define NAME_GAP 8		/* after the longest event label */
#define ELEMENT_WIDTH 10	/* the CPU / Task ID column */
#define COUNT_WIDTH 25

/* spaces up to column width, and at least one */
static void pad(struct op_strbuf *out, size_t used, size_t width)
{
	do
		op_strbuf_addch(out, ' ');
	while (++used < width);
}

/* 1234567 as "1,234,567" */
static void add_grouped(struct op_strbuf *out, uint64_t v, size_t *len)
{
	char digits[32];
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	size_t start = out->len;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			op_strbuf_addch(out, ',');
		op_strbuf_addch(out, digits[i]);
	}
	*len = out->len - start;
}

static double percent(const struct opd_count *c)
{
	if (!c->enabled)
		return 0.0;
	return 100.0 * (double)c->running / (double)c->enabled;
}

static void time_line(struct op_strbuf *out, uint64_t ns)
{
	uint64_t secs = ns / 1000000000u, mins = secs / 60;

	op_strbuf_addstr(out, "Events were actively counted for ");
	if (mins)
		op_strbuf_addf(out, "%llu minute%s and %llu seconds.\n",
			       (unsigned long long)mins, mins > 1 ? "s" : "",
			       (unsigned long long)(secs % 60));
	else if (secs)
		op_strbuf_addf(out, "%.1f seconds.\n", (double)ns / 1e9);
	else
		op_strbuf_addf(out, "%llu nanoseconds.\n", (unsigned long long)ns);
}

static void print_table(struct op_strbuf *out, const struct ocount_report *r)
{
	size_t name_width = strlen("Event"), i, len;
	bool scaled = false;

	for (i = 0; i < r->nr_rows; i++) {
		if (strlen(r->rows[i].label) > name_width)
			name_width = strlen(r->rows[i].label);
		scaled |= r->rows[i].scaled;
	}
	name_width += NAME_GAP;
	op_strbuf_addch(out, '\n');
	if (!r->interval)
		time_line(out, r->elapsed_ns);
	op_strbuf_addf(out, "Event counts %s %s\n",
		       scaled ? "(scaled)" : "(actual)", r->subject);
	op_strbuf_addstr(out, "\tEvent");
	pad(out, strlen("Event"), name_width);
	if (r->sep != OCOUNT_SEP_NONE) {
		const char *h = r->sep == OCOUNT_SEP_CPU ? "CPU" : "Task ID";

		op_strbuf_addstr(out, h);
		pad(out, strlen(h), ELEMENT_WIDTH);
	}
	op_strbuf_addstr(out, "Count");
	pad(out, strlen("Count"), COUNT_WIDTH);
	op_strbuf_addstr(out, "% time counted\n");
	for (i = 0; i < r->nr_rows; i++) {
		const struct ocount_row *row = &r->rows[i];

		op_strbuf_addf(out, "\t%s", row->label);
		pad(out, strlen(row->label), name_width);
		if (r->sep != OCOUNT_SEP_NONE) {
			size_t at = out->len;

			op_strbuf_addf(out, "%ld", row->element);
			pad(out, out->len - at, ELEMENT_WIDTH);
		}
		add_grouped(out, row->count, &len);
		pad(out, len, COUNT_WIDTH);
		if (row->raw.enabled)
			op_strbuf_addf(out, "%.2f\n", percent(&row->raw));
		else
			op_strbuf_addstr(out, "Event not counted\n");
	}
}

static void print_brief(struct op_strbuf *out, const struct ocount_report *r)
{
	size_t i;

	op_strbuf_addch(out, '\n');
	for (i = 0; i < r->nr_rows; i++) {
		const struct ocount_row *row = &r->rows[i];

		if (r->sep != OCOUNT_SEP_NONE)
			op_strbuf_addf(out, "%ld,", row->element);
		op_strbuf_addf(out, "%s,%llu,", row->label,
			       (unsigned long long)row->count);
		if (row->raw.enabled)
			op_strbuf_addf(out, "%.2f\n", percent(&row->raw));
		else
			op_strbuf_addstr(out, "Event not counted\n");
	}
}

void ocount_print(struct op_strbuf *out, const struct ocount_report *r)
{
	if (r->brief)
		print_brief(out, r);
	else
		print_table(out, r);
}

void ocount_print_time(struct op_strbuf *out, bool brief, bool tenths)
{
	struct timespec ts;
	long long secs;
	int tenth;

	clock_gettime(CLOCK_REALTIME, &ts);
	secs = (long long)ts.tv_sec;
	tenth = (int)((ts.tv_nsec + 50000000) / 100000000);
	if (tenth == 10) {
		secs++;
		tenth = 0;
	}
	op_strbuf_addstr(out, brief ? "\ntimestamp," :
			 "\nCurrent time (seconds since epoch): ");
	if (tenths)
		op_strbuf_addf(out, "%lld.%d", secs, tenth);
	else
		op_strbuf_addf(out, "%lld", (long long)ts.tv_sec);
}
