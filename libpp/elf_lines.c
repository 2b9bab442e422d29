// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source lines from DWARF (pp_int.h), for -g and opannotate.
 *
 * An address is found in its compile unit through .debug_aranges
 * (dwarf_addrdie); objects built without aranges (clang's default) are
 * looked up in a table of every CU's address ranges, built on the first
 * miss.  The line is the last row of the CU's line table at or before the
 * address (dwarf_getsrc_die).
 */
#include "config.h"

#include <errno.h>
#include <elfutils/libdw.h>
#include <stdlib.h>

#include "libpp/pp_int.h"
#include "libutil/op_alloc.h"

struct cu_range {
	uint64_t low;
	uint64_t high;		/* one past the last address */
	Dwarf_Off cu;		/* offset of the CU DIE */
};

struct pp_lines {
	Dwarf *dw;
	struct cu_range *ranges;	/* sorted by low; built on demand */
	size_t nr_ranges;
	bool ranges_built;
};

int pp_lines_open(const struct pp_elf *e, struct pp_lines **out)
{
	struct pp_lines *l;

	*out = NULL;
	if (!e->has_dwarf)
		return -ENOENT;
	l = op_calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->dw = dwarf_begin_elf((Elf *)e->elf, DWARF_C_READ, NULL);
	if (!l->dw) {
		free(l);
		return -ENOENT;
	}
	*out = l;
	return 0;
}

void pp_lines_close(struct pp_lines *l)
{
	if (!l)
		return;
	dwarf_end(l->dw);
	free(l->ranges);
	free(l);
}

static int by_low(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->low < y->low ? -1 : x->low > y->low;
}

static int add_range(struct pp_lines *l, size_t *alloc, uint64_t low,
		     uint64_t high, Dwarf_Off cu)
{
	if (l->nr_ranges == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 64;
		struct cu_range *r = op_reallocarray(l->ranges, n, sizeof(*r));

		if (!r)
			return -ENOMEM;
		l->ranges = r;
		*alloc = n;
	}
	l->ranges[l->nr_ranges].low = low;
	l->ranges[l->nr_ranges].high = high;
	l->ranges[l->nr_ranges].cu = cu;
	l->nr_ranges++;
	return 0;
}

static int build_ranges(struct pp_lines *l)
{
	Dwarf_Off off = 0, next;
	size_t hsize, alloc = 0;

	l->ranges_built = true;
	while (!dwarf_nextcu(l->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Addr base, low, high;
		Dwarf_Die die;
		ptrdiff_t it = 0;

		if (dwarf_offdie(l->dw, off + hsize, &die)) {
			while ((it = dwarf_ranges(&die, it, &base, &low, &high)) > 0)
				if (high > low && add_range(l, &alloc, low, high,
							    dwarf_dieoffset(&die)))
					return -ENOMEM;
		}
		off = next;
	}
	if (l->nr_ranges)
		qsort(l->ranges, l->nr_ranges, sizeof(*l->ranges), by_low);
	return 0;
}

/* the CU holding addr through the range table */
static bool cu_from_ranges(struct pp_lines *l, uint64_t addr, Dwarf_Die *cu)
{
	size_t lo = 0, hi;

	if (!l->ranges_built && build_ranges(l))
		return false;
	hi = l->nr_ranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->ranges[mid].low <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* CUs rarely overlap: look at the few that start at or before addr */
	for (hi = lo; lo > 0 && hi - lo < 8; lo--)
		if (addr < l->ranges[lo - 1].high)
			return dwarf_offdie(l->dw, l->ranges[lo - 1].cu, cu) != NULL;
	return false;
}

int pp_lines_find(struct pp_lines *l, uint64_t addr, const char **file,
		  unsigned *line)
{
	Dwarf_Die cu;
	Dwarf_Line *row;
	const char *src;
	int lineno = 0;

	if (!dwarf_addrdie(l->dw, addr, &cu) && !cu_from_ranges(l, addr, &cu))
		return -ENOENT;
	row = dwarf_getsrc_die(&cu, addr);
	if (!row || dwarf_lineno(row, &lineno) || lineno <= 0)
		return -ENOENT;
	src = dwarf_linesrc(row, NULL, NULL);
	if (!src)
		return -ENOENT;
	*file = src;
	*line = (unsigned)lineno;
	return 0;
}
