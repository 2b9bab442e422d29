// SPDX-License-Identifier: GPL-2.0-or-later
/* Helpers shared by the libdb tests. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdb/tests/odb_test_util.h"
#include "libutil/op_file.h"

void odb_test_header(struct opd_header *hdr)
{
	opd_header_init(hdr);
	hdr->cpu_type = 80;
	hdr->ctr_event = 0x3c;
	hdr->ctr_um = 0;
	hdr->ctr_count = 100000;
	hdr->is_kernel = 0;
	hdr->cpu_speed = 2400.0;
	hdr->mtime = 1795264867;
}

int odb_test_write_keys(const char *path, uint64_t key_base, size_t nr)
{
	struct opd_header hdr;
	struct odb_file *f;
	size_t i;
	int ret;

	odb_test_header(&hdr);
	ret = odb_file_open(path, ODB_WRITE, &hdr, &f);
	if (ret)
		return ret;
	for (i = 1; i <= nr && !ret; i++)
		ret = odb_file_add(f, key_base + i, i % 7 + 1);
	if (odb_file_close(f) && !ret)
		ret = -1;
	return ret;
}

unsigned char *odb_test_slurp(const char *path, size_t *len)
{
	char *data;

	if (op_read_file(path, (size_t)1 << 30, &data, len))
		return NULL;
	return (unsigned char *)data;
}

int odb_test_spew(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret;

	if (fd < 0)
		return -1;
	ret = op_write_all(fd, data, len);
	if (close(fd))
		ret = -1;
	return ret ? -1 : 0;
}

uint64_t odb_test_count(const struct odb_file *file, odb_key_t key)
{
	struct odb_iter it = odb_iter_init(file);
	odb_key_t k;
	odb_value_t v;
	uint64_t sum = 0;

	while (odb_iter_next(&it, &k, &v))
		if (k == key)
			sum += v;
	return sum;
}

int odb_test_write_golden(const char *path, size_t nr, int big)
{
	struct opd_header hdr;
	struct odb_file *f;
	size_t i;
	int ret;

	odb_test_header(&hdr);	/* i386/skylake, 0x3c, 100000, 2400 MHz */
	ret = odb_file_open(path, ODB_WRITE, &hdr, &f);
	if (ret)
		return ret;
	for (i = 1; i <= nr && !ret; i++) {
		odb_key_t key = ((i * 0x9E3779B1ull) & 0xffffffffull) |
				((odb_key_t)(i % 5) << 32);

		ret = odb_file_add(f, key, big && i == 1 ? 5000000000ull
							 : i % 13 + 1);
	}
	if (odb_file_close(f) && !ret)
		ret = -EIO;
	return ret;
}
