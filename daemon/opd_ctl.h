/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control socket between opcontrol and oprofiled: SESSION/oprofiled.sock,
 * a Unix stream socket that only its owner can reach (mode 0600 from the
 * daemon's umask) and whose every caller is checked by its credentials
 * (SO_PEERCRED): root, or the user the daemon runs as.
 *
 * One request per connection: the client sends one line, "COMMAND[ ARG]",
 * and reads the reply until the daemon closes: lines of text, the last
 * of which is "ok" or "error: MESSAGE"; lines before it starting "hint: "
 * or "notice: " go with it.  The daemon answers only once the command is
 * done (a --dump returns when the samples are in their files).
 *
 * The socket is reached through the held session directory
 * (/proc/self/fd/N/oprofiled.sock), so neither a long session path nor a
 * symlink planted on the way changes what is connected to.
 */
#ifndef OPD_CTL_H
#define OPD_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "libutil/op_dir.h"
#include "libutil/op_strbuf.h"

#define OPD_CTL_SOCKET "oprofiled.sock"
#define OPD_CTL_MAX_REQUEST 1024

/*
 * Listen on dir/oprofiled.sock, replacing a socket left by a dead daemon
 * (never anything else).  Returns the listening fd (non-blocking,
 * close-on-exec) or a negative errno: -EEXIST when something that is not
 * a socket has the name.
 */
int opd_ctl_listen(const struct op_dir *dir);

/* remove dir/oprofiled.sock, if it is a socket */
void opd_ctl_unlink(const struct op_dir *dir);

/*
 * Accept one caller on lfd and read its request line (at most
 * OPD_CTL_MAX_REQUEST bytes, within a second) into req (NUL-terminated,
 * without the newline).  *fd is the connection, to answer with
 * opd_ctl_reply() and close; *uid the caller's user.  Returns 0,
 * -EAGAIN when nobody is waiting, or another negative errno (the
 * connection then closed).
 */
int opd_ctl_accept(int lfd, int *fd, uid_t *uid, char *req, size_t size);

/* may uid control a daemon running as owner?  root, or owner itself */
bool opd_ctl_allowed(uid_t uid, uid_t owner);

/* write text whole to the connection fd (blocking); 0 or a negative errno */
int opd_ctl_reply(int fd, const char *text, size_t len);

/*
 * Connect to the daemon of session directory dir (held open, never
 * through a symlink).  Returns the fd, or -ENOENT when there is no
 * socket, -ECONNREFUSED when nobody listens on it (a dead daemon's), or
 * another negative errno.
 */
int opd_ctl_connect(const struct op_dir *dir);

/*
 * Send request on a connected fd and read the whole reply into reply,
 * waiting at most timeout_ms for each part of it.  0 or a negative errno
 * (-ETIMEDOUT).
 */
int opd_ctl_call(int fd, const char *request, struct op_strbuf *reply,
		 int timeout_ms);

/*
 * Why name cannot name a saved session (SESSION/samples/NAME, made by
 * opcontrol --save), or NULL when it can
 */
const char *opd_ctl_bad_session_name(const char *name);

#endif
