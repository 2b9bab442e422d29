#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every #include of one of our headers must follow an edge of the layering
# table in STYLE.md: a directory may include only itself and the layers
# below it, and nothing includes pp/, daemon/ or tests/ (tests may include
# anything).  Also: every .c file includes "config.h" first.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 99

allowed() {	# from-dir to-dir
	test "$1" = "$2" && return 0
	case "$1:$2" in
	libdb:libutil) return 0 ;;
	events:libutil) return 0 ;;
	libpp:libdb|libpp:events|libpp:libutil) return 0 ;;
	daemon:libdb|daemon:events|daemon:libutil) return 0 ;;
	pp:libpp|pp:libdb|pp:events|pp:libutil) return 0 ;;
	bench:*) return 0 ;;
	esac
	return 1
}

layering() {
	bad=0
	for f in $(find libutil libdb events libpp daemon pp bench -name '*.[ch]' 2>/dev/null); do
		# tests, and workloads built on their own with cc, are exempt
		case $f in tests/*|*/tests/*|*/workloads/*) continue ;; esac
		from=${f%%/*}
		for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*/\1/p' "$f"); do
			if ! allowed "$from" "$inc"; then
				say "$f includes $inc/: not allowed for $from/"
				bad=1
			fi
		done
		case $f in
		*_int.h) ;;
		*.h) ;;
		*.c)
			first=$(grep -m1 '^#include' "$f")
			if test "$first" != '#include "config.h"'; then
				say "$f: first include is not config.h"
				bad=1
			fi ;;
		esac
	done
	# an *_int.h header is used only inside its own directory
	for h in $(find libutil libdb events libpp daemon pp -name '*_int.h' 2>/dev/null); do
		dir=${h%%/*}
		if grep -rl "#include \"$h\"" --include='*.[ch]' . | grep -v "^\./$dir/" | grep -q .; then
			say "$h is included outside $dir/"
			bad=1
		fi
	done
	# and each library has at most one
	for dir in libutil libdb events libpp daemon pp; do
		n=$(find "$dir" -maxdepth 1 -name '*_int.h' 2>/dev/null | wc -l)
		if test "$n" -gt 1; then
			say "$dir/ has $n internal headers (*_int.h); at most one"
			bad=1
		fi
	done
	test $bad -eq 0
}

check "includes follow the layering table" layering
done_testing
