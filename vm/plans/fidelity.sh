# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan of `make vm-fidelity` (vm/fidelity.sh): one round of
# framebench runs under the kernel's default scheduler, the same runs the
# host makes natively in the rounds beside it, so that the VM can be held
# against the real CPUs.
#
# Parameters (vm/boot.sh --append):
#   gs.round=R            the round's number (names the files)
#   gs.runs=P.V,P.V,...   the runs in order: profile P, variant V (0: no
#                         background, 1: with gs.bg)
#   gs.fbdur=D            framebench duration per run (default 10s)
#   gs.bg=PATTERN         background load of variant 1 (default hogs:2)
#   gs.calib=R|auto       the work-loop rate (auto: the fastest of three
#                         calibrations in this boot)
#   gs.dilate=K           framebench --dilate K (default 1: none)
#   gs.slicescale=0|1     with K > 1, the default scheduler's base slice
#                         (debugfs sched/base_slice_ns) K times longer
#                         too, so that the slice keeps its share of a
#                         dilated frame (default 1)
# Lines: "DATA calibration R", "RUN-START R P.V", "RUN-END R P.V exit=..",
# "RUN-FAIL R P.V why", FILE run-R-P.V.json, RESULT fidelity.

round=$(gs_param round 1)
runs=$(gs_param runs proton.0,proton.1)
fbdur=$(gs_param fbdur 10s)
bg=$(gs_param bg hogs:2)
calib=$(gs_param calib auto)
dilate=$(gs_param dilate 1)
slicescale=$(gs_param slicescale 1)

gs_out "PHASE fidelity round=$round runs=$runs fbdur=$fbdur bg=$bg"
[ -x /bin/framebench ] || { gs_result fidelity FAIL "no /bin/framebench (make static)"; return 0; }
# what makes an emulated machine costly: the clock source (an emulated
# HPET read traps where a TSC read does not) and the kernel's mitigations
# (page-table isolation switches address spaces on every system call)
gs_out "DATA clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
for v in meltdown spectre_v2 retbleed spec_rstack_overflow; do
	gs_out "DATA vuln $v $(cat /sys/devices/system/cpu/vulnerabilities/$v 2>/dev/null)"
done
gs_out "DATA cpu $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
slicef=/sys/kernel/debug/sched/base_slice_ns
if [ "$dilate" != 1 ] && [ "$slicescale" = 1 ] && [ -w "$slicef" ]; then
	s0=$(cat "$slicef")
	awk -v s="$s0" -v k="$dilate" 'BEGIN { printf "%d\n", s * k }' > "$slicef"
	gs_out "DATA base_slice_ns $s0 -> $(cat "$slicef") (x$dilate)"
elif [ "$dilate" != 1 ] && [ "$slicescale" = 1 ]; then
	gs_out "RUN-NOTE the base slice stays: no writable $slicef ($(ls /sys/kernel/debug/sched 2>&1 | tr '\n' ' '))"
fi
[ "$calib" = auto ] && calib=$(fb_rate)
gs_out "DATA calibration $calib"

failed=0
for id in $(echo "$runs" | tr ',' ' '); do
	p=${id%.*} v=${id##*.}
	bgargs=""
	[ "$v" = 1 ] && bgargs="--bg $bg"
	gs_out "RUN-START $round $id"
	# shellcheck disable=SC2086
	framebench --profile "$p" --duration "$fbdur" --calibration "$calib" --dilate "$dilate" $bgargs \
		--json /tmp/run.json -q > /tmp/run.out 2>&1
	rc=$?
	gs_out "RUN-END $round $id exit=$rc $(tr -d '\n' < /tmp/run.out)"
	if [ $rc -eq 0 ] && [ -s /tmp/run.json ]; then
		gs_file "run-$round-$id.json" /tmp/run.json
	else
		gs_out "RUN-FAIL $round $id framebench exit $rc"
		failed=$((failed + 1))
	fi
	rm -f /tmp/run.json
done
if [ $failed -eq 0 ]; then
	gs_result fidelity PASS "round $round"
else
	gs_result fidelity FAIL "$failed runs failed (see RUN-FAIL lines)"
fi
