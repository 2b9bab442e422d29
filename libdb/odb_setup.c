// SPDX-License-Identifier: GPL-2.0-or-later
/* The daemon's setup file, SESSION/daemonrc (odb_setup.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_session.h"
#include "libdb/odb_setup.h"
#include "libdb/odb_slices.h"
#include "libutil/op_alloc.h"
#include "libutil/op_parse.h"

#define SETUP_MAX ((size_t)4 << 20)
#define MAX_IMAGES 4096

static const char *const separate_words[] = { "lib", "kernel", "thread", "cpu" };
#define NR_SEPARATE_WORDS (sizeof(separate_words) / sizeof(separate_words[0]))

/*
 * The next comma-separated word of *p (a copy in word, at most size - 1);
 * *p becomes NULL after the last.  A comma at the end leaves an empty
 * last word, which is no known word, as one at the start or two in a row.
 */
static bool next_word(const char **p, char *word, size_t size)
{
	size_t n;

	if (!*p)
		return false;
	n = strcspn(*p, ",");
	memcpy(word, *p, n < size ? n : size - 1);	/* a long word stays unknown */
	word[n < size ? n : size - 1] = '\0';
	*p = (*p)[n] == ',' ? *p + n + 1 : NULL;
	return true;
}

int odb_setup_parse_separate(const char *text, unsigned *bits, struct op_err *err)
{
	const char *p = text;	/* not empty: at least one word */
	char word[16];
	unsigned v = 0;
	bool none = false;

	if (!*text) {
		op_err_set(err, "empty --separate value (none, lib, kernel, thread, "
			   "cpu or all)");
		return -EINVAL;
	}
	while (next_word(&p, word, sizeof(word))) {
		size_t i;

		if (!strcmp(word, "none")) {
			none = true;
			continue;
		}
		if (!strcmp(word, "all")) {
			v |= ODB_SEPARATE_ALL;
			continue;
		}
		for (i = 0; i < NR_SEPARATE_WORDS; i++)
			if (!strcmp(word, separate_words[i]))
				break;
		if (i == NR_SEPARATE_WORDS) {
			op_err_set(err, "unknown --separate value '%.15s' (none, lib, "
				   "kernel, thread, cpu or all)", word);
			return -EINVAL;
		}
		v |= 1u << i;
	}
	if (none && v) {
		op_err_set(err, "--separate: 'none' cannot be combined with other values");
		return -EINVAL;
	}
	if (v & ODB_SEPARATE_KERNEL)
		v |= ODB_SEPARATE_LIB;
	*bits = v;
	return 0;
}

void odb_setup_separate_text(unsigned bits, struct op_strbuf *sb)
{
	size_t i;
	bool first = true;

	for (i = 0; i < NR_SEPARATE_WORDS; i++) {
		if (!(bits & (1u << i)))
			continue;
		op_strbuf_addf(sb, "%s%s", first ? "" : ",", separate_words[i]);
		first = false;
	}
	if (first)
		op_strbuf_addstr(sb, "none");
}

static void free_images(struct odb_setup *setup)
{
	size_t i;

	for (i = 0; i < setup->nr_images; i++)
		free(setup->images[i]);
	free(setup->images);
	setup->images = NULL;
	setup->nr_images = 0;
}

int odb_setup_parse_images(struct odb_setup *setup, const char *text,
			   struct op_err *err)
{
	const char *p = text;
	char **v = NULL;
	size_t nr = 0;

	free_images(setup);
	if (!strcmp(text, "all") || !*text)
		return 0;
	/* every path, the last one after a comma too, must be there */
	for (;;) {
		size_t n = strcspn(p, ",");
		char **grown;

		if (!n || p[0] != '/') {
			op_err_set(err, "--image takes absolute paths separated by "
				   "commas, or 'all'");
			goto out_inval;
		}
		if (nr == MAX_IMAGES) {
			op_err_set(err, "--image: more than %d paths", MAX_IMAGES);
			goto out_inval;
		}
		grown = op_reallocarray(v, nr + 1, sizeof(*v));
		if (!grown)
			goto out_nomem;
		v = grown;
		v[nr] = op_strndup(p, n);
		if (!v[nr])
			goto out_nomem;
		nr++;
		p += n;
		if (!*p)
			break;
		p++;
	}
	setup->images = v;
	setup->nr_images = nr;
	return 0;
out_inval:
	setup->images = v;
	setup->nr_images = nr;
	free_images(setup);
	return -EINVAL;
out_nomem:
	setup->images = v;
	setup->nr_images = nr;
	free_images(setup);
	return -ENOMEM;
}

static bool has_newline(const char *s)
{
	return s && strpbrk(s, "\n\r");
}

