#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The VM tables' arithmetic on made-up runs (host side, no VM): the
# ablation table's Welch t (vm/stats.awk) and its BPF cost section, the
# median cost per call of each program and the run's total, with the
# figures worked out by hand in the comments.
. tests/lib.sh
JG=$B/tests/jsonget
need "$JG"
mkdir -p "$T/files"
# lavd's 1 % lows 10, 12, 14 (mean 12, sd 2); lavd:--no-x's 20, 22, 24
# (mean 22, sd 2): +83.3 %, Welch t = 10 / sqrt(4/3 + 4/3) = 6.1
for r in 1 2 3; do
	for i in 1 2; do
		low=$(( (i == 1 ? 10 : 20) + 2 * (r - 1) ))
		printf '{"low1_percentile_fps": %s, "frametime_ms": {"p99": 30}, "avg_fps": 60}\n' \
			"$low" > "$T/files/run-$r-$i.json"
	done
	# select_cpu 900/1000/1100 ns (median 1000) over 1000 calls, enqueue
	# 2000 ns over 500: a run's total 2.0 ms; lavd:--no-x only select_cpu
	echo "@@GS DATA bpf_cost $r 1 select_cpu $((800 + 100 * r))ns/1000 enqueue 2000ns/500" >> "$T/res"
	echo "@@GS DATA bpf_cost $r 2 select_cpu 500ns/2000" >> "$T/res"
done
: > "$T/load"
vm/ablation-table.sh --files "$T/files" --results "$T/res" --host-load "$T/load" \
	--configs lavd,lavd:--no-x --max-host-load 0.5 --jsonget "$JG" --title T > "$T/out" 2>&1 ||
	fail "ablation-table.sh failed: $(cat "$T/out")"
cat "$T/out"
grep -Eq '^ +lavd:--no-x +1% low +\+83\.3% \(t +\+6\.1\)' "$T/out" &&
	pass "Welch t of one feature off against lavd: +6.1" || fail "no '+83.3% (t +6.1)' line"
grep -Eq '^ +configuration +total +select_cpu +enqueue$' "$T/out" &&
	pass "cost header: total, then the programs in order of appearance" || fail "cost header"
grep -Eq '^ +lavd +2\.0 +1000 +2000$' "$T/out" &&
	pass "lavd: total 2.0 ms, select_cpu median 1000 ns, enqueue 2000 ns" || fail "lavd's cost row"
grep -Eq '^ +lavd:--no-x +1\.0 +500 +-$' "$T/out" &&
	pass "lavd:--no-x: total 1.0 ms, no enqueue program" || fail "lavd:--no-x's cost row"
finish "VM tables"
