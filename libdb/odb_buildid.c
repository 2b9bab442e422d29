// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading an ELF file's GNU build-id (odb_buildid.h): the ELF header, the
 * program headers, then the notes of each PT_NOTE segment, for 32- and
 * 64-bit files of either byte order.  Every offset and size read from
 * the file is checked against what was read before it is used.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb_buildid.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"

#define MAX_PHDRS 256
#define MAX_NOTES (64u << 10)	/* bytes of one PT_NOTE segment read */
#define PT_NOTE 4
#define NT_GNU_BUILD_ID 3

struct elf_reader {
	int fd;
	uint64_t size;
	bool is64, big;
};

static uint64_t get(const struct elf_reader *r, const unsigned char *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[r->big ? n - 1 - i : i] << (8 * i);
	return v;
}

/* len bytes at off: 0, or -ENOEXEC when they are not all in the file */
static int read_at(const struct elf_reader *r, uint64_t off, void *buf, size_t len)
{
	size_t got;
	int ret;

	if (off > r->size || len > r->size - off)
		return -ENOEXEC;
	if (lseek(r->fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	ret = op_read_all(r->fd, buf, len, &got);
	return ret ? ret : got == len ? 0 : -ENOEXEC;
}

/* the build-id among the notes in buf[0 .. len) */
static int find_note(const struct elf_reader *r, const unsigned char *buf, size_t len,
		     char hex[ODB_BUILD_ID_HEX])
{
	size_t pos = 0;

	/* a note's padding may run past the end: pos can exceed len */
	while (pos <= len && len - pos >= 12) {
		uint64_t namesz = get(r, buf + pos, 4), descsz = get(r, buf + pos + 4, 4);
		uint64_t type = get(r, buf + pos + 8, 4);
		uint64_t name_at = pos + 12, desc_at = name_at + ((namesz + 3) & ~3ull);
		size_t i, n;

		if (desc_at > len || descsz > len - desc_at)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + name_at, "GNU", 4) &&
		    descsz) {
			n = descsz > (ODB_BUILD_ID_HEX - 1) / 2 ? (ODB_BUILD_ID_HEX - 1) / 2 :
								   (size_t)descsz;
			for (i = 0; i < n; i++) {
				static const char digits[] = "0123456789abcdef";

				hex[2 * i] = digits[buf[desc_at + i] >> 4];
				hex[2 * i + 1] = digits[buf[desc_at + i] & 15];
			}
			hex[2 * n] = '\0';
			return 0;
		}
		pos = desc_at + ((descsz + 3) & ~3ull);
	}
	return -ENOENT;
}

static int scan(struct elf_reader *r, char hex[ODB_BUILD_ID_HEX])
{
	unsigned char eh[64], ph[56], *notes;
	uint64_t phoff, phentsize, phnum, i;
	int ret;

	ret = read_at(r, 0, eh, 52);
	if (ret)
		return ret;
	if (memcmp(eh, "\177ELF", 4) || (eh[4] != 1 && eh[4] != 2) ||
	    (eh[5] != 1 && eh[5] != 2))
		return -ENOEXEC;
	r->is64 = eh[4] == 2;
	r->big = eh[5] == 2;
	if (r->is64 && (ret = read_at(r, 0, eh, 64)))
		return ret;
	phoff = r->is64 ? get(r, eh + 32, 8) : get(r, eh + 28, 4);
	phentsize = get(r, eh + (r->is64 ? 54 : 42), 2);
	phnum = get(r, eh + (r->is64 ? 56 : 44), 2);
	if (phentsize < (r->is64 ? 56u : 32u) || phnum > MAX_PHDRS)
		return -ENOENT;
	for (i = 0; i < phnum; i++) {
		uint64_t off, len;

		ret = read_at(r, phoff + i * phentsize, ph, r->is64 ? 56 : 32);
		if (ret)
			return ret == -ENOEXEC ? -ENOENT : ret;
		if (get(r, ph, 4) != PT_NOTE)
			continue;
		off = r->is64 ? get(r, ph + 8, 8) : get(r, ph + 4, 4);
		len = r->is64 ? get(r, ph + 32, 8) : get(r, ph + 16, 4);
		if (len > MAX_NOTES)
			len = MAX_NOTES;
		notes = op_malloc((size_t)len + 1);
		if (!notes)
			return -ENOMEM;
		ret = read_at(r, off, notes, (size_t)len);
		if (!ret)
			ret = find_note(r, notes, (size_t)len, hex);
		free(notes);
		if (!ret || (ret != -ENOENT && ret != -ENOEXEC))
			return ret;
	}
	return -ENOENT;
}

int odb_build_id(const char *path, char hex[ODB_BUILD_ID_HEX])
{
	struct elf_reader r = { 0 };
	struct stat st;
	int ret;

	hex[0] = '\0';
	r.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (r.fd < 0)
		return -errno;
	if (fstat(r.fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -ENOEXEC;
	else {
		r.size = (uint64_t)st.st_size;
		ret = scan(&r, hex);
	}
	close(r.fd);
	if (ret)
		hex[0] = '\0';
	return ret;
}
