// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metric columns of a line, remembered by the line's counts.  -d
 * writes a line per address, tens of thousands of them, and most hold a
 * few samples whose counts recur from line to line: a line whose counts
 * were seen copies the text made for them instead of evaluating and
 * formatting each metric again.  Direct-mapped, one slot per hash of the
 * counts; a collision replaces the slot.  The text is what
 * pp_metric_fields() writes, so a report is the same with or without it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

/* 2048 slots (200 KiB): most lines of a -d report of 50,000 addresses hit */
#define MEMO_BITS 11
/* profiles with more classes than this are not remembered */
#define MEMO_CLASSES 4

struct memo_slot {
	uint64_t counts[MEMO_CLASSES];
	uint8_t len, width;
	bool used;
	char text[PP_LINE_ROOM];
};

struct pp_metric_memo {
	struct memo_slot slot[1u << MEMO_BITS];
};

void pp_metric_memo_free(struct pp_metric_memo *memo)
{
	free(memo);
}

static bool same_counts(const struct memo_slot *s, const uint64_t *counts, size_t nr)
{
	size_t c;

	for (c = 0; c < nr; c++)
		if (s->counts[c] != counts[c])
			return false;
	return true;
}

static struct memo_slot *slot_of(struct pp_metric_memo *memo, const uint64_t *counts, size_t nr)
{
	uint64_t h = counts[0] * UINT64_C(0x9e3779b97f4a7c15);
	size_t c;

	for (c = 1; c < nr; c++)
		h = (h ^ counts[c]) * UINT64_C(0x9e3779b97f4a7c15);
	return &memo->slot[h >> (64 - MEMO_BITS)];
}

/*
 * Slot s made for counts: the metric fields as a line of their own,
 * whose last padding the line keeps after them.  false when they are too
 * long for a slot: then they are written to l instead.
 */
static bool fill(struct memo_slot *s, struct pp_line *l, const struct pp_metrics *ms,
		 const uint64_t *counts)
{
	struct pp_line t;

	pp_line_start(&t, NULL, NULL);
	pp_metric_fields(&t, ms, counts);
	if (t.len > PP_LINE_ROOM || t.len + t.pad > UINT8_MAX) {
		s->used = false;
		pp_line_field_len(l, t.buf, t.len, t.len + t.pad);
		return false;
	}
	memcpy(s->counts, counts, ms->nr_classes * sizeof(*counts));
	memcpy(s->text, t.buf, PP_LINE_ROOM);
	s->len = (uint8_t)t.len;
	s->width = (uint8_t)(t.len + t.pad);
	s->used = true;
	return true;
}

void pp_metric_fields_memo(struct pp_line *l, const struct pp_metrics *ms,
			   const uint64_t *counts, struct pp_metric_memo **memo)
{
	size_t nr = ms->nr_classes;
	struct memo_slot *s;
	char *o;

	if (!nr || nr > MEMO_CLASSES || !ms->nr) {
		pp_metric_fields(l, ms, counts);
		return;
	}
	if (!*memo)
		*memo = op_xcalloc(1, sizeof(**memo));
	s = slot_of(*memo, counts, nr);
	if (!(s->used && same_counts(s, counts, nr)) && !fill(s, l, ms, counts))
		return;
	o = pp_line_room(l, PP_LINE_ROOM);
	if (o) {
		/* the whole slot: a copy of known size, no call */
		memcpy(o, s->text, PP_LINE_ROOM);
		pp_line_done(l, s->len, s->width);
	} else {
		pp_line_field_len(l, s->text, s->len, s->width);
	}
}
