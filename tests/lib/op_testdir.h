/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fresh temporary directories for unit tests: each test works in its own
 * mkdtemp() directory under $TMPDIR (never the current directory), removed
 * afterwards unless OP_TEST_KEEP is set in the environment.
 */
#ifndef OP_TESTDIR_H
#define OP_TESTDIR_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libutil/op_dir.h"
#include "libutil/op_file.h"

struct op_testdir {
	char path[512];		/* short: a name appended always fits PATH_MAX */
};

/* make the directory; returns 0 or -1 */
static inline int op_testdir_make(struct op_testdir *dir)
{
	const char *tmp = getenv("TMPDIR");
	int n;

	n = snprintf(dir->path, sizeof(dir->path), "%s/optest.XXXXXX",
		     tmp && *tmp ? tmp : "/tmp");
	if (n < 0 || (size_t)n >= sizeof(dir->path))
		return -1;
	return mkdtemp(dir->path) ? 0 : -1;
}

/* path of name inside the directory, in buf */
static inline const char *op_testdir_file(const struct op_testdir *dir,
					  const char *name, char *buf,
					  size_t size)
{
	int n = snprintf(buf, size, "%s/%s", dir->path, name);

	return n < 0 || (size_t)n >= size ? NULL : buf;
}

/* make directory path if missing and hold it as d (libutil/op_dir.h) */
static inline int op_testdir_hold(const char *path, struct op_dir *d)
{
	int ret = op_mkdir_p(path, 0755);

	*d = (struct op_dir)OP_DIR_INIT;
	return ret ? ret : op_dir_open_path(d, path);
}

static inline void op_testdir_remove(struct op_testdir *dir)
{
	if (!getenv("OP_TEST_KEEP"))
		op_remove_tree(dir->path);
}

#endif
