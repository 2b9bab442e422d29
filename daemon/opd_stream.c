// SPDX-License-Identifier: GPL-2.0-or-later
/* Writing and replaying recorded perf_events streams (see opd_stream.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon/opd_stream.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"

#define WRITE_BUF (1u << 20)
/* what is buffered reaches the file at the first round after this */
#define FLUSH_NS 250000000ull

struct opd_stream_writer {
	int fd;
	unsigned char *buf;
	size_t len;
	int error;		/* first write error, sticky */
	uint64_t flushed_ns;	/* CLOCK_MONOTONIC of the last flush */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int flush(struct opd_stream_writer *w)
{
	if (!w->error && w->len)
		w->error = op_write_all(w->fd, w->buf, w->len);
	w->len = 0;
	w->flushed_ns = now_ns();
	return w->error;
}

static int put(struct opd_stream_writer *w, const void *data, size_t len)
{
	if (w->error)
		return w->error;
	if (w->len + len > WRITE_BUF && flush(w))
		return w->error;
	if (len > WRITE_BUF) {
		w->error = op_write_all(w->fd, data, len);
		return w->error;
	}
	memcpy(w->buf + w->len, data, len);
	w->len += len;
	return 0;
}

static void event_to_disk(const struct opev_event *ev, struct opd_stream_event *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", ev->name);
	snprintf(d->desc, sizeof(d->desc), "%s", ev->desc);
	d->attr_config = ev->attr_config;
	d->attr_config1 = ev->attr_config1;
	d->attr_config2 = ev->attr_config2;
	d->period = ev->period;
	d->kind = ev->kind;
	d->attr_type = ev->attr_type;
	d->exclude_kernel = ev->exclude_kernel;
	d->exclude_user = ev->exclude_user;
	d->op_cpu_type = ev->op_cpu_type;
	d->op_event = ev->op_event;
	d->op_unit_mask = ev->op_unit_mask;
}

int opd_stream_create(const char *path, const struct opd_stream_info *info,
		      struct opd_stream_writer **wp)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	return opd_stream_create_fd(fd, info, wp);
}

int opd_stream_create_fd(int fd, const struct opd_stream_info *info,
			 struct opd_stream_writer **wp)
{
	struct opd_stream_header hdr = { .version = OPD_STREAM_VERSION };
	struct opd_stream_writer *w = op_xcalloc(1, sizeof(*w));
	size_t text_len = info->layout ? strlen(info->layout) : 0, i;
	/* NUL padding keeps the chunks 8-byte aligned; readers stop at NUL */
	size_t layout_len = (text_len + 8) & ~(size_t)7;
	static const char zeros[8];

	w->buf = op_xmalloc(WRITE_BUF);
	w->fd = fd;
	memcpy(hdr.magic, OPD_STREAM_MAGIC, sizeof(OPD_STREAM_MAGIC));
	hdr.header_size = sizeof(hdr);
	hdr.event_size = sizeof(struct opd_stream_event);
	hdr.sample_type = info->sample_type;
	hdr.nr_cpus = info->nr_cpus;
	hdr.nr_events = (uint32_t)info->nr_events;
	hdr.nr_ids = (uint32_t)info->nr_ids;
	hdr.layout_len = (uint32_t)layout_len;
	put(w, &hdr, sizeof(hdr));
	for (i = 0; i < info->nr_events; i++) {
		struct opd_stream_event d;

		event_to_disk(&info->events[i], &d);
		put(w, &d, sizeof(d));
	}
	put(w, info->ids, info->nr_ids * sizeof(*info->ids));
	put(w, info->layout ? info->layout : "", text_len);
	put(w, zeros, layout_len - text_len);
	*wp = w;
	/* on disk at once: a run killed now still leaves a stream to convert */
	return flush(w);
}

static int put_chunk(struct opd_stream_writer *w, uint32_t type, uint32_t cpu,
		     const void *data, size_t len)
{
	struct opd_stream_chunk c = { .type = type, .cpu = cpu, .len = len };

	put(w, &c, sizeof(c));
	return len ? put(w, data, len) : w->error;
}

int opd_stream_write(struct opd_stream_writer *w, uint32_t cpu,
		     const void *data, size_t len)
{
	return len ? put_chunk(w, OPD_CHUNK_DATA, cpu, data, len) : w->error;
}

