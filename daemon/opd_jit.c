// SPDX-License-Identifier: GPL-2.0-or-later
/* Copying the perf map files of JIT code into the session (opd_jit.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/opd_jit.h"
#include "libdb/odb_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"

#define MAP_MAX ((size_t)256 << 20)
#define DEPTH_MAX 64

struct tgids {
	uint32_t *v;
	size_t nr, alloc;
};

static int add_tgid(struct tgids *t, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->v[i] == tgid)
			return 0;
	if (t->nr == t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 16;
		uint32_t *v = op_reallocarray(t->v, alloc, sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->alloc = alloc;
	}
	t->v[t->nr++] = tgid;
	return 0;
}

/*
 * The entries below dfd (closed here), without following symlinks: in
 * an {anon:NAME} directory (anon) the tgids of its "TGID.0xSTART.0xEND"
 * entries, elsewhere the directories, depth levels down at most.
 */
static int walk(int dfd, struct tgids *t, bool anon, unsigned depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	int ret = 0;

	if (!d) {
		close(dfd);
		return 0;
	}
	while (!ret && depth < DEPTH_MAX && (e = readdir(d))) {
		char *end;
		unsigned long v;
		int sub;

		if (anon) {
			v = strtoul(e->d_name, &end, 10);
			if (end != e->d_name && *end == '.' && v && v <= UINT32_MAX)
				ret = add_tgid(t, (uint32_t)v);
			continue;
		}
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		sub = openat(dirfd(d), e->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			ret = walk(sub, t, !strncmp(e->d_name, "{anon:", 6), depth + 1);
	}
	closedir(d);
	return ret;
}

int opd_jit_store(const struct op_dir *current, char *failed, size_t failed_len)
{
	struct tgids t = { 0 };
	int dfd, ret, stored = 0;
	size_t i;

	dfd = openat(current->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	ret = walk(dfd, &t, false, 0);
	for (i = 0; !ret && i < t.nr; i++) {
		char path[64], *text;
		size_t len;

		snprintf(path, sizeof(path), "/tmp/perf-%" PRIu32 ".map", t.v[i]);
		if (op_read_owned_file(path, MAP_MAX, &text, &len))
			continue;	/* none, or not one to trust */
		ret = odb_session_store_jitmap(current, t.v[i], text, len);
		free(text);
		if (ret)
			snprintf(failed, failed_len, "%s", path);
		else
			stored++;
	}
	free(t.v);
	return ret ? ret : stored;
}
