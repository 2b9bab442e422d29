// SPDX-License-Identifier: GPL-2.0-or-later
/* perf_event_open, per-CPU ring buffers and their reading (perf_events.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/opd_record.h"
#include "daemon/perf_events.h"
#include "libutil/op_alloc.h"
#include "libutil/op_barrier.h"
#include "libutil/op_file.h"
#include "libutil/op_parse.h"

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

uint32_t *opd_perf_online_cpus(size_t *nr)
{
	char *text = NULL, *p;
	size_t len, n = 0, alloc = 16;
	uint32_t *cpus = op_xcalloc(alloc, sizeof(*cpus));

	if (op_read_file("/sys/devices/system/cpu/online", 4096, &text, &len)) {
		long c, count = sysconf(_SC_NPROCESSORS_ONLN);

		for (c = 0; c < (count > 0 ? count : 1); c++) {
			if (n == alloc)
				cpus = op_xreallocarray(cpus, alloc *= 2, sizeof(*cpus));
			cpus[n++] = (uint32_t)c;
		}
		*nr = n;
		return cpus;
	}
	/* "0-3,5,7-8" */
	for (p = text; *p && *p != '\n';) {
		unsigned long a, b;
		char *end;

		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (; a <= b && a < 65536; a++) {
			if (n == alloc)
				cpus = op_xreallocarray(cpus, alloc *= 2, sizeof(*cpus));
			cpus[n++] = (uint32_t)a;
		}
		if (end == p)
			break;
		p = *end == ',' ? end + 1 : end;
	}
	free(text);
	*nr = n;
	return cpus;
}

uint32_t opd_perf_nr_cpus(void)
{
	size_t nr;
	uint32_t *cpus = opd_perf_online_cpus(&nr), max = 0;

	for (size_t i = 0; i < nr; i++)
		if (cpus[i] + 1 > max)
			max = cpus[i] + 1;
	free(cpus);
	return max ? max : 1;
}

static void fill_attr(struct perf_event_attr *attr, const struct opev_event *ev,
		      uint64_t sample_type, bool tracking, bool exclude_kernel,
		      uint32_t wakeup_bytes, unsigned max_stack)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = ev->attr_type;
	attr->config = ev->attr_config;
	attr->config1 = ev->attr_config1;
	attr->config2 = ev->attr_config2;
	attr->sample_period = ev->period;
	attr->sample_type = sample_type;
	attr->disabled = 1;
	attr->exclude_kernel = ev->exclude_kernel || exclude_kernel;
	attr->exclude_user = ev->exclude_user;
	attr->exclude_hv = 1;
	attr->sample_id_all = 1;
	/* wake the reader when a quarter of the ring is full, not per record */
	attr->watermark = 1;
	attr->wakeup_watermark = wakeup_bytes;
	if (sample_type & PERF_SAMPLE_CALLCHAIN)
		attr->sample_max_stack = (uint16_t)max_stack;
	if (tracking) {
		attr->mmap = 1;
		attr->mmap2 = 1;
		attr->comm = 1;
		attr->comm_exec = 1;
		attr->task = 1;
	}
}

static void keep_fd(struct opd_perf *p, int fd)
{
	if (p->nr_fds == p->alloc_fds) {
		p->alloc_fds = p->alloc_fds ? p->alloc_fds * 2 : 64;
		p->fds = op_xreallocarray(p->fds, p->alloc_fds, sizeof(*p->fds));
	}
	p->fds[p->nr_fds++] = fd;
}

static int keep_id(struct opd_perf *p, int fd, uint32_t event)
{
	uint64_t id;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return -errno;
	if (p->nr_ids == p->alloc_ids) {
		p->alloc_ids = p->alloc_ids ? p->alloc_ids * 2 : 64;
		p->ids = op_xreallocarray(p->ids, p->alloc_ids, sizeof(*p->ids));
	}
	p->ids[p->nr_ids].id = id;
	p->ids[p->nr_ids++].event = event;
	return 0;
}

static const char *open_reason(int err)
{
	switch (-err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return "this event is not supported here (no hardware PMU, or "
		       "not one of this CPU's events)";
	case EACCES:
	case EPERM:
		return "permission denied by /proc/sys/kernel/perf_event_paranoid";
	case EMFILE:
		return "too many open files (see 'ulimit -n')";
	case ESRCH:
		return "no such process";
	default:
		return strerror(-err);
	}
}

