// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor of reading a session of many sample files: walk the tree
 * below DIR as opreport's session walk does (each directory opened
 * relative to its parent, read with getdents64()) and read every regular
 * file whole with pread(), doing nothing with what it read.  Used by
 * bench/opreport-manyfiles.
 *
 *	read_tree DIR
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dirents[32 << 10];
static char data[1 << 20];
static unsigned long nr_files;

static void read_file(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	struct stat st;
	off_t off = 0;
	ssize_t n;

	if (fd < 0)
		return;
	if (!fstat(fd, &st))
		while (off < st.st_size && (n = pread(fd, data, sizeof(data), off)) > 0)
			off += n;
	close(fd);
	nr_files++;
}

static int walk(int fd)
{
	ssize_t n, off;

	while ((n = getdents64(fd, dirents, sizeof(dirents))) > 0) {
		/* names of this chunk are used before the next getdents64() */
		char chunk[sizeof(dirents)];

		memcpy(chunk, dirents, (size_t)n);
		for (off = 0; off < n;) {
			const struct dirent64 *de = (const void *)(chunk + off);
			int sub;

			off += de->d_reclen;
			if (de->d_name[0] == '.' && (!de->d_name[1] ||
			    (de->d_name[1] == '.' && !de->d_name[2])))
				continue;
			if (de->d_type == DT_REG) {
				read_file(fd, de->d_name);
			} else if (de->d_type == DT_DIR) {
				sub = openat(fd, de->d_name,
					     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub < 0)
					return -1;
				if (walk(sub)) {
					close(sub);
					return -1;
				}
				close(sub);
			}
		}
	}
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: read_tree DIR\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || walk(fd)) {
		fprintf(stderr, "read_tree: cannot read '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	printf("%lu files\n", nr_files);
	return 0;
}
