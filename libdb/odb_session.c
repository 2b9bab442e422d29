// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel copies and other files of a session (see odb_session.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_int.h"
#include "libdb/odb_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

static const char *const kernel_copies[] = {
	[ODB_KERNEL_KALLSYMS] = "kernel/kallsyms",
	[ODB_KERNEL_MODULES] = "kernel/modules",
	[ODB_KERNEL_VDSO] = "kernel/vdso.so",
};

char *odb_path_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name), size;
	char *path;

	if (!op_add_size(a, b, &size) || !op_add_size(size, 2, &size))
		return NULL;
	path = op_malloc(size);
	if (path)
		snprintf(path, size, "%s/%s", dir, name);
	return path;
}

int odb_session_read(const char *dir, const char *name, size_t max, char **text,
		     size_t *len)
{
	char *path = odb_path_join(dir, name);
	int ret;

	*text = NULL;
	if (!path)
		return -ENOMEM;
	ret = op_read_plain_file(path, max, text, len);
	free(path);
	/* a symlink, FIFO, device, socket or directory: never read */
	if (ret == -ELOOP || ret == -EINVAL || ret == -EISDIR)
		ret = ODB_ERR_NOT_REGULAR;
	return ret;
}

/* write dir/name (its directories made as needed) whole */
static int store_file(const struct op_dir *dir, const char *name, const void *data,
		      size_t len)
{
	int ret = op_dir_mkparents(dir, name, 0755);

	return ret ? ret : op_dir_write_file(dir, name, data, len, 0644);
}

static int store_one(const struct op_dir *dir, enum odb_kernel_copy which,
		     const char *text, size_t len)
{
	return text ? store_file(dir, kernel_copies[which], text, len) : 0;
}

int odb_session_store_kernel(const struct op_dir *dir, const char *kallsyms,
			     size_t kallsyms_len, const char *modules,
			     size_t modules_len)
{
	int ret = store_one(dir, ODB_KERNEL_KALLSYMS, kallsyms, kallsyms_len);

	return ret ? ret : store_one(dir, ODB_KERNEL_MODULES, modules, modules_len);
}

int odb_session_store_vdso(const struct op_dir *dir, const void *image, size_t len)
{
	return store_one(dir, ODB_KERNEL_VDSO, (const char *)image, len);
}

int odb_session_store_comms(const struct op_dir *dir, const char *text, size_t len)
{
	return store_file(dir, ODB_SESSION_COMMS, text, len);
}

int odb_session_store_buildids(const struct op_dir *dir, const char *text, size_t len)
{
	return store_file(dir, ODB_SESSION_BUILDIDS, text, len);
}

int odb_session_store_longnames(const struct op_dir *dir, const char *text, size_t len)
{
	return store_file(dir, ODB_SESSION_LONGNAMES, text, len);
}

int odb_session_store_jitmap(const struct op_dir *dir, uint32_t tgid, const void *text,
			     size_t len)
{
	char name[64];

	snprintf(name, sizeof(name), ODB_SESSION_JIT_DIR "/perf-%" PRIu32 ".map", tgid);
	return store_file(dir, name, text, len);
}

int odb_session_store_jitelf(const struct op_dir *dir, uint32_t tgid, const void *image,
			     size_t len)
{
	char name[64];

	snprintf(name, sizeof(name), ODB_SESSION_JIT_DIR "/%" PRIu32 ".jo", tgid);
	return store_file(dir, name, image, len);
}

int odb_session_store_jitdumps(const struct op_dir *dir, const char *text, size_t len)
{
	return store_file(dir, ODB_SESSION_JITDUMPS, text, len);
}

char *odb_session_kernel_copy(const char *dir, enum odb_kernel_copy which,
			      int *err)
{
	char *path = odb_path_join(dir, kernel_copies[which]);

	*err = path ? 0 : -ENOMEM;
	if (path && !op_is_plain_file(path)) {
		free(path);
		path = NULL;
		*err = -ENOENT;
	}
	return path;
}
