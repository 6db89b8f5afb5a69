#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# gamesuite end to end on a machine without sched_ext: bad input, a
# stand-in game with MangoHud-format logs (a verdict that must come out
# "worse"), scheduler commands that load, fail, get ejected, re-enable or
# show the wrong ops (through a fake sched_ext directory), unknown commands,
# absent external tools, disturbance detection, and Ctrl-C. Asserts on
# behaviour and counts, never on timings.
. tests/lib.sh
GS=$B/gamesuite
JG=$B/tests/jsonget
TD=$(pwd)/gamesuite/testdata
need "$GS"
need "$JG"

# expect FILE PATH VALUE
expect() {
	got=$("$JG" "$1" "$2" 2>&1)
	if [ "$got" = "$3" ]; then pass "$2 = $3"; else fail "$2: got '$got', want '$3'"; fi
}
QUIET="--cooldown 0 --settle 0 --probe-factor 0 --max-other-cpu 100 --max-busy 100 -q"

# ---- bad input ----------------------------------------------------------
printf 'repeat 3\nworkload a\n  kind framebench\n  fps fast\n' >"$T/bad.suite"
"$GS" run "$T/bad.suite" --sched eevdf >"$T/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "bad.suite:4: fps" "$T/out" &&
	pass "malformed suite: exit 2 with file:line" ||
	{ fail "malformed suite: rc $rc"; cat "$T/out"; }
"$GS" run "$T/none.suite" --sched eevdf >/dev/null 2>&1
[ $? -eq 2 ] && pass "missing suite: exit 2" || fail "missing suite"
printf 'workload g\n  kind game\n  command true\n  mangohud-config /dev/null\n' >"$T/g.suite"
"$GS" run "$T/g.suite" >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "no --sched" "$T/out" && pass "no --sched: exit 2" || fail "no --sched"
"$GS" run "$T/g.suite" --sched eevdf --bogus >"$T/out" 2>&1
[ $? -eq 2 ] && grep -qx "gamesuite: unknown option '--bogus' (see --help)" "$T/out" &&
	pass "unknown option: exit 2" || fail "unknown option: $(cat "$T/out")"
# --help is made from the option table (lib/opttab.c): every option listed
"$GS" --help >"$T/out" 2>&1
[ $? -eq 0 ] && grep -q '^  --version  *print the version$' "$T/out" &&
	pass "--help lists --version" || fail "--help: $(cat "$T/out")"
"$GS" run "$T/g.suite" --sched eevdf --version >"$T/out" 2>&1
[ $? -eq 0 ] && grep -q '^gamesuite .* (gamesched)$' "$T/out" &&
	pass "run ... --version prints the version" || fail "run --version: $(cat "$T/out")"
"$GS" run "$T/g.suite" --sched >"$T/out" 2>&1
[ $? -eq 2 ] && grep -qx "gamesuite: option '--sched' needs a value (see --help)" "$T/out" &&
	pass "option without its value: exit 2" || fail "option without its value: $(cat "$T/out")"
"$GS" run "$T/g.suite" --sched eevdf --repeat 0 >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "option --repeat" "$T/out" && pass "bad --repeat: exit 2" || fail "bad --repeat"
"$GS" run "$T/g.suite" --sched "lavd 'x" >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "unbalanced" "$T/out" && pass "bad --sched quoting: exit 2" || fail "bad --sched"

# a key given twice, a NUL byte, a directory: refused with file (and line)
printf 'repeat 3\nrepeat 4\nworkload a\n  kind schbench\n' >"$T/twice.suite"
expect_exit 2 "gamesuite: $T/twice.suite:2: repeat given twice (first on line 1)" "$GS" check "$T/twice.suite"
printf 'workload a\n  kind schbench\n  duration 1s\nworkload b\n  kind schbench\n  duration 2s\n  duration 3s\n' >"$T/twice.suite"
expect_exit 2 "gamesuite: $T/twice.suite:7: duration given twice (first on line 6)" "$GS" check "$T/twice.suite"
printf 'repeat 3\nworkl\000oad a\n  kind schbench\n' >"$T/nul.suite"
expect_exit 2 "gamesuite: $T/nul.suite:2: a NUL byte: not a text file" "$GS" check "$T/nul.suite"
mkdir "$T/dir.suite"
expect_exit 2 "gamesuite: $T/dir.suite: cannot open: not a regular file (a directory)" "$GS" check "$T/dir.suite"
grep -q ":0:" "$T/err" && fail "a message names line 0: $(cat "$T/err")"

