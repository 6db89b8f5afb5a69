#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# gamesuite tune on a machine without sched_ext: bad input exits 2; with a
# stand-in lavd (gamesuite/testdata/fake-lavd.sh, through a fake
# sched_ext directory as tests/gamesuite_cli.sh does) and a stand-in game
# whose frames follow the knobs of the profile lavd got, the search finds
# the optimum, compares it with lavd's defaults (better), and writes a
# profile with its evidence; Ctrl-C writes the best measured so far and
# says so. Asserts on behaviour, never on timings.
. tests/lib.sh
GS=$B/gamesuite
TD=$(pwd)/gamesuite/testdata
need "$GS"

QUIET="--cooldown 0 --settle 0 --probe-factor 0 --max-other-cpu 100 --max-busy 100"

# ---- bad input --------------------------------------------------------------
expect_exit 2 "tune: give a SUITE file with --only NAME, or --framebench PROFILE" "$GS" tune -o "$T/x.conf"
expect_exit 2 "tune: -o FILE is needed" "$GS" tune --framebench unreal
expect_exit 2 "tune: SUITE needs --only NAME" "$GS" tune "$T/none.suite" -o "$T/x.conf"
expect_exit 2 "option --knob: expected KNOB=V1,V2,... (e.g. lat-cri-boost=0,128,512), got 'slice-scale'" \
	"$GS" tune --framebench unreal -o "$T/x.conf" --knob slice-scale
expect_exit 2 "option --knob: slice-scale: 'x y' is neither" \
	"$GS" tune --framebench unreal -o "$T/x.conf" --knob "slice-scale=1,x y"
# a value or a knob given twice would be measured twice: refused
expect_exit 2 "option --knob: slice-scale: value 100 given twice" \
	"$GS" tune --framebench unreal -o "$T/x.conf" --knob slice-scale=100,50,100
expect_exit 2 "option --knob: slice-scale: value 0100 given twice" \
	"$GS" tune --framebench unreal -o "$T/x.conf" --knob slice-scale=100,0100
expect_exit 2 "option --knob: knob slice-scale given twice" \
	"$GS" tune --framebench unreal -o "$T/x.conf" --knob slice-scale=1 --knob slice-scale=2
expect_exit 2 "option --knob: 81 combinations of knob values: at most 64" \
	"$GS" tune --framebench unreal -o "$T/x.conf" --knob a=1,2,3 --knob b=1,2,3 \
	--knob c=1,2,3 --knob d=1,2,3
expect_exit 2 "option --bg: with --framebench only" "$GS" tune "$T/none.suite" --only a \
	-o "$T/x.conf" --bg hogs:1
expect_exit 2 "gamesuite: unknown option '--bogus' (see --help)" "$GS" tune --bogus
expect_exit 2 "option --rounds" "$GS" tune --framebench unreal -o "$T/x.conf" --rounds 0
expect_exit 2 "option --max-busy: expected a number in [0, 100], got '101'" \
	"$GS" tune --framebench unreal -o "$T/x.conf" --max-busy 101
expect_exit 2 "option --settle: expected a duration" "$GS" tune --framebench unreal \
	-o "$T/x.conf" --settle 2d
# run's ranges, one table part for both (gamesuite/runopts.h)
for cmd in "run quick --sched eevdf" "tune --framebench unreal -o $T/x.conf"; do
	# shellcheck disable=SC2086 # the command and its words
	expect_exit 2 "option --cooldown: expected a duration (e.g. 500us, 20ms, 10s) in [0.000 ms, 3600.000 s], got '2h'" \
		"$GS" $cmd --cooldown 2h
	# shellcheck disable=SC2086
	expect_exit 2 "option --load-timeout: expected a duration (e.g. 500us, 20ms, 10s) in [100.000 ms, 3600.000 s], got '50ms'" \
		"$GS" $cmd --load-timeout 50ms
	# shellcheck disable=SC2086
	expect_exit 2 "option --probe-factor: expected 0 (off) or a number above 1, got '0.5'" \
		"$GS" $cmd --probe-factor 0.5
done
# --help is made from the option table (lib/opttab.c): each option listed
"$GS" tune --help >"$T/help" 2>&1 && grep -q '^  --probe-factor X  *\.\.\. or a fixed-work probe' "$T/help" &&
	pass "tune --help lists --probe-factor" || fail "tune --help: $(cat "$T/help")"
expect_exit 2 "tune: workload tuned: framebench's plan does not say the game's process (framebench: unknown profile 'nosuch'" \
	"$GS" tune --framebench nosuch -o "$T/x.conf"

