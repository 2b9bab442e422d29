#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every text mode of opreport against OProfile 1.4's output, on
# mksamples.py sessions over the fixture binaries: the summary, -l, -d,
# -c (with -g, -w, -a, -t, -r, -x), -g, -a, -%, -w, -f, -n, -t, -s, -r,
# -x, -i/-e, --merge=lib, -X, -o, and -D on a C++ program.  Each golden is OProfile 1.4's report body on
# the same session (tests/e2e/golden/README says how each was made); the
# header lines differ by design and t0240 checks them.  The goldens hold T
# for the test directory and {name} for the address of each symbol (the
# compiler places symbols; the spec places the other samples).
#
# Where our report differs from OProfile's by design (opreport(1) says
# so), the check says which difference: a named filter applies it to
# OProfile's golden.
. "$top_srcdir/tests/lib.sh"
use_fixtures

# an application with the PIE build as its "library", and that build as
# an application of its own; a call graph inside the PIE build only
cat >fixtures/multi.json <<'EOF'
{"cpu_type": "i386/skylake", "cpu_speed": 2400.0,
 "profiles": [
  {"binary": "build/fixture_nopie",
   "symbol_samples": {"compute_alpha": 300, "compute_beta": 120, "main": 4},
   "samples_vma": {"0x401170": 6},
   "callgraph": [
     {"from_symbol": "main", "to_symbol": "compute_alpha", "count": 20},
     {"from_symbol": "main", "to_binary": "build/fixture_pie",
      "to_symbol": "run_all", "count": 7}]},
  {"binary": "build/fixture_pie", "app": "build/fixture_nopie",
   "symbol_samples": {"compute_gamma": 50, "run_all": 8}},
  {"binary": "build/fixture_pie",
   "symbol_samples": {"compute_alpha": 200, "helper_delta": 30, "main": 2}}]}
EOF
cat >fixtures/cg.json <<'EOF'
{"cpu_type": "i386/skylake", "cpu_speed": 2400.0,
 "profiles": [
  {"binary": "build/fixture_pie",
   "symbol_samples": {"compute_alpha": 1000, "compute_beta": 500,
                      "compute_gamma": 200, "run_all": 10, "main": 5},
   "callgraph": [
     {"from_symbol": "main", "to_symbol": "run_all", "count": 50},
     {"from_symbol": "run_all", "to_symbol": "compute_alpha", "count": 40},
     {"from_symbol": "run_all", "to_symbol": "compute_beta", "count": 30},
     {"from_symbol": "run_all", "to_symbol": "helper_delta", "count": 4},
     {"from_symbol": "compute_gamma", "to_symbol": "compute_alpha", "count": 12}]}]}
EOF
for s in basic multi cg; do
	check "mksamples.py writes the $s session" mksession $s
done

check 'the symbol addresses of the fixtures are known' symbol_addrs
GOLDEN=t0215

# The differences applied to OProfile's reports, each a filter:
#
# smart_std: -D smart drops std:: as OProfile 1.4 does, and __cxx11::
# as well, which OProfile's rules (older than that namespace) keep
smart_std() {
	sed -e 's/__cxx11:://g'
}