/* whether odb_setup_parse() takes each value of setup back */
static bool values_readable(const struct odb_setup *setup)
{
	size_t i;

	if (has_newline(setup->events) || has_newline(setup->vmlinux) ||
	    setup->callgraph > ODB_SETUP_MAX_DEPTH ||
	    setup->buffer_size > UINT32_MAX || setup->cpu_buffer_size > UINT32_MAX ||
	    (setup->slice_ns && setup->slice_ns != ODB_SETUP_NO_SLICES &&
	     (setup->slice_ns < ODB_SLICES_MIN_NS || setup->slice_ns > ODB_SLICES_MAX_NS)) ||
	    setup->nr_images > MAX_IMAGES)
		return false;
	for (i = 0; i < setup->nr_images; i++)
		if (setup->images[i][0] != '/' || has_newline(setup->images[i]) ||
		    strchr(setup->images[i], ','))
			return false;
	return true;
}

/* whether every line of sb from start fits ODB_SETUP_MAX_LINE */
static bool lines_fit(const struct op_strbuf *sb, size_t start)
{
	const char *p = sb->buf + start, *end = sb->buf + sb->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n > ODB_SETUP_MAX_LINE)
			return false;
		p += n + 1;
	}
	return true;
}

int odb_setup_format(const struct odb_setup *setup, struct op_strbuf *sb)
{
	size_t i, start = sb->len;

	if (!values_readable(setup))
		return -EINVAL;
	op_strbuf_addstr(sb, "# oprofiled setup, written by opcontrol\n");
	op_strbuf_addf(sb, "events=%s\n", setup->events ? setup->events : "");
	op_strbuf_addstr(sb, "separate=");
	odb_setup_separate_text(setup->separate, sb);
	op_strbuf_addf(sb, "\ncallgraph=%" PRIu32 "\n", setup->callgraph);
	op_strbuf_addf(sb, "vmlinux=%s\n", setup->vmlinux ? setup->vmlinux : "");
	op_strbuf_addf(sb, "no-vmlinux=%d\n", setup->no_vmlinux ? 1 : 0);
	op_strbuf_addstr(sb, "image=");
	for (i = 0; i < setup->nr_images; i++)
		op_strbuf_addf(sb, "%s%s", i ? "," : "", setup->images[i]);
	op_strbuf_addf(sb, "\nbuffer-size=%" PRIu64 "\n", setup->buffer_size);
	op_strbuf_addf(sb, "cpu-buffer-size=%" PRIu64 "\n", setup->cpu_buffer_size);
	if (setup->slice_ns == ODB_SETUP_NO_SLICES)
		op_strbuf_addstr(sb, "slice=none\n");
	else
		op_strbuf_addf(sb, "slice=%" PRIu64 "\n", setup->slice_ns);
	if (op_strbuf_failed(sb))
		return -ENOMEM;
	/* a long --image or --event list: the reader would refuse the line */
	if (!lines_fit(sb, start)) {
		op_strbuf_setlen(sb, start);
		return -EINVAL;
	}
	return 0;
}

enum setup_key {
	KEY_EVENTS, KEY_SEPARATE, KEY_CALLGRAPH, KEY_VMLINUX, KEY_NO_VMLINUX,
	KEY_IMAGE, KEY_BUFFER_SIZE, KEY_CPU_BUFFER_SIZE, KEY_SLICE, NR_KEYS
};

static const char *const key_names[NR_KEYS] = {
	"events", "separate", "callgraph", "vmlinux", "no-vmlinux", "image",
	"buffer-size", "cpu-buffer-size", "slice",
};

static int set_string(char **slot, const char *value)
{
	free(*slot);
	*slot = NULL;
	if (!*value)
		return 0;
	*slot = op_strdup(value);
	return *slot ? 0 : -ENOMEM;
}

static int set_value(struct odb_setup *setup, enum setup_key key, const char *v,
		     struct op_err *err)
{
	uint64_t n;
	int ret = 0;

