/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fake sessions for the libpp tests: sample files written with libdb and
 * the files operf puts beside them, in a test's own directory.  Each
 * helper fails the running cmocka test on any error.
 */
#ifndef PP_TEST_SESSION_H
#define PP_TEST_SESSION_H

#include <stddef.h>

/* dir/rel as a new string (caller frees) */
char *pp_test_path(const char *dir, const char *rel);

/* a sample file at dir/rel with nr_keys keys, parents made as needed */
void pp_test_sample(const char *dir, const char *rel, unsigned nr_keys);

/* a plain file at dir/rel holding text, parents made as needed */
void pp_test_file(const char *dir, const char *rel, const char *text);

/* the sample files of names[] (NULL-terminated) in dir */
void pp_test_samples(const char *dir, const char *const *names);

#endif
