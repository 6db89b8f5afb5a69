#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lavd's game profiles on the command line (docs/lavd.md, "Game
# profiles"): every profile file is checked before anything else, so bad
# input exits 2 naming file and line even on a kernel without sched_ext -
# a malformed line, an unknown knob, a value out of range, a global option
# in a profile, two profiles with one name, a rule that can never match,
# a directory without profiles; good profiles (the shipped candidates
# included) pass the checks and lavd goes on to the sched_ext check.
. tests/lib.sh
L=$B/lavd
need "$L"

# lavd_exit RC LINE ARGS...: lavd exits RC and prints LINE (whole)
lavd_exit() {
	want=$1 line=$2
	shift 2
	"$L" "$@" >"$T/out" 2>&1
	rc=$?
	if [ $rc -ne "$want" ]; then
		fail "lavd $*: exit $rc, expected $want: $(cat "$T/out")"
	elif [ -n "$line" ] && ! grep -qxF -- "$line" "$T/out"; then
		fail "lavd $*: no line '$line' in: $(cat "$T/out")"
	else
		pass "lavd $* -> $rc"
	fi
}
# bad NAME TEXT MESSAGE: a profile NAME.conf with TEXT exits 2 with MESSAGE
bad() {
	printf "$2" >"$T/$1.conf"
	lavd_exit 2 "lavd: --game-profile: $T/$1.conf:$3" --game-profile "$T/$1.conf"
}

bad syntax 'match comm x\nslice-scale\n' "2: slice-scale: expected a value"
bad quote 'match thread "RenderThread *\n' "1: a quote '\"' is not closed"
bad unknown 'match comm x\nturbo on\n' "2: unknown key 'turbo' (name, description, match, or a knob: see docs/lavd.md, \"Game profiles\")"
bad range 'match comm x\npreempt-shift 40\n' "2: preempt-shift: expected 0..10, got '40'"
bad onoff 'match comm x\nchain-deadline yes\n' "2: chain-deadline: expected on or off, got 'yes'"
bad global 'match comm x\nno-core-compaction\n' "2: 'no-core-compaction' is one of lavd's global options, not a per-process knob: set it on lavd's command line"
bad global2 'match comm x\nperformance\n' "2: 'performance' is one of lavd's global options, not a per-process knob: set it on lavd's command line"
bad negated 'match comm x\nno-preemption\n' "2: 'no-preemption' is lavd's option; in a profile write 'preemption off'"
bad never1 'match thread UnityGfxDeviceWorker\n' "1: match: thread 'UnityGfxDeviceWorker' can never match: Linux keeps 15 characters of a thread name"
bad never2 'match exe wine-preloader\n' "1: match: exe 'wine-preloader' can never match: /proc/PID/exe is an absolute path (start with / or *)"
bad kind 'match cmdline x\n' "1: match: expected comm, exe or thread, got 'cmdline'"
bad nomatch 'name x\nlat-cri-boost 128\n' "2: no 'match' line: the profile would apply to nothing"
bad crossed 'match comm x\nslice-min-us 8000\n' "2: slice-min-us 8000 is above slice-max-us 5000 (the other bound is lavd's option)"
printf 'match comm x\nfutex-boost on\n' >"$T/fx.conf"
lavd_exit 2 "lavd: --game-profile: $T/fx.conf:2: futex-boost on needs the futex programs, which --no-futex-boost leaves out" \
	--game-profile "$T/fx.conf" --no-futex-boost

# two profiles with one name, across files; a directory without profiles
mkdir -p "$T/d1" "$T/empty"
printf 'name game\nmatch comm a\n' >"$T/d1/a.conf"
printf '# the second\nname game\nmatch comm b\n' >"$T/d1/b.conf"
lavd_exit 2 "lavd: --game-profiles: $T/d1/b.conf:2: profile name 'game' is already used by $T/d1/a.conf" \
	--game-profiles "$T/d1"
echo "not a profile" >"$T/empty/README"
lavd_exit 2 "lavd: --game-profiles: $T/empty: no profiles in it (*.conf files)" --game-profiles "$T/empty"
lavd_exit 2 "lavd: --game-profiles: cannot open $T/nothere: No such file or directory" --game-profiles "$T/nothere"
# the bad file is found before a good one is used (every file first)
printf 'match comm b\nbogus 1\n' >"$T/d1/b.conf"
lavd_exit 2 "lavd: --game-profiles: $T/d1/b.conf:2: unknown key 'bogus' (name, description, match, or a knob: see docs/lavd.md, \"Game profiles\")" \
	--game-profiles "$T/d1"
lavd_exit 2 "lavd: --debug-match-path needs --game-profiles or --game-profile" --debug-match-path scan
lavd_exit 2 "lavd: option --debug-match-path: expected events or scan, got 'kprobe'" \
	--game-profiles lavd/profiles/candidates --debug-match-path kprobe
