// SPDX-License-Identifier: GPL-2.0-or-later
/* Sample files by transient key, with an LRU of open ones (opd_sfile.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_sfile.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_hash.h"
#include "libutil/op_strbuf.h"

#define RETRY_NS 1000000000ull	/* a failed file is retried after 1 s */

void opd_sfiles_init(struct opd_sfiles *sf, const char *samples_dir,
		     const struct opev_event *events, struct opd_images *images,
		     double cpu_speed, unsigned max_open)
{
	memset(sf, 0, sizeof(*sf));
	sf->samples_dir = samples_dir;
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
	sf->last = NULL;
	sf->nr_open = 0;
	return sf->first_error;
}

static void add_id(struct op_strbuf *sb, uint32_t v)
{
	if (v == OPD_ALL)
		op_strbuf_addstr(sb, "all");
	else
		op_strbuf_addf(sb, "%u", v);
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
	op_strbuf_addf(sb, "%s/%s/{dep}/%s", sf->samples_dir, app->component,
		       img->component);
	if (cg)
		op_strbuf_addf(sb, "/{cg}/%s", cg->component);
	/* formats.md §2.2: COUNT with %d, UMASK in decimal */
	op_strbuf_addf(sb, "/%s.%d.%u.", ev->name, (int)ev->period, ev->op_unit_mask);
	add_id(sb, k->tgid);
	op_strbuf_addch(sb, '.');
	add_id(sb, k->tid);
	op_strbuf_addch(sb, '.');
	add_id(sb, k->cpu);
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
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

static int open_file(struct opd_sfiles *sf, struct opd_sfile *f)
{
	struct op_strbuf path = OP_STRBUF_INIT;
	struct opd_header hdr;
	int ret;

	while (sf->nr_open >= sf->max_open && !op_list_empty(&sf->lru)) {
		struct opd_sfile *old = op_list_entry(sf->lru.prev,
						      struct opd_sfile, lru);

		ret = close_one(sf, old);
		if (ret && !sf->first_error)
			sf->first_error = ret;
	}
	fill_header(sf, &f->key, &hdr);
	ret = opd_sfile_path(sf, &f->key, &path);
	if (ret)
		goto out;
	ret = odb_file_open(path.buf, ODB_WRITE, &hdr, &f->odb);
	if (ret == -ENOENT) {
		/* formats.md §1.1: directories 0755, files 0644 */
		ret = op_mkdir_parents(path.buf, 0755);
		if (!ret)
			ret = odb_file_open(path.buf, ODB_WRITE, &hdr, &f->odb);
	}
	if (ret) {
		if (!sf->first_error) {
			sf->first_error = ret;
			snprintf(sf->first_error_path, sizeof(sf->first_error_path),
				 "%s", path.buf);
		}
		goto out;
	}
	op_list_add(&f->lru, &sf->lru);
	sf->nr_open++;
out:
	op_strbuf_release(&path);
	return ret;
}

static struct opd_sfile *lookup(struct opd_sfiles *sf,
				const struct opd_sfile_key *k, uint64_t h)
{
	struct op_hmap_iter it;
	struct opd_sfile *f;

	for (f = op_hmap_first(&sf->by_key, h, &it); f;
	     f = op_hmap_next(&sf->by_key, h, &it))
		if (!memcmp(&f->key, k, sizeof(*k)))
			return f;
	f = op_xcalloc(1, sizeof(*f));
	f->key = *k;
	f->hash = h;
	op_list_init(&f->lru);
	if (op_hmap_insert(&sf->by_key, h, f))
		op_die(1, "out of memory");
	return f;
}

int opd_sfiles_add(struct opd_sfiles *sf, const struct opd_sfile_key *k,
		   uint64_t key, uint64_t count, uint64_t now)
{
	struct opd_sfile *f = sf->last;
	int ret;

	if (!f || memcmp(&f->key, k, sizeof(*k))) {
		f = lookup(sf, k, op_hash_bytes(OP_FNV_OFFSET, k, sizeof(*k)));
		sf->last = f;
	}
	if (!f->odb) {
		if (f->retry_time > now)
			return -EAGAIN;
		ret = open_file(sf, f);
		if (ret) {
			f->retry_time = now + RETRY_NS;
			return ret;
		}
	} else if (sf->lru.next != &f->lru) {
		op_list_move(&f->lru, &sf->lru);
	}
	ret = odb_file_add(f->odb, key, count);
	if (ret && !sf->first_error) {
		struct op_strbuf path = OP_STRBUF_INIT;

		sf->first_error = ret;
		opd_sfile_path(sf, k, &path);
		snprintf(sf->first_error_path, sizeof(sf->first_error_path),
			 "%s", path.buf);
		op_strbuf_release(&path);
	}
	return ret;
}

static int sync_one(void *val, void *data)
{
	struct opd_sfile *f = val;

	(void)data;
	if (f->odb)
		odb_file_sync(f->odb, false);
	return 0;
}

void opd_sfiles_sync(struct opd_sfiles *sf)
{
	op_hmap_for_each(&sf->by_key, sync_one, NULL);
}
