// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel and module ranges for kernel samples (see opd_kernel.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_kernel.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"

/* _text and _etext from kallsyms; both 0 when hidden or missing */
static void read_text_range(const char *path, uint64_t *start, uint64_t *end)
{
	char line[512];
	FILE *f = fopen(path, "re");

	*start = *end = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text") || (!*start && !strcmp(name, "_stext")))
			*start = addr;
		else if (!strcmp(name, "_etext"))
			*end = addr;
		if (*start && *end)
			break;
	}
	fclose(f);
	if (*end <= *start)
		*start = *end = 0;
}

int opd_kernel_read_layout(struct op_strbuf *sb, const char *kallsyms,
			   const char *modules)
{
	uint64_t start, end;
	char line[1024];
	FILE *f;

	read_text_range(kallsyms, &start, &end);
	if (start)
		op_strbuf_addf(sb, "text %" PRIx64 " %" PRIx64 "\n", start, end);
	f = fopen(modules, "re");
	if (f) {
		/* "name size refcount deps state address ..." */
		while (fgets(line, sizeof(line), f)) {
			char name[64], deps[512], state[32];
			unsigned long long size, addr;
			int refs;

			if (sscanf(line, "%63s %llu %d %511s %31s %llx", name, &size,
				   &refs, deps, state, &addr) != 6 || !addr || !size)
				continue;
			op_strbuf_addf(sb, "module %s %llx %llx\n", name, addr, size);
		}
		fclose(f);
	}
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

static int by_start(const void *a, const void *b)
{
	const struct opd_kernel_module *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

void opd_kernel_init(struct opd_kernel *k, struct opd_images *images,
		     const char *layout, const char *vmlinux)
{
	const char *p = layout;
	size_t alloc = 0;

	memset(k, 0, sizeof(*k));
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		char line[256], name[64];
		unsigned long long a, b;
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			if (sscanf(line, "text %llx %llx", &a, &b) == 2 && b > a) {
				k->text_start = a;
				k->text_end = b;
			} else if (sscanf(line, "module %63s %llx %llx", name, &a, &b) == 3 &&
				   b && a + b > a) {
				if (k->nr_modules == alloc) {
					alloc = alloc ? alloc * 2 : 32;
					k->modules = op_xreallocarray(k->modules, alloc,
								      sizeof(*k->modules));
				}
				snprintf(k->modules[k->nr_modules].name,
					 sizeof(k->modules[0].name), "%s", name);
				k->modules[k->nr_modules].start = a;
				k->modules[k->nr_modules].end = a + b;
				k->nr_modules++;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	if (k->modules)
		qsort(k->modules, k->nr_modules, sizeof(*k->modules), by_start);
	for (size_t i = 0; i < k->nr_modules; i++)
		k->modules[i].cookie = opd_images_kernel(images, OPD_IMAGE_MODULE,
							 k->modules[i].name,
							 k->modules[i].start);
	if (vmlinux && *vmlinux) {
		k->core_base = k->text_start;
		k->core_cookie = opd_images_kernel(images, OPD_IMAGE_KERNEL,
						   vmlinux, k->text_start);
	} else {
		k->core_base = 0;
		k->core_cookie = opd_images_kernel(images, OPD_IMAGE_KERNEL,
						   "no-vmlinux", 0);
	}
}

void opd_kernel_release(struct opd_kernel *k)
{
	if (!k)
		return;
	free(k->modules);
	memset(k, 0, sizeof(*k));
}

uint32_t opd_kernel_find(const struct opd_kernel *k, uint64_t ip, uint64_t *key)
{
	size_t lo = 0, hi = k->nr_modules;

	/* modules live outside the core text: look there first */
	if (!(ip >= k->text_start && ip < k->text_end)) {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (k->modules[mid].end <= ip)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < k->nr_modules && k->modules[lo].start <= ip) {
			*key = ip - k->modules[lo].start;
			return k->modules[lo].cookie;
		}
	}
	if (ip < k->core_base)
		return 0;
	*key = ip - k->core_base;
	return k->core_cookie;
}
