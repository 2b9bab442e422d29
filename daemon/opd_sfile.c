// SPDX-License-Identifier: GPL-2.0-or-later
/* Sample files by transient key, with an LRU of open ones (opd_sfile.h). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_sfile.h"
#include "libdb/odb_name.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_hash.h"
#include "libutil/op_strbuf.h"

#define RETRY_NS 1000000000ull	/* a failed file is retried after 1 s */

void opd_sfiles_init(struct opd_sfiles *sf, const struct op_dir *samples,
		     const struct opev_event *events, struct opd_images *images,
		     double cpu_speed, unsigned max_open)
{
	memset(sf, 0, sizeof(*sf));
	sf->samples = samples;
	sf->events = events;
	sf->images = images;
	sf->cpu_speed = cpu_speed;
	sf->max_open = max_open ? max_open : 1;
	op_hmap_init(&sf->by_key);
	op_list_init(&sf->lru);
}

static int close_one(struct opd_sfiles *sf, struct opd_sfile *f)
{
	int ret = odb_file_close(f->odb);

	f->odb = NULL;
	op_list_del(&f->lru);
	sf->nr_open--;
	return ret;
}

static int free_one(void *val, void *data)
{
	struct opd_sfiles *sf = data;
	struct opd_sfile *f = val;
	int ret = 0;

	if (f->odb)
		ret = close_one(sf, f);
	if (ret && !sf->first_error)
		sf->first_error = ret;
	free(f);
	return 0;
}

int opd_sfiles_release(struct opd_sfiles *sf)
{
	if (!sf)
		return 0;
	op_hmap_for_each(&sf->by_key, free_one, sf);
	op_hmap_release(&sf->by_key);
	op_list_init(&sf->lru);
	memset(sf->cache, 0, sizeof(sf->cache));
	sf->nr_open = 0;
	return sf->first_error;
}

/* a tgid, tid or cpu field as libdb's name builder takes it */
static int64_t name_id(uint32_t v)
{
	return v == OPD_ALL ? ODB_ALL : (int64_t)v;
}

int opd_sfile_path(const struct opd_sfiles *sf, const struct opd_sfile_key *k,
		   struct op_strbuf *sb)
{
	const struct opd_image *app = opd_images_get(sf->images, k->app);
	const struct opd_image *img = opd_images_get(sf->images, k->image);
	const struct opd_image *cg = opd_images_get(sf->images, k->cg_to);
	const struct opev_event *ev = &sf->events[k->event];

	if (!app || !img)
		OP_BUG("sample file key without images");
	if (odb_name_add_images(sb, app->component, img->component,
				cg ? cg->component : NULL))
		return -ENOMEM;
	return odb_name_add_spec(sb, ev->name, (int)ev->period, ev->op_unit_mask,
				 name_id(k->tgid), name_id(k->tid), name_id(k->cpu));
}

static void fill_header(struct opd_sfiles *sf, const struct opd_sfile_key *k,
			struct opd_header *hdr)
{
	struct opd_image *img = sf->images->by_cookie[k->image];
	const struct opd_image *cg = opd_images_get(sf->images, k->cg_to);
	const struct opev_event *ev = &sf->events[k->event];

	opd_header_init(hdr);
	hdr->cpu_type = ev->op_cpu_type;
	hdr->ctr_event = ev->op_event;
	hdr->ctr_um = ev->op_unit_mask;
	hdr->ctr_count = (uint32_t)ev->period;
	hdr->is_kernel = opd_image_is_kernel(img);
	hdr->cpu_speed = sf->cpu_speed;
	hdr->mtime = (uint64_t)opd_image_mtime(img);
	if (img->kind == OPD_IMAGE_ANON)
		hdr->anon_start = img->start;
	if (cg) {
		hdr->cg_to_is_kernel = opd_image_is_kernel(cg);
		if (cg->kind == OPD_IMAGE_ANON)
			hdr->cg_to_anon_start = cg->start;
	}
}

/*
 * The open file used longest ago.  Files record a use count instead of
 * being moved to the front of a list on every sample; the scan happens
 * only when a file must be closed to open another.
 */
static struct opd_sfile *least_recent(struct opd_sfiles *sf)
{
	struct opd_sfile *best = NULL;
	struct op_list *pos;

	op_list_for_each(pos, &sf->lru) {
		struct opd_sfile *f = op_list_entry(pos, struct opd_sfile, lru);

		if (!best || f->last_use < best->last_use)
			best = f;
	}
	return best;
}

static int open_file(struct opd_sfiles *sf, struct opd_sfile *f)
{
	struct op_strbuf path = OP_STRBUF_INIT;
	struct opd_header hdr;
	int ret;

	/* once the disk is full a new file would only fail again */
	if (sf->full)
		return -ENOSPC;
	while (sf->nr_open >= sf->max_open && !op_list_empty(&sf->lru)) {
		struct opd_sfile *old = least_recent(sf);

		ret = close_one(sf, old);
		if (ret && !sf->first_error)
			sf->first_error = ret;
	}
	fill_header(sf, &f->key, &hdr);
	ret = opd_sfile_path(sf, &f->key, &path);
	if (ret)
		goto out;
	ret = odb_file_open_at(sf->samples, path.buf, ODB_WRITE, &hdr, &f->odb);
	if (ret == -ENOENT) {
		/* directories 0755, files 0644 (oprofile-ng-formats(5), SAMPLE FILE NAMES) */
		ret = op_dir_mkparents(sf->samples, path.buf, 0755);
		if (!ret)
			ret = odb_file_open_at(sf->samples, path.buf, ODB_WRITE, &hdr,
					       &f->odb);
	}
	if (ret == -ENOSPC || ret == -EDQUOT)
		sf->full = true;
	if (ret) {
		if (!sf->first_error) {
			sf->first_error = ret;
			snprintf(sf->first_error_path, sizeof(sf->first_error_path),
				 "%s/%s", sf->samples->path, path.buf);
		}
		goto out;
	}
	op_list_add(&f->lru, &sf->lru);
	sf->nr_open++;
	if (!f->made) {
		f->made = true;
		sf->nr_made++;
	}
out:
	op_strbuf_release(&path);
	return ret;
}

