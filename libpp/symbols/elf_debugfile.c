// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Separate debug files (symbols_int.h): where distributions put the symbols
 * and DWARF stripped from a binary.  Looked for the way gdb does:
 *
 *   1. by build-id: DEBUG_ROOT/.build-id/xx/yyyyyyyy.debug, accepted when
 *      its own build-id matches;
 *   2. by .gnu_debuglink name, accepted when the CRC-32 of the whole file
 *      matches the one in the link: next to the binary, in the binary's
 *      .debug/ directory, then under DEBUG_ROOT + the binary's directory.
 *
 * DEBUG_ROOT is /usr/lib/debug unless the caller gives another (tests).
 *
 * When there is none, dpkg's file lists say which package a binary came
 * from, so that the message can name its debug package.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

/* a dpkg file list bigger than this is not one */
#define DPKG_LIST_MAX (64u << 20)

uint32_t pp_debuglink_crc32(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t table[256];
	uint32_t i;

	/* 1 KiB of table per call is cheaper than the file it checks */
	for (i = 0; i < 256; i++) {
		uint32_t c = i;
		int k;

		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static bool crc_matches(const char *path, uint32_t want)
{
	struct stat st;
	void *map;
	bool ok = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		goto out_close;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		goto out_close;
	ok = pp_debuglink_crc32(0, map, (size_t)st.st_size) == want;
	munmap(map, (size_t)st.st_size);
out_close:
	close(fd);
	return ok;
}

/* open path as a debug file; -ENOENT for anything unusable */
static int try_open(const char *path, struct pp_elf **out)
{
	int ret = pp_elf_open(path, out);

	return ret == -ENOMEM ? ret : ret ? -ENOENT : 0;
}

int pp_build_id_path(struct op_strbuf *sb, const char *debug_root,
		     const char *build_id)
{
	if (strlen(build_id) < 3)
		return -ENOENT;
	op_strbuf_addf(sb, "%s/.build-id/%.2s/%s.debug",
		       debug_root ? debug_root : PP_DEBUG_ROOT, build_id, build_id + 2);
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

static int by_build_id(const struct pp_elf *e, const char *root,
		       struct pp_elf **out)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	int ret = pp_build_id_path(&sb, root, e->build_id);

	if (ret) {
		op_strbuf_release(&sb);
		return ret;
	}
	ret = try_open(sb.buf, out);
	op_strbuf_release(&sb);
	if (!ret && strcmp((*out)->build_id, e->build_id)) {
		pp_elf_close(*out);
		*out = NULL;
		ret = -ENOENT;
	}
	return ret;
}

static int by_debuglink(const struct pp_elf *e, const char *root,
			struct pp_elf **out)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	const char *slash = strrchr(e->path, '/');
	int dir_len = slash ? (int)(slash - e->path) : 1;
	const char *dir = slash ? e->path : ".";
	int i, ret = -ENOENT;

	if (!e->debuglink || strchr(e->debuglink, '/'))
		return -ENOENT;
	for (i = 0; i < 3 && ret == -ENOENT; i++) {
		op_strbuf_reset(&sb);
		if (i == 0)
			op_strbuf_addf(&sb, "%.*s/%s", dir_len, dir, e->debuglink);
		else if (i == 1)
			op_strbuf_addf(&sb, "%.*s/.debug/%s", dir_len, dir, e->debuglink);
		else
			op_strbuf_addf(&sb, "%s%s%.*s/%s", root, dir[0] == '/' ? "" : "/",
				       dir_len, dir, e->debuglink);
		if (op_strbuf_failed(&sb)) {
			ret = -ENOMEM;
			break;
		}
		/* the binary itself may carry the same name */
		if (!strcmp(sb.buf, e->path) || !crc_matches(sb.buf, e->debuglink_crc))
			continue;
		ret = try_open(sb.buf, out);
	}
	op_strbuf_release(&sb);
	return ret;
}

int pp_debugfile_open(const struct pp_elf *e, const char *debug_root,
		      struct pp_elf **out)
{
	const char *root = debug_root ? debug_root : PP_DEBUG_ROOT;
	int ret;

	*out = NULL;
	ret = by_build_id(e, root, out);
	if (ret == -ENOENT)
		ret = by_debuglink(e, root, out);
	return ret;
}

int pp_binary_identify(const char *path, const char *debug_root,
		       struct pp_binary_id *id)
{
	const char *root = debug_root ? debug_root : PP_DEBUG_ROOT;
	struct pp_elf *e, *dbg = NULL;
	int ret;

	memset(id, 0, sizeof(*id));
	ret = pp_elf_open(path, &e);
	if (ret)
		return ret;
	memcpy(id->build_id, e->build_id, sizeof(id->build_id));
	ret = by_build_id(e, root, &dbg);
	if (!ret)
		id->how = PP_DEBUG_BY_BUILD_ID;
	else if (ret == -ENOENT && !(ret = by_debuglink(e, root, &dbg)))
		id->how = PP_DEBUG_BY_LINK;
	if (!ret && !(id->debug_file = op_strdup(dbg->path)))
		ret = -ENOMEM;
	if (!ret && id->how == PP_DEBUG_BY_LINK)
		id->debuglink = strrchr(id->debug_file, '/') + 1;
	if (ret == -ENOENT) {
		id->how = PP_DEBUG_NONE;
		ret = 0;
	}
	pp_elf_close(dbg);
	pp_elf_close(e);
	if (ret)
		pp_binary_id_release(id);
	return ret;
}

void pp_binary_id_release(struct pp_binary_id *id)
{
	if (!id)
		return;
	free(id->debug_file);
	memset(id, 0, sizeof(*id));
}

/* is line one of the lines of text (len bytes)? */
static bool has_line(const char *text, size_t len, const char *line)
{
	const char *p = text, *end = text + len;
	size_t n = strlen(line);

	while (n && (p = memmem(p, (size_t)(end - p), line, n))) {
		if ((p == text || p[-1] == '\n') && (p + n == end || p[n] == '\n'))
			return true;
		p++;
	}
	return false;
}

/* *twin: path across the /usr merge (/usr/bin/x and /bin/x), or NULL */
static int usr_merge_twin(const char *path, char **twin)
{
	static const char *const merged[] = { "/bin/", "/sbin/", "/lib" };
	struct op_strbuf sb = OP_STRBUF_INIT;
	const char *rest = path;
	size_t i, nr = sizeof(merged) / sizeof(merged[0]);

	*twin = NULL;
	if (!strncmp(path, "/usr/", 5))
		rest = path + 4;
	for (i = 0; i < nr; i++)
		if (!strncmp(rest, merged[i], strlen(merged[i])))
			break;
	if (i == nr)
		return 0;
	if (rest == path)
		op_strbuf_addf(&sb, "/usr%s", path);
	else
		op_strbuf_addstr(&sb, rest);
	*twin = op_strbuf_detach(&sb);
	return *twin ? 0 : -ENOMEM;
}

/*
 * The names a dpkg list may give the file at path: itself, the file its
 * links resolve to, and both across the /usr merge.  v[0..*nr), each
 * freed by the caller (also on failure).  0 or -ENOMEM.
 */
static int dpkg_names(const char *path, char *v[4], size_t *nr)
{
	char real[PATH_MAX];
	size_t i, n = 0, direct;
	int ret = 0;

	v[n++] = op_strdup(path);
	if (realpath(path, real) && strcmp(real, path))
		v[n++] = op_strdup(real);
	direct = n;
	for (i = 0; !ret && i < direct; i++) {
		ret = v[i] ? usr_merge_twin(v[i], &v[n]) : -ENOMEM;
		if (!ret && v[n])
			n++;
	}
	*nr = n;
	return ret;
}

/* "libc6:amd64.list" -> "libc6" */
static char *package_of_list(const char *list)
{
	size_t len = strlen(list) - strlen(".list");
	const char *colon = memchr(list, ':', len);

	return op_strndup(list, colon ? (size_t)(colon - list) : len);
}

static bool is_list(const char *name)
{
	size_t len = strlen(name);

	return len > 5 && !strcmp(name + len - 5, ".list");
}

/* the length of the longest tail that names[0..nr) all end with */
static size_t common_tail(char *const *names, size_t nr)
{
	size_t len = strlen(names[0]), i, n, k;

	for (i = 1; i < nr; i++) {
		n = strlen(names[i]);
		for (k = 0; k < len && k < n && names[0][len - 1 - k] == names[i][n - 1 - k]; k++)
			;
		len = k;
	}
	return len;
}

/*
 * Is one of names[0..nr) a line of text (len bytes)?  All end with the
 * same tail of tail_len bytes: one search for it finds the candidates
 * (the names differ by a directory: the link, the /usr merge).
 */
static bool has_any_line(const char *text, size_t len, char *const *names, size_t nr,
			 size_t tail_len)
{
	const char *p = text, *end = text + len, *start, *eol;
	const char *tail = names[0] + strlen(names[0]) - tail_len;
	size_t i;

	if (!tail_len) {
		for (i = 0; i < nr; i++)
			if (has_line(text, len, names[i]))
				return true;
		return false;
	}
	while ((p = memmem(p, (size_t)(end - p), tail, tail_len))) {
		eol = p + tail_len;
		p++;
		if (eol != end && *eol != '\n')
			continue;
		start = memrchr(text, '\n', (size_t)(eol - text));
		start = start ? start + 1 : text;
		for (i = 0; i < nr; i++)
			if (strlen(names[i]) == (size_t)(eol - start) &&
			    !memcmp(start, names[i], (size_t)(eol - start)))
				return true;
	}
	return false;
}

/* a file whose package is looked for: the names lists may give it */
struct dpkg_query {
	char *names[4];
	size_t nr;
	size_t tail_len;	/* the tail all its names share */
	char **pkg;		/* where its package goes */
};

/*
 * Is the list (in the directory open as dfd) one of a package of a query
 * still without one?  Each such query gets the package of the list.  The
 * list is read into *buf (*cap bytes, kept for the next list).  0 or
 * -ENOMEM.
 */
static int match_list(int dfd, const char *list, char **buf, size_t *cap,
		      struct dpkg_query *q, size_t n, size_t *left)
{
	size_t len, i;
	int ret = op_read_file_at(dfd, list, DPKG_LIST_MAX, buf, cap, &len);

	if (ret)
		return ret == -ENOMEM ? ret : 0;	/* unreadable: it names nothing */
	for (i = 0; !ret && i < n; i++) {
		if (*q[i].pkg || !has_any_line(*buf, len, q[i].names, q[i].nr, q[i].tail_len))
			continue;
		*q[i].pkg = package_of_list(list);
		ret = *q[i].pkg ? 0 : -ENOMEM;
		--*left;
	}
	return ret;
}

int pp_dpkg_packages(const char *info_dir, const char *const *paths, size_t n,
		     char **pkgs)
{
	const char *lists = info_dir ? info_dir : PP_DPKG_INFO;
	struct dpkg_query *q = op_calloc(n + 1, sizeof(*q));
	char *buf = NULL;
	size_t i, k, left = n, cap = 0;
	struct dirent *de;
	DIR *dir = NULL;
	int ret = q ? 0 : -ENOMEM;

	for (i = 0; i < n; i++)
		pkgs[i] = NULL;
	for (i = 0; !ret && i < n; i++) {
		q[i].pkg = &pkgs[i];
		ret = dpkg_names(paths[i], q[i].names, &q[i].nr);
		if (!ret)
			q[i].tail_len = common_tail(q[i].names, q[i].nr);
	}
	if (!ret && !(dir = opendir(lists)))
		ret = -ENOENT;
	/*
	 * one package ships a file: a query is done at the first list naming
	 * it; the lists are read by name in the directory, into one buffer
	 */
	while (!ret && left && (de = readdir(dir))) {
		if (is_list(de->d_name))
			ret = match_list(dirfd(dir), de->d_name, &buf, &cap, q, n, &left);
	}
	if (dir)
		closedir(dir);
	free(buf);
	for (i = 0; q && i < n; i++)
		for (k = 0; k < q[i].nr; k++)
			free(q[i].names[k]);
	free(q);
	return ret;
}

int pp_dpkg_package(const char *info_dir, const char *path, char **pkg)
{
	int ret = pp_dpkg_packages(info_dir, &path, 1, pkg);

	if (ret && *pkg) {
		free(*pkg);
		*pkg = NULL;
	}
	return ret ? ret : *pkg ? 0 : -ENOENT;
}
