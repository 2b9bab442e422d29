/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file a report tool writes with -o FILE, opened on the first byte
 * written: a report that fails before writing anything (no sample file
 * could be read, an option found wrong late) leaves FILE as it was, or
 * absent.  A regular FILE (or a new one) is written through a temporary
 * name beside it and a rename once the report is whole and committed: a
 * report that fails half way (a full disk) leaves FILE as it was too.
 * Another kind of FILE (a FIFO, /dev/stdout, a symbolic link), or a FILE
 * in a directory where no temporary can be made, is written in place,
 * truncated first.
 */
#ifndef PPT_OUTPUT_H
#define PPT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct ppt_output {
	FILE *stream;		/* what the report is written to */
	char *path;
	char *tmp;		/* the temporary name written, NULL: path itself */
	int fd;			/* -1 until the first byte */
	int err;		/* errno of the first failure, 0 if none */
	bool commit;		/* make the file at close even if unwritten */
	bool discard;		/* closing without commit: what is buffered
				 * is dropped, not written */
};

/*
 * Make o's stream for path, which is not opened yet.  0, or an errno when
 * the stream cannot be made.
 */
int ppt_output_open(struct ppt_output *o, const char *path);

/*
 * Close o's stream.  With commit, what is buffered is written, a file not
 * written to yet is made (empty) and the temporary file renamed over the
 * path; without, or after a failure, the temporary file is removed (the
 * path is left as it was) and what is buffered is dropped.  Returns 0, or
 * the errno of the first failure to open, write, close or rename the file.
 */
int ppt_output_close(struct ppt_output *o, bool commit);

#endif
