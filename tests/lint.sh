#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The house rules, checked by machine (make lint; make test runs it too):
#   scripts      shellcheck on every shell script, warnings and errors
#                (silenced inline with the reason, by a disable directive)
#   C            cppcheck on the user-space C, warning and portability
#                classes (silenced inline with the reason: cppcheck-suppress)
#   file size    no source file over 700 lines
#   function     no C function over 100 lines, from the line of its name to
#                its closing brace, wherever its opening brace stands
#                (tests/lint_c.awk reads the C past comments and strings)
#   includes     no tool (nor lib/) includes another tool's files, however
#                the #include is spelt (tests/lint_c.awk resolves each); no
#                tool's file climbs out of its folder ("../": a room names
#                another's header from the tool's folder); no include circle
#   build        no tool is compiled with another tool's folder on its
#                include path nor linked with another tool's objects, in
#                whichever makefile the flag is set: read from the commands
#                make would run (make -n -B programs; tests/lint_build.awk)
#   BPF          lavd's scheduler has at most MAX_BPF_PROGS programs (SEC()
#                sections that are programs, in lavd.bpf.c and the headers
#                it includes), and no for/while loop in lavd's BPF is bounded by
#                the CPU or domain count: those are bpf_loop() callbacks
#                (docs/lavd.md, Memory and load cost). The verifier's
#                count of instructions per program cannot be read
#                statically: the VM test's verifier phase holds it under
#                its budget (docs/vm.md)
# Each finding is one line, FILE:LINE: why. Takes about 15 s.
#
#   tests/lint.sh [-C DIR] [FILE...]
#     -C DIR   lint the tree at DIR (default: this repository); FILEs are
#              relative to it
#     FILE     only these files (default: every file git tracks, and the
#              untracked ones it does not ignore); the build rules run
#              when the list holds the Makefile or a module.mk
# tests/lint_selftest.sh shows each rule failing on a fixture.
here=$(cd "$(dirname "$0")" && pwd) || exit 1
# shellcheck source=tests/lib.sh
. "$here/lib.sh"

MAX_FILE=700
MAX_FUNC=100
# lavd's programs today: 14 sched_ext callbacks, 13 optional futex probes,
# 2 tracepoints; each is verified at load, and load time is mostly the
# verifier's
MAX_BPF_PROGS=32

