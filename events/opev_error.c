// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages for the events library's error codes, from the OPEV_ERRORS list. */
#include "config.h"

#include <string.h>

#include "events/opev.h"

static const char *const opev_messages[] = {
#define OPEV_ERROR(name, text) [OPEV_ERR_##name - OPEV_ERR_BASE] = text,
	OPEV_ERRORS
#undef OPEV_ERROR
};

const char *opev_strerror(int err)
{
	if (err > OPEV_ERR_BASE && err < OPEV_ERR_END)
		return opev_messages[err - OPEV_ERR_BASE];
	if (err < 0 && err > -4096)
		return strerror(-err);
	return "unknown error";
}