/* the ring of one CPU: map the first event opened there */
static int map_ring(struct opd_perf *p, struct opd_perf_ring *ring,
		    unsigned ring_kib, struct op_err *err)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = 1;

	while (pages * (size_t)page < (size_t)ring_kib * 1024)
		pages *= 2;
	/* without CAP_IPC_LOCK the locked-memory limit may refuse big rings */
	for (;;) {
		ring->base = mmap(NULL, (pages + 1) * (size_t)page,
				  PROT_READ | PROT_WRITE, MAP_SHARED, ring->fd, 0);
		if (ring->base != MAP_FAILED)
			break;
		if ((errno != EPERM && errno != ENOMEM) || pages <= 2) {
			int ret = -errno;

			ring->base = NULL;
			op_err_set(err, "cannot map the ring buffer of cpu %u: %s",
				   ring->cpu, strerror(-ret));
			return ret;
		}
		pages /= 2;
	}
	ring->data_size = pages * (size_t)page;
	if (p->scratch_size < ring->data_size) {
		p->scratch = op_xrealloc(p->scratch, ring->data_size);
		p->scratch_size = ring->data_size;
	}
	return 0;
}

/* the threads of process pid, from /proc/PID/task */
static pid_t *list_threads(pid_t pid, size_t *nr)
{
	char path[64];
	DIR *dir;
	struct dirent *de;
	pid_t *tids = NULL;
	size_t n = 0, alloc = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir) {
		*nr = 0;
		return NULL;
	}
	while ((de = readdir(dir))) {
		int tid;

		if (op_parse_int(de->d_name, 10, 1, 0x7fffffff, &tid))
			continue;
		if (n == alloc)
			tids = op_xreallocarray(tids, alloc = alloc ? alloc * 2 : 16,
						sizeof(*tids));
		tids[n++] = tid;
	}
	closedir(dir);
	*nr = n;
	return tids;
}

static int open_one(struct opd_perf *p, const struct opev_event *ev,
		    uint32_t event_idx, bool tracking, pid_t pid, int cpu,
		    const struct opd_target *target, struct op_err *err)
{
	struct perf_event_attr attr;
	int fd;

	fill_attr(&attr, ev, p->sample_type, tracking, p->kernel_excluded,
		  p->wakeup_bytes, p->max_stack);
	if (target->kind != OPD_TARGET_SYSTEM)
		attr.inherit = 1;
	if (target->kind == OPD_TARGET_COMMAND)
		attr.enable_on_exec = 1;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if ((fd == -EACCES || fd == -EPERM) && !attr.exclude_kernel &&
	    !p->kernel_excluded) {
		/* perf_event_paranoid >= 2 allows user space only */
		p->kernel_excluded = true;
		attr.exclude_kernel = 1;
		fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		op_err_set(err, "cannot open event '%s' on cpu %d: %s", ev->name,
			   cpu, open_reason(fd));
		return fd;
	}
	keep_fd(p, fd);
	if (keep_id(p, fd, event_idx)) {
		op_err_set(err, "cannot read the id of event '%s': %s", ev->name,
			   strerror(errno));
		return -errno;
	}
	return fd;
}

/*
 * The events of one cpu, all writing into its ring (a new entry of
 * p->rings, which has room): for each thread of tids (or pid one)
 */
static int open_cpu(struct opd_perf *p, const struct opev_event *evs, size_t nr_evs,
		    const struct opd_target *target, uint32_t cpu, const pid_t *tids,
		    size_t nr_tids, pid_t one, unsigned ring_kib, struct op_err *err)
{
	struct opd_perf_ring *ring = &p->rings[p->nr_rings];
	size_t t, e;
	int ret = 0;

	ring->fd = -1;
	ring->cpu = cpu;
	ring->first_fd = p->nr_fds;
	for (t = 0; t < nr_tids && !ret; t++) {
		pid_t pid = tids ? tids[t] : one;

		for (e = 0; e < nr_evs; e++) {
			int fd = open_one(p, &evs[e], (uint32_t)e, e == 0, pid,
					  (int)cpu, target, err);

			if (fd == -ESRCH && tids)
				break;	/* the thread exited meanwhile */
			if (fd < 0) {
				ret = fd;
				break;
			}
			if (ring->fd < 0) {
				ring->fd = fd;
				ret = map_ring(p, ring, ring_kib, err);
				if (ret)
					break;
				p->nr_rings++;
			} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd)) {
				ret = -errno;
				op_err_set(err, "cannot share the ring buffer of cpu %u: %s",
					   ring->cpu, strerror(errno));
				break;
			}
		}
	}
	ring->end_fd = p->nr_fds;
	return ret;
}

