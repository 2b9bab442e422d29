// SPDX-License-Identifier: GPL-2.0-or-later
/* The engine's stack file writer (opd_stacks.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_stacks.h"
#include "libutil/op_alloc.h"

void opd_stacks_init(struct opd_stacks *s)
{
	memset(s, 0, sizeof(*s));
}

static int open_file(struct opd_stacks *s, const struct op_dir *samples,
		     const struct opev_event *events, size_t nr_events)
{
	char names[ODB_STACKS_MAX_EVENTS][160];
	const char *ev[ODB_STACKS_MAX_EVENTS];
	size_t i;

	if (nr_events > ODB_STACKS_MAX_EVENTS)
		nr_events = ODB_STACKS_MAX_EVENTS;	/* the rest: no stacks */
	for (i = 0; i < nr_events; i++) {
		snprintf(names[i], sizeof(names[i]), "%s.%d.%u", events[i].name,
			 (int)events[i].period, events[i].op_unit_mask);
		ev[i] = names[i];
	}
	return odb_stacks_writer_open(samples, ODB_STACKS_NAME, ev, nr_events, 0, &s->w);
}

/* the file's number for an image cookie, recorded at first use */
static int image_id(struct opd_stacks *s, struct opd_images *images,
		    uint32_t cookie, uint32_t *id)
{
	const struct opd_image *im;
	int ret;

	if (cookie >= s->nr_ids) {
		size_t n = cookie + 64;

		s->ids = op_xreallocarray(s->ids, n, sizeof(*s->ids));
		memset(s->ids + s->nr_ids, 0, (n - s->nr_ids) * sizeof(*s->ids));
		s->nr_ids = n;
	}
	if (s->ids[cookie]) {
		*id = s->ids[cookie] - 1;
		return 0;
	}
	im = opd_images_get(images, cookie);
	if (!im)
		return -EINVAL;
	ret = odb_stacks_writer_image(s->w, im->component, id);
	if (!ret)
		s->ids[cookie] = *id + 1;
	return ret;
}

int opd_stacks_commit(struct opd_stacks *s, const struct op_dir *samples,
		      const struct opev_event *events, size_t nr_events,
		      struct opd_images *images, uint32_t app, uint32_t event)
{
	uint32_t app_id;
	size_t i;
	int ret;

	if (!s->nr)
		return 0;
	if (!s->w && !s->failed) {
		ret = open_file(s, samples, events, nr_events);
		if (ret) {
			s->failed = true;
			if (!s->first_error)
				s->first_error = ret;
		}
	}
	if (!s->w)
		return s->first_error;
	if (event >= ODB_STACKS_MAX_EVENTS)
		return -EINVAL;
	ret = image_id(s, images, app, &app_id);
	for (i = 0; !ret && i < s->nr; i++)
		ret = image_id(s, images, s->frames[i].image, &s->frames[i].image);
	if (!ret)
		ret = odb_stacks_writer_add(s->w, app_id, s->frames, s->nr, event, 1);
	if (ret && !s->first_error)
		s->first_error = ret;
	return ret;
}

int opd_stacks_close(struct opd_stacks *s)
{
	int ret = odb_stacks_writer_close(s->w);

	s->w = NULL;
	s->failed = false;
	free(s->ids);
	s->ids = NULL;
	s->nr_ids = 0;
	return ret;
}

void opd_stacks_release(struct opd_stacks *s)
{
	opd_stacks_close(s);
}
