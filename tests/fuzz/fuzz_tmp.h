/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A scratch directory of a fuzz target's own under $TMPDIR (else /tmp),
 * made at the first call, holding one file that the target rewrites for
 * each input; both are removed at exit.
 */
#ifndef FUZZ_TMP_H
#define FUZZ_TMP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_tmp_dir[64];
static char fuzz_tmp_file[128];

static void fuzz_tmp_remove(void)
{
	unlink(fuzz_tmp_file);
	rmdir(fuzz_tmp_dir);
}

/* the directory ("TARGET.XXXXXX"); the file's path is fuzz_tmp_file */
static inline const char *fuzz_tmp(const char *target, const char *file)
{
	if (!fuzz_tmp_dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(fuzz_tmp_dir, sizeof(fuzz_tmp_dir), "%s/%s.XXXXXX",
			 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp", target);
		if (!mkdtemp(fuzz_tmp_dir))
			abort();
		snprintf(fuzz_tmp_file, sizeof(fuzz_tmp_file), "%s/%s", fuzz_tmp_dir, file);
		atexit(fuzz_tmp_remove);
	}
	return fuzz_tmp_dir;
}

#endif
