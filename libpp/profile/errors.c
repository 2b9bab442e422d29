// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages of libpp/profile's error codes, from the PP_PROFILE_ERRORS list. */
#include "config.h"

#include "libdb/odb.h"
#include "libpp/profile/pp_errors.h"

static const char *const messages[] = {
#define PP_PROFILE_ERROR(name, text) [PP_PROFILE_ERR_##name - PP_PROFILE_ERR_BASE] = text,
	PP_PROFILE_ERRORS
#undef PP_PROFILE_ERROR
};

const char *pp_profile_strerror(int err)
{
	if (err > PP_PROFILE_ERR_BASE && err < PP_PROFILE_ERR_END)
		return messages[err - PP_PROFILE_ERR_BASE];
	/* libdb's codes and errno values */
	return odb_strerror(err);
}
