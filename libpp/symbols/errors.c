// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages of libpp/symbols' error codes, from the PP_SYMBOLS_ERRORS list. */
#include "config.h"

#include "libpp/symbols/pp_symbols.h"

static const char *const messages[] = {
#define PP_SYMBOLS_ERROR(name, text) [PP_SYMBOLS_ERR_##name - PP_SYMBOLS_ERR_BASE] = text,
	PP_SYMBOLS_ERRORS
#undef PP_SYMBOLS_ERROR
};

const char *pp_symbols_strerror(int err)
{
	if (err > PP_SYMBOLS_ERR_BASE && err < PP_SYMBOLS_ERR_END)
		return messages[err - PP_SYMBOLS_ERR_BASE];
	return op_strerror(err);
}
