// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the build-id of a binary (odb_build_id()), read from any
 * file the reports find where a profiled binary was: the input is the
 * file.  The result must be 0 with at most 40 lower-case hex digits, or
 * an error with an empty id.  Nothing may crash, hang or leak.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdb/odb_buildid.h"
#include "tests/fuzz/fuzz.h"

static char file[96];

static void remove_file(void)
{
	unlink(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char hex[ODB_BUILD_ID_HEX];
	int fd, ret;

	if (!file[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(file, sizeof(file), "%s/fuzz_buildid.%d",
			 tmp && *tmp && strlen(tmp) < 60 ? tmp : "/tmp", (int)getpid());
		atexit(remove_file);
	}
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd))
		abort();
	ret = odb_build_id(file, hex);
	if (ret ? hex[0] != '\0' :
		  !hex[0] || strlen(hex) > 40 || strspn(hex, "0123456789abcdef") != strlen(hex))
		abort();
	return 0;
}
