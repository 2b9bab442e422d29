/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Functions we never call, banned at compile time.  config.h includes this
 * header last, so every translation unit sees it.  The libc headers that
 * declare the banned functions are included first: their include guards
 * then keep later #includes from expanding the macros below.
 *
 * Use instead: struct op_strbuf or snprintf() with its result checked
 * (sprintf, strcpy, strcat, strncpy), strtok_r() (strtok), fgets() (gets),
 * op_parse_*() from libutil/op_parse.h (atoi).
 */
#ifndef OP_BANNED_H
#define OP_BANNED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OP_BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) OP_BANNED(strcpy)
#undef strcat
#define strcat(x, y) OP_BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) OP_BANNED(strncpy)
#undef sprintf
#define sprintf(...) OP_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) OP_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) OP_BANNED(strtok)
#undef gets
#define gets(x) OP_BANNED(gets)
#undef atoi
#define atoi(x) OP_BANNED(atoi)

#endif
