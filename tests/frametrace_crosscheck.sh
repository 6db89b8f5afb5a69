#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A fresh cross-check with perf: record framebench (pinned to CPU 0) with
# `perf sched record -k mono`, and compare frametrace's per-task runtime and
# switch counts on the `perf script` text with `perf sched latency -p` on
# the same perf.data: the switches counted again from frametrace's import
# the way perf counts them, exactly from 20 switches up (rules:
# tests/test_frametrace_crosscheck.c). The committed fixture is checked by
# the unit test; this is the same on this machine today. Skips (77)
# without root or a working perf.
#
# `-e sched:sched_wakeup` is added because perf 6.1 (Debian 12's, what CI
# installs) records sched_waking but its `perf sched latency` only counts
# switches after sched_wakeup: without it perf reported 233 switches where
# the trace holds 1213 (later perfs take sched_waking and ignore
# sched_wakeup; the checker knows both).
. tests/lib.sh
FB=$B/framebench

[ "$(id -u)" -eq 0 ] || skip "perf sched record needs root"
command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 ||
	skip "no working perf"
perf sched record -k mono -e sched:sched_wakeup -o "$T/perf.data" -- \
	taskset -c 0 "$FB" -d 300ms -w 50ms -q >"$T/out" 2>"$T/err" ||
	skip "perf sched record failed: $(tail -1 "$T/err")"
perf script -i "$T/perf.data" --ns >"$T/script.txt" 2>/dev/null || {
	echo "perf script failed"; exit 1; }
perf sched latency -i "$T/perf.data" -p >"$T/latency.txt" 2>/dev/null || {
	echo "perf sched latency failed"; exit 1; }
perf version
wc -l "$T/script.txt"
# not exec: the EXIT trap removes $T afterwards
"$B/tests/test_frametrace_crosscheck" "$T/script.txt" "$T/latency.txt"
