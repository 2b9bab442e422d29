// SPDX-License-Identifier: GPL-2.0-or-later
/* What operf and oprofiled both do around the engine (opd_front.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <sys/stat.h>
#include <fcntl.h>

#include "daemon/opd_front.h"
#include "daemon/opd_jit.h"
#include "daemon/opd_jitdump.h"
#include "daemon/opd_kernel.h"
#include "daemon/opd_stats.h"
#include "libdb/odb.h"
#include "libdb/odb_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"
#include "libutil/op_popt.h"
#include "libutil/op_vdso.h"

#define TEXT_MAX ((size_t)256 << 20)
#define MAX_OPEN 8192		/* sample files kept open at most */

unsigned opd_front_max_open_files(size_t perf_fds)
{
	struct rlimit rl;
	rlim_t budget;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 64;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	budget = rl.rlim_cur > perf_fds + 96 ? rl.rlim_cur - perf_fds - 64 : 32;
	/* each open file is also a mapping: stay well below vm.max_map_count */
	return budget > MAX_OPEN ? MAX_OPEN : (unsigned)budget;
}

/* read the kernel's symbols and modules, and store them with the vdso */
static void store_kernel(const struct opd_session *s, char **kallsyms, size_t *klen,
			 char **modules, size_t *mlen)
{
	const void *vdso;
	size_t vlen = 0;

	if (op_read_file("/proc/kallsyms", (size_t)256 << 20, kallsyms, klen))
		*kallsyms = NULL;
	if (op_read_file("/proc/modules", (size_t)16 << 20, modules, mlen))
		*modules = NULL;
	if (odb_session_store_kernel(&s->cdir, *kallsyms, *klen, *modules, *mlen))
		op_warning("cannot store the kernel symbols in '%s/kernel'", s->current);
	if (!op_vdso_image(&vdso, &vlen) && odb_session_store_vdso(&s->cdir, vdso, vlen))
		op_warning("cannot store the vdso in '%s/kernel'", s->current);
}

void opd_front_load_kernel(const struct opd_session *s, const char *vmlinux,
			   struct op_strbuf *layout)
{
	char *kallsyms = NULL, *modules = NULL;
	size_t klen = 0, mlen = 0;

	store_kernel(s, &kallsyms, &klen, &modules, &mlen);
	op_strbuf_reset(layout);
	if (opd_kernel_layout(layout, kallsyms, modules))
		op_die(1, "out of memory");
	if (vmlinux && !opd_kernel_layout_has_text(layout->buf))
		op_warning("kernel samples go to no-vmlinux, not '%s': /proc/kallsyms "
			   "does not show where the kernel's text is", vmlinux);
	free(kallsyms);
	free(modules);
}

void opd_front_store_kernel(const struct opd_session *s)
{
	char *kallsyms = NULL, *modules = NULL;
	size_t klen = 0, mlen = 0;

	store_kernel(s, &kallsyms, &klen, &modules, &mlen);
	free(kallsyms);
	free(modules);
}

void opd_front_config(struct opd_engine_config *cfg, const struct opd_session *s,
		      const struct operf_events *evs, const struct opd_perf *perf,
		      const struct op_strbuf *layout, const char *vmlinux)
{
	cfg->samples = &s->cdir;
	cfg->events = evs->events;
	cfg->nr_events = evs->nr;
	cfg->sample_type = perf->sample_type;
	cfg->nr_cpus = perf->nr_cpus;
	cfg->cpu_speed = opd_cpu_speed();
	cfg->kernel_layout = layout->buf;
	cfg->vmlinux = vmlinux;
	cfg->max_open_files = opd_front_max_open_files(perf->nr_fds);
}

struct opd_engine *opd_front_engine(const struct opd_engine_config *cfg,
				    const struct opd_perf *perf)
{
	struct opd_engine *e = opd_engine_new(cfg);
	size_t i;

	for (i = 0; i < perf->nr_ids; i++)
		opd_engine_add_id(e, perf->ids[i].id, perf->ids[i].event);
	return e;
}

static const char *const text_names[3] = {
	ODB_SESSION_COMMS, ODB_SESSION_BUILDIDS, ODB_SESSION_LONGNAMES,
};

void opd_front_load_prior(const struct opd_session *s, struct opd_front_prior *prior)
{
	size_t i, len;

	memset(prior, 0, sizeof(*prior));
	if (odb_stats_read(s->current, &prior->stats))
		memset(&prior->stats, 0, sizeof(prior->stats));
	for (i = 0; i < 3; i++)
		if (odb_session_read(s->current, text_names[i], TEXT_MAX,
				     &prior->texts[i], &len))
			prior->texts[i] = NULL;
}

void opd_front_prior_release(struct opd_front_prior *prior)
{
	size_t i;

	if (!prior)
		return;
	odb_stats_release(&prior->stats);
	for (i = 0; i < 3; i++)
		free(prior->texts[i]);
	memset(prior, 0, sizeof(*prior));
}

