#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Does framebench see scheduling? Runs each profile in three configurations
# on the same machine, interleaved (the order rotates every round) and
# repeated, and prints a table of medians with the spread [min - max]:
#   idle      no background load
#   hogs      one CPU hog per CPU (--bg hogs)
#   hogs+rt   the same hogs, game threads SCHED_FIFO (--rt; needs root)
# If the benchmark sees scheduling, the lows drop with hogs and recover
# with SCHED_FIFO. Within a round every configuration uses the same seed.
#
#   bench/framebench-sensitivity.sh [-r ROUNDS] [-d DURATION] [-p PROFILE]...
#   (defaults: 5 rounds, 10s, profiles proton and esports)
# The figures it gave are in docs/results.md ("framebench sees scheduling").
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build}
FB=$B/framebench
J=$B/tests/jsonget

rounds=5 dur=10s profiles=
while getopts r:d:p: o; do
	case $o in
	r) rounds=$OPTARG ;;
	d) dur=$OPTARG ;;
	p) profiles="$profiles $OPTARG" ;;
	*) echo "usage: $0 [-r ROUNDS] [-d DURATION] [-p PROFILE]..." >&2; exit 2 ;;
	esac
done
[ -n "$profiles" ] || profiles="proton esports"
make -s "$FB" "$J" >/dev/null

configs="idle hogs hogs+rt"
if [ "$(id -u)" -ne 0 ]; then
	echo "not root: the hogs+rt configuration (SCHED_FIFO) is skipped" >&2
	configs="idle hogs"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT INT TERM

args_of() {
	case $1 in
	idle) echo "" ;;
	hogs) echo "--bg hogs" ;;
	hogs+rt) echo "--bg hogs --rt" ;;
	esac
}

echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), kernel $(uname -r)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: $0 -r $rounds -d $dur$(for p in $profiles; do printf ' -p %s' "$p"; done)"
start=$(date +%s)
for p in $profiles; do
	r=1
	while [ $r -le $rounds ]; do
		# rotate the order each round: A B C, B C A, C A B, ...
		set -- $configs
		i=1
		while [ $i -lt $(( (r - 1) % $# + 1 )) ]; do
			first=$1; shift; set -- "$@" "$first"; i=$((i + 1))
		done
		for c in "$@"; do
			# shellcheck disable=SC2046
			"$FB" -q --profile "$p" --duration "$dur" --warmup 1s \
				--seed "$r" --no-feed $(args_of "$c") \
				--json "$out/$p.$c.$r.json" >/dev/null
		done
		r=$((r + 1))
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) ($(( $(date +%s) - start )) s)"

# stat FILES...: "median [min - max]" of the numbers on stdin
stat() {
	sort -g | awk -v fmt="$1" '
		{ v[NR] = $1 }
		END {
			if (!NR) { print "-"; exit }
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf fmt " [" fmt " - " fmt "]\n", m, v[1], v[NR]
		}'
}

med() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

col() {	# col PROFILE CONFIG KEY FORMAT
	for f in "$out/$1.$2".*.json; do "$J" "$f" "$3"; done | stat "$4"
}

for p in $profiles; do
	fps=$("$J" "$out/$p.idle.1.json" target_fps)
	[ "$fps" = 0 ] && t="uncapped" || t="$fps FPS target"
	echo
	echo "profile $p ($t): median [min - max] of $rounds runs of $dur per configuration"
	echo
	echo "| configuration | avg FPS | 1 % low (percentile) | 1 % low (average) | 0.1 % low (percentile) | p99 frame time ms | missed vsyncs | game wake-up p99 us |"
	echo "|---|---|---|---|---|---|---|---|"
	for c in $configs; do
		miss="-"
		[ "$fps" = 0 ] || miss=$(col "$p" "$c" missed_vsyncs "%.0f")
		echo "| $c | $(col "$p" "$c" avg_fps %.1f) | $(col "$p" "$c" low1_percentile_fps %.1f) | $(col "$p" "$c" low1_average_fps %.1f) | $(col "$p" "$c" low01_percentile_fps %.1f) | $(col "$p" "$c" frametime_ms.p99 %.2f) | $miss | $(col "$p" "$c" wake_latency_us.game.p99 %.0f) |"
	done
	base=$(for f in "$out/$p.idle".*.json; do "$J" "$f" low1_percentile_fps; done | med)
	printf "\n1 %% low (percentile), median relative to idle:"
	for c in $configs; do
		v=$(for f in "$out/$p.$c".*.json; do "$J" "$f" low1_percentile_fps; done | med)
		awk -v c="$c" -v v="$v" -v b="$base" 'BEGIN { printf " %s %.2f", c, v / b }'
	done
	echo
done
