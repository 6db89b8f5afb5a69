#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# BPF cost per callback in instructions, a measure that does not move with
# the host's load. One boot under qemu's -icount shift=0,sleep=off (the
# guest's clock advances one nanosecond per emulated instruction, and idle
# time is skipped) runs the same framebench workload under each scheduler,
# interleaved and repeated, with kernel.bpf_stats_enabled=1; the loaders
# print every program's run_time_ns / run_cnt, which here is instructions
# per call. The table gives the median over the runs (vm/ablation.sh
# --bpf-stats). No background by default: -icount keeps one instruction
# clock for all vCPUs, so two busy vCPUs each run at half speed, and with
# hogs the game starves (the frame figures of this boot are not the
# machine's; only the instruction counts are read).
#
#   bench/bpf-cost-icount.sh [--configs C1,C2,...] [--reps N] [--duration D]
#                            [--profile NAME] [--program PATH]...
# Defaults: lavd,scx_minimal,scx_minimal:--lavd-shape; 3 rounds of 5s;
# proton. A scheduler whose loader does not print the "BPF cost per call"
# line (e.g. the reference scx_lavd) gets no row.
# The figures it gave are in docs/results.md ("BPF cost in instructions").
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
configs=lavd,scx_minimal,scx_minimal:--lavd-shape reps=3 dur=5s profile=proton extra=""
while [ $# -gt 0 ]; do
	case $1 in
	--configs) configs=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--duration) dur=$2; shift 2 ;;
	--profile) profile=$2; shift 2 ;;
	--program) extra="$extra --program $2"; shift 2 ;;
	-h|--help) sed -n '3,23p' "$0"; exit 0 ;;
	*) echo "bench/bpf-cost-icount.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
make -s BUILD="$B" static "$B/tests/jsonget" >/dev/null || exit 1
# shellcheck disable=SC2086
VM_ICOUNT=shift=0,sleep=off BUILD=$B vm/ablation.sh --configs "$configs" --reps "$reps" \
	--duration "$dur" --profile "$profile" --bg none --bpf-stats \
	--program "$B/static/scx_minimal" $extra --out "$B/vm/bpf-cost-icount"
