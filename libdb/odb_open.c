// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening, checking and closing sample files.  A file is checked in full
 * before any index from it is used: every later access by a reader stays
 * inside the mapping whatever the bytes say.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb.h"
#include "libdb/odb_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_barrier.h"
#include "libutil/op_dir.h"

void opd_header_init(struct opd_header *hdr)
{
	memset(hdr, 0, sizeof(*hdr));
	memcpy(hdr->magic, OPD_MAGIC, sizeof(hdr->magic));
	hdr->version = OPD_VERSION;
}

void odb_file_point(struct odb_file *file, unsigned char *map,
		    size_t map_size, odb_index_t nr_slots)
{
	file->map = map;
	file->map_size = map_size;
	file->hdr = (struct opd_header *)map;
	file->descr = (struct odb_descr *)(map + sizeof(struct opd_header));
	file->nodes = (struct odb_node *)(file->descr + 1);
	file->hash = (odb_index_t *)(file->nodes + nr_slots);
	file->size = nr_slots;
}

int odb_file_unmap(struct odb_file *file)
{
	int ret = 0;

	if (file->map && munmap(file->map, file->map_size))
		ret = -errno;
	file->map = NULL;
	if (file->fd >= 0 && close(file->fd) && !ret)
		ret = -errno;
	file->fd = -1;
	return ret;
}

