/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A profile ready for reporting, built from the sample files a profile
 * specification selected:
 *
 *  - classes: after --merge, the files may still differ along one axis
 *    (event, unit mask, tgid, tid, cpu); each value is a class, shown as
 *    a column.  A second differing axis is an error naming both.
 *  - apps: the main executables; with --merge=lib every image is its own
 *    app.
 *  - images: every image samples fell in, each with the groups of files
 *    that hold its samples, one group per (app, class).  This is the
 *    inverted profile: a library used by many applications is one image,
 *    so its symbols are loaded once.
 *  - call-graph groups: {cg} files per (app, class, caller image, callee
 *    image).
 *
 * Loading is lazy: pp_profile_build() reads only names; the samples of a
 * group are read (into a sorted array of distinct keys with 64-bit
 * counts) when a report asks, and symbols are attributed by walking that
 * array against the image's symbol table.  Cost follows the number of
 * distinct addresses, never the number of samples.
 *
 * Errors: 0 or a negative code of pp_errors.h (-errno, PP_PROFILE_ERR_*,
 * or a libdb code of a sample file).  Memory: like all of libpp/profile,
 * dies with "out of memory" (libutil's op_x* forms); nothing here returns
 * -ENOMEM.  A struct pp_profile owns everything it points to except the
 * file list and the symbol options it borrows.
 */
#ifndef PP_PROFILE_H
#define PP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libdb/odb.h"
#include "libpp/profile/pp_errors.h"
#include "libpp/profile/pp_notes.h"
#include "libdb/odb_name.h"
#include "libpp/profile/pp_session.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_error.h"

enum pp_merge {
	PP_MERGE_LIB = 1 << 0,		/* libraries as their own apps */
	PP_MERGE_CPU = 1 << 1,
	PP_MERGE_TID = 1 << 2,
	PP_MERGE_TGID = 1 << 3,
	PP_MERGE_UNITMASK = 1 << 4,
	PP_MERGE_ALL = 0x1f,
	/*
	 * Not a --merge value: classes as opreport -X makes them.  They may
	 * differ along several axes at once (axis is then PP_AXIS_NONE) and
	 * are ordered by tgid, tid, unit mask, event, count, then cpu.
	 */
	PP_CLASSES_XML = 1 << 8,
};

/*
 * Parse a --merge list ("lib,cpu", "all") into *merge.  Returns 0, or
 * PP_PROFILE_ERR_BAD_MERGE (err names the bad word).
 */
int pp_merge_parse(const char *list, unsigned *merge, struct op_err *err);

enum pp_axis {
	PP_AXIS_EVENT,
	PP_AXIS_UNITMASK,
	PP_AXIS_TGID,
	PP_AXIS_TID,
	PP_AXIS_CPU,
	PP_AXIS_NONE,
};

/* the fields that make a class; merged fields are ODB_ALL */
struct pp_template {
	const char *event;	/* borrowed from a file's name */
	int count;
	int64_t unit_mask;	/* ODB_ALL when merged */
	int64_t tgid, tid, cpu;
};

struct pp_class {
	struct pp_template t;
	char *name;		/* "cpu:0", "cpu_clk_unhalted:100000" */
	char *longname;		/* "Samples on CPU 0", ... */
	const struct pp_sample_file *first;	/* a file for the header */
	struct opd_header header;	/* its header */
	uint64_t total;		/* samples of the class (after loading) */
};

/* a distinct key with its count */
struct pp_kc {
	uint64_t key;
	uint64_t count;
};

struct pp_group {
	size_t image, app, cls;		/* indexes */
	const struct pp_sample_file **files;
	size_t nr_files;
	bool loaded;
	size_t nr_read;			/* files read (the others were skipped) */
	struct pp_kc *kc;		/* sorted by key, distinct */
	size_t nr_kc;
	uint64_t total;
};

struct pp_image {
	struct odb_image_id id;
	bool is_kernel;			/* from the sample-file headers, unless
					 * the image contradicts them */
	const char *flag_file;		/* the sample file whose header's
					 * kernel flag the image contradicts
					 * (ignored: is_kernel is the image's
					 * kind), or NULL; borrowed from the
					 * file list */
	uint64_t mtime;			/* header mtime (first file) */
	size_t *groups;			/* indexes of its groups */
	size_t nr_groups;
	struct pp_symtab *symtab;	/* loaded on demand */
	bool checked;			/* missing/changed binary reported */
};

struct pp_app {
	struct odb_image_id id;
	size_t own_image;		/* the image that is the app itself, or
					 * SIZE_MAX when it has no samples */
};

struct pp_cg_group {
	size_t app, cls, caller, callee;	/* caller/callee: image indexes */
	const struct pp_sample_file **files;
	size_t nr_files;
	bool loaded;
	struct pp_kc *kc;		/* key = (from << 32) | to */
	size_t nr_kc;
};

struct pp_profile {
	struct pp_class *classes;
	size_t nr_classes;
	enum pp_axis axis;
	struct pp_app *apps;
	size_t nr_apps;
	struct pp_image *images;
	size_t nr_images;
	struct pp_group *groups;
	size_t nr_groups;
	struct pp_cg_group *cg;
	size_t nr_cg;
	unsigned merge;
	const struct pp_sym_opts *sym_opts;	/* borrowed */
	/* pp_profile_symtab_ahead(): the table of image ahead_image, made
	 * by another thread, taken by pp_profile_load() or when needed */
	struct pp_symtab_ahead *ahead;
	size_t ahead_image;
};

/*
 * Build the profile of the files of list (borrowed: it must outlive p)
 * with the symbol options sym_opts (borrowed too).  Reads names and one
 * header per class, no samples.  Fails with PP_PROFILE_ERR_AXES (err
 * names both axes and suggests a tag or --merge), PP_PROFILE_ERR_EMPTY,
 * or, when no sample file at all has a readable header, the error of
 * one of them (-errno or ODB_ERR_*; err names the file).  p is released on
 * failure; release it with pp_profile_release() after success.
 */
int pp_profile_build(struct pp_profile *p, const struct pp_file_list *list,
		     unsigned merge, const struct pp_sym_opts *sym_opts,
		     struct op_err *err);
void pp_profile_release(struct pp_profile *p);

/*
 * Read the samples of group g if not done yet.  Each sample file that
 * cannot be read is noted through n (one line naming it and why) and
 * skipped: the group keeps what the other files had.  Returns 0, or the
 * error of the first file skipped.
 */
int pp_group_load(struct pp_profile *p, struct pp_group *g, struct pp_notes *n);
int pp_cg_group_load(struct pp_profile *p, struct pp_cg_group *g,
		     struct pp_notes *n);

/*
 * Read every group (a file that cannot be read is noted through n and
 * skipped) and, with symbols, the symbol tables of the images with
 * samples, two threads sharing the work; the notes come in group order
 * whichever thread read what.  Once per report: groups already read are
 * not read again.  Returns 0, or PP_PROFILE_ERR_UNREADABLE (err
 * says how many were skipped) when the profile has sample files and none
 * of them could be read.
 */
int pp_profile_load(struct pp_profile *p, bool symbols, struct pp_notes *n,
		    struct op_err *err);

/*
 * Forget the samples read (groups, arcs, class totals), keeping the
 * symbol tables, so that the next pp_profile_load() reads them again:
 * after pp_time_select() changed what the files hold
 */
void pp_profile_unload(struct pp_profile *p);

/*
 * The symbol table of image i, loaded on first use (see pp_symbols.h),
 * its extent for a missing binary reaching the largest key of the
 * image's loaded groups.  Never NULL (a binary that cannot be read gives
 * a table of one artificial symbol); owned by the profile, valid until
 * pp_profile_release().
 */
struct pp_symtab *pp_image_symtab(struct pp_profile *p, size_t i);

/*
 * Give p the table of the image id (a kernel image when is_kernel) that
 * a's thread is making (pp_symtab_ahead_start()), started before p was
 * built: pp_profile_load() reads the other tables meanwhile and takes it
 * last.  True when p took a (an image of p is id and has no table yet),
 * false when the caller keeps it.
 */
bool pp_profile_symtab_ahead(struct pp_profile *p, const struct odb_image_id *id,
			     bool is_kernel, struct pp_symtab_ahead *a);


/*
 * Does class cls count the event name: is its event that name (case
 * ignored, '_' matching '-'), or a core PMU event counting what perf's
 * generic event of that name does (name "instructions", event
 * INST_RETIRED)?  For derived metrics.
 */
bool pp_class_counts(const struct pp_profile *p, size_t cls, const char *name);

/*
 * Is image the application's own (its main executable), not a library,
 * module or kernel it uses?
 */
static inline bool pp_profile_own_image(const struct pp_profile *p, size_t app,
					size_t image)
{
	return p->apps[app].own_image == image;
}

/* how the profile's symbol names are shown (its symbol options' -D) */
static inline enum pp_demangle_mode pp_profile_demangle(const struct pp_profile *p)
{
	return p->sym_opts ? p->sym_opts->demangle : PP_DEMANGLE_NONE;
}

/*
 * The cpu type of a sample-file header as OProfile names it
 * ("i386/skylake"), or NULL when it is not one we know.
 */
const char *pp_cpu_type_name(uint32_t cpu_type);
/* how OProfile 1.4's reports name it ("Intel Skylake microarchitecture"),
 * NULL when unknown */
const char *pp_cpu_type_display_name(uint32_t cpu_type);
/*
 * The descriptions of event and of its unit mask um (cpu_type's, from
 * libpfm4): 0, or an error when libpfm4 does not know the event there
 */
int pp_event_describe(uint32_t cpu_type, const char *event, uint32_t um, char *desc,
		      size_t desc_size, char *um_desc, size_t um_desc_size);

/* does a header's cpu type say "timer" (software clocks, the timer type)? */
bool pp_cpu_type_is_timer(uint32_t cpu_type);

#endif
