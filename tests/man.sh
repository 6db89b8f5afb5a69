#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The man pages (man/*.in, generated into $B/man/ by `make`): every option
# that a program's --help names (frametrace: its own --help and each
# command's) appears in its page; man(1) prints no warning on any page;
# each page has the sections a user looks for; no @PLACEHOLDER@ is left.
. tests/lib.sh

if command -v man >/dev/null 2>&1; then
	render() { MANWIDTH=200 man -l "$1" 2>/dev/null | col -b; }
elif command -v groff >/dev/null 2>&1; then
	render() { groff -man -Tascii -rLL=200n "$1" 2>/dev/null | col -b; }
else
	skip "neither man nor groff is installed (scripts/deps.sh installs man-db)"
fi

# opts_of PROG [COMMAND]: every -x / --name its --help mentions
opts_of() {
	"$@" --help 2>/dev/null |
		grep -oE -- '(^|[][ ,(|])--?[a-zA-Z][a-zA-Z0-9-]*' |
		sed 's/^[][ ,(|]//' | sort -u
}

# check_page PAGE PROG [COMMAND]...: the options of PROG's --help and of
# each "PROG COMMAND --help" are in PAGE
check_page() {
	page=$1 prog=$2
	shift 2
	[ -f "$page" ] || { fail "$page missing (make extras)"; return; }
	need "$B/$prog"
	render "$page" > "$T/page.txt"
	[ -s "$T/page.txt" ] || { fail "$page renders to nothing"; return; }
	n=0
	for cmd in "" "$@"; do
		for o in $(opts_of "$B/$prog" $cmd); do
			n=$((n + 1))
			grep -qE -- "(^|[^a-zA-Z0-9-])$o([^a-zA-Z0-9-]|\$)" "$T/page.txt" ||
				fail "$page: no $o (from $prog${cmd:+ $cmd} --help)"
		done
	done
	[ $n -gt 3 ] || fail "$prog: only $n options found in --help"
	for sec in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
		grep -q "^$sec" "$T/page.txt" || fail "$page: no $sec section"
	done
	grep -q '@[A-Z]*@' "$page" && fail "$page: placeholder left: $(grep -o '@[A-Z]*@' "$page" | head -n 1)"
	if command -v man >/dev/null 2>&1; then
		warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
		[ -z "$warn" ] || fail "$page: man --warnings: $warn"
	fi
	pass "$page: $n options of --help, sections, no warnings"
}

# The page is made from the option tables (man/options.awk): an option of
# a table without an entry in the page, or an entry for an option no
# table has, stops the build.
need "$B/framebench"
"$B/framebench" --dump-options=man > "$T/fb.tables"
grep -v '^@OPT seed@$' man/framebench.1.in > "$T/noseed.in"
if awk -f man/options.awk "$T/fb.tables" "$T/noseed.in" "$T/noseed.in" >/dev/null 2>"$T/err"; then
	fail "a page without --seed's entry was accepted"
else
	grep -q "no entry (@OPT seed@) for --seed of framebench's options" "$T/err" &&
		pass "a page without --seed's entry is refused" || fail "no --seed: $(cat "$T/err")"
fi
{ cat man/framebench.1.in; echo '@OPT no-such-option@'; } > "$T/extra.in"
if awk -f man/options.awk "$T/fb.tables" "$T/extra.in" "$T/extra.in" >/dev/null 2>"$T/err"; then
	fail "an entry for an option no table has was accepted"
else
	grep -q "@OPT no-such-option: no such option in the tables" "$T/err" &&
		pass "an entry for an option no table has is refused" || fail "extra: $(cat "$T/err")"
fi
# each heading is the table's own (the built page is not stale)
cut -f3 "$T/fb.tables" | while IFS= read -r h; do
	grep -qxF -- "$h" "$B/man/framebench.1" || { echo "$h"; break; }
done > "$T/stale"
[ -s "$T/stale" ] && fail "$B/man/framebench.1: stale heading, not: $(cat "$T/stale")" ||
	pass "$B/man/framebench.1: the table's headings"

check_page "$B/man/framebench.1" framebench
check_page "$B/man/gamesuite.1" gamesuite run
check_page "$B/man/lavd.8" lavd
check_page "$B/man/frametrace.1" frametrace record watch trigger import report export info profile compare
finish man
