#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# framebench's command line: impossible options and malformed profiles exit
# with status 2 and a message naming the option or file:line; --dump-plan
# is the same for the same seed and differs for another; --list-profiles,
# --help, --version, --self-test work. Runs in a few seconds.
. tests/lib.sh
FB=$B/framebench
need "$FB"

# expect_usage "MESSAGE FRAGMENT" ARGS...: exit 2 and the fragment on stderr
expect_usage() {
	want=$1
	shift
	expect_exit 2 "$want" "$FB" "$@"
}

expect_usage "option --workers: expected an integer in [1, 64], got '0'" --workers 0
expect_usage "option --duration: expected a duration" --duration -5s
expect_usage "option --duration: expected a duration" --duration 0
expect_usage "option --warmup: expected a duration" --warmup -1s
expect_usage "option --bg: expected hogs, compile or browser" --bg gpu
expect_usage "option --bg: expected hogs, compile or browser" --bg hogs:0
expect_usage "option --fps: expected an integer in [0, 10000], got '-1'" --fps -1
expect_usage "option --bg-nice: expected an integer in [-20, 19]" --bg-nice 30
expect_usage "option --disturb: expected a LEN between 1ms and the period" --disturb 1s:2s
expect_usage "option --disturb: expected a PERIOD" --disturb soon
expect_usage "option --seed: expected an integer" --seed -3
expect_usage "unknown profile 'nosuch': expected one of proton, unreal, esports, strategy, unity" --profile nosuch
expect_usage "framebench: unknown option '--frobnicate' (see --help)" --frobnicate
expect_usage "framebench: unknown option '-x' (see --help)" -qx
expect_usage "framebench: option '--json' needs a value (see --help)" --json
expect_usage "framebench: option '-d' needs a value (see --help)" -d
expect_usage "framebench: option '--rt' takes no value (see --help)" --rt=1
expect_usage "framebench: unexpected argument 'extra' (see --help)" extra
expect_usage "option --calibration: expected a number in [1, 1e+06], got '0.5'" --calibration 0.5
expect_usage "option --dilate: expected a number in [1, 10], got '0.5'" --dilate 0.5
expect_usage "option --dilate: proton's 60 FPS divided by 7 is not a whole frame rate" --dilate 7
expect_usage "option --nice: expected an integer in [-20, 19], got '20'" --nice 20
expect_usage "option --slice-us: expected an integer in [100, 100000], got '50'" --slice-us 50
expect_usage "option --rt: SCHED_FIFO threads have no nice value or slice" --rt --nice 5
expect_usage "option --rt: SCHED_FIFO threads have no nice value or slice" --slice-us 1000 --rt

# --dilate 2: the run lasts twice as long with every work amount doubled
# (the plan shows it), and reports on the original clock: 60 FPS target,
# frame times near 16.7 ms, not 33.3
"$FB" --dump-plan --duration 1s --warmup 0 >"$T/p1" || fail "--dump-plan"
"$FB" --dump-plan --duration 1s --warmup 0 --dilate 2 >"$T/p2" || fail "--dump-plan --dilate 2"
w1=$(awk '/work/ { print; exit }' "$T/p1") w2=$(awk '/work/ { print; exit }' "$T/p2")
[ -n "$w1" ] && [ "$w1" != "$w2" ] || fail "--dilate 2: the plan's first work line did not change ('$w1' / '$w2')"
"$FB" --dilate 2 --duration 1s --warmup 200ms -q --no-feed --json "$T/dil.json" >"$T/out" 2>&1 ||
	fail "--dilate 2: exit $? ($(cat "$T/out"))"
# shellcheck disable=SC2046 # split into fields on purpose
set -- $("$B/tests/jsonget" "$T/dil.json" config.dilate target_fps config.duration_s frametime_ms.p50 frames)
[ "$1 $2 $3" = "2 60 2" ] || fail "--dilate 2: JSON dilate/target_fps/duration_s '$1 $2 $3', expected '2 60 2'"
awk -v p="$4" 'BEGIN { exit !(p > 15 && p < 20) }' || fail "--dilate 2: p50 frame time $4 ms, expected about 16.7"
[ "$5" -ge 45 ] && [ "$5" -le 62 ] || fail "--dilate 2: $5 frames in 1 s of the original clock, expected about 60"

