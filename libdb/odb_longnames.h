/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The real paths behind long sample-file names (oprofile-ng-session(5),
 * LONG NAMES).  A path too long for a name is written as
 * "/#long/HASH/START" (odb_name.h), which no report tool can open; the
 * writer records each such path in the session's samples directory as
 *
 *	SESSION/samples/NAME/longnames:	"HASH PATH" lines
 *
 * HASH being the 16 hexadecimal digits of the name and PATH the path,
 * escaped as op_field.h writes fields.  The report tools read the file
 * back and give each long name its path again.  A line is believed only
 * when its path would really be written as that long name, so no line
 * can make a name stand for another file.
 *
 * odb_session_store_longnames() (odb_session.h) stores the text.
 * Nothing here prints or exits; allocation failures are -ENOMEM.
 */
#ifndef ODB_LONGNAMES_H
#define ODB_LONGNAMES_H

#include <stddef.h>

#include "libdb/odb_name.h"
#include "libutil/op_strbuf.h"

/*
 * Append the line of path to sb when its image part is a long name (a
 * path, absolute, that odb_name_add_file() writes as "/#long/..."), else
 * nothing.  0 or -ENOMEM.
 */
int odb_longnames_add(struct op_strbuf *sb, const char *path);

struct odb_longname {
	char *name;		/* "/#long/HASH/START" as a parsed name has it */
	char *path;		/* the real path */
};

/* the paths of a session, sorted by name */
struct odb_longnames {
	struct odb_longname *v;
	size_t nr;
};

/*
 * Parse the len bytes of a longnames file into *map, which the caller
 * releases with odb_longnames_release().  Lines that do not parse, and
 * lines whose path is not written as their name, are skipped; of two
 * paths for one name (their hashes collide) the first in byte order is
 * kept, whatever the order of the lines.  0 or -ENOMEM (*map is then
 * empty).
 */
int odb_longnames_parse(const char *text, size_t len, struct odb_longnames *map);

/*
 * Read dir/longnames (dir: a samples directory; a regular file of at most
 * 64 MiB, owned by this user or root, not through a symlink) into *map.
 * 0, or a negative errno with *map empty (-ENOENT: there is none).
 */
int odb_longnames_read(const char *dir, struct odb_longnames *map);

void odb_longnames_release(struct odb_longnames *map);

/*
 * When id is a file image whose name is a long name map knows, make its
 * name the real path.  Returns 1 when it did, 0 when id is left as it
 * is, or -ENOMEM (id unchanged).
 */
int odb_longnames_resolve(const struct odb_longnames *map, struct odb_image_id *id);

#endif
