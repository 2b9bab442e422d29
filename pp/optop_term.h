/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optop's terminal: keys read one at a time without echo while the view
 * runs, the terminal given back as it was at the end (and on SIGINT,
 * SIGTERM, SIGHUP, which end the view), and its size.
 */
#ifndef OPTOP_TERM_H
#define OPTOP_TERM_H

#include <stdbool.h>

/* keys without echo on standard input, when it is a terminal: true if so */
bool optop_term_raw(void);

/* the terminal as it was before optop_term_raw() (nothing if it was not) */
void optop_term_restore(void);

/*
 * Wait up to ms milliseconds (0: none) for a key on standard input
 * (raw terminal) or just sleep (other input): the key, or 0 when none
 * came, or -1 when a signal asked to stop.
 */
int optop_term_wait(int ms, bool keys);

/* the terminal's rows (24 when unknown) */
int optop_term_rows(void);

/* did SIGINT, SIGTERM or SIGHUP come? (handlers set by optop_term_signals) */
bool optop_term_stopped(void);
void optop_term_signals(void);

#endif
