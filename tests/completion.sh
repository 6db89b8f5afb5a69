#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The bash completions ($B/completion/, from completion/*.bash): each file
# parses, registers its command, and completes options (from the
# program's --help), option values, profile and suite names, frametrace's
# commands, and --only's workloads from the suite on the command line.
. tests/lib.sh
command -v bash >/dev/null 2>&1 || skip "no bash"
for p in framebench gamesuite frametrace lavd; do
	need "$B/$p"
	[ -f "$B/completion/$p" ] || { echo "FAIL: $B/completion/$p missing (make extras)"; exit 1; }
	bash -n "$B/completion/$p" || fail "$B/completion/$p: syntax"
done
# shipped suites where the gamesuite completion looks for them
mkdir -p "$T/data/suites" && cp gamesuite/suites/*.suite "$T/data/suites/"

# comp PROG WORD... : what PROG's completion offers for its last WORD
# (one line, sorted); the program is the built one
comp() {
	prog=$1
	shift
	GAMESCHED_DATADIR=$T/data bash -c '
		. "$1/completion/$2"
		complete -p "$2" >/dev/null || { echo "not registered"; exit 1; }
		fn=$(complete -p "$2" | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
		COMP_WORDS=("$1/$2" "${@:3}")
		COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
		COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
		"$fn" "$2" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' sh "$B" "$prog" "$@" 2>&1
}

# expect_comp "WANT" PROG WORD...: the offer holds every word of WANT
expect_comp() {
	want=$1
	shift
	got=$(comp "$@")
	for w in $want; do
		case " $got" in
		*" $w "*) ;;
		*) fail "$* <TAB>: no '$w' in: $got"; return ;;
		esac
	done
	pass "$* <TAB>: $want"
}

expect_comp "--profile --bg --bg-nice" framebench --
expect_comp "proton unreal esports strategy" framebench --profile ""
expect_comp "hogs compile browser" framebench --bg ""
expect_comp "run check --help --version" gamesuite ""
expect_comp "quick gaming micro game" gamesuite run ""
expect_comp "eevdf default lavd" gamesuite run quick --sched ""
expect_comp "proton-hogs esports-browser" gamesuite run quick --sched eevdf --only ""
expect_comp "interleaved rotate" gamesuite run quick --order ""
expect_comp "--sched --only --json --html --dry-run" gamesuite run quick --
expect_comp "record watch trigger import report export info profile compare" frametrace ""
expect_comp "--output --with-wakeup --feed-pid" frametrace record --
expect_comp "feed markers mangohud auto" frametrace watch --frames-from ""
expect_comp "perf ftrace mangohud" frametrace import --format ""
expect_comp "--json --html --slow-ms" frametrace report --
expect_comp "auto never always" lavd --debug-preempt-kick ""
expect_comp "fexit tracepoint" lavd --debug-futex-path ""
# every option lavd --help lists is offered
all=$("$B/lavd" --help | grep -oE -- '(^|[ ,])--[a-z][a-z0-9-]*' | sed 's/^[ ,]//' | sort -u | tr '\n' ' ')
expect_comp "$all" lavd --
# a completed value is no longer offered options: a number is free text
[ -z "$(comp lavd --stats "" | tr -d ' ')" ] && pass "lavd --stats <TAB>: nothing (a number)" ||
	fail "lavd --stats <TAB>: $(comp lavd --stats "")"
finish completion
