// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opimport: convert sample files written on another ABI (byte order and
 * structure layout, given by the source session's abi file) into this
 * machine's, as OProfile's opimport does.  One file (-o names the output
 * file), or a whole session or samples/NAME directory (-o names the output
 * directory): then every sample file is converted under its own relative
 * name, the session's other files (session.info, stats/, ...) are copied,
 * and a native abi file is written.  The conversion is libdb's
 * (odb_import.h); this file parses options and walks directories.
 *
 * With --perf-data, a perf record file or pipe becomes a session instead
 * (opimport_perf.h): that import feeds operf's engine, which is why
 * opimport lives in daemon/.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon/opimport_perf.h"
#include "libdb/odb.h"
#include "libdb/odb_abi.h"
#include "libdb/odb_import.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"

#define META_MAX ((size_t)256 << 20)

struct import_options {
	char *abi;		/* -a FILE */
	char *output;		/* -o FILE-or-DIR */
	char *perf_data;	/* --perf-data FILE */
	char *session_dir;	/* --session-dir DIR, with --perf-data */
	int force;
	int verbose;
	int version;
};

static struct import_options opts;

static const struct poptOption options_table[] = {
	{ "abi", 'a', POPT_ARG_STRING, &opts.abi, 0,
	  "abi file of the session the input comes from "
	  "(default for a session directory: its abi file)", "FILE" },
	{ "output", 'o', POPT_ARG_STRING, &opts.output, 0,
	  "output sample file, or output directory for a directory input",
	  "FILE-or-DIR" },
	{ "perf-data", 0, POPT_ARG_STRING, &opts.perf_data, 0,
	  "import a perf record file ('-': a pipe on the standard input) "
	  "into a session", "FILE" },
	{ "session-dir", 0, POPT_ARG_STRING, &opts.session_dir, 0,
	  "session directory --perf-data writes (default ./oprofile_data)", "DIR" },
	{ "force", 'f', POPT_ARG_NONE, &opts.force, 0,
	  "convert even when the input abi is identical to this machine's; "
	  "with --perf-data, replace the session's current profile", NULL },
	{ "verbose", 'V', POPT_ARG_NONE, &opts.verbose, 0,
	  "name each file as it is converted or copied", NULL },
	{ "version", 'v', POPT_ARG_NONE, &opts.version, 0,
	  "print the version and exit", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

static void import_options_release(struct import_options *o)
{
	free(o->abi);
	free(o->output);
	free(o->perf_data);
	free(o->session_dir);
	o->abi = o->output = o->perf_data = o->session_dir = NULL;
}

/* the files of a directory tree, relative to its root */
struct tree {
	char **rel;
	size_t nr;
	size_t alloc;
};

static struct tree walked;	/* nftw() has no user data argument */
static size_t walk_root_len;

static int walk_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type != FTW_F)
		return 0;
	if (walked.nr == walked.alloc) {
		walked.alloc = walked.alloc ? 2 * walked.alloc : 64;
		walked.rel = op_xreallocarray(walked.rel, walked.alloc,
					      sizeof(*walked.rel));
	}
	walked.rel[walked.nr++] = op_xstrdup(path + walk_root_len + 1);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk_tree(const char *root)
{
	walk_root_len = strlen(root);
	if (nftw(root, walk_one, 32, FTW_PHYS))
		return op_error_errno(errno, "cannot read directory '%s'", root);
	qsort(walked.rel, walked.nr, sizeof(*walked.rel), by_name);
	return 0;
}

static void tree_release(struct tree *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->rel[i]);
	free(t->rel);
	memset(t, 0, sizeof(*t));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * Is rel (relative to the input root) a sample file?  Sample files are
 * the files below a profile's {root}/ and {kern}/ trees (their mangled
 * names, oprofile-ng-formats(5)), but for JIT .jo images; in a session
 * the profile is samples/NAME/, in a samples/NAME directory the input
 * itself.  Everything else there (session.info, stats/, comms, build ids,
 * long names, kernel/, jit/) is not.
 */
static bool is_sample_file(const char *rel, bool session)
{
	if (session) {
		if (strncmp(rel, "samples/", 8))
			return false;
		rel = strchr(rel + 8, '/');
		if (!rel)
			return false;
		rel++;
	}
	if (strncmp(rel, "{root}/", 7) && strncmp(rel, "{kern}/", 7))
		return false;
	return !ends_with(rel, ".jo");
}

static char *join(const char *dir, const char *rel)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	if (op_strbuf_addf(&sb, "%s/%s", dir, rel))
		op_die(1, "out of memory");
	return op_strbuf_detach(&sb);
}

static int report(int err, bool in_failed, const char *in, const char *out)
{
	if (in_failed)
		return op_error("cannot convert sample file '%s': %s", in,
				odb_strerror(err));
	return op_error("cannot write sample file '%s': %s", out,
			odb_strerror(err));
}

