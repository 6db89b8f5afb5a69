#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What recording costs the traced workload: a same-CPU futex ping-pong
# (two threads pinned to one CPU wake each other through futexes, ~5 us per
# round trip here: the worst case for a scheduler tracer, every round trip
# is two context switches and two wake-ups) timed by itself, under
#   base      nothing
#   record    frametrace record (BPF ring buffer, drained every 25 ms)
#   flight    frametrace watch (in-kernel per-CPU flight ring, no trigger)
#   uring     frametrace watch --user-ring (ring buffer into a user ring)
#   perf      perf sched record -k mono
# Configurations are interleaved (the order rotates every round) and
# repeated; the script prints each run, the median per configuration, the
# slowdown against base, and the ratio of frametrace's overhead to perf's.
#
# Two measures per run: wall time per round trip, and the ping-pong's own
# CPU time per round trip (CLOCK_PROCESS_CPUTIME_ID: both threads, the
# tracing programs that run in their context included, the time other
# processes held CPU 0 excluded). On a quiet host they agree; on this
# shared machine the wall time also counts whoever else ran on CPU 0, so
# the CPU time is the figure that survives load. The load average is
# printed before and after, and per round.
#
#   bench/frametrace-overhead.sh [ROUNDS [ROUND_TRIPS]]   (root)
#   CONFIGS="base record perf" bench/frametrace-overhead.sh   (a subset)
# The figures it gave are in docs/results.md ("frametrace overhead").
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build}
FT=$B/frametrace
ROUNDS=${1:-7}
N=${2:-200000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM

[ "$(id -u)" -eq 0 ] || { echo "run as root (BPF, perf)"; exit 1; }
[ -x "$FT" ] || { echo "build first: make"; exit 1; }

cat >"$T/pingpong.c" <<'C'
/* Two threads on CPU 0 alternate through one futex word; prints wall and
 * process CPU ns per round trip of the timed loop (start-up of any
 * recorder is outside it). */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static _Atomic int turn;
static long n;

static void fwait(int v)
{
	syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void fwake(void)
{
	syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void pin(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(0, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void *pong(void *x)
{
	(void)x;
	pin();
	for (long i = 0; i < n; i++) {
		while (atomic_load(&turn) != 1)
			fwait(0);
		atomic_store(&turn, 0);
		fwake();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	struct timespec a, b, ca, cb;

	n = argc > 1 ? atol(argv[1]) : 100000;
	pin();
	pthread_create(&t, NULL, pong, NULL);
	usleep(1000);
	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
	for (long i = 0; i < n; i++) {
		atomic_store(&turn, 1);
		fwake();
		while (atomic_load(&turn) != 0)
			fwait(1);
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
	clock_gettime(CLOCK_MONOTONIC, &b);
	pthread_join(t, NULL);
	printf("%.1f %.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n,
	       ((cb.tv_sec - ca.tv_sec) * 1e9 + (cb.tv_nsec - ca.tv_nsec)) / n);
	return 0;
}
C
cc -O2 -pthread "$T/pingpong.c" -o "$T/pingpong"
PP="$T/pingpong $N"

run() {
	case $1 in
	base) $PP ;;
	record) "$FT" record -q -o "$T/r.ftr" -- $PP ;;
	flight) "$FT" watch -q -o "$T/w" --frame-ms 1e6 -- $PP ;;
	uring) "$FT" watch -q --user-ring -o "$T/w" --frame-ms 1e6 -- $PP ;;
	perf) perf sched record -k mono -o "$T/perf.data" -- $PP 2>/dev/null ;;
	esac
	rm -rf "$T/r.ftr" "$T/w" "$T/perf.data"
}

CONFIGS=${CONFIGS:-"base record flight uring perf"}
echo "machine: $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "frametrace: $("$FT" --version) $(git rev-parse --short HEAD 2>/dev/null)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "workload: futex ping-pong, 2 threads pinned to CPU 0, $N round trips; $ROUNDS rounds"
: >"$T/results"
r=0
while [ $r -lt "$ROUNDS" ]; do
	# rotate the order every round
	order=$(echo $CONFIGS | awk -v r=$r '{ n = NF; for (i = 0; i < n; i++) printf "%s ", $(((i + r) % n) + 1) }')
	for c in $order; do
		v=$(run "$c" | tail -1)
		echo "$c $v" >>"$T/results"
		printf 'round %d %-7s %s ns per round trip (wall, cpu)\n' "$r" "$c" "$v"
	done
	echo "  load average: $(cut -d' ' -f1 /proc/loadavg)"
	r=$((r + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# median COLUMN CONFIG (column 2 wall, 3 cpu)
median() { grep "^$2 " "$T/results" | awk -v k="$1" '{ print $k }' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for k in 2 3; do
	what=$([ $k = 2 ] && echo "wall time" || echo "CPU time of the ping-pong")
	base=$(median $k base)
	echo "medians, $what (ns per round trip), and slowdown against base:"
	for c in $CONFIGS; do
		echo "$c $(median $k "$c") $base" | awk '{ printf "  %-7s %8.1f  %.3fx\n", $1, $2, $2 / $3 }'
	done
	for c in record flight uring; do
		echo "$CONFIGS" | grep -qw "$c" && echo "$CONFIGS" | grep -qw perf || continue
		echo "$c $(median $k "$c") $(median $k perf) $base" | awk -v w="$what" '{
			f = $2 / $4 - 1; p = $3 / $4 - 1;
			printf "overhead %s / perf sched record (%s): %.1f%% / %.1f%% = %.2f\n", $1, w, 100 * f, 100 * p, (p > 0 ? f / p : 0) }'
	done
done
