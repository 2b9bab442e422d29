/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Open sample files, found by the fields of a transient that matter for
 * the --separate settings (the key), created on first use under their
 * mangled name (oprofile-ng-formats(5), SAMPLE FILE NAMES), and kept open in a least-recently-used
 * list bounded below the descriptor limit.  An evicted file is reopened
 * (its header rewritten, as oprofile-ng-formats(5) says) when samples arrive again.
 */
#ifndef OPD_SFILE_H
#define OPD_SFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/opd_image.h"
#include "events/opev.h"
#include "libdb/odb.h"
#include "libutil/op_dir.h"
#include "libutil/op_hmap.h"
#include "libutil/op_list.h"
#include "libutil/op_strbuf.h"

#define OPD_ALL UINT32_MAX	/* "all" in a tgid, tid or cpu field */

struct opd_sfile_key {
	uint32_t app;		/* cookie of the main executable */
	uint32_t image;		/* cookie of the sampled (caller) image */
	uint32_t cg_to;		/* callee cookie of a {cg} file, else 0 */
	uint32_t event;		/* index into the events */
	uint32_t tgid, tid, cpu;	/* OPD_ALL unless separated */
};

struct opd_sfile {
	struct opd_sfile_key key;
	uint64_t hash;
	struct odb_file *odb;	/* NULL while closed */
	struct op_list lru;	/* on opd_sfiles.lru (open files) while open */
	uint64_t last_use;	/* opd_sfiles.uses when last added to */
	uint64_t retry_time;	/* after a failure: no retry before this */
	uint32_t slice_gen;	/* opd_slices.gen when slice_id was given */
	uint32_t slice_id;	/* its number in the slice file */
	bool made;		/* opened (so on disk) at least once */
	bool dirty;		/* added to since the last opd_sfiles_sync() */
};

struct opd_sfiles {
	const struct op_dir *samples;	/* SESSION/samples/current, borrowed */
	const struct opev_event *events;	/* borrowed */
	struct opd_images *images;	/* borrowed */
	double cpu_speed;
	unsigned max_open;
	unsigned nr_open;
	struct op_hmap by_key;
	struct op_list lru;		/* the open files, in no order */
	uint64_t uses;			/* adds so far: the LRU clock */
	struct opd_sfile *cache[16];	/* by key hash: direct-mapped */
	int first_error;		/* first open/add failure, 0 if none */
	size_t nr_made;			/* sample files on disk */
	bool full;			/* the disk is full: no new files tried */
	char first_error_path[512];
};

void opd_sfiles_init(struct opd_sfiles *sf, const struct op_dir *samples,
		     const struct opev_event *events, struct opd_images *images,
		     double cpu_speed, unsigned max_open);
/* close every file; returns the first close error (0 if none) */
int opd_sfiles_release(struct opd_sfiles *sf);

/*
 * Add count to key in the sample file for k, opening or creating it as
 * needed.  now is the record time, for retrying files that failed.
 * Returns 0, or a negative error (odb or errno) after which the sample
 * counts as lost; the first one is kept in first_error.
 */
int opd_sfiles_add(struct opd_sfiles *sf, const struct opd_sfile_key *k,
		   uint64_t key, uint64_t count, uint64_t now);

/* the entry for k, made (not opened) if new; lives until release */
struct opd_sfile *opd_sfiles_get(struct opd_sfiles *sf, const struct opd_sfile_key *k);

/* add to an entry from opd_sfiles_get(), as opd_sfiles_add() does */
int opd_sfile_add(struct opd_sfiles *sf, struct opd_sfile *f, uint64_t key,
		  uint64_t count, uint64_t now);

/* build the path of a sample file, relative to sf->samples, into sb;
 * 0 or -ENOMEM */
int opd_sfile_path(const struct opd_sfiles *sf, const struct opd_sfile_key *k,
		   struct op_strbuf *sb);

/*
 * Start writing back the open files added to since the last call
 * (odb_file_sync() without waiting), so that a crash of the machine
 * loses only what came after
 */
void opd_sfiles_sync(struct opd_sfiles *sf);

/*
 * Close every open file.  With forget, the files count as never made
 * and the failure state is cleared (their directory was emptied or moved
 * away: the next sample creates its file anew).  Entries stay valid
 * (mappings keep pointers to them).  Returns the first close error.
 */
int opd_sfiles_close_all(struct opd_sfiles *sf, bool forget);

#endif