lavd_exit 2 "lavd: option --match-scan-ms: expected an integer in [50, 60000], got '10'" --match-scan-ms 10
lavd_exit 2 "lavd: --monitor only watches; it takes no scheduler options (got --game-profiles)" \
	--monitor 1 --game-profiles lavd/profiles/candidates

# good profiles pass the checks: lavd goes on to load (no sched_ext here)
if [ ! -d /sys/kernel/sched_ext ]; then
	msg='lavd: this kernel has no sched_ext; see `make vm-demo` (needs Linux >= 6.12 with CONFIG_SCHED_CLASS_EXT=y; /sys/kernel/sched_ext is missing); `lavd --eevdf` runs lavd'"'"'s model on this kernel'"'"'s own scheduler instead'
	lavd_exit 1 "$msg" --game-profiles lavd/profiles/candidates
	# the shipped ones (installed to .../gamesched/lavd-profiles), and with the candidates
	lavd_exit 1 "$msg" --game-profiles lavd/profiles
	lavd_exit 1 "$msg" --game-profiles lavd/profiles --game-profiles lavd/profiles/candidates
	for f in lavd/profiles/*.conf lavd/profiles/candidates/*.conf; do
		lavd_exit 1 "$msg" --game-profile "$f"
	done
	lavd_exit 1 "$msg" --game-profiles lavd/profiles/candidates --debug-match-path scan --match-scan-ms 500
fi
# --check: the same checks on any machine (no root, no sched_ext), then
# exit 0 with the profiles listed, or 2 naming file and line
n=$(find lavd/profiles/candidates -name '*.conf' | wc -l)
lavd_exit 0 "lavd --check: valid (the options and $n game profiles)" \
	--check --game-profiles lavd/profiles/candidates
grep -qxF "profile unity: lavd/profiles/candidates/unity.conf (2 match rules)" "$T/out" ||
	fail "--check lists no profile: $(cat "$T/out")"
for f in lavd/profiles/*.conf lavd/profiles/candidates/*.conf; do
	lavd_exit 0 "lavd --check: valid (the options and 1 game profile)" --check --game-profile "$f"
done
lavd_exit 0 "lavd --check: valid (the options and 0 game profiles)" --check --slice-max-us 8000
lavd_exit 2 "lavd: --game-profile: $T/range.conf:2: preempt-shift: expected 0..10, got '40'" \
	--check --game-profile "$T/range.conf"
lavd_exit 2 "lavd: --slice-min-us 9000 is larger than --slice-max-us 5000" --check --slice-min-us 9000
lavd_exit 2 "lavd: --check checks what a load would use; it takes no --monitor" --check --monitor 1
# numbers are decimal: 09 is nine (octal refused it), 0x no hex
printf 'match comm x\npreempt-shift 09\nlat-cri-boost 0128\n' >"$T/dec.conf"
lavd_exit 0 "lavd --check: valid (the options and 1 game profile)" --check --game-profile "$T/dec.conf"
bad hex 'match comm x\nlat-cri-boost 0x80\n' "2: lat-cri-boost: expected 0..4096, got '0x80'"
lavd_exit 2 "lavd: option --slice-max-us: expected an integer in [50, 1000000], got '0x1000'" --check --slice-max-us 0x1000

# a profile named after its file: only the trailing .conf goes
printf 'match comm x\n' >"$T/game.config.conf"
lavd_exit 0 "profile game.config: $T/game.config.conf (1 match rule)" --check --game-profile "$T/game.config.conf"
# a key given twice, a NUL byte: file and line(s)
bad desc2 'description a\nmatch comm x\ndescription b\n' "3: description is set twice (first at line 1)"
printf 'match comm x\nslice-scale 1\0000\n' >"$T/nul.conf"
lavd_exit 2 "lavd: --game-profile: $T/nul.conf:2: a NUL byte: not a text file" --check --game-profile "$T/nul.conf"
# an exe glob whose first element cannot be '/' never matches a path
bad never3 'match exe [a]bin/x\n' "1: match: exe '[a]bin/x' can never match: /proc/PID/exe is an absolute path (start with / or *)"
bad never4 'match exe [!/]bin/x\n' "1: match: exe '[!/]bin/x' can never match: /proc/PID/exe is an absolute path (start with / or *)"
for g in '[/]usr/bin/x' '[!a]usr/bin/x' '?usr/bin/x' '*/x'; do
	printf 'match exe %s\n' "$g" >"$T/glob.conf"
	lavd_exit 0 "" --check --game-profile "$T/glob.conf"
done

"$L" --help >"$T/help"
for o in --game-profiles --game-profile --match-scan-ms --debug-match-path --check; do
	grep -q -- "$o" "$T/help" && pass "--help: $o" || fail "--help lacks $o"
done
finish "lavd game profiles"
