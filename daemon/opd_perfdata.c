// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.data in, the engine's records out (see opd_perfdata.h).  One walk
 * over the records serves both the check, which collects the attrs and
 * features and decodes every record, and the replay, which rewrites
 * them: what the check accepted the replay cannot trip on.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_perfdata.h"
#include "daemon/opd_record.h"
#include "libutil/op_alloc.h"
#include "libutil/op_strbuf.h"

#define MAGIC 0x32454c4946524550ull		/* "PERFILE2" read little-endian */
#define MAGIC_SWAPPED 0x50455246494c4532ull	/* the same from a big-endian host */
#define PIPE_HEADER_SIZE 16u
#define FILE_HEADER_SIZE 104u
#define MAX_ATTRS 4096u
#define MAX_IDS (1u << 24)
#define MAX_ATTR_SIZE 4096u
#define MAX_TEXT 65536u

/* perf's own record types (tools/perf/util/event.h) */
enum {
	USER_HEADER_ATTR = 64,
	USER_TRACING_DATA = 66,
	USER_FINISHED_ROUND = 68,
	USER_AUXTRACE = 71,
	USER_HEADER_FEATURE = 80,
	USER_COMPRESSED = 81,
	USER_COMPRESSED2 = 83,
};

/* perf's feature bits (tools/perf/util/header.h) */
enum { FEAT_HOSTNAME = 3, FEAT_OSRELEASE = 4, FEAT_CMDLINE = 11 };

struct section {
	uint64_t offset, size;
};

struct file_header {
	uint64_t magic, size, attr_size;
	struct section attrs, data, event_types;
	uint64_t features[4];
};
_Static_assert(sizeof(struct file_header) == FILE_HEADER_SIZE, "perf file header");

struct id_map {
	uint64_t id;
	uint32_t attr;
};

struct opd_perfdata {
	const unsigned char *data;
	size_t size;
	size_t start, end;		/* the records: [start, end) */
	struct opd_perfdata_info info;
	struct perf_event_attr *attrs;
	size_t alloc_attrs;
	struct id_map *ids;
	size_t nr_ids, alloc_ids;
	bool ids_sorted;		/* by id: sorted at the first look-up */
	char *texts[3];			/* hostname, osrelease, cmdline */
	bool has_chain;
	bool seen_records;		/* a kernel record was checked */
	struct op_strbuf out;		/* one rewritten record */
	struct op_strbuf lost;		/* a LOST_SAMPLES read as LOST */
	const struct opd_perfdata_sink *sink;	/* NULL while checking */
	uint32_t queue_idx;		/* where the records go now */
	uint64_t last_time;
};

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* [off, off + len) lies in the file? */
static bool in_file(const struct opd_perfdata *pd, uint64_t off, uint64_t len)
{
	return off <= pd->size && len <= pd->size - off;
}

