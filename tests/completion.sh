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
# Every option table (PROG [COMMAND] --dump-options=bash) is in the built
# completion as the program has it now; every long option is offered, and
# after an option that takes a value no option is offered (the value is
# a choice, a file or free text).
for spec in framebench lavd "gamesuite run" "gamesuite tune" "frametrace record" \
	"frametrace watch" "frametrace import" "frametrace report" \
	"frametrace export" "frametrace profile" "frametrace compare"; do
	# shellcheck disable=SC2086 # PROG [COMMAND]
	set -- $spec
	prog=$1 cmd=${2-}
	dump=$("$B/$prog" $cmd --dump-options=bash) || { fail "$spec --dump-options=bash"; continue; }
	opts=$(printf '%s\n' "$dump" | sed -n "s/^_gamesched_opts_[a-z_]*='\(.*\)'\$/\1/p")
	flags=$(printf '%s\n' "$dump" | sed -n "s/^_gamesched_flags_[a-z_]*='\(.*\)'\$/\1/p")
	[ -n "$opts" ] || { fail "$spec: no options in its dump"; continue; }
	printf '%s\n' "$dump" | grep -v '^#' | while IFS= read -r line; do
		grep -qxF -- "$line" "$B/completion/$prog" || { echo "$line"; break; }
	done > "$T/stale"
	[ -s "$T/stale" ] && fail "$B/completion/$prog: not $spec's table now: $(cat "$T/stale")"
	long=$(printf '%s\n' $opts | grep -- '^--' | tr '\n' ' ')
	expect_comp "$long" $prog $cmd --
	bad=
	for o in $opts; do
		case " $flags " in *" $o "*) continue ;; esac
		case " $(comp $prog $cmd "$o" "") " in
		*" -"*) bad="$bad $o" ;;
		esac
	done
	[ -z "$bad" ] && pass "$spec: no option offered as a value" ||
		fail "$spec: options offered as the value of:$bad"
done
finish completion
