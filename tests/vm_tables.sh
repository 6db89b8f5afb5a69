#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The VM tables' arithmetic on made-up runs (host side, no VM): the
# ablation table's Welch t (vm/stats.awk) and its BPF cost section, the
# median cost per call of each program and the run's total; the host's
# runs beside the limit, ablation, profiles and vm-gamesuite tables
# (vm/hostfid.awk: fidelity, lab-bound, handicapped) and the --host-rounds
# refusals, with the figures worked out by hand in the comments.
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
# the limit table beside the host's runs (bench/eevdf-host.sh's runs.tsv):
# the VM's default keeps 1 % lows 30/32/34 with hogs (mean 32) and 58/60/62
# without; lavd 48/50/52 (mean 50, sd 2); lavd --eevdf 40/42/44; the
# default with the game at nice -10 44/46/48. The host's default: 59/60/61
# without (fidelity 60/60 = 1.00), 39/40/41 with (32/40 = 0.80: lab-bound);
# nice -10 54/55/56: lavd in the VM against it t = -5 / sqrt(4/3 + 1/3) = -3.9,
# against the host's default +7.7; the host's lavd --eevdf 57/58/59 (-6.2).
# Ranking: on the host lavd --eevdf beats the default and nice -10 (+3.7);
# in the VM lavd --eevdf beats the default but loses to nice -10 (-2.4),
# sched_ext lavd beats both (+2.4 against nice -10).
mkdir -p "$T/lf"
printf '@@GS DATA slot 1 proton default\n@@GS DATA slot 2 proton lavd\n' > "$T/lres"
printf '@@GS DATA slot 3 proton lavd:--eevdf\n@@GS DATA slot 4 proton default:--nice:-10\n' >> "$T/lres"
printf 'profile\tbg\tarm\tround\tavg_fps\tlow1\thog_work_s\tjobs\tother_cpus\n' > "$T/host.tsv"
for r in 1 2 3; do
	for s in 1 2 3 4; do
		for v in 0 1; do
			case $s in 1) base=30 ;; 2) base=48 ;; 3) base=40 ;; 4) base=44 ;; esac
			low=$(( v == 0 ? 58 + 2 * (r - 1) : base + 2 * (r - 1) ))
			printf '{"low1_percentile_fps": %s, "frametime_ms": {"p99": 30}, "avg_fps": 60}\n' \
				"$low" > "$T/lf/run-$r-$s.$v.json"
		done
	done
	printf 'proton\tnone\tdefault\t%s\t60\t%s\t\t\t0.01\n' $r $((58 + r)) >> "$T/host.tsv"
	printf 'proton\thogs:2\tdefault\t%s\t60\t%s\t1.2\t\t0.01\n' $r $((38 + r)) >> "$T/host.tsv"
	printf 'proton\thogs:2\tnice10\t%s\t60\t%s\t1.4\t\t0.01\n' $r $((53 + r)) >> "$T/host.tsv"
	printf 'proton\thogs:2\tlavd\t%s\t60\t%s\t1.4\t\t0.01\n' $r $((56 + r)) >> "$T/host.tsv"
done
vm/limit-table.sh --files "$T/lf" --results "$T/lres" --host-load "$T/load" --max-host-load 0.5 \
	--jsonget "$JG" --title T --host "$T/host.tsv" --bg hogs:2 --summary "$T/summary" > "$T/out" 2>&1 ||
	fail "limit-table.sh failed: $(cat "$T/out")"
cat "$T/out"
grep -q '^   proton: fidelity (the VM default / the host default, 1 % low): none 1.00, hogs:2 0.80 lab-bound$' "$T/out" &&
	pass "fidelity: 1.00 without background, 0.80 (lab-bound) with" || fail "no fidelity line"
grep -q '^   proton: handicapped, lavd in the VM 50.0 +- 2.0 against the host: default 40.0 +- 1.0 (t +7.7) nice10 55.0 +- 1.0 (t -3.9) lavd --eevdf 58.0 +- 1.0 (t -6.2)$' "$T/out" &&
	pass "handicapped: +7.7 against the host's default, -3.9 against nice -10" || fail "no handicapped line"
grep -q '^   proton: ranking, 1 % low with hogs:2 (+ better, - worse, = |t| < 2): host lavd --eevdf: default + nice10 + fifo ?; VM lavd --eevdf: default + nice10 - (agrees 1 of 2); VM lavd: default + nice10 + (agrees 2 of 2)$' "$T/out" &&
	pass "ranking: the VM's lavd --eevdf agrees with the host on 1 of 2 peers, sched_ext lavd on 2" || fail "no ranking line"