# ---- check: the shipped suites parse -----------------------------------------
for s in gamesuite/suites/*.suite; do
	if "$GS" check "$s" >"$T/out" 2>&1; then pass "check $s"; else fail "check $s"; cat "$T/out"; fi
done
# ---- check: each workload judges its own invocation, as a run would ----------
# (a suite that parses but whose workload refuses its options failed every
# run; check now fails with the workload's complaint)
if [ -x "$B/framebench" ]; then
	cat >"$T/bad.suite" <<EOF
repeat 1
workload nobg
  kind framebench
  bg hogs:0
  duration 1s
workload noprofile
  kind framebench
  profile nosuch
  duration 1s
workload good
  kind framebench
  bg hogs:2
  duration 1s
workload badshell
  kind game
  command echo 'unterminated
  mangohud-config $(pwd)/gamesuite/MangoHud.conf
  duration 1s
EOF
	mkdir "$T/tmp"
	TMPDIR=$T/tmp PATH="$B:$PATH" "$GS" check "$T/bad.suite" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && pass "check of refused workloads: exit 2" || fail "check of refused workloads: exit $rc"
	grep -q "workload nobg: framebench: option --bg: .*got 'hogs:0'" "$T/err" &&
		pass "check names framebench's complaint about bg hogs:0" || fail "bg hogs:0: $(cat "$T/err")"
	grep -q "workload noprofile: framebench: unknown profile 'nosuch'" "$T/err" &&
		pass "check names the unknown profile" || fail "profile: $(cat "$T/err")"
	grep -q "workload badshell: .*[Uu]nterminated" "$T/err" &&
		pass "check names the game command's syntax error" || fail "game: $(cat "$T/err")"
	grep -q "workload good" "$T/err" && fail "a good workload refused: $(cat "$T/err")"
	ls -d "$T"/tmp/gamesuite-check.* >/dev/null 2>&1 && fail "check left a temporary folder"
	# a reader that goes away (check | head) stops check with exit 1,
	# never in the middle of a workload's check (its folder left behind)
	for i in 1 2 3; do
		{
			sleep 0.3
			TMPDIR=$T/tmp PATH="$B:$PATH" "$GS" check "$T/bad.suite" 2>/dev/null
			echo $? >"$T/rc"
		} | true
		[ "$(cat "$T/rc")" = 1 ] || fail "check | true: exit $(cat "$T/rc"), expected 1"
	done
	ls -d "$T"/tmp/gamesuite-check.* >/dev/null 2>&1 &&
		fail "check | true left a temporary folder: $(ls -d "$T"/tmp/gamesuite-check.*)"
else
	echo "note: $B/framebench not built; the workload check is left out"
fi

# ---- a game with MangoHud logs: eevdf against a 'slow' stand-in -------------
cat >"$T/game.suite" <<EOF
repeat 5
warmup 1
workload fake-game
  kind game
  command $TD/fake-game.sh ok slow
  mangohud-config $(pwd)/gamesuite/MangoHud.conf
  startup 1s
  duration 20s
workload sampled
  kind game
  command $TD/fake-game.sh sampled
  mangohud-config /dev/null
workload crashes
  kind game
  command $TD/fake-game.sh crash
  mangohud-config /dev/null
workload absent
  kind schbench
  binary /nonexistent/schbench
EOF
"$GS" run "$T/game.suite" --sched eevdf --sched default --label slow $QUIET \
	--only fake-game --only absent --json "$T/g.json" --html "$T/g.html" >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "game suite: exit 0" || { fail "game suite: rc $rc"; cat "$T/out"; }
expect "$T/g.json" workloads.fake-game.metrics.avg_fps.schedulers.slow.verdict worse
expect "$T/g.json" workloads.fake-game.metrics.frametime_p99_ms.schedulers.slow.verdict worse
expect "$T/g.json" workloads.fake-game.metrics.frametime_p99_ms.better lower
expect "$T/g.json" workloads.fake-game.metrics.low1_average_fps.schedulers.eevdf.verdict same
expect "$T/g.json" workloads.fake-game.metrics.avg_fps.schedulers.eevdf.n 5
expect "$T/g.json" workloads.absent.status skipped
expect "$T/g.json" summary.kept 10
expect "$T/g.json" summary.warmup 2
"$JG" "$T/g.json" system.kernel system.arch system.cpu_model system.ncpus \
	system.scheduler system.sched_ext.present >/dev/null &&
	pass "system description present" || fail "system description missing"
"$JG" "$T/g.json" workloads.fake-game.metrics.low01_percentile_fps.schedulers.slow.ratio_hi \
	workloads.fake-game.metrics.low1_integral_fps.schedulers.slow.median >/dev/null &&
	pass "interval and integral low present" || fail "interval/integral missing"
grep -q "<svg" "$T/g.html" && grep -q "frame-time CDF" "$T/g.html" &&
	! grep -q "<script" "$T/g.html" && pass "HTML report with inline SVG" || fail "HTML report"
grep -q "slow .* worse" "$T/out" && pass "terminal table shows the verdict" || fail "terminal table"

"$GS" run "$T/game.suite" --sched eevdf $QUIET --repeat 1 --warmup 0 \
	--only sampled --only crashes --json "$T/c.json" >"$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && pass "failing workloads: exit 1" || fail "failing workloads: rc $rc"
expect "$T/c.json" summary.workload_failed 2
grep -q "periodic samples" "$T/out" && pass "sampled MangoHud log reported" || fail "sampled log"
grep -q "signal 11" "$T/out" && pass "crash reported" || fail "crash"

# MangoHud rows that are no frame (0 ms, over a minute) are left out, as
# frametrace leaves them out (one reader, lib/mangohud.c): the same frames
# with such rows give the same figures (GAMESUITE_RUN=0: the same frames
# in both), and the run does not fail (2000 frames each, not the span
# log_duration asks for: the count of rows left out below is 2000 / 25 + 1,
# and 2 whose elapsed time is damaged: such a row does not make the log
# periodic samples)
cat >"$T/rough.suite" <<EOF
workload clean
  kind game
  command GAMESUITE_RUN=0 MANGOHUD_CONFIG= $TD/fake-game.sh ok
  mangohud-config /dev/null
workload rough
  kind game
  command GAMESUITE_RUN=0 MANGOHUD_CONFIG= $TD/fake-game.sh rough
  mangohud-config /dev/null
EOF
"$GS" run "$T/rough.suite" --sched eevdf $QUIET --repeat 1 --warmup 0 \
	--json "$T/r.json" >"$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "rows that are no frame: exit 0" || fail "rows that are no frame: rc $rc: $(cat "$T/out")"
for m in avg_fps frametime_p99_ms low1_average_fps; do
	a=$("$JG" "$T/r.json" workloads.clean.metrics.$m.schedulers.eevdf.median)
	b=$("$JG" "$T/r.json" workloads.rough.metrics.$m.schedulers.eevdf.median)
	[ -n "$a" ] && [ "$a" = "$b" ] && pass "$m: rough log = clean log ($a)" ||
		fail "$m: rough log $b, clean log $a"
done
grep -q "fakegame_.*\.csv:5: 83 MangoHud rows left out: a frame time of 0 ms or over a minute is no frame" "$T/out" ||
	fail "left-out rows not reported: $(cat "$T/out")"

# ---- scheduler commands against a fake sched_ext directory ------------------
SCX=$T/scx
mkdir -p "$SCX"
echo disabled >"$SCX/state"
echo 0 >"$SCX/enable_seq"
FS=$TD/fake-sched.sh
cat >"$T/sched.suite" <<EOF
repeat 2
warmup 0
workload wait
  kind game
  command sleep 0.6; exec $TD/fake-game.sh ok
  mangohud-config /dev/null
EOF
"$GS" run "$T/sched.suite" $QUIET --sched-ext-root "$SCX" --load-timeout 5s \
	--stop-timeout 5s --json "$T/s.json" --html "$T/s.html" \
	--sched eevdf \
	--sched "$FS $SCX fake ok" --ops fake --label fake-ok \
	--sched "$FS $SCX fake fail" --ops fake --label fake-fail \
	--sched "$FS $SCX fake eject 0.3" --ops fake --label fake-eject \
	--sched "$FS $SCX other ok" --ops fake --label fake-wrong \
	--sched "$FS $SCX fake reenable 0.3" --ops fake --label fake-reenable \
	--sched "no-such-scheduler --fast" >"$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && pass "scheduler failures: exit 1" || { fail "scheduler failures: rc $rc"; cat "$T/out"; }
expect "$T/s.json" schedulers.fake-ok.status ok
expect "$T/s.json" workloads.wait.metrics.avg_fps.schedulers.fake-ok.n 2
expect "$T/s.json" schedulers.fake-fail.status "failed to load"
expect "$T/s.json" "schedulers.no-such-scheduler --fast.status" "unknown command"
expect "$T/s.json" summary.load_failed 2
expect "$T/s.json" summary.ejected 4
expect "$T/s.json" summary.wrong_scheduler 2
expect "$T/s.json" workloads.wait.metrics.avg_fps.schedulers.fake-eject.n 0
expect "$T/s.json" summary.machine_restored true
grep -q "loader exited during the run" "$T/out" && pass "ejection by loader exit reported" || fail "ejection report"
grep -q "enable_seq" "$T/out" && pass "re-enable (enable_seq) reported" || fail "enable_seq report"
grep -q "ops is 'other', expected 'fake'" "$T/out" && pass "wrong ops reported" || fail "wrong ops"
grep -q "rejected by the verifier" "$T/s.html" && pass "loader output in the run log" || fail "loader log tail"
[ "$(cat "$SCX/state")" = disabled ] && pass "left on the default scheduler" || fail "state $(cat "$SCX/state")"
if pgrep -f "$SCX" >/dev/null; then fail "fake loaders left running"; else pass "no loader left running"; fi

# ---- Ctrl-C: stops the run, unloads, writes what it has ---------------------
cat >"$T/long.suite" <<EOF
repeat 3
warmup 0
workload long
  kind game
  command $TD/fake-game.sh sleep $T
  mangohud-config /dev/null
EOF
"$GS" run "$T/long.suite" $QUIET --sched-ext-root "$SCX" --sched eevdf \
	--sched "$FS $SCX fake ok" --ops fake --json "$T/i.json" >"$T/out" 2>&1 &
pid=$!
i=0
while [ "$(cat "$SCX/state")" != enabled ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 1 ] && pass "Ctrl-C: exit 1" || fail "Ctrl-C: rc $rc"
expect "$T/i.json" summary.interrupted true
expect "$T/i.json" summary.interrupted_runs 1
[ "$(cat "$SCX/state")" = disabled ] && pass "Ctrl-C: scheduler unloaded" || fail "Ctrl-C: state $(cat "$SCX/state")"
sleep 0.2
if pgrep -f "$T" >/dev/null; then fail "Ctrl-C: processes left"; pgrep -af "$T"; else pass "Ctrl-C: nothing left running"; fi

# ---- disturbance: a CPU hog is seen, runs discarded and repeated ----------
thr=$((40 / $(nproc)))
sh -c 'while :; do :; done' &
BG_PID=$!
"$GS" run "$T/game.suite" --only fake-game --sched eevdf --repeat 2 --warmup 0 \
	--cooldown 0 --settle 0 --probe-factor 0 --max-busy "$thr" \
	--max-other-cpu "$thr" --retries 1 -q --json "$T/d.json" >"$T/out" 2>&1
"$GS" run "$T/game.suite" --only fake-game --sched eevdf --repeat 2 --warmup 0 \
	--cooldown 0 --settle 0 --probe-factor 0 --max-busy "$thr" \
	--max-other-cpu "$thr" --disturbed keep -q --json "$T/k.json" >"$T/out2" 2>&1
kill $BG_PID
BG_PID=
expect "$T/d.json" summary.discarded_disturbed 4
expect "$T/d.json" summary.repeated 2
expect "$T/d.json" summary.kept 0
expect "$T/k.json" summary.kept 2
expect "$T/k.json" summary.kept_disturbed 2

# ---- framebench, when it is built ---------------------------------------------
if [ -x "$B/framebench" ]; then
	cat >"$T/fb.suite" <<EOF
repeat 2
warmup 0
duration 1s
workload fb
  kind framebench
  profile esports
  bg hogs:1
EOF
	"$GS" run "$T/fb.suite" $QUIET --sched eevdf --sched default \
		--json "$T/f.json" --html "$T/f.html" >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && pass "framebench suite: exit 0" || { fail "framebench suite: rc $rc"; cat "$T/out"; }
	expect "$T/f.json" workloads.fb.metrics.avg_fps.schedulers.default.n 2
	"$JG" "$T/f.json" workloads.fb.metrics.low1_integral_fps.schedulers.eevdf.median \
		workloads.fb.metrics.frametime_p99_ms.schedulers.default.ratio >/dev/null &&
		pass "framebench metrics read" || fail "framebench metrics"
	# the background's work (higher is better) and the game's CPU time
	# (informational: statistics, no verdict)
	expect "$T/f.json" workloads.fb.metrics.bg_work_per_s.better higher
	expect "$T/f.json" workloads.fb.metrics.bg_work_per_s.schedulers.default.n 2
	expect "$T/f.json" workloads.fb.metrics.game_cpu_s.better none
	expect "$T/f.json" workloads.fb.metrics.game_cpu_s.schedulers.default.verdict informational
	awk -v w="$("$JG" "$T/f.json" workloads.fb.metrics.bg_work_per_s.schedulers.eevdf.median)" \
		-v c="$("$JG" "$T/f.json" workloads.fb.metrics.game_cpu_s.schedulers.eevdf.median)" \
		'BEGIN { exit !(w > 0 && c > 0) }' &&
		pass "background work and game CPU time measured" ||
		fail "bg_work_per_s / game_cpu_s medians not positive"
	v=$("$JG" "$T/f.json" workloads.fb.metrics.bg_work_per_s.schedulers.default.verdict)
	case $v in better|worse|same) pass "bg_work_per_s judged ($v)" ;; *) fail "bg_work_per_s verdict '$v'" ;; esac
	grep -q "bg_work_per_s (higher)" "$T/out" && grep -q "game_cpu_s (info)" "$T/out" &&
		pass "terminal table lists the background metrics" || fail "terminal table lacks bg_work_per_s/game_cpu_s"
	grep -q "bg_work_per_s<br>" "$T/f.html" && grep -q "informational, no verdict" "$T/f.html" &&
		pass "HTML lists the background metrics" || fail "HTML lacks bg_work_per_s/game_cpu_s"
else
	echo "note: $B/framebench not built; its part is left out"
fi

# ---- the player's remedies as arms: nice:N, fifo, slice:US ----------------
"$GS" run "$T/g.suite" --sched eevdf --sched nice:30 >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "'nice:30': expected nice:N with N in -20..19" "$T/out" &&
	pass "bad nice arm: exit 2" || fail "bad nice arm: $(cat "$T/out")"
"$GS" run "$T/g.suite" --sched eevdf --sched slice:50 >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "slice:US with US in 100..100000" "$T/out" &&
	pass "bad slice arm: exit 2" || fail "bad slice arm: $(cat "$T/out")"
"$GS" run "$T/g.suite" --sched eevdf --sched fifo --ops x >"$T/out" 2>&1
[ $? -eq 2 ] && grep -q "'fifo' leaves the kernel's own scheduler in charge" "$T/out" &&
	pass "--ops on a remedy arm: exit 2" || fail "--ops on a remedy arm: $(cat "$T/out")"
if [ -x "$B/framebench" ] && [ "$(id -u)" -eq 0 ]; then
	printf 'repeat 1\nwarmup 0\nworkload fb\n  kind framebench\n  profile esports\n  duration 1s\n' >"$T/r.suite"
	"$GS" run "$T/r.suite" $QUIET --sched eevdf --sched nice:-10 --sched slice:500 \
		--workdir "$T/rlogs" --json "$T/r.json" >"$T/out" 2>&1 ||
		{ fail "remedy arms run"; cat "$T/out"; }
	expect "$T/r.json" workloads.fb.metrics.avg_fps.schedulers.nice:-10.n 1
	n=$(find "$T/rlogs" -name framebench.json -exec "$JG" {} config.game_nice \; 2>/dev/null |
		grep -cx -- -10)
	[ "$n" -eq 1 ] && pass "nice:-10 reached framebench (one run of three)" ||
		fail "framebench runs at nice -10: $n, want 1"
fi

# ---- perf bench sched messaging, when perf works ------------------------------
if perf bench sched messaging -g 1 -l 5 >/dev/null 2>&1; then
	printf 'repeat 2\nwarmup 0\nworkload msg\n  kind perf-messaging\n  args -g 1 -l 20\n' >"$T/p.suite"
	"$GS" run "$T/p.suite" $QUIET --sched eevdf --json "$T/p.json" >"$T/out" 2>&1 &&
		expect "$T/p.json" workloads.msg.metrics.total_time_s.schedulers.eevdf.n 2 ||
		{ fail "perf messaging run"; cat "$T/out"; }
else
	echo "note: perf bench does not run here; its part is left out"
fi

finish "gamesuite CLI"
