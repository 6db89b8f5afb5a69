# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan of vm/trace.sh: frames recorded inside the VM, to see which
# links of the frame chain wait runnable and behind whom. For each
# scheduler configuration in turn: load it, run framebench with the
# background load under frametrace record (BPF, the guest's real
# tracepoints; frames from framebench's feed), and send frametrace's text
# and JSON reports to the host. The recorder runs framebench itself, so
# the whole run is recorded: loading the BPF programs takes seconds under
# emulation, and a recording started beside a running game began at a
# different point of it each time.
#
# Parameters (vm/boot.sh --append):
#   gs.configs=C1,C2,...  "default" or "PROGRAM[:ARG...]" from /bin (default lavd)
#   gs.profile=NAME       framebench profile (default proton)
#   gs.bg=PATTERN         background load (default hogs:2; none: no load)
#   gs.fbdur=D            framebench's measured duration (default 12s)
#   gs.slow=MS            frametrace report --slow-ms (default: its own 2x median)
#   gs.calib=R|auto       framebench --calibration (default auto)
# Lines: "DATA calibration R", "TRACE-START IDX config", FILE
# report-IDX.txt and report-IDX.json, RESULT trace.

configs=$(gs_param configs lavd)
profile=$(gs_param profile proton)
bg=$(gs_param bg hogs:2)
fbdur=$(gs_param fbdur 12s)
slow=$(gs_param slow "")
calib=$(gs_param calib auto)
LOG=/tmp/sched.log

gs_out "PHASE trace configs=$configs profile=$profile bg=$bg fbdur=$fbdur"
for p in framebench frametrace; do
	[ -x "/bin/$p" ] || { gs_result trace FAIL "no /bin/$p (make static)"; return 0; }
done
[ "$calib" = auto ] && calib=$(fb_rate)
gs_out "DATA calibration $calib"

failed=0 idx=0
for cfg in $(echo "$configs" | tr ',' ' '); do
	idx=$((idx + 1))
	prog=${cfg%%:*} SPID=""
	if [ "$prog" != default ]; then
		wait_until 30 scx_is disabled
		# shellcheck disable=SC2086
		# shellcheck disable=SC2046 # split into fields on purpose
		"$prog" --stats 1 $(echo "$cfg" | cut -s -d: -f2- | tr ':' ' ') > "$LOG" 2>&1 &
		SPID=$!
		if ! wait_until 90 scx_is enabled; then
			gs_out "RUN-FAIL $idx $cfg did not load"
			show_log "$LOG" 20
			failed=$((failed + 1))
			continue
		fi
	fi
	gs_out "TRACE-START $idx $cfg ops=$(scx_ops)"
	if [ "$bg" = none ]; then set --; else set -- --bg "$bg"; fi
	frametrace record -q -o /tmp/t.ftr -- framebench --profile "$profile" \
		--duration "$fbdur" --calibration "$calib" "$@" --json /tmp/run.json -q \
		> /tmp/run.out 2> /tmp/rec.out
	rrc=$?
	gs_out "RUN-END $idx exit=$rrc $(tr -d '\n' < /tmp/run.out)"
	[ -n "$SPID" ] && { kill -INT "$SPID"; wait_exit "$SPID" 30; }
	if [ $rrc -ne 0 ]; then
		show_log /tmp/rec.out 20
		failed=$((failed + 1))
		continue
	fi
	set -- /tmp/t.ftr
	[ -n "$slow" ] && set -- --slow-ms "$slow" /tmp/t.ftr
	frametrace report "$@" > /tmp/report.txt 2>&1
	frametrace report --json "$@" > /tmp/report.json 2>/dev/null
	gs_file "report-$idx.txt" /tmp/report.txt
	[ -s /tmp/report.json ] && gs_file "report-$idx.json" /tmp/report.json
	[ -s /tmp/run.json ] && gs_file "run-$idx.json" /tmp/run.json
	rm -f /tmp/t.ftr /tmp/report.txt /tmp/report.json /tmp/run.json
done
if [ $failed -eq 0 ]; then
	gs_result trace PASS "$idx configurations recorded"
else
	gs_result trace FAIL "$failed of $idx configurations failed"
fi
