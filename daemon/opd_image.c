// SPDX-License-Identifier: GPL-2.0-or-later
/* The cookie cache of images (see opd_image.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon/opd_image.h"
#include "libdb/odb_name.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_hash.h"
#include "libutil/op_strbuf.h"

void opd_images_init(struct opd_images *images)
{
	memset(images, 0, sizeof(*images));
	images->nr = 1;		/* cookie 0 means "none" */
	op_hmap_init(&images->by_key);
	op_hmap_init(&images->by_component);
}

static int free_image(void *val, void *data)
{
	struct opd_image *image = val;

	(void)data;
	free(image->name);
	free(image->component);
	free(image->build_id);
	free(image);
	return 0;
}

/* a lookup entry for a second key of an image: not in by_cookie */
static int free_alias(void *val, void *data)
{
	struct opd_images *images = data;
	struct opd_image *image = val;

	if (images->by_cookie[image->cookie] != image)
		free_image(image, NULL);
	return 0;
}

void opd_images_release(struct opd_images *images)
{
	uint32_t i;

	if (!images)
		return;
	op_hmap_for_each(&images->by_key, free_alias, images);
	for (i = 1; i < images->nr; i++)
		free_image(images->by_cookie[i], NULL);
	free(images->by_cookie);
	op_hmap_release(&images->by_key);
	op_hmap_release(&images->by_component);
	opd_images_init(images);
}

static void must(int ret)
{
	if (ret == -ENOMEM)
		op_die(1, "out of memory");
}

/*
 * Give image a cookie, or the cookie of the image with the same component
 * (then image is freed and the existing one returned).
 */
static struct opd_image *add_image(struct opd_images *images,
				   struct opd_image *image)
{
	uint64_t ch = op_hash_str(image->component);
	struct op_hmap_iter it;
	struct opd_image *same;

	for (same = op_hmap_first(&images->by_component, ch, &it); same;
	     same = op_hmap_next(&images->by_component, ch, &it)) {
		if (!strcmp(same->component, image->component)) {
			free_image(image, NULL);
			return same;
		}
	}
	if (images->nr >= images->alloc) {
		uint32_t alloc = images->alloc ? images->alloc * 2 : 64;

		images->by_cookie = op_xreallocarray(images->by_cookie, alloc,
						     sizeof(*images->by_cookie));
		images->alloc = alloc;
	}
	image->cookie = images->nr++;
	images->by_cookie[image->cookie] = image;
	must(op_hmap_insert(&images->by_component, ch, image));
	return image;
}

static struct opd_image *new_image(enum opd_image_kind kind, const char *name)
{
	struct opd_image *image = op_xcalloc(1, sizeof(*image));

	image->kind = kind;
	image->name = op_xstrdup(name);
	image->mtime = -1;
	return image;
}

uint32_t opd_images_file(struct opd_images *images, const char *path,
			 uint32_t maj, uint32_t min, uint64_t ino,
			 uint64_t ino_generation)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_image *image, *hit;
	struct op_hmap_iter it;
	uint64_t h;

	h = op_hash_combine(op_hash_str(path), ((uint64_t)maj << 32) | min);
	h = op_hash_combine(op_hash_combine(h, ino), ino_generation);
	/* the by_key table stores the key's image; check every field */
	for (hit = op_hmap_first(&images->by_key, h, &it); hit;
	     hit = op_hmap_next(&images->by_key, h, &it)) {
		if (hit->kind == OPD_IMAGE_FILE && hit->dev_major == maj &&
		    hit->dev_minor == min && hit->ino == ino &&
		    hit->ino_generation == ino_generation &&
		    !strcmp(hit->name, path))
			return hit->cookie;
	}
	image = new_image(OPD_IMAGE_FILE, path);
	image->dev_major = maj;
	image->dev_minor = min;
	image->ino = ino;
	image->ino_generation = ino_generation;
	must(odb_name_add_file(&sb, path));
	image->component = op_strbuf_detach(&sb);
	image = add_image(images, image);
	/*
	 * Record the key.  When the image is an existing one reached through
	 * another key, a second lookup entry carrying this key's fields is
	 * needed: keep a small copy for the comparison above.
	 */
	if (image->kind == OPD_IMAGE_FILE && image->dev_major == maj &&
	    image->dev_minor == min && image->ino == ino &&
	    image->ino_generation == ino_generation && !strcmp(image->name, path)) {
		must(op_hmap_insert(&images->by_key, h, image));
	} else {
		struct opd_image *alias = new_image(OPD_IMAGE_FILE, path);

		alias->dev_major = maj;
		alias->dev_minor = min;
		alias->ino = ino;
		alias->ino_generation = ino_generation;
		alias->cookie = image->cookie;
		alias->component = op_xstrdup(image->component);
		must(op_hmap_insert(&images->by_key, h, alias));
	}
	return image->cookie;
}

uint32_t opd_images_anon(struct opd_images *images, const char *name,
			 uint32_t tgid, uint64_t start, uint64_t end)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_image *image;

	must(odb_name_add_anon(&sb, name, tgid, start, end));
	image = new_image(OPD_IMAGE_ANON, name);
	image->tgid = tgid;
	image->start = start;
	image->end = end;
	image->mtime = 0;
	image->component = op_strbuf_detach(&sb);
	return add_image(images, image)->cookie;
}

uint32_t opd_images_kernel(struct opd_images *images, enum opd_image_kind kind,
			   const char *name, uint64_t start)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_image *image;

	must(odb_name_add_kernel(&sb, name));
	image = new_image(kind, name);
	image->start = start;
	image->component = op_strbuf_detach(&sb);
	return add_image(images, image)->cookie;
}

int64_t opd_image_mtime(struct opd_image *image)
{
	struct stat st;

	if (image->mtime >= 0)
		return image->mtime;
	image->mtime = 0;
	/* the header's mtime is 0 for bare names (modules, no-vmlinux) and anon
	 * (oprofile-ng-formats(5), SAMPLE FILES) */
	if (image->name[0] == '/' && image->kind != OPD_IMAGE_ANON &&
	    !stat(image->name, &st))
		image->mtime = (int64_t)st.st_mtime;
	return image->mtime;
}
