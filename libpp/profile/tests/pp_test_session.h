/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fake sessions for the libpp tests: sample files written with libdb and
 * the files operf puts beside them, in a test's own directory, and the
 * profiles built from them.  Each helper fails the running cmocka test
 * on any error.
 */
#ifndef PP_TEST_SESSION_H
#define PP_TEST_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpp/profile/pp_notes.h"
#include "libpp/profile/pp_profile.h"
#include "libpp/profile/pp_session.h"
#include "libpp/profile/pp_spec.h"
#include "libutil/op_strbuf.h"

/* dir/rel as a new string (caller frees) */
char *pp_test_path(const char *dir, const char *rel);

/* a sample file at dir/rel with nr_keys keys, parents made as needed */
void pp_test_sample(const char *dir, const char *rel, unsigned nr_keys);

/* a plain file at dir/rel holding text, parents made as needed */
void pp_test_file(const char *dir, const char *rel, const char *text);

/* the sample files of names[] (NULL-terminated) in dir */
void pp_test_samples(const char *dir, const char *const *names);

/* where the sample files of the session "current" of a session dir are */
#define PP_TEST_CURRENT "samples/current/"

/* the op_cpu number of i386/skylake, the cpu of pp_test_odb()'s headers */
#define PP_TEST_CPU_SKYLAKE 80u

/*
 * A sample file at dir/samples/current/rel (a sample-file name) holding
 * keys: "KEY:COUNT KEY:COUNT ...", hex keys and decimal counts, a key
 * given twice adding up.  Its header: i386/skylake at 2400 MHz, the
 * count and unit mask of the name, is_kernel as kernel.
 */
void pp_test_odb(const char *dir, const char *rel, const char *keys, bool kernel);

/* the files of one session and the profile built from them */
struct pp_test_profile {
	struct pp_session_dir sd;
	struct pp_spec_set spec;
	struct pp_file_list list;
	struct pp_profile p;
	struct pp_notes notes;		/* every distinct note goes to noted */
	struct op_strbuf noted;		/* the notes, each ending in '\n' */
};

/*
 * List the sample files of the session directory dir that spec (a
 * NULL-ended profile specification, or NULL) selects, and build their
 * profile with merge and sym_opts (borrowed: it must outlive t).
 * Returns pp_profile_build()'s result, err its message; t is released
 * with pp_test_profile_release() whatever it returns.
 */
int pp_test_profile_build(struct pp_test_profile *t, const char *dir,
			  const char *const *spec, unsigned merge,
			  const struct pp_sym_opts *sym_opts, struct op_err *err);
void pp_test_profile_release(struct pp_test_profile *t);

/* the index of the image (the application) of p whose id has that name */
size_t pp_test_image(const struct pp_profile *p, const char *name);
size_t pp_test_app(const struct pp_profile *p, const char *name);

#endif
