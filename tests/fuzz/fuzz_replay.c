// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Replays a fuzz target's corpus without libFuzzer, so every make check
 * runs each saved input (crashes fixed, seeds) through the target as built
 * there, sanitizers included when configured.  Linked with one fuzz_*.o;
 * the corpus directory comes from CORPUS_DIR.  Prints one result line.
 */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libutil/op_file.h"
#include "tests/fuzz/fuzz.h"

int main(void)
{
	DIR *dir = opendir(CORPUS_DIR);
	struct dirent *de;
	unsigned long nr = 0;

	if (!dir) {
		printf("not ok 1 - corpus %s: cannot open\n", CORPUS_DIR);
		return 1;
	}
	while ((de = readdir(dir))) {
		char path[PATH_MAX];
		char *data;
		size_t len;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, de->d_name);
		if (op_read_file(path, (size_t)64 << 20, &data, &len)) {
			printf("not ok 1 - cannot read %s\n", path);
			closedir(dir);
			return 1;
		}
		/* an abort or sanitizer report ends the process: the test fails */
		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		free(data);
		nr++;
	}
	closedir(dir);
	printf("ok 1 - %lu inputs of %s replayed\n", nr, strrchr(CORPUS_DIR, '/') + 1);
	return nr ? 0 : 1;
}
