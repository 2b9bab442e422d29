// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading jitdump files (opd_jitdump.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_jitdump.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"

#define HEADER_SIZE 40		/* the fixed part of the file header */
#define RECORD_SIZE 16		/* of each record's header */
#define LOAD_FIXED 40		/* a code load's fields before its name */
#define MOVE_FIXED 48		/* a code move's fields */
#define CODES_MAX ((size_t)1 << 24)

enum record_id {
	JIT_CODE_LOAD = 0,
	JIT_CODE_MOVE = 1,
};

const char *opd_jitdump_strerror(int err)
{
	switch (err) {
#define OPD_JITDUMP_CASE(name, msg) \
	case name:                  \
		return msg;
		OPD_JITDUMP_ERRORS(OPD_JITDUMP_CASE)
#undef OPD_JITDUMP_CASE
	default:
		return op_strerror(err);
	}
}

static uint32_t get32(const struct opd_jitdump *d, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return d->swapped ? __builtin_bswap32(v) : v;
}

static uint64_t get64(const struct opd_jitdump *d, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return d->swapped ? __builtin_bswap64(v) : v;
}

/* while parsing: room for codes, and the latest code of each (index, address) */
struct parse {
	size_t alloc;
	struct op_hmap latest;		/* values: code position + 1 */
};

static uint64_t code_key(uint64_t index, uint64_t addr)
{
	return op_hash_combine(op_hash_u64(index), addr);
}

/* the position of the latest code of index at addr, or SIZE_MAX */
static size_t find_latest(const struct opd_jitdump *d, const struct parse *ps,
			  uint64_t index, uint64_t addr)
{
	uint64_t h = code_key(index, addr);
	struct op_hmap_iter it;
	void *v;

	for (v = op_hmap_first(&ps->latest, h, &it); v; v = op_hmap_next(&ps->latest, h, &it)) {
		size_t i = (size_t)(uintptr_t)v - 1;

		if (d->codes[i].index == index && d->codes[i].addr == addr)
			return i;
	}
	return SIZE_MAX;
}

static int add_code(struct opd_jitdump *d, struct parse *ps, const struct opd_jit_code *c)
{
	size_t old = find_latest(d, ps, c->index, c->addr);
	uint64_t h = code_key(c->index, c->addr);

	if (d->nr_codes == ps->alloc) {
		size_t n = ps->alloc ? ps->alloc * 2 : 64;
		struct opd_jit_code *v;

		if (d->nr_codes >= CODES_MAX)
			return OPD_JITDUMP_ERR_LOADS;
		v = op_reallocarray(d->codes, n, sizeof(*v));
		if (!v)
			return -ENOMEM;
		d->codes = v;
		ps->alloc = n;
	}
	/* one entry per (index, address): moves find the latest at once */
	if (old != SIZE_MAX)
		op_hmap_remove(&ps->latest, h, (void *)(uintptr_t)(old + 1));
	if (op_hmap_insert(&ps->latest, h, (void *)(uintptr_t)(d->nr_codes + 1)))
		return -ENOMEM;
	d->codes[d->nr_codes++] = *c;
	return 0;
}

/* a code load: rec (len bytes, its header included) */
static int code_load(struct opd_jitdump *d, struct parse *ps, const unsigned char *rec,
		     size_t len)
{
	const unsigned char *f = rec + RECORD_SIZE;
	const unsigned char *name = f + LOAD_FIXED, *nul;
	struct opd_jit_code c;
	size_t rest;

	if (len < RECORD_SIZE + LOAD_FIXED + 1)
		return OPD_JITDUMP_ERR_RECORD;
	rest = len - RECORD_SIZE - LOAD_FIXED;
	nul = memchr(name, '\0', rest);
	if (!nul)
		return OPD_JITDUMP_ERR_RECORD;
	rest -= (size_t)(nul - name) + 1;
	c.addr = get64(d, f + 16);
	c.size = get64(d, f + 24);
	c.index = get64(d, f + 32);
	c.name = (const char *)name;
	c.code = nul + 1;
	if (c.size > rest)
		return OPD_JITDUMP_ERR_RECORD;
	return add_code(d, ps, &c);
}

/* a code move: the latest code of its index, again at its new address */
static int code_move(struct opd_jitdump *d, struct parse *ps, const unsigned char *rec,
		     size_t len)
{
	const unsigned char *f = rec + RECORD_SIZE;
	uint64_t old_addr, new_addr, index;
	struct opd_jit_code c;
	size_t i;

	if (len < RECORD_SIZE + MOVE_FIXED)
		return OPD_JITDUMP_ERR_RECORD;
	old_addr = get64(d, f + 16);
	new_addr = get64(d, f + 24);
	index = get64(d, f + 40);
	i = find_latest(d, ps, index, old_addr);
	if (i == SIZE_MAX)
		return 0;	/* code this file never loaded: nothing to move */
	c = d->codes[i];
	c.addr = new_addr;
	return add_code(d, ps, &c);
}

static int read_header(const unsigned char *p, size_t len, struct opd_jitdump *d,
		       size_t *records)
{
	uint32_t magic, size;

	if (len < 4)
		return OPD_JITDUMP_ERR_MAGIC;
	memcpy(&magic, p, sizeof(magic));
	if (magic == __builtin_bswap32(OPD_JITDUMP_MAGIC))
		d->swapped = true;
	else if (magic != OPD_JITDUMP_MAGIC)
		return OPD_JITDUMP_ERR_MAGIC;
	if (len < HEADER_SIZE)
		return OPD_JITDUMP_ERR_HEADER;
	d->version = get32(d, p + 4);
	size = get32(d, p + 8);
	d->elf_mach = get32(d, p + 12);
	d->pid = get32(d, p + 20);
	if (!d->version)
		return OPD_JITDUMP_ERR_VERSION;
	if (size < HEADER_SIZE || size > len)
		return OPD_JITDUMP_ERR_HEADER;
	*records = size;
	return 0;
}

int opd_jitdump_parse(const void *data, size_t len, struct opd_jitdump *d)
{
	const unsigned char *p = data;
	struct parse ps = { 0, OP_HMAP_INIT };
	size_t pos;
	int ret;

	memset(d, 0, sizeof(*d));
	ret = read_header(p, len, d, &pos);
	while (!ret && pos < len) {
		uint32_t id, size;

		if (len - pos < RECORD_SIZE) {
			d->cut = true;
			break;
		}
		id = get32(d, p + pos);
		size = get32(d, p + pos + 4);
		if (size < RECORD_SIZE) {
			ret = OPD_JITDUMP_ERR_RECORD;
			break;
		}
		if (size > len - pos) {
			d->cut = true;
			break;
		}
		if (id == JIT_CODE_LOAD)
			ret = code_load(d, &ps, p + pos, size);
		else if (id == JIT_CODE_MOVE)
			ret = code_move(d, &ps, p + pos, size);
		d->nr_records++;
		pos += size;
	}
	op_hmap_release(&ps.latest);
	if (ret)
		opd_jitdump_release(d);
	return ret;
}

void opd_jitdump_release(struct opd_jitdump *d)
{
	if (!d)
		return;
	free(d->codes);
	d->codes = NULL;
	d->nr_codes = 0;
}

bool opd_jitdump_name(const char *path)
{
	const char *base = strrchr(path, '/'), *p;

	base = base ? base + 1 : path;
	if (strncmp(base, "jit-", 4))
		return false;
	for (p = base + 4; *p >= '0' && *p <= '9'; p++)
		;
	return p > base + 4 && !strcmp(p, ".dump");
}
