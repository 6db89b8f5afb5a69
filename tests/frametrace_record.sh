#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# frametrace record with BPF (root): a short framebench run with its feed
# and trace markers; the trace must hold scheduler events, futex calls,
# frames from the feed, trace_marker lines, the names of framebench's
# threads, and say how many events were lost. Skips (77) without root or
# when the kernel refuses the BPF programs.
. tests/lib.sh
FT=$B/frametrace
FB=$B/framebench

[ "$(id -u)" -eq 0 ] || skip "frametrace record needs root (BPF)"
"$FT" record -o "$T/t.ftr" -- "$FB" -d 1s -w 200ms --trace-markers -q \
	>"$T/out" 2>"$T/err"
rc=$?
cat "$T/err"
if [ $rc -ne 0 ]; then
	grep -q "BPF programs failed\|needs root" "$T/err" &&
		skip "the kernel refused the BPF programs: $(tail -1 "$T/err")"
	fail "record exited $rc"
fi
"$FT" info "$T/t.ftr" >"$T/info" || fail "info failed"
cat "$T/info"
for ev in sched_switch sched_waking sched_process_fork; do
	grep -q "^  $ev " "$T/info" || fail "no $ev events"
done
# futex waits and wakes from the scheduler events (the default source)
grep -q "^meta futex=sched" "$T/info" || fail "futex source: $(grep '^meta futex=' "$T/info")"
grep -q "^futex sleeps: [1-9]" "$T/info" || fail "no futex sleeps flagged"
"$FT" report "$T/t.ftr" | sed -n '/^futex wait per task/,/^$/p' >"$T/fx"
awk 'NR > 2 && $2 > 0 && $NF > 0 { ok = 1 } END { exit !ok }' "$T/fx" ||
	fail "no task with futex waits and wakes in the report: $(cat "$T/fx")"
# every futex call with --futex-calls (fexit, else a program on every
# system call)
"$FT" record -q --futex-calls -o "$T/fc.ftr" -- "$FB" -d 500ms -w 100ms -q \
	>/dev/null 2>&1 || fail "record --futex-calls"
"$FT" info "$T/fc.ftr" | grep -q "^  futex " || fail "no futex call events with --futex-calls"
grep -q "^meta lost_events=" "$T/info" || fail "lost events not reported"
grep -q "^meta futex=" "$T/info" || fail "futex source not recorded"
grep -q "^meta source=record" "$T/info" || fail "source"
# the host's steal over the recording, one figure per CPU summed
span=$(sed -n 's/^meta steal_span_ns=//p' "$T/info")
[ "${span:-0}" -gt 0 ] || fail "no host steal figures (steal_span_ns '${span:-}')"
grep -q "^meta steal_total_ns=[0-9][0-9]*$" "$T/info" || fail "no steal_total_ns"
n=$(awk '/^frames:/ { print $2 }' "$T/info")
[ "${n:-0}" -gt 10 ] || fail "only ${n:-0} frames from the feed"
if grep -q "^meta markers=trace_marker" "$T/info"; then
	grep -q "^  tracing_mark_write " "$T/info" || fail "no trace_marker lines recorded"
fi
"$FT" report "$T/t.ftr" >"$T/rep" 2>&1 || fail "report failed"
# the default profile (proton) names its threads as under Proton
grep -q "ProtonGame.exe:\|dxvk-cs:" "$T/rep" || fail "framebench thread names missing"
grep -q "^host steal: .* over .* s on [0-9]* CPUs" "$T/rep" || fail "no host steal line in the report"
grep -q "^frames: " "$T/rep" || fail "no frame statistics"
grep -q "median frame's wake chain" "$T/rep" || fail "no median frame chain"
# interrupt context: the count of left-over depths, the context known, and
# the tasks' own wake-ups in the wake graph (framebench's threads wake each
# other through futexes)
grep -q "^meta irq_depth_resets=[0-9]" "$T/info" || fail "no irq_depth_resets"
grep -q "looks stuck" "$T/rep" && fail "interrupt context stuck: $(grep 'looks stuck' "$T/rep")"
n=$(sed -n '/^wake graph/,/^$/p' "$T/rep" | grep -c -- ' -> ')
[ "$n" -ge 3 ] || fail "only $n edges in the wake graph"
# the interrupt programs attached as they used to (entries first, here
# 300 ms apart, no reset at context switches): every wake-up after an
# interrupt entered in the gap reads as an interrupt's, and the report says so
FRAMETRACE_TEST_OLD_IRQ=300 "$FT" record -q -o "$T/old.ftr" -- "$FB" -d 1s -w 200ms -q \
	>/dev/null 2>&1 || fail "record with the old interrupt attach order"
"$FT" report "$T/old.ftr" >"$T/old.rep" 2>&1 || fail "report (old order)"
grep "looks stuck" "$T/old.rep" || fail "the old attach order left no stuck interrupt depth"
# the recorder filtered itself: no wake-ups of its own threads
"$FT" report --json --top 1000 "$T/t.ftr" >"$T/rep.json" || fail "report --json"
grep -o '"reconstructed_switches": [0-9]*' "$T/rep.json"
# a recording that starts while a game runs: the feed still holds the
# frames from before, which no event explains; they are left out and
# counted (a 1 s recording of a 60 FPS game 1.5 s in)
"$FB" -d 4s -w 200ms -q >/dev/null 2>&1 &
fbpid=$!
sleep 1.5
"$FT" record -q -d 1s --feed-pid "$fbpid" -o "$T/late.ftr" >/dev/null 2>&1 ||
	fail "record --feed-pid of a running framebench"
kill "$fbpid" 2>/dev/null
wait "$fbpid" 2>/dev/null
"$FT" info "$T/late.ftr" >"$T/late" || fail "info of the late recording"
early=$(sed -n 's/^meta feed_frames_before_recording=//p' "$T/late")
[ "${early:-0}" -ge 30 ] || fail "frames from before the recording: '${early:-}' counted (expected >= 30)"
n=$(awk '/^frames:/ { print $2 }' "$T/late")
[ "${n:-0}" -ge 20 ] && [ "${n:-0}" -le 80 ] ||
	fail "a 1 s recording at 60 FPS kept ${n:-0} frames (expected 20-80)"
# a closed terminal (SIGHUP) must not lose the recording: alone, and
# with a command (which gets the same signal), the trace is written
"$FT" record -q -o "$T/hup.ftr" >/dev/null 2>"$T/hup.err" &
BG_PID=$!
sleep 2
kill -HUP "$BG_PID"
wait "$BG_PID" || fail "record ended by SIGHUP: exit $? ($(cat "$T/hup.err"))"
"$FT" record -q -o "$T/hupc.ftr" -- sleep 30 >/dev/null 2>"$T/hupc.err" &
BG_PID=$!
sleep 2
kill -HUP "$BG_PID"
wait "$BG_PID" || fail "record CMD ended by SIGHUP: exit $? ($(cat "$T/hupc.err"))"
BG_PID=
for f in hup hupc; do
	"$FT" info "$T/$f.ftr" 2>&1 | grep -q "^  sched_switch " ||
		fail "the recording ended by SIGHUP ($f) holds no events"
done
finish "frametrace record"
