#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every reference in the tree names something in the tree (the rule at
# the top of doc/HACKING): nothing points at formats.md (the formats are described
# by oprofile-ng-formats(5) and oprofile-ng-session(5)); every doc/ path
# and every man page of ours that code, scripts and docs name exists; no
# message or man page sends the user to a tool we do not have; and every
# function of ours that a comment names with "()" is defined somewhere.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 99

# the files we look in: tracked sources, scripts and documents (this
# script names the things it looks for, so it is left out)
sources() {
	git ls-files --cached --others --exclude-standard 2>/dev/null | grep -v -e '^tests/check-references\.sh$' \
		-e '^tests/fuzz/corpus/' -e '^tests/e2e/golden/' -e '^libdb/tests/golden/' ||
	find . -path ./build -prune -o -type f \( -name '*.[ch]' -o -name '*.sh' \
		-o -name '*.py' -o -name '*.md' -o -name '*.in' -o -name '*.am' \
		-o -name 'HACKING' -o -name '*.xsd' -o -name '*.ac' \) -print |
		sed 's|^\./||' | grep -v -e '^tests/check-references\.sh$' \
		-e '^build' -e '/build/'
}
sources | while read -r f; do test -f "$f" && echo "$f"; done >"$T/files"

no_formats_md() {
	xargs grep -n -e 'formats\.md' -e 'formats §' <"$T/files" >"$T/hits"
	if test -s "$T/hits"; then
		sed 's/^/# /' "$T/hits"
		return 1
	fi
}
check "nothing refers to formats.md" no_formats_md

# doc/NAME exists when doc/NAME or doc/NAME.in does
doc_paths() {
	bad=0
	xargs grep -o -n -E '(^|[^A-Za-z0-9_./-])doc/[A-Za-z0-9_.-]*[A-Za-z0-9_]' <"$T/files" |
	sed -E 's|^([^:]*:[0-9]*:).*(doc/)|\1\2|' | sort -u >"$T/docs"
	while IFS=: read -r file line path; do
		case $path in doc/[A-Z]*.[0-9]*) continue ;; esac	# doc/TOOL.1.in: a placeholder
		test -e "$path" || test -e "$path.in" && continue
		say "$file:$line: $path does not exist"
		bad=1
	done <"$T/docs"
	test $bad -eq 0
}
check "every doc/ path named exists" doc_paths

# NAME(5) of ours (oprofile-ng-*), and NAME(1), NAME(7) and NAME(8) for
# names of our kind (op*, odb-*), have a page doc/NAME.N.in
man_pages() {
	bad=0
	# man-page escapes (\- and font changes) taken out first
	while read -r f; do
		sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$f" |
		grep -o -n -E '\b(oprofile-ng-[a-z0-9-]+|oprofile|op[a-z0-9-]*|odb-[a-z0-9-]+) ?\([1578]\)' |
		sed -e "s|^|$f:|" -e 's/ (/(/'
	done <"$T/files" | sort -u >"$T/pages"
	while IFS=: read -r file line page; do
		name=${page%(*}
		sect=${page#*(}
		sect=${sect%)}
		test -f "doc/$name.$sect.in" && continue
		say "$file:$line: $page: no doc/$name.$sect.in"
		bad=1
	done <"$T/pages"
	test $bad -eq 0
}
check "every man page of ours that is named exists" man_pages

# OProfile's tools: one that a message or hint (a C string) or a man page
# names must exist here (pp/ or daemon/ source, or its man page); all of
# them do today, and the check keeps a removed or renamed one from being
# offered to the user
TOOLS_NOT_YET="ocount opannotate oparchive opcontrol operf opgprof ophelp opimport opjitconv opreport oprofiled"
have_tool() {	# NAME
	c=$(echo "$1" | tr - _)
	test -f "pp/$c.c" || test -f "daemon/$c.c" || test -f "doc/$1.1.in"
}
missing_tools() {
	bad=0
	for tool in $TOOLS_NOT_YET; do
		have_tool "$tool" && continue
		grep '\.c$' "$T/files" | xargs grep -n -E "\"[^\"]*\\b$tool\\b[^\"]*\"" >"$T/tool" &&
			{ sed "s/^/# $tool named in a message: /" "$T/tool"; bad=1; }
		grep '^doc/.*\.in$' "$T/files" | xargs grep -n -E "\\b$tool\\b" >"$T/tool" &&
			{ sed "s/^/# $tool named in a man page: /" "$T/tool"; bad=1; }
	done
	test $bad -eq 0
}
check "no message or man page names a tool we do not have" missing_tools

# the comment text of a C file, as "FILE:LINE:text" lines
comments() {	# FILE
	awk -v file="$1" '
	BEGIN {
		q = sprintf("%c", 39)
		charlit = q "([\\\\].|[^\\\\" q "])" q
	}
	{
		line = $0; out = ""
		if (!incomment)
			gsub(charlit, "0", line)	# character literals
		while (line != "") {
			if (incomment) {
				end = index(line, "*/")
				if (!end) { out = out " " line; line = "" }
				else { out = out " " substr(line, 1, end - 1); line = substr(line, end + 2); incomment = 0 }
				continue
			}
			# skip string literals so "/*" inside one starts nothing
			s = index(line, "/*"); d = index(line, "//"); q = index(line, "\"")
			if (q && (!s || q < s) && (!d || q < d)) {
				rest = substr(line, q + 1)
				while (match(rest, /^([^"\\]|\\.)*"/)) { rest = substr(rest, RLENGTH + 1); break }
				line = rest
				continue
			}
			if (d && (!s || d < s)) { out = out " " substr(line, d + 2); line = "" ; continue }
			if (s) { incomment = 1; line = substr(line, s + 2); continue }
			line = ""
		}
		if (out != "") print file ":" NR ":" out
	}' "$1"
}

# NAME is defined: a line that starts with a type and reaches NAME( with
# no comment before it (our style puts the return type and the name of a
# definition on one line at column 0; static inline functions in headers
# too), or a macro
defined() {	# NAME
	grep -q -E "^[A-Za-z_][^/(]*[ *]$1\\(|^#define $1\\b" $C_FILES 2>/dev/null
}
functions_exist() {
	bad=0
	C_FILES=$(grep -E '\.[ch]$' "$T/files")
	for f in $C_FILES; do
		comments "$f"
	done | grep -o -E '^[^:]*:[0-9]*:|\b(op|odb|opev|pp|opd)_[a-z0-9_]+\(\)' |
	awk '/:$/ { where = $0; next } { print where $0 }' | sort -u >"$T/calls"
	# the documents name functions too
	grep -E '^(README\.md|doc/HACKING|doc/.*\.in)$' "$T/files" |
		xargs grep -o -n -E '\b(op|odb|opev|pp|opd)_[a-z0-9_]+\(\)' >>"$T/calls"
	while IFS=: read -r file line fn; do
		name=${fn%()}
		defined "$name" && continue
		say "$file:$line: $fn is defined nowhere"
		bad=1
	done <"$T/calls"
	test $bad -eq 0
}
check "every function of ours a comment names with () is defined" functions_exist

done_testing