check 'default: the image summary' mode summary basic
check 'default with dependent images: each nested under its app' mode summary-multi multi
check '-l: symbols, no image column for one image' mode l basic -l
check '-l: image and app columns with several of each' mode l-multi multi -l
check '-d: each address under its symbol, % of the symbol' mode d basic -d
check '-d -%: detail % of the whole profile' mode d-global basic -d -%
check '-%: dependent images in % of the whole profile' mode global multi -%
check '-g: source file and line of each symbol' mode g basic -l -g
check '-d -g: and of each address' mode dg basic -d -g
check '-l -a: running totals' mode a multi -l -a
check '-a alone is -l -a (OProfile 1.4 refuses -a without -l)' vs a-alone multi '-l -a' cat -a
check '-l -w: the vma column' mode w basic -l -w
check '-w alone is -l -w (OProfile 1.4 refuses -w without -l)' vs w-alone basic '-l -w' cat -w
check '-f: full paths in the summary' mode f multi -f
check '-f -l: full paths of images and apps' mode f-l multi -f -l
check '-n: no header lines' mode n multi -l -n
check '-n: no header lines in the summary either' mode n-summary multi -n
check '-t 10: only symbols with 10% or more' mode t basic -l -t 10
check '-t 35: applications under 35% leave the summary' mode t-summary multi -t 35
check '-s symbol: by shown name' mode s-symbol multi -l -s symbol
check '-s image,sample: by image name, then samples' mode s-image multi -l -s image,sample
check '-s app-name,vma: by app, then address' mode s-app multi -l -w -s app-name,vma
check '-s debug: by source file and line' mode s-debug basic -l -g -s debug
check '-s image: ties by samples, then app and name' mode s-image-only multi -l -s image
check '-s app-name: ties by samples, then image and name' mode s-app-only multi -l -s app-name
check '-r: least samples first' mode r basic -l -r
check '-r -s symbol: names backwards' mode r-symbol basic -l -r -s symbol
check '-x: the summary without dependent images' mode x multi -x
check '-x -l: and without their symbols (no image column)' mode x-l multi -x -l
check '--merge=lib: images on their own, summed over apps' mode lib multi --merge=lib
check '--merge=lib -l: one name column' mode lib-l multi --merge=lib -l

# -i and -e take globs and demangled names (opreport(1)); OProfile 1.4
# takes literal raw names, which the oracle is given instead.  The shares
# are of the selected symbols' samples, as OProfile's.
check '-i: only the listed symbols and globs' \
	vs i basic '-l -i compute_alpha,compute_beta,compute_gamma,main' \
	cat -l -i 'compute_*,main'
check '-e: all but the listed symbols and globs' \
	vs e basic '-l -e compute_alpha,compute_beta,helper_delta' \
	cat -l -e 'compute_[ab]*,helper_delta'
check '-i and -e together' \
	vs ie basic '-l -i compute_alpha,compute_beta,compute_gamma -e compute_beta' \
	cat -l -i 'compute_*' -e compute_beta
check '-c: callers, the symbol, callees and [self]' mode c cg -c
check '-c -%: caller and callee % of the whole profile' mode c-global cg -c -%
check '-c -t 20: only blocks of symbols with 20%' mode c-t cg -c -t 20
check '-c -i run_all: one block' vs c-i cg = cat -c -i run_all
check '-c with a callee in a dependent image' mode c-multi multi -c
check '-c -g: the linenr info column of every line' mode c-g cg -c -g
check '-c -w: the vma column of every line' mode c-w cg -c -w
check '-c -a: cumulative samples and % of every line' mode c-a cg -c -a
check '-c -g -w -a together' mode c-gwa cg -c -g -w -a
check '-c -r: the blocks backwards, callers and callees by count' mode c-r cg -c -r
check '-c -x: no entries and no calls of dependent images' mode c-x multi -c -x

# -X: the XML of OProfile 1.4, byte for byte
check '-X: the symbols of one image' mode X basic -X
check '-X -l: several applications and images' mode X-multi multi -X -l
check '-X -t 10: only symbols with 10% or more' mode X-t basic -X -t 10
check '-X -x: without dependent images' mode X-x multi -X -x
check '-X -c: callers and callees, symbol ids in the order of OProfile 1.4' mode X-c cg -X -c

# -c's section after OProfile's blocks (left out of the goldens above):
# without a stack file, a symbol's total is its own samples plus its calls'
inclusive_from_arcs() {
	exits 0 inc --session-dir=out/cg -c &&
	grep -q '^Note: self and total samples per symbol, after the blocks, come from the call-graph arcs' inc.out &&
	awk '/^Self and total samples per symbol, from the call-graph arcs/ { on = 1; next }
	     on && $1 ~ /^[0-9]+$/ { print $NF, $1, $3 }' inc.out >inc.got &&
	cat >inc.want <<'EOF2' &&
compute_alpha 1000 1000
compute_beta 500 500
compute_gamma 200 212
run_all 10 84
main 5 55
EOF2
	compare inc.want inc.got
}
check '-c: self and total per symbol from the arcs, after the blocks' inclusive_from_arcs

