#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Frames from the present calls of an unmodified OpenGL program: Debian's
# glxgears on Xvfb with Mesa's software renderer, recorded by
# `frametrace record --present auto -- glxgears` while perf records the same
# run through its own uprobe on glXSwapBuffers (`perf probe`, system-wide).
# Both see the same calls, so the frame counts must agree within 1 % + 2
# (a present in flight when the recorder stops the program may be in one
# and not the other), plus what perf says it lost (its buffer full on a
# busy machine), and the frame-time p50 within 2 % when perf lost nothing
# (each uprobe takes its own timestamp, a few microseconds apart; the
# frames are about 0.6 ms). The perf text is imported with the
# frames taken from its uprobe events, and the recording must name the
# present function, leave no uprobe, no Xvfb and no glxgears behind.
# Skips (77), saying why, without root, perf, Xvfb, glxgears or libGLX
# (scripts/deps.sh installs xvfb and mesa-utils).
. tests/lib.sh
FT=$B/frametrace
JG=$B/tests/jsonget
need "$FT"
need "$JG"

[ "$(id -u)" -eq 0 ] || skip "needs root (BPF uprobes, perf probe)"
command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 ||
	skip "no working perf"
command -v Xvfb >/dev/null 2>&1 || skip "no Xvfb (Debian package xvfb)"
command -v glxgears >/dev/null 2>&1 || skip "no glxgears (Debian package mesa-utils)"
GLX=$(ldconfig -p 2>/dev/null | awk '$1 == "libGLX.so.0" { print $NF; exit }')
[ -n "$GLX" ] || skip "no libGLX.so.0 (libglx0)"

G=ftpresent$$
XPID='' PPID_=''
cleanup() {
	[ -n "$PPID_" ] && kill -INT "$PPID_" 2>/dev/null && wait "$PPID_" 2>/dev/null
	[ -n "$XPID" ] && kill "$XPID" 2>/dev/null && wait "$XPID" 2>/dev/null
	perf probe -q -d "$G:*" >/dev/null 2>&1
	at_exit
}
trap cleanup EXIT
# a reader that stops reading (| head) still gets the cleanup
trap 'exit 141' PIPE

# a display of our own
glxgears_display

# perf's own uprobe, in a group of this test's (removed at exit)
perf probe -q -f -x "$GLX" -a "$G:glXSwapBuffers=glXSwapBuffers" >"$T/probe.err" 2>&1 ||
	skip "perf probe failed: $(tail -1 "$T/probe.err")"
perf record -q -k mono -a -m 16M -e "$G:glXSwapBuffers*" -e sched:sched_switch \
	-o "$T/perf.data" >"$T/perf.out" 2>&1 &
PPID_=$!
sleep 1
"$FT" record -d 3s --present auto -o "$T/r.ftr" -- glxgears \
	>"$T/rec.out" 2>"$T/rec.err" || fail "record --present auto: $(cat "$T/rec.err")"
sleep 0.2
kill -INT "$PPID_"
wait "$PPID_"
PPID_=
pgrep -x glxgears >/dev/null && fail "glxgears left running"
"$FT" info "$T/r.ftr" >"$T/info" || fail "info failed"
grep "^meta present=" "$T/info"
grep -q "^meta present=glXSwapBuffers@.*libGLX" "$T/info" ||
	fail "the recording does not name glXSwapBuffers in libGLX"
# glvnd's libGL only jumps into libGLX: probing it too counts each frame
# twice (the loader maps it before libGLX, so a look at the maps in
# between once did)
grep "^meta present=" "$T/info" | grep -q "glXSwapBuffers@[^ ]*/libGL\.so" &&
	fail "libGL's glXSwapBuffers probed beside libGLX's"

# perf's probe is system-wide: present calls of another glxgears (a test
# running beside this one) are left out, the recorded process's kept
gpid=$(sed -n 's/^meta present=.*(pid \([0-9]*\)).*/\1/p' "$T/info" | head -n 1)
perf script -i "$T/perf.data" -F comm,pid,tid,cpu,time,event,trace --ns 2>/dev/null |
	awk -v ev="$G:glXSwapBuffers" -v pid="${gpid:-0}" \
		'index($0, ev) && index($2, pid "/") != 1 { next } { print }' \
	>"$T/script.txt" || fail "perf script failed"
grep -m1 "$G:glXSwapBuffers" "$T/script.txt"
# what perf lost (its buffer full on a busy machine): its frames then
# merge two presents into one
plost=$(perf report -i "$T/perf.data" --stats 2>/dev/null |
	awk '/LOST/ && /events:/ { s += $3 } END { print s + 0 }')
echo "perf lost $plost events"
"$FT" import -o "$T/p.ftr" "$T/script.txt" 2>"$T/imp.err" ||
	fail "import of the perf uprobe recording: $(cat "$T/imp.err")"
