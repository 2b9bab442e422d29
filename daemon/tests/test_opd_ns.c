// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opd_ns: mountinfo lines parsed or refused (escapes, optional fields,
 * missing fields, long lines), the mount holding a path (longest prefix
 * by components, the top one of a stack), the candidate paths for a bind
 * mount of a file, of a directory, an overlay and escaped names; then the
 * translator on a fake system: the same namespace, a shared path, a
 * live process, one that is gone (the tables kept), a table gone stale,
 * candidates that are not the file, the bounds of both caches, and MMAP2
 * records rewritten with everything else kept.
 */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/opd_ns.h"
#include "daemon/opd_record.h"
#include "daemon/tests/opd_test_records.h"
#include "libutil/op_alloc.h"
#include "libutil/op_strbuf.h"

#define ST OPD_SAMPLE_TYPE

/* a root filesystem on 8:1 and /tmp on 0:40, as on the host */
#define HOST_ROOT "21 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
#define HOST_TMP "22 21 0:40 / /tmp rw shared:5 - tmpfs tmpfs rw\n"

/* --- parsing --------------------------------------------------------- */

struct parse_row {
	int line;
	const char *text;
	size_t nr_mounts, nr_bad;
	/* the last mount's fields, when nr_mounts */
	const char *root, *point, *fstype, *super;
	uint32_t maj, min;
};

static const struct parse_row parse_rows[] = {
	{ .line = __LINE__, .text = HOST_ROOT, .nr_mounts = 1,
	  .root = "/", .point = "/", .fstype = "ext4", .super = "rw", .maj = 8, .min = 1 },
	/* no optional fields; several optional fields */
	{ .line = __LINE__, .text = "36 35 98:0 /mnt1 /mnt2 rw,noatime - ext3 /dev/root rw,errors=continue\n",
	  .nr_mounts = 1, .root = "/mnt1", .point = "/mnt2", .fstype = "ext3",
	  .super = "rw,errors=continue", .maj = 98, .min = 0 },
	{ .line = __LINE__, .text = "36 35 98:0 /a /b rw shared:2 master:1 propagate_from:1 unbindable - ext3 /dev/root rw\n",
	  .nr_mounts = 1, .root = "/a", .point = "/b", .fstype = "ext3", .super = "rw", .maj = 98 },
	/* escapes: space, tab, newline, backslash; a lone backslash stays */
	{ .line = __LINE__, .text = "1 0 8:1 /my\\040dir /mnt/a\\011b\\012c\\134d rw - ext4 /dev/x rw\n",
	  .nr_mounts = 1, .root = "/my dir", .point = "/mnt/a\tb\nc\\d", .fstype = "ext4",
	  .super = "rw", .maj = 8, .min = 1 },
	{ .line = __LINE__, .text = "1 0 8:1 /x\\9 /y\\04 rw - ext4 /dev/x rw\n",
	  .nr_mounts = 1, .root = "/x\\9", .point = "/y\\04", .fstype = "ext4", .super = "rw", .maj = 8, .min = 1 },
	/* trailing slashes go (but root's), no final newline, no super options */
	{ .line = __LINE__, .text = "1 0 8:1 /a/// /b/ rw - ext4 /dev/x",
	  .nr_mounts = 1, .root = "/a", .point = "/b", .fstype = "ext4", .super = "", .maj = 8, .min = 1 },
	/* empty lines are nothing; bad lines are counted */
	{ .line = __LINE__, .text = "\n\n" HOST_ROOT "\n", .nr_mounts = 1,
	  .root = "/", .point = "/", .fstype = "ext4", .super = "rw", .maj = 8, .min = 1 },
	{ .line = __LINE__, .text = "1 0 8:1 / / rw ext4 /dev/x rw\n", .nr_bad = 1 },	/* no "-" */
	{ .line = __LINE__, .text = "1 0 8:1 / / rw - ext4\n", .nr_bad = 1 },	/* no source */
	{ .line = __LINE__, .text = "1 0 8:1 / / - ext4 /dev/x rw\n", .nr_bad = 1 },	/* no options */
	{ .line = __LINE__, .text = "1 0 8-1 / / rw - ext4 /dev/x rw\n", .nr_bad = 1 },
	{ .line = __LINE__, .text = "1 0 8: / / rw - ext4 /dev/x rw\n", .nr_bad = 1 },
	{ .line = __LINE__, .text = "1 0 8:1x / / rw - ext4 /dev/x rw\n", .nr_bad = 1 },
	{ .line = __LINE__, .text = "1 0 99999999999:1 / / rw - ext4 /dev/x rw\n", .nr_bad = 1 },
	{ .line = __LINE__, .text = "1 0 8:1 /a\\000b / rw - ext4 /dev/x rw\n", .nr_bad = 1 },
	{ .line = __LINE__, .text = "1 0 8:1 / rel rw - ext4 /dev/x rw\n", .nr_bad = 1 },
	/* an nsfs mount's root is not a path */
	{ .line = __LINE__, .text = "1 0 0:4 mnt:[4026531841] /run/ns rw - nsfs nsfs rw\n", .nr_bad = 1 },
	{ .line = __LINE__, .text = "garbage\n", .nr_bad = 1 },
	{ .line = __LINE__, .text = " \n", .nr_bad = 1 },
	/* good lines around bad ones all count */
	{ .line = __LINE__, .text = "x\n" HOST_ROOT "1 0 8:1\n" HOST_TMP, .nr_mounts = 2, .nr_bad = 2,
	  .root = "/", .point = "/tmp", .fstype = "tmpfs", .super = "rw", .maj = 0, .min = 40 },
};