# -o: the same report in the file, nothing on stdout; a FILE that exists,
# longer than the report, is replaced (truncated), not overwritten in place
to_file() {
	exits 0 o --session-dir=out/multi -l -o report.txt &&
	test ! -s o.out && opr o2 --session-dir=out/multi -l &&
	compare o2.out report.txt
}
check '-o FILE: the report goes to FILE' to_file
replaced() {
	rm -f report.txt && {
		echo 'an older, longer report'
		cat o2.out o2.out
	} >report.txt &&
	to_file
}
check '-o FILE: an existing longer FILE is replaced' replaced
o_fail() {
	exits 1 ofail --session-dir=out/multi -o nodir/report.txt &&
	printf '%s\n' "opreport: error: cannot write 'nodir/report.txt': No such file or directory" >ofail.want &&
	compare ofail.want ofail.err
}
check '-o into a missing directory: exit 1 and why' o_fail

# -D on a C++ program: names from its .symtab, mangled as compiled
cxx() {
	mkdir -p fixtures/cxx && cat >fixtures/cxx/prog.cc <<'EOF' &&
#include <map>
#include <string>
#include <vector>
namespace ns {
struct Widget {
	__attribute__((noinline)) long spin(long n);
};
long Widget::spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i;
	return s;
}
__attribute__((noinline)) long total(const std::vector<std::string> &v,
				     const std::map<std::string, int> &m)
{
	return (long)v.size() + (long)m.size();
}
}
int main()
{
	ns::Widget w;
	std::vector<std::string> v;
	std::map<std::string, int> m;
	return (int)(w.spin(10) + ns::total(v, m)) & 1;
}
EOF
	g++ -O1 -g -o fixtures/cxx/prog fixtures/cxx/prog.cc &&
	cat >fixtures/cxx.json <<'EOF' &&
{"cpu_type": "i386/skylake",
 "profiles": [{"binary": "cxx/prog", "symbol_samples": {
  "_ZN2ns6Widget4spinEl": 40,
  "_ZN2ns5totalERKSt6vectorINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESaIS6_EERKSt3mapIS6_iSt4lessIS6_ESaISt4pairIKS6_iEEE": 20,
  "main": 5}}]}
EOF
	mksession cxx
}
if command -v g++ >/dev/null 2>&1 && cxx >cxx.log 2>&1; then
	spin=_ZN2ns6Widget4spinEl
	total=_ZN2ns5totalERKSt6vectorINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESaIS6_EERKSt3mapIS6_iSt4lessIS6_ESaISt4pairIKS6_iEEE
	check '-D none: names as in the binary' mode D-none cxx -l -D none
	check '-D normal (the default): demangled' mode D-normal cxx -l
	check '-D smart: std::string and friends shortened (spelling: stated above)' \
		vs D-smart cxx = smart_std -l -D smart
	check '-i takes a demangled name' \
		vs D-i cxx "-l -n -i $spin" cat -l -n -i 'ns::Widget::spin(long)'
	check '-i takes a mangled name' \
		vs D-i-raw cxx = cat -l -n -i "$spin"
	check '-e takes a glob over demangled names' \
		vs D-e cxx "-l -n -e $spin,$total" cat -l -n -e 'ns::*'
	check '-s symbol sorts by the shown name' \
		vs D-sort cxx = smart_std -l -n -D smart -s symbol
else
	sed 's/^/# /' cxx.log 2>/dev/null
	skip '-D none|normal|smart on a C++ program' 'no g++ to build one'
fi
done_testing
