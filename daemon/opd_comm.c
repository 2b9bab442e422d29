// SPDX-License-Identifier: GPL-2.0-or-later
/* Process and thread names over a run (opd_comm.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "daemon/opd_comm.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_field.h"
#include "libutil/op_hash.h"

void opd_comms_init(struct opd_comms *c)
{
	memset(c, 0, sizeof(*c));
	op_hmap_init(&c->index);
}

void opd_comms_release(struct opd_comms *c)
{
	free(c->v);
	op_hmap_release(&c->index);
	memset(c, 0, sizeof(*c));
}

static uint64_t comm_hash(const struct opd_comms *c, const struct opd_comm *e)
{
	uint64_t h = c->apps_only ? 0 : op_hash_combine(op_hash_u64(e->tgid), e->tid);

	return op_hash_combine(op_hash_combine(h, e->app), op_hash_str(e->comm));
}

static bool same(const struct opd_comms *c, const struct opd_comm *a,
		 const struct opd_comm *b)
{
	if (!c->apps_only && (a->tgid != b->tgid || a->tid != b->tid))
		return false;
	return a->app == b->app && !strcmp(a->comm, b->comm);
}

void opd_comms_add(struct opd_comms *c, uint32_t tgid, uint32_t tid,
		   const char *comm, uint32_t app)
{
	struct opd_comm e = { .tgid = tgid, .tid = tid, .app = app };
	struct op_hmap_iter it;
	uint64_t h;
	void *v;

	if (c->apps_only && !app)
		return;
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	h = comm_hash(c, &e);
	for (v = op_hmap_first(&c->index, h, &it); v; v = op_hmap_next(&c->index, h, &it))
		if (same(c, &c->v[(size_t)(uintptr_t)v - 1], &e))
			return;
	if (c->nr == OPD_COMMS_MAX)
		return;
	if (c->nr == c->alloc) {
		c->alloc = c->alloc ? c->alloc * 2 : 64;
		c->v = op_xreallocarray(c->v, c->alloc, sizeof(*c->v));
	}
	c->v[c->nr++] = e;
	if (op_hmap_insert(&c->index, h, (void *)(uintptr_t)c->nr))
		op_die(1, "out of memory");
}

void opd_comms_text(const struct opd_comms *c, struct op_strbuf *sb,
		    const char *(*app_path)(void *data, uint32_t cookie), void *data)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		const struct opd_comm *e = &c->v[i];
		const char *path = e->app ? app_path(data, e->app) : NULL;

		op_strbuf_addf(sb, "%u %u ", e->tgid, e->tid);
		op_field_add(sb, e->comm[0] ? e->comm : "-");
		op_strbuf_addch(sb, ' ');
		if (path && *path)
			op_field_add(sb, path);
		else
			op_strbuf_addch(sb, '-');
		op_strbuf_addch(sb, '\n');
	}
}
