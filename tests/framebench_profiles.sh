#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Every shipped profile runs for a short time and writes a JSON report with
# every headline key (read back with build/tests/jsonget) and a CSV that the
# shared MangoHud reader accepts as a per-frame log with one row per
# measured frame; the frame feed is gone afterwards. One run adds
# background load, --trace-markers and a disturbance, and its JSON accounts
# for the background (CPU time and work of each pattern, plausible for the
# window and the machine); one runs without /dev/shm (as in the VM's
# initramfs). About 20 s.
. tests/lib.sh
FB=$B/framebench
J=$B/tests/jsonget
M=$B/tests/mhcheck
need "$FB"
need "$J"
need "$M"

# positive NUMBER
positive() { awk -v v="$1" 'BEGIN { exit !(v + 0 > 0) }'; }
# at_most A B: A <= B (numbers)
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
NCPUS=$(nproc)

HEAD="frames avg_fps low1_percentile_fps low1_average_fps low01_percentile_fps
low01_average_fps min_fps frametime_ms.p50 frametime_ms.p90 frametime_ms.p99
frametime_ms.p999 frametime_ms.max"

for p in proton unreal esports strategy; do
	"$FB" --profile $p --duration 1500ms --warmup 300ms --seed 3 \
		--json "$T/$p.json" --csv "$T/$p.csv" >"$T/$p.out" 2>"$T/$p.err" &
	pid=$!
	wait $pid
	rc=$?
	[ $rc -eq 0 ] || { fail "$p: exit $rc: $(cat "$T/$p.err")"; continue; }
	[ -e /dev/shm/framebench.$pid ] && fail "$p: /dev/shm/framebench.$pid left behind"
	# shellcheck disable=SC2086
	"$J" "$T/$p.json" $HEAD >"$T/$p.vals" || { fail "$p: JSON lacks a headline key"; continue; }
	while read -r v; do
		positive "$v" || fail "$p: a headline figure is '$v'"
	done <"$T/$p.vals"
	frames=$(head -n 1 "$T/$p.vals")
	# p50 <= p99 <= max, low-average <= percentile-low <= average
	# shellcheck disable=SC2046 # split into fields on purpose
	set -- $(tr '\n' ' ' <"$T/$p.vals")
	awk -v avg="$2" -v lp="$3" -v la="$4" -v p50="$8" -v p99="${10}" -v mx="${12}" \
		'BEGIN { exit !(la <= lp + 1e-9 && lp <= avg + 1e-9 && p50 <= p99 && p99 <= mx) }' ||
		fail "$p: inconsistent figures: $*"
	"$J" "$T/$p.json" system.scheduler config.profile calibration.loops_per_us \
		wake_latency_us.worker.p99 chain.wakeups_per_frame chain.ops_per_frame \
		input_latency_ms.p50 audio.deadline_misses lock_wait.acquisitions \
		config.seed system.arch system.ncpus system.sched_ext.present \
		>"$T/$p.more" || fail "$p: JSON lacks a detail key"
	[ "$(sed -n 2p "$T/$p.more")" = "$p" ] || fail "$p: config.profile is $(sed -n 2p "$T/$p.more")"
	[ "$(sed -n 10p "$T/$p.more")" = 3 ] || fail "$p: config.seed is not 3"
	# the engine performs the chain the plan describes, frame by frame
	awk -v a="$(sed -n 5p "$T/$p.more")" -v b="$(sed -n 6p "$T/$p.more")" \
		'BEGIN { exit !(b > a - 0.001 && b < a + 0.001) }' ||
		fail "$p: chain ops per frame $(sed -n 6p "$T/$p.more") vs planned $(sed -n 5p "$T/$p.more")"
	# the CSV: a per-frame MangoHud log in ms, one row per measured frame
	"$M" "$T/$p.csv" >"$T/$p.mh" || fail "$p: CSV rejected: $(cat "$T/$p.mh")"
	rows=$(sed -n 's/^rows \([0-9]*\) .*/\1/p' "$T/$p.mh")
	[ "$rows" = "$frames" ] || fail "$p: CSV has $rows rows, JSON says $frames frames"
	grep -q "^average FPS" "$T/$p.out" || fail "$p: no terminal report"
	# no --bg: an empty background; the game's own CPU time is counted
	[ "$("$J" "$T/$p.json" background)" = "<array of 0>" ] ||
		fail "$p: background is $("$J" "$T/$p.json" background) without --bg"
	gcpu=$("$J" "$T/$p.json" game_cpu_s)
	positive "$gcpu" && at_most "$gcpu" "$(awk -v n="$NCPUS" 'BEGIN { print 1.5 * n * 1.1 }')" ||
		fail "$p: game_cpu_s is '$gcpu' for 1.5 s on $NCPUS CPUs"
	grep -q "^game CPU  *[0-9.]* s in" "$T/$p.out" || fail "$p: no game CPU line"