static void test_parse(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(parse_rows) / sizeof(parse_rows[0]); i++) {
		const struct parse_row *r = &parse_rows[i];
		struct opd_ns_table t;
		const struct opd_ns_mount *m;

		opd_ns_table_parse(&t, op_xstrdup(r->text));
		if (t.nr_mounts != r->nr_mounts || t.nr_bad != r->nr_bad)
			fail_msg("row at line %d: %zu mounts, %zu bad", r->line,
				 t.nr_mounts, t.nr_bad);
		if (r->nr_mounts) {
			m = &t.mounts[t.nr_mounts - 1];
			if (strcmp(m->root, r->root) || strcmp(m->point, r->point) ||
			    strcmp(m->fstype, r->fstype) || strcmp(m->super, r->super) ||
			    m->maj != r->maj || m->min != r->min ||
			    m->root_len != strlen(r->root) || m->point_len != strlen(r->point))
				fail_msg("row at line %d: %u:%u '%s' '%s' '%s' '%s'", r->line,
					 m->maj, m->min, m->root, m->point, m->fstype, m->super);
		}
		opd_ns_table_release(&t);
		opd_ns_table_release(&t);	/* safe twice */
	}
}

/* lines of any length, and more fields than any mount has */
static void test_parse_long(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_ns_table t;
	size_t i;

	(void)state;
	op_strbuf_addstr(&sb, "1 0 8:1 / /");
	for (i = 0; i < 20000; i++)
		op_strbuf_addstr(&sb, "long/");
	op_strbuf_addstr(&sb, "end rw - ext4 /dev/x rw\n1 0 8:1 / / rw");
	for (i = 0; i < 100; i++)
		op_strbuf_addstr(&sb, " shared:1");
	op_strbuf_addstr(&sb, " - ext4 /dev/x rw\n" HOST_TMP);
	assert_false(op_strbuf_failed(&sb));
	opd_ns_table_parse(&t, op_strbuf_detach(&sb));
	assert_int_equal(t.nr_mounts, 2);
	assert_int_equal(t.nr_bad, 1);
	assert_int_equal(t.mounts[0].point_len, 1 + 20000 * 5 + 3);
	assert_string_equal(t.mounts[1].point, "/tmp");
	opd_ns_table_release(&t);
}

/* --- the mount of a path ---------------------------------------------- */

#define STACK "1 0 8:1 / / rw - ext4 a rw\n" \
	"2 1 8:2 / /usr rw - ext4 b rw\n" \
	"3 2 8:3 / /usr/local rw - ext4 c rw\n" \
	"4 1 8:4 / /usr/lo rw - ext4 d rw\n" \
	"5 3 8:5 / /usr/local rw - ext4 e rw\n" \
	"6 1 8:6 /f /etc/hosts rw - ext4 f rw\n"

struct find_row {
	int line;
	const char *text, *path;
	uint32_t min;		/* of the mount found; 0: none */
};

static const struct find_row find_rows[] = {
	{ .line = __LINE__, .text = STACK, .path = "/bin/sh", .min = 1 },
	{ .line = __LINE__, .text = STACK, .path = "/", .min = 1 },
	{ .line = __LINE__, .text = STACK, .path = "/usr", .min = 2 },
	{ .line = __LINE__, .text = STACK, .path = "/usr/bin/x", .min = 2 },
	/* by components: /usr/lo holds /usr/lo/x, not /usr/local or /usr/lox */
	{ .line = __LINE__, .text = STACK, .path = "/usr/lo/x", .min = 4 },
	{ .line = __LINE__, .text = STACK, .path = "/usr/lox", .min = 2 },
	/* two on /usr/local: the later is on top */
	{ .line = __LINE__, .text = STACK, .path = "/usr/local/bin/y", .min = 5 },
	{ .line = __LINE__, .text = STACK, .path = "/usr/local", .min = 5 },
	/* a file mounted on a file */
	{ .line = __LINE__, .text = STACK, .path = "/etc/hosts", .min = 6 },
	{ .line = __LINE__, .text = STACK, .path = "/etc/hosts.allow", .min = 1 },
	{ .line = __LINE__, .text = STACK, .path = "relative", .min = 0 },
	{ .line = __LINE__, .text = "2 1 8:2 / /usr rw - ext4 b rw\n", .path = "/bin/sh", .min = 0 },
	{ .line = __LINE__, .text = "", .path = "/bin/sh", .min = 0 },
};

static void test_find(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(find_rows) / sizeof(find_rows[0]); i++) {
		const struct find_row *r = &find_rows[i];
		const struct opd_ns_mount *m;
		struct opd_ns_table t;

		opd_ns_table_parse(&t, op_xstrdup(r->text));
		m = opd_ns_table_find(&t, r->path);
		if ((m ? m->min : 0) != r->min)
			fail_msg("row at line %d: mount %u:%u for '%s'", r->line,
				 m ? m->maj : 0, m ? m->min : 0, r->path);
		opd_ns_table_release(&t);
	}
}

