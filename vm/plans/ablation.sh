# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan of the lavd ablation (vm/ablation.sh): the same framebench
# run under several scheduler configurations, interleaved and repeated in
# one boot. Round r runs every configuration once, starting at
# configuration r mod N, so that no configuration always runs first or
# after the same one. Each run's framebench JSON and lavd's last
# statistics line go to the host over the results port.
#
# Parameters (vm/boot.sh --append):
#   gs.configs=C1,C2,...  configurations; "default" is the kernel's own
#                         scheduler, anything else is "PROGRAM[:ARG...]"
#                         run from /bin (lavd, or another build of it),
#                         e.g. lavd:--no-preemption  (default: default,lavd)
#   gs.reps=N             rounds (default 3)
#   gs.fbdur=D            framebench duration per run (default 10s)
#   gs.profile=NAME       framebench profile (default proton)
#   gs.bg=PATTERN         background load (default hogs:2; none: no load)
#   gs.fbargs=A,B,...     extra framebench options (commas for spaces),
#                         e.g. gs.fbargs=--fps,10
#   gs.bpfstats=0|1       kernel.bpf_stats_enabled during the runs, and each
#                         lavd run's BPF cost per call ("DATA bpf_cost"; from
#                         /bin/bpfcost for a loader that prints none)
#   gs.calib=R|auto       framebench's work-loop rate for every run
#                         (--calibration); auto (default): the fastest of
#                         three calibrations at the start, on the idle
#                         system under the kernel's scheduler, so every run
#                         does the same work
# Lines: "RUN-START n config", "RUN-END n config exit=..", FILE
# run-n-IDX.json, "DATA lavdstats n IDX <stats line>", "DATA lavdactive n
# IDX <mean active CPUs>", RESULT ablation.

configs=$(gs_param configs default,lavd)
reps=$(gs_param reps 3)
fbdur=$(gs_param fbdur 10s)
profile=$(gs_param profile proton)
bg=$(gs_param bg hogs:2)
calib=$(gs_param calib auto)
bpfstats=$(gs_param bpfstats 0)
fbargs=$(gs_param fbargs "" | tr ',' ' ')
LOG=/tmp/sched.log

# shellcheck disable=SC2046 # split into fields on purpose
set -- $(echo "$configs" | tr ',' ' ')
ncfg=$#
gs_out "PHASE ablation configs=$configs reps=$reps fbdur=$fbdur profile=$profile bg=$bg fbargs=$fbargs"
[ -x /bin/framebench ] || { gs_result ablation FAIL "no /bin/framebench (make static)"; return 0; }

[ "$bpfstats" = 1 ] && echo 1 > /proc/sys/kernel/bpf_stats_enabled
[ "$calib" = auto ] && calib=$(fb_rate)
gs_out "DATA calibration $calib"

# cfg_at IDX: the IDX-th configuration (1-based)
cfg_at() { echo "$configs" | cut -d, -f"$1"; }

# run_one ROUND IDX: one measured framebench run under configuration IDX.
run_one() {
	n=$1 idx=$2 cfg=$(cfg_at "$2")
	prog=${cfg%%:*}
	args=$(echo "$cfg" | cut -s -d: -f2- | tr ':' ' ')
	if [ "$prog" != default ]; then
		if ! [ -x "/bin/$prog" ]; then
			gs_out "RUN-FAIL $n $idx no /bin/$prog"
			return 1
		fi
		# shellcheck disable=SC2086
		"$prog" --stats 1 $args > "$LOG" 2>&1 &
		SPID=$!
		if ! wait_until 90 scx_is enabled; then
			gs_out "RUN-FAIL $n $idx $cfg did not attach"
			show_log "$LOG" 20
			kill -INT "$SPID" 2>/dev/null
			wait_exit "$SPID" 30
			return 1
		fi
	fi
	gs_out "RUN-START $n $idx $(scx_state) $(scx_ops)"
	if [ "$bg" = none ]; then set --; else set -- --bg "$bg"; fi
	# shellcheck disable=SC2086
	framebench --profile "$profile" --duration "$fbdur" --calibration "$calib" $fbargs "$@" \
		--json /tmp/run.json -q > /tmp/run.out 2>&1
	rc=$?
	gs_out "RUN-END $n $idx exit=$rc $(tr -d '\n' < /tmp/run.out)"
	if [ "$prog" != default ]; then
		if ! scx_is enabled; then
			gs_out "RUN-FAIL $n $idx $cfg was ejected during the run"
			show_log "$LOG" 20
			rc=1
		fi
		# a loader that prints no cost line of its own (the reference
		# scx_lavd): what its programs cost, read while they are loaded
		rm -f /tmp/cost.txt
		[ "$bpfstats" = 1 ] && [ -x /bin/bpfcost ] && bpfcost --who "$prog" > /tmp/cost.txt 2>&1
		kill -INT "$SPID"
		wait_exit "$SPID" 30
		if grep -q 'BPF cost' "$LOG"; then
			gs_out "DATA bpf_cost $n $idx $(sed -n 's/.*): //p' "$LOG")"
		elif grep -q 'BPF cost' /tmp/cost.txt 2>/dev/null; then
			gs_out "DATA bpf_cost $n $idx $(sed -n 's/.*): //p' /tmp/cost.txt)"
		fi
		last=$(grep '^\[' "$LOG" | tail -n 2 | head -n 1)
		[ -n "$last" ] && gs_out "DATA lavdstats $n $idx $last"
		# mean active CPUs over the run's statistics lines (core compaction)
		act=$(active_series < "$LOG" |
			awk '{ s += $1; c++ } END { if (c) printf "%.2f", s / c }')
		[ -n "$act" ] && gs_out "DATA lavdactive $n $idx $act"
		[ "$RC" = 0 ] || { gs_out "RUN-FAIL $n $idx loader exit $RC"; rc=1; }
	fi
	[ $rc -eq 0 ] && [ -s /tmp/run.json ] && gs_file "run-$n-$idx.json" /tmp/run.json
	rm -f /tmp/run.json
	return $rc
}

failed=0
r=1
while [ "$r" -le "$reps" ]; do
	k=0
	while [ $k -lt "$ncfg" ]; do
		idx=$(( (r - 1 + k) % ncfg + 1 ))
		run_one "$r" "$idx" || failed=$((failed + 1))
		k=$((k + 1))
	done
	r=$((r + 1))
done
if [ $failed -eq 0 ]; then
	gs_result ablation PASS "$reps rounds of $ncfg configurations"
else
	gs_result ablation FAIL "$failed of $((reps * ncfg)) runs failed"
fi
