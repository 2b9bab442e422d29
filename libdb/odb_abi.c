// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The abi file: written from this build's layout, read back as key and
 * value pairs (see odb_abi.h).  One table of names and values serves the
 * writer and the reader, so the two cannot drift apart.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_abi.h"
#include "libdb/odb_int.h"
#include "libdb/odb_session.h"
#include "libutil/op_file.h"
#include "libutil/op_parse.h"

#define ABI_FILE_MAX ((size_t)64 << 10)

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_LITTLE_ENDIAN 1
#else
#define NATIVE_LITTLE_ENDIAN 0
#endif

/* the keys OProfile 1.4's opimport reads, in the order operf writes them */
static const struct {
	const char *name;
	uint64_t value;
} keys[ODB_ABI_NR_KEYS] = {
	{ "sizeof_double", sizeof(double) },
	{ "sizeof_u64", sizeof(uint64_t) },
	{ "sizeof_u8", sizeof(uint8_t) },
	{ "sizeof_u32", sizeof(uint32_t) },
	{ "sizeof_int", sizeof(int) },
	{ "sizeof_unsigned_int", sizeof(unsigned int) },
	{ "sizeof_odb_key_t", sizeof(odb_key_t) },
	{ "sizeof_odb_index_t", sizeof(odb_index_t) },
	{ "sizeof_odb_value_t", sizeof(odb_value_t) },
	{ "sizeof_odb_node_nr_t", sizeof(odb_index_t) },
	{ "sizeof_odb_descr_t", sizeof(struct odb_descr) },
	{ "sizeof_odb_node_t", sizeof(struct odb_node) },
	{ "sizeof_struct_opd_header", sizeof(struct opd_header) },
	{ "offsetof_node_key", offsetof(struct odb_node, key) },
	{ "offsetof_node_value", offsetof(struct odb_node, value) },
	{ "offsetof_node_next", offsetof(struct odb_node, next) },
	{ "offsetof_descr_size", offsetof(struct odb_descr, size) },
	{ "offsetof_descr_current_size", offsetof(struct odb_descr, current_size) },
	{ "offsetof_header_magic", offsetof(struct opd_header, magic) },
	{ "offsetof_header_version", offsetof(struct opd_header, version) },
	{ "offsetof_header_cpu_type", offsetof(struct opd_header, cpu_type) },
	{ "offsetof_header_ctr_event", offsetof(struct opd_header, ctr_event) },
	{ "offsetof_header_ctr_um", offsetof(struct opd_header, ctr_um) },
	{ "offsetof_header_ctr_count", offsetof(struct opd_header, ctr_count) },
	{ "offsetof_header_is_kernel", offsetof(struct opd_header, is_kernel) },
	{ "offsetof_header_cpu_speed", offsetof(struct opd_header, cpu_speed) },
	{ "offsetof_header_mtime", offsetof(struct opd_header, mtime) },
	{ "offsetof_header_cg_to_is_kernel", offsetof(struct opd_header, cg_to_is_kernel) },
	{ "offsetof_header_anon_start", offsetof(struct opd_header, anon_start) },
	{ "offsetof_header_cg_to_anon_start", offsetof(struct opd_header, cg_to_anon_start) },
	{ "little_endian", NATIVE_LITTLE_ENDIAN },
};

const char *odb_abi_key_name(size_t idx)
{
	return idx < ODB_ABI_NR_KEYS ? keys[idx].name : NULL;
}

void odb_abi_native(struct odb_abi *abi)
{
	size_t i;

	memset(abi, 0, sizeof(*abi));
	for (i = 0; i < ODB_ABI_NR_KEYS; i++) {
		abi->value[i] = keys[i].value;
		abi->has[i] = true;
	}
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* the key called name (len bytes), or ODB_ABI_NR_KEYS */
static size_t key_of(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ODB_ABI_NR_KEYS; i++)
		if (strlen(keys[i].name) == len && !memcmp(keys[i].name, name, len))
			return i;
	return ODB_ABI_NR_KEYS;
}

/* one line (len bytes, no '\n'): true when it is a known "NAME VALUE" */
static bool parse_line(const char *line, size_t len, struct odb_abi *abi)
{
	char value[24];
	size_t name_len, i, start, idx;
	uint64_t v;

	if (len && line[len - 1] == '\r')
		len--;
	for (name_len = 0; name_len < len && !is_blank(line[name_len]); name_len++)
		;
	for (start = name_len; start < len && is_blank(line[start]); start++)
		;
	/* a name, blanks, a value: nothing else, no NUL anywhere */
	if (!name_len || start == name_len || start == len ||
	    len - start >= sizeof(value) || memchr(line, '\0', len))
		return false;
	for (i = start; i < len; i++)
		if (line[i] < '0' || line[i] > '9')
			return false;
	memcpy(value, line + start, len - start);
	value[len - start] = '\0';
	idx = key_of(line, name_len);
	if (idx == ODB_ABI_NR_KEYS || op_parse_u64(value, 10, UINT64_MAX, &v))
		return false;
	abi->value[idx] = v;
	abi->has[idx] = true;
	return true;
}

void odb_abi_parse(const char *text, size_t len, struct odb_abi *abi)
{
	size_t pos = 0;

	memset(abi, 0, sizeof(*abi));
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - (text + pos)) : len - pos;

		if (line_len && !(line_len == 1 && text[pos] == '\r') &&
		    !parse_line(text + pos, line_len, abi))
			abi->nr_bad++;
		pos += line_len + 1;
	}
}

int odb_abi_format(const struct odb_abi *abi, struct op_strbuf *sb)
{
	size_t i;

	for (i = 0; i < ODB_ABI_NR_KEYS; i++)
		if (abi->has[i])
			op_strbuf_addf(sb, "%s %llu\n", keys[i].name,
				       (unsigned long long)abi->value[i]);
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

bool odb_abi_differs(const struct odb_abi *abi, const struct odb_abi *other,
		     size_t *idx)
{
	size_t i;

	for (i = 0; i < ODB_ABI_NR_KEYS; i++) {
		if (abi->has[i] && other->has[i] && abi->value[i] != other->value[i]) {
			*idx = i;
			return true;
		}
	}
	return false;
}

int odb_abi_read(const char *session_dir, struct odb_abi *abi)
{
	char *text;
	size_t len;
	int ret;

	memset(abi, 0, sizeof(*abi));
	ret = odb_session_read(session_dir, "abi", ABI_FILE_MAX, &text, &len);
	if (ret)
		return ret;
	odb_abi_parse(text, len, abi);
	free(text);
	return 0;
}

int odb_session_write_abi(const struct op_dir *session)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_abi native;
	int ret;

	odb_abi_native(&native);
	ret = odb_abi_format(&native, &sb);
	if (!ret)
		ret = op_dir_write_file(session, "abi", sb.buf, sb.len, 0644);
	op_strbuf_release(&sb);
	return ret;
}