int opd_stream_round(struct opd_stream_writer *w)
{
	int ret = put_chunk(w, OPD_CHUNK_ROUND, 0, NULL, 0);

	if (!ret && now_ns() - w->flushed_ns >= FLUSH_NS)
		ret = flush(w);
	return ret;
}

int opd_stream_close_writer(struct opd_stream_writer *w)
{
	int ret;

	if (!w)
		return 0;
	put_chunk(w, OPD_CHUNK_END, 0, NULL, 0);
	ret = flush(w);
	if (close(w->fd) && !ret)
		ret = -errno;
	free(w->buf);
	free(w);
	return ret;
}

struct opd_stream_reader {
	unsigned char *map;
	size_t size;
	size_t data_off;		/* first chunk */
	size_t next_off;		/* the chunk opd_stream_next_chunk() reads */
	struct opd_stream_info info;
	struct opev_event *events;
	struct opd_stream_id *ids;
	char *layout;
};

static void event_from_disk(const struct opd_stream_event *d, struct opev_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	memcpy(ev->name, d->name, sizeof(ev->name) - 1);
	memcpy(ev->desc, d->desc, sizeof(ev->desc) - 1);
	ev->attr_config = d->attr_config;
	ev->attr_config1 = d->attr_config1;
	ev->attr_config2 = d->attr_config2;
	ev->period = d->period;
	ev->kind = d->kind == OPEV_SOFTWARE_CLOCK ? OPEV_SOFTWARE_CLOCK : OPEV_HARDWARE;
	ev->attr_type = d->attr_type;
	ev->exclude_kernel = d->exclude_kernel != 0;
	ev->exclude_user = d->exclude_user != 0;
	ev->op_cpu_type = d->op_cpu_type;
	ev->op_event = d->op_event;
	ev->op_unit_mask = d->op_unit_mask;
}

/* an event name must be usable in a sample-file name */
static bool good_name(const char *name)
{
	return name[0] && !strchr(name, '.') && !strchr(name, '/');
}

static int parse_header(struct opd_stream_reader *r, struct op_err *err)
{
	struct opd_stream_header hdr;
	uint64_t need;
	size_t off, i;

	if (r->size < sizeof(hdr)) {
		op_err_set(err, "file too short for a stream header");
		return -EINVAL;
	}
	memcpy(&hdr, r->map, sizeof(hdr));
	if (memcmp(hdr.magic, OPD_STREAM_MAGIC, sizeof(OPD_STREAM_MAGIC))) {
		op_err_set(err, "not a recorded operf stream (bad magic)");
		return -EINVAL;
	}
	if (hdr.version != OPD_STREAM_VERSION || hdr.header_size != sizeof(hdr) ||
	    hdr.event_size != sizeof(struct opd_stream_event)) {
		op_err_set(err, "unsupported stream version %u", hdr.version);
		return -EINVAL;
	}
	if (!hdr.nr_cpus || hdr.nr_cpus > 65536 || !hdr.nr_events ||
	    hdr.nr_events > 1024 || hdr.nr_ids > (1u << 24)) {
		op_err_set(err, "implausible stream header (%u cpus, %u events, %u ids)",
			   hdr.nr_cpus, hdr.nr_events, hdr.nr_ids);
		return -EINVAL;
	}
	need = sizeof(hdr) + (uint64_t)hdr.nr_events * sizeof(struct opd_stream_event) +
	       (uint64_t)hdr.nr_ids * sizeof(struct opd_stream_id) + hdr.layout_len;
	if (need > r->size) {
		op_err_set(err, "stream header describes more than the file holds");
		return -EINVAL;
	}
	r->events = op_xcalloc(hdr.nr_events, sizeof(*r->events));
	off = sizeof(hdr);
	for (i = 0; i < hdr.nr_events; i++, off += sizeof(struct opd_stream_event)) {
		struct opd_stream_event d;

		memcpy(&d, r->map + off, sizeof(d));
		event_from_disk(&d, &r->events[i]);
		if (!good_name(r->events[i].name) || r->events[i].period > INT32_MAX) {
			op_err_set(err, "bad event %zu in stream header", i);
			return -EINVAL;
		}
	}
	r->ids = op_xcalloc(hdr.nr_ids ? hdr.nr_ids : 1, sizeof(*r->ids));
	memcpy(r->ids, r->map + off, hdr.nr_ids * sizeof(*r->ids));
	off += hdr.nr_ids * sizeof(*r->ids);
	r->layout = op_xstrndup((const char *)r->map + off, hdr.layout_len);
	off += hdr.layout_len;
	r->data_off = off;
	r->next_off = off;
	r->info.sample_type = hdr.sample_type;
	r->info.nr_cpus = hdr.nr_cpus;
	r->info.events = r->events;
	r->info.nr_events = hdr.nr_events;
	r->info.ids = r->ids;
	r->info.nr_ids = hdr.nr_ids;
	r->info.layout = r->layout;
	return 0;
}

