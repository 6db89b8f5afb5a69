#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A game started by a launcher, imported from perf's default text (tids,
# no pids): `timeout` runs a shell script that runs Debian's glxgears on
# an Xvfb of the test's own, recorded system-wide with the events of
# `perf sched record` (no sched_process_exec) and perf's own uprobe on
# glXSwapBuffers; perf stops while the game still runs, so no exit says
# which task led a process. The frames must be glxgears's, under its own
# pid and name (taking every fork for a thread once named them after
# timeout), and the warning must say what decided it: glxgears renamed
# after the shell forked it, while the shell slept.
# Skips (77), saying why, without root, perf, Xvfb, glxgears or libGLX
# (scripts/deps.sh installs xvfb and mesa-utils).
. tests/lib.sh
FT=$B/frametrace
JG=$B/tests/jsonget
need "$FT"
need "$JG"

[ "$(id -u)" -eq 0 ] || skip "needs root (perf probe, system-wide perf record)"
command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 ||
	skip "no working perf"
command -v Xvfb >/dev/null 2>&1 || skip "no Xvfb (Debian package xvfb)"
command -v glxgears >/dev/null 2>&1 || skip "no glxgears (Debian package mesa-utils)"
GLX=$(ldconfig -p 2>/dev/null | awk '$1 == "libGLX.so.0" { print $NF; exit }')
[ -n "$GLX" ] || skip "no libGLX.so.0 (libglx0)"

G=ftlaunch$$
XPID='' PPID_='' LPID=''
cleanup() {
	[ -n "$PPID_" ] && kill -INT "$PPID_" 2>/dev/null && wait "$PPID_" 2>/dev/null
	[ -n "$LPID" ] && kill "$LPID" 2>/dev/null && wait "$LPID" 2>/dev/null
	[ -n "$XPID" ] && kill "$XPID" 2>/dev/null && wait "$XPID" 2>/dev/null
	perf probe -q -d "$G:*" >/dev/null 2>&1
	at_exit
}
trap cleanup EXIT
trap 'exit 141' PIPE

glxgears_display

perf probe -q -f -x "$GLX" -a "$G:glXSwapBuffers=glXSwapBuffers" >"$T/probe.err" 2>&1 ||
	skip "perf probe failed: $(tail -1 "$T/probe.err")"
# the launcher script: what a game's start script does before the game
cat >"$T/start-game.sh" <<'EOF'
#!/bin/sh
vblank_mode=0
export vblank_mode
glxgears >/dev/null 2>&1
EOF
# perf sched record's events (it records no exec), and the present probe
perf record -q -k mono -a -m 16M -e sched:sched_switch -e sched:sched_stat_runtime \
	-e sched:sched_process_fork -e sched:sched_wakeup -e sched:sched_wakeup_new \
	-e sched:sched_migrate_task -e "$G:glXSwapBuffers*" \
	-o "$T/perf.data" >"$T/perf.out" 2>&1 &
PPID_=$!
sleep 1
kill -0 "$PPID_" 2>/dev/null || skip "perf record failed: $(tail -1 "$T/perf.out")"
timeout 30 sh "$T/start-game.sh" &
LPID=$!
sleep 3
# perf stops while the game runs: no exit in the text
kill -INT "$PPID_"
wait "$PPID_"
PPID_=
gpid=$(pgrep -n -x glxgears)
kill "$LPID" 2>/dev/null
wait "$LPID" 2>/dev/null
LPID=
i=0
while pgrep -x glxgears >/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
[ -n "$gpid" ] || fail "glxgears did not run under the launcher"
perf script -i "$T/perf.data" --ns >"$T/default.txt" 2>/dev/null || fail "perf script failed"
grep -m1 "sched_process_fork" "$T/default.txt"
grep -q "sched_process_exec" "$T/default.txt" && fail "the text has exec lines"
"$FT" import -o "$T/l.ftr" "$T/default.txt" 2>"$T/imp.err" ||
	fail "import: $(cat "$T/imp.err")"
cat "$T/imp.err"
grep -q "presenter glxgears (tid $gpid) is in process glxgears ($gpid): renamed after sh ([0-9]*) forked it, its only child, and slept" \
	"$T/imp.err" || fail "the warning does not say what made glxgears a process"
"$FT" report --json "$T/l.ftr" >"$T/l.json" 2>/dev/null || fail "report --json"
src=$($JG "$T/l.json" frames.source) fpid=$($JG "$T/l.json" frames.pid)
echo "frames: $src (pid $fpid)"
[ "$fpid" = "$gpid" ] || fail "the frames' pid is $fpid, glxgears's $gpid"
case $src in *"of glxgears"*) ;; *) fail "frames named '$src'" ;; esac
"$FT" profile -o "$T/g.prof" "$T/l.ftr" >/dev/null 2>"$T/prof.err" ||
	fail "profile: $(cat "$T/prof.err")"
tail -n 1 "$T/prof.err"
grep -q "frames of glxgears ($gpid)" "$T/prof.err" ||
	fail "the profile is not glxgears's: $(tail -n 1 "$T/prof.err")"
grep -q "^comm .*\"timeout\"\|^comm .*\"sh\"" "$T/g.prof" && fail "the profile names the launcher"
pgrep -x glxgears >/dev/null && fail "glxgears left running"
finish "frametrace launched game"
