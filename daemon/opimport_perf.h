/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opimport --perf-data: a perf record file (or pipe) made into a session
 * by operf's engine.  Tool level: prints its errors.
 */
#ifndef OPIMPORT_PERF_H
#define OPIMPORT_PERF_H

#include <stdbool.h>

/*
 * Import path ("-": standard input) into session_dir (NULL:
 * ./oprofile_data)/samples/current, replacing an existing current/ (it
 * becomes previous/) only with force.  Returns the exit status: 0, or
 * 1 after printing why not.
 */
int opimport_perf_data(const char *path, const char *session_dir, bool force);

#endif