/* --- candidates ------------------------------------------------------- */

struct cand_row {
	int line;
	const char *theirs, *ours, *path;
	const char *want;	/* the candidates, "|"-joined; "L:" marks layers */
	int ret;
};

/* a container's: its root an overlay, a bind-mounted file and directory */
#define CONT_ROOT "100 90 0:60 / / rw - overlay overlay rw,lowerdir=/var/lib/l1:/var/lib/l2,upperdir=/var/lib/up,workdir=/var/lib/w\n"

static const struct cand_row cand_rows[] = {
	/* unshare -m with a file bound over a file */
	{ .line = __LINE__,
	  .theirs = HOST_ROOT "40 21 8:1 /home/u/real/prog /usr/local/bin/probe rw - ext4 /dev/sda1 rw\n",
	  .ours = HOST_ROOT, .path = "/usr/local/bin/probe",
	  .want = "/home/u/real/prog" },
	/* ... on /tmp, another filesystem mounted here too */
	{ .line = __LINE__,
	  .theirs = HOST_ROOT HOST_TMP "40 21 0:40 /t/real/prog /opt/probe rw - tmpfs tmpfs rw\n",
	  .ours = HOST_ROOT HOST_TMP, .path = "/opt/probe", .want = "/tmp/t/real/prog" },
	/* a directory bound over another */
	{ .line = __LINE__,
	  .theirs = HOST_ROOT "40 21 8:1 /srv/app/bin /opt/app rw - ext4 /dev/sda1 rw\n",
	  .ours = HOST_ROOT, .path = "/opt/app/sub/prog", .want = "/srv/app/bin/sub/prog" },
	/* we see the filesystem only through a bind mount of part of it */
	{ .line = __LINE__,
	  .theirs = "1 0 8:5 / / rw - ext4 /dev/sdb rw\n",
	  .ours = HOST_ROOT "30 21 8:5 /vol /mnt/vol rw - ext4 /dev/sdb rw\n"
		  "31 21 8:5 /vol/app /app rw - ext4 /dev/sdb rw\n"
		  "32 21 8:5 /other /other rw - ext4 /dev/sdb rw\n",
	  .path = "/vol/app/bin/x", .want = "/app/bin/x|/mnt/vol/app/bin/x" },
	/* of the filesystem's root first, the later first */
	{ .line = __LINE__,
	  .theirs = "1 0 8:5 / / rw - ext4 /dev/sdb rw\n",
	  .ours = HOST_ROOT "30 21 8:5 /vol /mnt/vol rw - ext4 /dev/sdb rw\n"
		  "31 21 8:5 / /data rw - ext4 /dev/sdb rw\n"
		  "32 21 8:5 / /data2 rw - ext4 /dev/sdb rw\n",
	  .path = "/vol/x", .want = "/data2/vol/x|/data/vol/x|/mnt/vol/x" },
	/* the filesystem not mounted here: nothing */
	{ .line = __LINE__, .theirs = "1 0 8:9 / / rw - ext4 /dev/sdc rw\n",
	  .ours = HOST_ROOT, .path = "/bin/x", .want = "" },
	/* a container on an overlay: its layers, top first */
	{ .line = __LINE__, .theirs = CONT_ROOT, .ours = HOST_ROOT, .path = "/usr/bin/x",
	  .want = "L:/var/lib/up/usr/bin/x|L:/var/lib/l1/usr/bin/x|L:/var/lib/l2/usr/bin/x" },
	/* ... and its merged directory where we see it */
	{ .line = __LINE__, .theirs = CONT_ROOT,
	  .ours = HOST_ROOT "50 21 0:60 / /var/lib/merged rw - overlay overlay rw\n",
	  .path = "/usr/bin/x",
	  .want = "L:/var/lib/up/usr/bin/x|L:/var/lib/l1/usr/bin/x|L:/var/lib/l2/usr/bin/x|"
		  "/var/lib/merged/usr/bin/x" },
	/* data-only layers after "::" and relative layers are not tried */
	{ .line = __LINE__,
	  .theirs = "1 0 0:61 / / rw - overlay o rw,lowerdir=/l1:rel::/data,redirect_dir=on\n",
	  .ours = HOST_ROOT, .path = "/x", .want = "L:/l1/x" },
	{ .line = __LINE__,
	  .theirs = "1 0 0:61 / / rw - overlay o rw,lowerdir+=/l1,lowerdir+=/l2,datadir+=/d\n",
	  .ours = HOST_ROOT, .path = "/x", .want = "L:/l1/x|L:/l2/x" },
	/* escaped names: a space in the mount point and in a layer */
	{ .line = __LINE__,
	  .theirs = HOST_ROOT "40 21 8:1 /my\\040files /opt/my\\040app rw - ext4 /dev/sda1 rw\n",
	  .ours = HOST_ROOT, .path = "/opt/my app/prog", .want = "/my files/prog" },
	{ .line = __LINE__,
	  .theirs = "1 0 0:61 / / rw - overlay o rw,lowerdir=/my\\040l,upperdir=/u\\054p\n",
	  .ours = HOST_ROOT, .path = "/x", .want = "L:/u,p/x|L:/my l/x" },
	/* a mount in the container below the longest prefix is not used */
	{ .line = __LINE__,
	  .theirs = HOST_ROOT "40 21 0:40 / /opt rw - tmpfs t rw\n"
		    "41 40 8:1 /srv /opt/srv rw - ext4 /dev/sda1 rw\n",
	  .ours = HOST_ROOT HOST_TMP, .path = "/opt/srv/x", .want = "/srv/x" },
	{ .line = __LINE__,
	  .theirs = HOST_ROOT "40 21 0:40 /c / rw - tmpfs t rw\n",
	  .ours = HOST_ROOT HOST_TMP, .path = "/x", .want = "/tmp/c/x" },
	/* the mount point itself is the file asked for */
	{ .line = __LINE__,
	  .theirs = HOST_ROOT "40 21 8:1 / /mnt rw - ext4 /dev/sda1 rw\n",
	  .ours = HOST_ROOT, .path = "/mnt", .want = "/" },
	/* no mount holds the path */
	{ .line = __LINE__, .theirs = "1 0 8:1 / /usr rw - ext4 a rw\n", .ours = HOST_ROOT,
	  .path = "/bin/x", .want = "", .ret = -ENOENT },
	{ .line = __LINE__, .theirs = HOST_ROOT, .ours = HOST_ROOT, .path = "bin/x",
	  .want = "", .ret = -ENOENT },
};