# ---- framebench's default match: the game's own process by its name, not
# the executable its background hogs share; nothing measured, no profile
# (a stand-in lavd whose --check passes and whose load fails)
printf '#!/bin/sh\nfor a; do [ "$a" = --check ] && exit 0; done\nexit 1\n' >"$T/lavd-fails"
chmod +x "$T/lavd-fails"
for p in strategy:fb-strategy unreal:framebench proton:ProtonGame.exe; do
	"$GS" tune --framebench "${p%%:*}" -o "$T/fb.conf" --lavd "$T/lavd-fails" \
		--sched-ext-root "$T/noscx" --duration 1s $QUIET >/dev/null 2>"$T/fberr"
	rc=$?
	grep -q "; for match comm ${p#*:}\$" "$T/fberr" && pass "tune --framebench ${p%%:*}: match comm ${p#*:}" ||
		fail "tune --framebench ${p%%:*}: $(head -n 1 "$T/fberr")"
	[ $rc -eq 1 ] && grep -q "tune: nothing was measured; no profile written" "$T/fberr" &&
		[ ! -e "$T/fb.conf" ] && pass "nothing measured: exit 1, no profile" ||
		fail "nothing measured: exit $rc, $(tail -n 1 "$T/fberr")"
done

SCX=$T/scx
mkdir -p "$SCX"
echo disabled >"$SCX/state"
echo 0 >"$SCX/enable_seq"
cat >"$T/t.suite" <<EOS
workload tuned
  kind game
  command $TD/fake-tuned-game.sh $SCX
  mangohud-config /dev/null
workload slow
  kind game
  command $TD/fake-tuned-game.sh $SCX 1
  mangohud-config /dev/null
EOS
expect_exit 2 "tune: --match RULE is needed" "$GS" tune "$T/t.suite" --only tuned -o "$T/x.conf"
expect_exit 2 "option --metric: 'bogus' is not a metric of game workloads" \
	"$GS" tune "$T/t.suite" --only tuned -o "$T/x.conf" --match "comm x" --metric bogus

# ---- mistakes found before any run (exit 2), not after the search --------
# (fake-lavd.sh hands --check to the real lavd; a run would make stage-1)
export FAKE_LAVD_CHECK="$B/lavd"
need "$B/lavd"
LAVD="$TD/fake-lavd.sh $SCX"
# tune_early RC MESSAGE ARGS...: tune exits RC with MESSAGE, no run made
tune_early() {
	want=$1 msg=$2
	shift 2
	rm -rf "$T/early"
	start=$(date +%s)
	expect_exit "$want" "$msg" "$GS" tune "$T/t.suite" --only tuned --lavd "$LAVD" --ops lavd \
		--sched-ext-root "$SCX" --load-timeout 5s --stop-timeout 5s $QUIET \
		--workdir "$T/early" "$@"
	[ ! -e "$T/early/stage-1" ] && [ ! -e "$SCX/profile" ] && pass "no run before refusing: $msg" ||
		fail "a run was made before refusing '$msg'"
	[ $(($(date +%s) - start)) -le 5 ] || fail "refusing '$msg' took $(($(date +%s) - start)) s"
}
rm -f "$SCX/profile"
tune_early 2 "option -o: /nonexistent/x: cannot create it in /nonexistent: No such file or directory" \
	-o /nonexistent/x --match "comm fake-game"
tune_early 2 "option -o: $T: is a directory" -o "$T" --match "comm fake-game"
tune_early 2 "tune: lavd --check refuses a knob set (--knob, --match): lavd: --game-profile: $T/early/tune-1.conf:5: unknown key 'slise-scale'" \
	-o "$T/x.conf" --match "comm fake-game" --knob slise-scale=50,100
tune_early 2 "refuses a knob set (--knob, --match): lavd: --game-profile: $T/early/tune-2.conf:5: slice-scale: expected 10..1000, got '5000'" \
	-o "$T/x.conf" --match "comm fake-game" --knob slice-scale=50,5000
tune_early 2 "refuses a knob set (--knob, --match): lavd: --game-profile: $T/early/tune-1.conf:3: match: thread 'UnityGfxDeviceWorker' can never match" \
	-o "$T/x.conf" --match "thread UnityGfxDeviceWorker"
tune_early 2 "tune: lavd --check refuses the profile's name (--name): lavd: --game-profile: $T/early/final-check.conf:2: name: expected 1-31 letters" \
	-o "$T/x.conf" --match "comm fake-game" --name "a/b"
[ ! -e "$T/x.conf" ] || fail "a refused tune wrote $T/x.conf"

# ---- a search with an optimum ---------------------------------------------
"$GS" tune "$T/t.suite" --only tuned -o "$T/tuned.conf" --lavd "$LAVD" --ops lavd \
	--sched-ext-root "$SCX" --load-timeout 5s --stop-timeout 5s $QUIET \
	--match "comm fake-game" --knob slice-scale=50,100,200 --knob lat-cri-boost=0,128 \
	--eta 3 --final-rounds 4 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && pass "tune: exit 0" || { fail "tune: exit $rc"; cat "$T/err" "$T/out"; }
