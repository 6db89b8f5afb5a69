# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Helpers for the guest test plans (sourced by /init). Every structured
# line goes to the results port as "@@GS <words>"; the host decides
# pass/fail from these lines only (vm/run.sh).

GS_RES=/dev/ttyS1
[ -c "$GS_RES" ] || GS_RES=/dev/console

# A line for the host (also echoed on the console for the serial log).
gs_out() {
	echo "@@GS $*" > "$GS_RES"
	echo "@@GS $*"
}

# gs_result PHASE PASS|FAIL detail...
gs_result() {
	p=$1; r=$2; shift 2
	gs_out "RESULT $p $r $*"
}

# A kernel command line parameter gs.NAME=VALUE, or a default.
gs_param() {
	v=$(tr ' ' '\n' < /proc/cmdline | sed -n "s/^gs\.$1=//p" | tail -n 1)
	echo "${v:-$2}"
}

scx_state() { cat /sys/kernel/sched_ext/state 2>/dev/null || echo none; }
scx_ops() { cat /sys/kernel/sched_ext/root/ops 2>/dev/null; }

# Seconds since boot with centiseconds.
now() { cut -d' ' -f1 /proc/uptime; }

# wait_until SECONDS COMMAND...: poll every 0.1 s; 0 when it succeeded.
wait_until() {
	limit=$1; shift
	end=$(awk -v n="$(now)" -v l="$limit" 'BEGIN { print n + l }')
	while :; do
		"$@" && return 0
		awk -v n="$(now)" -v e="$end" 'BEGIN { exit !(n >= e) }' && return 1
		usleep 100000
	done
}

scx_is() { [ "$(scx_state)" = "$1" ] && { [ -z "$2" ] || [ "$(scx_ops)" = "$2" ]; }; }
# A child that exited stays a zombie until waited for: count it as gone.
pid_gone() {
	[ -r "/proc/$1/stat" ] || return 0
	[ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" = Z ]
}

# wait_exit PID SECONDS: waits for a child of this shell and sets RC to
# its exit status, or to "timeout" (the process is then killed). Call it
# directly, not in $(...): a subshell cannot wait for its parent's child.
wait_exit() {
	if wait_until "$2" pid_gone "$1"; then
		wait "$1"
		RC=$?
	else
		kill -9 "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		# shellcheck disable=SC2034 # RC: read by the plans that call it
		RC=timeout
	fi
}

# /proc/PID/sched exists: kernels before 6.15 have it only with
# CONFIG_SCHED_DEBUG (Debian's do; a plain defconfig build does not), and
# without it no per-thread file says whether a thread runs on sched_ext
have_task_sched() { [ -r /proc/self/sched ]; }

# Threads of PID and of its child processes whose /proc sched says they
# run on sched_ext, and how many fair-policy threads were looked at ("on
# all"; SCHED_FIFO/RR/DEADLINE threads belong to other classes and are not
# counted, nor are threads that exit while we look). Shell builtins only:
# under load, spawning a process per /proc entry takes seconds in TCG.
ext_threads() {
	parent=$1 pids=$1
	for st in /proc/[0-9]*/stat; do
		read -r line < "$st" 2>/dev/null || continue
		# shellcheck disable=SC2086
		set -- ${line##*) }
		if [ "$2" = "$parent" ]; then
			d=${st%/stat}
			pids="$pids ${d#/proc/}"
		fi
	done
	on=0; all=0
	for p in $pids; do
		for s in /proc/"$p"/task/*/sched; do
			[ -r "$s" ] || continue
			found="" pol=0
			while read -r k c v; do
				[ "$k" = policy ] && pol=$v
				[ "$k" = ext.enabled ] && { found=$v; break; }
			done < "$s" 2>/dev/null
			[ -n "$found" ] || continue
			case $pol in 1|2|6) continue ;; esac
			all=$((all + 1))
			[ "$found" = 1 ] && on=$((on + 1))
		done
	done
	echo "$on $all"
}

# Sends a file over the results port between markers (host extracts it).
gs_file() {
	gs_out "FILE-BEGIN $1"
	cat "$2" > "$GS_RES"
	echo > "$GS_RES"
	gs_out "FILE-END $1"
}

# Last lines of a log on the console, for failures.
show_log() {
	echo "---- $1 (last ${2:-20} lines) ----"
	tail -n "${2:-20}" "$1"
	echo "---- end ----"
}

# ---- plans that test lavd (test.sh, topo.sh) ----
# gs.phases="a,b,..." selects phases (default all); the loader's output
# goes to $LOG.
phases=$(gs_param phases all | tr ',' ' ')
LOG=/tmp/lavd.log

# want_phase NAME: the phase is selected (gs.phases=a,b,... or all)
want_phase() { [ "$phases" = all ] || case " $phases " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# start_lavd ARGS...: the loader in the background, output in $LOG.
start_lavd() {
	lavd "$@" > "$LOG" 2>&1 &
	LPID=$!
}

lavd_attached() { scx_is enabled lavd; }

# stop_lavd SECONDS: SIGINT, wait; RC = loader exit status.
stop_lavd() {
	kill -INT "$LPID" 2>/dev/null
	wait_exit "$LPID" "$1"
}

# sum_stat LOG KEY: the sum of "KEY N" over the statistics lines of LOG
# (per-second rates over ~1 s intervals: about the count).
sum_stat() {
	grep '^\[' "$1" | sed -n "s|.* $2 \([0-9.]*\).*|\1|p" |
		awk '{ s += $1 } END { printf "%.0f", s }'
}

# active CPUs ("2/4" -> 2) of every statistics line on stdin, one per
# line (stdin, not /dev/stdin: devtmpfs has no such link)
active_series() { grep '^\[' | sed -n 's|.* active \([0-9]*\)/.*|\1|p'; }

# fb_rate: framebench's work-loop rate (loops/us), the fastest of three
# calibrations, for --calibration: runs to be compared then do the same
# work (one calibration under emulation varies by up to 20 %).
fb_rate() {
	r=0
	for _ in 1 2 3; do
		framebench --duration 100ms --warmup 0 -q --no-feed --json /tmp/cal.json > /dev/null 2>&1
		c=$(sed -n 's/.*"loops_per_us": *\([0-9.]*\).*/\1/p' /tmp/cal.json | head -n 1)
		r=$(awk -v a="$r" -v b="${c:-0}" 'BEGIN { print (b > a) ? b : a }')
	done
	rm -f /tmp/cal.json
	echo "$r"
}