static int collect(void *data, const char *host, const struct opd_ns_mount *m,
		   bool layer)
{
	struct op_strbuf *sb = data;

	(void)m;
	op_strbuf_addf(sb, "%s%s%s", sb->len ? "|" : "", layer ? "L:" : "", host);
	return 0;
}

static void test_candidates(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cand_rows) / sizeof(cand_rows[0]); i++) {
		const struct cand_row *r = &cand_rows[i];
		struct op_strbuf sb = OP_STRBUF_INIT;
		struct opd_ns_table theirs, ours;
		int ret;

		opd_ns_table_parse(&theirs, op_xstrdup(r->theirs));
		opd_ns_table_parse(&ours, op_xstrdup(r->ours));
		ret = opd_ns_candidates(&theirs, &ours, r->path, collect, &sb);
		if (ret != r->ret || strcmp(sb.buf, r->want))
			fail_msg("row at line %d: %d, '%s'", r->line, ret, sb.buf);
		op_strbuf_release(&sb);
		opd_ns_table_release(&theirs);
		opd_ns_table_release(&ours);
	}
}

/* the walk stops at the first non-zero answer, which is returned */
static int stop_at_second(void *data, const char *host,
			  const struct opd_ns_mount *m, bool layer)
{
	int *n = data;

	(void)host;
	(void)m;
	(void)layer;
	return ++*n == 2 ? 7 : 0;
}

static void test_candidates_stop(void **state)
{
	struct opd_ns_table theirs, ours;
	int n = 0;

	(void)state;
	opd_ns_table_parse(&theirs, op_xstrdup(CONT_ROOT));
	opd_ns_table_parse(&ours, op_xstrdup(HOST_ROOT));
	assert_int_equal(opd_ns_candidates(&theirs, &ours, "/x", stop_at_second, &n), 7);
	assert_int_equal(n, 2);
	opd_ns_table_release(&theirs);
	opd_ns_table_release(&ours);
}

/* --- the translator on a fake system ----------------------------------- */

#define SELF_NS 1000
#define MAX_FAKE 64

struct fake_file {
	char path[64];
	struct opd_ns_file id;
};

struct fake_proc {
	uint32_t pid;
	uint64_t ns;
	const char *mountinfo;
	bool gone;
};

struct fake {
	struct fake_file files[MAX_FAKE];
	size_t nr_files;
	struct fake_proc procs[MAX_FAKE];
	size_t nr_procs;
	const char *self_mountinfo;
	unsigned nr_mnt_ns, nr_mountinfo, nr_stat;
};

static void fake_file(struct fake *f, const char *path, uint32_t maj, uint32_t min,
		      uint64_t ino)
{
	struct fake_file *ff = &f->files[f->nr_files++];

	snprintf(ff->path, sizeof(ff->path), "%s", path);
	ff->id = (struct opd_ns_file){ .maj = maj, .min = min, .ino = ino };
}

static struct fake_proc *fake_proc(struct fake *f, uint32_t pid, uint64_t ns,
				   const char *mountinfo)
{
	struct fake_proc *p = &f->procs[f->nr_procs++];

	*p = (struct fake_proc){ .pid = pid, .ns = ns, .mountinfo = mountinfo };
	return p;
}

static struct fake_proc *find_proc(struct fake *f, uint32_t pid)
{
	size_t i;

	for (i = 0; i < f->nr_procs; i++)
		if (f->procs[i].pid == pid && !f->procs[i].gone)
			return &f->procs[i];
	return NULL;
}

static int fake_mnt_ns(void *data, uint32_t pid, uint64_t *ns)
{
	struct fake *f = data;
	struct fake_proc *p;

	f->nr_mnt_ns++;
	if (!pid) {
		*ns = SELF_NS;
		return 0;
	}
	p = find_proc(f, pid);
	if (!p)
		return -ENOENT;
	*ns = p->ns;
	return 0;
}

