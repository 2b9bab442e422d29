#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Processes in another mount namespace (unshare -m, as in a container):
# the path in their mmap records is the path they see, which here names
# another file.  operf names their binaries by the path of the same file
# here: a file bind-mounted over an empty file, a directory bound over
# one holding an empty decoy, the same recorded with --lazy-conversion
# (fixed while recording, as the replay has no processes to ask), and a
# program in an overlay mounted only in the namespace (named by its
# layer).  opreport then finds each binary and names its hot function,
# and nothing is left under the path the process saw.
. "$top_srcdir/tests/lib.sh"
test "$(id -u)" = 0 || skip_all "needs root for mount namespaces and bind mounts"
command -v unshare >/dev/null 2>&1 || skip_all "unshare (util-linux) is not installed"
unshare -m --propagation private true 2>unshare.err ||
	skip_all "unshare -m is refused here: $(head -n 1 unshare.err)"
: >probe.src && : >probe.dst &&
unshare -m --propagation private mount --bind probe.src probe.dst 2>mount.err ||
	skip_all "cannot bind-mount in a mount namespace here: $(head -n 1 mount.err)"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"

# the real binaries, and what their in-namespace paths name here
mkdir real target realdir view lower upper work merged || exit 99
cp "$WORKLOADS/split" real/prog && cp "$WORKLOADS/split" realdir/prog2 &&
	cp "$WORKLOADS/split" lower/prog3 || exit 99
: >target/prog && : >view/prog2 || exit 99
real=$T_REAL/real/prog
seen=$T_REAL/target/prog

# ns NAME OPERF-OPTIONS... -- SCRIPT ARGS...: operf OPTIONS -d NAME on
# unshare -m sh -c SCRIPT with ARGS as $1..., NAME.out and NAME.err
ns() {
	n_name=$1; shift
	n_opts=
	while test "$1" != --; do
		n_opts="$n_opts $1"
		shift
	done
	shift
	n_script=$1; shift
	# shellcheck disable=SC2086
	operf $n_opts -d "$n_name" -- unshare -m --propagation private \
		sh -c "$n_script" sh "$@" >"$n_name.out" 2>"$n_name.err"
}
bind_exec='mount --bind "$1" "$2" && exec "$2"'

# report SESSION: opreport -l -f, in SESSION.rep and SESSION.rep.err
report() {
	"$OPREPORT" --session-dir="$1" -l -f >"$1.rep" 2>"$1.rep.err"
}
# samples_of SESSION IMAGE: the samples of IMAGE in the report
samples_of() {
	awk -v p="$2" '$3 == p { n += $1 } END { print n + 0 }' "$1.rep"
}
# hot SESSION IMAGE: the symbol of IMAGE with the most samples
hot() {
	awk -v p="$2" '$3 == p { print $NF; exit }' "$1.rep"
}
# named SESSION IMAGE SEEN: IMAGE has the samples and split_three first,
# SEEN none, and opreport read IMAGE without a warning
named() {
	report "$1" || { sed 's/^/# /' "$1.rep.err"; return 1; }
	at_least "$(samples_of "$1" "$2")" 100 &&
	test "$(hot "$1" "$2")" = split_three &&
	test "$(samples_of "$1" "$3")" = 0 &&
	! grep -q 'cannot use the binary' "$1.rep.err" || {
		say "report of $1:"
		sed -n 's/^/#   /p' "$1.rep" "$1.rep.err" | head -n 20
		return 1
	}
}

check 'operf on a program bind-mounted over an empty file exits 0' \
	ns file -- "$bind_exec" "$real" "$seen"
check 'the program ran in the namespace' grep -q '^split: ' file.out
check '... its samples are under its path here, split_three named' \
	named file "$real" "$seen"
check '... the log counts the mapping given its path here' \
	grep -q '^  given their path here: [1-9]' file/samples/operf.log
check '... and none left with its own path' \
	grep -q '^  left with their own path (none found here): 0$' file/samples/operf.log

check 'operf on a directory bound over another exits 0' \
	ns dir -- 'mount --bind "$1" "$2" && exec "$2/prog2"' \
	"$T_REAL/realdir" "$T_REAL/view"
check '... its samples are under the path here, split_three named' \
	named dir "$T_REAL/realdir/prog2" "$T_REAL/view/prog2"

check 'operf --lazy-conversion on the bind-mounted program exits 0' \
	ns lazy --lazy-conversion -- "$bind_exec" "$real" "$seen"
check '... the recording was fixed: the path here, split_three named' \
	named lazy "$real" "$seen"

# an overlay only the namespace has: the file is in its lower layer
if unshare -m --propagation private mount -t overlay overlay \
	-o "lowerdir=$T_REAL/lower,upperdir=$T_REAL/upper,workdir=$T_REAL/work" \
	"$T_REAL/merged" 2>overlay.err; then
	check 'operf on a program in an overlay exits 0' \
		ns overlay -- 'mount -t overlay overlay -o "lowerdir=$1/lower,upperdir=$1/upper,workdir=$1/work" "$1/merged" && exec "$1/merged/prog3"' \
		"$T_REAL"
	check '... its samples are under its lower layer, split_three named' \
		named overlay "$T_REAL/lower/prog3" "$T_REAL/merged/prog3"
else
	skip 'a program in an overlay' "cannot mount an overlay here: $(head -n 1 overlay.err)"
fi

check 'nothing stayed mounted here' \
	sh -c "! grep -q '$T_REAL' /proc/self/mountinfo"
check 'the empty files here are still empty' \
	test ! -s target/prog -a ! -s view/prog2
done_testing