# --nice and --slice-us reach every game thread (and only them: the
# controller keeps its own nice), and the JSON says so
"$FB" --nice 7 --slice-us 2500 --duration 2s --warmup 0 -q --no-feed \
	--json "$T/gp.json" >"$T/gp.out" 2>&1 &
fbpid=$!
sleep 1
# the controller keeps the test's own nice (the test may run at nice 19)
base=$(nice)
n7=0 n0=0 s25=0
for t in /proc/$fbpid/task/*; do
	nice=$(sed 's/.*) //' "$t/stat" | cut -d' ' -f17)
	if [ "$nice" = 7 ]; then n7=$((n7 + 1)); elif [ "$nice" = "$base" ]; then n0=$((n0 + 1)); fi
	grep -q '^se.slice .*: *2500000$' "$t/sched" 2>/dev/null && s25=$((s25 + 1))
done
wait $fbpid || fail "--nice 7 --slice-us 2500: exit $? ($(cat "$T/gp.out"))"
[ $n7 -ge 4 ] || fail "--nice 7: $n7 threads of the main process at nice 7"
[ $n0 -ge 1 ] || fail "--nice 7: the controller thread was reniced too"
if [ -r "/proc/$$/sched" ]; then
	[ $s25 -eq $n7 ] || fail "--slice-us 2500: $s25 threads with a 2.5 ms slice, $n7 reniced"
fi
[ "$("$B/tests/jsonget" "$T/gp.json" config.game_nice config.game_slice_us | tr '\n' ' ')" = "7 2500 " ] ||
	fail "--nice/--slice-us: JSON config $("$B/tests/jsonget" "$T/gp.json" config.game_nice config.game_slice_us)"

# --calibration: the rate given is the rate used, and the report says so
"$FB" --calibration 300 --duration 300ms --warmup 0 -q --json "$T/cal.json" >"$T/out" 2>&1 ||
	fail "--calibration 300: exit $?: $(cat "$T/out")"
[ "$("$B/tests/jsonget" "$T/cal.json" calibration.loops_per_us calibration.given | tr '\n' ' ')" = "300 true " ] ||
	fail "--calibration 300: JSON calibration $("$B/tests/jsonget" "$T/cal.json" calibration.loops_per_us calibration.given)"

# numbers are decimal (README, the rules for inputs): 010 is ten, not octal eight; 0x is no hex
"$FB" --dump-plan --fps 010 --duration 1s --warmup 0 >"$T/p010" || fail "--fps 010"
grep -q '^fps 10,' "$T/p010" || fail "--fps 010 is not 10 FPS: $(grep '^fps' "$T/p010")"
expect_usage "option --fps: expected an integer in [0, 10000], got '0x10'" --fps 0x10
expect_usage "option --duration: expected a duration (e.g. 500us, 20ms, 10s) in [100.000 ms, 86400.000 s], got '0x10s'" --duration 0x10s
printf 'name octal\nfps 010\nstage game\n  work 0x10us\n' >"$T/hex.profile"
expect_usage "$T/hex.profile:4:" --profile "$T/hex.profile"
sed -i 's/ 0x10us/ 016us/' "$T/hex.profile"
"$FB" --dump-plan --profile "$T/hex.profile" --duration 1s --warmup 0 >"$T/p010" ||
	fail "a profile with 010 and 016us: $(cat "$T/p010")"
grep -q '^fps 10,' "$T/p010" || fail "profile fps 010 is not 10 FPS: $(grep '^fps' "$T/p010")"

# a malformed profile names the file and line
printf 'name bad\nfps 60\nstage game\n  fanout 0 100us\n' >"$T/bad.profile"
expect_usage "framebench: $T/bad.profile:4: expected a job count in [1, 64] after 'fanout', got '0'" --profile "$T/bad.profile"
printf 'stage game\n  work 100us\n  call wineserver\n' >"$T/bad2.profile"
expect_usage "$T/bad2.profile:3: expected a declared service (none declared yet), got 'wineserver'" --profile "$T/bad2.profile"
expect_usage "cannot open profile $T/missing.profile: No such file" --profile "$T/missing.profile"

# --rt without the right to use SCHED_FIFO: a clear message, status 2
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$FB" --rt --duration 1s >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "--rt as nobody: exit $rc, expected 2"
	grep -q "option --rt: not permitted here (SCHED_FIFO: Operation not permitted)" "$T/err" || fail "--rt as nobody: $(cat "$T/err")"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$FB" --nice -5 --duration 1s >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "--nice -5 as nobody: exit $rc, expected 2"
	grep -q "option --nice: not permitted here" "$T/err" || fail "--nice -5 as nobody: $(cat "$T/err")"
	# raising one's nice needs no privilege (19: the test may run at nice 19)
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$FB" --nice 19 --duration 300ms --warmup 0 -q --no-feed >"$T/out" 2>"$T/err" ||
		fail "--nice 19 as nobody: exit $? ($(cat "$T/err"))"
fi

# help, version, profiles
"$FB" --help >"$T/out" 2>&1 || fail "--help exits non-zero"
grep -q -- "--dump-plan" "$T/out" || fail "--help lacks --dump-plan"
# --help is made from the option table (lib/opttab.c): each option with its help
grep -q '^  --workers N  *job-system workers (default: the profile.s)$' "$T/out" ||
	fail "--help lacks '  --workers N  job-system workers': $(cat "$T/out")"
"$FB" -q -s 18446744073709551615 --dump-plan >/dev/null 2>&1 || fail "--seed UINT64_MAX refused"
"$FB" --version | grep -q '^framebench [0-9]' || fail "--version"
"$FB" --list-profiles >"$T/out" || fail "--list-profiles exits non-zero"
for p in proton unreal esports strategy; do
	grep -q "^$p " "$T/out" || fail "--list-profiles lacks $p"
done

# --dump-plan: deterministic per seed, a 20-30 wake-up chain per profile
for p in proton unreal esports strategy; do
	"$FB" --profile $p --seed 7 --duration 1s --warmup 0 --dump-plan >"$T/a" || fail "dump-plan $p"
	"$FB" --profile $p --seed 7 --duration 1s --warmup 0 --dump-plan >"$T/b"
	"$FB" --profile $p --seed 8 --duration 1s --warmup 0 --dump-plan >"$T/c"
	cmp -s "$T/a" "$T/b" || fail "$p: --dump-plan differs for the same seed"
	cmp -s "$T/a" "$T/c" && fail "$p: --dump-plan is the same for seeds 7 and 8"
	n=$(sed -n 's/^critical chain: \([0-9]*\) wake-ups per frame.*/\1/p' "$T/a")
	[ -n "$n" ] && [ "$n" -ge 20 ] && [ "$n" -le 30 ] || fail "$p: chain of '$n' wake-ups, expected 20-30"
	[ "$(grep -c '^frame ' "$T/a")" -ge 60 ] || fail "$p: --dump-plan has too few frames"
done
# the plan does not depend on the machine's speed: no calibration in it
grep -qi "loops" "$T/a" && fail "--dump-plan mentions calibration"
# a profile given by path gives the same plan as the same profile by name
"$FB" --profile framebench/profiles/unreal.profile --seed 7 --duration 1s --warmup 0 --dump-plan >"$T/d"
"$FB" --profile unreal --seed 7 --duration 1s --warmup 0 --dump-plan >"$T/e"
diff "$T/d" "$T/e" | grep -v '^[<>] profile \|^---\|^[0-9]' | grep -q . && fail "profile by path and by name differ"

# --self-test prints the per-frame measurement overhead
"$FB" --self-test --no-feed >"$T/out" 2>&1
grep -q "measurement overhead: [0-9]* ns per frame" "$T/out" || fail "--self-test: $(cat "$T/out")"
grep -q "% of a 16.7 ms frame (target < 1 %)" "$T/out" || fail "--self-test lacks the percentage"

finish "framebench CLI"