if [ "${1-}" = -C ]; then
	[ $# -ge 2 ] || { echo "lint: -C wants a directory"; exit 2; }
	cd "$2" || exit 2
	shift 2
fi
if [ $# -gt 0 ]; then
	files=$*
else
	# (sorted once: during a merge git lists a conflicted file thrice)
	files=$({ git ls-files && git ls-files --others --exclude-standard; } | sort -u) ||
		{ echo "FAIL: not a git checkout: lint reads the files git tracks"; exit 1; }
fi
# The files matching an extended regex; lib/vmlinux/ is generated (make
# vmlinux-h), not written here.
# shellcheck disable=SC2086 # file names hold no spaces (the file-size check says so)
pick() { printf '%s\n' $files | grep -E "$1" | grep -v '^lib/vmlinux/'; }
# findings() FILE: each line of FILE is one failed check
findings() {
	[ ! -s "$1" ] || { cat "$1"; fails=$((fails + $(wc -l <"$1"))); }
}

for tool in shellcheck cppcheck; do
	command -v $tool >/dev/null 2>&1 ||
		{ echo "FAIL: $tool missing: scripts/deps.sh installs it"; exit 1; }
done

# The shell scripts: *.sh, the sourced libraries and plans (which say
# their shell with a directive), CI's entry and the bash completions.
sh_files=$(pick '\.sh$|^\.ci/run$')
bash_files=$(pick '^completion/.*\.bash$')
# shellcheck disable=SC2086 # lists of file names
if [ -n "$sh_files$bash_files" ]; then
	{
		[ -z "$sh_files" ] || shellcheck -S warning -f gcc $sh_files
		[ -z "$bash_files" ] || shellcheck -s bash -S warning -f gcc $bash_files
	} >"$T/sc" 2>&1
	n=$(grep -c ': \(warning\|error\):' "$T/sc")
	if [ "$n" -gt 0 ]; then
		cat "$T/sc"
		fail "shellcheck: $n finding(s)"
	else
		pass "shellcheck: $(echo $sh_files $bash_files | wc -w) scripts clean"
	fi
fi

# User space C (the BPF programs are clang's, with -Wall -Werror).
# tests/lint-cppcheck.h tells cppcheck the macros it cannot see.
c_files=$(pick '\.c$' | grep -v '\.bpf\.c$')
if [ -n "$c_files" ]; then
	# shellcheck disable=SC2086 # a list of file names
	cppcheck -q --std=c11 -j2 --enable=warning,portability --inline-suppr \
		-D_GNU_SOURCE -Ilib --include="$here/lint-cppcheck.h" \
		--template='{file}:{line}: cppcheck {severity} ({id}): {message}' \
		$c_files >"$T/cc" 2>&1
	if [ -s "$T/cc" ]; then
		cat "$T/cc"
		fail "cppcheck: $(wc -l <"$T/cc") finding(s)"
	else
		pass "cppcheck: $(echo $c_files | wc -w) files clean"
	fi
fi

before=$fails
# Sizes of the files.
for f in $(pick '\.(c|h|sh|bash|mk|awk)$|^Makefile$'); do
	case $f in *' '*) fail "$f: a space in a file name"; continue ;; esac
	n=$(wc -l <"$f")
	[ "$n" -le $MAX_FILE ] || fail "$f:1: $n lines, over $MAX_FILE: split it by concern"
done

# Functions and includes (one pass of the C reader).
c_all=$(pick '\.[ch]$')
if [ -n "$c_all" ]; then
	# shellcheck disable=SC2086 # a list of file names
	awk -v max_func=$MAX_FUNC -f "$here/lint_path.awk" -f "$here/lint_c.awk" $c_all >"$T/c" 2>&1
	sed 's/^/FAIL: /' "$T/c" >"$T/cf"
	findings "$T/cf"
fi

# The build: what make would run, read as the compiler reads it.
mk_files=$(pick '(^|/)(Makefile|module\.mk)$')
if [ -n "$mk_files" ] && [ -f Makefile ]; then
	if ! make -n -B programs BUILD=build >"$T/dry" 2>&1; then
		sed 's/^/  /' "$T/dry"
		fail "Makefile: make -n programs fails: the build rules cannot be read"
	fi
	awk -v root="$(pwd -P)" -f "$here/lint_path.awk" -f "$here/lint_build.awk" "$T/dry" | sort -u >"$T/b"
	# each finding at the makefile line that sets it, else at the source
	while IFS='|' read -r tool what why; do
		case $why in
		compiled*) pat="(-I|-iquote|-isystem|-idirafter|--include-directory|-include|-imacros)[= ]*[^ ]*\\b$tool\\b" ;;
		*) pat="^\\\$\\(BUILD\\)/${what##*/}[ :]" ;;
		esac
		# shellcheck disable=SC2086 # a list of file names
		at=$(grep -nE -- "$pat" $mk_files /dev/null | cut -d: -f1,2 | head -1)
		echo "FAIL: ${at:-$what:1}: $what $why"
	done <"$T/b" | sort -u >"$T/bf"
	findings "$T/bf"
fi

# lavd's BPF: the program count of lavd.bpf.c (with the lavd/ headers it
# includes, however deep) and the loops over CPUs and domains.
bpf_files=$(pick '^lavd/.*\.bpf\.(c|h)$')
if [ -n "$bpf_files" ]; then
	: >"$T/bpf"
	if [ -f lavd/lavd.bpf.c ]; then
		unit=lavd/lavd.bpf.c todo=lavd/lavd.bpf.c
		while [ -n "$todo" ]; do
			# shellcheck disable=SC2086 # a list of file names
			next=$(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/lavd\/\1/p' $todo |
				sort -u | while read -r h; do
					[ -f "$h" ] && ! printf '%s\n' $unit | grep -qxF "$h" && echo "$h"
				done)
			unit="$unit $next" todo=$next
		done
		# shellcheck disable=SC2086 # a list of file names
		n=$(cat $unit | grep -cE '^[ \t]*SEC[ \t]*\([ \t]*"[?]?[a-z]')
		[ "$n" -le $MAX_BPF_PROGS ] ||
			echo "FAIL: lavd/lavd.bpf.c:1: $n BPF programs, over $MAX_BPF_PROGS: each one is verified at load" >"$T/bpf"
	fi
	# shellcheck disable=SC2086 # a list of file names
	grep -nE '\b(for|while)[ \t]*\(.*\b(nr_cpu_ids|nr_doms|LAVD_MAX_CPUS|nr_cpus)\b' $bpf_files /dev/null |
		cut -d: -f1,2 | sed 's/$/: a loop bounded by the CPU or domain count: make its body a bpf_loop() callback/; s/^/FAIL: /' >>"$T/bpf"
	findings "$T/bpf"
fi
[ $fails -ne $before ] || pass "sizes, includes, build, BPF: files <= $MAX_FILE lines, functions <= $MAX_FUNC"

finish lint
