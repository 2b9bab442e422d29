// SPDX-License-Identifier: GPL-2.0-or-later
/* Writing and reading a recording's stats/ directory (see odb_stats.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_int.h"
#include "libdb/odb_session.h"
#include "libdb/odb_stats.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

/* longer than any counter: 20 digits and some blanks */
#define COUNT_MAX 64

static const char *const files[] = {
#define ODB_STAT(id, file, kind, what) [ODB_STAT_##id] = file,
	ODB_STATS
#undef ODB_STAT
};

static const enum odb_stat_kind kinds[] = {
#define ODB_STAT(id, file, kind, what) [ODB_STAT_##id] = ODB_STAT_KIND_##kind,
	ODB_STATS
#undef ODB_STAT
};

static const char *const whats[] = {
#define ODB_STAT(id, file, kind, what) [ODB_STAT_##id] = what,
	ODB_STATS
#undef ODB_STAT
};

const char *odb_stat_file(enum odb_stat stat)
{
	return (unsigned)stat < ODB_NR_STATS ? files[stat] : NULL;
}

enum odb_stat_kind odb_stat_kind(enum odb_stat stat)
{
	return (unsigned)stat < ODB_NR_STATS ? kinds[stat] : ODB_STAT_KIND_TOTAL;
}

static uint64_t sum_kind(const struct odb_stats *st, enum odb_stat_kind kind)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < ODB_NR_STATS; i++)
		if (kinds[i] == kind)
			sum = st->count[i] > UINT64_MAX - sum ? UINT64_MAX :
			      sum + st->count[i];
	return sum;
}

uint64_t odb_stats_lost_samples(const struct odb_stats *st)
{
	return sum_kind(st, ODB_STAT_KIND_LOST_SAMPLES);
}

uint64_t odb_stats_lost_arcs(const struct odb_stats *st)
{
	return sum_kind(st, ODB_STAT_KIND_LOST_ARCS);
}

