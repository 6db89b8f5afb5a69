#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The repaired timeline on real perf recordings of framebench with two
# background hogs (the machine busy): `perf record -e 'sched:*' -- CMD`
# records only what the command's own tasks emit, so every switch into
# them from another task or the idle task is missing and has to be
# reconstructed; `perf sched record` records every CPU. In the timeline
# frametrace builds from either, an event is emitted by the task the
# switches put on its CPU (`timeline_contradictions` counts the events
# where the input leaves no other way: at most 1 in 1000 events, and
# printed), and the Perfetto export read back keeps the same switches and
# contradicts nothing more. Skips (77) without root or a working perf.
. tests/lib.sh
FT=$B/frametrace
FB=$B/framebench
JG=$B/tests/jsonget
need "$FT"
need "$FB"
need "$JG"

[ "$(id -u)" -eq 0 ] || skip "perf record needs root"
command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 ||
	skip "no working perf"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

perf record -q -k mono -e 'sched:*' -o "$T/cmd.data" -- \
	"$FB" -d 2s -w 200ms --bg hogs:2 --trace-markers -q >/dev/null 2>"$T/err" ||
	skip "perf record failed: $(tail -1 "$T/err")"
perf sched record -k mono -o "$T/sys.data" -- \
	"$FB" -d 2s -w 200ms --bg hogs:2 --trace-markers -q >/dev/null 2>"$T/err" ||
	skip "perf sched record failed: $(tail -1 "$T/err")"
perf script -i "$T/cmd.data" -F comm,pid,tid,cpu,time,event,trace --ns \
	>"$T/cmd.txt" 2>/dev/null || fail "perf script (command)"
perf script -i "$T/sys.data" --ns >"$T/sys.txt" 2>/dev/null ||
	fail "perf script (system)"

for x in cmd sys; do
	"$FT" import -q -o "$T/$x.ftr" "$T/$x.txt" 2>"$T/$x.err" ||
		{ fail "import $x: $(cat "$T/$x.err")"; continue; }
	"$FT" report --json "$T/$x.ftr" >"$T/$x.json" 2>/dev/null || fail "report $x"
	ev=$($JG "$T/$x.json" events) c=$($JG "$T/$x.json" timeline_contradictions)
	r0=$($JG "$T/$x.json" reconstructed_switches)
	r1=$($JG "$T/$x.json" repaired_switches_other)
	echo "$x: $ev events, switch-ins reconstructed $r0 idle->task, $r1 other; $c events by a task not switched in"
	[ -n "$c" ] || { fail "$x: no timeline_contradictions in the report"; continue; }
	[ "$c" -le $((ev / 1000)) ] || fail "$x: $c events by a task not switched in on their CPU"
	# the export read back: the same switches, nothing more contradicted
	"$FT" export --perfetto "$T/$x.exp" "$T/$x.ftr" || fail "export $x"
	"$FT" report --json "$T/$x.exp" >"$T/$x.exp.json" 2>/dev/null || fail "report of the export ($x)"
	c2=$($JG "$T/$x.exp.json" timeline_contradictions)
	s1=$("$FT" info "$T/$x.ftr" | awk '/^  sched_switch / { print $2 }')
	"$FT" import -q -o "$T/$x.back" "$T/$x.exp" || fail "import of the export ($x)"
	s2=$("$FT" info "$T/$x.back" | awk '/^  sched_switch / { print $2 }')
	[ "$s1" = "$s2" ] || fail "$x: export has $s2 switches, the timeline $s1"
	[ "${c2:-1}" -le "$c" ] || fail "$x: the export contradicts itself $c2 times (timeline: $c)"
done
# the command's recording misses every switch another task emitted
r=$($JG "$T/cmd.json" reconstructed_switches)
o=$($JG "$T/cmd.json" repaired_switches_other)
[ $((r + o)) -gt 0 ] || fail "a one-command recording with no switch to reconstruct"
finish "frametrace repaired timeline"
