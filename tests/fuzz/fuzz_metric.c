// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a --metric definition from untrusted bytes (up to a NUL).
 * pp_metric_check() must accept it or give PP_REPORT_ERR_METRIC with a
 * one-line message; made over a profile of two events (cycles and
 * instructions under their OProfile names), it must give the same
 * verdict on its syntax, then values for any counts (undefined ones NaN,
 * never a crash), and pp_metric_linear() an answer.  Nothing may leak.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/pp_metric.h"
#include "libpp/report/pp_report.h"
#include "tests/fuzz/fuzz.h"

static bool one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' && *s != '\t')
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t counts[][2] = {
		{ 0, 0 }, { 1, 2 }, { 1000, 3 }, { UINT64_MAX / 2, 1 },
	};
	struct pp_class classes[2];
	struct pp_profile p;
	struct pp_metrics ms;
	struct op_err err;
	char *def = malloc(size + 1);
	const char *defs[2];
	int64_t coef[2];
	size_t i;
	int ret, made;

	if (!def)
		return 0;
	memcpy(def, data, size);
	def[size] = '\0';
	ret = pp_metric_check(def, &err);
	if (ret && (ret != PP_REPORT_ERR_METRIC || !err.msg[0] || !one_line(err.msg)))
		abort();
	memset(&p, 0, sizeof(p));
	memset(classes, 0, sizeof(classes));
	classes[0].t.event = "CPU_CLK_UNHALTED";
	classes[0].t.count = 100000;
	classes[1].t.event = "inst_retired";
	classes[1].t.count = 50000;
	p.classes = classes;
	p.nr_classes = 2;
	defs[0] = def;
	defs[1] = NULL;
	made = pp_metrics_make(&ms, defs, &p, &err);
	if (made && (made != PP_REPORT_ERR_METRIC || !one_line(err.msg)))
		abort();
	/* a syntax error is one whatever the profile */
	if (ret && !made)
		abort();
	if (!made) {
		for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			bool imprecise;
			char buf[64];
			double v = pp_metric_value(&ms, 0, counts[i], &imprecise);

			pp_metric_format(buf, sizeof(buf), v, imprecise);
			if (!buf[0])
				abort();
		}
		(void)pp_metric_linear(&ms, 0, coef);
		pp_metrics_release(&ms);
	}
	free(def);
	return 0;
}