static int fake_mountinfo(void *data, uint32_t pid, char **text)
{
	struct fake *f = data;
	struct fake_proc *p = pid ? find_proc(f, pid) : NULL;

	f->nr_mountinfo++;
	if (pid && !p)
		return -ENOENT;
	*text = op_xstrdup(pid ? p->mountinfo : f->self_mountinfo);
	return 0;
}

static int fake_stat(void *data, const char *path, struct opd_ns_file *id)
{
	struct fake *f = data;
	size_t i;

	f->nr_stat++;
	for (i = f->nr_files; i-- > 0;)	/* the latest wins: files replaced */
		if (!strcmp(f->files[i].path, path)) {
			*id = f->files[i].id;
			return 0;
		}
	return -ENOENT;
}

static struct opd_ns *fake_ns(struct fake *f)
{
	struct opd_ns_sys sys = {
		.mnt_ns = fake_mnt_ns, .mountinfo = fake_mountinfo,
		.stat = fake_stat, .data = f,
	};

	return opd_ns_new(&sys);
}

/* the container of pid 100: /usr/local/bin/probe is /home/u/real/prog */
#define BIND_FILE HOST_ROOT "40 21 8:1 /home/u/real/prog /usr/local/bin/probe rw - ext4 /dev/sda1 rw\n"
#define BIND_DIR HOST_ROOT "41 21 8:1 /srv/app /opt/app rw - ext4 /dev/sda1 rw\n"

/* the host: the real files, and a different one where the container's path is */
static void host_files(struct fake *f)
{
	f->self_mountinfo = HOST_ROOT HOST_TMP;
	fake_file(f, "/home/u/real/prog", 8, 1, 500);
	fake_file(f, "/usr/local/bin/probe", 8, 1, 77);
	fake_file(f, "/srv/app/prog2", 8, 1, 600);
	fake_file(f, "/lib/libc.so.6", 8, 1, 20);
}

struct lookup_row {
	int line;
	uint32_t pid;
	const char *path;
	uint64_t ino;
	int ret;
	const char *host;
};

static const struct lookup_row lookup_rows[] = {
	/* our own namespace: as it is, whatever stat says */
	{ .line = __LINE__, .pid = 1, .path = "/usr/local/bin/probe", .ino = 502, .ret = 0,
	  .host = "/usr/local/bin/probe" },
	/* a shared path: the same file here */
	{ .line = __LINE__, .pid = 100, .path = "/lib/libc.so.6", .ino = 20, .ret = 0,
	  .host = "/lib/libc.so.6" },
	/* a file bound over another */
	{ .line = __LINE__, .pid = 100, .path = "/usr/local/bin/probe", .ino = 500, .ret = 1,
	  .host = "/home/u/real/prog" },
	/* a directory */
	{ .line = __LINE__, .pid = 101, .path = "/opt/app/prog2", .ino = 600, .ret = 1,
	  .host = "/srv/app/prog2" },
	/* a candidate that is another file */
	{ .line = __LINE__, .pid = 100, .path = "/usr/local/bin/probe", .ino = 501, .ret = -ENOENT,
	  .host = "/usr/local/bin/probe" },
	/* no process to ask, and the path no file here */
	{ .line = __LINE__, .pid = 0, .path = "/x", .ino = 1, .ret = -ESRCH, .host = "/x" },
	{ .line = __LINE__, .pid = UINT32_MAX, .path = "/x", .ino = 1, .ret = -ESRCH, .host = "/x" },
	/* not a path */
	{ .line = __LINE__, .pid = 100, .path = "//anon", .ino = 0, .ret = 0, .host = "//anon" },
	{ .line = __LINE__, .pid = 100, .path = "[vdso]", .ino = 0, .ret = 0, .host = "[vdso]" },
};

static void test_lookup(void **state)
{
	struct fake f = { 0 };
	struct opd_ns *ns;
	size_t i;
	int pass;

	(void)state;
	host_files(&f);
	fake_proc(&f, 1, SELF_NS, HOST_ROOT);
	fake_proc(&f, 100, 2000, BIND_FILE);
	fake_proc(&f, 101, 2001, BIND_DIR);
	ns = fake_ns(&f);
	/* twice: the second time from the cache, without asking the system */
	for (pass = 0; pass < 2; pass++) {
		unsigned asked = f.nr_mnt_ns + f.nr_mountinfo + f.nr_stat;

		for (i = 0; i < sizeof(lookup_rows) / sizeof(lookup_rows[0]); i++) {
			const struct lookup_row *r = &lookup_rows[i];
			struct opd_ns_file id = { .maj = 8, .min = 1, .ino = r->ino };
			const char *host;
			int ret = opd_ns_host_path(ns, r->pid, r->path, &id, &host);

			if (ret != r->ret || strcmp(host, r->host))
				fail_msg("row at line %d, pass %d: %d '%s'", r->line, pass,
					 ret, host);
		}
		/* -ESRCH answers ask again whether the process lives: 2 rows */
		if (pass == 1 && f.nr_mnt_ns + f.nr_mountinfo + f.nr_stat != asked + 0)
			fail_msg("the second pass asked the system %u times",
				 f.nr_mnt_ns + f.nr_mountinfo + f.nr_stat - asked);
	}
	assert_int_equal(opd_ns_stats(ns)->renamed, 4);
	assert_int_equal(opd_ns_stats(ns)->unresolved, 6);
	assert_int_equal(opd_ns_stats(ns)->foreign, 10);
	opd_ns_free(ns);
}