int opd_perf_open(struct opd_perf *p, const struct opev_event *evs,
		  size_t nr_evs, const struct opd_target *target,
		  bool callgraph, unsigned ring_kib, struct op_err *err)
{
	size_t nr_cpus, nr_tids = 1, c;
	uint32_t *cpus;
	pid_t *tids = NULL, one;
	int ret = 0;
	unsigned max_stack = p->max_stack;

	memset(p, 0, sizeof(*p));
	p->max_stack = max_stack;
	p->sample_type = OPD_SAMPLE_TYPE | (callgraph ? PERF_SAMPLE_CALLCHAIN : 0);
	p->wakeup_bytes = ring_kib * 1024u / 4;
	p->nr_cpus = opd_perf_nr_cpus();
	cpus = opd_perf_online_cpus(&nr_cpus);
	one = target->kind == OPD_TARGET_SYSTEM ? -1 : target->pid;
	if (target->kind == OPD_TARGET_PID) {
		tids = list_threads(target->pid, &nr_tids);
		if (!tids) {
			op_err_set(err, "no such process: %d", (int)target->pid);
			free(cpus);
			return -ESRCH;
		}
	}
	p->rings = op_xcalloc(nr_cpus ? nr_cpus : 1, sizeof(*p->rings));
	p->alloc_rings = nr_cpus ? nr_cpus : 1;
	for (c = 0; c < nr_cpus && !ret; c++)
		ret = open_cpu(p, evs, nr_evs, target, cpus[c], tids, nr_tids, one,
			       ring_kib, err);
	free(cpus);
	free(tids);
	if (!ret && !p->nr_rings) {
		op_err_set(err, "no event could be opened (the process has no threads left)");
		ret = -ESRCH;
	}
	if (ret)
		opd_perf_close(p);
	return ret;
}

bool opd_perf_has_cpu(const struct opd_perf *p, uint32_t cpu)
{
	size_t i;

	for (i = 0; i < p->nr_rings; i++)
		if (p->rings[i].cpu == cpu)
			return true;
	return false;
}

int opd_perf_add_cpu(struct opd_perf *p, const struct opev_event *evs,
		     size_t nr_evs, uint32_t cpu, unsigned ring_kib, bool enable,
		     struct op_err *err)
{
	struct opd_target system = { .kind = OPD_TARGET_SYSTEM };
	size_t first, i;
	int ret;

	if (p->nr_rings == p->alloc_rings) {
		p->alloc_rings *= 2;
		p->rings = op_xreallocarray(p->rings, p->alloc_rings, sizeof(*p->rings));
	}
	first = p->nr_fds;
	ret = open_cpu(p, evs, nr_evs, &system, cpu, NULL, 1, -1, ring_kib, err);
	if (ret) {
		/* give back what this cpu got; the others are untouched */
		if (p->nr_rings && p->rings[p->nr_rings - 1].cpu == cpu &&
		    p->rings[p->nr_rings - 1].first_fd == first) {
			struct opd_perf_ring *r = &p->rings[--p->nr_rings];

			munmap(r->base, r->data_size + (size_t)sysconf(_SC_PAGESIZE));
		}
		for (i = first; i < p->nr_fds; i++)
			close(p->fds[i]);
		p->nr_fds = first;
		return ret;
	}
	if (cpu + 1 > p->nr_cpus)
		p->nr_cpus = cpu + 1;
	for (i = first; enable && i < p->nr_fds; i++)
		if (ioctl(p->fds[i], PERF_EVENT_IOC_ENABLE, 0))
			return -errno;
	return 0;
}

void opd_perf_drop_cpu(struct opd_perf *p, size_t ring_idx)
{
	struct opd_perf_ring *r = &p->rings[ring_idx];
	size_t i;

	if (r->base)
		munmap(r->base, r->data_size + (size_t)sysconf(_SC_PAGESIZE));
	for (i = r->first_fd; i < r->end_fd; i++) {
		if (p->fds[i] >= 0)
			close(p->fds[i]);
		p->fds[i] = -1;
	}
	p->rings[ring_idx] = p->rings[--p->nr_rings];
}

static int ioctl_all(struct opd_perf *p, unsigned long req)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < p->nr_fds; i++)
		if (p->fds[i] >= 0 && ioctl(p->fds[i], req, 0) && !ret)
			ret = -errno;
	return ret;
}

int opd_perf_enable(struct opd_perf *p)
{
	return ioctl_all(p, PERF_EVENT_IOC_ENABLE);
}

int opd_perf_disable(struct opd_perf *p)
{
	return ioctl_all(p, PERF_EVENT_IOC_DISABLE);
}

