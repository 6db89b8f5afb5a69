#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# While a run goes, its frame feed is in /dev/shm with the right header and
# advancing. SIGINT (and SIGTERM) in the middle of a run: framebench exits 0
# with a partial report (terminal and JSON say "interrupted"; the background
# is accounted up to the signal), removes its frame feed from /dev/shm, and
# no process it started (helpers, background load, short-lived compile
# jobs) outlives it. About 10 s.
. tests/lib.sh
FB=$B/framebench
J=$B/tests/jsonget
need "$FB"
need "$J"

# descendants PID: every process below PID ("pid comm" lines)
descendants() {
	ps -eo pid=,ppid=,comm= | awk -v root="$1" '
		{ parent[$1] = $2; comm[$1] = $3 }
		END {
			for (p in parent) {
				q = p
				for (i = 0; i < 64 && q != "" && q != root && q > 1; i++)
					q = parent[q]
				if (q == root && p != root)
					print p, comm[p]
			}
		}'
}

run_and_signal() {
	sig=$1 name=$2
	"$FB" --profile proton --duration 60s --warmup 300ms --bg hogs:1 \
		--bg compile:2 --json "$T/$name.json" >"$T/$name.out" 2>"$T/$name.err" &
	pid=$!
	# the frame feed appears once the run is set up
	i=0
	while [ ! -e /dev/shm/framebench.$pid ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
	[ -e /dev/shm/framebench.$pid ] || fail "$name: no /dev/shm/framebench.$pid while running"
	# the feed (lib/framefeed.h): magic, our pid, frames published
	f=/dev/shm/framebench.$pid
	[ "$(head -c 8 "$f" 2>/dev/null)" = FAMEFEED ] || fail "$name: feed magic is not FAMEFEED"
	[ "$(od -An -t d4 -j 20 -N 4 "$f" | tr -d ' ')" = "$pid" ] || fail "$name: feed pid is not $pid"
	h1=$(od -An -t u8 -j 40 -N 8 "$f" | tr -d ' ')
	sleep 2
	h2=$(od -An -t u8 -j 40 -N 8 "$f" 2>/dev/null | tr -d ' ')
	[ "${h2:-0}" -gt "${h1:-0}" ] || fail "$name: feed head did not advance ($h1 -> $h2)"
	[ "$(od -An -t u4 -j 48 -N 4 "$f" | tr -d ' ')" = 1 ] || fail "$name: feed state is not 1 (measuring)"
	descendants $pid >"$T/$name.kids"
	grep -q "wineserver" "$T/$name.kids" || fail "$name: no wineserver helper among: $(cat "$T/$name.kids")"
	grep -q "fb-bg-hogs" "$T/$name.kids" || fail "$name: no background hogs among: $(cat "$T/$name.kids")"
	kill -"$sig" $pid
	t0=$(date +%s)
	wait $pid
	rc=$?
	secs=$(( $(date +%s) - t0 ))
	[ $rc -eq 0 ] || fail "$name: exit $rc after SIG$sig: $(cat "$T/$name.err")"
	[ $secs -le 5 ] || fail "$name: took ${secs}s to stop"
	grep -q "INTERRUPTED: figures cover the first" "$T/$name.out" || fail "$name: no partial report"
	grep -q "^average FPS" "$T/$name.out" || fail "$name: the partial report has no figures"
	[ "$("$J" "$T/$name.json" interrupted)" = true ] || fail "$name: JSON not marked interrupted"
	f=$("$J" "$T/$name.json" frames)
	[ "${f:-0}" -gt 0 ] || fail "$name: no frame in the partial report"
	awk -v s="$("$J" "$T/$name.json" measured_s)" 'BEGIN { exit !(s > 1 && s < 10) }' ||
		fail "$name: measured_s is $("$J" "$T/$name.json" measured_s)"
	# the background is accounted up to the signal
	[ "$("$J" "$T/$name.json" background.0.pattern background.1.pattern | tr '\n' ' ')" = "hogs:1 compile:2 " ] ||
		fail "$name: background patterns: $("$J" "$T/$name.json" background)"
	awk -v w="$("$J" "$T/$name.json" background.0.work_per_s)" \
		-v c="$("$J" "$T/$name.json" background.0.cpu_s)" 'BEGIN { exit !(w > 0 && c > 0) }' ||
		fail "$name: hogs not accounted: $("$J" "$T/$name.json" background.0.work_per_s background.0.cpu_s)"
	[ -e /dev/shm/framebench.$pid ] && fail "$name: /dev/shm/framebench.$pid left behind"
	sleep 0.2
	while read -r kid comm; do
		now=$(ps -o comm= -p "$kid" 2>/dev/null)
		[ -n "$now" ] && [ "$now" = "$comm" ] && fail "$name: $comm ($kid) outlived framebench"
	done <"$T/$name.kids"
}

run_and_signal INT sigint
run_and_signal TERM sigterm

finish "framebench signals"
