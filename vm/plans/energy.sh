# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan of vm/energy.sh (core compaction measured): one lavd instance under
# the autopilot (or gs.lavdargs), a statistics line every 0.5 s, through
# three loads in a row - idle, a light framebench run (proton capped at
# gs.lightfps FPS) and a heavy one (strategy uncapped with 2 CPU hogs).
# "MARK NAME N" lines give the number of statistics lines printed when a
# load began or ended; the loader's log and both framebench JSON files go
# to the host, which tabulates active CPUs and power modes per load.
#
# Parameters: gs.fbdur=D (each framebench run, default 8s), gs.idle=S
# (idle seconds, default 6), gs.lightfps=N (default 10),
# gs.lavdargs=A,B,... (extra lavd options).

fbdur=$(gs_param fbdur 8s)
idle_s=$(gs_param idle 6)
lightfps=$(gs_param lightfps 10)
lavdargs=$(gs_param lavdargs "" | tr ',' ' ')

gs_out "PHASE energy cpus=$(nproc) fbdur=$fbdur idle=$idle_s lightfps=$lightfps lavdargs=$lavdargs"
mark() { gs_out "MARK $1 $(grep -c '^\[' "$LOG")"; }

# shellcheck disable=SC2086
start_lavd --stats 0.5 $lavdargs
if ! wait_until 120 lavd_attached; then
	show_log "$LOG" 20
	stop_lavd 20
	gs_result energy FAIL "lavd did not attach (state $(scx_state))"
	return 0
fi
sleep 2		# the active set settles after the load-time burst
ef=""
mark idle-start
sleep "$idle_s"
mark idle-end
mark light-start
framebench --profile proton --fps "$lightfps" --duration "$fbdur" \
	--json /tmp/light.json -q > /tmp/light.out 2>&1 || ef="$ef light framebench exit $?;"
mark light-end
mark heavy-start
framebench --profile strategy --fps 0 --bg hogs:2 --duration "$fbdur" \
	--json /tmp/heavy.json -q > /tmp/heavy.out 2>&1 || ef="$ef heavy framebench exit $?;"
mark heavy-end
alive=yes
lavd_attached || alive=no
stop_lavd 30
[ $alive = yes ] && [ "$RC" = 0 ] || ef="$ef lavd enabled $alive, exit $RC;"
gs_file lavd.log "$LOG"
[ -s /tmp/light.json ] && gs_file light.json /tmp/light.json
[ -s /tmp/heavy.json ] && gs_file heavy.json /tmp/heavy.json
if [ -z "$ef" ]; then
	gs_result energy PASS "idle, light and heavy loads under one lavd"
else
	gs_result energy FAIL "$ef"
fi
