/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ophelp's parts: the main and its small queries (ophelp.c), the
 * capability report of --check (ophelp_check.c) and the XML event list
 * (ophelp_xml.c).  Each prints its own output and messages and returns
 * the exit status: 0, 1 (the machine cannot), 2 (a bad argument).
 */
#ifndef OPHELP_H
#define OPHELP_H

#include <stdbool.h>
#include <stdint.h>

/* --check: what profiling this machine allows, a line per fact */
int ophelp_check(void);

/*
 * --xml: the events in OProfile's ophelp.xsd form; this machine's
 * (probed: the software clocks only without a PMU) when tables is false,
 * else libpfm4's tables of cpu_type (--cpu-type)
 */
int ophelp_xml(bool tables, uint32_t cpu_type);

#endif
