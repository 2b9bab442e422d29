#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every #include of one of our headers must follow an edge of the layering
# table (doc/HACKING): a directory may include only itself and the layers
# below it, and nothing includes pp/, daemon/ or tests/ (tests may include
# anything).  libpp is three layers, each a directory of its own:
# libpp/symbols below libpp/profile below libpp/report.  Also: every .c
# file includes "config.h" first, and each library has at most one
# internal header (*_int.h), used only inside its directory.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 99

allowed() {	# from-dir to-dir
	test "$1" = "$2" && return 0
	case "$1:$2" in
	libdb:libutil) return 0 ;;
	events:libutil) return 0 ;;
	libpp/symbols:libdb|libpp/symbols:libutil) return 0 ;;
	libpp/profile:libpp/symbols|libpp/profile:libdb) return 0 ;;
	libpp/profile:events|libpp/profile:libutil) return 0 ;;
	libpp/report:libpp/profile|libpp/report:libpp/symbols) return 0 ;;
	libpp/report:libutil) return 0 ;;
	daemon:libdb|daemon:events|daemon:libutil) return 0 ;;
	pp:libpp/*|pp:libdb|pp:events|pp:libutil) return 0 ;;
	bench:*) return 0 ;;
	esac
	return 1
}

# the layer of a path: its top directory, or libpp/X for libpp
layer() {
	case $1 in
	libpp/*) l=${1#libpp/}; echo "libpp/${l%%/*}" ;;
	*) echo "${1%%/*}" ;;
	esac
}

layering() {
	bad=0
	for f in $(find libutil libdb events libpp daemon pp bench -name '*.[ch]' 2>/dev/null); do
		# tests, and workloads built on their own with cc, are exempt,
		# and so is protoc-c's output (an in-tree build makes it here)
		case $f in tests/*|*/tests/*|*/workloads/*|*.pb-c.[ch]) continue ;; esac
		from=$(layer "$f")
		for inc in $(sed -n 's/^#include "\([a-z/_]*\/\)[a-z0-9_]*\.h".*/\1/p' "$f"); do
			inc=$(layer "$inc")
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
		dir=${h%/*}
		if grep -rl "#include \"$h\"" --include='*.[ch]' . | grep -v "^\./$dir/" | grep -q .; then
			say "$h is included outside $dir/"
			bad=1
		fi
	done
	# and each library has at most one
	for dir in libutil libdb events libpp/symbols libpp/profile libpp/report daemon pp; do
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