grep -q '^vm proton hogs:2 lavd:--eevdf 3 126.000000 5300.000000$' "$T/summary" &&
	grep -q '^host proton hogs:2 nice10 3 165.000000 9077.000000$' "$T/summary" &&
	pass "summary: the VM's and the host's cells as n, sum, sum of squares" || fail "summary: $(cat "$T/summary")"
# the ablation table beside the host's runs: the VM's default keeps 1 %
# lows 57/60/63 (mean 60), full lavd 48/50/52 (mean 50, sd 2). The host's
# default: 59/60/61 with hogs (fidelity 60/60 = 1.00), 39/40/41 without
# (the same boot asked as if it had no background: 60/40 = 1.50,
# lab-bound); nice -10 with hogs 54/55/56: lavd in the VM against it
# t = -5 / sqrt(4/3 + 1/3) = -3.9, against the host's default -7.7
mkdir -p "$T/af"
: > "$T/ares"
printf 'profile\tbg\tarm\tround\tavg_fps\tlow1\thog_work_s\tjobs\tother_cpus\n' > "$T/ahost.tsv"
for r in 1 2 3; do
	printf '{"low1_percentile_fps": %s, "frametime_ms": {"p99": 30}, "avg_fps": 60}\n' \
		$((54 + 3 * r)) > "$T/af/run-$r-1.json"
	printf '{"low1_percentile_fps": %s, "frametime_ms": {"p99": 30}, "avg_fps": 60}\n' \
		$((46 + 2 * r)) > "$T/af/run-$r-2.json"
	printf 'proton\thogs:2\tdefault\t%s\t60\t%s\t1.2\t\t0.01\n' $r $((58 + r)) >> "$T/ahost.tsv"
	printf 'proton\tnone\tdefault\t%s\t60\t%s\t\t\t0.01\n' $r $((38 + r)) >> "$T/ahost.tsv"
	printf 'proton\thogs:2\tnice10\t%s\t60\t%s\t1.4\t\t0.01\n' $r $((53 + r)) >> "$T/ahost.tsv"
done
atab() {
	vm/ablation-table.sh --files "$T/af" --results "$T/ares" --host-load "$T/load" \
		--configs default,lavd --max-host-load 0.5 --jsonget "$JG" --title T "$@"
}
atab --host "$T/ahost.tsv" --profile proton --bg hogs:2 > "$T/a1" 2>&1 || fail "ablation-table.sh --host failed: $(cat "$T/a1")"
atab --host "$T/ahost.tsv" --profile proton --bg none > "$T/a2" 2>&1 || fail "ablation-table.sh --host (none) failed: $(cat "$T/a2")"
atab > "$T/a0" 2>&1 || fail "ablation-table.sh failed: $(cat "$T/a0")"
cat "$T/a1" "$T/a2"
grep -qx '   proton: fidelity (the VM default / the host default, 1 % low): hogs:2 1.00' "$T/a1" &&
	pass "ablation fidelity: 1.00 with hogs" || fail "no faithful ablation fidelity line"
grep -qx '   proton: handicapped, lavd in the VM 50.0 +- 2.0 against the host: default 60.0 +- 1.0 (t -7.7) nice10 55.0 +- 1.0 (t -3.9)' "$T/a1" &&
	pass "ablation handicapped: full lavd -7.7 against the host's default, -3.9 against nice -10" ||
	fail "no ablation handicapped line"
grep -qx '   proton: fidelity (the VM default / the host default, 1 % low): none 1.50 lab-bound' "$T/a2" &&
	pass "ablation fidelity: 1.50 without background, lab-bound" || fail "no lab-bound ablation fidelity line"
# without --host the table is what it was: the with-host table less its
# blank line and two host lines
sed '/^$/{N;/: fidelity (/d;}' "$T/a1" | grep -v ': handicapped, ' > "$T/a1less"
! grep -q 'fidelity\|handicapped' "$T/a0" && cmp -s "$T/a0" "$T/a1less" &&
	pass "ablation table without --host: unchanged" || fail "ablation table without --host differs"
expect_exit 2 "--profile and --bg" atab --host "$T/ahost.tsv"

