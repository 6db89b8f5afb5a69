#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# gamesuite's real-game path with the MangoHud users have: Debian 12's
# MangoHud 0.6.8 on glxgears (Mesa's software renderer) on an Xvfb of our
# own. 0.6.8 starts logging at the first frame whatever autostart_log says,
# and writes its log only when log_duration expires (nothing if the game
# exits first), so gamesuite logs the whole run (log_duration = startup +
# duration + 1 s), asks the game to quit only once the log is written, and
# cuts the startup from the log by its elapsed column. Checks: the run is
# kept, its log covers startup + duration, and the frames measured are
# exactly the log's rows of the measured span. Skips (77), saying why,
# without Xvfb, glxgears or mangohud (scripts/deps.sh installs them).
. tests/lib.sh
GS=$B/gamesuite
JG=$B/tests/jsonget
need "$GS"
need "$JG"

command -v Xvfb >/dev/null 2>&1 || skip "no Xvfb (Debian package xvfb)"
command -v glxgears >/dev/null 2>&1 || skip "no glxgears (Debian package mesa-utils)"
command -v mangohud >/dev/null 2>&1 || skip "no mangohud (Debian package mangohud)"

XPID=''
cleanup() {
	[ -n "$XPID" ] && kill "$XPID" 2>/dev/null && wait "$XPID" 2>/dev/null
	at_exit
}
trap cleanup EXIT

# a display of our own
glxgears_display

# glxgears is OpenGL: MangoHud through its wrapper (LD_PRELOAD); gamesuite
# sets MANGOHUD=1 and the config for it
cat >"$T/gears.suite" <<EOF
repeat 1
warmup 0
workload gears
  kind game
  command mangohud glxgears
  mangohud-config $(pwd)/gamesuite/MangoHud.conf
  startup 2s
  duration 3s
workload late
  kind game
  command sleep 5; exec mangohud glxgears
  mangohud-config $(pwd)/gamesuite/MangoHud.conf
  startup 1s
  duration 2s
EOF
"$GS" run "$T/gears.suite" --sched eevdf --cooldown 0 --settle 0 --probe-factor 0 \
	--max-other-cpu 100 --max-busy 100 -q --workdir "$T/w" --json "$T/g.json" \
	>"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "a glxgears run with MangoHud: exit 0" ||
	{ fail "gamesuite run: exit $rc"; cat "$T/out"; }
st=$("$JG" "$T/g.json" runs.0.status 2>&1)
[ "$st" = ok ] && pass "the run is kept (ok)" ||
	fail "run status '$st': $("$JG" "$T/g.json" runs.0.reason 2>&1)"
log=''
for f in "$T"/w/run-*-gears-*/*.csv; do
	case $f in *_summary.csv) ;; *) [ -f "$f" ] && log=$f ;; esac
done
[ -n "$log" ] || { fail "no MangoHud log in the run's folder"; finish "gamesuite with MangoHud"; }
head -3 "$log"
# the log covers the whole run: logging began at the first frame (0.6.8
# ignores autostart_log) and lasted past startup + duration
awk -F, 'NR > 3 { e = $NF } END { printf "log: %d rows, last at %.2f s\n", NR - 3, e / 1e9 }' "$log"
awk -F, 'NR > 3 { e = $NF } END { exit !(e >= 5e9) }' "$log" &&
	pass "the log covers startup + duration" ||
	fail "the log ends before startup + duration (log_duration too short)"
# the frames measured are the log's rows of [startup, startup + duration)
# (0.6.8's frame times are in us: its logging began at the first frame)
want=$(awk -F, 'NR > 3 && $NF >= 2e9 && $NF < 5e9 && $2 > 0 { n++ } END { print n + 0 }' "$log")
got=$("$JG" "$T/g.json" runs.0.frames 2>&1)
echo "frames measured: $got; rows of the log in 2..5 s: $want"
[ "$got" = "$want" ] && [ "${want:-0}" -gt 100 ] &&
	pass "the startup is cut from the log, the measured span kept" ||
	fail "frames measured $got, the log's rows in the span $want"
# a game whose first frame comes 5 s late: its log (4 s from then) is
# written after startup + duration + 5 s, when gamesuite used to stop the
# game and find no log; it now waits for the log, then stops it
st=$("$JG" "$T/g.json" runs.1.status 2>&1)
[ "$st" = ok ] && pass "a late game's run is kept (its log waited for)" ||
	fail "late game: run status '$st': $("$JG" "$T/g.json" runs.1.reason 2>&1)"
finish "gamesuite with MangoHud"
