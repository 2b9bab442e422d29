/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Records describing processes that existed before profiling started
 * (--pid, --system-wide), made from /proc the way the kernel would have
 * reported them: a COMM record marked as an exec, then an MMAP2 record per
 * executable mapping, the main executable's first (so it becomes the
 * app).  They carry time 0 and go through the engine (and any recorded
 * stream) like kernel records, so a replay sees the same processes.
 */
#ifndef OPD_SYNTH_H
#define OPD_SYNTH_H

#include <stdint.h>
#include <sys/types.h>

#include "libutil/op_strbuf.h"

/*
 * Append the records of process pid to out.  A process that is gone
 * adds nothing.  Returns 0 or -ENOMEM.
 */
int opd_synth_process(struct op_strbuf *out, pid_t pid, uint64_t sample_type);

/* the same for every process in /proc */
int opd_synth_all(struct op_strbuf *out, uint64_t sample_type);

/*
 * Append the COMM record of the exec of command (a path, or a name
 * looked up in PATH) that process pid, operf's child waiting to run it,
 * is about to do: the engine then knows the
 * process from its first sample on, and holds the samples the kernel
 * takes while it loads the program until the program's mapping names
 * their application.  Returns 0 or -ENOMEM.
 */
int opd_synth_exec(struct op_strbuf *out, pid_t pid, const char *command,
		   uint64_t sample_type);

#endif
