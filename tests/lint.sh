#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The house rules, checked by machine (make lint; make test runs it too):
#   scripts      shellcheck on every shell script, warnings and errors
#                (silenced inline with the reason, by a disable directive)
#   C            cppcheck on the user-space C, warning and portability
#                classes (silenced inline with the reason: cppcheck-suppress)
#   file size    no source file over 800 lines
#   function     no C function over 120 lines, declarator to closing brace
#   includes     no tool includes another tool's files
# Each finding is one line, FILE:LINE: why. Takes about 15 s.
#
#   tests/lint.sh [FILE...]   only these files (default: all tracked ones)
. tests/lib.sh

MAX_FILE=800
MAX_FUNC=120

if [ $# -gt 0 ]; then
	files=$*
else
	files=$(git ls-files 2>/dev/null) ||
		{ echo "FAIL: not a git checkout: lint reads the files git tracks"; exit 1; }
fi
# The files matching an extended regex; lib/vmlinux/ is generated (make
# vmlinux-h), not written here.
# shellcheck disable=SC2086 # file names hold no spaces (the file-size check says so)
pick() { printf '%s\n' $files | grep -E "$1" | grep -v '^lib/vmlinux/'; }

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
		-D_GNU_SOURCE -Ilib --include=tests/lint-cppcheck.h \
		--template='{file}:{line}: cppcheck {severity} ({id}): {message}' \
		$c_files >"$T/cc" 2>&1
	if [ -s "$T/cc" ]; then
		cat "$T/cc"
		fail "cppcheck: $(wc -l <"$T/cc") finding(s)"
	else
		pass "cppcheck: $(echo $c_files | wc -w) files clean"
	fi
fi

# Sizes: the files, then each function from its declarator's first line
# to the brace at column 0 that closes it (the project's style puts a
# function's braces at column 0 and nothing else's).
src_files=$(pick '\.(c|h|sh|bash|mk)$|^Makefile$')
before=$fails
for f in $src_files; do
	case $f in *' '*) fail "$f: a space in a file name"; continue ;; esac
	n=$(wc -l <"$f")
	[ "$n" -le $MAX_FILE ] || fail "$f:1: $n lines, over $MAX_FILE: split it by concern"
done
# shellcheck disable=SC2046 # a list of file names
awk -v max=$MAX_FUNC '
FNR == 1 { decl = 0; body = 0 }
/^\{/ { body = decl; next }
/^\}/ && body {
	n = FNR - body + 1
	if (n > max)
		printf "%s:%d: %s(): %d lines, over %d: split it\n", FILENAME, body, name, n, max
	body = 0; next
}
!body && /^[A-Za-z_]/ && !/^#/ {
	decl = FNR; name = $0
	sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
}' $(pick '\.[ch]$') >"$T/fn"
while IFS= read -r line; do
	fail "$line"
done <"$T/fn"

# A tool uses lib/ and its own folder, never another tool's files.
for f in $(pick '^(framebench|frametrace|gamesuite|lavd|vm)/.*\.[ch]$'); do
	grep -n '#include "\.\./' "$f" | while IFS=: read -r ln _; do
		echo "FAIL: $f:$ln: includes another folder's file: move what both use into lib/"
	done
done >"$T/inc"
[ ! -s "$T/inc" ] || { cat "$T/inc"; fails=$((fails + $(wc -l <"$T/inc"))); }
for mk in $(pick '^(framebench|frametrace|gamesuite|lavd|vm)/module\.mk$'); do
	tool=${mk%/module.mk}
	for other in framebench frametrace gamesuite lavd; do
		[ "$other" != "$tool" ] || continue
		grep -n -- "-I$other\b" "$mk" | while IFS=: read -r ln _; do
			echo "FAIL: $mk:$ln: compiles against $other's headers: move what both use into lib/"
		done
	done
done >"$T/inc"
[ ! -s "$T/inc" ] || { cat "$T/inc"; fails=$((fails + $(wc -l <"$T/inc"))); }
[ $fails -ne $before ] || pass "sizes and includes: files <= $MAX_FILE lines, functions <= $MAX_FUNC"

finish lint