grep -q "unknown events" "$T/imp.err" && fail "import: $(cat "$T/imp.err")"

"$FT" report --json "$T/r.ftr" >"$T/r.json" 2>/dev/null || fail "report (record)"
"$FT" report --json "$T/p.ftr" >"$T/p.json" 2>/dev/null || fail "report (perf)"
"$FT" report "$T/r.ftr" 2>/dev/null | sed -n '/^frames:/,/slow frames/p'
"$FT" report "$T/p.ftr" 2>/dev/null | sed -n '/^frames:/,/slow frames/p'
rn=$($JG "$T/r.json" frames.count) rp50=$($JG "$T/r.json" frames.frametime_ms.p50)
pn=$($JG "$T/p.json" frames.count) pp50=$($JG "$T/p.json" frames.frametime_ms.p50)
rsrc=$($JG "$T/r.json" frames.source)
echo "record: $rn frames, p50 $rp50 ms ($rsrc); perf: $pn frames, p50 $pp50 ms"
# record's summary counts frames as the reader makes them (N presents of
# a thread are N - 1 frames); it once said "0 frames" beside the calls
cat "$T/rec.err"
sn=$(sed -n 's/.* \([0-9][0-9]*\) frames (present calls).*/\1/p' "$T/rec.err")
[ "${sn:-x}" = "$rn" ] || fail "record's summary says '${sn:-no}' frames, the report $rn"
case $rsrc in "present calls (glXSwapBuffers) of glxgears:"*) ;;
*) fail "frames of the recording come from '$rsrc'" ;; esac
[ "${rn:-0}" -gt 100 ] || fail "only ${rn:-0} frames recorded"
echo "$rn $pn $rp50 $pp50 $plost" | awk '{
	dn = $1 - $2; if (dn < 0) dn = -dn
	dp = $3 - $4; if (dp < 0) dp = -dp
	if (dn > 0.01 * $2 + 2 + $5) { print "FAIL: frame counts " $1 " vs " $2; bad = 1 }
	if ($5 == 0 && dp > 0.02 * $4) { print "FAIL: frame-time p50 " $3 " vs " $4 " ms"; bad = 1 }
	if ($5 > 0) print "note: perf lost events: p50 not compared"
	exit bad }' || fails=$((fails + 1))

# watch: the same frames drive the triggers (every frame is over 10 us)
"$FT" watch -q -o "$T/w" --present auto --frame-ms 0.01 --pre 500ms \
	--post 100ms --min-gap 500ms --max-captures 2 -d 2s -- glxgears \
	>/dev/null 2>"$T/w.err" || fail "watch --present auto: $(cat "$T/w.err")"
cat "$T/w/captures.log"
grep -q "^capture 1: frame .* of glxgears [0-9]* (glXSwapBuffers)" "$T/w/captures.log" ||
	fail "no capture triggered by a glXSwapBuffers frame"
c1=$(grep "^capture 1:" "$T/w/captures.log")
# the first frame fires it: there is no median yet (it said "median
# 0.00 ms"), and a window reaching before the watch began is a young
# watch, not a ring to enlarge
case $c1 in *"(no median yet)"*) ;; *) fail "capture 1 does not say there is no median yet" ;; esac
case $c1 in *"raise --ring-slots"*) fail "capture 1 blames the ring size: $c1" ;; esac
case $c1 in *"the watch had run only "*) ;; *) fail "capture 1 does not say the watch was young" ;; esac
# every frame is over 0.01 ms: the frames of the --post window are merged
# into the capture, and the worst of them is named when it is not the
# trigger's
case $c1 in *" more triggers merged"*) ;; *) fail "capture 1 names no merged triggers" ;; esac
echo "$c1" | awk '{
	t = $0; sub(/^capture 1: frame /, "", t); sub(/ ms.*/, "", t)
	if (match($0, /the worst frame [0-9.]+ ms/)) {
		w = substr($0, RSTART + 16, RLENGTH - 19)
		if (w + 0 <= t + 0) { print "FAIL: worst merged frame " w " ms <= the trigger'"'"'s " t " ms"; exit 1 }
	} }' || fails=$((fails + 1))
# a capture's report explains the frame its line names first
"$FT" report "$T/w/capture-001.ftr" 2>/dev/null | grep -q "\[the capture's trigger\]" ||
	fail "capture 1's report does not explain its trigger's frame"
# the running median at the trigger is the captures' baseline
"$FT" info "$T/w/capture-002.ftr" 2>/dev/null | grep -q "^meta trigger_median_ns=[1-9]" ||
	fail "capture 2 keeps no trigger_median_ns"
n=$("$FT" info "$T/w/capture-001.ftr" 2>/dev/null | awk '/^  present / { print $2 }')
[ "${n:-0}" -gt 10 ] || fail "capture 1 holds ${n:-0} present calls"
pgrep -x glxgears >/dev/null && fail "glxgears left running by watch"
finish "frametrace present calls"
