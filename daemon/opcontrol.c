// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opcontrol: set up, start, dump, save, reset and stop the system-wide
 * profiling daemon (oprofiled), with OProfile's options.
 *
 *   opcontrol [setup options] [actions]
 *
 * The setup is kept in SESSION/daemonrc for the next start; actions talk
 * to the running daemon over its control socket (opd_ctl.h) and run in a
 * fixed order: --init, the setup, --start-daemon, --start, --dump,
 * --stop, --save, --reset, --status, --shutdown, --deinit.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/opcontrol.h"
#include "daemon/opd_ctl.h"
#include "daemon/operf_events.h"
#include "daemon/oprofiled.h"
#include "daemon/perf_events.h"
#include "libdb/odb_setup.h"
#include "libdb/odb_slices.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_parse.h"
#include "libutil/op_popt.h"

static struct opcontrol_options opts;

enum {
	OPT_EVENT = 1, OPT_SEPARATE, OPT_CALLGRAPH, OPT_SESSION_DIR, OPT_VMLINUX,
	OPT_IMAGE, OPT_BUFFER_SIZE, OPT_CPU_BUFFER_SIZE, OPT_SAVE, OPT_VERBOSE,
	OPT_SLICE,
};

static const struct poptOption options_table[] = {
	{ "list-events", 'l', POPT_ARG_NONE, &opts.list_events, 0,
	  "list the events this machine can count", NULL },
	{ "init", '\0', POPT_ARG_NONE, &opts.init, 0,
	  "create the session directory and check profiling is allowed", NULL },
	{ "setup", '\0', POPT_ARG_NONE, &opts.setup, 0,
	  "save the setup options given (also done without --setup)", NULL },
	{ "status", '\0', POPT_ARG_NONE, &opts.status, 0,
	  "show the daemon's state, setup and figures", NULL },
	{ "start-daemon", '\0', POPT_ARG_NONE, &opts.start_daemon, 0,
	  "start the daemon without starting profiling", NULL },
	{ "start", 's', POPT_ARG_NONE, &opts.start, 0,
	  "start profiling (and the daemon if needed)", NULL },
	{ "dump", 'd', POPT_ARG_NONE, &opts.dump, 0,
	  "write everything collected so far to the sample files", NULL },
	{ "stop", 't', POPT_ARG_NONE, &opts.stop, 0,
	  "stop profiling; the daemon keeps running", NULL },
	{ "shutdown", 'h', POPT_ARG_NONE, &opts.shutdown, 0,
	  "stop profiling and the daemon", NULL },
	{ "reset", '\0', POPT_ARG_NONE, &opts.reset, 0,
	  "clear the current samples (saved sessions are kept)", NULL },
	{ "save", '\0', POPT_ARG_STRING, NULL, OPT_SAVE,
	  "move the current samples to session NAME", "NAME" },
	{ "deinit", '\0', POPT_ARG_NONE, &opts.deinit, 0,
	  "shut the daemon down", NULL },
	{ "session-dir", '\0', POPT_ARG_STRING, NULL, OPT_SESSION_DIR,
	  "session directory (default " OPROFILED_DEFAULT_DIR ")", "DIR" },
	{ "buffer-size", '\0', POPT_ARG_STRING, NULL, OPT_BUFFER_SIZE,
	  "samples the ring buffers hold in all (0: the default)", "NUM" },
	{ "cpu-buffer-size", '\0', POPT_ARG_STRING, NULL, OPT_CPU_BUFFER_SIZE,
	  "samples each cpu's ring buffer holds (0: the default)", "NUM" },
	{ "slice", '\0', POPT_ARG_STRING, NULL, OPT_SLICE,
	  "count samples per slice of time of this length too (default 1 "
	  "second; 100ms, 0.5, ...; 0: none), for time: in reports", "SECONDS" },
	{ "event", 'e', POPT_ARG_STRING, NULL, OPT_EVENT,
	  "event NAME:count[:unitmask[:kernel[:user]]], several or 'default'", "EVENT" },
	{ "separate", 'p', POPT_ARG_STRING, NULL, OPT_SEPARATE,
	  "separate samples: none, lib, kernel, thread, cpu, all", "LIST" },
	{ "callgraph", 'c', POPT_ARG_STRING, NULL, OPT_CALLGRAPH,
	  "record call graphs this many frames deep (0: none)", "DEPTH" },
	{ "image", 'i', POPT_ARG_STRING, NULL, OPT_IMAGE,
	  "only profile these binaries (absolute paths), or 'all'", "LIST" },
	{ "vmlinux", '\0', POPT_ARG_STRING, NULL, OPT_VMLINUX,
	  "vmlinux file of the running kernel", "FILE" },
	{ "no-vmlinux", '\0', POPT_ARG_NONE, &opts.no_vmlinux, 0,
	  "no vmlinux: kernel samples go to no-vmlinux", NULL },
	{ "verbose", 'V', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_VERBOSE,
	  "verbose output, and debug output in the daemon's log", "LEVELS" },
	{ "version", 'v', POPT_ARG_NONE, &opts.version, 0,
	  "print the version and exit", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

static char **string_slot(struct opcontrol_options *o, int val)
{
	switch (val) {
	case OPT_EVENT:
		return &o->event;
	case OPT_SEPARATE:
		return &o->separate;
	case OPT_CALLGRAPH:
		return &o->callgraph;
	case OPT_SESSION_DIR:
		return &o->session_dir;
	case OPT_VMLINUX:
		return &o->vmlinux;
	case OPT_IMAGE:
		return &o->image;
	case OPT_BUFFER_SIZE:
		return &o->buffer_size;
	case OPT_CPU_BUFFER_SIZE:
		return &o->cpu_buffer_size;
	case OPT_SLICE:
		return &o->slice;
	case OPT_SAVE:
		return &o->save;
	default:
		return &o->verbose;
	}
}

/*
 * Several --event options add up (-e A -e B is -e A,B); any other string
 * option given twice keeps the last.  popt's strings are ours to free.
 */
static int handle_option(int val, poptContext ctx, void *data)
{
	struct opcontrol_options *o = data;
	char *arg = poptGetOptArg(ctx), **slot = string_slot(o, val);

	if (val == OPT_VERBOSE) {
		o->verbose_given = 1;
		if (!arg)
			return 0;
	}
	if (!arg)
		return op_usage_error("missing argument to an option");
	if (val == OPT_EVENT && *slot && strcmp(arg, "default") &&
	    strcmp(*slot, "default")) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		op_strbuf_addf(&sb, "%s,%s", *slot, arg);
		free(arg);
		arg = op_strbuf_detach(&sb);
		if (!arg)
			op_die(1, "out of memory");
	}
	free(*slot);
	*slot = arg;
	return 0;
}

static void options_release(struct opcontrol_options *o)
{
	free(o->event);
	free(o->separate);
	free(o->callgraph);
	free(o->session_dir);
	free(o->vmlinux);
	free(o->image);
	free(o->buffer_size);
	free(o->cpu_buffer_size);
	free(o->slice);
	free(o->save);
	free(o->verbose);
}

static bool has_setup(const struct opcontrol_options *o)
{
	return o->setup || o->event || o->separate || o->callgraph || o->vmlinux ||
	       o->no_vmlinux || o->image || o->buffer_size || o->cpu_buffer_size ||
	       o->slice;
}

static bool has_action(const struct opcontrol_options *o)
{
	return o->init || o->status || o->start_daemon || o->start || o->dump ||
	       o->stop || o->shutdown || o->reset || o->save || o->deinit ||
	       o->list_events;
}

static int apply_setup(const struct opcontrol_options *o, struct odb_setup *setup);

static int check_usage(const struct opcontrol_options *o, int nr_args)
{
	if (nr_args)
		return op_usage_error("opcontrol takes options only, no arguments");
	if (!has_setup(o) && !has_action(o))
		return op_usage_error("nothing to do: give an action (--start, "
				      "--dump, --status, ...) or setup options");
	if (o->session_dir && (!*o->session_dir || o->session_dir[0] != '/'))
		return op_usage_error("--session-dir must be an absolute path");
	if (o->vmlinux && o->no_vmlinux)
		return op_usage_error("--vmlinux and --no-vmlinux cannot be combined");
	if (o->save && opd_ctl_bad_session_name(o->save))
		return op_usage_error("--save='%s': %s", o->save,
				      opd_ctl_bad_session_name(o->save));
	if (o->verbose_given)
		op_msg_set_level(OP_MSG_VERBOSE);
	return 0;
}

/* every setup value checked before any action runs (apply_setup() says why) */
static int check_setup_values(const struct opcontrol_options *o)
{
	struct odb_setup scratch = { 0 };
	int ret = apply_setup(o, &scratch);

	if (!ret && o->vmlinux)
		ret = opd_front_check_vmlinux(o->vmlinux);
	odb_setup_release(&scratch);
	return ret;
}

/* the setup options given, applied to setup; 0, or -1 for a bad value (said) */
static int apply_setup(const struct opcontrol_options *o, struct odb_setup *setup)
{
	struct op_err err = { "" };
	uint64_t n;

	if (o->event) {
		free(setup->events);
		setup->events = strcmp(o->event, "default") ? op_xstrdup(o->event) : NULL;
	}
	if (o->separate && odb_setup_parse_separate(o->separate, &setup->separate, &err))
		return op_usage_error("%s", err.msg);
	if (o->callgraph) {
		if (op_parse_u64(o->callgraph, 10, ODB_SETUP_MAX_DEPTH, &n))
			return op_usage_error("--callgraph='%s': give a depth from 0 to %d",
					      o->callgraph, ODB_SETUP_MAX_DEPTH);
		setup->callgraph = (uint32_t)n;
	}
	if (o->vmlinux) {
		free(setup->vmlinux);
		setup->vmlinux = op_xstrdup(o->vmlinux);
		setup->no_vmlinux = false;
	}
	if (o->no_vmlinux) {
		free(setup->vmlinux);
		setup->vmlinux = NULL;
		setup->no_vmlinux = true;
	}
	if (o->image && odb_setup_parse_images(setup, o->image, &err))
		return op_usage_error("--image='%s': %s", o->image, err.msg);
	if (o->buffer_size) {
		if (op_parse_u64(o->buffer_size, 10, UINT32_MAX, &n))
			return op_usage_error("--buffer-size='%s': not a number of samples",
					      o->buffer_size);
		setup->buffer_size = n;
	}
	if (o->cpu_buffer_size) {
		if (op_parse_u64(o->cpu_buffer_size, 10, UINT32_MAX, &n))
			return op_usage_error("--cpu-buffer-size='%s': not a number of "
					      "samples", o->cpu_buffer_size);
		setup->cpu_buffer_size = n;
	}
	if (o->slice) {
		if (odb_slices_parse_length(o->slice, &n, &err))
			return op_usage_error("--slice: %s", err.msg);
		setup->slice_ns = n ? n : ODB_SETUP_NO_SLICES;
	}
	return 0;
}

/* save the setup; 0, 1 or 2 */
static int do_setup(struct opcontrol *c)
{
	struct odb_setup setup;
	struct op_err err = { "" };
	struct operf_events evs = { 0 };
	int ret;

	ret = odb_setup_read(c->dir, &setup, &err);
	if (ret && ret != -ENOENT) {
		op_warning("'%s/" ODB_SETUP_FILE "' is damaged (%s): starting from "
			   "the defaults", c->dir, err.msg);
		odb_setup_release(&setup);
		memset(&setup, 0, sizeof(setup));
	}
	ret = apply_setup(c->o, &setup) || (c->o->vmlinux && opd_front_check_vmlinux(c->o->vmlinux))
	      ? 2 : 0;
	if (!ret && setup.events) {
		/* the events must parse and exist here: said now, not at --start */
		ret = operf_events_choose(&evs, setup.events);
		operf_events_release(&evs);
	}
	if (!ret && opcontrol_daemon_running(c)) {
		op_error("the daemon is running with its setup: a new one takes "
			 "effect when it starts again");
		op_hint("opcontrol --shutdown, then opcontrol --start with these options");
		ret = 1;
	}
	if (!ret) {
		ret = odb_setup_write(&c->top, &setup);
		if (ret) {
			op_error("cannot write '%s/" ODB_SETUP_FILE "': %s", c->dir,
				 strerror(-ret));
			ret = 1;
		} else {
			op_debug("setup saved in '%s/" ODB_SETUP_FILE "'", c->dir);
		}
	}
	odb_setup_release(&setup);
	return ret;
}

static int list_events(void)
{
	return opcontrol_list_events(stdout);
}

/* each action asked for, in order; the first failure ends it */
static int run(struct opcontrol *c)
{
	int ret = 0;

	if (c->o->list_events && (ret = list_events()))
		return ret;
	if (!c->o->init && !has_setup(c->o) && !c->o->start && !c->o->start_daemon &&
	    !c->o->status && !c->o->reset && !c->o->save && !c->o->shutdown &&
	    !c->o->deinit && !c->o->dump && !c->o->stop)
		return 0;	/* --list-events only */
	if (c->o->status && !c->o->init && !has_setup(c->o) && !c->o->start &&
	    !c->o->start_daemon && access(c->dir, F_OK) && errno == ENOENT) {
		printf("Daemon not running\nSession directory: %s (not made yet)\n",
		       c->dir);
		return 0;
	}
	ret = opcontrol_open_dir(c, c->o->init || has_setup(c->o) ||
				 c->o->start || c->o->start_daemon);
	if (ret)
		return ret;
	if (c->o->init && (ret = opcontrol_init(c)))
		return ret;
	if (has_setup(c->o) && (ret = do_setup(c)))
		return ret;
	if (c->o->start_daemon && (ret = opcontrol_start_daemon(c, false)))
		return ret;
	if (c->o->start && (ret = opcontrol_start_daemon(c, true)))
		return ret;
	if (c->o->dump && (ret = opcontrol_request(c, "dump", true)))
		return ret;
	if (c->o->stop && (ret = opcontrol_request(c, "stop", true)))
		return ret;
	if (c->o->save && (ret = opcontrol_save(c, c->o->save)))
		return ret;
	if (c->o->reset && (ret = opcontrol_reset(c)))
		return ret;
	if (c->o->status && (ret = opcontrol_status(c)))
		return ret;
	if ((c->o->shutdown || c->o->deinit) && (ret = opcontrol_shutdown(c)))
		return ret;
	return 0;
}

int main(int argc, char **argv)
{
	struct opcontrol c = { .o = &opts, .top = OP_DIR_INIT };
	poptContext ctx;
	int nr_args, status;

	if (op_popt_parse(&ctx, argc, argv, options_table, "[options]",
			  POPT_CONTEXT_POSIXMEHARDER, handle_option, &opts)) {
		options_release(&opts);
		return 2;
	}
	if (opts.version) {
		printf("opcontrol (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out;
	}
	op_popt_args(ctx, &nr_args);
	if (check_usage(&opts, nr_args) || check_setup_values(&opts)) {
		status = 2;
		goto out;
	}
	c.dir = opts.session_dir ? opts.session_dir : OPROFILED_DEFAULT_DIR;
	status = run(&c);
	op_dir_close(&c.top);
out:
	poptFreeContext(ctx);
	options_release(&opts);
	return status;
}
