// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What operf recorded beside the samples of a session (see pp_session.h),
 * read through libdb, which owns those files: session.info
 * (libdb/odb_session_info.h), stats/ (libdb/odb_stats.h) and the kernel
 * copies (libdb/odb_session.h).  Everything is optional: a session made
 * by OProfile 1.4 has only stats/, and a file that cannot be read or
 * parsed leaves its fields empty.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb_session.h"
#include "libpp/profile/pp_session.h"
#include "libpp/profile/profile_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"

static char *kernel_copy(const char *dir, enum odb_kernel_copy which)
{
	int err;
	char *path = odb_session_kernel_copy(dir, which, &err);

	if (!path && err == -ENOMEM)
		op_die(1, "out of memory");
	return path;
}

void pp_session_lines(const char *dir, const char *name, size_t max,
		      void (*fn)(void *data, char *line), void *data)
{
	char *text = NULL, *line, *next;
	size_t len;
	int ret = odb_session_read(dir, name, max, &text, &len);

	if (ret == -ENOMEM)
		op_die(1, "out of memory");
	for (line = text; !ret && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		fn(data, line);
	}
	free(text);
}

void pp_session_info_read(const struct pp_session_dir *sd, const char *name,
			  struct pp_session_info *info)
{
	char *dir = pp_session_path(sd, name);
	size_t len;
	int ret;

	memset(info, 0, sizeof(*info));
	ret = odb_session_info_read(dir, &info->run);
	if (ret == -ENOMEM || odb_stats_read(dir, &info->stats) == -ENOMEM)
		op_die(1, "out of memory");
	info->kallsyms = kernel_copy(dir, ODB_KERNEL_KALLSYMS);
	info->modules = kernel_copy(dir, ODB_KERNEL_MODULES);
	info->vdso = kernel_copy(dir, ODB_KERNEL_VDSO);
	len = strlen(dir);
	info->jit_dir = op_xmalloc(len + sizeof("/" ODB_SESSION_JIT_DIR));
	memcpy(info->jit_dir, dir, len);
	memcpy(info->jit_dir + len, "/" ODB_SESSION_JIT_DIR, sizeof("/" ODB_SESSION_JIT_DIR));
	if (!op_is_dir(info->jit_dir)) {
		free(info->jit_dir);
		info->jit_dir = NULL;
	}
	pp_comms_read(dir, &info->comms);
	pp_buildids_read(dir, &info->buildids);
	free(dir);
}

void pp_session_info_release(struct pp_session_info *info)
{
	if (!info)
		return;
	odb_session_info_release(&info->run);
	odb_stats_release(&info->stats);
	free(info->kallsyms);
	free(info->modules);
	free(info->vdso);
	free(info->jit_dir);
	pp_comms_release(&info->comms);
	pp_buildids_release(&info->buildids);
	memset(info, 0, sizeof(*info));
}