struct line {
	const char *p;
	size_t len;
};

/* is the line [p, p + len) among those of set (hashed by content)? */
static bool has_line(struct op_hmap *set, const char *p, size_t len, uint64_t h)
{
	struct op_hmap_iter it;
	struct line *l;

	for (l = op_hmap_first(set, h, &it); l; l = op_hmap_next(set, h, &it))
		if (l->len == len && !memcmp(l->p, p, len))
			return true;
	return false;
}

/*
 * The lines of prior, then those of text that prior lacks, into sb: the
 * names an earlier writer recorded stay, ours are added once
 */
static void merge_lines(const char *prior, const struct op_strbuf *text,
			struct op_strbuf *sb)
{
	struct op_hmap set;
	struct line *lines;
	const char *p = prior;
	size_t nr = 0, alloc = 0, i;

	op_hmap_init(&set);
	for (i = 0; prior[i]; i++)
		alloc += prior[i] == '\n';
	lines = op_xcalloc(alloc + 1, sizeof(*lines));
	while (*p) {
		size_t len = strcspn(p, "\n");

		if (nr <= alloc) {
			lines[nr] = (struct line){ p, len };
			if (op_hmap_insert(&set, op_hash_bytes(0, p, len), &lines[nr]))
				op_die(1, "out of memory");
			nr++;
		}
		op_strbuf_add(sb, p, len);
		op_strbuf_addch(sb, '\n');
		p += len + (p[len] == '\n');
	}
	p = text->buf ? text->buf : "";
	while (*p) {
		size_t len = strcspn(p, "\n");

		if (!has_line(&set, p, len, op_hash_bytes(0, p, len))) {
			op_strbuf_add(sb, p, len);
			op_strbuf_addch(sb, '\n');
		}
		p += len + (p[len] == '\n');
	}
	op_hmap_release(&set);
	free(lines);
}

/*
 * Has what a file holds changed since *last (its hash, 0 for never
 * written)?  Updates *last; always true without last.
 */
static bool changed(uint64_t *last, uint64_t hash)
{
	if (!last)
		return true;
	hash |= 1;	/* never 0, which means "not written" */
	if (*last == hash)
		return false;
	*last = hash;
	return true;
}

/*
 * A text the engine makes (fill), merged with prior, stored as name
 * unless it is what *last says was stored
 */
static void store_text(const struct opd_session *s, struct opd_engine *e,
		       const char *name, const char *prior, uint64_t *last,
		       void (*fill)(const struct opd_engine *e, struct op_strbuf *sb),
		       int (*store)(const struct op_dir *dir, const char *text, size_t len))
{
	struct op_strbuf sb = OP_STRBUF_INIT, merged = OP_STRBUF_INIT;
	const struct op_strbuf *out = &sb;

	fill(e, &sb);
	if (prior && *prior) {
		merge_lines(prior, &sb, &merged);
		out = &merged;
	}
	if (op_strbuf_failed(out))
		op_die(1, "out of memory");
	if (changed(last, op_hash_bytes(0, out->buf ? out->buf : "", out->len)) &&
	    store(&s->cdir, out->buf ? out->buf : "", out->len)) {
		op_warning("cannot write '%s/%s'", s->current, name);
		if (last)
			*last = 0;
	}
	op_strbuf_release(&sb);
	op_strbuf_release(&merged);
}

static void write_stats(const struct opd_session *s, struct opd_engine *e,
			const struct operf_events *evs,
			const struct opd_front_prior *prior, uint64_t *last)
{
	const struct opd_stats *st = opd_engine_stats(e);
	bool *thr = op_xcalloc(evs->nr ? evs->nr : 1, sizeof(*thr));
	struct odb_stats ost;
	uint64_t h;
	size_t i;

	/*
	 * What stats/ will hold: the lost counters, total_samples only when
	 * one of them is not zero (odb_stats.h), the throttle flags
	 */
	opd_stats_to_odb(st, &ost);
	if (!odb_stats_lost_samples(&ost) && !odb_stats_lost_arcs(&ost) &&
	    (!prior || (!odb_stats_lost_samples(&prior->stats) &&
			!odb_stats_lost_arcs(&prior->stats))))
		ost.count[ODB_STAT_TOTAL_SAMPLES] = 0;
	h = op_hash_bytes(0, ost.count, sizeof(ost.count));
	for (i = 0; i < evs->nr; i++) {
		thr[i] = opd_engine_throttled(e, (uint32_t)i);
		h = op_hash_combine(h, thr[i]);
	}
	if (changed(last, h) &&
	    opd_session_write_stats(s, st, evs->events, evs->nr, thr,
				    prior ? &prior->stats : NULL)) {
		op_warning("cannot write '%s/stats'", s->current);
		if (last)
			*last = 0;
	}
	free(thr);
}

