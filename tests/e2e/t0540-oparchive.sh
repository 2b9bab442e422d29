#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# oparchive copies a session and what it needs so that it reads the same
# elsewhere:
#  - a program, a shared library of its own and a stripped program whose
#    symbols are in a debug file (.gnu_debuglink), built here and profiled
#    with operf; -l lists them, -x leaves out the libraries;
#  - the archive, read with archive: after the binaries and the session
#    are moved away, gives the same opreport -l as before (symbol names
#    and counts), the stripped program's symbols included (its debug file
#    came along); opannotate reads it too;
#  - a rebuilt binary (another build-id) and a missing one are left out
#    with a warning, the rest archived; a symbolic link in the session is
#    not followed;
#  - bad input: no session, no -o, an output directory inside the session
#    or under a file, a differential: clear errors, exit 1 or 2, nothing
#    made; a full disk: exit 1, no .tmp left, what was copied is whole;
#  - the progress line shows on a terminal only.
. "$top_srcdir/tests/lib.sh"
need_perf
command -v cc >/dev/null 2>&1 || skip_all "no C compiler (cc) to build the workload"
OPARCHIVE=$top_builddir/pp/oparchive
OPREPORT=$top_builddir/pp/opreport
test -x "$OPARCHIVE" || skip_all "oparchive is not built"

# status WANT NAME ARGS...: oparchive ARGS exits with WANT, its output in
# NAME.out and NAME.err (stderr shown when the status is not WANT)
status() {
	s_want=$1 s_name=$2
	shift 2
	"$OPARCHIVE" "$@" >"$s_name.out" 2>"$s_name.err"
	s_rc=$?
	if test "$s_rc" != "$s_want"; then
		say "exit status $s_rc, expected $s_want; its stderr:"
		sed 's/^/#   /' "$s_name.err"
	fi
	test "$s_rc" = "$s_want"
}
no_tmp() {	# DIR: no temporary file below it
	test -z "$(find "$1" -name '*.tmp' | head -n 1)"
}

# --- the workload ---------------------------------------------------------
mkdir bin
B=$T_REAL/bin
cat >bin/hot.c <<'EOF'
#include "burn.h"
NOINLINE uint64_t lib_hot(uint64_t x) { return burn(150, x); }
EOF
cat >bin/prog.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "burn.h"
uint64_t lib_hot(uint64_t x);
/* time in libc too, so that libc has samples of its own */
static void in_libc(void)
{
	size_t len = 16 << 20;
	char *p = malloc(len);
	int i;

	for (i = 0; p && i < 40; i++)
		memset(p, i, len);
	printf("%d\n", p ? p[len / 2] : 0);
	free(p);
}
NOINLINE static uint64_t prog_hot(uint64_t x) { return burn(VARIANT, x); }
int main(void)
{
	uint64_t x = 7;
	x = prog_hot(x);
	x = lib_hot(x);
	in_libc();
	printf("%llx\n", (unsigned long long)x);
	return 0;
}
EOF
cat >bin/sprog.c <<'EOF'
#include <stdio.h>
#include "burn.h"
NOINLINE static uint64_t sprog_hot(uint64_t x) { return burn(200, x); }
int main(void)
{
	printf("%llx\n", (unsigned long long)sprog_hot(3));
	return 0;
}
EOF
build() {
	cd bin &&
	cc -O1 -g -I"$srcdir/workloads" -fPIC -shared -o libhot.so hot.c &&
	cc -O1 -g -I"$srcdir/workloads" -DVARIANT=250 -o prog prog.c \
		-L. -lhot -Wl,-rpath,"$B" &&
	cc -O1 -g -I"$srcdir/workloads" -o sprog sprog.c &&
	objcopy --only-keep-debug sprog sprog.debug &&
	strip --strip-all sprog &&
	objcopy --add-gnu-debuglink=sprog.debug sprog
} >build.log 2>&1
check 'build a program, its library, and a stripped program with a debug file' build ||
	{ sed 's/^/# /' build.log; done_testing; exit; }
S=$T_REAL/sess
check 'operf runs both programs' profile run -e cpu-clock -d sess sh -c "$B/prog && $B/sprog"
check 'opreport -l on the session' exits 0 before --session-dir=sess -l
check '... shows prog_hot, lib_hot and (from the debug file) sprog_hot' \
	sh -c 'grep -q " prog_hot$" before.out && grep -q " lib_hot$" before.out &&
	       grep -q " sprog_hot$" before.out'

# --- listing ----------------------------------------------------------------
check 'oparchive -l: exit 0' status 0 list --session-dir=sess -l
listed() { grep -qx "$1" list.out || { say "not listed: $1"; return 1; }; }
check '... lists the program' listed "$B/prog"
check '... its library' listed "$B/libhot.so"
check '... the stripped program and its debug file' \
	sh -c "grep -qx '$B/sprog' list.out && grep -qx '$B/sprog.debug' list.out"
