#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The host's own load while a measurement runs (sourced by vm/run.sh and
# vm/fidelity.sh; POSIX sh): how much CPU everything but the measured
# process tree used, sampled once a second, so that tables can leave out
# the runs that other processes disturbed.

# tree_ticks PID: CPU time (ticks) of a process and its descendants,
# those it has reaped included (cutime, cstime: a build's short-lived jobs
# would otherwise count as other processes' load)
tree_ticks() {
	t=0
	for c in $(pgrep -P "$1" 2>/dev/null); do
		t=$((t + $(tree_ticks "$c")))
	done
	# shellcheck disable=SC2046 # the fields of /proc/PID/stat, split on purpose
	set -- $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null)
	echo $((t + ${12:-0} + ${13:-0} + ${14:-0} + ${15:-0}))
}

# sample_host PID: until PID ends, once a second, "epoch cpus-used marker"
# where cpus-used is what everything on the host except PID's process
# tree used. The marker is the last "@@GS RUN-START R ID" of the file
# SAMPLE_MARKER_FILE (a guest's results), else SAMPLE_MARKER, else "none".
sample_host() {
	ncpu=$(getconf _NPROCESSORS_ONLN)
	# shellcheck disable=SC2046 # the fields of /proc/stat's cpu line
	set -- "$1" $(head -n 1 /proc/stat)
	bpid=$1 pt=$(( $3 + $4 + $5 + $6 + $7 + $8 + $9 + ${10} )) pi=$(( $6 + $7 ))
	pq=$(tree_ticks "$bpid")
	while kill -0 "$bpid" 2>/dev/null; do
		sleep 1
		# shellcheck disable=SC2046
		set -- "$bpid" $(head -n 1 /proc/stat)
		tt=$(( $3 + $4 + $5 + $6 + $7 + $8 + $9 + ${10} )) ti=$(( $6 + $7 ))
		q=$(tree_ticks "$bpid")
		dt=$((tt - pt))
		# the process gone (its ticks vanish from the tree): not a sample
		kill -0 "$bpid" 2>/dev/null && [ "$q" -ge "$pq" ] || break
		if [ "$dt" -gt 0 ]; then
			other=$(( (dt - (ti - pi)) - (q - pq) ))
			[ "$other" -lt 0 ] && other=0
			if [ -n "${SAMPLE_MARKER_FILE:-}" ]; then
				marker=$(grep '^@@GS RUN-START' "$SAMPLE_MARKER_FILE" 2>/dev/null | tail -n 1 | tr -d '\r' | cut -d' ' -f3-4)
			else
				marker=${SAMPLE_MARKER:-}
			fi
			awk -v o="$other" -v d="$dt" -v n="$ncpu" -v m="${marker:-none}" \
				-v t="$(date +%s)" 'BEGIN { printf "%d %.2f %s\n", t, o * n / d, m }'
		fi
		pt=$tt pi=$ti pq=$q
	done
}
