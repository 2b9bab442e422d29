/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Perf map files of JIT code: at the end of a run, the /tmp/perf-PID.map
 * of each process that has samples in anonymous memory is copied into
 * the session (oprofile-ng-session(5), JIT CODE), so that reports name
 * the generated code after the process and its file are gone.
 */
#ifndef OPD_JIT_H
#define OPD_JIT_H

#include <stddef.h>

#include "libutil/op_dir.h"

/*
 * Copy the map files of the processes with anonymous-memory sample
 * files under current (the run's samples directory) into current/jit/.
 * Returns how many were copied, or a negative errno when one could not
 * be written (*failed names its process's file).
 */
int opd_jit_store(const struct op_dir *current, char *failed, size_t failed_len);

#endif
