# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan of `make vm-limit` (vm/limit.sh): how close each scheduler
# keeps a game to its own figure when background load arrives, and what it
# leaves the background. For every framebench profile and every scheduler,
# one "slot" loads the scheduler once and runs framebench twice under it:
# with no background and with the background pattern (the order of the two
# alternates by round). One more slot per profile is the reference limit
# configuration: the kernel's scheduler with the game's threads SCHED_FIFO
# (framebench --rt) and the same background. A round runs every slot once,
# starting one slot later than the round before, so that no slot always
# runs first or after the same one.
#
# Parameters (vm/boot.sh --append):
#   gs.profiles=P1,P2,...  framebench profiles (default proton,unreal,esports,strategy)
#   gs.scheds=S1,S2,...    "default" (the kernel's scheduler),
#                          "default:FBARG..." (the kernel's scheduler with
#                          framebench options for the game's threads: what
#                          a player does instead of a new scheduler, e.g.
#                          default:--nice:-5 or default:--slice-us:1000), or
#                          "PROGRAM[:ARG...]" run from /bin (default default,lavd)
#   gs.reps=N              rounds (default 6)
#   gs.fbdur=D             framebench duration per run (default 10s)
#   gs.bg=PATTERN          background load of the loaded runs (default hogs:2)
#   gs.rt=0|1              include the SCHED_FIFO limit slot (default 1)
#   gs.calib=R|auto        one work-loop rate for every run (default auto:
#                          the fastest of three calibrations at the start)
# A scheduler program counts as loaded only when sched_ext is enabled, its
# enable_seq moved past the value before the start, and root/ops is not
# empty; before each load the plan waits until sched_ext is disabled. A
# program that does not load, is ejected during a run, or whose loader
# fails is a failed run ("RUN-FAIL"), never replaced by the default.
# A steering program (its arguments name --eevdf, e.g. lavd:--eevdf) runs
# beside the kernel's own scheduler: it counts as started when it is
# still alive after 2 s with sched_ext disabled, and as ours while alive.
#
# Lines: "DATA calibration R", "DATA version NAME <--version line>",
# "DATA slot S PROFILE SCHED", "RUN-START R S.V ops=OPS", "RUN-END R S.V
# exit=..", "RUN-FAIL R S.V why", "RUN-NOTE ...", FILE run-R-S.V.json (V: 0 no background,
# 1 with it), RESULT limit.

profiles=$(gs_param profiles proton,unreal,esports,strategy)
scheds=$(gs_param scheds default,lavd)
reps=$(gs_param reps 6)
fbdur=$(gs_param fbdur 10s)
bg=$(gs_param bg hogs:2)
rt=$(gs_param rt 1)
calib=$(gs_param calib auto)
LOG=/tmp/sched.log
SCX=/sys/kernel/sched_ext

gs_out "PHASE limit profiles=$profiles scheds=$scheds reps=$reps fbdur=$fbdur bg=$bg rt=$rt"
[ -x /bin/framebench ] || { gs_result limit FAIL "no /bin/framebench (make static)"; return 0; }
# lavd's shipped game profiles (vm/limit.sh packs them): lavd:--game-profiles:/tmp/lavd-profiles
if [ -f /bin/lavd-profiles.tar ]; then
	mkdir -p /tmp/lavd-profiles && tar -xf /bin/lavd-profiles.tar -C /tmp/lavd-profiles &&
		gs_out "DATA lavd-profiles $(cd /tmp/lavd-profiles && ls)"
fi

[ "$calib" = auto ] && calib=$(fb_rate)
gs_out "DATA calibration $calib"

# Slots: one per (profile, scheduler), then the FIFO slot of each profile.
nslot=0
for p in $(echo "$profiles" | tr ',' ' '); do
	for s in $(echo "$scheds" | tr ',' ' '); do
		nslot=$((nslot + 1))
		eval "slot_p$nslot=\$p slot_s$nslot=\$s"
		gs_out "DATA slot $nslot $p $s"
	done
	if [ "$rt" = 1 ]; then
		nslot=$((nslot + 1))
		eval "slot_p$nslot=\$p slot_s$nslot=fifo"
		gs_out "DATA slot $nslot $p fifo"
	fi
done
versions=" "
for s in $(echo "$scheds" | tr ',' ' '); do
	prog=${s%%:*}
	case "$versions" in *" $prog "*) continue ;; esac
	versions="$versions$prog "
	[ "$prog" = default ] && continue
	[ -x "/bin/$prog" ] && gs_out "DATA version $prog $("/bin/$prog" --version 2>&1 | head -n 1)"
done

enable_seq() { cat "$SCX/enable_seq" 2>/dev/null || echo 0; }
# loaded_after SEQ: a scheduler enabled since enable_seq was SEQ
loaded_after() { scx_is enabled && [ "$(enable_seq)" -gt "$1" ] && [ -n "$(scx_ops)" ]; }