check '... libc' grep -q '/libc\.so' list.out
check '... the session info and a sample file of prog' \
	sh -c "grep -qx '$S/samples/current/session.info' list.out &&
	       grep -q '^$S/samples/current/{root}$B/prog/{dep}/{root}$B/prog/cpu-clock\.' list.out"
check '... and copies nothing' test ! -e arch
check 'oparchive -l -x: exit 0' status 0 listx --session-dir=sess -l -x
check '... lists the programs' sh -c "grep -qx '$B/prog' listx.out && grep -qx '$B/sprog' listx.out"
check '... but not libc, nor the library' sh -c "! grep -q 'libc\.so\|libhot' listx.out"
check '... nor their sample files' sh -c "! grep -q '{dep}/{root}.*libc' listx.out"

cp -r sess/samples/current sess/samples/saved
check 'session:saved: exit 0' status 0 sel --session-dir=sess -l session:saved
check '... lists that session, the other files included' \
	grep -qx "$S/samples/saved/session.info" sel.out
check '... and nothing of current' sh -c "! grep -q '/samples/current/' sel.out"
rm -rf sess/samples/saved

# --- the archive read back ----------------------------------------------------
check 'oparchive -o arch: exit 0' status 0 arch --session-dir=sess -o arch
check '... no progress line on a pipe' sh -c '! grep -q "archiving:" arch.err'
check '... says which --session-dir to read it with' \
	grep -q "^read it with: opreport archive:arch --session-dir=$S$" arch.err
check '... the binaries at their paths' \
	sh -c "test -x 'arch$B/prog' && test -s 'arch$B/libhot.so' && cmp -s bin/prog 'arch$B/prog'"
check '... the debug file in .debug/ beside its binary' cmp -s bin/sprog.debug "arch$B/.debug/sprog.debug"
check '... the session below its path' test -s "arch$S/samples/current/session.info"
check '... the abi file' test -s "arch$S/abi"
check '... and no temporary file' no_tmp arch
mkdir away
mv bin sess away/
check 'with the binaries and the session moved away, opreport archive: exit 0' \
	exits 0 after "archive:arch" --session-dir="$S" -l
# the notes name the file read: the archive's copy (no dpkg package then)
same_report() {
	grep -v '^Note: ' before.out >before.rows
	grep -v '^Note: ' after.out >after.rows
	test "$(wc -l <after.rows)" -gt 5 && compare before.rows after.rows
}
check '... gives the same opreport -l (symbols and counts)' same_report
check '... sprog_hot included (from the archived debug file)' grep -q ' sprog_hot$' after.out
if command -v objdump >/dev/null 2>&1; then
	ann_arch() {
		"$top_builddir/pp/opannotate" archive:arch --session-dir="$S" \
			--assembly "lib-image:$B/prog" >ann.out 2>ann.err
	}
	check 'opannotate --assembly on the archive: exit 0' ann_arch
	check '... annotates prog_hot' grep -q 'prog_hot' ann.out
else
	skip 'opannotate on the archive' 'objdump is not installed'
fi
mv away/bin away/sess .

# --- binaries left out --------------------------------------------------------
cp bin/prog prog.orig
rebuild() {
	cd bin && cc -O1 -g -I"$srcdir/workloads" -DVARIANT=260 -o prog prog.c \
		-L. -lhot -Wl,-rpath,"$B"
}
check 'rebuild prog (another build-id)' rebuild
mv bin/libhot.so libhot.so.moved
check 'oparchive with prog rebuilt and libhot.so missing: exit 0' \
	status 0 partial --session-dir=sess -o arch2
check '... warns that prog is not the binary profiled' \
	grep -q "^oparchive: warning: '$B/prog' is not the binary that was profiled (build-id" partial.err
check '... and that libhot.so is missing' \
	grep -q "^oparchive: warning: cannot find binary '$B/libhot.so': not archived" partial.err
check '... archives neither' sh -c "test ! -e 'arch2$B/prog' && test ! -e 'arch2$B/libhot.so'"
check '... but the rest' sh -c "test -s 'arch2$B/sprog' && test -s 'arch2$S/samples/current/session.info'"
check '-p DIR finds the profiled build elsewhere' \
	sh -c "mkdir old && cp prog.orig old/prog && '$OPARCHIVE' --session-dir=sess -p old -o arch3 >p.out 2>p.err && cmp -s prog.orig 'arch3$B/prog'"
mv libhot.so.moved bin/libhot.so

ln -s /etc/passwd sess/samples/current/evil
check 'a symbolic link in the session: exit 0' status 0 link --session-dir=sess -o arch4
check '... warned about' grep -q "evil' is a symbolic link: not archived" link.err
check '... and not followed' test ! -e "arch4$S/samples/current/evil"
rm sess/samples/current/evil