grep -q "tune: wrote $T/tuned.conf: slice-scale 100, lat-cri-boost 128" "$T/out" &&
	pass "the optimum found" || fail "not the optimum: $(cat "$T/out")"
grep -q "against lavd's defaults: low1_percentile_fps .* better" "$T/out" &&
	pass "better than the defaults" || fail "final: $(cat "$T/out")"
grep -q "^  tune-4   slice-scale 100, lat-cri-boost 128 .* 1.0[0-9]*x the defaults) kept" "$T/err" &&
	grep -q "^tune: stage 1: 6 knob sets x 1 round" "$T/err" && grep -q "^tune: stage 2: 2 knob sets x 3 rounds" "$T/err" &&
	grep -q "^tune: final: tune-4 against lavd's defaults, 4 interleaved rounds" "$T/err" &&
	pass "stages on the terminal" || fail "progress: $(cat "$T/err")"
for l in "^name        tuned-tuned$" "^match comm fake-game$" "^slice-scale  *100$" \
	"^lat-cri-boost  *128$" "^# Search: successive halving over 6 knob sets: slice-scale {50,100,200} x lat-cri-boost {0,128}" \
	"^# Stage 1: 6 candidates x 1 round; defaults median" "^# Stage 2: 2 candidates x 3 rounds" \
	"^# Final comparison, 4 interleaved rounds: lavd's defaults .* (n 4), with this profile .* (n 4);" \
	"verdict better\.$" "Shipping rule (docs/lavd.md): met"; do
	grep -q -- "$l" "$T/tuned.conf" && pass "profile: $l" || fail "profile lacks '$l'"
done
[ "$(cat "$SCX/state")" = disabled ] && pass "left on the default scheduler" || fail "state $(cat "$SCX/state")"

# ---- a result the end cannot write (/dev/full passes the early check) is
# kept in another file, named, not lost (exit 1)
if [ -w /dev/full ]; then
	TMPDIR=$T "$GS" tune "$T/t.suite" --only tuned -o /dev/full --lavd "$LAVD" --ops lavd \
		--sched-ext-root "$SCX" --load-timeout 5s --stop-timeout 5s $QUIET \
		--match "comm fake-game" --knob slice-scale=50,100 --final-rounds 2 \
		>"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] || fail "tune -o /dev/full: exit $rc, expected 1"
	grep -q "option -o: cannot write /dev/full: No space left on device; kept in $T/full.kept-" "$T/err" &&
		grep -q "^slice-scale  *[0-9]" "$T"/full.kept-* && pass "tune -o /dev/full: the result kept" ||
		fail "tune -o /dev/full: $(cat "$T/err")"
fi

# ---- Ctrl-C: the best measured so far --------------------------------------
"$GS" tune "$T/t.suite" --only slow -o "$T/int.conf" --lavd "$LAVD" --ops lavd \
	--sched-ext-root "$SCX" --load-timeout 5s --stop-timeout 5s $QUIET \
	--match "comm fake-game" --knob slice-scale=50,100 --workdir "$T/wd" \
	>"$T/iout" 2>"$T/ierr" &
BG_PID=$!
# run 1 is the defaults', run 2 tune-1's: once run 3 started, tune-1 is measured
i=0
while [ ! -d "$T/wd/stage-1/run-003-slow-2" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $BG_PID
wait $BG_PID
rc=$?
BG_PID=
[ $rc -eq 1 ] && pass "interrupted: exit 1" || fail "interrupted: exit $rc"
grep -q "interrupted by signal 2: wrote the best knob set measured so far" "$T/ierr" &&
	pass "says it was interrupted" || fail "no interruption message: $(cat "$T/ierr")"
grep -q "^# lavd game profile written by gamesuite tune - INTERRUPTED" "$T/int.conf" &&
	grep -q "^slice-scale  *50$" "$T/int.conf" && pass "interrupted profile written" ||
	fail "interrupted profile: $(cat "$T/int.conf" 2>&1)"
[ "$(cat "$SCX/state")" = disabled ] && pass "unloaded after Ctrl-C" || fail "state $(cat "$SCX/state")"
if pgrep -f "$SCX" >/dev/null; then fail "stand-ins left running"; else pass "nothing left running"; fi
# a refusal after the temporary working folder was made leaves none behind
mkdir -p "$T/tmpdir"
TMPDIR="$T/tmpdir" "$GS" tune "$T/t.suite" --only tuned -o "$T/x.conf" >/dev/null 2>&1
[ -z "$(ls -A "$T/tmpdir")" ] || fail "tune left $(ls "$T/tmpdir") in TMPDIR after refusing --match"
finish "gamesuite tune"
