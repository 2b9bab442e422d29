// SPDX-License-Identifier: GPL-2.0-or-later
/* Synthetic COMM and MMAP2 records from /proc (see opd_synth.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "daemon/opd_record.h"
#include "daemon/opd_synth.h"
#include "libutil/op_file.h"
#include "libutil/op_parse.h"

/* the sample_id trailer our sample_type asks for: pid/tid, time, cpu, id */
static void add_trailer(struct op_strbuf *out, uint32_t pid, uint64_t st)
{
	uint64_t zero = 0;
	uint32_t ids[2] = { pid, pid };

	if (st & PERF_SAMPLE_TID)
		op_strbuf_add(out, ids, sizeof(ids));
	if (st & PERF_SAMPLE_TIME)
		op_strbuf_add(out, &zero, 8);
	if (st & PERF_SAMPLE_ID)
		op_strbuf_add(out, &zero, 8);
	if (st & PERF_SAMPLE_STREAM_ID)
		op_strbuf_add(out, &zero, 8);
	if (st & PERF_SAMPLE_CPU)
		op_strbuf_add(out, &zero, 8);
	if (st & PERF_SAMPLE_IDENTIFIER)
		op_strbuf_add(out, &zero, 8);
}

/* a NUL-terminated string padded with NULs to a multiple of 8 */
static void add_string(struct op_strbuf *out, const char *s)
{
	static const char pad[8];
	size_t len = strlen(s) + 1;

	op_strbuf_add(out, s, len);
	op_strbuf_add(out, pad, (8 - len % 8) % 8);
}

static void set_size(struct op_strbuf *out, size_t start)
{
	struct perf_event_header hdr;

	memcpy(&hdr, out->buf + start, sizeof(hdr));
	hdr.size = (uint16_t)(out->len - start);
	memcpy(out->buf + start, &hdr, sizeof(hdr));
}

static void add_comm(struct op_strbuf *out, uint32_t pid, const char *comm,
		     uint64_t st)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_COMM,
					 .misc = PERF_RECORD_MISC_COMM_EXEC };
	uint32_t ids[2] = { pid, pid };
	size_t start = out->len;

	op_strbuf_add(out, &hdr, sizeof(hdr));
	op_strbuf_add(out, ids, sizeof(ids));
	add_string(out, comm);
	add_trailer(out, pid, st);
	if (!op_strbuf_failed(out))
		set_size(out, start);
}

struct map_line {
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min;
	char path[PATH_MAX];
};

static void add_mmap2(struct op_strbuf *out, uint32_t pid,
		      const struct map_line *m, uint64_t st)
{
	struct perf_event_header hdr = { .type = PERF_RECORD_MMAP2,
					 .misc = PERF_RECORD_MISC_USER };
	uint32_t ids[2] = { pid, pid };
	uint64_t v[3] = { m->start, m->end - m->start, m->pgoff };
	uint32_t dev[2] = { m->maj, m->min };
	uint64_t ino[2] = { m->ino, 0 };
	uint32_t prot[2] = { PROT_READ | PROT_EXEC, MAP_PRIVATE };
	size_t start = out->len;

	op_strbuf_add(out, &hdr, sizeof(hdr));
	op_strbuf_add(out, ids, sizeof(ids));
	op_strbuf_add(out, v, sizeof(v));
	op_strbuf_add(out, dev, sizeof(dev));
	op_strbuf_add(out, ino, sizeof(ino));
	op_strbuf_add(out, prot, sizeof(prot));
	add_string(out, m->path[0] ? m->path : "//anon");
	add_trailer(out, pid, st);
	if (!op_strbuf_failed(out))
		set_size(out, start);
}

/* "start-end perms offset maj:min inode   path"; true for x mappings */
static bool parse_map(const char *line, struct map_line *m)
{
	unsigned long long start, end, off, ino;
	unsigned maj, min;
	char perms[8];
	int n = 0;
	const char *p;
	size_t len;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms,
		   &off, &maj, &min, &ino, &n) < 7 || !strchr(perms, 'x'))
		return false;
	m->start = start;
	m->end = end;
	m->pgoff = off;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	p = n ? line + n : "";
	len = strcspn(p, "\n");
	if (len >= sizeof(m->path))
		len = sizeof(m->path) - 1;
	memcpy(m->path, p, len);
	m->path[len] = '\0';
	return m->end > m->start;
}

int opd_synth_process(struct op_strbuf *out, pid_t pid, uint64_t st)
{
	char path[64], exe[PATH_MAX], comm[32] = "", line[PATH_MAX + 128];
	struct map_line m;
	ssize_t n;
	FILE *f;
	int pass;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;	/* gone */
	if (fgets(comm, sizeof(comm), f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	add_comm(out, (uint32_t)pid, comm, st);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return op_strbuf_failed(out) ? -ENOMEM : 0;
	/* the executable's mappings first: the first file mapping is the app */
	for (pass = 0; pass < 2; pass++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			bool is_exe;

			if (!parse_map(line, &m))
				continue;
			is_exe = exe[0] && !strcmp(m.path, exe);
			if (is_exe == (pass == 0))
				add_mmap2(out, (uint32_t)pid, &m, st);
		}
	}
	fclose(f);
	return op_strbuf_failed(out) ? -ENOMEM : 0;
}

int opd_synth_all(struct op_strbuf *out, uint64_t st)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	int ret = 0;

	if (!dir)
		return -errno;
	while ((de = readdir(dir)) && !ret) {
		int pid;

		if (!op_parse_int(de->d_name, 10, 1, INT_MAX, &pid))
			ret = opd_synth_process(out, pid, st);
	}
	closedir(dir);
	return ret;
}

int opd_synth_exec(struct op_strbuf *out, pid_t pid, const char *command,
		   uint64_t st)
{
	const char *slash = strrchr(command, '/');
	char name[16];

	/* the kernel's comm: the last component, cut to 15 bytes */
	snprintf(name, sizeof(name), "%s", slash ? slash + 1 : command);
	add_comm(out, (uint32_t)pid, name, st);
	return op_strbuf_failed(out) ? -ENOMEM : 0;
}