done

# a profile without an input task has no input-to-present figure: it was
# measured from the program's start (p50 3 432 ms in a replay) and taken
# by gamesuite as input_latency_p99_ms
printf 'name noinput\nfps 0\nstage game\n  work 200us\n' >"$T/noinput.profile"
"$FB" --profile "$T/noinput.profile" --duration 500ms --warmup 100ms \
	--json "$T/ni.json" >"$T/ni.out" 2>"$T/ni.err" || fail "no input: exit $?: $(cat "$T/ni.err")"
grep -qx "input to present  none (the profile has no input task)" "$T/ni.out" ||
	fail "no input: $(grep '^input to present' "$T/ni.out")"
[ "$("$J" "$T/ni.json" input_latency_ms.count)" = 0 ] &&
	[ "$("$J" "$T/ni.json" input_latency_ms.p99)" = null ] ||
	fail "no input: input_latency_ms is $("$J" "$T/ni.json" input_latency_ms.count) / $("$J" "$T/ni.json" input_latency_ms.p99)"

# background load, trace markers, a disturbance; nothing left behind
"$FB" --profile proton --duration 2s --warmup 300ms --bg hogs:1 --bg compile:1 \
	--bg browser:1 --trace-markers --disturb 1s:100ms:1 \
	--json "$T/load.json" >"$T/load.out" 2>"$T/load.err" &
pid=$!
wait $pid || fail "loaded run: exit $?: $(cat "$T/load.err")"
[ -e /dev/shm/framebench.$pid ] && fail "loaded run left /dev/shm/framebench.$pid"
n=$(grep -c "disturbance [0-9]*: start_ns=[0-9]* end_ns=[0-9]* threads=1" "$T/load.err")
[ "$n" -ge 1 ] || fail "no disturbance line on stderr: $(cat "$T/load.err")"
[ "$("$J" "$T/load.json" disturbances)" = "<array of $n>" ] || fail "JSON disturbances do not match stderr"
positive "$("$J" "$T/load.json" disturbed_frames)" || fail "no frame flagged as disturbed"
"$J" "$T/load.json" config.bg >"$T/bg" && grep -q "<array of 3>" "$T/bg" || fail "config.bg is not the 3 patterns"
# what the background got done, per pattern in command-line order
[ "$("$J" "$T/load.json" background)" = "<array of 3>" ] || fail "background is not the 3 patterns"
[ "$("$J" "$T/load.json" background.0.pattern background.1.pattern background.2.pattern | tr '\n' ' ')" = \
	"hogs:1 compile:1 browser:1 " ] || fail "background patterns: $("$J" "$T/load.json" background.0.pattern background.1.pattern background.2.pattern)"
