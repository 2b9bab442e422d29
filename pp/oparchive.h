/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oparchive's two steps (oparchive(1)): the plan, the list of files an
 * archive of a profile needs and where each goes below the archive
 * directory (oparchive_plan.c), and the copy of that list
 * (oparchive_copy.c).  Both print their own warnings and errors, as the
 * tool's parts.
 *
 * Every destination is the file's absolute path on this machine with
 * the leading '/' dropped, which is where opreport archive:DIR and the
 * symbol loader look (pp_session.h, pp_symbols.h): the session's
 * samples/NAME files and abi at the session directory's path, each
 * binary at its recorded path, its debug file where the loader looks for
 * it under the archive (.build-id/ below DIR/usr/lib/debug, or the
 * .debug/ directory beside the archived binary).
 */
#ifndef OPARCHIVE_H
#define OPARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pp/ppt_job.h"

enum oa_kind {
	OA_SESSION,	/* a sample file or another file of the session */
	OA_BINARY,	/* a binary samples fell in */
	OA_DEBUG,	/* the separate debug file of one */
};

struct oa_item {
	char *src;		/* absolute path read */
	size_t safe_len;	/* OA_SESSION: src's first safe_len bytes name
				 * the directory it is opened below without
				 * following links (op_dir.h); else 0 */
	char *dst;		/* relative to the archive directory */
	enum oa_kind kind;
	uint64_t size;		/* bytes when planned */
};

struct oa_plan {
	struct oa_item *v;	/* sorted by dst, each dst once */
	size_t nr, alloc;
	uint64_t total;		/* bytes of all items */
	char *session_dir;	/* the resolved session directory (borrowed
				 * from the job) */
	int status;		/* 1 when a file that was needed cannot be read */
};

/*
 * The files the job's profile needs: the selected sample files and the
 * session's other files, then every binary they name (with
 * exclude_dependent, only the applications' own), found as opreport
 * finds them (--root, the path, --image-path) and checked against the
 * build-id operf recorded, and their debug files.  A binary that is
 * missing or was rebuilt since is left out with a warning.  Dies only
 * when memory runs out.  Release with oa_plan_release().
 */
void oa_plan_make(struct oa_plan *plan, struct ppt_job *job, bool exclude_dependent);
void oa_plan_release(struct oa_plan *plan);

/*
 * Copy the plan's files below the directory out (made when missing);
 * each is written as DST.tmp and renamed over DST, so an existing
 * archive gets whole files, old or new.  progress: show a progress line
 * on stderr.  Returns 0, or 1 after printing what failed; a file that
 * cannot be read is named and the rest copied, a file that cannot be
 * written (a full disk) stops the copy.  No .tmp file is left behind,
 * also when SIGINT, SIGTERM or SIGHUP stops it.
 */
int oa_copy(const struct oa_plan *plan, const char *out, bool progress);

#endif
