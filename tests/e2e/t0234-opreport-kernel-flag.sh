#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A sample-file header whose is_kernel flag contradicts its image: the
# flag on a user binary (the program itself, or a library), no flag on a
# {kern} image, the flag on anonymous memory.  opreport and opannotate
# warn once, naming the sample file and the image, and read the samples
# as the image's kind says; a kernel image given as a path (a vmlinux,
# which has no interpreter and needs no library) keeps its flag quietly
# (oprofile-ng-formats(5), SAMPLE FILES: the header).
. "$top_srcdir/tests/lib.sh"
use_fixtures

for s in basic callgraph threads; do
	check "mksamples.py writes the $s session" mksession $s
done
cur=samples/current
# the plain sample file of session $1 under image part $2 (a find -path)
file_of() {
	(cd "out/$1/$cur" && find . -type f -path "$2" ! -path '*{cg}*' | sed 's|^\./||')
}
app_file=$(file_of basic '*fixture_nopie/{dep}/{root}*fixture_nopie/cpu*')
libc_file=$(file_of callgraph '*/{dep}/{root}/usr/lib/*libc.so.6/cpu*')
anon_file=$(file_of threads '*/{dep}/{anon:anon}/*')
check 'the sample files are found' test -n "$app_file" -a -n "$libc_file" -a -n "$anon_file"

# flag FROM TO FILE VALUE: session TO, FROM's with FILE's is_kernel (at
# offset 24 of its header) set to VALUE
flag() {
	corrupt_copy "out/$1" "$2" "$cur/$3" "struct.pack_into('<I', b, 24, $4)"
}
# warned NAME FILE IMAGE VERB KIND: NAME.err is exactly the one warning
warned() {
	printf "opreport: warning: sample file '%s' %s the kernel flag in its header, but its image '%s' is %s: the flag is ignored\n" \
		"T/tools/$2" "$4" "$3" "$5" | norm >"$1.want" &&
	norm "$1.err" >"$1.got" && compare "$1.want" "$1.got"
}

# --- the flag on the program itself ------------------------------------------
flag basic kapp "$app_file" 1
check '-l on the session as written' exits 0 plain --session-dir=out/basic -l
check 'the program flagged as a kernel image: exit 0' exits 0 kapp --session-dir=kapp -l
check '... warned once, naming the file and the binary' \
	warned kapp "kapp/$cur/$app_file" T/tools/fixtures/build/fixture_nopie has \
	'a user-space binary'
check '... its symbols as if unflagged' compare plain.out kapp.out
check '... the summary warns too' exits 0 kapps --session-dir=kapp
check '... once' warned kapps "kapp/$cur/$app_file" T/tools/fixtures/build/fixture_nopie has \
	'a user-space binary'
check '... once in a differential profile of it against itself' \
	exits 0 kappd --session-dir=kapp -l '{' '}' '{' '}'
check '... (the one line)' warned kappd "kapp/$cur/$app_file" \
	T/tools/fixtures/build/fixture_nopie has 'a user-space binary'
check '... -q: no warning' sh -c '"$0" --session-dir=kapp -l -q >q.out 2>q.err && test ! -s q.err' \
	"$OPREPORT"
ann_flag() {
	ann_exits 0 kann --session-dir=kapp -a &&
	grep -c "^opannotate: warning: sample file '.*' has the kernel flag in its header" kann.err >kann.nr &&
	test "$(cat kann.nr)" = 1 && grep -q 'compute_alpha' kann.out
}
check 'opannotate warns once too, and annotates' ann_flag

# --- the flag on a library (its ELF needs an interpreter or libraries) ----
flag callgraph klib "$libc_file" 1
check '-l on the callgraph session as written' exits 0 cgplain --session-dir=out/callgraph -l
check 'libc flagged as a kernel image: exit 0' exits 0 klib --session-dir=klib -l
check '... warned once' warned klib "klib/$cur/$libc_file" \
	/usr/lib/x86_64-linux-gnu/libc.so.6 has 'a user-space binary'
check '... its symbols as if unflagged' compare cgplain.out klib.out

# --- no flag on a {kern} image -------------------------------------------------
cat >fixtures/kern.json <<'EOF'
{"cpu_type": "i386/skylake",
 "profiles": [
  {"binary": "build/fixture_nopie", "symbol_samples": {"compute_alpha": 10}},
  {"binary": "no-vmlinux", "app": "build/fixture_nopie", "kernel": true,
   "samples": {"0xffffffff81000000": 3}}]}
EOF
check 'mksamples.py writes a session with kernel samples' mksession kern
kern_file=$(file_of kern '*/{dep}/{kern}/no-vmlinux/cpu*')
check '... in {kern}/no-vmlinux' test -n "$kern_file"
flag kern nokflag "$kern_file" 0
check 'a {kern} image without the flag: exit 0' exits 0 nokflag --session-dir=nokflag
check '... warned once' warned nokflag "nokflag/$cur/$kern_file" no-vmlinux lacks \
	'a kernel image'
check '... its samples still the kernel'"'"'s' grep -q '^	        3 23.0769 no-vmlinux$' nokflag.out

# --- the flag on anonymous memory ---------------------------------------------
flag threads kanon "$anon_file" 1
check 'anonymous memory flagged as a kernel image: exit 0' \
	exits 0 kanon --session-dir=kanon --merge=all
check '... warned once' warned kanon "kanon/$cur/$anon_file" anon has 'anonymous memory'

# --- a kernel image given as a path keeps its flag ------------------------------
kernel_image() {
	printf 'void _start(void)\n{\n\tfor (;;)\n\t\t;\n}\n' >fixtures/kimage.c &&
	cc -nostdlib -static -fno-pie -no-pie -o fixtures/build/vmlinux fixtures/kimage.c &&
	cat >fixtures/kpath.json <<'EOF' &&
{"cpu_type": "i386/skylake",
 "profiles": [
  {"binary": "build/fixture_nopie", "symbol_samples": {"compute_alpha": 10}},
  {"binary": "build/vmlinux", "app": "build/fixture_nopie", "kernel": true,
   "samples": {"0x10": 2}}]}
EOF
	mksession kpath &&
	exits 0 kpath --session-dir=out/kpath -l &&
	! grep 'kernel flag' kpath.err
}
check 'a vmlinux-like file with the flag: no warning' kernel_image

done_testing
