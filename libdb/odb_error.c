// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages for libdb's error codes, generated from the ODB_ERRORS list. */
#include "config.h"

#include <string.h>

#include "libdb/odb.h"

static const char *const odb_messages[] = {
#define ODB_ERROR(name, text) [ODB_ERR_##name - ODB_ERR_BASE] = text,
	ODB_ERRORS
#undef ODB_ERROR
};

const char *odb_strerror(int err)
{
	if (err > ODB_ERR_BASE && err < ODB_ERR_END)
		return odb_messages[err - ODB_ERR_BASE];
	if (err < 0 && err > -4096)
		return strerror(-err);
	return "unknown error";
}