# the profiles table beside the host's runs: the VM's kernel default
# (cmp-T-R-d) keeps 59/60/61 on proton and 29/30/31 on unreal with hogs;
# the host's default 59/60/61 (1.00) and 49/50/51 (30/50 = 0.60, lab-bound)
mkdir -p "$T/pf"
: > "$T/pres"
printf 'profile\tbg\tarm\tround\tavg_fps\tlow1\thog_work_s\tjobs\tother_cpus\n' > "$T/phost.tsv"
for r in 1 2 3; do
	for t in proton unreal; do
		base=$([ $t = proton ] && echo 58 || echo 28)
		for k in 0 1 d; do
			printf '{"low1_percentile_fps": %s}\n' $((base + r)) > "$T/pf/cmp-$t-$r-$k.json"
		done
	done
	printf 'proton\thogs:2\tdefault\t%s\t60\t%s\t1.2\t\t0.01\n' $r $((58 + r)) >> "$T/phost.tsv"
	printf 'unreal\thogs:2\tdefault\t%s\t60\t%s\t1.2\t\t0.01\n' $r $((48 + r)) >> "$T/phost.tsv"
done
ptab() {
	vm/profiles-table.sh --files "$T/pf" --results "$T/pres" --cands proton \
		--targets proton,unreal --jsonget "$JG" --title T "$@"
}
ptab --host "$T/phost.tsv" --bg hogs:2 > "$T/p1" 2>&1 || fail "profiles-table.sh --host failed: $(cat "$T/p1")"
ptab > "$T/p0" 2>&1 || fail "profiles-table.sh failed: $(cat "$T/p0")"
cat "$T/p1"
grep -qx '   proton: fidelity (the VM default / the host default, 1 % low): hogs:2 1.00' "$T/p1" &&
	pass "profiles fidelity: proton 1.00" || fail "no faithful profiles fidelity line"
grep -qx '   unreal: fidelity (the VM default / the host default, 1 % low): hogs:2 0.60 lab-bound' "$T/p1" &&
	pass "profiles fidelity: unreal 0.60, lab-bound" || fail "no lab-bound profiles fidelity line"
grep -v ': fidelity (' "$T/p1" | cmp -s "$T/p0" - &&
	pass "profiles table without --host: unchanged (the kernel default's runs unused)" ||
	fail "profiles table without --host differs"
expect_exit 2 "--bg" ptab --host "$T/phost.tsv"

# --host-rounds refused before anything runs (BUILD has nothing: a
# refusal that slipped would stop at the missing programs, not boot)
nb="env BUILD=$T/none"
expect_exit 2 "--host-rounds" $nb vm/limit.sh --calibration 100 --host-rounds x
expect_exit 2 "--host-rounds" $nb vm/ablation.sh --calibration 100 --host-rounds x
expect_exit 2 "--fb-args" $nb vm/ablation.sh --calibration 100 --host-rounds 1 --fb-args "--threads 4"
expect_exit 2 "--host-rounds" $nb vm/profiles.sh --calibration 100 --host-rounds -1
expect_exit 2 "compare" $nb vm/profiles.sh --calibration 100 --phases load --host-rounds 1
# vm-gamesuite's fidelity from gamesuite's two reports (medians of the
# kernel default's 1 % low): proton-hogs 30 in the VM, 50 on the host
# (0.60, lab-bound); esports-browser 58 against 60 (0.97)
gsj() {
	printf '{"workloads": {"proton-hogs": {"metrics": {"low1_percentile_fps": {"schedulers": {"eevdf": {"median": %s}}}}}, ' "$1"
	printf '"esports-browser": {"metrics": {"low1_percentile_fps": {"schedulers": {"eevdf": {"median": %s}}}}}}}\n' "$2"
}
gsj 30 58 > "$T/gvm.json"
gsj 50 60 > "$T/ghost.json"
vm/gamesuite-table.sh --suite vm/plans/gamesuite-demo.suite --vm "$T/gvm.json" --host "$T/ghost.json" \
	--jsonget "$JG" > "$T/g" 2>&1 || fail "gamesuite-table.sh failed: $(cat "$T/g")"
cat "$T/g"
grep -qx '   proton-hogs: fidelity (the VM default / the host default, 1 % low): hogs:2 0.60 lab-bound' "$T/g" &&
	pass "vm-gamesuite fidelity: proton-hogs 0.60, lab-bound" || fail "no lab-bound vm-gamesuite line"
grep -qx '   esports-browser: fidelity (the VM default / the host default, 1 % low): browser 0.97' "$T/g" &&
	pass "vm-gamesuite fidelity: esports-browser 0.97" || fail "no faithful vm-gamesuite line"
expect_exit 2 "--host-rounds" $nb vm/gamesuite-demo.sh --host-rounds x
finish "VM tables"
