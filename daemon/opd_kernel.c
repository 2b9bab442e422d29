// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel and module ranges for kernel samples (see opd_kernel.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_kernel.h"
#include "libdb/odb_kallsyms.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"

int opd_kernel_layout(struct op_strbuf *sb, const char *kallsyms,
		      const char *modules)
{
	const char *p = modules;
	struct odb_kmodule m;

	if (kallsyms) {
		uint64_t start = odb_kallsyms_find(kallsyms, "_text");
		uint64_t end = odb_kallsyms_find(kallsyms, "_etext");

		if (!start)
			start = odb_kallsyms_find(kallsyms, "_stext");
		if (start && end > start)
			op_strbuf_addf(sb, "text %" PRIx64 " %" PRIx64 "\n", start, end);
	}
	while (p && (p = odb_modules_next(p, &m)))
		if (m.valid && m.addr && m.size)
			op_strbuf_addf(sb, "module %.*s %" PRIx64 " %" PRIx64 "\n",
				       (int)m.name_len, m.name, m.addr, m.size);
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
	/* a vmlinux needs _text: without it, keys could only be raw */
	if (vmlinux && *vmlinux && k->text_end) {
		k->core_base = k->text_start;
		k->core_end = k->text_end;
		k->core_cookie = opd_images_kernel(images, OPD_IMAGE_KERNEL,
						   vmlinux, k->text_start);
	} else {
		k->core_base = 0;
		k->core_end = UINT64_MAX;
		k->core_cookie = opd_images_kernel(images, OPD_IMAGE_KERNEL,
						   "no-vmlinux", 0);
	}
}

bool opd_kernel_layout_has_text(const char *layout)
{
	const char *p = layout;

	while (p && *p) {
		unsigned long long a, b;

		if (sscanf(p, "text %llx %llx", &a, &b) == 2 && b > a)
			return true;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
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
	/* a vmlinux holds [_text, _etext) only; no-vmlinux takes any address */
	if (ip < k->core_base || ip >= k->core_end)
		return 0;
	*key = ip - k->core_base;
	return k->core_cookie;
}