/* a process gone before its record is read: the tables seen before */
static void test_gone(void **state)
{
	struct opd_ns_file prog = { .maj = 8, .min = 1, .ino = 500 };
	struct opd_ns_file prog2 = { .maj = 8, .min = 1, .ino = 600 };
	struct fake f = { 0 };
	struct opd_ns *ns;
	const char *host;

	(void)state;
	host_files(&f);
	fake_proc(&f, 100, 2000, BIND_FILE)->gone = true;
	ns = fake_ns(&f);
	/* nothing kept yet: the path as it is, asked again later */
	assert_int_equal(opd_ns_host_path(ns, 100, "/usr/local/bin/probe", &prog, &host),
			 -ESRCH);
	assert_string_equal(host, "/usr/local/bin/probe");
	/* a live process of the same container: its table is read and kept */
	fake_proc(&f, 200, 2000, BIND_FILE);
	assert_int_equal(opd_ns_host_path(ns, 200, "/usr/local/bin/probe", &prog, &host), 1);
	assert_string_equal(host, "/home/u/real/prog");
	assert_int_equal(opd_ns_nr_tables(ns), 1);
	/* the gone one's answer was kept as "none yet": now cached */
	assert_int_equal(opd_ns_host_path(ns, 100, "/usr/local/bin/probe", &prog, &host), 1);
	assert_string_equal(host, "/home/u/real/prog");
	/*
	 * another gone process, of another namespace never read: every kept
	 * table is tried, and only the file itself is accepted
	 */
	fake_proc(&f, 300, 3000, BIND_DIR)->gone = true;
	assert_int_equal(opd_ns_host_path(ns, 300, "/opt/app/prog2", &prog2, &host), -ESRCH);
	fake_proc(&f, 301, 3000, BIND_DIR);
	assert_int_equal(opd_ns_host_path(ns, 301, "/opt/app/prog2", &prog2, &host), 1);
	f.procs[f.nr_procs - 1].gone = true;
	/* a new file of that namespace, its process gone: found in its table */
	fake_file(&f, "/srv/app/prog3", 8, 1, 601);
	{
		struct opd_ns_file prog3 = { .maj = 8, .min = 1, .ino = 601 };

		assert_int_equal(opd_ns_host_path(ns, 302, "/opt/app/prog3", &prog3, &host), 1);
		assert_string_equal(host, "/srv/app/prog3");
	}
	assert_int_equal(opd_ns_nr_tables(ns), 2);
	opd_ns_free(ns);
}

/* mounted after the namespace's table was read: read again */
static void test_stale_table(void **state)
{
	struct opd_ns_file prog = { .maj = 8, .min = 1, .ino = 500 };
	struct opd_ns_file other = { .maj = 0, .min = 40, .ino = 900 };
	struct fake f = { 0 };
	struct fake_proc *p;
	struct opd_ns *ns;
	const char *host;

	(void)state;
	host_files(&f);
	fake_file(&f, "/tmp/other", 0, 40, 900);
	p = fake_proc(&f, 100, 2000, HOST_ROOT "40 21 0:40 / /data rw - tmpfs t rw\n");
	ns = fake_ns(&f);
	assert_int_equal(opd_ns_host_path(ns, 100, "/data/other", &other, &host), 1);
	assert_string_equal(host, "/tmp/other");
	/* the bind mount happens now (unshare -m sh -c 'mount --bind ...; exec') */
	p->mountinfo = BIND_FILE;
	assert_int_equal(opd_ns_host_path(ns, 100, "/usr/local/bin/probe", &prog, &host), 1);
	assert_string_equal(host, "/home/u/real/prog");
	opd_ns_free(ns);
}

/* mounted here after we read our table: read again */
static void test_stale_self(void **state)
{
	struct opd_ns_file f9 = { .maj = 8, .min = 9, .ino = 5 };
	struct fake f = { 0 };
	struct opd_ns *ns;
	const char *host;

	(void)state;
	host_files(&f);
	fake_file(&f, "/mnt/disk/x", 8, 9, 5);
	fake_proc(&f, 100, 2000, "1 0 8:9 / / rw - ext4 /dev/sdc rw\n");
	ns = fake_ns(&f);
	assert_int_equal(opd_ns_host_path(ns, 100, "/y", &f9, &host), -ENOENT);
	f.self_mountinfo = HOST_ROOT "60 21 8:9 / /mnt/disk rw - ext4 /dev/sdc rw\n";
	assert_int_equal(opd_ns_host_path(ns, 100, "/x", &f9, &host), 1);
	assert_string_equal(host, "/mnt/disk/x");
	opd_ns_free(ns);
}

