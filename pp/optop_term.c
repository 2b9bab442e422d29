// SPDX-License-Identifier: GPL-2.0-or-later
/* optop's terminal (optop_term.h). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "pp/optop_term.h"

static struct termios saved;
static bool raw;
static volatile sig_atomic_t stop;

bool optop_term_raw(void)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved))
		return false;
	t = saved;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t))
		return false;
	raw = true;
	return true;
}

void optop_term_restore(void)
{
	if (raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	raw = false;
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

void optop_term_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll() returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

bool optop_term_stopped(void)
{
	return stop != 0;
}

int optop_term_wait(int ms, bool keys)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	unsigned char c;
	int n;

	if (stop)
		return -1;
	if (!keys) {
		struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			if (stop)
				return -1;
		return stop ? -1 : 0;
	}
	n = poll(&p, 1, ms);
	if (stop)
		return -1;
	if (n <= 0)
		return 0;
	if (read(STDIN_FILENO, &c, 1) != 1)
		return 'q';	/* the terminal went away */
	return c;
}

int optop_term_rows(void)
{
	struct winsize ws;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row > 0)
		return ws.ws_row;
	return 24;
}
