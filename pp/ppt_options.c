// SPDX-License-Identifier: GPL-2.0-or-later
/* The options every report tool shares (see ppt_options.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_profile.h"
#include "libpp/symbols/pp_demangle.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"
#include "libutil/op_quote.h"
#include "libutil/op_strbuf.h"
#include "pp/ppt_options.h"

void ppt_common_table(struct poptOption *table, struct ppt_common_options *o)
{
	const struct poptOption entries[PPT_COMMON_TABLE_SIZE] = {
		{ "session-dir", 0, POPT_ARG_STRING, &o->session_dir, 0,
		  "session directory (default ./oprofile_data, else /var/lib/oprofile)",
		  "DIR" },
		{ "image-path", 'p', POPT_ARG_STRING, &o->image_path, 0,
		  "comma-separated directories to look for binaries in", "DIRS" },
		{ "root", 'R', POPT_ARG_STRING, &o->root, 0,
		  "file system root to look for binaries under", "DIR" },
		{ "merge", 'm', POPT_ARG_STRING, &o->merge, 0,
		  "merge profiles separated by: lib, cpu, tid, tgid, unitmask, all",
		  "LIST" },
		{ "exclude-dependent", 'x', POPT_ARG_NONE, &o->exclude_dependent, 0,
		  "leave out libraries, modules and the kernel used by applications",
		  NULL },
		{ "include-symbols", 'i', POPT_ARG_STRING, &o->include_symbols, 0,
		  "only these symbols (comma-separated, globs)", "SYMBOLS" },
		{ "exclude-symbols", 'e', POPT_ARG_STRING, &o->exclude_symbols, 0,
		  "leave out these symbols (comma-separated, globs)", "SYMBOLS" },
		{ "demangle", 'D', POPT_ARG_STRING, &o->demangle, 0,
		  "C++ names: none, normal (default) or smart", "MODE" },
		{ "threshold", 't', POPT_ARG_DOUBLE, &o->threshold, 0,
		  "only entries with at least this percentage of samples", "PERCENT" },
		{ "quiet", 'q', POPT_ARG_NONE, &o->quiet, 0,
		  "no warnings, only errors", NULL },
		{ "verbose", 'V', POPT_ARG_STRING, &o->verbose, 0,
		  "debug output, LEVELS comma-separated from: all, arcs, bfd, "
		  "convert, debug, level1, misc, record, sfile, stats, xml", "LEVELS" },
		{ "version", 'v', POPT_ARG_NONE, &o->version, 0,
		  "print the version and exit", NULL },
		POPT_TABLEEND
	};

	memcpy(table, entries, sizeof(entries));
}

void ppt_common_release(struct ppt_common_options *o)
{
	free(o->session_dir);
	free(o->image_path);
	free(o->root);
	free(o->verbose);
	free(o->merge);
	free(o->demangle);
	free(o->include_symbols);
	free(o->exclude_symbols);
	memset(o, 0, sizeof(*o));
}

/* the --verbose levels OProfile 1.4's tools know: all of them are taken,
 * all but "all" give the same output here (messages about each step) */
static const char *const verbose_levels[] = {
	"all", "arcs", "bfd", "convert", "debug", "level1", "misc", "record",
	"sfile", "stats", "xml", NULL,
};

#define VERBOSE_LEVELS_TEXT \
	"all, arcs, bfd, convert, debug, level1, misc, record, sfile, stats or xml"

/* has list an empty level: "", ",", "a,,b", "a,"?  (OProfile 1.4 refuses
 * them as unknown; ppt_split_list() would drop them unseen) */
static bool has_empty_level(const char *list)
{
	for (;;) {
		size_t n = strcspn(list, ",");

		if (!n)
			return true;
		if (!list[n])
			return false;
		list += n + 1;
	}
}

/* is every comma-separated level of list known?  *bad: the first not */
static bool verbose_known(const char *list, char *bad, size_t bad_len)
{
	char **levels = ppt_split_list(list);
	bool ok = true;
	size_t i, k;

	for (i = 0; ok && levels[i]; i++) {
		for (k = 0; verbose_levels[k] && strcmp(levels[i], verbose_levels[k]); k++)
			;
		if (!verbose_levels[k]) {
			snprintf(bad, bad_len, "%s", levels[i]);
			ok = false;
		}
	}
	ppt_free_list(levels);
	return ok;
}

int ppt_common_validate(const struct ppt_common_options *o)
{
	struct op_err err;
	enum pp_demangle_mode mode;
	unsigned merge;
	char bad[64], q[128];

	/* written so that NaN fails it too */
	if (!(o->threshold >= 0 && o->threshold <= 100)) {
		op_usage_error("--threshold must be a percentage from 0 to 100");
		return 2;
	}
	if (o->session_dir && !*o->session_dir) {
		op_usage_error("--session-dir is empty: give a directory");
		return 2;
	}
	if (o->demangle && pp_demangle_mode_parse(o->demangle, &mode)) {
		op_usage_error("unknown --demangle mode '%s' (none, normal or smart)",
			       o->demangle);
		return 2;
	}
	if (o->merge && pp_merge_parse(o->merge, &merge, &err)) {
		op_usage_error("%s", err.msg);
		return 2;
	}
	if (o->verbose && has_empty_level(o->verbose)) {
		op_usage_error("empty --verbose level in '%s' (" VERBOSE_LEVELS_TEXT ")",
			       op_quote(q, sizeof(q), o->verbose));
		return 2;
	}
	if (o->verbose && !verbose_known(o->verbose, bad, sizeof(bad))) {
		op_usage_error("unknown --verbose level '%s' (" VERBOSE_LEVELS_TEXT ")",
			       op_quote(q, sizeof(q), bad));
		return 2;
	}
	return 0;
}

void ppt_common_verbosity(const struct ppt_common_options *o)
{
	if (o->quiet)
		op_msg_set_level(OP_MSG_QUIET);
	if (!o->verbose)
		return;
	op_msg_set_level(strstr(o->verbose, "all") || strstr(o->verbose, "debug") ?
			 OP_MSG_DEBUG : OP_MSG_VERBOSE);
}

char **ppt_split_list(const char *list)
{
	char **v = op_xcalloc(strlen(list) + 2, sizeof(*v));
	size_t n = 0, len = 0;
	char *cur = op_xmalloc(strlen(list) + 1);
	const char *p;

	for (p = list;; p++) {
		if (*p == '\\' && p[1] == ',') {
			cur[len++] = ',';
			p++;
			continue;
		}
		if (*p == ',' || !*p) {
			cur[len] = '\0';
			if (len)
				v[n++] = op_xstrdup(cur);
			len = 0;
			if (!*p)
				break;
			continue;
		}
		cur[len++] = *p;
	}
	free(cur);
	return v;
}

void ppt_free_list(char **list)
{
	size_t i;

	for (i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

char *ppt_command_line(int argc, char **argv)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	int i;

	for (i = 0; i < argc; i++)
		op_strbuf_addf(&sb, "%s%s", i ? " " : "", argv[i]);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	return op_strbuf_detach(&sb);
}