# start_sched R S SCHED: loads SCHED ("default": nothing); 1 on failure.
start_sched() {
	SPID=""
	prog=${3%%:*}
	[ "$prog" = default ] || [ "$prog" = fifo ] && return 0
	if ! [ -x "/bin/$prog" ]; then
		gs_out "RUN-FAIL $1 $2.0 no /bin/$prog"
		return 1
	fi
	if ! wait_until 30 scx_is disabled; then
		gs_out "RUN-FAIL $1 $2.0 sched_ext still $(scx_state) before loading $3"
		return 1
	fi
	seq=$(enable_seq)
	args=$(echo "$3" | cut -s -d: -f2- | tr ':' ' ')
	# shellcheck disable=SC2086
	"/bin/$prog" $args > "$LOG" 2>&1 &
	SPID=$!
	STEER=0
	case " $args " in *" --eevdf "*) STEER=1 ;; esac
	if [ "$STEER" = 1 ]; then
		sleep 2
		! pid_gone "$SPID" && scx_is disabled && { OPS=""; return 0; }
		gs_out "RUN-FAIL $1 $2.0 $3 did not start (state $(scx_state))"
		show_log "$LOG" 20
		stop_sched "$1" "$2"
		return 1
	fi
	if ! wait_until 120 loaded_after "$seq"; then
		gs_out "RUN-FAIL $1 $2.0 $3 did not load (state $(scx_state), ops '$(scx_ops)')"
		show_log "$LOG" 20
		stop_sched "$1" "$2"
		return 1
	fi
	OPS=$(scx_ops)
	SEQ=$(enable_seq)
	return 0
}

stop_sched() {
	[ -n "$SPID" ] || return 0
	kill -INT "$SPID" 2>/dev/null
	wait_exit "$SPID" 60
	SPID=""
}

# still_ours: the scheduler loaded for this slot is the one running
still_ours() {
	[ -z "$SPID" ] && return 0
	[ "$STEER" = 1 ] && { ! pid_gone "$SPID" && scx_is disabled; return; }
	scx_is enabled && [ "$(enable_seq)" = "$SEQ" ] && [ "$(scx_ops)" = "$OPS" ]
}

# run_fb R S V PROFILE SCHED: one measured framebench run.
run_fb() {
	set -- "$1" "$2" "$3" "$4" "$5"
	id=$2.$3
	if [ "$3" = 1 ] && [ "$bg" != none ]; then bgargs="--bg $bg"; else bgargs=""; fi
	[ "$5" = fifo ] && bgargs="$bgargs --rt"
	# default:FBARG...: the player's own remedy, applied to the game
	case $5 in default:*) bgargs="$bgargs $(echo "${5#default:}" | tr ':' ' ')" ;; esac
	gs_out "RUN-START $1 $id ops=$(scx_ops) state=$(scx_state)"
	# shellcheck disable=SC2086
	framebench --profile "$4" --duration "$fbdur" --calibration "$calib" $bgargs \
		--json /tmp/run.json -q > /tmp/run.out 2>&1
	rc=$?
	gs_out "RUN-END $1 $id exit=$rc $(tr -d '\n' < /tmp/run.out)"
	if ! still_ours; then
		gs_out "RUN-FAIL $1 $id $5 was ejected or replaced during the run (state $(scx_state), ops '$(scx_ops)')"
		show_log "$LOG" 20
		rc=1
	fi
	[ $rc -eq 0 ] && [ -s /tmp/run.json ] && gs_file "run-$1-$id.json" /tmp/run.json
	rm -f /tmp/run.json
	return $rc
}

# run_slot R S: both runs of slot S in round R (FIFO: the loaded one only).
run_slot() {
	eval "p=\$slot_p$2 s=\$slot_s$2"
	if ! start_sched "$1" "$2" "$s"; then
		gs_out "RUN-FAIL $1 $2.1 not run: $s did not load"
		failed=$((failed + 2))
		return
	fi
	if [ "$s" = fifo ]; then
		order=1
	elif [ $(( ($1 + $2) % 2 )) -eq 0 ]; then
		order="0 1"
	else
		order="1 0"
	fi
	for v in $order; do
		run_fb "$1" "$2" "$v" "$p" "$s" || failed=$((failed + 1))
		[ -z "$SPID" ] || still_ours || break
	done
	stop_sched "$1" "$2"
	if [ "$RC" != 0 ] && [ "$s" != default ] && [ "$s" != fifo ]; then
		gs_out "RUN-NOTE $1 $2.0 $s: loader exit $RC after the runs"
		show_log "$LOG" 10
	fi
	RC=0
}

failed=0 RC=0 STEER=0
r=1
while [ "$r" -le "$reps" ]; do
	k=0
	while [ $k -lt $nslot ]; do
		run_slot "$r" $(( (r - 1 + k) % nslot + 1 ))
		k=$((k + 1))
	done
	r=$((r + 1))
done
if [ $failed -eq 0 ]; then
	gs_result limit PASS "$reps rounds of $nslot slots"
else
	gs_result limit FAIL "$failed runs failed (see RUN-FAIL lines)"
fi
