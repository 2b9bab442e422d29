/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lines of fixture sources found by a marker comment ("CALL:x", "LINE:y"):
 * tests name lines by what is on them, not by number, so editing a
 * fixture does not break them.
 */
#ifndef OP_TESTMARK_H
#define OP_TESTMARK_H

#include <stdio.h>
#include <string.h>

/* the number (from 1) of the first line of path holding marker, or 0 */
static inline unsigned op_test_marker_line(const char *path, const char *marker)
{
	char buf[512];
	unsigned n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (strstr(buf, marker)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	return 0;
}

#endif
