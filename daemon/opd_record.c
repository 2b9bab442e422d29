// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoding perf_events records (see opd_record.h).  Field offsets follow
 * from the sample_type bits in the order perf_event.h documents; the
 * reader below refuses to step past the record's end.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "daemon/opd_record.h"

struct reader {
	const unsigned char *p;
	const unsigned char *end;
	bool bad;
};

static uint64_t get_u64(struct reader *r)
{
	uint64_t v = 0;

	if (r->end - r->p < 8) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	memcpy(&v, r->p, 8);
	r->p += 8;
	return v;
}

/* two u32 packed in one u64 slot: low half first (little endian order) */
static void get_2u32(struct reader *r, uint32_t *a, uint32_t *b)
{
	uint32_t v[2] = { 0, 0 };

	if (r->end - r->p < 8) {
		r->bad = true;
		r->p = r->end;
	} else {
		memcpy(v, r->p, 8);
		r->p += 8;
	}
	*a = v[0];
	*b = v[1];
}

/* a NUL-terminated string padded to 8 bytes */
static const char *get_string(struct reader *r)
{
	const unsigned char *nul;
	const char *s = (const char *)r->p;
	size_t padded;

	nul = memchr(r->p, '\0', (size_t)(r->end - r->p));
	if (!nul) {
		r->bad = true;
		r->p = r->end;
		return "";
	}
	padded = ((size_t)(nul - r->p) + 1 + 7) & ~(size_t)7;
	if (padded > (size_t)(r->end - r->p))
		padded = (size_t)(r->end - r->p);
	r->p += padded;
	return s;
}

/*
 * The sample_id trailer of a non-sample record: its fields sit at the end
 * of the record, so read them from end - size.
 */
static void get_sample_id(const unsigned char *start, const unsigned char *end,
			  uint64_t st, struct opd_record *rec, bool *bad)
{
	size_t size = 0;
	struct reader r;

	if (st & PERF_SAMPLE_TID)
		size += 8;
	if (st & PERF_SAMPLE_TIME)
		size += 8;
	if (st & PERF_SAMPLE_ID)
		size += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		size += 8;
	if (st & PERF_SAMPLE_CPU)
		size += 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		size += 8;
	if ((size_t)(end - start) < size) {
		*bad = true;
		return;
	}
	r.p = end - size;
	r.end = end;
	r.bad = false;
	if (st & PERF_SAMPLE_TID)
		get_2u32(&r, &rec->pid, &rec->tid);
	if (st & PERF_SAMPLE_TIME)
		rec->time = get_u64(&r);
	if (st & PERF_SAMPLE_ID)
		rec->id = get_u64(&r);
	if (st & PERF_SAMPLE_STREAM_ID)
		get_u64(&r);
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;

		get_2u32(&r, &rec->cpu, &res);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		rec->id = get_u64(&r);
}

static void decode_sample(struct reader *r, uint64_t st, struct opd_record *rec)
{
	uint32_t res;

	if (st & PERF_SAMPLE_IDENTIFIER)
		rec->id = get_u64(r);
	if (st & PERF_SAMPLE_IP)
		rec->u.sample.ip = get_u64(r);
	if (st & PERF_SAMPLE_TID)
		get_2u32(r, &rec->pid, &rec->tid);
	if (st & PERF_SAMPLE_TIME)
		rec->time = get_u64(r);
	if (st & PERF_SAMPLE_ADDR)
		get_u64(r);
	if (st & PERF_SAMPLE_ID)
		rec->id = get_u64(r);
	if (st & PERF_SAMPLE_STREAM_ID)
		get_u64(r);
	if (st & PERF_SAMPLE_CPU)
		get_2u32(r, &rec->cpu, &res);
	if (st & PERF_SAMPLE_PERIOD)
		rec->u.sample.period = get_u64(r);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = get_u64(r);

		if (nr > (uint64_t)(r->end - r->p) / 8) {
			r->bad = true;
			return;
		}
		rec->u.sample.nr_chain = nr;
		rec->u.sample.chain = (const uint64_t *)r->p;
		r->p += nr * 8;
	}
}

/*
 * The common case, a sample with exactly our sample_type: fixed offsets.
 * Layout: header, id, ip, pid/tid, time, cpu/res, period[, nr, chain].
 */
static int decode_our_sample(const unsigned char *p, size_t len, bool chain,
			     struct opd_record *rec)
{
	uint64_t f[6], nr;

	if (len < 8 + sizeof(f) + (chain ? 8 : 0))
		return -EINVAL;
	memcpy(f, p + 8, sizeof(f));
	rec->id = f[0];
	rec->u.sample.ip = f[1];
	rec->pid = (uint32_t)f[2];
	rec->tid = (uint32_t)(f[2] >> 32);
	rec->time = f[3];
	rec->cpu = (uint32_t)f[4];
	rec->u.sample.period = f[5];
	rec->u.sample.nr_chain = 0;
	rec->u.sample.chain = NULL;
	if (chain) {
		memcpy(&nr, p + 8 + sizeof(f), 8);
		if (nr > (len - 8 - sizeof(f) - 8) / 8)
			return -EINVAL;
		rec->u.sample.nr_chain = nr;
		rec->u.sample.chain = (const uint64_t *)(p + 8 + sizeof(f) + 8);
	}
	return 0;
}

int opd_record_decode(const void *data, size_t len, uint64_t sample_type,
		      struct opd_record *rec)
{
	const unsigned char *start = data, *end = start + len;
	struct perf_event_header h, *hdr = &h;
	struct reader r = { .p = start + sizeof(h), .end = end };
	bool bad = false;