static int cmp_id(const void *a, const void *b)
{
	const struct id_map *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int add_attr(struct opd_perfdata *pd, const unsigned char *p, size_t attr_size,
		    const unsigned char *ids, size_t nr_ids, size_t off,
		    struct op_err *err)
{
	struct perf_event_attr *a;
	size_t i, idx = pd->info.nr_attrs;

	if (idx >= MAX_ATTRS || nr_ids > MAX_IDS - pd->nr_ids) {
		op_err_set(err, "too many events or ids at offset %zu", off);
		return -EINVAL;
	}
	if (idx == pd->alloc_attrs) {
		pd->alloc_attrs = pd->alloc_attrs ? 2 * pd->alloc_attrs : 4;
		pd->attrs = op_xreallocarray(pd->attrs, pd->alloc_attrs, sizeof(*a));
	}
	a = &pd->attrs[idx];
	memset(a, 0, sizeof(*a));
	memcpy(a, p, attr_size < sizeof(*a) ? attr_size : sizeof(*a));
	if (a->sample_type & PERF_SAMPLE_READ) {
		op_err_set(err, "event %zu (offset %zu) samples counter values "
			   "(PERF_SAMPLE_READ), which is not handled", idx, off);
		return -ENOTSUP;
	}
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
		pd->has_chain = true;
	if (pd->nr_ids + nr_ids > pd->alloc_ids) {
		pd->alloc_ids = pd->nr_ids + nr_ids + 16;
		pd->ids = op_xreallocarray(pd->ids, pd->alloc_ids, sizeof(*pd->ids));
	}
	for (i = 0; i < nr_ids; i++) {
		pd->ids[pd->nr_ids].id = get64(ids + 8 * i);
		pd->ids[pd->nr_ids++].attr = (uint32_t)idx;
	}
	pd->ids_sorted = false;
	pd->info.nr_attrs++;
	pd->info.attrs = pd->attrs;
	return 0;
}

/* each entry: a perf_event_attr, then its ids section; attr_size is both */
static int parse_file_attrs(struct opd_perfdata *pd, const struct file_header *h,
			    struct op_err *err)
{
	uint64_t entry = h->attr_size, off;
	int ret;

	if (entry < PERF_ATTR_SIZE_VER0 + sizeof(struct section) ||
	    entry > MAX_ATTR_SIZE || entry % 8) {
		op_err_set(err, "bad attr size %llu in the file header (offset 16)",
			   (unsigned long long)entry);
		return -EINVAL;
	}
	if (!in_file(pd, h->attrs.offset, h->attrs.size) || !h->attrs.size ||
	    h->attrs.size % entry) {
		op_err_set(err, "bad attrs section (offset %llu, size %llu)",
			   (unsigned long long)h->attrs.offset,
			   (unsigned long long)h->attrs.size);
		return -EINVAL;
	}
	for (off = h->attrs.offset; off < h->attrs.offset + h->attrs.size; off += entry) {
		size_t attr_len = (size_t)entry - sizeof(struct section);
		struct section ids;

		memcpy(&ids, pd->data + off + attr_len, sizeof(ids));
		if (!in_file(pd, ids.offset, ids.size) || ids.size % 8) {
			op_err_set(err, "bad ids section of the attr at offset %llu",
				   (unsigned long long)off);
			return -EINVAL;
		}
		ret = add_attr(pd, pd->data + off, attr_len, pd->data + ids.offset,
			       (size_t)(ids.size / 8), (size_t)off, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* a feature's string: u32 length (with padding), then NUL-padded text */
static void take_string(struct opd_perfdata *pd, int which, const unsigned char *p,
			size_t len)
{
	uint32_t n;

	if (len < 4 || pd->texts[which])
		return;
	n = get32(p);
	if (n > len - 4 || n > MAX_TEXT)
		return;
	pd->texts[which] = op_xstrndup((const char *)p + 4, n);
}

/* HEADER_CMDLINE: u32 count, then that many strings */
static void take_cmdline(struct opd_perfdata *pd, const unsigned char *p, size_t len)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	uint32_t nr, i, n;
	size_t off = 4;

	if (len < 4 || pd->texts[2])
		return;
	nr = get32(p);
	for (i = 0; i < nr && off + 4 <= len && sb.len < MAX_TEXT; i++) {
		n = get32(p + off);
		off += 4;
		if (n > len - off)
			break;
		op_strbuf_addf(&sb, "%s%.*s", i ? " " : "",
			       (int)strnlen((const char *)p + off, n),
			       (const char *)p + off);
		off += n;
	}
	pd->texts[2] = op_strbuf_detach(&sb);
}

static void take_feature(struct opd_perfdata *pd, unsigned feat,
			 const unsigned char *p, size_t len)
{
	if (feat == FEAT_HOSTNAME)
		take_string(pd, 0, p, len);
	else if (feat == FEAT_OSRELEASE)
		take_string(pd, 1, p, len);
	else if (feat == FEAT_CMDLINE)
		take_cmdline(pd, p, len);
}

/* the feature table after the data section; optional: bad entries are ignored */
static void parse_file_features(struct opd_perfdata *pd, const struct file_header *h)
{
	uint64_t table = h->data.offset + h->data.size;
	unsigned bit, idx = 0;

	for (bit = 0; bit < 256; bit++) {
		struct section s;

		if (!(h->features[bit / 64] >> (bit % 64) & 1))
			continue;
		if (!in_file(pd, table + 16ull * idx, 16))
			return;
		memcpy(&s, pd->data + table + 16ull * idx, sizeof(s));
		idx++;
		if (in_file(pd, s.offset, s.size))
			take_feature(pd, bit, pd->data + s.offset, (size_t)s.size);
	}
}

static int parse_header(struct opd_perfdata *pd, struct op_err *err)
{
	struct file_header h;
	uint64_t magic, hsize;

	if (pd->size < PIPE_HEADER_SIZE) {
		op_err_set(err, "too short for a perf.data header (%zu bytes)", pd->size);
		return -EINVAL;
	}
	magic = get64(pd->data);
	hsize = get64(pd->data + 8);
	if (magic == MAGIC_SWAPPED) {
		op_err_set(err, "written on a machine of the other byte order, "
			   "which is not handled");
		return -ENOTSUP;
	}
	if (magic != MAGIC) {
		op_err_set(err, "not a perf.data file (bad magic at offset 0)");
		return -EINVAL;
	}
	if (hsize == PIPE_HEADER_SIZE) {
		pd->info.pipe = true;
		pd->start = PIPE_HEADER_SIZE;
		pd->end = pd->size;
		return 0;
	}
	if (hsize != FILE_HEADER_SIZE || pd->size < FILE_HEADER_SIZE) {
		op_err_set(err, "bad header size %llu at offset 8%s",
			   (unsigned long long)hsize,
			   pd->size < FILE_HEADER_SIZE ? " (file truncated?)" : "");
		return -EINVAL;
	}
	memcpy(&h, pd->data, sizeof(h));
	if (!in_file(pd, h.data.offset, h.data.size)) {
		op_err_set(err, "data section (offset %llu, size %llu) ends past the "
			   "end of the file (%zu bytes): truncated?",
			   (unsigned long long)h.data.offset,
			   (unsigned long long)h.data.size, pd->size);
		return -EINVAL;
	}
	pd->start = (size_t)h.data.offset;
	pd->end = (size_t)(h.data.offset + h.data.size);
	parse_file_features(pd, &h);
	return parse_file_attrs(pd, &h, err);
}

/*
 * The attr of a record's sample id (UINT32_MAX if none).  No attr comes
 * after the first record, so the ids are sorted once.
 */
static uint32_t attr_of_id(struct opd_perfdata *pd, uint64_t id)
{
	size_t lo = 0, hi = pd->nr_ids;

	if (!pd->ids_sorted && pd->nr_ids > 1)
		qsort(pd->ids, pd->nr_ids, sizeof(*pd->ids), cmp_id);
	pd->ids_sorted = true;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pd->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pd->nr_ids && pd->ids[lo].id == id ? pd->ids[lo].attr : UINT32_MAX;
}

/*
 * perf's count of samples the kernel could not write (LOST_SAMPLES: the
 * count, then the sample_id trailer) as the LOST record the engine
 * counts (an id, the count, the trailer) into pd->lost
 */
static int lost_samples_as_lost(struct opd_perfdata *pd, const unsigned char *p,
				size_t len)
{
	struct perf_event_header h;
	uint64_t id = 0;

	if (len + sizeof(id) >= OPD_RECORD_MAX)
		return -EINVAL;
	memcpy(&h, p, sizeof(h));
	h.type = PERF_RECORD_LOST;
	h.size = (uint16_t)(len + sizeof(id));
	op_strbuf_reset(&pd->lost);
	op_strbuf_add(&pd->lost, &h, sizeof(h));
	op_strbuf_add(&pd->lost, &id, sizeof(id));
	op_strbuf_add(&pd->lost, p + sizeof(h), len - sizeof(h));
	return op_strbuf_failed(&pd->lost) ? -ENOMEM : 0;
}

/* the sample_type by which a record's trailer (or a sample) is laid out */
static uint64_t id_layout(const struct perf_event_attr *a)
{
	return a->sample_id_all ? a->sample_type : 0;
}

/*
 * Decode a kernel record: the first attr's layout finds the sample id
 * (perf gives every attr of a recording the same id position), the
 * id's attr then lays out the sample.  *attr is the record's attr, or
 * UINT32_MAX for a sample of no known attr.  Returns 0, -EINVAL,
 * -ENOTSUP (not a record the engine uses).
 */
static int decode(struct opd_perfdata *pd, const unsigned char *p, size_t len,
		  struct opd_record *rec, uint32_t *attr)
{
	const struct perf_event_attr *a0 = &pd->attrs[0];
	uint64_t st = id_layout(a0);
	int ret;

	if (get32(p) == PERF_RECORD_SAMPLE)
		st = a0->sample_type;
	if (get32(p) == PERF_RECORD_LOST_SAMPLES) {
		ret = lost_samples_as_lost(pd, p, len);
		if (ret)
			return ret;
		p = (const unsigned char *)pd->lost.buf;
		len = pd->lost.len;
	}
	ret = opd_record_decode(p, len, st, rec);
	*attr = 0;
	if (ret || pd->info.nr_attrs == 1)
		return ret;
	if (!(st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
		return 0;	/* no ids: everything counts as the first event */
	*attr = attr_of_id(pd, rec->id);
	if (*attr == UINT32_MAX && rec->type != PERF_RECORD_SAMPLE)
		*attr = 0;	/* perf's synthesized records carry no id */
	if (*attr == UINT32_MAX || rec->type != PERF_RECORD_SAMPLE ||
	    pd->attrs[*attr].sample_type == st)
		return 0;
	return opd_record_decode(p, len, pd->attrs[*attr].sample_type, rec);
}

static void put64(struct op_strbuf *sb, uint64_t v)
{
	op_strbuf_add(sb, &v, sizeof(v));
}

static void put2x32(struct op_strbuf *sb, uint32_t lo, uint32_t hi)
{
	put64(sb, (uint64_t)hi << 32 | lo);
}

static void put_string(struct op_strbuf *sb, const char *s)
{
	static const char pad[8];
	size_t n = strlen(s) + 1;

	op_strbuf_add(sb, s, n);
	op_strbuf_add(sb, pad, (8 - n % 8) % 8);
}

/* the sample of rec in OPD_SAMPLE_TYPE [+ CALLCHAIN] order */
static void put_sample(struct opd_perfdata *pd, const struct opd_record *rec,
		       uint32_t attr)
{
	const struct perf_event_attr *a = &pd->attrs[attr];
	uint64_t period = rec->u.sample.period, i;

	if (!(a->sample_type & PERF_SAMPLE_PERIOD))
		period = a->freq || !a->sample_period ? 1 : a->sample_period;
	put64(&pd->out, attr);
	put64(&pd->out, rec->u.sample.ip);
	put2x32(&pd->out, rec->pid, rec->tid);
	put64(&pd->out, rec->time);
	put2x32(&pd->out, rec->cpu, 0);
	put64(&pd->out, period);
	if (!pd->has_chain)
		return;
	put64(&pd->out, rec->u.sample.nr_chain);
	for (i = 0; i < rec->u.sample.nr_chain; i++) {
		uint64_t ip;

		memcpy(&ip, &rec->u.sample.chain[i], sizeof(ip));
		put64(&pd->out, ip);
	}
}

/* the body of a side-band record, before its sample_id trailer */
static void put_sideband(struct opd_perfdata *pd, const struct opd_record *rec,
			 uint32_t attr)
{
	struct op_strbuf *sb = &pd->out;

	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		bool buildid = rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID;

		put2x32(sb, rec->u.mmap.pid, rec->u.mmap.tid);
		put64(sb, rec->u.mmap.start);
		put64(sb, rec->u.mmap.len);
		put64(sb, rec->u.mmap.pgoff);
		/* with a build id in their place, no device or inode */
		put2x32(sb, buildid ? 0 : rec->u.mmap.maj, buildid ? 0 : rec->u.mmap.min);
		put64(sb, buildid ? 0 : rec->u.mmap.ino);
		put64(sb, buildid ? 0 : rec->u.mmap.ino_generation);
		put2x32(sb, rec->u.mmap.prot, rec->u.mmap.flags);
		put_string(sb, rec->u.mmap.filename);
		break;
	}
	case PERF_RECORD_COMM:
		put2x32(sb, rec->u.comm.pid, rec->u.comm.tid);
		put_string(sb, rec->u.comm.comm);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		put2x32(sb, rec->u.task.pid, rec->u.task.ppid);
		put2x32(sb, rec->u.task.tid, rec->u.task.ptid);
		put64(sb, rec->u.task.time);
		break;
	case PERF_RECORD_LOST:
		put64(sb, attr);
		put64(sb, rec->u.lost.lost);
		break;
	default:		/* THROTTLE, UNTHROTTLE */
		put64(sb, rec->u.throttle.time);
		put64(sb, attr);
		put64(sb, rec->u.throttle.stream_id);
		break;
	}
	/* the trailer of OPD_SAMPLE_TYPE: tid, time, cpu, identifier */
	put2x32(sb, rec->pid, rec->tid);
	put64(sb, rec->time);
	put2x32(sb, rec->cpu, 0);
	put64(sb, attr);
}

/*
 * Rewrite rec for the engine into pd->out.  The queue changes whenever
 * time goes back: perf writes each cpu's buffer in time order, one after
 * the other, and the engine's queues stay cheap to keep sorted.
 */
static void emit(struct opd_perfdata *pd, const struct opd_record *rec,
		 uint32_t attr)
{
	struct perf_event_header h = { .type = rec->type, .misc = rec->misc };

	op_strbuf_reset(&pd->out);
	if (h.type == PERF_RECORD_MMAP) {
		h.type = PERF_RECORD_MMAP2;
	} else if (h.type == PERF_RECORD_MMAP2) {
		h.misc &= (uint16_t)~PERF_RECORD_MISC_MMAP_BUILD_ID;
	}
	op_strbuf_add(&pd->out, &h, sizeof(h));
	if (rec->type == PERF_RECORD_SAMPLE)
		put_sample(pd, rec, attr);
	else
		put_sideband(pd, rec, attr);
	if (op_strbuf_failed(&pd->out) || pd->out.len >= OPD_RECORD_MAX)
		return;		/* grown past a record's 64 KiB: dropped */
	h.size = (uint16_t)pd->out.len;
	memcpy(pd->out.buf, &h, sizeof(h));
	if (rec->time < pd->last_time)
		pd->queue_idx = (pd->queue_idx + 1) % OPD_PERFDATA_QUEUES;
	pd->last_time = rec->time;
	pd->sink->queue(pd->sink->arg, pd->queue_idx, pd->out.buf, pd->out.len);
}

static const char *const kernel_names[] = {
	[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM", [PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE", [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK", [PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2", [PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
};

static int kernel_record(struct opd_perfdata *pd, const unsigned char *p,
			 size_t len, size_t off, struct op_err *err)
{
	struct opd_record rec;
	uint32_t attr, type = get32(p);
	int ret;

	if (!pd->info.nr_attrs) {
		op_err_set(err, "record at offset %zu comes before any event attr", off);
		return -EINVAL;
	}
	pd->seen_records = true;
	ret = decode(pd, p, len, &rec, &attr);
	if (ret == -ENOTSUP)
		return 0;	/* KSYMBOL, BPF_EVENT, SWITCH, ...: not used */
	if (ret) {
		op_err_set(err, "bad PERF_RECORD_%s (%zu bytes) at offset %zu",
			   kernel_names[type], len, off);
		return -EINVAL;
	}
	if (attr == UINT32_MAX) {
		if (!pd->sink && rec.type == PERF_RECORD_SAMPLE)
			pd->info.nr_dropped++;
		return 0;
	}
	if (!pd->sink) {
		pd->info.nr_samples += rec.type == PERF_RECORD_SAMPLE;
		if ((rec.type == PERF_RECORD_MMAP || rec.type == PERF_RECORD_MMAP2) &&
		    rec.u.mmap.pid == UINT32_MAX && !pd->info.kernel_text &&
		    !strncmp(rec.u.mmap.filename, "[kernel.kallsyms]", 17))
			pd->info.kernel_text = rec.u.mmap.start;
		return 0;
	}
	emit(pd, &rec, attr);
	return 0;
}

/* perf's records: attrs and features while checking, rounds in replay */
static int user_record(struct opd_perfdata *pd, const unsigned char *p,
		       size_t len, size_t off, size_t *skip, struct op_err *err)
{
	uint32_t type = get32(p), attr_size;

	*skip = 0;
	switch (type) {
	case USER_FINISHED_ROUND:
		if (pd->sink)
			pd->sink->round(pd->sink->arg);
		return 0;
	case USER_TRACING_DATA:		/* u32 size, then the data, 8-aligned */
		if (len < 12)
			break;
		*skip = ((size_t)get32(p + 8) + 7) & ~(size_t)7;
		return 0;
	case USER_AUXTRACE:		/* u64 size, ..., then the aux data */
		if (len < 16)
			break;
		if (get64(p + 8) > SIZE_MAX / 2)
			break;
		*skip = (size_t)get64(p + 8);
		return 0;
	case USER_COMPRESSED:
	case USER_COMPRESSED2:
		op_err_set(err, "compressed records at offset %zu (perf record -z) "
			   "are not handled", off);
		return -ENOTSUP;
	case USER_HEADER_FEATURE:
		if (len < 16)
			break;
		if (!pd->sink && get64(p + 8) < 256)
			take_feature(pd, (unsigned)get64(p + 8), p + 16, len - 16);
		return 0;
	case USER_HEADER_ATTR:
		if (len < 8 + PERF_ATTR_SIZE_VER0)
			break;
		attr_size = get32(p + 12) ? get32(p + 12) : PERF_ATTR_SIZE_VER0;
		if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > len - 8 ||
		    (len - 8 - attr_size) % 8)
			break;
		if (pd->sink || !pd->info.pipe)
			return 0;
		if (pd->seen_records) {
			op_err_set(err, "event attr at offset %zu comes after records "
				   "that need it", off);
			return -EINVAL;
		}
		return add_attr(pd, p + 8, attr_size, p + 8 + attr_size,
				(len - 8 - attr_size) / 8, off, err);
	default:
		return 0;
	}
	op_err_set(err, "bad perf record of type %u (%zu bytes) at offset %zu",
		   type, len, off);
	return -EINVAL;
}

static int walk(struct opd_perfdata *pd, struct op_err *err)
{
	size_t off = pd->start, skip;
	int ret;

	pd->queue_idx = 0;
	pd->last_time = 0;
	while (off < pd->end) {
		struct perf_event_header h;

		if (pd->end - off < sizeof(h)) {
			op_err_set(err, "truncated record header at offset %zu", off);
			return -EINVAL;
		}
		memcpy(&h, pd->data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > pd->end - off) {
			op_err_set(err, "record at offset %zu has size %u, %s", off,
				   h.size, h.size < sizeof(h) ? "too small for its header" :
				   "past the end of the data (truncated?)");
			return -EINVAL;
		}
		skip = 0;
		if (h.type < USER_HEADER_ATTR && h.type < sizeof(kernel_names) /
		    sizeof(kernel_names[0]) && kernel_names[h.type])
			ret = kernel_record(pd, pd->data + off, h.size, off, err);
		else if (h.type >= USER_HEADER_ATTR)
			ret = user_record(pd, pd->data + off, h.size, off, &skip, err);
		else
			ret = 0;
		if (ret)
			return ret;
		off += h.size;
		if (skip > pd->end - off) {
			op_err_set(err, "payload of the record before offset %zu ends "
				   "past the end of the data (truncated?)", off);
			return -EINVAL;
		}
		off += skip;
	}
	return 0;
}

int opd_perfdata_open(const void *data, size_t size, struct opd_perfdata **pdp,
		      struct op_err *err)
{
	struct opd_perfdata *pd = op_xcalloc(1, sizeof(*pd));
	static const char *const none = "";
	int ret;

	*pdp = NULL;
	pd->data = data;
	pd->size = size;
	op_strbuf_init(&pd->out);
	op_strbuf_init(&pd->lost);
	ret = parse_header(pd, err);
	if (!ret)
		ret = walk(pd, err);
	if (!ret && !pd->info.nr_attrs) {
		op_err_set(err, "no event attrs: nothing was recorded");
		ret = -EINVAL;
	}
	if (ret) {
		opd_perfdata_free(pd);
		return ret;
	}
	pd->info.sample_type = OPD_SAMPLE_TYPE |
			       (pd->has_chain ? PERF_SAMPLE_CALLCHAIN : 0);
	pd->info.hostname = pd->texts[0] ? pd->texts[0] : none;
	pd->info.osrelease = pd->texts[1] ? pd->texts[1] : none;
	pd->info.cmdline = pd->texts[2] ? pd->texts[2] : none;
	*pdp = pd;
	return 0;
}

const struct opd_perfdata_info *opd_perfdata_info(const struct opd_perfdata *pd)
{
	return &pd->info;
}

void opd_perfdata_replay(struct opd_perfdata *pd, const struct opd_perfdata_sink *sink)
{
	struct op_err err = { "" };

	pd->sink = sink;
	/* checked by opd_perfdata_open(): cannot fail */
	walk(pd, &err);
	pd->sink = NULL;
}

void opd_perfdata_free(struct opd_perfdata *pd)
{
	size_t i;

	if (!pd)
		return;
	free(pd->attrs);
	free(pd->ids);
	for (i = 0; i < 3; i++)
		free(pd->texts[i]);
	op_strbuf_release(&pd->out);
	op_strbuf_release(&pd->lost);
	free(pd);
}
