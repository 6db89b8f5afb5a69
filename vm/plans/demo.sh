# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan of `make vm-demo`: the same framebench run under the kernel's
# default scheduler (A) and under lavd (B), interleaved A B A B ... in one
# boot, so that both see the same emulator and host conditions. Each run's
# JSON goes to the host over the results port; vm/demo-table.sh builds the
# side-by-side table there. Every run does the same work: framebench's
# work-loop rate is measured once at the start (fb_rate) and given to each
# run with --calibration.
#
# Parameters (vm/boot.sh --append): gs.reps=N pairs (default 3),
# gs.fbdur=D per run (default 10s), gs.profile=NAME (default proton),
# gs.bg=PATTERN (default hogs:2; none: no background load),
# gs.lavdargs="..." extra lavd options
# (use commas for spaces: gs.lavdargs=--no-wake-sync,--slice-max-us,3000).

reps=$(gs_param reps 3)
fbdur=$(gs_param fbdur 10s)
profile=$(gs_param profile proton)
bg=$(gs_param bg hogs:2)
lavdargs=$(gs_param lavdargs "" | tr ',' ' ')
LOG=/tmp/lavd.log

gs_out "PHASE demo reps=$reps fbdur=$fbdur profile=$profile bg=$bg lavdargs=$lavdargs"
echo 1 > /proc/sys/kernel/bpf_stats_enabled
[ -x /bin/framebench ] || { gs_result demo FAIL "no /bin/framebench (make static)"; return 0; }
# one work rate for every run (guest-lib.sh fb_rate)
calib=$(fb_rate)
gs_out "DATA calibration $calib"

# run_one N SCHED: one measured framebench run under SCHED (default|lavd).
run_one() {
	n=$1 sched=$2
	if [ "$sched" = lavd ]; then
		# shellcheck disable=SC2086
		lavd $lavdargs > "$LOG" 2>&1 &
		LPID=$!
		if ! wait_until 90 scx_is enabled lavd; then
			gs_out "RUN-FAIL $n $sched lavd did not attach"
			show_log "$LOG" 20
			return 1
		fi
	fi
	gs_out "RUN-START $n $sched $(scx_state) $(scx_ops)"
	if [ "$bg" = none ]; then
		set --
	else
		set -- --bg "$bg"
	fi
	framebench --profile "$profile" --duration "$fbdur" --calibration "$calib" "$@" \
		--json /tmp/run.json -q > /tmp/run.out 2>&1
	rc=$?
	gs_out "RUN-END $n $sched exit=$rc $(tr -d '\n' < /tmp/run.out)"
	if [ "$sched" = lavd ]; then
		if ! scx_is enabled lavd; then
			gs_out "RUN-FAIL $n $sched lavd was ejected during the run"
			show_log "$LOG" 20
			rc=1
		fi
		kill -INT "$LPID"
		wait_exit "$LPID" 30
		grep -q 'BPF cost' "$LOG" && gs_out "DATA bpf_cost $n $(sed -n 's/.*): //p' "$LOG")"
		[ "$RC" = 0 ] || { gs_out "RUN-FAIL $n $sched loader exit $RC"; rc=1; }
	fi
	[ $rc -eq 0 ] && [ -s /tmp/run.json ] && gs_file "run-$n-$sched.json" /tmp/run.json
	rm -f /tmp/run.json
	return $rc
}

failed=0
i=1
while [ $i -le "$reps" ]; do
	run_one "$i" default || failed=$((failed + 1))
	run_one "$i" lavd || failed=$((failed + 1))
	i=$((i + 1))
done
if [ $failed -eq 0 ]; then
	gs_result demo PASS "$reps interleaved pairs"
else
	gs_result demo FAIL "$failed of $((2 * reps)) runs failed"
fi