	/* records in a stream file may be unaligned: copy the header */
	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, data, sizeof(h));
	if (hdr->size != len)
		return -EINVAL;
	if (hdr->type == PERF_RECORD_SAMPLE &&
	    (sample_type & ~(uint64_t)PERF_SAMPLE_CALLCHAIN) == OPD_SAMPLE_TYPE) {
		rec->type = hdr->type;
		rec->misc = hdr->misc;
		return decode_our_sample(start, len,
					 sample_type & PERF_SAMPLE_CALLCHAIN, rec);
	}
	memset(rec, 0, sizeof(*rec));
	rec->type = hdr->type;
	rec->misc = hdr->misc;
	switch (hdr->type) {
	case PERF_RECORD_SAMPLE:
		decode_sample(&r, sample_type, rec);
		return r.bad ? -EINVAL : 0;
	case PERF_RECORD_MMAP2:
		get_2u32(&r, &rec->u.mmap.pid, &rec->u.mmap.tid);
		rec->u.mmap.start = get_u64(&r);
		rec->u.mmap.len = get_u64(&r);
		rec->u.mmap.pgoff = get_u64(&r);
		get_2u32(&r, &rec->u.mmap.maj, &rec->u.mmap.min);
		rec->u.mmap.ino = get_u64(&r);
		rec->u.mmap.ino_generation = get_u64(&r);
		get_2u32(&r, &rec->u.mmap.prot, &rec->u.mmap.flags);
		rec->u.mmap.filename = get_string(&r);
		break;
	case PERF_RECORD_MMAP:
		get_2u32(&r, &rec->u.mmap.pid, &rec->u.mmap.tid);
		rec->u.mmap.start = get_u64(&r);
		rec->u.mmap.len = get_u64(&r);
		rec->u.mmap.pgoff = get_u64(&r);
		rec->u.mmap.prot = 4;	/* PROT_EXEC: MMAP records are for code */
		rec->u.mmap.filename = get_string(&r);
		break;
	case PERF_RECORD_COMM:
		get_2u32(&r, &rec->u.comm.pid, &rec->u.comm.tid);
		rec->u.comm.comm = get_string(&r);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		get_2u32(&r, &rec->u.task.pid, &rec->u.task.ppid);
		get_2u32(&r, &rec->u.task.tid, &rec->u.task.ptid);
		rec->u.task.time = get_u64(&r);
		break;
	case PERF_RECORD_LOST:
		rec->u.lost.id = get_u64(&r);
		rec->u.lost.lost = get_u64(&r);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		rec->u.throttle.time = get_u64(&r);
		rec->u.throttle.id = get_u64(&r);
		rec->u.throttle.stream_id = get_u64(&r);
		break;
	default:
		return -ENOTSUP;
	}
	if (r.bad)
		return -EINVAL;
	get_sample_id(r.p, end, sample_type, rec, &bad);
	return bad ? -EINVAL : 0;
}

uint64_t opd_record_time(const void *data, size_t len, uint64_t sample_type)
{
	const unsigned char *p = data;
	struct perf_event_header h, *hdr = &h;
	struct opd_record rec;
	uint64_t t;

	if (len < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	/*
	 * With our sample_type the time is at a fixed place: after id, ip
	 * and pid/tid in a sample; 24 bytes from the end of the sample_id
	 * trailer (time, cpu, identifier) in any other record.
	 */
	if ((sample_type & ~(uint64_t)PERF_SAMPLE_CALLCHAIN) == OPD_SAMPLE_TYPE) {
		size_t off = hdr->type == PERF_RECORD_SAMPLE ? 32 : len - 24;

		if (len < sizeof(*hdr) + 32)
			return 0;
		memcpy(&t, p + off, sizeof(t));
		return t;
	}
	if (opd_record_decode(data, len, sample_type, &rec))
		return 0;
	return rec.time;
}

/* header, pid/tid, start, len, pgoff, maj/min, ino, ino_generation, prot/flags */
#define MMAP2_FIXED (sizeof(struct perf_event_header) + 8 * 8)

int opd_record_mmap2_rename(const void *data, size_t len, const char *filename,
			    struct op_strbuf *out)
{
	static const char pad[8];
	const unsigned char *p = data, *nul;
	struct perf_event_header h;
	size_t old_len, new_len, trailer_len, size;

	if (len < MMAP2_FIXED + 8)
		return -EINVAL;
	memcpy(&h, data, sizeof(h));
	if (h.type != PERF_RECORD_MMAP2 || h.size != len)
		return -EINVAL;
	nul = memchr(p + MMAP2_FIXED, '\0', len - MMAP2_FIXED);
	if (!nul)
		return -EINVAL;
	/* the path padded to 8 bytes with NULs, as the kernel writes it */
	old_len = ((size_t)(nul - (p + MMAP2_FIXED)) + 1 + 7) & ~(size_t)7;
	if (old_len > len - MMAP2_FIXED)
		return -EINVAL;
	trailer_len = len - MMAP2_FIXED - old_len;
	new_len = (strlen(filename) + 1 + 7) & ~(size_t)7;
	size = MMAP2_FIXED + new_len + trailer_len;
	if (size >= OPD_RECORD_MAX)
		return -ENAMETOOLONG;
	h.size = (uint16_t)size;
	op_strbuf_add(out, &h, sizeof(h));
	op_strbuf_add(out, p + sizeof(h), MMAP2_FIXED - sizeof(h));
	op_strbuf_add(out, filename, strlen(filename));
	op_strbuf_add(out, pad, new_len - strlen(filename));
	op_strbuf_add(out, p + MMAP2_FIXED + old_len, trailer_len);
	if (op_strbuf_failed(out))
		return -ENOMEM;
	return 0;
}