int opd_stream_open(const char *path, struct opd_stream_reader **rp,
		    struct op_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		*rp = NULL;
		op_err_set(err, "%s", strerror(errno));
		return -errno;
	}
	return opd_stream_open_fd(fd, rp, err);
}

int opd_stream_open_fd(int fd, struct opd_stream_reader **rp, struct op_err *err)
{
	struct opd_stream_reader *r = op_xcalloc(1, sizeof(*r));
	struct stat st;
	int ret;

	*rp = NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		op_err_set(err, "not a regular file");
		goto out_close;
	}
	r->size = (size_t)st.st_size;
	if (r->size) {
		r->map = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (r->map == MAP_FAILED) {
			ret = -errno;
			r->map = NULL;
			op_err_set(err, "%s", strerror(errno));
			goto out_close;
		}
		madvise(r->map, r->size, MADV_SEQUENTIAL);
	}
	ret = parse_header(r, err);
out_close:
	close(fd);
	if (ret) {
		opd_stream_close(r);
		return ret;
	}
	*rp = r;
	return 0;
}

const struct opd_stream_info *opd_stream_reader_info(const struct opd_stream_reader *r)
{
	return &r->info;
}

int opd_stream_next_chunk(struct opd_stream_reader *r,
			  struct opd_stream_chunk_view *view, struct op_err *err)
{
	struct opd_stream_chunk c;
	size_t off = r->next_off;

	if (off + sizeof(c) > r->size)
		goto cut;
	memcpy(&c, r->map + off, sizeof(c));
	off += sizeof(c);
	if (c.len > r->size - off)
		goto cut;	/* a partial last chunk */
	if (c.type != OPD_CHUNK_DATA && c.type != OPD_CHUNK_ROUND &&
	    c.type != OPD_CHUNK_END) {
		op_err_set(err, "unknown chunk type %u at offset %zu", c.type,
			   r->next_off);
		return -EINVAL;
	}
	view->type = c.type;
	view->cpu = c.cpu;
	view->data = r->map + off;
	view->len = (size_t)c.len;
	r->next_off = off + (size_t)c.len;
	return c.type == OPD_CHUNK_END ? 0 : 1;
cut:
	op_err_set(err, "stream ends without its end marker (recording cut short)");
	return -1;
}

void opd_stream_rewind(struct opd_stream_reader *r)
{
	r->next_off = r->data_off;
}

int opd_stream_replay(struct opd_stream_reader *r, struct opd_engine *e,
		      struct op_err *err)
{
	struct opd_stream_chunk_view c;
	size_t i;
	int ret;

	for (i = 0; i < r->info.nr_ids; i++)
		if (r->ids[i].event < r->info.nr_events)
			opd_engine_add_id(e, r->ids[i].id, r->ids[i].event);
	r->next_off = r->data_off;
	while ((ret = opd_stream_next_chunk(r, &c, err)) == 1) {
		/* the mapping outlives the engine's use of the records */
		if (c.type == OPD_CHUNK_DATA)
			opd_engine_queue_borrowed(e, c.cpu, c.data, c.len);
		else
			opd_engine_round(e);
	}
	return ret == -1 ? OPD_STREAM_TRUNCATED : ret;
}

void opd_stream_close(struct opd_stream_reader *r)
{
	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->size);
	free(r->events);
	free(r->ids);
	free(r->layout);
	free(r);
}
