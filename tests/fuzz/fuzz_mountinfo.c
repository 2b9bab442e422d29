// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: /proc/PID/mountinfo text, which a process in another mount
 * namespace controls (its mounts' names), parsed as the daemon's opd_ns
 * parses it, then asked for the candidate paths of a few paths and of
 * each mount point, with the table as both theirs and ours.  Every mount
 * kept must have an absolute root and mount point of the lengths given,
 * without trailing slashes; every candidate must be an absolute path.
 * Nothing may crash, hang or leak.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_ns.h"
#include "libutil/op_alloc.h"
#include "tests/fuzz/fuzz.h"

static void check_path(const char *p, size_t len)
{
	if (p[0] != '/' || strlen(p) != len || (len > 1 && p[len - 1] == '/'))
		abort();
}

static int check_candidate(void *data, const char *host,
			   const struct opd_ns_mount *m, bool layer)
{
	(void)m;
	(void)layer;
	if (host[0] != '/')
		abort();
	++*(unsigned *)data;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "/", "/usr/bin/x", "/a/b/c", "/tmp" };
	struct opd_ns_table t;
	unsigned nr = 0;
	char *text;
	size_t i;

	text = op_xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	opd_ns_table_parse(&t, text);
	for (i = 0; i < t.nr_mounts; i++) {
		check_path(t.mounts[i].root, t.mounts[i].root_len);
		check_path(t.mounts[i].point, t.mounts[i].point_len);
		if (!t.mounts[i].fstype || !t.mounts[i].super)
			abort();
	}
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		opd_ns_candidates(&t, &t, paths[i], check_candidate, &nr);
	/* each mount point, and below it (at most 64: inputs stay fast) */
	for (i = 0; i < t.nr_mounts && i < 64; i++) {
		char *below = op_xmalloc(t.mounts[i].point_len + 3);

		memcpy(below, t.mounts[i].point, t.mounts[i].point_len);
		memcpy(below + t.mounts[i].point_len, "/x", 3);
		opd_ns_candidates(&t, &t, t.mounts[i].point, check_candidate, &nr);
		opd_ns_candidates(&t, &t, below, check_candidate, &nr);
		free(below);
	}
	opd_ns_table_release(&t);
	return 0;
}
