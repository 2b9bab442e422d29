/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A session directory's files beside the sample files.  The layout:
 *
 *	SESSION/abi				the writer's sample-file layout
 *	SESSION/samples/operf.log		statistics, appended each run
 *	SESSION/samples/current/		the sample files of the last run
 *	SESSION/samples/current/stats/		what it lost (odb_stats.h)
 *	SESSION/samples/current/session.info	what it was (odb_session_info.h)
 *	SESSION/samples/current/kernel/kallsyms	/proc/kallsyms and
 *	SESSION/samples/current/kernel/modules	/proc/modules at its start
 *	SESSION/samples/previous/		the run before
 *
 * OProfile 1.4's readers take only files below current/{root} and
 * current/{kern} as sample files, so the extra files are safe.  The
 * kernel copies are the kernel's text, stored verbatim, so that reports
 * made after a reboot still resolve kernel addresses; libpp reads them.
 *
 * Nothing here prints or exits; allocation failures are -ENOMEM.
 */
#ifndef ODB_SESSION_H
#define ODB_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "libutil/op_dir.h"

/*
 * Write SESSION/abi for this build: "NAME VALUE" lines with the sizes and
 * offsets of the sample-file structures and the byte order, the keys
 * OProfile 1.4's opimport reads (odb_abi.h reads them back).  Written
 * whole through a temporary file, never through a symlink (op_dir.h).
 * Returns 0 or a negative errno.
 */
int odb_session_write_abi(const struct op_dir *session);

enum odb_kernel_copy {
	ODB_KERNEL_KALLSYMS,	/* kernel/kallsyms */
	ODB_KERNEL_MODULES,	/* kernel/modules */
	ODB_KERNEL_VDSO,	/* kernel/vdso.so: the vdso image */
};

/*
 * Store the kernel's kallsyms text (kallsyms_len bytes) and modules text
 * (modules_len bytes) under dir/kernel/ (dir: the samples directory);
 * either may be NULL and is then not written.  Returns 0 or a negative
 * errno.
 */
int odb_session_store_kernel(const struct op_dir *dir, const char *kallsyms,
			     size_t kallsyms_len, const char *modules,
			     size_t modules_len);

/*
 * Store the vdso image the kernel maps into processes (len bytes) as
 * dir/kernel/vdso.so.  Returns 0 or a negative errno.
 */
int odb_session_store_vdso(const struct op_dir *dir, const void *image, size_t len);

/* the names of the run's processes and threads, under the samples
 * directory (oprofile-ng-session(5), PROCESS NAMES) */
#define ODB_SESSION_COMMS "comms"

/* store the comms text (len bytes) as dir/comms; 0 or a negative errno */
int odb_session_store_comms(const struct op_dir *dir, const char *text, size_t len);

/* the build-ids of the run's binaries, under the samples directory
 * (oprofile-ng-session(5), BUILD-IDS) */
#define ODB_SESSION_BUILDIDS "buildids"

/* store the buildids text as dir/buildids; 0 or a negative errno */
int odb_session_store_buildids(const struct op_dir *dir, const char *text, size_t len);

/* the real paths of images written as long names, under the samples
 * directory (oprofile-ng-session(5), LONG NAMES; odb_longnames.h) */
#define ODB_SESSION_LONGNAMES "longnames"

/* store the longnames text as dir/longnames; 0 or a negative errno */
int odb_session_store_longnames(const struct op_dir *dir, const char *text, size_t len);

/* where perf map files of JIT code are kept, under the samples directory */
#define ODB_SESSION_JIT_DIR "jit"

/*
 * Store the perf map file of process tgid (len bytes of "START SIZE
 * NAME" lines) as dir/jit/perf-TGID.map.  Returns 0 or a negative errno.
 */
int odb_session_store_jitmap(const struct op_dir *dir, uint32_t tgid, const void *text,
			     size_t len);

/*
 * Store the ELF image of the code in process tgid's jitdump (len bytes,
 * daemon/opd_jitelf.h) as dir/jit/TGID.jo.  Returns 0 or a negative errno.
 */
int odb_session_store_jitelf(const struct op_dir *dir, uint32_t tgid, const void *image,
			     size_t len);

/* the jitdump files the last run's processes mapped, under the samples
 * directory ("TGID PATH" lines, daemon/opd_jit.h writes and reads them) */
#define ODB_SESSION_JITDUMPS ODB_SESSION_JIT_DIR "/dumps"

/* store the list (len bytes) as dir/jit/dumps; 0 or a negative errno */
int odb_session_store_jitdumps(const struct op_dir *dir, const char *text, size_t len);

/*
 * Read the session file dir/name whole (at most max bytes) into *text,
 * NUL-terminated, for the caller to free.  Who reads a session may not be
 * who wrote it (root reporting on a user's session): any owner will do,
 * but the file must be itself, a regular file, never followed through a
 * symlink nor waited on as a FIFO: ODB_ERR_NOT_REGULAR otherwise.
 * Returns 0, -ENOENT when it is missing, -EFBIG, -ENOMEM or -errno.
 */
int odb_session_read(const char *dir, const char *name, size_t max, char **text,
		     size_t *len);

/*
 * The path of a kernel copy under dir when it is a regular file, for the
 * caller to free; NULL with *err -ENOENT when there is none, or -ENOMEM.
 */
char *odb_session_kernel_copy(const char *dir, enum odb_kernel_copy which,
			      int *err);

#endif
