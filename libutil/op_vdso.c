// SPDX-License-Identifier: GPL-2.0-or-later
/* This process's vdso (op_vdso.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "libutil/op_file.h"
#include "libutil/op_vdso.h"

int op_vdso_image(const void **data, size_t *len)
{
	uintptr_t ehdr = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	char *maps, *line, *next;
	size_t size;
	int ret;

	if (!ehdr)
		return -ENOENT;
	ret = op_read_file("/proc/self/maps", (size_t)64 << 20, &maps, &size);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (line = maps; line && *line; line = next) {
		uint64_t start, end;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strstr(line, "[vdso]") ||
		    sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) != 2)
			continue;
		if (start == ehdr && end > start) {
			*data = (const void *)ehdr;
			*len = (size_t)(end - start);
			ret = 0;
		}
		break;
	}
	free(maps);
	return ret;
}
