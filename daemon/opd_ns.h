/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files mapped in other mount namespaces, named as we (the host) see them.
 *
 * The path in a PERF_RECORD_MMAP2 record is the path in the mapping
 * process's mount namespace.  For a process in a container, or one that
 * ran under `unshare -m` with a bind-mounted binary, that path names
 * another file here, or none, and the reports cannot find the binary.
 * opd_ns turns (pid, path, device, inode) into a path of the same file in
 * our mount namespace:
 *
 *  - a path that stat() here shows as the same device and inode, or that
 *    a process of our own mount namespace mapped, is right as it is;
 *  - otherwise the process's /proc/PID/mountinfo tells which mount holds
 *    the path (the longest mount point that is a prefix of it, component
 *    by component), so the filesystem (major:minor) and the path within
 *    it (the mount's root plus the rest); our own mountinfo then gives
 *    where that filesystem's directories are mounted here.  An overlay
 *    mount also offers its layers (upperdir, lowerdir), where the file
 *    lies as long as the image does.  A candidate counts only if stat()
 *    shows it is the mapped file: the same device and inode, or, for an
 *    overlay layer, the same inode under the overlay's device (overlayfs
 *    reports its files with the inode numbers of its layers' files);
 *  - a process that has exited cannot be asked: the mountinfo tables of
 *    the namespaces seen last are kept (OPD_NS_MAX_TABLES), and a
 *    candidate from any of them that proves to be the mapped file is
 *    taken.
 * When nothing is found the path stays as the process saw it (as perf
 * does), and is counted.
 *
 * Answers are cached by (device, inode, generation, path): after the
 * first mapping of a file, each further one costs one hash lookup.  The
 * cache holds at most OPD_NS_MAX_FILES answers (the oldest goes first),
 * so memory stays bounded in a daemon that runs for days.
 *
 * The /proc text read is untrusted: lines of any length, missing fields
 * and bad escapes are skipped, never trusted.  Nothing here prints.
 */
#ifndef OPD_NS_H
#define OPD_NS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_strbuf.h"

#define OPD_NS_MAX_FILES 4096		/* cached answers */
#define OPD_NS_MAX_TABLES 16		/* mountinfo tables of other namespaces */
#define OPD_NS_MAX_MOUNTINFO (4u << 20)	/* bytes of one mountinfo read */

/* a file's identity, as an MMAP2 record or stat() gives it */
struct opd_ns_file {
	uint32_t maj, min;		/* device */
	uint64_t ino;
	uint64_t gen;			/* inode generation (records only; 0 from stat) */
};

/* one line of a mountinfo table; the strings point into the table's text */
struct opd_ns_mount {
	const char *root;	/* the directory mounted, within its filesystem */
	const char *point;	/* where, as the table's reader sees it */
	const char *fstype;
	const char *super;	/* super options as the filesystem shows them */
	size_t root_len, point_len;
	uint32_t maj, min;	/* the filesystem's device */
};

/* a parsed /proc/PID/mountinfo */
struct opd_ns_table {
	char *text;			/* owned; root, point, fstype unescaped in place */
	struct opd_ns_mount *mounts;	/* in the file's order */
	size_t nr_mounts;
	size_t nr_bad;			/* lines that are not mounts we can use */
};

/*
 * Parse text (a NUL-terminated mountinfo, which t takes over: freed by
 * opd_ns_table_release()) into t.  Lines without every field, with a bad
 * major:minor, an escape that makes a NUL, or a root or mount point that
 * is not absolute are skipped and counted in t->nr_bad.  Dies on
 * allocation failure (op_x*).
 */
void opd_ns_table_parse(struct opd_ns_table *t, char *text);

/* free t's contents; t is left empty.  NULL is fine. */
void opd_ns_table_release(struct opd_ns_table *t);

/*
 * The mount of t that holds path: the longest mount point that is path or
 * a parent of it, the one mounted last among equals (it hides the
 * others); NULL when none (path not absolute, or t without "/").
 * Borrowed from t.
 */
const struct opd_ns_mount *opd_ns_table_find(const struct opd_ns_table *t,
					     const char *path);

/*
 * The paths in ours where the file that theirs shows at path may be,
 * best first: for an overlay, the same path in each layer (upperdir,
 * then the lowerdirs); then, for each mount in ours of the same
 * filesystem whose root holds the file, its mount point plus the rest
 * (mounts of the filesystem's root first).  fn gets each in turn (the
 * string is valid during the call; layer tells an overlay layer) and
 * stops the walk by returning non-zero, which is then returned; 0 when
 * the walk ended, -ENOENT when theirs has no mount for path.
 */
typedef int (*opd_ns_candidate_fn)(void *data, const char *host,
				   const struct opd_ns_mount *theirs, bool layer);
int opd_ns_candidates(const struct opd_ns_table *theirs,
		      const struct opd_ns_table *ours, const char *path,
		      opd_ns_candidate_fn fn, void *data);

/*
 * What the system is asked, through functions so that tests can replace
 * the system with fixtures.  Each returns 0 or a negative errno.
 */
struct opd_ns_sys {
	/* the inode of pid's mount namespace (pid 0: our own); -ENOENT: gone */
	int (*mnt_ns)(void *data, uint32_t pid, uint64_t *ns);
	/* pid's mountinfo (pid 0: our own), malloc'd and NUL-terminated */
	int (*mountinfo)(void *data, uint32_t pid, char **text);
	/* stat(path): its device and inode (gen left 0) */
	int (*stat)(void *data, const char *path, struct opd_ns_file *file);
	void *data;
};

/* the counts, for the run's log */
struct opd_ns_stats {
	uint64_t foreign;	/* file mappings not valid here as they were */
	uint64_t renamed;	/* ... given the path of the same file here */
	uint64_t unresolved;	/* ... for which no path was found */
	uint64_t tables_read;	/* mountinfo files read */
	uint64_t cache_dropped;	/* answers dropped to keep the cache bounded */
};

struct opd_ns;

/* a new translator asking sys (copied), or the real /proc when sys is NULL */
struct opd_ns *opd_ns_new(const struct opd_ns_sys *sys);
void opd_ns_free(struct opd_ns *ns);

/*
 * The path here of file, which process pid mapped as path.  Sets *host
 * and returns 1 when that is another path (borrowed from the cache: valid
 * until the next call on ns); 0 when path is right as it is (*host =
 * path); -ESRCH (the process is gone) or -ENOENT (no path here is the
 * file) when no path was found, with *host = path.
 */
int opd_ns_host_path(struct opd_ns *ns, uint32_t pid, const char *path,
		     const struct opd_ns_file *file, const char **host);

/*
 * The raw record at data (len bytes, taken with sample_type): an MMAP2
 * record of an executable file mapping whose path is not valid here is
 * appended to out with the path here, and 1 returned; otherwise 0
 * (nothing appended: the record is right as it is, is not such a record,
 * or no path was found).  Dies on allocation failure.
 */
int opd_ns_fix_record(struct opd_ns *ns, const void *data, size_t len,
		      uint64_t sample_type, struct op_strbuf *out);

/*
 * opd_ns_fix_record() over len bytes of whole records (a ring buffer's
 * read): 1 when out (reset first) holds them with the fixed records in
 * place of the old ones, 0 when none needed fixing (out unused).  Bytes
 * that do not split into records are passed on as they are.
 */
int opd_ns_fix_records(struct opd_ns *ns, const void *data, size_t len,
		       uint64_t sample_type, struct op_strbuf *out);

/* the counts so far; borrowed, valid until opd_ns_free() */
const struct opd_ns_stats *opd_ns_stats(const struct opd_ns *ns);

/* answers cached, and mountinfo tables of other namespaces kept */
size_t opd_ns_nr_cached(const struct opd_ns *ns);
size_t opd_ns_nr_tables(const struct opd_ns *ns);

#endif