int odb_stats_describe_lost(const struct odb_stats *st, struct op_strbuf *sb)
{
	uint64_t lost = odb_stats_lost_samples(st), taken;
	bool done[ODB_NR_STATS] = { false };
	const char *sep = ": ";
	int i;

	if (!lost)
		return 0;
	if (odb_stats_taken(st, &taken))
		op_strbuf_addf(sb, "%" PRIu64 " of %" PRIu64 " samples (%.2f%%) were lost",
			       lost, taken, 100.0 * (double)lost / (double)taken);
	else
		op_strbuf_addf(sb, "%" PRIu64 " sample%s lost", lost,
			       lost == 1 ? " was" : "s were");
	for (;;) {
		int best = -1;

		for (i = 0; i < ODB_NR_STATS; i++)
			if (!done[i] && kinds[i] == ODB_STAT_KIND_LOST_SAMPLES &&
			    st->count[i] && (best < 0 || st->count[i] > st->count[best]))
				best = i;
		if (best < 0)
			break;
		done[best] = true;
		op_strbuf_addf(sb, "%s%" PRIu64 " %s", sep, st->count[best], whats[best]);
		sep = ", ";
	}
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

bool odb_stats_taken(const struct odb_stats *st, uint64_t *taken)
{
	uint64_t lost = odb_stats_lost_samples(st);
	uint64_t total = st->count[ODB_STAT_TOTAL_SAMPLES];

	*taken = total > UINT64_MAX - lost ? UINT64_MAX : total + lost;
	return st->present[ODB_STAT_TOTAL_SAMPLES];
}

int odb_stats_parse_count(const char *text, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (!len || text[0] < '0' || text[0] > '9')
		return ODB_ERR_BAD_COUNTER;
	for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
		unsigned d = (unsigned)(text[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return ODB_ERR_BAD_COUNTER;
		v = v * 10 + d;
	}
	for (; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' &&
		    text[i] != '\r')
			return ODB_ERR_BAD_COUNTER;
	*out = v;
	return 0;
}

static int write_count(const struct op_dir *dir, const char *name, uint64_t value)
{
	char path[64], buf[32];
	int len = snprintf(buf, sizeof(buf), "%" PRIu64, value);

	snprintf(path, sizeof(path), "stats/%s", name);
	return op_dir_write_file(dir, path, buf, (size_t)len, 0644);
}

/* a name that stays one file inside throttled/ */
static bool plain_name(const char *name)
{
	return name[0] && name[0] != '.' && !strchr(name, '/');
}

static int write_throttled(const struct op_dir *dir, const struct odb_stats *st)
{
	size_t i;
	int ret = 0;

	if (!st->nr_throttled)
		return 0;
	for (i = 0; i < st->nr_throttled; i++)
		if (!plain_name(st->throttled[i]))
			return -EINVAL;
	ret = op_dir_mkparents(dir, "stats/throttled/x", 0755);
	for (i = 0; i < st->nr_throttled && !ret; i++) {
		char *path = odb_path_join("stats/throttled", st->throttled[i]);

		ret = path ? op_dir_write_file(dir, path, "", 0, 0644) : -ENOMEM;
		free(path);
	}
	return ret;
}

int odb_stats_write(const struct op_dir *dir, const struct odb_stats *st)
{
	bool any_lost = false;
	int ret, i;

	ret = op_dir_mkparents(dir, "stats/x", 0755);
	for (i = 0; i < ODB_NR_STATS && !ret; i++) {
		if (kinds[i] == ODB_STAT_KIND_TOTAL || !st->count[i])
			continue;
		any_lost = true;
		ret = write_count(dir, files[i], st->count[i]);
	}
	/* OProfile 1.4's rule: total_samples goes with any lost_* file */
	if (!ret && any_lost)
		ret = write_count(dir, files[ODB_STAT_TOTAL_SAMPLES],
				  st->count[ODB_STAT_TOTAL_SAMPLES]);
	if (!ret)
		ret = write_throttled(dir, st);
	return ret;
}

/* one counter file: 0 also when it is missing or bad; -ENOMEM */
static int read_count(const char *stats, enum odb_stat stat, struct odb_stats *st)
{
	char *text;
	size_t len;
	int ret = odb_session_read(stats, files[stat], COUNT_MAX, &text, &len);

	if (ret)
		return ret == -ENOMEM ? ret : 0;
	if (!odb_stats_parse_count(text, len, &st->count[stat]))
		st->present[stat] = true;
	free(text);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_throttled(struct odb_stats *st, const char *name)
{
	char **v, *copy = op_strdup(name);

	if (!copy)
		return -ENOMEM;
	v = op_reallocarray(st->throttled, st->nr_throttled + 1, sizeof(*v));
	if (!v) {
		free(copy);
		return -ENOMEM;
	}
	st->throttled = v;
	st->throttled[st->nr_throttled++] = copy;
	return 0;
}

static int read_throttled(const char *stats, struct odb_stats *st)
{
	char *path = odb_path_join(stats, "throttled");
	struct dirent *de;
	DIR *dir;
	int ret = 0;

	if (!path)
		return -ENOMEM;
	dir = opendir(path);
	free(path);
	if (!dir)
		return 0;
	while (!ret && (de = readdir(dir)))
		if (de->d_name[0] != '.')
			ret = add_throttled(st, de->d_name);
	closedir(dir);
	if (st->nr_throttled)
		qsort(st->throttled, st->nr_throttled, sizeof(*st->throttled),
		      cmp_name);
	return ret;
}

int odb_stats_read(const char *dir, struct odb_stats *st)
{
	char *stats = odb_path_join(dir, "stats");
	int ret = 0, i;

	memset(st, 0, sizeof(*st));
	if (!stats)
		return -ENOMEM;
	for (i = 0; i < ODB_NR_STATS && !ret; i++)
		ret = read_count(stats, (enum odb_stat)i, st);
	if (!ret)
		ret = read_throttled(stats, st);
	free(stats);
	if (ret)
		odb_stats_release(st);
	return ret;
}

void odb_stats_release(struct odb_stats *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nr_throttled; i++)
		free(st->throttled[i]);
	free(st->throttled);
	memset(st, 0, sizeof(*st));
}