/*
 * The key's fields mixed into one word.  Read field by field, as the
 * caller has just stored them: wider loads would stall on store
 * forwarding in this per-sample path.
 */
static uint64_t key_hash(const struct opd_sfile_key *k)
{
	uint64_t a = ((uint64_t)k->app << 32) | k->image;
	uint64_t b = ((uint64_t)k->cg_to << 32) | k->event;
	uint64_t c = ((uint64_t)k->tgid << 32) | k->tid;

	/* independent multiplies: the high bits depend on every field */
	return (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full) ^
	       (c * 0x165667b19e3779f9ull) ^ ((uint64_t)k->cpu * 0xff51afd7ed558ccdull);
}

static bool same_key(const struct opd_sfile_key *a, const struct opd_sfile_key *b)
{
	return a->app == b->app && a->image == b->image && a->cg_to == b->cg_to &&
	       a->event == b->event && a->tgid == b->tgid && a->tid == b->tid &&
	       a->cpu == b->cpu;
}

static struct opd_sfile *lookup(struct opd_sfiles *sf,
				const struct opd_sfile_key *k, uint64_t h)
{
	struct op_hmap_iter it;
	struct opd_sfile *f;

	uint64_t mixed = op_hash_u64(h);

	for (f = op_hmap_first(&sf->by_key, mixed, &it); f;
	     f = op_hmap_next(&sf->by_key, mixed, &it))
		if (same_key(&f->key, k))
			return f;
	f = op_xcalloc(1, sizeof(*f));
	f->key = *k;
	f->hash = h;
	op_list_init(&f->lru);
	if (op_hmap_insert(&sf->by_key, mixed, f))
		op_die(1, "out of memory");
	return f;
}

struct opd_sfile *opd_sfiles_get(struct opd_sfiles *sf, const struct opd_sfile_key *k)
{
	uint64_t h = key_hash(k);
	struct opd_sfile **slot = &sf->cache[h >> 60], *f = *slot;

	if (!f || f->hash != h || !same_key(&f->key, k)) {
		f = lookup(sf, k, h);
		*slot = f;
	}
	return f;
}

int opd_sfile_add(struct opd_sfiles *sf, struct opd_sfile *f, uint64_t key,
		  uint64_t count, uint64_t now)
{
	int ret;

	if (!f->odb) {
		if (f->retry_time > now)
			return -EAGAIN;
		ret = open_file(sf, f);
		if (ret) {
			f->retry_time = now + RETRY_NS;
			return ret;
		}
	}
	f->last_use = ++sf->uses;
	f->dirty = true;
	ret = odb_file_add(f->odb, key, count);
	if (ret == -ENOSPC || ret == -EDQUOT)
		sf->full = true;
	if (ret && !sf->first_error) {
		struct op_strbuf path = OP_STRBUF_INIT;

		sf->first_error = ret;
		opd_sfile_path(sf, &f->key, &path);
		snprintf(sf->first_error_path, sizeof(sf->first_error_path),
			 "%s/%s", sf->samples->path, path.buf ? path.buf : "");
		op_strbuf_release(&path);
	}
	return ret;
}

int opd_sfiles_add(struct opd_sfiles *sf, const struct opd_sfile_key *k,
		   uint64_t key, uint64_t count, uint64_t now)
{
	return opd_sfile_add(sf, opd_sfiles_get(sf, k), key, count, now);
}

static int sync_one(void *val, void *data)
{
	struct opd_sfile *f = val;

	(void)data;
	if (f->odb && f->dirty)
		odb_file_sync(f->odb, false);
	f->dirty = false;
	return 0;
}

void opd_sfiles_sync(struct opd_sfiles *sf)
{
	op_hmap_for_each(&sf->by_key, sync_one, NULL);
}

struct close_all {
	struct opd_sfiles *sf;
	bool forget;
	int first_error;
};

static int close_all_one(void *val, void *data)
{
	struct close_all *c = data;
	struct opd_sfile *f = val;
	int ret = f->odb ? close_one(c->sf, f) : 0;

	if (ret && !c->first_error)
		c->first_error = ret;
	if (c->forget) {
		f->made = false;
		f->retry_time = 0;
	}
	f->dirty = false;
	return 0;
}

int opd_sfiles_close_all(struct opd_sfiles *sf, bool forget)
{
	struct close_all c = { sf, forget, 0 };

	op_hmap_for_each(&sf->by_key, close_all_one, &c);
	if (forget) {
		sf->nr_made = 0;
		sf->first_error = 0;
		sf->first_error_path[0] = '\0';
		sf->full = false;
	}
	return c.first_error;
}
