// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Paths of other mount namespaces as we see them (see opd_ns.h): parsing
 * mountinfo, the candidates it gives, and the cached translator the
 * engine asks for each MMAP2 record.
 *
 * Nothing found is ever trusted without stat(): a candidate path counts
 * only when it is the mapped file (device and inode), so a stale table,
 * a table of another namespace (for a process that is gone) or a lying
 * /proc text can cost a lookup but never name the wrong file.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "daemon/opd_ns.h"
#include "daemon/opd_record.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"
#include "libutil/op_parse.h"

#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#endif

/* fields of a mountinfo line we accept: 6 fixed, optional ones, "-", 3 */
#define MAX_FIELDS 64

/* --- mountinfo tables ----------------------------------------------- */

/*
 * Undo the kernel's octal escapes (space \040, tab \011, newline \012,
 * backslash \134) in place; false for an escape that makes a NUL.  A
 * backslash not followed by three octal digits stays as it is.
 */
static bool unescape(char *s, size_t *len)
{
	const char *r = s;
	char *w = s;

	while (*r) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' &&
		    r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			int c = (r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0');

			if (!c)
				return false;
			*w++ = (char)c;
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	*len = (size_t)(w - s);
	return true;
}

/* an absolute path, unescaped, without trailing slashes (but "/") */
static bool take_path(char *s, size_t *len)
{
	if (!unescape(s, len) || s[0] != '/')
		return false;
	while (*len > 1 && s[*len - 1] == '/')
		s[--*len] = '\0';
	return true;
}

static bool is_root(const char *path)
{
	return path[0] == '/' && !path[1];
}

/* "MAJ:MIN", both decimal */
static bool parse_devno(char *s, uint32_t *maj, uint32_t *min)
{
	char *colon = strchr(s, ':');

	if (!colon)
		return false;
	*colon = '\0';
	return !op_parse_u32(s, 10, maj) && !op_parse_u32(colon + 1, 10, min);
}

/*
 * One line, split in place:
 *   ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER
 */
static bool parse_line(char *line, struct opd_ns_mount *m)
{
	char *f[MAX_FIELDS], *p = line;
	size_t n = 0, sep, fstype_len;

	while (n < MAX_FIELDS) {
		f[n++] = p;
		p = strchr(p, ' ');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (p)
		return false;	/* more fields than any mount has */
	for (sep = 6; sep < n && strcmp(f[sep], "-"); sep++)
		;
	if (sep + 2 >= n)
		return false;	/* no separator, or no fstype and source */
	if (!parse_devno(f[2], &m->maj, &m->min) ||
	    !take_path(f[3], &m->root_len) || !take_path(f[4], &m->point_len))
		return false;
	m->root = f[3];
	m->point = f[4];
	if (!unescape(f[sep + 1], &fstype_len))
		return false;
	m->fstype = f[sep + 1];
	m->super = sep + 3 < n ? f[sep + 3] : "";
	return true;
}

void opd_ns_table_parse(struct opd_ns_table *t, char *text)
{
	size_t alloc = 0;
	char *line = text;

	memset(t, 0, sizeof(*t));
	t->text = text;
	while (line && *line) {
		char *nl = strchr(line, '\n');
		struct opd_ns_mount m;

		if (nl)
			*nl = '\0';
		if (!*line) {
			/* empty line: nothing */
		} else if (!parse_line(line, &m)) {
			t->nr_bad++;
		} else {
			if (t->nr_mounts == alloc) {
				alloc = alloc ? 2 * alloc : 32;
				t->mounts = op_xreallocarray(t->mounts, alloc,
							     sizeof(*t->mounts));
			}
			t->mounts[t->nr_mounts++] = m;
		}
		line = nl ? nl + 1 : NULL;
	}
}

void opd_ns_table_release(struct opd_ns_table *t)
{
	if (!t)
		return;
	free(t->text);
	free(t->mounts);
	memset(t, 0, sizeof(*t));
}

/* is dir (dir_len bytes, absolute, no trailing slash) path or above it? */
static bool holds(const char *dir, size_t dir_len, const char *path)
{
	if (is_root(dir))
		return path[0] == '/';
	return !strncmp(path, dir, dir_len) &&
	       (path[dir_len] == '\0' || path[dir_len] == '/');
}

const struct opd_ns_mount *opd_ns_table_find(const struct opd_ns_table *t,
					     const char *path)
{
	const struct opd_ns_mount *best = NULL;
	size_t i;

	for (i = 0; i < t->nr_mounts; i++) {
		const struct opd_ns_mount *m = &t->mounts[i];

		/* >=: of equal mount points the later one is on top */
		if (holds(m->point, m->point_len, path) &&
		    (!best || m->point_len >= best->point_len))
			best = m;
	}
	return best;
}

/* dir joined with rest ("" or "/..."), into sb */
static void join(struct op_strbuf *sb, const char *dir, const char *rest)
{
	op_strbuf_reset(sb);
	if (!is_root(dir))
		op_strbuf_addstr(sb, dir);
	op_strbuf_addstr(sb, rest);
	if (!sb->len)
		op_strbuf_addch(sb, '/');
	if (op_strbuf_failed(sb))
		op_die(1, "out of memory");
}

/* a layer (len bytes of super options) plus rel, to fn */
static int try_layer(const char *layer, size_t len, const char *rel,
		     const struct opd_ns_mount *m, struct op_strbuf *sb,
		     opd_ns_candidate_fn fn, void *data)
{
	char *dir = op_xstrndup(layer, len);
	size_t dir_len;
	int ret = 0;

	if (take_path(dir, &dir_len)) {
		join(sb, dir, is_root(rel) ? "" : rel);
		ret = fn(data, sb->buf, m, true);
	}
	free(dir);
	return ret;
}

/*
 * The layers of an overlay, from its super options: upperdir (where
 * changed files are) first, then each lowerdir from the top.  Data-only
 * layers ("::", datadir+) hold file data under other names: not tried.
 */
static int overlay_layers(const struct opd_ns_mount *m, const char *rel,
			  struct op_strbuf *sb, opd_ns_candidate_fn fn, void *data)
{
	int pass, ret = 0;

	for (pass = 0; pass < 2 && !ret; pass++) {
		const char *opt = m->super;

		while (*opt && !ret) {
			size_t len = strcspn(opt, ","), klen = 0;
			const char *v, *end = opt + len;

			if (pass == 0 && !strncmp(opt, "upperdir=", 9))
				ret = try_layer(opt + 9, len - 9, rel, m, sb, fn, data);
			else if (pass == 1 && !strncmp(opt, "lowerdir=", 9))
				klen = 9;
			else if (pass == 1 && !strncmp(opt, "lowerdir+=", 10))
				klen = 10;
			/* lowerdir=TOP:...:BOTTOM[::DATA...] */
			for (v = opt + klen; klen && v < end && !ret;) {
				size_t vlen = strcspn(v, ":,");

				if (vlen)
					ret = try_layer(v, vlen, rel, m, sb, fn, data);
				if (v[vlen] != ':' || v[vlen + 1] == ':')
					break;
				v += vlen + 1;
			}
			opt = *end ? end + 1 : end;
		}
	}
	return ret;
}

int opd_ns_candidates(const struct opd_ns_table *theirs,
		      const struct opd_ns_table *ours, const char *path,
		      opd_ns_candidate_fn fn, void *data)
{
	const struct opd_ns_mount *m = opd_ns_table_find(theirs, path);
	struct op_strbuf rel = OP_STRBUF_INIT, host = OP_STRBUF_INIT;
	int pass, ret = 0;
	size_t i;

	if (!m)
		return -ENOENT;
	/* the path within the filesystem: the mount's root, then the rest */
	join(&rel, m->root, path + (is_root(m->point) ? 0 : m->point_len));
	if (!strcmp(m->fstype, "overlay"))
		ret = overlay_layers(m, rel.buf, &host, fn, data);
	/* mounts of the filesystem's root first; the later (on top) first */
	for (pass = 0; pass < 2 && !ret; pass++) {
		for (i = ours->nr_mounts; i-- > 0 && !ret;) {
			const struct opd_ns_mount *o = &ours->mounts[i];

			if (o->maj != m->maj || o->min != m->min ||
			    is_root(o->root) != (pass == 0) ||
			    !holds(o->root, o->root_len, rel.buf))
				continue;
			join(&host, o->point,
			     rel.buf + (is_root(o->root) ? 0 : o->root_len));
			ret = fn(data, host.buf, m, false);
		}
	}
	op_strbuf_release(&rel);
	op_strbuf_release(&host);
	return ret;
}

/* --- the system: /proc and stat() ----------------------------------- */

/* /proc/PID/what, or /proc/self/what for pid 0 */
static void proc_path(char *buf, size_t size, uint32_t pid, const char *what)
{
	if (pid)
		snprintf(buf, size, "/proc/%u/%s", pid, what);
	else
		snprintf(buf, size, "/proc/self/%s", what);
}

static int real_mnt_ns(void *data, uint32_t pid, uint64_t *ns)
{
	char path[64], link[64];
	ssize_t n;

	(void)data;
	proc_path(path, sizeof(path), pid, "ns/mnt");
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	/* "mnt:[4026531841]" */
	if (n < 7 || strncmp(link, "mnt:[", 5) || link[n - 1] != ']')
		return -EINVAL;
	link[n - 1] = '\0';
	return op_parse_u64(link + 5, 10, UINT64_MAX, ns);
}

static int real_mountinfo(void *data, uint32_t pid, char **text)
{
	char path[64];
	size_t len;

	(void)data;
	proc_path(path, sizeof(path), pid, "mountinfo");
	return op_read_file(path, OPD_NS_MAX_MOUNTINFO, text, &len);
}

static int real_stat(void *data, const char *path, struct opd_ns_file *file)
{
	struct stat st;

	(void)data;
	if (stat(path, &st))
		return -errno;
	file->maj = major(st.st_dev);
	file->min = minor(st.st_dev);
	file->ino = st.st_ino;
	file->gen = 0;
	return 0;
}

static const struct opd_ns_sys real_sys = {
	.mnt_ns = real_mnt_ns,
	.mountinfo = real_mountinfo,
	.stat = real_stat,
};

/* --- the translator ------------------------------------------------- */

/* one answer: (file, path) -> the path here */
struct ns_entry {
	uint64_t hash;
	struct opd_ns_file file;
	char *path;		/* as the process saw it */
	char *host;		/* another path here; NULL: path as it is */
	int err;		/* none found: -ESRCH (ask a live one again), -ENOENT */
};

/* the mountinfo table of another namespace */
struct ns_slot {
	uint64_t ns;		/* its inode */
	uint64_t used;		/* opd_ns.clock at the last use; 0: empty */
	struct opd_ns_table table;
};

struct opd_ns {
	struct opd_ns_sys sys;
	struct ns_entry *entries;	/* OPD_NS_MAX_FILES, filled in turn */
	size_t nr_entries;
	size_t next;			/* the oldest, replaced next once full */
	struct op_hmap by_key;		/* hash -> entry */
	uint64_t self_ns;		/* our mount namespace's inode ... */
	bool self_ns_known;		/* ... once read */
	bool self_loaded;		/* self holds our mountinfo */
	struct opd_ns_table self;
	struct ns_slot slots[OPD_NS_MAX_TABLES];
	uint64_t clock;			/* ticks at each table use */
	struct op_strbuf found;		/* the path found by the last lookup */
	struct op_strbuf rec;		/* a fixed record (opd_ns_fix_records) */
	struct opd_ns_stats stats;
};

struct opd_ns *opd_ns_new(const struct opd_ns_sys *sys)
{
	struct opd_ns *ns = op_xcalloc(1, sizeof(*ns));
	uint64_t self;

	ns->sys = sys ? *sys : real_sys;
	op_hmap_init(&ns->by_key);
	op_strbuf_init(&ns->found);
	op_strbuf_init(&ns->rec);
	/* read once: the cheap test of "same namespace" compares with it */
	if (!ns->sys.mnt_ns(ns->sys.data, 0, &self)) {
		ns->self_ns = self;
		ns->self_ns_known = true;
	}
	return ns;
}

static void entry_clear(struct ns_entry *e)
{
	free(e->path);
	free(e->host);
	e->path = e->host = NULL;
}

void opd_ns_free(struct opd_ns *ns)
{
	size_t i;

	if (!ns)
		return;
	for (i = 0; i < ns->nr_entries; i++)
		entry_clear(&ns->entries[i]);
	free(ns->entries);
	op_hmap_release(&ns->by_key);
	opd_ns_table_release(&ns->self);
	for (i = 0; i < OPD_NS_MAX_TABLES; i++)
		opd_ns_table_release(&ns->slots[i].table);
	op_strbuf_release(&ns->found);
	op_strbuf_release(&ns->rec);
	free(ns);
}

static uint64_t key_hash(const struct opd_ns_file *f, const char *path)
{
	uint64_t h = op_hash_str(path);

	h = op_hash_combine(h, ((uint64_t)f->maj << 32) | f->min);
	h = op_hash_combine(h, f->ino);
	return op_hash_combine(h, f->gen);
}

static bool same_file(const struct opd_ns_file *a, const struct opd_ns_file *b)
{
	return a->maj == b->maj && a->min == b->min && a->ino == b->ino;
}

static struct ns_entry *cache_find(struct opd_ns *ns, uint64_t h,
				   const struct opd_ns_file *f, const char *path)
{
	struct op_hmap_iter it;
	struct ns_entry *e;

	for (e = op_hmap_first(&ns->by_key, h, &it); e;
	     e = op_hmap_next(&ns->by_key, h, &it))
		if (same_file(&e->file, f) && e->file.gen == f->gen &&
		    !strcmp(e->path, path))
			return e;
	return NULL;
}

/* the answer for (f, path): e updated, or a new entry (the oldest goes) */
static struct ns_entry *cache_put(struct opd_ns *ns, struct ns_entry *e,
				 uint64_t h, const struct opd_ns_file *f,
				 const char *path, const char *host, int err)
{
	if (!e) {
		if (!ns->entries)
			ns->entries = op_xcalloc(OPD_NS_MAX_FILES, sizeof(*e));
		if (ns->nr_entries < OPD_NS_MAX_FILES) {
			e = &ns->entries[ns->nr_entries++];
		} else {
			e = &ns->entries[ns->next];
			ns->next = (ns->next + 1) % OPD_NS_MAX_FILES;
			op_hmap_remove(&ns->by_key, e->hash, e);
			entry_clear(e);
			ns->stats.cache_dropped++;
		}
		e->hash = h;
		e->file = *f;
		e->path = op_xstrdup(path);
		if (op_hmap_insert(&ns->by_key, h, e))
			op_die(1, "out of memory");
	}
	free(e->host);
	e->host = host ? op_xstrdup(host) : NULL;
	e->err = err;
	return e;
}

/* read (again) our own mountinfo; true when it changed */
static bool load_self(struct opd_ns *ns)
{
	char *text;

	if (ns->sys.mountinfo(ns->sys.data, 0, &text))
		return false;
	ns->stats.tables_read++;
	if (ns->self_loaded && !strcmp(text, ns->self.text)) {
		free(text);
		return false;
	}
	opd_ns_table_release(&ns->self);
	opd_ns_table_parse(&ns->self, text);
	ns->self_loaded = true;
	return true;
}

static struct ns_slot *slot_find(struct opd_ns *ns, uint64_t their_ns)
{
	size_t i;

	for (i = 0; i < OPD_NS_MAX_TABLES; i++)
		if (ns->slots[i].used && ns->slots[i].ns == their_ns) {
			ns->slots[i].used = ++ns->clock;
			return &ns->slots[i];
		}
	return NULL;
}

/* pid's mountinfo, read now, kept as the table of namespace their_ns */
static struct ns_slot *slot_load(struct opd_ns *ns, uint32_t pid,
				 uint64_t their_ns)
{
	struct ns_slot *s = NULL;
	char *text;
	size_t i;

	if (ns->sys.mountinfo(ns->sys.data, pid, &text))
		return NULL;
	ns->stats.tables_read++;
	/* its old table, else an empty slot, else the least recently used */
	for (i = 0; i < OPD_NS_MAX_TABLES; i++) {
		struct ns_slot *c = &ns->slots[i];

		if (c->used && c->ns == their_ns) {
			s = c;
			break;
		}
		if (!s || (s->used && c->used < s->used))
			s = c;
	}
	opd_ns_table_release(&s->table);
	opd_ns_table_parse(&s->table, text);
	s->ns = their_ns;
	s->used = ++ns->clock;
	return s;
}

struct verify {
	struct opd_ns *ns;
	const struct opd_ns_file *file;
};

/*
 * Is host the mapped file?  The same device and inode; or, for a layer
 * of the overlay the process mapped it through, the same inode (the
 * overlay shows its files with its own device and, its layers being on
 * one filesystem, their inode numbers).
 */
static int verify(void *data, const char *host, const struct opd_ns_mount *m,
		  bool layer)
{
	struct verify *v = data;
	const struct opd_ns_file *f = v->file;
	struct opd_ns_file st;

	if (v->ns->sys.stat(v->ns->sys.data, host, &st) || st.ino != f->ino)
		return 0;
	if (!(st.maj == f->maj && st.min == f->min) &&
	    !(layer && m->maj == f->maj && m->min == f->min))
		return 0;
	op_strbuf_reset(&v->ns->found);
	op_strbuf_addstr(&v->ns->found, host);
	if (op_strbuf_failed(&v->ns->found))
		op_die(1, "out of memory");
	return 1;
}

static bool try_table(struct opd_ns *ns, const struct opd_ns_table *t,
		      const char *path, const struct opd_ns_file *f)
{
	struct verify v = { ns, f };

	return opd_ns_candidates(t, &ns->self, path, verify, &v) == 1;
}

/* every kept table, the most recently used first */
static bool try_all(struct opd_ns *ns, const char *path,
		    const struct opd_ns_file *f)
{
	bool tried[OPD_NS_MAX_TABLES] = { false };
	size_t n, i;

	for (n = 0; n < OPD_NS_MAX_TABLES; n++) {
		struct ns_slot *best = NULL;

		for (i = 0; i < OPD_NS_MAX_TABLES; i++)
			if (!tried[i] && ns->slots[i].used &&
			    (!best || ns->slots[i].used > best->used))
				best = &ns->slots[i];
		if (!best)
			return false;
		tried[best - ns->slots] = true;
		if (try_table(ns, &best->table, path, f)) {
			best->used = ++ns->clock;
			return true;
		}
	}
	return false;
}

/*
 * The path here of (f, path) mapped by pid, into ns->found.  A live
 * process's table (kept, else read now) is tried; a gone process's
 * namespace is unknown, so every kept table is.  When none gives the
 * file, our own mountinfo is read again in case mounts changed here.
 */
static int translate(struct opd_ns *ns, uint32_t pid, bool alive,
		     uint64_t their_ns, const char *path,
		     const struct opd_ns_file *f)
{
	struct ns_slot *s = NULL;
	bool ok;

	if (!ns->self_loaded)
		load_self(ns);
	if (alive) {
		s = slot_find(ns, their_ns);
		ok = s && try_table(ns, &s->table, path, f);
		if (!ok) {
			/* mounted since we read it, or never read */
			s = slot_load(ns, pid, their_ns);
			ok = s && try_table(ns, &s->table, path, f);
		}
		if (!ok && s && load_self(ns))
			ok = try_table(ns, &s->table, path, f);
	} else {
		ok = try_all(ns, path, f);
		if (!ok && load_self(ns))
			ok = try_all(ns, path, f);
	}
	if (ok)
		return 0;
	return alive ? -ENOENT : -ESRCH;
}

/* the answer of an entry, counted */
static int answer(struct opd_ns *ns, const struct ns_entry *e, const char *path,
		  const char **host)
{
	if (e->host) {
		ns->stats.foreign++;
		ns->stats.renamed++;
		*host = e->host;
		return 1;
	}
	*host = path;
	if (e->err) {
		ns->stats.foreign++;
		ns->stats.unresolved++;
	}
	return e->err;
}

int opd_ns_host_path(struct opd_ns *ns, uint32_t pid, const char *path,
		     const struct opd_ns_file *file, const char **host)
{
	uint64_t h = key_hash(file, path), their_ns = 0;
	struct ns_entry *e;
	struct opd_ns_file st;
	int gone, ret;

	*host = path;
	/* not a file: anonymous memory, as the engine names it */
	if (path[0] != '/' || path[1] == '/' || !file->ino ||
	    !strncmp(path, "/anon_hugepage", 14))
		return 0;
	e = cache_find(ns, h, file, path);
	if (e && e->err != -ESRCH)
		return answer(ns, e, path, host);
	/* pid 0 would be ourselves for sys: the kernel's idle task, gone */
	gone = pid && pid != UINT32_MAX ?
	       ns->sys.mnt_ns(ns->sys.data, pid, &their_ns) : -ESRCH;
	if (e && gone)
		return answer(ns, e, path, host);	/* still none to ask */
	if (!gone && ns->self_ns_known && their_ns == ns->self_ns) {
		e = cache_put(ns, e, h, file, path, NULL, 0);
		return answer(ns, e, path, host);
	}
	/* the same file here under the same path: a shared directory */
	if (!ns->sys.stat(ns->sys.data, path, &st) && same_file(&st, file)) {
		e = cache_put(ns, e, h, file, path, NULL, 0);
		return answer(ns, e, path, host);
	}
	ret = translate(ns, pid, !gone, their_ns, path, file);
	e = cache_put(ns, e, h, file, path, ret ? NULL : ns->found.buf, ret);
	return answer(ns, e, path, host);
}

int opd_ns_fix_record(struct opd_ns *ns, const void *data, size_t len,
		      uint64_t sample_type, struct op_strbuf *out)
{
	struct opd_record rec;
	struct opd_ns_file f;
	const char *host;
	int ret;

	if (opd_record_decode(data, len, sample_type, &rec) ||
	    rec.type != PERF_RECORD_MMAP2 ||
	    (rec.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) ||
	    !(rec.u.mmap.prot & PROT_EXEC) || rec.u.mmap.pid == UINT32_MAX)
		return 0;	/* no file identity, or a mapping the engine skips */
	f = (struct opd_ns_file){ .maj = rec.u.mmap.maj, .min = rec.u.mmap.min,
				  .ino = rec.u.mmap.ino,
				  .gen = rec.u.mmap.ino_generation };
	if (opd_ns_host_path(ns, rec.u.mmap.pid, rec.u.mmap.filename, &f, &host) != 1)
		return 0;
	ret = opd_record_mmap2_rename(data, len, host, out);
	if (ret == -ENOMEM)
		op_die(1, "out of memory");
	return ret == 0;
}

int opd_ns_fix_records(struct opd_ns *ns, const void *data, size_t len,
		       uint64_t sample_type, struct op_strbuf *out)
{
	const unsigned char *p = data, *end = p + len, *done = p;
	bool started = false;

	while ((size_t)(end - p) >= sizeof(struct perf_event_header)) {
		struct perf_event_header hdr;

		memcpy(&hdr, p, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size > (size_t)(end - p))
			break;	/* the engine counts it when it reads it */
		if (hdr.type == PERF_RECORD_MMAP2) {
			op_strbuf_reset(&ns->rec);
			if (opd_ns_fix_record(ns, p, hdr.size, sample_type, &ns->rec)) {
				if (!started)
					op_strbuf_reset(out);
				started = true;
				op_strbuf_add(out, done, (size_t)(p - done));
				op_strbuf_add(out, ns->rec.buf, ns->rec.len);
				done = p + hdr.size;
			}
		}
		p += hdr.size;
	}
	if (!started)
		return 0;
	op_strbuf_add(out, done, (size_t)(end - done));
	if (op_strbuf_failed(out))
		op_die(1, "out of memory");
	return 1;
}

const struct opd_ns_stats *opd_ns_stats(const struct opd_ns *ns)
{
	return &ns->stats;
}

size_t opd_ns_nr_cached(const struct opd_ns *ns)
{
	return ns->nr_entries;
}

size_t opd_ns_nr_tables(const struct opd_ns *ns)
{
	size_t i, n = 0;

	for (i = 0; i < OPD_NS_MAX_TABLES; i++)
		n += ns->slots[i].used != 0;
	return n;
}
