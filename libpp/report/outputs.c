// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of outputs (pp_report.h): one row per output, in the order
 * in which modes take precedence, the default last.  A row is chosen
 * when the tool asks for all of its modes (XML with a call graph is its
 * own row: it needs arcs).  Adding an output is
 * a file with its write function and a row here.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "libpp/report/report_int.h"

/* opreport -X orders symbols by application, image, samples, address */
static const enum pp_sort_key xml_order[] = {
	PP_SORT_APP, PP_SORT_IMAGE, PP_SORT_SAMPLE, PP_SORT_VMA,
};

static const struct pp_output outputs[] = {
	{
		.name = "diff",
		.mode = PP_MODE_DIFF,
		.needs = PP_NEEDS_SYMBOLS | PP_NEEDS_TWO | PP_SORTS_OWN,
		.write = pp_write_diff,
	}, {
		.name = "callgrind",
		.mode = PP_MODE_CALLGRIND,
		.needs = PP_NEEDS_SYMBOLS | PP_NEEDS_ARCS | PP_LINES_AHEAD | PP_CALL_SITES,
		.write = pp_write_callgrind,
	}, {
		.name = "folded",
		.mode = PP_MODE_FOLDED,
		.needs = PP_NEEDS_SYMBOLS | PP_NEEDS_STACKS | PP_SORTS_OWN,
		.write = pp_write_folded,
	}, {
		.name = "pprof",
		.mode = PP_MODE_PPROF,
		.needs = PP_NEEDS_SYMBOLS | PP_NEEDS_STACKS | PP_SORTS_OWN | PP_LINES_AHEAD |
			 PP_STACKS_AS_TREE,
		.write = pp_write_pprof,
	}, {
		.name = "timeline",
		.mode = PP_MODE_TIMELINE,
		.needs = PP_NEEDS_SYMBOLS | PP_NAMES_AHEAD,
		.write = pp_write_timeline,
	}, {
		.name = "html",
		.mode = PP_MODE_HTML,
		.needs = PP_NEEDS_SYMBOLS | PP_NEEDS_ARCS | PP_NEEDS_STACKS,
		.write = pp_write_html,
	}, {
		.name = "xml-callgraph",
		.mode = PP_MODE_XML | PP_MODE_CALLGRAPH,
		.needs = PP_NEEDS_SYMBOLS | PP_NEEDS_ARCS | PP_NAMES_AHEAD,
		.sort = xml_order,
		.nr_sort = sizeof(xml_order) / sizeof(xml_order[0]),
		.write = pp_write_xml,
	}, {
		.name = "xml",
		.mode = PP_MODE_XML,
		.needs = PP_NEEDS_SYMBOLS | PP_NAMES_AHEAD,
		.sort = xml_order,
		.nr_sort = sizeof(xml_order) / sizeof(xml_order[0]),
		.write = pp_write_xml,
	}, {
		.name = "callgraph",
		.mode = PP_MODE_CALLGRAPH,
		.needs = PP_NEEDS_SYMBOLS | PP_NEEDS_ARCS,
		.write = pp_write_callgraph,
	}, {
		.name = "symbols",
		.mode = PP_MODE_SYMBOLS,
		.needs = PP_NEEDS_SYMBOLS,
		.write = pp_write_symbols,
	}, {
		.name = "gmon",
		.mode = PP_MODE_GMON,
		.needs = PP_NEEDS_SYMBOLS | PP_NEEDS_ARCS | PP_SORTS_OWN,
		.write = pp_write_gmon,
	}, {
		.name = "assembly-source",
		.mode = PP_MODE_ASSEMBLY | PP_MODE_SOURCE,
		.needs = PP_NEEDS_SYMBOLS | PP_SELECTS_OWN | PP_SORTS_OWN,
		.write = pp_write_annotated_assembly,
	}, {
		.name = "assembly",
		.mode = PP_MODE_ASSEMBLY,
		.needs = PP_NEEDS_SYMBOLS | PP_SELECTS_OWN | PP_SORTS_OWN,
		.write = pp_write_annotated_assembly,
	}, {
		.name = "source",
		.mode = PP_MODE_SOURCE,
		.needs = PP_NEEDS_SYMBOLS | PP_SELECTS_OWN | PP_SORTS_OWN,
		.write = pp_write_annotated_source,
	}, {
		.name = "summary",
		.mode = 0,
		.needs = PP_SELECTS_OWN | PP_SORTS_OWN,
		.write = pp_write_summary,
	},
};

#define NR_OUTPUTS (sizeof(outputs) / sizeof(outputs[0]))

const struct pp_output *pp_output_choose(unsigned modes)
{
	size_t i;

	for (i = 0; i < NR_OUTPUTS - 1; i++)
		if ((modes & outputs[i].mode) == outputs[i].mode)
			return &outputs[i];
	return &outputs[NR_OUTPUTS - 1];
}

const struct pp_output *pp_output_find(const char *name)
{
	size_t i;

	for (i = 0; i < NR_OUTPUTS; i++)
		if (!strcmp(outputs[i].name, name))
			return &outputs[i];
	return NULL;
}