/* an overlay: a layer is the file when it has the inode under the overlay's device */
static void test_overlay(void **state)
{
	struct opd_ns_file x = { .maj = 0, .min = 60, .ino = 321 };
	struct fake f = { 0 };
	struct opd_ns *ns;
	const char *host;

	(void)state;
	f.self_mountinfo = HOST_ROOT;
	fake_file(&f, "/var/lib/up/usr/bin/x", 8, 1, 999);	/* another file */
	fake_file(&f, "/var/lib/l2/usr/bin/x", 8, 1, 321);
	fake_file(&f, "/var/lib/l2/usr/bin/y", 8, 1, 322);
	fake_proc(&f, 100, 2000, CONT_ROOT);
	ns = fake_ns(&f);
	assert_int_equal(opd_ns_host_path(ns, 100, "/usr/bin/x", &x, &host), 1);
	assert_string_equal(host, "/var/lib/l2/usr/bin/x");
	/* the same inode number on another device is not the file */
	x.min = 61;
	assert_int_equal(opd_ns_host_path(ns, 100, "/usr/bin/x", &x, &host), -ENOENT);
	opd_ns_free(ns);
}

/* both caches stay bounded */
static void test_bounds(void **state)
{
	struct fake f = { 0 };
	struct opd_ns *ns;
	const char *host;
	uint64_t i;

	(void)state;
	host_files(&f);
	fake_proc(&f, 1, SELF_NS, HOST_ROOT);
	ns = fake_ns(&f);
	for (i = 0; i < OPD_NS_MAX_FILES + 1000; i++) {
		struct opd_ns_file id = { .maj = 8, .min = 1, .ino = 10000 + i };
		char path[64];

		snprintf(path, sizeof(path), "/usr/lib/lib%llu.so", (unsigned long long)i);
		assert_int_equal(opd_ns_host_path(ns, 1, path, &id, &host), 0);
		assert_string_equal(host, path);
		assert_true(opd_ns_nr_cached(ns) <= OPD_NS_MAX_FILES);
	}
	assert_int_equal(opd_ns_nr_cached(ns), OPD_NS_MAX_FILES);
	assert_int_equal(opd_ns_stats(ns)->cache_dropped, 1000);
	/* the newest are still cached, the oldest asked again */
	{
		struct opd_ns_file id = { .maj = 8, .min = 1, .ino = 10000 + i - 1 };
		unsigned asked = f.nr_mnt_ns;
		char path[64];

		snprintf(path, sizeof(path), "/usr/lib/lib%llu.so", (unsigned long long)i - 1);
		assert_int_equal(opd_ns_host_path(ns, 1, path, &id, &host), 0);
		assert_int_equal(f.nr_mnt_ns, asked);
		id.ino = 10000;
		assert_int_equal(opd_ns_host_path(ns, 1, "/usr/lib/lib0.so", &id, &host), 0);
		assert_int_equal(f.nr_mnt_ns, asked + 1);
	}
	/* more namespaces than tables kept */
	for (i = 0; i < OPD_NS_MAX_TABLES + 10; i++) {
		struct opd_ns_file id = { .maj = 8, .min = 1, .ino = 7000 + i };
		char path[64], want[64];

		snprintf(want, sizeof(want), "/srv/app/f%llu", (unsigned long long)i);
		snprintf(path, sizeof(path), "/opt/app/f%llu", (unsigned long long)i);
		fake_file(&f, want, 8, 1, 7000 + i);
		fake_proc(&f, (uint32_t)(1000 + i), 5000 + i, BIND_DIR);
		assert_int_equal(opd_ns_host_path(ns, (uint32_t)(1000 + i), path, &id, &host), 1);
		assert_string_equal(host, want);
		assert_true(opd_ns_nr_tables(ns) <= OPD_NS_MAX_TABLES);
		f.nr_procs--;	/* gone: room in the fake */
	}
	assert_int_equal(opd_ns_nr_tables(ns), OPD_NS_MAX_TABLES);
	opd_ns_free(ns);
	opd_ns_free(NULL);
}

/* --- records ---------------------------------------------------------- */

