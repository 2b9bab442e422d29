// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * operf --convert: the recording a killed --lazy-conversion run left,
 * turned into the sample files the run would have written (operf_run.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon/operf_run.h"
#include "libdb/odb.h"
#include "libdb/odb_session_info.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_error.h"
#include "libutil/op_strbuf.h"

/* is there a recording, a session.info and nothing converted yet?  */
static int check_session(struct run *r, struct odb_session_info *info)
{
	static const char *const trees[] = { "{root}", "{kern}" };
	struct stat st;
	size_t i;
	int ret;

	if (op_dir_stat(&r->session.sdir, OPERF_DATA, &st)) {
		op_error("no recording to convert: '%s' does not exist", r->stream_path);
		op_hint("only an operf --lazy-conversion run that was killed before "
			"converting leaves one");
		return 1;
	}
	if (r->session.cdir.fd < 0) {
		op_error("'%s' does not exist: the run of '%s' is unknown",
			 r->session.current, r->stream_path);
		return 1;
	}
	ret = odb_session_info_read(r->session.current, info);
	if (ret) {
		op_error("cannot read '%s/session.info': %s", r->session.current,
			 odb_strerror(ret));
		op_hint("the options of the recorded run are kept there");
		return 1;
	}
	for (i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		if (op_dir_stat(&r->session.cdir, trees[i], &st))
			continue;
		op_error("'%s' already holds sample files: converting '%s' into it "
			 "would count samples twice", r->session.current, r->stream_path);
		op_hint("move them away, then run operf --convert again");
		return 1;
	}
	return 0;
}

/* the events as the recording has them, for stats/ and the summary */
static void take_events(struct run *r)
{
	const struct opd_stream_info *info = opd_stream_reader_info(r->reader);

	r->evs.nr = info->nr_events;
	r->evs.events = op_xcalloc(info->nr_events ? info->nr_events : 1,
				   sizeof(*r->evs.events));
	memcpy(r->evs.events, info->events, info->nr_events * sizeof(*r->evs.events));
}

int operf_convert(struct run *r)
{
	struct odb_session_info info = { 0 };
	struct op_strbuf sb = OP_STRBUF_INIT;
	int ret;

	if (operf_open_session(r, true))
		return 1;
	op_strbuf_addf(&sb, "%s/%s", r->session.samples, OPERF_DATA);
	r->stream_path = op_strbuf_detach(&sb);
	if (!r->stream_path)
		op_die(1, "out of memory");
	ret = check_session(r, &info);
	if (ret)
		goto out;
	r->converting = true;
	opd_session_reserve(&r->session);
	r->target.kind = info.target == ODB_TARGET_SYSTEM ? OPD_TARGET_SYSTEM :
			 OPD_TARGET_PID;
	snprintf(r->started, sizeof(r->started), "%s", info.started ? info.started : "");
	r->cfg.samples = &r->session.cdir;
	r->cfg.separate_thread = info.separate_thread;
	r->cfg.separate_cpu = info.separate_cpu;
	r->cfg.callgraph = info.callgraph;
	r->cfg.slice_ns = info.slice_ns;
	r->cfg.vmlinux = info.vmlinux;
	r->cfg.cpu_speed = opd_cpu_speed();
	r->cfg.max_open_files = 1024;
	ret = operf_replay(r);
	if (!ret) {
		take_events(r);
		ret = operf_finish(r);
	}
out:
	odb_session_info_release(&info);
	return ret;
}
