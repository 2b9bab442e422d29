/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opcontrol, shared by its files: opcontrol.c parses the options and
 * saves the setup; opcontrol_ops.c finds, starts and talks to the daemon.
 */
#ifndef OPCONTROL_H
#define OPCONTROL_H

#include <stdbool.h>
#include <stdio.h>

#include "libutil/op_dir.h"

struct opcontrol_options {
	int list_events, init, setup, status, start_daemon, start, dump, stop;
	int shutdown, reset, deinit, no_vmlinux, version, verbose_given;
	char *event, *separate, *callgraph, *session_dir, *vmlinux, *image;
	char *buffer_size, *cpu_buffer_size, *save, *verbose;
	char *slice;
};

struct opcontrol {
	const struct opcontrol_options *o;
	const char *dir;	/* the session directory */
	struct op_dir top;	/* it, held (never through a symlink) */
};

/*
 * Hold the session directory, created (0700) when create is set: it must
 * be a real directory of this user's (or root's).  0 or 1 (said why).
 */
int opcontrol_open_dir(struct opcontrol *c, bool create);

/* --init: may this user run the daemon here?  0 or 1 */
int opcontrol_init(struct opcontrol *c);

/* does a daemon answer on the session's control socket? */
bool opcontrol_daemon_running(struct opcontrol *c);

/*
 * --start-daemon (profile false) or --start: start oprofiled if none
 * runs, else (with profile) ask it to start profiling.  0 or 1.
 */
int opcontrol_start_daemon(struct opcontrol *c, bool profile);

/*
 * Send request to the daemon and print its reply; need: a missing daemon
 * is an error (with the hint to start it), else a notice.  0 or 1.
 */
int opcontrol_request(struct opcontrol *c, const char *request, bool need);

/* --save=NAME, --reset, --status, --shutdown: 0 or 1 */
int opcontrol_save(struct opcontrol *c, const char *name);
int opcontrol_reset(struct opcontrol *c);
int opcontrol_status(struct opcontrol *c);
int opcontrol_shutdown(struct opcontrol *c);

/* --list-events: the events this machine can count, to out; 0 or 1 */
int opcontrol_list_events(FILE *out);

#endif
