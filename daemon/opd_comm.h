/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names of the profiled processes and threads (their comm, as the
 * kernel's COMM records give it) and the executable each process ran,
 * kept for the whole run, so that reports can label columns of threads
 * and processes and show a program by the name it was started as
 * ("as" for x86_64-linux-gnu-as).  Written at the end of a run as the
 * session's "comms" file (oprofile-ng-session(5), PROCESS NAMES).
 */
#ifndef OPD_COMM_H
#define OPD_COMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_hmap.h"
#include "libutil/op_strbuf.h"

struct opd_comm {
	uint32_t tgid;
	uint32_t tid;
	uint32_t app;		/* cookie of the executable, 0 unknown */
	char comm[16];
};

struct opd_comms {
	struct opd_comm *v;	/* in the order first seen */
	size_t nr, alloc;
	struct op_hmap index;	/* of all fields -> index + 1 */
	/*
	 * Without --separate-thread the reports ask the comms only for the
	 * name a program ran as: then a name is kept once per program
	 * (the first tgid and tid it was seen with), names of no known
	 * program not at all, so that process churn does not grow them.
	 */
	bool apps_only;
};

/* at most this many are kept (a fork storm does not grow them for ever) */
#define OPD_COMMS_MAX 1000000

void opd_comms_init(struct opd_comms *c);
void opd_comms_release(struct opd_comms *c);

/* note that thread tid of process tgid was called comm (running app, or
 * 0); a name seen before is kept once.  Dies on allocation failure. */
void opd_comms_add(struct opd_comms *c, uint32_t tgid, uint32_t tid,
		   const char *comm, uint32_t app);

/*
 * The file's text into sb: "TGID TID COMM PATH" lines, COMM and PATH
 * (app_path(data, cookie), "-" when unknown) with bytes outside
 * printable ASCII, blanks and backslashes written as \xHH.
 */
void opd_comms_text(const struct opd_comms *c, struct op_strbuf *sb,
		    const char *(*app_path)(void *data, uint32_t cookie), void *data);

#endif
