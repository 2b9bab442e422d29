/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cookie cache: every image samples can fall in (a mapped file, an
 * anonymous region, the kernel, a module) is interned once and named by a
 * small integer cookie, so the per-sample path carries integers only.
 *
 * Files are interned by (device, inode, generation, path).  Two entries
 * whose sample-file path component comes out the same (one file seen
 * through a synthesized /proc mapping and a kernel MMAP2 record, say)
 * share one cookie: a cookie and a sample-file name correspond one to one,
 * so no two writers ever open the same sample file.
 */
#ifndef OPD_IMAGE_H
#define OPD_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "libutil/op_hmap.h"

enum opd_image_kind {
	OPD_IMAGE_FILE,		/* a mapped file: {root}PATH */
	OPD_IMAGE_ANON,		/* anonymous memory: {anon:NAME}/TGID.0xS.0xE */
	OPD_IMAGE_KERNEL,	/* vmlinux ({root}PATH) or {kern}/no-vmlinux */
	OPD_IMAGE_MODULE,	/* a kernel module: {kern}/NAME */
};

struct opd_image {
	enum opd_image_kind kind;
	uint32_t cookie;
	char *name;		/* path, anon name, module name, ... */
	char *component;	/* its part of sample-file paths (odb_name_add_*()) */
	uint32_t tgid;		/* anon: the process */
	uint64_t start;		/* anon: first byte; kernel/module: load address */
	uint64_t end;		/* anon: last byte (oprofile-ng-formats(5)) */
	int64_t mtime;		/* st_mtime for headers; -1 until looked up */
	uint64_t hash;		/* of the interning key */
	uint32_t dev_major, dev_minor;
	uint64_t ino, ino_generation;
	signed char selected;	/* --image: 1 listed, -1 not, 0 not looked up */
	char *build_id;		/* hex, "" for none; NULL until read (once) */
};

struct opd_images {
	struct opd_image **by_cookie;	/* [cookie]; index 0 unused */
	uint32_t nr;			/* cookies in use + 1 */
	uint32_t alloc;
	struct op_hmap by_key;		/* interning key -> image */
	struct op_hmap by_component;	/* component -> image (canonical) */
};

void opd_images_init(struct opd_images *images);
void opd_images_release(struct opd_images *images);

/*
 * Intern a mapped file; returns its cookie (never 0).  path is copied.
 * Dies on allocation failure (daemon code uses the op_x* allocators).
 */
uint32_t opd_images_file(struct opd_images *images, const char *path,
			 uint32_t maj, uint32_t min, uint64_t ino,
			 uint64_t ino_generation);

/* intern an anonymous region [start, end] (end = last byte) of tgid */
uint32_t opd_images_anon(struct opd_images *images, const char *name,
			 uint32_t tgid, uint64_t start, uint64_t end);

/*
 * intern a kernel image: kind OPD_IMAGE_KERNEL (name "no-vmlinux" or a
 * vmlinux path) or OPD_IMAGE_MODULE (module name), loaded at start
 */
uint32_t opd_images_kernel(struct opd_images *images, enum opd_image_kind kind,
			   const char *name, uint64_t start);

/* the image of a cookie; NULL for 0 or an unknown cookie */
static inline const struct opd_image *
opd_images_get(const struct opd_images *images, uint32_t cookie)
{
	return cookie && cookie < images->nr ? images->by_cookie[cookie] : NULL;
}

/* st_mtime of the image for sample-file headers (0 when not a file) */
int64_t opd_image_mtime(struct opd_image *image);

static inline bool opd_image_is_kernel(const struct opd_image *image)
{
	return image->kind == OPD_IMAGE_KERNEL || image->kind == OPD_IMAGE_MODULE;
}

#endif