/* open(), rename() and unlink() of a path, or of a name beneath dir (op_dir.h) */
static int at_open(const struct op_dir *dir, const char *path, int flags, mode_t mode)
{
	int fd;

	if (dir)
		return op_dir_open_file(dir, path, flags, mode);
	fd = open(path, flags | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

static int at_rename(const struct op_dir *dir, const char *from, const char *to)
{
	if (dir)
		return op_dir_rename(dir, from, to);
	return rename(from, to) ? -errno : 0;
}

static void at_unlink(const struct op_dir *dir, const char *path)
{
	if (dir)
		op_dir_unlink(dir, path);
	else
		unlink(path);
}

static char *tmp_path(const char *path)
{
	size_t len = strlen(path), total;
	char *tmp;

	if (!op_add_size(len, sizeof(".tmp"), &total))
		return NULL;
	tmp = op_malloc(total);
	if (tmp)
		snprintf(tmp, total, "%s.tmp", path);
	return tmp;
}

int odb_tmp_create(struct odb_file *tmp, const struct op_dir *dir,
		   const char *path, odb_index_t nr_slots)
{
	uint64_t bytes = odb_layout_size(nr_slots);
	char *name = tmp_path(path);
	void *map;
	int ret;

	tmp->fd = -1;
	tmp->map = NULL;
	if (!name)
		return -ENOMEM;
	if (bytes > SIZE_MAX || bytes > (uint64_t)INT64_MAX) {
		ret = -EFBIG;
		goto out;
	}
	tmp->fd = at_open(dir, name, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (tmp->fd < 0) {
		ret = tmp->fd;
		tmp->fd = -1;
		goto out;
	}
	/*
	 * posix_fallocate() reserves the blocks now, so a full disk is an
	 * error here rather than a SIGBUS on the first store into a hole.
	 */
	ret = -posix_fallocate(tmp->fd, 0, (off_t)bytes);
	if (ret == -EOPNOTSUPP || ret == -EINVAL)
		ret = ftruncate(tmp->fd, (off_t)bytes) ? -errno : 0;
	if (ret)
		goto out_unlink;
	map = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
		   tmp->fd, 0);
	if (map == MAP_FAILED) {
		ret = -errno;
		goto out_unlink;
	}
	odb_file_point(tmp, map, (size_t)bytes, nr_slots);
	free(name);
	return 0;
out_unlink:
	close(tmp->fd);
	tmp->fd = -1;
	at_unlink(dir, name);
out:
	free(name);
	return ret;
}

int odb_tmp_commit(struct odb_file *tmp, const struct op_dir *dir,
		   const char *path)
{
	/*
	 * No allocation here: a failure now would leave the .tmp behind.  A
	 * name the kernel takes is below PATH_MAX, so the .tmp made was too.
	 */
	char name[PATH_MAX + sizeof(".tmp")];
	int n = snprintf(name, sizeof(name), "%s.tmp", path), ret;

	if (n < 0 || (size_t)n >= sizeof(name))
		return -ENAMETOOLONG;
	ret = at_rename(dir, name, path);
	if (ret) {
		odb_file_unmap(tmp);
		at_unlink(dir, name);
	}
	return ret;
}

/* a new file: header, empty table of ODB_MIN_NODES, renamed into place */
static int create_file(struct odb_file *file, const char *path,
		       const struct opd_header *hdr)
{
	int ret;

	ret = odb_tmp_create(file, file->dir, path, ODB_MIN_NODES);
	if (ret)
		return ret;
	if (hdr)
		memcpy(file->hdr, hdr, sizeof(*hdr));
	memcpy(file->hdr->magic, OPD_MAGIC, sizeof(file->hdr->magic));
	file->hdr->version = OPD_VERSION;
	file->descr->size = ODB_MIN_NODES;
	file->descr->current_size = 1;
	return odb_tmp_commit(file, file->dir, path);
}

/*
 * Walk every chain once.  stamp[i] records which bucket's walk reached node
 * i first: meeting our own stamp again is a loop, meeting another bucket's
 * means the rest was checked already.  An index at or past the snapshot
 * may be a node a live writer published since; in a mapping it is fine if
 * it is below the current_size we see now (acquire: its fields are then
 * complete).  A copy cannot look again: it says -EAGAIN (odb_int.h).
 */
static int walk_chains(const struct odb_file *file, odb_index_t nr_used,
		       odb_index_t *stamp, bool copy)
{
	odb_index_t b, live = nr_used;
	int ret = 0;

	for (b = 0; b < file->size && !ret; b++) {
		odb_index_t i = op_load_relaxed(&file->hash[b]);
		int bad = ODB_ERR_BAD_BUCKET;

		while (i) {
			if (i >= live) {
				if (copy)
					return -EAGAIN;
				/* pairs with the writer's release of current_size */
				live = op_load_acquire(&file->descr->current_size);
				if (i >= live || live > file->size) {
					ret = bad;
					break;
				}
			}
			if (stamp[i] == b + 1) {
				ret = ODB_ERR_CHAIN_LOOP;
				break;
			}
			if (stamp[i])
				break;
			stamp[i] = b + 1;
			i = op_load_relaxed(&file->nodes[i].next);
			bad = ODB_ERR_BAD_NEXT;
		}
	}
	return ret;
}

static int check_chains(const struct odb_file *file, odb_index_t nr_used,
			odb_index_t *scratch, bool copy)
{
	odb_index_t *stamp = scratch;
	int ret;

	if (!stamp)
		stamp = op_calloc(file->size, sizeof(*stamp));
	else
		memset(stamp, 0, file->size * sizeof(*stamp));
	if (!stamp)
		return -ENOMEM;
	ret = walk_chains(file, nr_used, stamp, copy);
	if (stamp != scratch)
		free(stamp);
	return ret;
}

int odb_check_fixed(const struct opd_header *hdr, odb_index_t size,
		       size_t len)
{
	uint64_t slots_in_file;

	if (memcmp(hdr->magic, OPD_MAGIC, sizeof(hdr->magic)))
		return ODB_ERR_BAD_MAGIC;
	if (hdr->version != OPD_VERSION)
		return ODB_ERR_BAD_VERSION;
	if (size < ODB_MIN_NODES || size > ODB_MAX_NODES || (size & (size - 1)))
		return ODB_ERR_BAD_TABLE_SIZE;
	/* OProfile's rule: whole 20-byte slots after the fixed part == S */
	slots_in_file = (len - FIXED_SIZE) /
			(sizeof(struct odb_node) + sizeof(odb_index_t));
	if (slots_in_file < size)
		return ODB_ERR_BEYOND_EOF;
	if (slots_in_file > size)
		return ODB_ERR_TRAILING_DATA;
	return 0;
}

int odb_check_used(odb_index_t size, odb_index_t used)
{
	if (used < 1 || used > size)
		return ODB_ERR_BAD_USED_COUNT;
	if (size > ODB_MIN_NODES && used < size / 2)
		return ODB_ERR_OVERSIZED_TABLE;
	return 0;
}

int odb_check_holes(int fd, odb_index_t used)
{
	uint64_t end = FIXED_SIZE + (uint64_t)used * sizeof(struct odb_node);
	off_t hole;

	/* the header is written, so its block is no hole: skip the syscall */
	if (end <= 4096)
		return 0;
	hole = lseek(fd, (off_t)FIXED_SIZE, SEEK_HOLE);
	/* an error (no SEEK_HOLE here) tells nothing; keep reading */
	if (hole < 0 || (uint64_t)hole >= end)
		return 0;
	return ODB_ERR_NODES_IN_HOLE;
}

int odb_check_stat(int fd, size_t *len)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return ODB_ERR_NOT_REGULAR;
	if (st.st_size == 0)
		return ODB_ERR_EMPTY;
	if ((uint64_t)st.st_size > SIZE_MAX)
		return -EFBIG;
	if ((size_t)st.st_size < FIXED_SIZE)
		return ODB_ERR_TRUNCATED;
	*len = (size_t)st.st_size;
	return 0;
}

int odb_check_map(struct odb_file *file, unsigned char *map, size_t len,
		  odb_index_t *scratch, bool copy)
{
	const struct opd_header *hdr = (const void *)map;
	const struct odb_descr *descr = (const void *)(map + sizeof(*hdr));
	odb_index_t size, used;
	int ret;

	if (len < FIXED_SIZE)
		return ODB_ERR_TRUNCATED;
	size = descr->size;
	ret = odb_check_fixed(hdr, size, len);
	if (ret)
		return ret;
	odb_file_point(file, map, len, size);
	/* pairs with the writer's release store in add_node() */
	used = op_load_acquire(&file->descr->current_size);
	ret = odb_check_used(size, used);
	if (ret)
		return ret;
	file->nr_used = used;
	return check_chains(file, used, scratch, copy);
}

static int map_and_check(struct odb_file *file)
{
	int prot = file->mode == ODB_WRITE ? PROT_READ | PROT_WRITE : PROT_READ;
	struct opd_header hdr;
	struct odb_descr descr;
	size_t len;
	void *map;
	int ret;

	ret = odb_check_stat(file->fd, &len);
	if (ret)
		return ret;
	/* nothing is mapped before the sizes it would cover are believed */
	ret = odb_check_head(file->fd, len, &hdr, &descr);
	if (ret)
		return ret;
	map = mmap(NULL, len, prot, MAP_SHARED, file->fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	ret = odb_check_map(file, map, len, NULL, false);
	if (ret) {
		munmap(map, len);
		file->map = NULL;
		return ret;
	}
	file->hdr_copy = *file->hdr;
	return 0;
}

static int open_existing(struct odb_file *file, const char *path,
			 const struct opd_header *hdr)
{
	int flags = file->mode == ODB_WRITE ? O_RDWR : O_RDONLY;
	int ret;

	/* non-blocking: a FIFO put where a sample file belongs must not hang
	 * the open (the check below refuses what is not a regular file) */
	file->fd = at_open(file->dir, path, flags | O_NONBLOCK, 0);
	if (file->fd < 0) {
		ret = file->fd;
		file->fd = -1;
		return ret == -EINVAL && file->dir ? ODB_ERR_NOT_REGULAR : ret;
	}
	ret = map_and_check(file);
	if (ret)
		return ret;
	if (file->mode == ODB_WRITE && hdr)
		odb_file_set_header(file, hdr);
	return 0;
}

int odb_file_map_fd(int fd, struct odb_file **filep)
{
	struct odb_file *file;
	int ret;

	*filep = NULL;
	file = op_calloc(1, sizeof(*file));
	if (!file) {
		close(fd);
		return -ENOMEM;
	}
	file->fd = fd;
	file->mode = ODB_READ;
	ret = map_and_check(file);
	if (ret) {
		odb_file_unmap(file);
		free(file);
		return ret;
	}
	*filep = file;
	return 0;
}

int odb_file_open(const char *path, enum odb_mode mode,
		  const struct opd_header *hdr, struct odb_file **filep)
{
	return odb_file_open_at(NULL, path, mode, hdr, filep);
}

int odb_file_open_at(const struct op_dir *dir, const char *path, enum odb_mode mode,
		     const struct opd_header *hdr, struct odb_file **filep)
{
	struct odb_file *file;
	int ret;

	*filep = NULL;
	file = op_calloc(1, sizeof(*file));
	if (!file)
		return -ENOMEM;
	file->fd = -1;
	file->mode = mode;
	file->dir = dir;
	file->path = op_strdup(path);
	if (!file->path) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = open_existing(file, path, hdr);
	if (ret == -ENOENT && mode == ODB_WRITE) {
		ret = create_file(file, path, hdr);
		if (ret)
			goto out_free;
		file->hdr_copy = *file->hdr;
	}
	if (ret) {
		odb_file_unmap(file);
		goto out_free;
	}
	*filep = file;
	return 0;
out_free:
	if (file->fd >= 0)
		close(file->fd);
	free(file->path);
	free(file);
	return ret;
}

int odb_file_set_header(struct odb_file *file, const struct opd_header *hdr)
{
	struct opd_header h = *hdr;

	if (file->mode != ODB_WRITE)
		return ODB_ERR_READ_ONLY;
	memcpy(h.magic, OPD_MAGIC, sizeof(h.magic));
	h.version = OPD_VERSION;
	/* one copy keeps the magic and version valid at every instant */
	memcpy(file->hdr, &h, sizeof(h));
	file->hdr_copy = h;
	return 0;
}

const struct opd_header *odb_file_header(const struct odb_file *file)
{
	return file->mode == ODB_WRITE ? file->hdr : &file->hdr_copy;
}

const struct odb_node *odb_file_nodes(const struct odb_file *file, size_t *nr)
{
	odb_index_t used = file->mode == ODB_WRITE ?
		file->descr->current_size : file->nr_used;

	*nr = used - 1;
	return file->nodes + 1;
}

struct odb_iter odb_iter_init(const struct odb_file *file)
{
	struct odb_iter it = { .idx = 0 };

	it.nodes = odb_file_nodes(file, &it.nr);
	return it;
}

bool odb_iter_next(struct odb_iter *it, odb_key_t *key, odb_value_t *value)
{
	const struct odb_node *n;

	if (it->idx >= it->nr)
		return false;
	n = &it->nodes[it->idx++];
	*key = n->key;
	*value = op_load_relaxed(&n->value);
	return true;
}

uint64_t odb_file_total(const struct odb_file *file)
{
	const struct odb_node *nodes;
	uint64_t total = 0;
	size_t i, nr;

	nodes = odb_file_nodes(file, &nr);
	for (i = 0; i < nr; i++)
		total += op_load_relaxed(&nodes[i].value);
	return total;
}

size_t odb_file_nr_slots(const struct odb_file *file)
{
	return file->size;
}

int odb_file_sync(struct odb_file *file, bool wait)
{
	if (file->mode != ODB_WRITE)
		return 0;
	if (msync(file->map, file->map_size, wait ? MS_SYNC : MS_ASYNC))
		return -errno;
	if (wait)
		return fsync(file->fd) ? -errno : 0;
	/*
	 * MS_ASYNC only marks the pages dirty, which they already are:
	 * start their writeback now instead of within dirty_expire (30 s)
	 */
	if (sync_file_range(file->fd, 0, 0, SYNC_FILE_RANGE_WRITE) && errno != ESPIPE)
		return -errno;
	return 0;
}

int odb_file_close(struct odb_file *file)
{
	int ret;

	if (!file)
		return 0;
	ret = odb_file_unmap(file);
	free(file->path);
	free(file);
	return ret;
}
