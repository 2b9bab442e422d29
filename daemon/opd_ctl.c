// SPDX-License-Identifier: GPL-2.0-or-later
/* The control socket of oprofiled (opd_ctl.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/opd_ctl.h"
#include "libutil/op_file.h"

#define REQUEST_MS 1000

/* the socket's name reached through the held directory */
static int socket_addr(const struct op_dir *dir, struct sockaddr_un *sa)
{
	int n;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	n = snprintf(sa->sun_path, sizeof(sa->sun_path), "/proc/self/fd/%d/%s",
		     dir->fd, OPD_CTL_SOCKET);
	return n < 0 || (size_t)n >= sizeof(sa->sun_path) ? -ENAMETOOLONG : 0;
}

void opd_ctl_unlink(const struct op_dir *dir)
{
	struct stat st;

	if (!fstatat(dir->fd, OPD_CTL_SOCKET, &st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISSOCK(st.st_mode))
		unlinkat(dir->fd, OPD_CTL_SOCKET, 0);
}

int opd_ctl_listen(const struct op_dir *dir)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd, ret;

	ret = socket_addr(dir, &sa);
	if (ret)
		return ret;
	if (!fstatat(dir->fd, OPD_CTL_SOCKET, &st, AT_SYMLINK_NOFOLLOW)) {
		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		/* a dead daemon's: we hold the session lock, so nobody uses it */
		if (unlinkat(dir->fd, OPD_CTL_SOCKET, 0))
			return -errno;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 16)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	/*
	 * its owner's only whatever the umask; if that fails, the check of
	 * each caller's credentials still holds
	 */
	(void)fchmodat(dir->fd, OPD_CTL_SOCKET, 0600, 0);
	return fd;
}

bool opd_ctl_allowed(uid_t uid, uid_t owner)
{
	return uid == 0 || uid == owner;
}

/* wait up to ms for fd to have events; 0, -ETIMEDOUT or -errno */
static int wait_fd(int fd, short events, int ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;

	do
		n = poll(&p, 1, ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n ? 0 : -ETIMEDOUT;
}

/* one line of at most size - 1 bytes from fd, within REQUEST_MS */
static int read_request(int fd, char *req, size_t size)
{
	size_t got = 0;

	for (;;) {
		ssize_t n;
		char *nl;
		int ret = wait_fd(fd, POLLIN, REQUEST_MS);

		if (ret)
			return ret;
		n = read(fd, req + got, size - 1 - got);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -errno;
		got += (size_t)n;
		req[got] = '\0';
		nl = memchr(req, '\n', got);
		if (nl) {
			*nl = '\0';
			return 0;
		}
		if (!n)
			return got ? 0 : -ECONNRESET;
		if (got == size - 1)
			return -EMSGSIZE;
	}
}

int opd_ctl_accept(int lfd, int *fd, uid_t *uid, char *req, size_t size)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int cfd, ret;

	cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (cfd < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
		ret = -errno;
		close(cfd);
		return ret;
	}
	ret = read_request(cfd, req, size);
	if (ret) {
		close(cfd);
		return ret;
	}
	*fd = cfd;
	*uid = cred.uid;
	return 0;
}

int opd_ctl_reply(int fd, const char *text, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			int ret = wait_fd(fd, POLLOUT, 5000);

			if (ret)
				return ret;
			continue;
		}
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	return 0;
}

int opd_ctl_connect(const struct op_dir *dir)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd, ret;

	ret = socket_addr(dir, &sa);
	if (ret)
		return ret;
	if (fstatat(dir->fd, OPD_CTL_SOCKET, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!S_ISSOCK(st.st_mode))
		return -ENOTSOCK;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

int opd_ctl_call(int fd, const char *request, struct op_strbuf *reply,
		 int timeout_ms)
{
	char buf[4096];
	int ret;

	ret = op_write_all(fd, request, strlen(request));
	if (!ret)
		ret = op_write_all(fd, "\n", 1);
	if (ret)
		return ret;
	shutdown(fd, SHUT_WR);
	for (;;) {
		ssize_t n;

		ret = wait_fd(fd, POLLIN, timeout_ms);
		if (ret)
			return ret;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		if (op_strbuf_add(reply, buf, (size_t)n))
			return -ENOMEM;
	}
	return 0;
}

const char *opd_ctl_bad_session_name(const char *name)
{
	if (!*name)
		return "give a name";
	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return "a session name is one directory name, without '/'";
	if (!strcmp(name, "current") || !strcmp(name, "previous"))
		return "'current' and 'previous' are taken by the daemon's own samples";
	if (name[0] == '.')
		return "a session name cannot start with '.'";
	if (strlen(name) > 200)
		return "a session name is at most 200 bytes";
	if (strpbrk(name, "\n\r\t"))
		return "a session name cannot hold control characters";
	return NULL;
}