/*
 * A jitdump a process mapped that could not become its jit/TGID.jo (or,
 * path NULL, the list of them that could not be written); data: the
 * session
 */
static void warn_jitdump(const char *path, int err, void *data)
{
	const struct opd_session *s = data;

	if (!path) {
		op_warning("cannot write '%s/" ODB_SESSION_JITDUMPS "': %s", s->current,
			   op_strerror(err));
		return;
	}
	op_warning("JIT code in '%s' is left unnamed: %s", path,
		   err == -EPERM ? "owned by another user, not read" :
		   err == -ELOOP ? "a symlink, not followed" : opd_jitdump_strerror(err));
	if (err == -EPERM)
		op_hint("its owner can convert it: opjitconv --session-dir=%s", s->dir);
}

void opd_front_write_files(const struct opd_session *s, struct opd_engine *e,
			   const struct operf_events *evs,
			   const struct opd_front_prior *prior,
			   struct opd_front_written *last, bool all)
{
	char failed[256] = "";
	int ret;

	write_stats(s, e, evs, prior, last ? &last->stats : NULL);
	if (all && odb_session_write_abi(&s->top))
		op_warning("cannot write '%s/abi'", s->dir);
	ret = all ? opd_jit_store(&s->cdir, failed, sizeof(failed)) : 0;
	if (ret < 0)
		op_warning("cannot copy '%s' into '%s/jit': %s", failed, s->current,
			   op_strerror(ret));
	if (all)
		opd_jit_store_dumps(&s->cdir, opd_engine_jitdumps(e), warn_jitdump,
				    (void *)s);
	store_text(s, e, ODB_SESSION_COMMS, prior ? prior->texts[0] : NULL,
		   last ? &last->texts[0] : NULL, opd_engine_comms_text,
		   odb_session_store_comms);
	store_text(s, e, ODB_SESSION_BUILDIDS, prior ? prior->texts[1] : NULL,
		   last ? &last->texts[1] : NULL, opd_engine_buildids_text,
		   odb_session_store_buildids);
	store_text(s, e, ODB_SESSION_LONGNAMES, prior ? prior->texts[2] : NULL,
		   last ? &last->texts[2] : NULL, opd_engine_longnames_text,
		   odb_session_store_longnames);
}

void opd_front_info_events(const struct operf_events *evs, const struct opd_perf *perf,
			   struct odb_session_info *info)
{
	size_t i;

	info->events = op_xcalloc(evs->nr ? evs->nr : 1, sizeof(*info->events));
	for (i = 0; i < evs->nr; i++) {
		const struct opev_event *ev = &evs->events[i];

		info->events[i] = (struct odb_session_event){
			.name = op_xstrdup(ev->name),
			.software = ev->kind == OPEV_SOFTWARE_CLOCK,
			.period = ev->period,
			.cpu_type = ev->op_cpu_type,
			.code = ev->op_event,
			.unit_mask = ev->op_unit_mask,
			.desc = op_xstrdup(ev->desc),
		};
		info->nr_events++;
	}
	if (evs->fallback) {
		info->fallback = true;
		info->fallback_reason = op_xstrdup(evs->fallback_reason);
	}
	if (perf->kernel_excluded) {
		info->kernel_excluded = true;
		info->kernel_excluded_reason = op_xstrdup("perf_event_paranoid");
	}
}

int opd_front_parse_verbose(const char *list)
{
	static const char *const known[] = { "debug", "perf_events", "misc",
					     "sfile", "arcs", "all" };
	enum op_msg_level level = OP_MSG_VERBOSE;
	char *copy = op_xstrdup(list), *save = NULL, *tok;
	int ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(tok, known[i]))
				break;
		if (i == sizeof(known) / sizeof(known[0])) {
			op_usage_error("unknown --verbose level '%s' (debug, perf_events, "
				       "misc, sfile, arcs, all)", tok);
			ret = -1;
			break;
		}
		if (!strcmp(tok, "all") || !strcmp(tok, "debug"))
			level = OP_MSG_DEBUG;
	}
	free(copy);
	if (!ret)
		op_msg_set_level(level);
	return ret;
}

int opd_front_check_vmlinux(const char *path)
{
	unsigned char magic[4];
	struct stat st;
	size_t got = 0;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return op_usage_error("--vmlinux '%s': %s", path, op_strerror(-errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		ret = op_usage_error("--vmlinux '%s': not a regular file", path);
	else if (op_read_all(fd, magic, sizeof(magic), &got) || got != sizeof(magic) ||
		 memcmp(magic, "\177ELF", 4))
		ret = op_usage_error("--vmlinux '%s': not an ELF file (give the "
				     "uncompressed vmlinux, not a vmlinuz)", path);
	close(fd);
	return ret;
}
