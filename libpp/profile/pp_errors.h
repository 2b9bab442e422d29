/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The errors of libpp/profile: one list for profile specifications,
 * profiles and their loading.  Functions of this library return 0 or a
 * negative code: -errno, a code of the list below (all below -4096), or a
 * libdb code passed up from a sample file (ODB_ERR_*).
 * pp_profile_strerror() gives the text of any of them.
 */
#ifndef PP_ERRORS_H
#define PP_ERRORS_H

#define PP_PROFILE_ERRORS						\
	PP_PROFILE_ERROR(UNKNOWN_TAG, "unknown tag in profile specification") \
	PP_PROFILE_ERROR(EMPTY_VALUE, "empty value in profile specification") \
	PP_PROFILE_ERROR(BAD_NUMBER, "bad number in profile specification") \
	PP_PROFILE_ERROR(BAD_BRACES, "unbalanced or misplaced braces")	\
	PP_PROFILE_ERROR(TOO_MANY_SIDES, "a differential profile has two sides") \
	PP_PROFILE_ERROR(TWO_ARCHIVES, "archive: given more than once")	\
	PP_PROFILE_ERROR(AXES, "samples differ along two axes")		\
	PP_PROFILE_ERROR(EMPTY, "no sample files")			\
	PP_PROFILE_ERROR(BAD_MERGE, "bad --merge value")		\
	PP_PROFILE_ERROR(UNREADABLE, "no sample file could be read")	\
	PP_PROFILE_ERROR(NO_SLICES, "the session has no time slices")

enum pp_profile_error {
	PP_PROFILE_ERR_BASE = -7200,
#define PP_PROFILE_ERROR(name, text) PP_PROFILE_ERR_##name,
	PP_PROFILE_ERRORS
#undef PP_PROFILE_ERROR
	PP_PROFILE_ERR_END
};

/* the text of a code of this library, of libdb, or a negative errno */
const char *pp_profile_strerror(int err);

#endif
