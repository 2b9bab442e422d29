/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JIT code in the session (oprofile-ng-session(5), JIT CODE), so that
 * reports name the generated code after the process and its files are
 * gone.  Perf map files: at the end of a run, the /tmp/perf-PID.map of
 * each process that has samples in anonymous memory is copied.  jitdump
 * files: the engine remembers each one a process maps (opd_jit_dumps_add()),
 * and at the end of a run each is converted into an ELF image of its
 * code (opd_jitelf.h), stored as jit/TGID.jo.
 */
#ifndef OPD_JIT_H
#define OPD_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_dir.h"
#include "libutil/op_strbuf.h"

/*
 * Copy the map files of the processes with anonymous-memory sample
 * files under current (the run's samples directory) into current/jit/.
 * Returns how many were copied, or a negative errno when one could not
 * be written (*failed names its process's file).
 */
int opd_jit_store(const struct op_dir *current, char *failed, size_t failed_len);

/* the jitdump files mapped by the processes of a run */
struct opd_jit_dumps {
	struct opd_jit_dump_ref {
		uint32_t tgid;
		char *path;
		/* the file as last converted (or refused), so that a
		 * daemon's every dump does not convert it again */
		bool seen, refused;
		int64_t size, mtime_ns;
	} *v;
	size_t nr;
};

/* remember that process tgid mapped the jitdump at path (once each) */
void opd_jit_dumps_add(struct opd_jit_dumps *l, uint32_t tgid, const char *path);

/* forget them all; the list is empty again */
void opd_jit_dumps_release(struct opd_jit_dumps *l);

/*
 * The list as the session keeps it (jit/dumps, oprofile-ng-session(5),
 * JIT CODE): one "TGID PATH" line per dump, PATH escaped as op_field.h
 * writes fields; appended to sb.
 */
void opd_jit_dumps_text(const struct opd_jit_dumps *l, struct op_strbuf *sb);

/*
 * Add the dumps of such a text (NUL-terminated) to l; lines that do not
 * parse (no TGID, no absolute PATH) are skipped.
 */
void opd_jit_dumps_parse(struct opd_jit_dumps *l, const char *text);

/* what converting one jitdump gave */
struct opd_jit_conv {
	unsigned char *image;		/* the ELF image; caller frees */
	size_t len;
	size_t nr_syms;			/* its symbols */
	size_t nr_codes;		/* code loads and moves read */
	uint32_t pid;			/* from the dump's header */
	bool cut;			/* the last record was cut short */
};

/*
 * Read the jitdump at path and make the ELF image of its code into *c.
 * owned: the file must be one op_read_owned_file() reads (not a symlink,
 * owned by this user or root), as for a file a profiled process named;
 * else any regular file, never followed through a symlink.  Returns 0, or
 * -errno or an OPD_JITDUMP_ERR_* code (opd_jitdump_strerror()).
 */
int opd_jit_convert(const char *path, bool owned, struct opd_jit_conv *c);

/*
 * Convert each jitdump of l into current/jit/TGID.jo, and list them all
 * in current/jit/dumps (for opjitconv(1) to convert again).  A dump
 * unchanged (size and time) since the last call is left alone when its
 * image is still there or it was refused.  Returns how many were stored;
 * those that could not be read or converted are left out, each reported
 * through warn(path, error code, data) when warn is set, as is a list that
 * cannot be written (with path NULL).
 */
int opd_jit_store_dumps(const struct op_dir *current, struct opd_jit_dumps *l,
			void (*warn)(const char *path, int err, void *data), void *data);

#endif