# the vmlinux given to operf --vmlinux (any ELF file will do here)
cp bin/sprog.debug bin/vmlinux
check 'operf --vmlinux' profile kern -e cpu-clock --vmlinux="$B/vmlinux" -d ksess "$B/sprog"
if grep -q '([1-9][0-9]* kernel' kern.err; then
	check '... oparchive -l lists the vmlinux' \
		sh -c "'$OPARCHIVE' --session-dir=ksess -l 2>/dev/null | grep -qx '$B/vmlinux'"
else
	skip '... oparchive -l lists the vmlinux' 'no kernel samples in that run'
fi

# --- bad input ----------------------------------------------------------------
check 'no session: exit 1' status 1 nosess --session-dir=nosuch -o bad1
check '... saying so' grep -q "^oparchive: error: cannot use session directory" nosess.err
check '... nothing made' test ! -e bad1
check 'no -o: exit 2' status 2 noout --session-dir=sess
check '... saying so' grep -q "^oparchive: error: give the archive directory with --output-directory" noout.err
check 'an output directory inside the session: exit 2' \
	status 2 inside --session-dir=sess -o sess/samples/arch
check '... saying so' grep -q "^oparchive: error: the archive 'sess/samples/arch' is inside the session directory" inside.err
check '... nothing made' test ! -e sess/samples/arch
echo x >afile
check 'an output directory below a file: exit 1' status 1 notdir --session-dir=sess -o afile/arch
check '... saying so' grep -q "^oparchive: error: cannot make the archive directory 'afile/arch': Not a directory" notdir.err
check 'a differential: exit 2' status 2 diff --session-dir=sess -o bad2 '{' '}' '{' '}'
check '... nothing made' test ! -e bad2

# --- a full disk ----------------------------------------------------------------
if test "$(id -u)" = 0 && mkdir small && mount -t tmpfs -o size=1m tmpfs small 2>mount.err; then
	trap 'umount "$T/small" 2>/dev/null; cleanup' EXIT
	check 'a full disk: exit 1' status 1 full --session-dir=sess -o small/arch
	check '... naming the file and the reason' \
		grep -q "^oparchive: error: cannot write 'small/arch/.*': No space left on device" full.err
	check '... no temporary file left' no_tmp small
	whole() {	# every file archived equals its source
		n=0
		for f in $(cd small/arch && find . -type f); do
			n=$((n + 1))
			src=$(echo "/${f#./}" | sed 's|/\.debug/|/|')
			cmp -s "small/arch/$f" "$src" || { say "$f differs from $src"; return 1; }
		done
		say "$n whole files archived before the disk was full"
	}
	check '... and the files copied are whole' whole
	umount small
else
	skip 'a full disk' 'needs root and a small tmpfs'
fi

# --- a signal mid-copy ----------------------------------------------------------
# a 1 GiB file (sparse) in the session takes long enough to copy for a
# SIGTERM to land while it is half-written (SIGINT: a background job of a
# script ignores it)
if test "$(id -u)" = 0 && mkdir big && mount -t tmpfs -o size=2g tmpfs big 2>mount.err; then
	trap 'umount "$T/big" 2>/dev/null; cleanup' EXIT
	mkdir -p sess/samples/current/jit
	truncate -s 1G sess/samples/current/jit/big
	"$OPARCHIVE" --session-dir=sess -o big/arch >sig.out 2>sig.err &
	spid=$!
	kill_at_exit $spid
	if wait_until 20 sh -c "test -n \"\$(find big/arch -name big.tmp 2>/dev/null)\" ||
				! kill -0 $spid 2>/dev/null"; then
		kill -TERM $spid 2>/dev/null
	fi
	wait $spid
	src=$?
	if test "$src" != 0; then
		check 'SIGTERM mid-copy: exit 1' test "$src" = 1
		check '... saying so' grep -q '^oparchive: error: stopped by signal 15: ' sig.err
		check '... no .tmp left' no_tmp big
		check '... nor the file being copied' test -z "$(find big/arch -name big)"
	else
		skip 'SIGTERM mid-copy' 'the copy ended before the signal came'
	fi
	rm -f sess/samples/current/jit/big
	umount big
else
	skip 'SIGTERM mid-copy' 'needs root and a tmpfs'
fi

# --- progress on a terminal -----------------------------------------------------
if command -v script >/dev/null 2>&1; then
	tty_run() {
		script -qec "'$OPARCHIVE' --session-dir=sess -o arch5" /dev/null >tty.out 2>&1
	}
	check 'on a terminal: exit 0' tty_run
	# redrawn in place (carriage returns), ending at every file and byte
	check '... a progress line, redrawn in place, ending with every file' \
		sh -c "tr '\\r' '\\n' <tty.out |
		       grep -q '^archiving: \\([0-9][0-9]*\\)/\\1 files, \\([0-9.]*\\)/\\2 MiB\$'"
	check '... one line on the terminal, not one a file' \
		test "$(grep -c 'archiving:' tty.out)" = 1
else
	skip 'progress on a terminal' 'script (util-linux) is not installed'
fi
done_testing
