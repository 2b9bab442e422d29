// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JIT code into the session (opd_jit.h): perf map files copied, jitdump
 * files converted.
 */
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
#include "daemon/opd_jitdump.h"
#include "daemon/opd_jitelf.h"
#include "libdb/odb_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_field.h"
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

void opd_jit_dumps_add(struct opd_jit_dumps *l, uint32_t tgid, const char *path)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (l->v[i].tgid == tgid && !strcmp(l->v[i].path, path))
			return;
	l->v = op_xreallocarray(l->v, l->nr + 1, sizeof(*l->v));
	memset(&l->v[l->nr], 0, sizeof(l->v[l->nr]));
	l->v[l->nr].tgid = tgid;
	l->v[l->nr].path = op_xstrdup(path);
	l->nr++;
}

void opd_jit_dumps_release(struct opd_jit_dumps *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i].path);
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

void opd_jit_dumps_text(const struct opd_jit_dumps *l, struct op_strbuf *sb)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		op_strbuf_addf(sb, "%" PRIu32 " ", l->v[i].tgid);
		op_field_add(sb, l->v[i].path);
		op_strbuf_addch(sb, '\n');
	}
}

void opd_jit_dumps_parse(struct opd_jit_dumps *l, const char *text)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		char *line = op_xstrndup(text, len), *end, *path;
		unsigned long long tgid;

		text += len + (text[len] == '\n');
		errno = 0;
		tgid = strtoull(line, &end, 10);
		if (end != line && *end == ' ' && !errno && tgid && tgid <= UINT32_MAX &&
		    end[1] == '/' && !strchr(end + 1, ' ')) {
			path = op_field_text(end + 1);
			if (!path)
				op_die(1, "out of memory");
			opd_jit_dumps_add(l, (uint32_t)tgid, path);
			free(path);
		}
		free(line);
	}
}

int opd_jit_convert(const char *path, bool owned, struct opd_jit_conv *c)
{
	struct opd_jitdump d;
	char *data;
	size_t len;
	int ret;

	memset(c, 0, sizeof(*c));
	ret = owned ? op_read_owned_file(path, OPD_JITDUMP_MAX, &data, &len) :
		      op_read_plain_file(path, OPD_JITDUMP_MAX, &data, &len);
	if (ret)
		return ret;
	ret = opd_jitdump_parse(data, len, &d);
	if (!ret) {
		c->pid = d.pid;
		c->cut = d.cut;
		c->nr_codes = d.nr_codes;
		ret = opd_jitelf_build(&d, &c->image, &c->len, &c->nr_syms);
		opd_jitdump_release(&d);
	}
	free(data);
	return ret;
}

/*
 * Is r's dump as it was at the last call, with nothing left to do (its
 * image still there, or it was refused)?  Remembers it as it is now.
 */
static bool unchanged(const struct op_dir *current, struct opd_jit_dump_ref *r)
{
	struct stat st;
	char name[64];
	int64_t ns;
	bool same;

	if (lstat(r->path, &st))
		return false;
	ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	same = r->seen && r->size == (int64_t)st.st_size && r->mtime_ns == ns;
	r->seen = true;
	r->size = (int64_t)st.st_size;
	r->mtime_ns = ns;
	if (!same)
		return false;
	snprintf(name, sizeof(name), ODB_SESSION_JIT_DIR "/%" PRIu32 ".jo", r->tgid);
	return r->refused || !op_dir_stat(current, name, &st);
}

int opd_jit_store_dumps(const struct op_dir *current, struct opd_jit_dumps *l,
			void (*warn)(const char *path, int err, void *data), void *data)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	int stored = 0, ret;
	size_t i;

	if (!l->nr)
		return 0;
	opd_jit_dumps_text(l, &sb);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	ret = odb_session_store_jitdumps(current, sb.buf, sb.len);
	if (ret && warn)
		warn(NULL, ret, data);
	op_strbuf_release(&sb);
	for (i = 0; i < l->nr; i++) {
		struct opd_jit_conv c;

		if (unchanged(current, &l->v[i]))
			continue;
		ret = opd_jit_convert(l->v[i].path, true, &c);
		l->v[i].refused = ret != 0;
		if (!ret) {
			ret = odb_session_store_jitelf(current, l->v[i].tgid, c.image, c.len);
			free(c.image);
		}
		if (!ret)
			stored++;
		else if (warn)
			warn(l->v[i].path, ret, data);
	}
	return stored;
}