/* read and convert every sample file without writing: fail before writing */
static int check_inputs(const struct odb_import_layout *lay, const char *root,
			bool session)
{
	struct opd_header hdr;
	struct odb_node *nodes;
	char *path, *data;
	size_t i, len, nr;
	int err;

	for (i = 0; i < walked.nr; i++) {
		if (!is_sample_file(walked.rel[i], session))
			continue;
		path = join(root, walked.rel[i]);
		err = op_read_file(path, (size_t)1 << 36, &data, &len);
		if (!err) {
			err = odb_import_parse(lay, (unsigned char *)data, len,
					       &hdr, &nodes, &nr);
			if (!err)
				free(nodes);
			free(data);
		}
		if (err) {
			op_error("cannot convert sample file '%s': %s", path,
				 odb_strerror(err));
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

static int copy_file(const char *in, const char *out)
{
	char *data;
	size_t len;
	int err;

	err = op_read_file(in, META_MAX, &data, &len);
	if (err)
		return op_error("cannot read '%s': %s", in, odb_strerror(err));
	err = op_write_file_atomic(out, data, len, 0644);
	free(data);
	if (err)
		return op_error("cannot write '%s': %s", out, odb_strerror(err));
	return 0;
}

static int write_native_abi(const char *out_dir)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_abi native;
	char *path = join(out_dir, "abi");
	int err;

	odb_abi_native(&native);
	if (odb_abi_format(&native, &sb))
		op_die(1, "out of memory");
	err = op_write_file_atomic(path, sb.buf, sb.len, 0644);
	if (err)
		op_error("cannot write '%s': %s", path, odb_strerror(err));
	op_strbuf_release(&sb);
	free(path);
	return err ? -1 : 0;
}

static int import_one(const struct odb_import_layout *lay, const char *in,
		      const char *out, const struct import_options *o)
{
	bool in_failed;
	int err;

	if (ends_with(in, ".jo"))
		return 0;	/* JIT ELF files carry no samples (OProfile) */
	err = odb_import_file(lay, in, out, &in_failed);
	if (err)
		return report(err, in_failed, in, out);
	if (o->verbose)
		fprintf(stderr, "opimport: converted '%s' to '%s'\n", in, out);
	return 0;
}

static int import_dir(const struct odb_import_layout *lay, const char *root,
		      bool session, const struct import_options *o)
{
	char *in, *out;
	size_t i;
	int err = 0;

	if (walk_tree(root) || check_inputs(lay, root, session))
		return -1;
	err = op_mkdir_p(o->output, 0755);
	if (err)
		return op_error("cannot create directory '%s': %s", o->output,
				odb_strerror(err));
	for (i = 0; i < walked.nr && !err; i++) {
		const char *rel = walked.rel[i];

		if (session && !strcmp(rel, "abi"))
			continue;
		in = join(root, rel);
		out = join(o->output, rel);
		err = op_mkdir_parents(out, 0755);
		if (err)
			err = op_error("cannot create the directory of '%s': %s",
				       out, odb_strerror(err));
		else if (is_sample_file(rel, session))
			err = import_one(lay, in, out, o);
		else if ((err = copy_file(in, out)) == 0 && o->verbose)
			fprintf(stderr, "opimport: copied '%s'\n", in);
		free(in);
		free(out);
	}
	if (!err && session)
		err = write_native_abi(o->output);
	return err;
}

static int load_layout(const char *abi_path, bool force,
		       struct odb_import_layout *lay)
{
	struct odb_abi abi, native;
	size_t idx = 0;
	char *text;
	size_t len;
	int err;

	err = op_read_file(abi_path, (size_t)64 << 10, &text, &len);
	if (err)
		return op_error("cannot read abi file '%s': %s", abi_path,
				odb_strerror(err));
	odb_abi_parse(text, len, &abi);
	free(text);
	err = odb_import_layout_init(lay, &abi, &idx);
	if (err == ODB_ERR_ABI_MISSING_KEY)
		return op_error("bad abi file '%s': missing key '%s'", abi_path,
				odb_abi_key_name(idx));
	if (err)
		return op_error("bad abi file '%s': %s", abi_path,
				odb_strerror(err));
	odb_abi_native(&native);
	if (!force && !odb_abi_differs(&abi, &native, &idx)) {
		op_error("input abi '%s' is identical to native; no conversion necessary",
			 abi_path);
		fprintf(stderr, "hint: use --force to convert anyway\n");
		return -1;
	}
	return 0;
}

static int run(const char *input, struct import_options *o)
{
	struct odb_import_layout lay;
	char *abi_path = NULL, *probe;
	bool session;
	int ret;

	if (!op_is_dir(input)) {
		if (!o->abi) {
			op_usage_error("--abi is required for a single sample file");
			return 2;
		}
		if (load_layout(o->abi, o->force, &lay))
			return 1;
		return import_one(&lay, input, o->output, o) ? 1 : 0;
	}
	probe = join(input, "samples");
	session = op_is_dir(probe);
	free(probe);
	if (!o->abi && session)
		abi_path = join(input, "abi");
	if (!o->abi && !session) {
		op_usage_error("--abi is required for a samples directory");
		return 2;
	}
	ret = load_layout(o->abi ? o->abi : abi_path, o->force, &lay) ||
	      import_dir(&lay, input, session, o) ? 1 : 0;
	free(abi_path);
	tree_release(&walked);
	return ret;
}

int main(int argc, char **argv)
{
	const char **args;
	poptContext ctx;
	int nr, ret;

	if (op_popt_parse(&ctx, argc, argv, options_table, "INPUT", 0, NULL, NULL))
		return 2;
	if (opts.version) {
		printf("opimport (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		ret = 0;
		goto out;
	}
	args = op_popt_args(ctx, &nr);
	ret = 2;
	if (opts.perf_data && (nr || opts.output || opts.abi))
		op_usage_error("--perf-data takes no input, --output or --abi");
	else if (opts.perf_data)
		ret = opimport_perf_data(opts.perf_data, opts.session_dir, opts.force);
	else if (opts.session_dir)
		op_usage_error("--session-dir goes with --perf-data");
	else if (nr != 1)
		op_usage_error("expected one input file or directory, got %d", nr);
	else if (!opts.output)
		op_usage_error("--output is required");
	else
		ret = run(args[0], &opts);
out:
	poptFreeContext(ctx);
	import_options_release(&opts);
	return ret;
}
