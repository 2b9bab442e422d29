// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Separate debug files (pp_int.h): where distributions put the symbols
 * and DWARF stripped from a binary.  Looked for the way gdb does:
 *
 *   1. by build-id: DEBUG_ROOT/.build-id/xx/yyyyyyyy.debug, accepted when
 *      its own build-id matches;
 *   2. by .gnu_debuglink name, accepted when the CRC-32 of the whole file
 *      matches the one in the link: next to the binary, in the binary's
 *      .debug/ directory, then under DEBUG_ROOT + the binary's directory.
 *
 * DEBUG_ROOT is /usr/lib/debug unless the caller gives another (tests).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/pp_int.h"
#include "libutil/op_strbuf.h"

#define DEFAULT_DEBUG_ROOT "/usr/lib/debug"

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

static int by_build_id(const struct pp_elf *e, const char *root,
		       struct pp_elf **out)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	int ret;

	if (strlen(e->build_id) < 3)
		return -ENOENT;
	op_strbuf_addf(&sb, "%s/.build-id/%.2s/%s.debug", root, e->build_id,
		       e->build_id + 2);
	if (op_strbuf_failed(&sb))
		return -ENOMEM;
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
	const char *root = debug_root ? debug_root : DEFAULT_DEBUG_ROOT;
	int ret;

	*out = NULL;
	ret = by_build_id(e, root, out);
	if (ret == -ENOENT)
		ret = by_debuglink(e, root, out);
	return ret;
}