	switch (key) {
	case KEY_EVENTS:
		return set_string(&setup->events, v);
	case KEY_SEPARATE:
		return odb_setup_parse_separate(v, &setup->separate, err);
	case KEY_CALLGRAPH:
		ret = op_parse_u64(v, 10, ODB_SETUP_MAX_DEPTH, &n);
		if (!ret)	/* n is only set on success */
			setup->callgraph = (uint32_t)n;
		break;
	case KEY_VMLINUX:
		return set_string(&setup->vmlinux, v);
	case KEY_NO_VMLINUX:
		ret = op_parse_u64(v, 10, 1, &n);
		if (!ret)
			setup->no_vmlinux = n;
		break;
	case KEY_IMAGE:
		return odb_setup_parse_images(setup, v, err);
	case KEY_BUFFER_SIZE:
		ret = op_parse_u64(v, 10, UINT32_MAX, &setup->buffer_size);
		break;
	case KEY_CPU_BUFFER_SIZE:
		ret = op_parse_u64(v, 10, UINT32_MAX, &setup->cpu_buffer_size);
		break;
	case KEY_SLICE:
		if (!strcmp(v, "none")) {
			setup->slice_ns = ODB_SETUP_NO_SLICES;
			break;
		}
		ret = op_parse_u64(v, 10, ODB_SLICES_MAX_NS, &n);
		if (!ret && n && n < ODB_SLICES_MIN_NS)
			ret = -ERANGE;
		if (!ret)
			setup->slice_ns = n;
		break;
	default:
		return -EINVAL;
	}
	if (ret)
		op_err_set(err, "bad value '%.40s'", v);
	return ret ? -EINVAL : 0;
}

static int parse_line(struct odb_setup *setup, char *line, bool *seen,
		      struct op_err *err)
{
	char *eq = strchr(line, '=');
	size_t k;

	if (!eq) {
		op_err_set(err, "not a KEY=VALUE line");
		return -EINVAL;
	}
	*eq = '\0';
	for (k = 0; k < NR_KEYS; k++)
		if (!strcmp(line, key_names[k]))
			break;
	if (k == NR_KEYS) {
		op_err_set(err, "unknown key '%.40s'", line);
		return -EINVAL;
	}
	if (seen[k]) {
		op_err_set(err, "'%s' given twice", key_names[k]);
		return -EINVAL;
	}
	seen[k] = true;
	return set_value(setup, (enum setup_key)k, eq + 1, err);
}

int odb_setup_parse(const char *text, size_t len, struct odb_setup *setup,
		    struct op_err *err)
{
	bool seen[NR_KEYS] = { false };
	char *line = NULL;
	size_t pos = 0, nr = 0;
	int ret = 0;

	memset(setup, 0, sizeof(*setup));
	line = op_malloc(ODB_SETUP_MAX_LINE + 1);
	if (!line)
		return -ENOMEM;
	while (pos < len && !ret) {
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		struct op_err line_err = { "" };

		nr++;
		pos += n + (nl != NULL);
		/* CRLF reads as LF: the CR is no part of the line */
		if (n && start[n - 1] == '\r')
			n--;
		/*
		 * Any other CR is refused, as a NUL byte is: odb_setup_format()
		 * could not write a value holding one back.
		 */
		if (n > ODB_SETUP_MAX_LINE || memchr(start, '\0', n) ||
		    memchr(start, '\r', n)) {
			op_err_set(err, "line %zu: too long, or holds a NUL byte or a "
				   "carriage return", nr);
			ret = -EINVAL;
			break;
		}
		memcpy(line, start, n);
		line[n] = '\0';
		if (!n || line[0] == '#')
			continue;
		ret = parse_line(setup, line, seen, &line_err);
		if (ret == -EINVAL)
			op_err_set(err, "line %zu: %s", nr, line_err.msg);
	}
	free(line);
	return ret;
}

int odb_setup_write(const struct op_dir *dir, const struct odb_setup *setup)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	int ret = odb_setup_format(setup, &sb);

	if (!ret)
		ret = op_dir_write_file(dir, ODB_SETUP_FILE, sb.buf, sb.len, 0600);
	op_strbuf_release(&sb);
	return ret;
}

int odb_setup_read(const char *dir, struct odb_setup *setup, struct op_err *err)
{
	char *text;
	size_t len;
	int ret;

	memset(setup, 0, sizeof(*setup));
	ret = odb_session_read(dir, ODB_SETUP_FILE, SETUP_MAX, &text, &len);
	if (ret) {
		if (ret != -ENOENT)
			op_err_set(err, "%s", odb_strerror(ret));
		return ret;
	}
	ret = odb_setup_parse(text, len, setup, err);
	free(text);
	return ret;
}

void odb_setup_release(struct odb_setup *setup)
{
	if (!setup)
		return;
	free(setup->events);
	free(setup->vmlinux);
	free_images(setup);
	memset(setup, 0, sizeof(*setup));
}

uint64_t odb_setup_slice_ns(const struct odb_setup *setup)
{
	if (setup->slice_ns == ODB_SETUP_NO_SLICES)
		return 0;
	return setup->slice_ns ? setup->slice_ns : ODB_SLICES_DEFAULT_NS;
}

void odb_setup_slice_text(uint64_t slice_ns, struct op_strbuf *sb)
{
	if (slice_ns)
		op_strbuf_addf(sb, "Time slices: %g s\n", slice_ns / 1e9);
	else
		op_strbuf_addstr(sb, "Time slices: none\n");
}
