// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oparchive's copy (oparchive.h): each file of the plan written below the
 * archive directory as DST.tmp, renamed over DST once whole.  Nothing
 * below the archive is reached through a symbolic link (op_dir.h), nor
 * anything in the session.  A progress line on a terminal.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "pp/oparchive.h"

#define CHUNK_SIZE ((size_t)1 << 20)
#define PROGRESS_NS 100000000L		/* redraw at most ten times a second */
#define MIB (1024.0 * 1024.0)

/* the signal that asked us to stop, 0 while none did */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NR_STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

static void catch_signals(struct sigaction *old)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_STOP_SIGNALS; i++) {
		sigaction(stop_signals[i], &sa, &old[i]);
		/* one ignored when we started (nohup, a background job) stays so */
		if (old[i].sa_handler == SIG_IGN)
			sigaction(stop_signals[i], &old[i], NULL);
	}
}

static void restore_signals(const struct sigaction *old)
{
	size_t i;

	for (i = 0; i < NR_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &old[i], NULL);
}

struct progress {
	bool on;
	size_t done, nr;
	uint64_t bytes, total;
	struct timespec last;
	bool drawn;
};

static void progress_draw(struct progress *p, bool force)
{
	struct timespec now;

	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!force && p->drawn &&
	    (now.tv_sec - p->last.tv_sec) * 1000000000L + (now.tv_nsec - p->last.tv_nsec) <
		    PROGRESS_NS)
		return;
	p->last = now;
	p->drawn = true;
	fprintf(stderr, "\rarchiving: %zu/%zu files, %.1f/%.1f MiB", p->done, p->nr,
		(double)p->bytes / MIB, (double)p->total / MIB);
	fflush(stderr);
}

/* end the progress line, so that what follows starts on its own */
static void progress_end(struct progress *p)
{
	if (p->on && p->drawn) {
		progress_draw(p, true);
		fputc('\n', stderr);
		p->drawn = false;
	}
}

/* open the item's source for reading: an fd, or a negative errno */
static int open_source(const struct oa_item *it, struct stat *st)
{
	struct op_dir dir = OP_DIR_INIT;
	int fd, ret;

	if (it->safe_len) {
		char *base = op_xstrndup(it->src, it->safe_len);

		ret = op_dir_open_path(&dir, base);
		free(base);
		fd = ret ? ret : op_dir_open_file(&dir, it->src + it->safe_len + 1, O_RDONLY, 0);
		op_dir_close(&dir);
	} else {
		fd = open(it->src, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0)
		return fd;
	if (fstat(fd, st))
		ret = -errno;
	else if (!S_ISREG(st->st_mode))
		ret = -EINVAL;
	else
		return fd;
	close(fd);
	return ret;
}

/* how copying one file went */
enum copy_result {
	COPY_OK,
	COPY_READ_FAILED,	/* the source: named, the rest goes on */
	COPY_WRITE_FAILED,	/* the archive: named, the copy stops */
	COPY_STOPPED,		/* a signal */
};

/* copy from in to out, both open; -errno of a read (read_err) or write */
static enum copy_result copy_data(int in, int out, struct progress *p, char *buf,
				  int *err)
{
	size_t got;

	for (;;) {
		if (stop_signal)
			return COPY_STOPPED;
		*err = op_read_all(in, buf, CHUNK_SIZE, &got);
		if (*err)
			return COPY_READ_FAILED;
		if (!got)
			return COPY_OK;
		*err = op_write_all(out, buf, got);
		if (*err)
			return COPY_WRITE_FAILED;
		p->bytes += got;
		progress_draw(p, false);
	}
}

static enum copy_result copy_item(const struct op_dir *arch, const struct oa_item *it,
				  struct progress *p, char *buf)
{
	struct op_strbuf tmp = OP_STRBUF_INIT;
	enum copy_result res;
	struct stat st;
	int in, out, err;

	in = open_source(it, &st);
	if (in < 0) {
		progress_end(p);
		op_error_errno(-in, "cannot read '%s'", it->src);
		return COPY_READ_FAILED;
	}
	op_strbuf_addf(&tmp, "%s.tmp", it->dst);
	if (op_strbuf_failed(&tmp))
		op_die(1, "out of memory");
	err = op_dir_mkparents(arch, it->dst, 0777);
	out = err ? err : op_dir_open_file(arch, tmp.buf, O_WRONLY | O_CREAT | O_TRUNC,
					   st.st_mode & 0777);
	if (out < 0) {
		progress_end(p);
		op_error_errno(-out, "cannot write '%s/%s'", arch->path, tmp.buf);
		res = COPY_WRITE_FAILED;
		goto out_close_in;
	}
	res = copy_data(in, out, p, buf, &err);
	if (close(out) && res == COPY_OK) {
		err = -errno;
		res = COPY_WRITE_FAILED;
	}
	if (res == COPY_OK && (err = op_dir_rename(arch, tmp.buf, it->dst)))
		res = COPY_WRITE_FAILED;
	if (res != COPY_OK) {
		op_dir_unlink(arch, tmp.buf);
		progress_end(p);
	}
	if (res == COPY_READ_FAILED)
		op_error_errno(-err, "cannot read '%s'", it->src);
	else if (res == COPY_WRITE_FAILED)
		op_error_errno(-err, "cannot write '%s/%s'", arch->path, it->dst);
out_close_in:
	close(in);
	op_strbuf_release(&tmp);
	return res;
}

static int open_archive(struct op_dir *arch, const char *out)
{
	int ret = op_mkdir_p(out, 0777);

	if (!ret)
		ret = op_dir_open_path(arch, out);
	if (ret) {
		op_error_errno(-ret, "cannot make the archive directory '%s'", out);
		return 1;
	}
	return 0;
}

int oa_copy(const struct oa_plan *plan, const char *out, bool show_progress)
{
	struct progress p = { show_progress, 0, plan->nr, 0, plan->total, { 0, 0 }, false };
	struct sigaction old[NR_STOP_SIGNALS];
	struct op_dir arch = OP_DIR_INIT;
	enum copy_result res = COPY_OK;
	int status = 0;
	char *buf;
	size_t i;

	if (open_archive(&arch, out))
		return 1;
	buf = op_xmalloc(CHUNK_SIZE);
	stop_signal = 0;
	catch_signals(old);
	for (i = 0; i < plan->nr; i++) {
		res = copy_item(&arch, &plan->v[i], &p, buf);
		if (res == COPY_READ_FAILED)
			status = 1;
		else if (res != COPY_OK)
			break;
		p.done++;
		progress_draw(&p, false);
	}
	progress_end(&p);
	restore_signals(old);
	if (res == COPY_STOPPED)
		op_error("stopped by signal %d: %zu of %zu files archived, the one "
			 "being copied removed", (int)stop_signal, i, plan->nr);
	else if (res == COPY_WRITE_FAILED)
		op_error("%zu of %zu files archived; the archive is incomplete", i, plan->nr);
	free(buf);
	op_dir_close(&arch);
	return res == COPY_OK ? status : 1;
}
