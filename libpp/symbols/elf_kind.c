// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether a binary runs in user space, from its ELF file alone: a program
 * that asks for an interpreter (PT_INTERP) or a binary that needs shared
 * libraries (DT_NEEDED) does; a kernel image (vmlinux, a module) never
 * does either.  Used to judge a sample file whose header calls a user
 * binary a kernel image (pp_symbols.h).
 */
#include "config.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_strbuf.h"

static bool has_interp(Elf *elf)
{
	size_t nr, i;

	if (elf_getphdrnum(elf, &nr))
		return false;
	for (i = 0; i < nr; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
			return true;
	}
	return false;
}

static bool needs_libraries(Elf *elf)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;

			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag == DT_NEEDED)
				return true;
		}
	}
	return false;
}

/* the file at path (a regular ELF file) runs in user space */
static bool user_space_file(const char *path)
{
	bool user = false;
	struct stat st;
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && elf_version(EV_CURRENT) != EV_NONE &&
	    (elf = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		user = elf_kind(elf) == ELF_K_ELF &&
		       (has_interp(elf) || needs_libraries(elf));
		elf_end(elf);
	}
	close(fd);
	return user;
}

bool pp_image_is_user_binary(const char *path, const struct pp_sym_opts *opts)
{
	struct op_strbuf cand = OP_STRBUF_INIT;
	const char *prefix = opts ? (opts->archive ? opts->archive : opts->root) : NULL;
	bool user;

	if (!prefix)
		return user_space_file(path);
	op_strbuf_addf(&cand, "%s%s", prefix, path);
	user = !op_strbuf_failed(&cand) && user_space_file(cand.buf);
	op_strbuf_release(&cand);
	return user;
}
