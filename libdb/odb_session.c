// SPDX-License-Identifier: GPL-2.0-or-later
/* The abi file and the kernel copies of a session (see odb_session.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_int.h"
#include "libdb/odb_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

static const char *const kernel_copies[] = {
	[ODB_KERNEL_KALLSYMS] = "kernel/kallsyms",
	[ODB_KERNEL_MODULES] = "kernel/modules",
	[ODB_KERNEL_VDSO] = "kernel/vdso.so",
};

char *odb_path_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name), size;
	char *path;

	if (!op_add_size(a, b, &size) || !op_add_size(size, 2, &size))
		return NULL;
	path = op_malloc(size);
	if (path)
		snprintf(path, size, "%s/%s", dir, name);
	return path;
}

/* the abi keys: OProfile 1.4's opimport reads these names */
static void abi_text(struct op_strbuf *sb)
{
	const uint16_t one = 1;

#define ABI(name, value) op_strbuf_addf(sb, "%s %zu\n", name, (size_t)(value))
	ABI("sizeof_double", sizeof(double));
	ABI("sizeof_u64", sizeof(uint64_t));
	ABI("sizeof_u8", sizeof(uint8_t));
	ABI("sizeof_u32", sizeof(uint32_t));
	ABI("sizeof_int", sizeof(int));
	ABI("sizeof_unsigned_int", sizeof(unsigned int));
	ABI("sizeof_odb_key_t", sizeof(odb_key_t));
	ABI("sizeof_odb_index_t", sizeof(odb_index_t));
	ABI("sizeof_odb_value_t", sizeof(odb_value_t));
	ABI("sizeof_odb_node_nr_t", sizeof(odb_index_t));
	ABI("sizeof_odb_descr_t", sizeof(struct odb_descr));
	ABI("sizeof_odb_node_t", sizeof(struct odb_node));
	ABI("sizeof_struct_opd_header", sizeof(struct opd_header));
	ABI("offsetof_node_key", offsetof(struct odb_node, key));
	ABI("offsetof_node_value", offsetof(struct odb_node, value));
	ABI("offsetof_node_next", offsetof(struct odb_node, next));
	ABI("offsetof_descr_size", offsetof(struct odb_descr, size));
	ABI("offsetof_descr_current_size", offsetof(struct odb_descr, current_size));
	ABI("offsetof_header_magic", offsetof(struct opd_header, magic));
	ABI("offsetof_header_version", offsetof(struct opd_header, version));
	ABI("offsetof_header_cpu_type", offsetof(struct opd_header, cpu_type));
	ABI("offsetof_header_ctr_event", offsetof(struct opd_header, ctr_event));
	ABI("offsetof_header_ctr_um", offsetof(struct opd_header, ctr_um));
	ABI("offsetof_header_ctr_count", offsetof(struct opd_header, ctr_count));
	ABI("offsetof_header_is_kernel", offsetof(struct opd_header, is_kernel));
	ABI("offsetof_header_cpu_speed", offsetof(struct opd_header, cpu_speed));
	ABI("offsetof_header_mtime", offsetof(struct opd_header, mtime));
	ABI("offsetof_header_cg_to_is_kernel", offsetof(struct opd_header, cg_to_is_kernel));
	ABI("offsetof_header_anon_start", offsetof(struct opd_header, anon_start));
	ABI("offsetof_header_cg_to_anon_start", offsetof(struct opd_header, cg_to_anon_start));
#undef ABI
	op_strbuf_addf(sb, "little_endian %d\n", *(const uint8_t *)&one);
}

int odb_session_write_abi(const struct op_dir *session)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	int ret;

	abi_text(&sb);
	ret = op_strbuf_failed(&sb) ? -ENOMEM :
	      op_dir_write_file(session, "abi", sb.buf, sb.len, 0644);
	op_strbuf_release(&sb);
	return ret;
}

/* write dir/name (its directories made as needed) whole */
static int store_file(const struct op_dir *dir, const char *name, const void *data,
		      size_t len)
{
	int ret = op_dir_mkparents(dir, name, 0755);

	return ret ? ret : op_dir_write_file(dir, name, data, len, 0644);
}

static int store_one(const struct op_dir *dir, enum odb_kernel_copy which,
		     const char *text, size_t len)
{
	return text ? store_file(dir, kernel_copies[which], text, len) : 0;
}

int odb_session_store_kernel(const struct op_dir *dir, const char *kallsyms,
			     size_t kallsyms_len, const char *modules,
			     size_t modules_len)
{
	int ret = store_one(dir, ODB_KERNEL_KALLSYMS, kallsyms, kallsyms_len);

	return ret ? ret : store_one(dir, ODB_KERNEL_MODULES, modules, modules_len);
}

int odb_session_store_vdso(const struct op_dir *dir, const void *image, size_t len)
{
	return store_one(dir, ODB_KERNEL_VDSO, (const char *)image, len);
}

int odb_session_store_comms(const struct op_dir *dir, const char *text, size_t len)
{
	return store_file(dir, ODB_SESSION_COMMS, text, len);
}

int odb_session_store_buildids(const struct op_dir *dir, const char *text, size_t len)
{
	return store_file(dir, ODB_SESSION_BUILDIDS, text, len);
}

int odb_session_store_jitmap(const struct op_dir *dir, uint32_t tgid, const void *text,
			     size_t len)
{
	char name[64];

	snprintf(name, sizeof(name), ODB_SESSION_JIT_DIR "/perf-%" PRIu32 ".map", tgid);
	return store_file(dir, name, text, len);
}

char *odb_session_kernel_copy(const char *dir, enum odb_kernel_copy which,
			      int *err)
{
	char *path = odb_path_join(dir, kernel_copies[which]);

	*err = path ? 0 : -ENOMEM;
	if (path && !op_is_plain_file(path)) {
		free(path);
		path = NULL;
		*err = -ENOENT;
	}
	return path;
}
