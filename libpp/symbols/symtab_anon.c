// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbol tables of images without a file of their own
 * (symbols_int.h): the vdso (the session's copy, else the running
 * kernel's, through a memfd) and JIT code in anonymous regions (the
 * ELF image made of a jitdump, else the perf map file).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "libutil/op_vdso.h"

/*
 * The running kernel's vdso, for sessions without a copy: written to a
 * memfd, which stays open as the table's code descriptor.  0 with p->elf
 * set, 0 without (no vdso here), or -ENOMEM.
 */
static int running_vdso(struct pp_symtab *t)
{
	struct symtab_priv *p = t->priv;
	char path[64];
	const void *data;
	size_t len, done = 0;
	int fd, ret;

	if (op_vdso_image(&data, &len))
		return 0;
	fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	while (done < len) {
		ssize_t n = write(fd, (const char *)data + done, len - done);

		if (n <= 0) {
			close(fd);
			return 0;
		}
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ret = pp_elf_open(path, &p->elf);
	if (ret) {
		close(fd);
		return ret == -ENOMEM ? ret : 0;
	}
	p->fd = fd;
	t->mtime = p->elf->mtime;
	t->file_size = p->elf->size;
	t->addr_size = p->elf->addr_size;
	memcpy(t->build_id, p->elf->build_id, sizeof(t->build_id));
	return pp_str_set(&t->file, op_strdup("[vdso] of the running kernel"));
}

/*
 * The vdso: the session's copy (operf stores the one the kernel maps),
 * else the running kernel's; keys are offsets into its mapping, which
 * are its file offsets.  Without either the image stays anonymous memory.
 */
int symtab_load_vdso(struct pp_symtab *t, const struct pp_sym_opts *o)
{
	struct symtab_priv *p = t->priv;
	int ret = 0;

	if (o->vdso) {
		ret = pp_elf_open(o->vdso, &p->elf);
		if (ret == -ENOMEM)
			return ret;
		if (!ret) {
			t->mtime = p->elf->mtime;
			t->file_size = p->elf->size;
	t->addr_size = p->elf->addr_size;
			memcpy(t->build_id, p->elf->build_id, sizeof(t->build_id));
			ret = pp_str_set(&t->file, op_strdup(o->vdso));
		}
	}
	if (!p->elf && !o->archive)	/* an archive's kernel is another's */
		ret = running_vdso(t);
	if (ret || !p->elf)
		return ret;
	return symtab_load_elf(t, KEYS_SEGMENTS);
}

/*
 * JIT code in an anonymous region: the perf map file its process wrote,
 * the session's copy first.  Keys, and the addresses shown for them, are
 * offsets into the region.  No file, or none of its entries in the
 * region, leaves the table empty (the region stays one symbol).
 */
int symtab_load_perfmap(struct pp_symtab *t, const struct odb_image_id *image,
			const struct pp_sym_opts *o)
{
	struct symtab_priv *p = t->priv;
	const char *dirs[2] = { o->jit_dir, o->archive ? NULL : "/tmp" };
	struct op_strbuf path = OP_STRBUF_INIT;
	struct pp_cands c = { 0 };
	char *text = NULL;
	size_t i;
	int ret = 0;

	for (i = 0; i < 2 && !text; i++) {
		if (!dirs[i])
			continue;
		op_strbuf_reset(&path);
		op_strbuf_addf(&path, "%s/perf-%" PRIu32 ".map", dirs[i], image->anon_tgid);
		if (op_strbuf_failed(&path)) {
			ret = -ENOMEM;
			break;
		}
		ret = pp_perfmap_read(path.buf, &text);
		if (ret == -ENOMEM)
			break;
		ret = 0;
	}
	if (text) {
		p->text = text;
		ret = pp_perfmap_symbols(text, image->anon_start, image->anon_end + 1, &c);
		if (!ret) {
			symtab_map_keys(&c, 0, image->anon_start);
			ret = pp_cands_finish(&c, &t->syms, &t->nr);
		}
		/* addresses in anonymous memory are shown as offsets into the
		 * region (its start is in the image's name), as OProfile does */
		for (i = 0; !ret && i < t->nr; i++)
			t->syms[i].vma = t->syms[i].start;
		if (!ret && t->nr) {
			t->source = PP_SYMS_PERFMAP;
			ret = pp_str_set(&t->symfile, op_strdup(path.buf));
		}
	}
	pp_cands_release(&c);
	op_strbuf_release(&path);
	return ret;
}

/*
 * JIT code in an anonymous region from the ELF image operf made of its
 * process's jitdump (oprofile-ng-session(5), JIT CODE): the session's
 * jit/TGID.jo, whose symbols and sections are at the addresses where the
 * code ran.  Keys are offsets into the region, as for perf map files; the
 * addresses shown are those where the code ran (as objdump shows the
 * image), and the code is read from the image for disassembly.  Returns 0
 * with t->nr symbols in the region, else with the table as it was (no
 * image, or none of its code in this region) for the perf map file to
 * try; or -ENOMEM.
 */
int symtab_load_jitelf(struct pp_symtab *t, const struct odb_image_id *image,
		       const struct pp_sym_opts *o)
{
	struct symtab_priv *p = t->priv;
	struct op_strbuf path = OP_STRBUF_INIT;
	int ret;

	if (!o->jit_dir || image->anon_end < image->anon_start)
		return 0;
	op_strbuf_addf(&path, "%s/%" PRIu32 ".jo", o->jit_dir, image->anon_tgid);
	if (op_strbuf_failed(&path))
		return -ENOMEM;
	/* the session's own file, never followed through a symlink */
	ret = op_is_plain_file(path.buf) ? pp_elf_open(path.buf, &p->elf) : -ENOENT;
	if (!ret) {
		t->mtime = p->elf->mtime;
		t->file_size = p->elf->size;
		t->addr_size = p->elf->addr_size;
		p->bias = image->anon_start;
		p->anon_len = image->anon_end - image->anon_start + 1;
		ret = pp_str_set(&t->file, op_strdup(path.buf));
		if (!ret)
			ret = symtab_load_elf(t, KEYS_ANON);
		if (!ret && t->nr) {
			t->source = PP_SYMS_JITDUMP;
		} else if (ret != -ENOMEM) {
			free(t->syms);
			t->syms = NULL;
			t->nr = 0;
			symtab_forget_binary(t);
		}
	}
	op_strbuf_release(&path);
	return ret == -ENOMEM ? ret : 0;
}

