// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: an event list ("NAME:count:unitmask:kernel:user,...")
 * from untrusted bytes.  opev_parse_list() must give one of its errors
 * with a one-line message, or specs that keep opev.h's promises; those
 * specs printed back and parsed again must come out the same.  Each spec
 * is then encoded against this machine's libpfm4, which must give one of
 * our errors or an event within the rules.  The same bytes go through
 * ocount's grammar (opev_parse_count_list(), no count field), whose
 * specs must keep the same promises, have no count, and read back the
 * same through opev_parse_list().  Nothing may crash or leak.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/opev.h"
#include "tests/fuzz/fuzz.h"

static struct opev_ctx *ctx;

static bool one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ')
			return false;
	return true;
}

static void check_error(int ret, const struct op_err *err)
{
	if (ret == -ENOMEM)
		return;
	if (ret <= OPEV_ERR_BASE || ret >= OPEV_ERR_END)
		abort();
	if (!err->msg[0] || !one_line(err->msg))
		abort();
}

static void check_spec(const struct opev_spec *s)
{
	size_t len = strnlen(s->name, sizeof(s->name)), i;

	if (!len || len == sizeof(s->name))
		abort();
	for (i = 0; i < len; i++)
		if (s->name[i] == '.' || s->name[i] == '/' ||
		    (unsigned char)s->name[i] <= ' ')
			abort();
	if (s->count > OPEV_MAX_PERIOD || (!s->kernel && !s->user) ||
	    (!s->has_count && s->count))
		abort();
	if (s->um_name[0] && (!s->has_unit_mask || s->unit_mask))
		abort();
	if (s->unit_mask > UINT32_MAX)
		abort();
}

/* print a spec back in the list syntax */
static size_t print_spec(char *buf, size_t size, const struct opev_spec *s)
{
	char um[OPEV_NAME_MAX + 24] = "", count[24] = "";
	int n;

	if (s->um_name[0])
		n = snprintf(um, sizeof(um), "%s", s->um_name);
	else if (s->has_unit_mask)
		n = snprintf(um, sizeof(um), "0x%llx",
			     (unsigned long long)s->unit_mask);
	else
		n = 0;
	if (n < 0)
		abort();
	/* a count left out stays out: 0 written means something else */
	if (s->has_count &&
	    snprintf(count, sizeof(count), "%llu", (unsigned long long)s->count) < 0)
		abort();
	n = snprintf(buf, size, "%s:%s:%s:%d:%d", s->name, count, um, s->kernel,
		     s->user);
	if (n < 0 || (size_t)n >= size)
		abort();
	return (size_t)n;
}

static void check_round_trip(const struct opev_spec *specs, size_t nr)
{
	size_t size = nr * 200 + 1, used = 0, nr2, i;
	struct opev_spec *again;
	char *list = malloc(size);
	int ret;

	if (!list)
		abort();
	for (i = 0; i < nr; i++) {
		if (i)
			list[used++] = ',';
		used += print_spec(list + used, size - used, &specs[i]);
	}
	ret = opev_parse_list(list, &again, &nr2, NULL);
	if (ret == -ENOMEM) {
		free(list);
		return;
	}
	if (ret || nr2 != nr)
		abort();
	for (i = 0; i < nr; i++)
		if (strcmp(again[i].name, specs[i].name) ||
		    again[i].count != specs[i].count ||
		    again[i].has_count != specs[i].has_count ||
		    again[i].has_unit_mask != specs[i].has_unit_mask ||
		    again[i].unit_mask != specs[i].unit_mask ||
		    strcmp(again[i].um_name, specs[i].um_name) ||
		    again[i].kernel != specs[i].kernel ||
		    again[i].user != specs[i].user)
			abort();
	free(again);
	free(list);
}

static void check_encode(const struct opev_spec *s)
{
	struct opev_event ev;
	struct op_err err = { "" };
	int ret = opev_encode(ctx, s, &ev, &err);

	if (ret) {
		check_error(ret, &err);
		return;
	}
	if (strcmp(ev.name, s->name) || ev.exclude_kernel == s->kernel ||
	    ev.exclude_user == s->user || ev.period > OPEV_MAX_PERIOD ||
	    !ev.desc[0] || !one_line(ev.desc))
		abort();
	if (ev.kind == OPEV_SOFTWARE_CLOCK ?
	    ev.op_cpu_type != OPEV_CPU_TIMER || ev.op_event ||
	    ev.period < OPEV_CLOCK_MIN_NS :
	    ev.op_cpu_type != opev_ctx_cpu_type(ctx) ||
	    ev.period < OPEV_MIN_PERIOD)
		abort();
	/* a written count is the period; none written, the default */
	if (s->has_count ? ev.period != s->count :
	    ev.period != (ev.kind == OPEV_SOFTWARE_CLOCK ? OPEV_CLOCK_DEFAULT_NS :
			  OPEV_DEFAULT_PERIOD))
		abort();
}

/* ocount's grammar on the same list */
static void check_count_list(const char *list)
{
	struct opev_spec *specs;
	struct op_err err = { "" };
	size_t nr, i;
	int ret = opev_parse_count_list(list, &specs, &nr, &err);

	if (ret) {
		check_error(ret, &err);
		if (specs || nr)
			abort();
		return;
	}
	for (i = 0; i < nr; i++) {
		check_spec(&specs[i]);
		if (specs[i].has_count)
			abort();
	}
	check_round_trip(specs, nr);
	free(specs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct opev_spec *specs;
	struct op_err err = { "" };
	char *list;
	size_t nr, i;
	int ret;

	if (!ctx && !(ctx = opev_ctx_new(&ret)))
		abort();
	list = malloc(size + 1);
	if (!list)
		return 0;
	memcpy(list, data, size);
	list[size] = '\0';
	check_count_list(list);
	ret = opev_parse_list(list, &specs, &nr, &err);
	free(list);
	if (ret) {
		check_error(ret, &err);
		if (specs || nr)
			abort();
		return 0;
	}
	if (!nr)
		abort();
	for (i = 0; i < nr; i++)
		check_spec(&specs[i]);
	check_round_trip(specs, nr);
	for (i = 0; i < nr && i < 16; i++)
		check_encode(&specs[i]);
	free(specs);
	return 0;
}
