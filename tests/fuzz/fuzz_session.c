// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: session metadata from untrusted bytes.  The input up to
 * its first NUL is the text of a session.info, what follows it the text
 * of a stats/ counter file; an input without NUL is tried as both.
 * odb_session_info_parse() must succeed with values that are one line
 * and event names that are words; the text libdb writes for the result
 * must parse back to the same struct.  odb_stats_parse_count() must
 * accept exactly digits followed by blanks, with the value they spell.
 * Nothing may crash or leak.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_session_info.h"
#include "libdb/odb_stats.h"
#include "tests/fuzz/fuzz.h"

static bool one_line(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return false;
	return true;
}

static bool same_string(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static bool same_event(const struct odb_session_event *a,
		       const struct odb_session_event *b)
{
	return same_string(a->name, b->name) && a->software == b->software &&
	       a->period == b->period && a->cpu_type == b->cpu_type &&
	       a->code == b->code && a->unit_mask == b->unit_mask &&
	       same_string(a->desc, b->desc);
}

static bool same_info(const struct odb_session_info *a,
		      const struct odb_session_info *b)
{
	size_t i;

	if (!same_string(a->tool, b->tool) || !same_string(a->started, b->started) ||
	    a->target != b->target || a->nr_events != b->nr_events ||
	    a->fallback != b->fallback || a->kernel_excluded != b->kernel_excluded ||
	    a->separate_thread != b->separate_thread ||
	    a->separate_cpu != b->separate_cpu || a->callgraph != b->callgraph ||
	    !same_string(a->vmlinux, b->vmlinux) ||
	    !same_string(a->fallback_reason, b->fallback_reason) ||
	    !same_string(a->kernel_excluded_reason, b->kernel_excluded_reason))
		return false;
	if (a->target == ODB_TARGET_PID && a->pid != b->pid)
		return false;
	if (a->target == ODB_TARGET_COMMAND && !same_string(a->command, b->command))
		return false;
	for (i = 0; i < a->nr_events; i++)
		if (!same_event(&a->events[i], &b->events[i]))
			return false;
	return true;
}

static void check_info(const char *text, size_t len)
{
	struct odb_session_info info, again;
	char *out;
	size_t out_len, i;

	if (odb_session_info_parse(text, len, &info))
		abort();
	if (!one_line(info.tool) || !one_line(info.started) ||
	    !one_line(info.command) || !one_line(info.fallback_reason) ||
	    !one_line(info.kernel_excluded_reason) || !one_line(info.vmlinux))
		abort();
	if (info.vmlinux && !*info.vmlinux)
		abort();
	if (info.target == ODB_TARGET_COMMAND && !info.command)
		abort();
	for (i = 0; i < info.nr_events; i++) {
		const struct odb_session_event *ev = &info.events[i];

		if (!ev->name || !*ev->name || strchr(ev->name, ' ') ||
		    !one_line(ev->name) || !ev->desc || !one_line(ev->desc))
			abort();
	}
	if (odb_session_info_format(&info, &out, &out_len))
		abort();
	if (strlen(out) != out_len)
		abort();
	if (odb_session_info_parse(out, out_len, &again))
		abort();
	if (!same_info(&info, &again))
		abort();
	odb_session_info_release(&again);
	odb_session_info_release(&info);
	free(out);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void check_count(const char *text, size_t len)
{
	char digits[32], spelled[32];
	size_t i = 0, n = 0;
	uint64_t v = 0;
	int ret = odb_stats_parse_count(text, len, &v);
	bool well_formed;

	while (i < len && text[i] == '0')
		i++;
	while (i + n < len && text[i + n] >= '0' && text[i + n] <= '9')
		n++;
	well_formed = len && text[0] >= '0' && text[0] <= '9';
	for (i += n; i < len && well_formed; i++)
		well_formed = blank(text[i]);
	if (!well_formed) {
		if (ret != ODB_ERR_BAD_COUNTER)
			abort();
		return;
	}
	/* the significant digits, or one 0; more than 20 never fit */
	if (n > 20) {
		if (ret != ODB_ERR_BAD_COUNTER)
			abort();
		return;
	}
	for (i = 0; i < len && text[i] == '0'; i++)
		;
	if (n)
		memcpy(digits, text + i, n);
	else
		digits[n++] = '0';
	digits[n] = '\0';
	if (ret) {
		/* only a number past 2^64 - 1 may fail */
		if (ret != ODB_ERR_BAD_COUNTER || n < 20 ||
		    (n == 20 && strcmp(digits, "18446744073709551615") <= 0))
			abort();
		return;
	}
	snprintf(spelled, sizeof(spelled), "%llu", (unsigned long long)v);
	if (strcmp(spelled, digits))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);

	if (!nul) {
		check_info(text, size);
		check_count(text, size);
		return 0;
	}
	check_info(text, (size_t)(nul - text));
	check_count(nul + 1, size - (size_t)(nul - text) - 1);
	return 0;
}
