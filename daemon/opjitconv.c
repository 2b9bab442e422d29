// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opjitconv: make the jitdump files of JIT runtimes into ELF images of
 * their code (opd_jitelf.h), into a session's samples/current/jit/PID.jo
 * where the report tools name the code from, or into a file of one's own;
 * without files, the jitdumps the session's last run listed.
 * operf does the same at the end of each run for the jitdumps the
 * profiled processes mapped; this tool is for runs that could not (a
 * dump written after operf stopped, a session made elsewhere).
 *
 * It lives in daemon/ beside the conversion operf runs (opd_jit.c).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon/opd_jit.h"
#include "daemon/opd_jitdump.h"
#include "libdb/odb.h"
#include "libdb/odb_session.h"
#include "libutil/op_dir.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"

struct opjitconv_options {
	char *session_dir;	/* --session-dir DIR */
	char *output;		/* -o FILE */
	char *pid;		/* --pid PID */
	int debug;
	int version;
};

static struct opjitconv_options opts;

static const struct poptOption options_table[] = {
	{ "session-dir", '\0', POPT_ARG_STRING, &opts.session_dir, 0,
	  "store the images in DIR/samples/current/jit (default ./oprofile_data)",
	  "DIR" },
	{ "output", 'o', POPT_ARG_STRING, &opts.output, 0,
	  "write the image of the one JITDUMP to FILE instead", "FILE" },
	{ "pid", 'p', POPT_ARG_STRING, &opts.pid, 0,
	  "the process the code ran in (default: the one the dump names)", "PID" },
	{ "debug", 'd', POPT_ARG_NONE, &opts.debug, 0,
	  "say what each jitdump held and where its image went", NULL },
	{ "version", 'v', POPT_ARG_NONE, &opts.version, 0,
	  "print the version and exit", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

/* --pid's value into *pid; false when it is not a process id */
static bool parse_pid(const char *s, uint32_t *pid)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || !v || v > UINT32_MAX)
		return false;
	*pid = (uint32_t)v;
	return true;
}

/* DIR/samples/current, held in *d; 1 after saying why not */
static int open_current(struct op_dir *d)
{
	const char *dir = opts.session_dir ? opts.session_dir : "oprofile_data";
	struct op_strbuf sb = OP_STRBUF_INIT;
	int ret;

	op_strbuf_addf(&sb, "%s/samples/current", dir);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	ret = op_dir_open_path(d, sb.buf);
	if (ret) {
		op_error("no session in '%s': cannot open '%s': %s", dir, sb.buf,
			 op_strerror(ret));
		op_hint("give the session operf wrote with --session-dir, or a file with -o");
	}
	op_strbuf_release(&sb);
	return ret ? 1 : 0;
}

/* the session's list of the last run's jitdumps into *l; 1 after saying why not */
static int read_list(const struct op_dir *current, struct opd_jit_dumps *l)
{
	char *text;
	size_t len;
	int ret = odb_session_read(current->path, ODB_SESSION_JITDUMPS, (size_t)64 << 20,
				   &text, &len);

	if (ret == -ENOENT) {
		op_error("no jitdump to convert: '%s/" ODB_SESSION_JITDUMPS "' does not exist",
			 current->path);
		op_hint("operf lists there the jitdumps its processes mapped; "
			"give the jitdump files instead");
		return 1;
	}
	if (ret) {
		op_error("cannot read '%s/" ODB_SESSION_JITDUMPS "': %s", current->path,
			 odb_strerror(ret));
		return 1;
	}
	opd_jit_dumps_parse(l, text);
	free(text);
	return 0;
}

/* convert path into the session (current) or to opts.output; 0 or 1 */
static int convert(const char *path, const struct op_dir *current, uint32_t pid)
{
	struct opd_jit_conv c;
	int ret = opd_jit_convert(path, false, &c);

	if (ret) {
		op_error("cannot convert '%s': %s", path, opd_jitdump_strerror(ret));
		if (ret == -ELOOP || ret == -EINVAL)
			op_hint("give the jitdump itself, not a symlink or another kind of file");
		return 1;
	}
	if (c.cut)
		op_warning("'%s' ends in the middle of a record (its writer stopped "
			   "early): the code before it is converted", path);
	if (!pid)
		pid = c.pid;
	if (opts.output)
		ret = op_write_file_atomic(opts.output, c.image, c.len, 0644);
	else
		ret = odb_session_store_jitelf(current, pid, c.image, c.len);
	free(c.image);
	if (ret) {
		if (opts.output)
			op_error("cannot write '%s': %s", opts.output, op_strerror(ret));
		else
			op_error("cannot store the image of '%s' in '%s/jit': %s", path,
				 current->path, op_strerror(ret));
		return 1;
	}
	if (opts.debug) {
		printf("%s: pid %" PRIu32 ", %zu code loads and moves, %zu symbols -> ",
		       path, c.pid, c.nr_codes, c.nr_syms);
		if (opts.output)
			printf("%s\n", opts.output);
		else
			printf("%s/jit/%" PRIu32 ".jo\n", current->path, pid);
	}
	return 0;
}

/* the dumps of the session's list, each as the code of its process */
static int convert_listed(const struct op_dir *current, uint32_t pid)
{
	struct opd_jit_dumps l = { 0 };
	struct stat st;
	int status = read_list(current, &l);
	size_t i;

	for (i = 0; !status && i < l.nr; i++) {
		if (lstat(l.v[i].path, &st) && errno == ENOENT) {
			op_warning("'%s' is gone: jit/%" PRIu32 ".jo stays as it was",
				   l.v[i].path, l.v[i].tgid);
			continue;
		}
		if (convert(l.v[i].path, current, pid ? pid : l.v[i].tgid))
			status = 1;
	}
	opd_jit_dumps_release(&l);
	return status;
}

static int run(int nr, const char **args)
{
	struct op_dir current = OP_DIR_INIT;
	uint32_t pid = 0;
	int i, status = 0;

	if (!nr && opts.output)
		return op_usage_error("-o writes the image of one jitdump: give it"), 2;
	if (opts.output && nr > 1)
		return op_usage_error("-o writes one image: give one jitdump, not %d", nr), 2;
	if (opts.output && opts.session_dir)
		return op_usage_error("give -o or --session-dir, not both"), 2;
	if (opts.pid && !parse_pid(opts.pid, &pid))
		return op_usage_error("--pid: '%s' is not a process id", opts.pid), 2;
	if (!opts.output && open_current(&current))
		return 1;
	if (!nr)
		status = convert_listed(&current, pid);
	for (i = 0; i < nr; i++)
		if (convert(args[i], &current, pid))
			status = 1;
	op_dir_close(&current);
	return status;
}

int main(int argc, char **argv)
{
	const char **args;
	poptContext ctx;
	int nr, status;

	if (op_popt_parse(&ctx, argc, argv, options_table, "[JITDUMP...]", 0, NULL, NULL)) {
		status = 2;
		goto out;
	}
	args = op_popt_args(ctx, &nr);
	if (opts.version) {
		printf("opjitconv (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
	} else {
		status = run(nr, args);
	}
	poptFreeContext(ctx);
out:
	free(opts.session_dir);
	free(opts.output);
	free(opts.pid);
	return status;
}
