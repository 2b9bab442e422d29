/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SESSION/daemonrc: the system-wide daemon's setup, which opcontrol
 * writes (its --event, --separate, --callgraph, ... options) and
 * oprofiled reads when it starts, so that later commands reuse it.
 * OProfile kept the same settings in ~root/.oprofile/daemonrc.  Text, one
 * "KEY=VALUE" line each, every key once, in any order; '#' starts a
 * comment line:
 *
 *	events=SPEC[,SPEC...]		empty: the default event
 *	separate=WORD[,WORD...]		none, or some of lib,kernel,thread,cpu
 *	callgraph=DEPTH			0: no call graphs (at most 1024)
 *	vmlinux=PATH			empty: none given
 *	no-vmlinux=0|1
 *	image=PATH[,PATH...]		empty: every binary
 *	buffer-size=SAMPLES		0: the default
 *	cpu-buffer-size=SAMPLES		0: the default
 *	slice=NS|none			time slices of NS ns (1 ms .. 1 h),
 *					0: the default (1 s), none: no slices
 *
 * A missing key takes its default; lines may end in CRLF.  An unknown
 * key, a key given twice, a bad value (an empty word or path among commas
 * too), a line of more than ODB_SETUP_MAX_LINE bytes or one holding a NUL
 * byte or a carriage return (but the CR of a CRLF) is an error naming the
 * line, so that a damaged file is never half-applied.
 *
 * Nothing here prints or exits; allocation failures are -ENOMEM.
 */
#ifndef ODB_SETUP_H
#define ODB_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_dir.h"
#include "libutil/op_error.h"
#include "libutil/op_strbuf.h"

#define ODB_SETUP_FILE "daemonrc"
#define ODB_SETUP_MAX_LINE 65536
#define ODB_SETUP_MAX_DEPTH 1024

enum odb_separate {
	ODB_SEPARATE_LIB = 1 << 0,
	ODB_SEPARATE_KERNEL = 1 << 1,
	ODB_SEPARATE_THREAD = 1 << 2,
	ODB_SEPARATE_CPU = 1 << 3,
	ODB_SEPARATE_ALL = (1 << 4) - 1,
};

/* the settings; every string owned, NULL where unset */
struct odb_setup {
	char *events;		/* comma-separated event specifications */
	unsigned separate;	/* enum odb_separate bits */
	uint32_t callgraph;	/* call-graph depth, 0 for none */
	char *vmlinux;
	bool no_vmlinux;
	char **images;		/* absolute paths */
	size_t nr_images;
	uint64_t buffer_size;	/* samples, 0 for the default */
	uint64_t cpu_buffer_size;	/* samples per cpu, 0 for the default */
	uint64_t slice_ns;	/* time slices: 0 for the default (1 s),
				 * ODB_SETUP_NO_SLICES for none */
};

#define ODB_SETUP_NO_SLICES UINT64_MAX

/* the slice length setup asks for: ns, 0 for none */
uint64_t odb_setup_slice_ns(const struct odb_setup *setup);

/* "Time slices: 0.25 s\n" or "Time slices: none\n" appended to sb */
void odb_setup_slice_text(uint64_t slice_ns, struct op_strbuf *sb);

/*
 * Parse a --separate value ("none", or a comma list of lib, kernel,
 * thread, cpu, all) into *bits.  0, or -EINVAL naming the bad word in
 * err.  "kernel" implies "lib", as with OProfile.
 */
int odb_setup_parse_separate(const char *text, unsigned *bits, struct op_err *err);

/* "none" or the words of bits, comma-separated, appended to sb */
void odb_setup_separate_text(unsigned bits, struct op_strbuf *sb);

/*
 * Parse an --image value ("all", or absolute paths separated by commas)
 * into setup's images (replacing them).  0, or -EINVAL with the reason
 * in err, or -ENOMEM.
 */
int odb_setup_parse_images(struct odb_setup *setup, const char *text,
			   struct op_err *err);

/*
 * The text of setup (see above) appended to sb.  0; -ENOMEM if sb
 * failed; -EINVAL, with nothing appended, when odb_setup_parse() could
 * not read the text back: a string holding a newline or carriage
 * return, an image path that is not absolute or holds a comma, more
 * than 4096 images, callgraph over ODB_SETUP_MAX_DEPTH, a buffer size
 * over UINT32_MAX, or a line (a long image or event list) of more than
 * ODB_SETUP_MAX_LINE bytes.
 */
int odb_setup_format(const struct odb_setup *setup, struct op_strbuf *sb);

/*
 * Parse text (len bytes, need not be NUL-terminated) into setup, which
 * is cleared first and must be released either way.  0, or -EINVAL with
 * the line and reason in err, or -ENOMEM.
 */
int odb_setup_parse(const char *text, size_t len, struct odb_setup *setup,
		    struct op_err *err);

/* write dir/daemonrc atomically (mode 0600); 0 or a negative errno */
int odb_setup_write(const struct op_dir *dir, const struct odb_setup *setup);

/*
 * Read DIR/daemonrc (never through a symlink).  -ENOENT when there is
 * none (setup then holds the defaults); other errors as
 * odb_setup_parse() or odb_session_read().
 */
int odb_setup_read(const char *dir, struct odb_setup *setup, struct op_err *err);

void odb_setup_release(struct odb_setup *setup);

#endif
