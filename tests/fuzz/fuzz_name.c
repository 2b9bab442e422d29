// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a sample-file name (a path below samples/SESSION) from
 * untrusted bytes, as a directory walk could find it.  odb_name_parse()
 * must give one of its errors with a one-line message and an empty name,
 * or a name within the grammar's promises; the name, written again with
 * libdb's builders (as the daemon writes it), must parse back to the same
 * fields.  The name then goes through display and a spec's matching.
 * Nothing may crash or leak.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_name.h"
#include "libdb/odb.h"
#include "libdb/odb_name.h"
#include "libpp/profile/pp_spec.h"
#include "libutil/op_strbuf.h"
#include "tests/fuzz/fuzz.h"

static bool one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return false;
	return true;
}

static void check_image(const struct odb_image_id *id)
{
	struct op_strbuf shown = OP_STRBUF_INIT;

	if (!id->name)
		abort();
	if (id->kind == ODB_IMAGE_FILE && id->name[0] != '/')
		abort();
	if (id->kind != ODB_IMAGE_FILE && !id->name[0])
		abort();
	if (id->kind == ODB_IMAGE_ANON && id->anon_start > id->anon_end)
		abort();
	if (id->kind != ODB_IMAGE_ANON && (id->anon_tgid || id->anon_start || id->anon_end))
		abort();
	if (odb_image_id_format(&shown, id, false) ||
	    odb_image_id_format(&shown, id, true))
		abort();
	op_strbuf_release(&shown);
}

/*
 * The image part as the daemon writes it, through libdb's builders; false
 * when libdb's escaping would not give the same name back (dropped empty
 * components, the #long form).
 */
static bool write_image(struct op_strbuf *sb, const struct odb_image_id *id)
{
	struct op_strbuf part = OP_STRBUF_INIT;
	char *back;
	bool same;

	if (id->kind == ODB_IMAGE_FILE)
		odb_name_escape_path(&part, id->name);
	else
		odb_name_escape_word(&part, id->name);
	back = strdup(part.buf);
	if (!back)
		abort();
	odb_name_unescape(back);
	same = !op_strbuf_failed(&part) && !strcmp(back, id->name);
	free(back);
	op_strbuf_release(&part);
	if (id->kind == ODB_IMAGE_FILE)
		odb_name_add_file(sb, id->name);
	else if (id->kind == ODB_IMAGE_KERNEL)
		/* the daemon writes an absolute kernel name as a file */
		same &= !odb_name_add_kernel(sb, id->name) && id->name[0] != '/';
	else
		odb_name_add_anon(sb, id->name, id->anon_tgid, id->anon_start,
				  id->anon_end);
	return same;
}

/* the file system folds the "//" of the root directory's "{root}/" part */
static void fold_root(char *s)
{
	char *p;

	while ((p = strstr(s, "{root}//")))
		memmove(p + 7, p + 8, strlen(p + 8) + 1);
}

static void check_round_trip(const struct odb_name *n)
{
	struct op_strbuf sb = OP_STRBUF_INIT, app = OP_STRBUF_INIT;
	struct op_strbuf image = OP_STRBUF_INIT, cg = OP_STRBUF_INIT;
	struct odb_name again;
	bool same;

	same = write_image(&app, &n->app);
	same &= write_image(&image, &n->image);
	if (n->is_cg)
		same &= write_image(&cg, &n->cg);
	odb_name_add_images(&sb, app.buf, image.buf, n->is_cg ? cg.buf : NULL);
	odb_name_add_spec(&sb, n->event, n->count, n->unit_mask, n->tgid, n->tid,
			  n->cpu);
	op_strbuf_release(&app);
	op_strbuf_release(&image);
	op_strbuf_release(&cg);
	if (!same || op_strbuf_failed(&sb)) {
		op_strbuf_release(&sb);
		return;
	}
	fold_root(sb.buf);
	if (odb_name_parse(sb.buf, &again, NULL))
		abort();
	if (!odb_image_id_equal(&again.app, &n->app) ||
	    !odb_image_id_equal(&again.image, &n->image) ||
	    again.is_cg != n->is_cg ||
	    (n->is_cg && !odb_image_id_equal(&again.cg, &n->cg)) ||
	    strcmp(again.event, n->event) || again.count != n->count ||
	    again.unit_mask != n->unit_mask || again.tgid != n->tgid ||
	    again.tid != n->tid || again.cpu != n->cpu)
		abort();
	odb_name_release(&again);
	op_strbuf_release(&sb);
}

static void check_match(const struct odb_name *n)
{
	static const char *const args[] = {
		"image:*", "lib-image:/usr/*,[heap],anon", "event:cpu-clock,e",
		"cpu:0,all", "unit-mask:0x0",
	};
	struct pp_spec_set set;

	if (pp_spec_parse(5, args, &set, NULL))
		abort();
	pp_spec_reject(&set.first, "current", n);
	pp_spec_reject(&set.first, NULL, n);
	pp_spec_set_release(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct op_err err = { "" };
	struct odb_name n;
	char *rel = malloc(size + 1);
	int ret;

	if (!rel)
		return 0;
	memcpy(rel, data, size);
	rel[size] = '\0';
	ret = odb_name_parse(rel, &n, &err);
	free(rel);
	if (ret) {
		if (ret < ODB_ERR_NAME_NO_SPEC || ret > ODB_ERR_NAME_BAD_ANON)
			abort();
		if (!err.msg[0] || !one_line(err.msg))
			abort();
		if (n.event || n.app.name || n.image.name || n.cg.name || n.is_cg)
			abort();
		return 0;
	}
	if (!n.event || !n.event[0] || strchr(n.event, '.') || strchr(n.event, '/'))
		abort();
	check_image(&n.app);
	check_image(&n.image);
	if (n.is_cg)
		check_image(&n.cg);
	else if (n.cg.name)
		abort();
	check_round_trip(&n);
	check_match(&n);
	odb_name_release(&n);
	return 0;
}