win=$("$J" "$T/load.json" accounting_window_s)
awk -v w="$win" 'BEGIN { exit !(w > 1.9 && w < 2.5) }' || fail "accounting_window_s is '$win' for a 2 s window"
for i in 0 1 2; do
	# shellcheck disable=SC2046 # split into fields on purpose
	set -- $("$J" "$T/load.json" background.$i.pattern background.$i.threads \
		background.$i.cpu_s background.$i.work_per_s | tr '\n' ' ')
	[ $# -eq 4 ] || { fail "background.$i lacks a key"; continue; }
	[ "$2" = 1 ] || fail "$1: threads is $2"
	# positive, at most one thread's (and the machine's) CPU in the window,
	# and no more calibrated work than CPU time allows (1.5: calibration noise)
	positive "$3" || fail "$1: cpu_s is $3"
	positive "$4" || fail "$1: work_per_s is $4"
	at_most "$3" "$(awk -v w="$win" 'BEGIN { print w * 1.1 }')" || fail "$1: cpu_s $3 in a ${win} s window, one thread"
	at_most "$3" "$(awk -v w="$win" -v n="$NCPUS" 'BEGIN { print w * n * 1.1 }')" || fail "$1: cpu_s $3 over $NCPUS CPUs"
	at_most "$(awk -v x="$4" -v w="$win" 'BEGIN { print x * w }')" "$(awk -v c="$3" 'BEGIN { print c * 1.5 + 0.05 }')" ||
		fail "$1: work $4/s over ${win} s exceeds its CPU time $3 s"
done
[ "$("$J" "$T/load.json" background.0.jobs_done background.0.missed | tr '\n' ' ')" = "null null " ] ||
	fail "hogs: jobs_done/missed are not null"
jobs=$("$J" "$T/load.json" background.1.jobs_done)
[ "$jobs" -ge 1 ] 2>/dev/null || fail "compile: jobs_done is '$jobs'"
[ "$("$J" "$T/load.json" background.1.missed)" = null ] || fail "compile: missed is not null"
# shellcheck disable=SC2046 # split into fields on purpose
set -- $("$J" "$T/load.json" background.2.bursts background.2.missed background.2.jobs_done | tr '\n' ' ')
[ "${1:-0}" -ge 60 ] 2>/dev/null && [ "${2:-x}" -le "$1" ] 2>/dev/null && [ "${3:-}" = null ] ||
	fail "browser: bursts '$1', missed '$2', jobs_done '${3:-}'"
grep -q "^background hogs:1  *cpu  *[0-9.]* s   work  *[0-9.]*/s" "$T/load.out" || fail "no background line for hogs:1: $(grep background "$T/load.out")"
grep -q "^background compile:1 .* jobs done" "$T/load.out" || fail "no background line for compile:1"
grep -q "^background browser:1 .* bursts late" "$T/load.out" || fail "no background line for browser:1"
if [ -w /sys/kernel/tracing/trace_marker ] || [ -w /sys/kernel/debug/tracing/trace_marker ]; then
	[ "$("$J" "$T/load.json" config.trace_markers)" = true ] || fail "markers not on although tracefs is there"
else
	grep -q "no tracefs trace_marker" "$T/load.err" || fail "no warning about the missing tracefs"
fi
sleep 0.3
if ps -eo comm= | grep -q '^fb-bg-\|^fb-cc$'; then
	# another framebench may be running (concurrent test runs); only fail
	# if one of the processes is a child of ours that outlived us
	ps -eo ppid=,comm= | awk -v p=$pid '$1 == p' | grep -q . && fail "a child of framebench outlived it"
fi

# no /dev/shm and no tracefs (the VM's initramfs): warnings, and it runs
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
	unshare -m true 2>/dev/null; then
	unshare -m sh -c "mount -t tmpfs -o ro none /dev/shm && \
		{ umount -l /sys/kernel/tracing 2>/dev/null; umount -l /sys/kernel/debug 2>/dev/null; true; } && \
		exec $FB --profile esports --duration 1s --warmup 200ms --trace-markers -q" \
		>"$T/noshm.out" 2>"$T/noshm.err"
	rc=$?
	[ $rc -eq 0 ] || fail "without /dev/shm: exit $rc: $(cat "$T/noshm.err")"
	grep -q "frame feed /dev/shm/framebench.[0-9]* not created" "$T/noshm.err" || fail "without /dev/shm: no warning: $(cat "$T/noshm.err")"
	grep -q "^esports: [0-9]* frames" "$T/noshm.out" || fail "without /dev/shm: no report"
fi

finish "framebench profiles"