static void test_records(void **state)
{
	struct op_strbuf in = OP_STRBUF_INIT, out = OP_STRBUF_INIT, one = OP_STRBUF_INIT;
	const unsigned char *p;
	struct fake f = { 0 };
	struct opd_record r;
	struct opd_ns *ns;
	size_t off, n;

	(void)state;
	host_files(&f);
	fake_proc(&f, 100, 2000, BIND_FILE);
	ns = fake_ns(&f);
	/* nothing to fix: not used */
	rec_comm(&in, 100, 100, "probe", 1, 10);
	rec_mmap2(&in, 100, 0x7f0000000000ull, 0x1000, 0, 20, "/lib/libc.so.6", 11);
	assert_int_equal(opd_ns_fix_records(ns, in.buf, in.len, ST, &out), 0);
	/* a file bound over another: renamed; the rest as it was */
	rec_mmap2(&in, 100, 0x400000, 0x2000, 0x1000, 500, "/usr/local/bin/probe", 12);
	rec_sample(&in, 7, 100, 100, 0, PERF_RECORD_MISC_USER, 0x400100, 13, NULL, 0);
	assert_int_equal(opd_ns_fix_records(ns, in.buf, in.len, ST, &out), 1);
	{
		static const uint32_t types[] = { PERF_RECORD_COMM, PERF_RECORD_MMAP2,
						  PERF_RECORD_MMAP2, PERF_RECORD_SAMPLE };
		struct perf_event_header h;

		for (off = 0, n = 0; off < out.len; off += h.size, n++) {
			p = (const unsigned char *)out.buf + off;
			memcpy(&h, p, sizeof(h));
			assert_true(n < 4);
			assert_int_equal(opd_record_decode(p, h.size, ST, &r), 0);
			assert_int_equal(r.type, types[n]);
			if (n == 1)
				assert_string_equal(r.u.mmap.filename, "/lib/libc.so.6");
			if (n == 2) {
				assert_string_equal(r.u.mmap.filename, "/home/u/real/prog");
				assert_int_equal(r.u.mmap.pid, 100);
				assert_int_equal(r.u.mmap.start, 0x400000);
				assert_int_equal(r.u.mmap.len, 0x2000);
				assert_int_equal(r.u.mmap.pgoff, 0x1000);
				assert_int_equal(r.u.mmap.ino, 500);
				assert_int_equal(r.time, 12);
				assert_int_equal(r.pid, 100);
			}
			if (n == 3)
				assert_int_equal(r.u.sample.ip, 0x400100);
		}
		assert_int_equal(n, 4);
	}
	/* a non-executable mapping is the engine's to skip: left alone */
	op_strbuf_reset(&in);
	rec_mmap2(&in, 100, 0x400000, 0x2000, 0, 500, "/usr/local/bin/probe", 12);
	((unsigned char *)in.buf)[8 + 56] = 1;	/* prot = PROT_READ */
	assert_int_equal(opd_ns_fix_record(ns, in.buf, in.len, ST, &one), 0);
	assert_int_equal(one.len, 0);
	/* a torn buffer: what splits is fixed, the rest passed on */
	op_strbuf_reset(&in);
	rec_mmap2(&in, 100, 0x400000, 0x2000, 0, 500, "/usr/local/bin/probe", 12);
	op_strbuf_add(&in, "\x08\x00\x00\x00\x00\x00\xff\x7f", 8);
	assert_int_equal(opd_ns_fix_records(ns, in.buf, in.len, ST, &out), 1);
	assert_memory_equal(out.buf + out.len - 8, "\x08\x00\x00\x00\x00\x00\xff\x7f", 8);
	op_strbuf_release(&in);
	op_strbuf_release(&out);
	op_strbuf_release(&one);
	opd_ns_free(ns);
}

struct rename_row {
	int line;
	const char *name;
	size_t cut;		/* bytes cut from the record's end */
	int ret;
};

static void test_rename(void **state)
{
	static char longname[70000];
	const struct rename_row rows[] = {
		{ .line = __LINE__, .name = "/a", .ret = 0 },
		{ .line = __LINE__, .name = "/123456", .ret = 0 },	/* 7 + NUL: 8 */
		{ .line = __LINE__, .name = "/1234567", .ret = 0 },	/* 8 + NUL: 16 */
		{ .line = __LINE__, .name = "/a/much/longer/name/than/before", .ret = 0 },
		{ .line = __LINE__, .name = "", .ret = 0 },
		{ .line = __LINE__, .name = longname, .ret = -ENAMETOOLONG },
		/* 72 bytes of fields, "/old/name" 16 with its padding, a trailer of 32 */
		{ .line = __LINE__, .name = "/a", .cut = 38, .ret = -EINVAL },	/* padding cut */
		{ .line = __LINE__, .name = "/a", .cut = 40, .ret = -EINVAL },	/* no NUL */
		{ .line = __LINE__, .name = "/a", .cut = 42, .ret = -EINVAL },	/* no name */
	};
	size_t i;

	(void)state;
	memset(longname, 'x', sizeof(longname) - 1);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_strbuf in = OP_STRBUF_INIT, out = OP_STRBUF_INIT;
		struct opd_record r;
		int ret;

		rec_mmap2(&in, 5, 0x1000, 0x2000, 0x3000, 44, "/old/name", 99);
		if (rows[i].cut) {
			struct perf_event_header h;

			memcpy(&h, in.buf, sizeof(h));
			h.size = (uint16_t)(h.size - rows[i].cut);
			memcpy(in.buf, &h, sizeof(h));
			op_strbuf_setlen(&in, h.size);
		}
		ret = opd_record_mmap2_rename(in.buf, in.len, rows[i].name, &out);
		if (ret != rows[i].ret)
			fail_msg("row at line %d: %d", rows[i].line, ret);
		if (!ret) {
			assert_int_equal(out.len % 8, 0);
			assert_int_equal(opd_record_decode(out.buf, out.len, ST, &r), 0);
			assert_string_equal(r.u.mmap.filename, rows[i].name);
			assert_int_equal(r.u.mmap.ino, 44);
			assert_int_equal(r.u.mmap.pgoff, 0x3000);
			assert_int_equal(r.time, 99);
		} else {
			assert_int_equal(out.len, 0);
		}
		op_strbuf_release(&in);
		op_strbuf_release(&out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_long),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_candidates_stop),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_gone),
		cmocka_unit_test(test_stale_table),
		cmocka_unit_test(test_stale_self),
		cmocka_unit_test(test_overlay),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_rename),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