int opd_perf_read(struct opd_perf *p, size_t i, const void **data, size_t *len)
{
	struct opd_perf_ring *ring = &p->rings[i];
	struct perf_event_mmap_page *meta = ring->base;
	const unsigned char *area = (const unsigned char *)ring->base + sysconf(_SC_PAGESIZE);
	uint64_t head, tail, avail;
	size_t mask = ring->data_size - 1, start, first;

	/* pairs with the kernel's release of data_head after writing records */
	head = op_load_acquire(&meta->data_head);
	tail = meta->data_tail;
	avail = head - tail;
	if (avail > ring->data_size)
		avail = ring->data_size;	/* cannot happen: the kernel stops */
	start = (size_t)(tail & mask);
	first = ring->data_size - start;
	if (first > avail)
		first = (size_t)avail;
	memcpy(p->scratch, area + start, first);
	memcpy(p->scratch + first, area, (size_t)avail - first);
	/* our reads of the data are done before the kernel may overwrite it */
	op_store_release(&meta->data_tail, head);
	*data = p->scratch;
	*len = (size_t)avail;
	return 0;
}

void opd_perf_close(struct opd_perf *p)
{
	size_t i;
	long page = sysconf(_SC_PAGESIZE);

	if (!p)
		return;
	for (i = 0; i < p->nr_rings; i++)
		if (p->rings[i].base)
			munmap(p->rings[i].base, p->rings[i].data_size + (size_t)page);
	for (i = 0; i < p->nr_fds; i++)
		if (p->fds[i] >= 0)
			close(p->fds[i]);
	free(p->fds);
	free(p->rings);
	free(p->ids);
	free(p->scratch);
	memset(p, 0, sizeof(*p));
}

static int probe(const struct opev_event *ev, uint64_t sample_type,
		 unsigned max_stack)
{
	struct perf_event_attr attr;
	int fd;

	fill_attr(&attr, ev, sample_type, false, false, 4096, max_stack);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd == -EACCES || fd == -EPERM) {
		attr.exclude_kernel = 1;
		fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int opd_perf_probe(const struct opev_event *ev)
{
	return probe(ev, OPD_SAMPLE_TYPE, 0);
}

int opd_perf_probe_callchain(const struct opev_event *ev, unsigned max_stack)
{
	return probe(ev, OPD_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN, max_stack);
}

int opd_perf_paranoid(void)
{
	char *text;
	size_t len;
	int v = 2;

	if (op_read_file("/proc/sys/kernel/perf_event_paranoid", 64, &text, &len))
		return v;
	text[strcspn(text, "\n")] = '\0';
	if (op_parse_int(text, 10, -10, 10, &v))
		v = 2;
	free(text);
	return v;
}

unsigned opd_perf_max_stack(void)
{
	char *text;
	size_t len;
	int v = 127;

	if (op_read_file("/proc/sys/kernel/perf_event_max_stack", 64, &text, &len))
		return (unsigned)v;
	text[strcspn(text, "\n")] = '\0';
	if (op_parse_int(text, 10, 1, 65535, &v))
		v = 127;
	free(text);
	return (unsigned)v;
}

pid_t *opd_perf_threads(pid_t pid, size_t *nr)
{
	return list_threads(pid, nr);
}

const char *opd_perf_open_reason(int err)
{
	return open_reason(err);
}

int opd_perf_count_open(const struct opev_event *ev, pid_t pid, int cpu,
			unsigned flags, bool *kernel_excluded)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = ev->attr_type;
	attr.config = ev->attr_config;
	attr.config1 = ev->attr_config1;
	attr.config2 = ev->attr_config2;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.exclude_kernel = ev->exclude_kernel || *kernel_excluded;
	attr.exclude_user = ev->exclude_user;
	attr.exclude_hv = 1;
	attr.inherit = !!(flags & OPD_COUNT_INHERIT);
	if (flags & OPD_COUNT_ON_EXEC) {
		attr.disabled = 1;
		attr.enable_on_exec = 1;
	}
	fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	/* a count of user mode alone beats none; not so for kernel-only */
	if ((fd == -EACCES || fd == -EPERM) && !attr.exclude_kernel &&
	    !attr.exclude_user) {
		attr.exclude_kernel = 1;
		fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			*kernel_excluded = true;
	}
	return fd;
}

int opd_perf_count_read(int fd, struct opd_count *c)
{
	uint64_t v[3];
	ssize_t n;

	do
		n = read(fd, v, sizeof(v));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(v))
		return -EIO;
	c->value = v[0];
	c->enabled = v[1];
	c->running = v[2];
	return 0;
}

bool opd_perf_task_not_ours(pid_t pid)
{
	char path[64], *text, *line;
	size_t len;
	bool other = false;
	unsigned long ids[4];

	if (geteuid() == 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (op_read_file(path, (size_t)64 << 10, &text, &len))
		return false;
	line = strstr(text, "\nUid:");
	if (line && sscanf(line + 5, "%lu %lu %lu %lu", &ids[0], &ids[1], &ids[2],
			   &ids[3]) == 4)
		other = ids[0] != getuid() || ids[1] != geteuid() || ids[2] != geteuid();
	free(text);
	return other;
}
