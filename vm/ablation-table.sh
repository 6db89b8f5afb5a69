#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The table of vm/ablation.sh from the runs' framebench JSON files
# (run-ROUND-IDX.json, IDX = position in --configs): per configuration the
# runs kept, mean +- standard deviation and range of the 1 % low FPS
# (percentile) and of the p99 frame time, the mean average FPS, each
# mean's ratio to the kernel default's, lavd's mean preemptions and
# futex-holder events per second (from its statistics lines) and mean
# active CPUs (core compaction; all runs, not only the kept); then, for
# each "lavd:--no-X" configuration, what switching X off changed against
# full lavd, with Welch's t (|t| < 2: not resolved by these runs). Runs
# during which the host's other processes used more than MAX CPUs are
# left out and counted. With --host RUNS.TSV (bench/eevdf-host.sh's runs
# on the host's real CPUs, same session and calibration) and the boot's
# --profile and --bg: the fidelity of the cell (the VM default's 1 % low
# over the host default's; lab-bound outside 0.85-1.15) and full lavd in
# the VM against the host's arms with Welch's t (vm/hostfid.awk).
#
#   vm/ablation-table.sh --files DIR --results FILE --host-load FILE
#                        --configs C1,C2,... --max-host-load MAX
#                        --jsonget PATH [--title TEXT]
#                        [--host RUNS.TSV --profile NAME --bg PATTERN]
set -u
files="" res="" load="" max=0.5 jsonget="" title="" configs="" host="" hprof="" hbg=""
while [ $# -gt 0 ]; do
	case $1 in
	--files) files=$2; shift 2 ;;
	--results) res=$2; shift 2 ;;
	--host-load) load=$2; shift 2 ;;
	--configs) configs=$2; shift 2 ;;
	--max-host-load) max=$2; shift 2 ;;
	--jsonget) jsonget=$2; shift 2 ;;
	--title) title=$2; shift 2 ;;
	--host) host=$2; shift 2 ;;
	--profile) hprof=$2; shift 2 ;;
	--bg) hbg=$2; shift 2 ;;
	*) echo "vm/ablation-table.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -n "$configs" ] && [ -x "$jsonget" ] || { echo "vm/ablation-table.sh: --configs and --jsonget are needed" >&2; exit 2; }
if [ -n "$host" ]; then
	[ -n "$hprof" ] && [ -n "$hbg" ] ||
		{ echo "vm/ablation-table.sh: --host needs the boot's --profile and --bg" >&2; exit 2; }
	[ -r "$host" ] || { echo "vm/ablation-table.sh: --host $host: not readable" >&2; exit 2; }
fi

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
n=0
for f in "$files"/run-*-*.json; do
	[ -f "$f" ] || continue
	b=$(basename "$f" .json)
	r=$(echo "$b" | cut -d- -f2)
	i=$(echo "$b" | cut -d- -f3)
	vals=$("$jsonget" "$f" low1_percentile_fps frametime_ms.p99 avg_fps 2>/dev/null | tr '\n' ' ')
	[ -n "$vals" ] || { echo "ablation: $f: unreadable JSON, left out"; continue; }
	hl=NA
	[ -s "$load" ] && hl=$(awk -v m="$r $i" '{ k = $3 " " $4 } k == m { t += $2; c++ }
		END { if (c) printf "%.2f", t / c; else print "NA" }' "$load")
	st=$(grep "^@@GS DATA lavdstats $r $i " "$res" 2>/dev/null | head -n 1 |
		sed -n 's/.*preempt\/s \([0-9.]*\).*futex [a-z]* lock\/s \([0-9.]*\).*/\1 \2/p')
	act=$(sed -n "s/^@@GS DATA lavdactive $r $i //p" "$res" 2>/dev/null | head -n 1)
	echo "$r $i $hl $vals ${st:-NA NA} ${act:-NA}" >> "$rows"
	n=$((n + 1))
done
if [ "$n" -eq 0 ]; then
	echo "ablation: no run results to tabulate"
	grep '^@@GS RUN-' "$res" 2>/dev/null
	exit 1
fi

echo "== lavd ablation: $title"
echo "   Emulated (TCG) figures: compare within this table only. mean +- sd (min-max) over"
echo "   the runs kept; ratios are of the means, against the kernel default."
echo
STATS_AWK=$(cat "$(dirname "$0")/stats.awk" "$(dirname "$0")/hostfid.awk") || exit 1
awk -v rows="$rows" -v max="$max" -v configs="$configs" -v host="$host" -v hprof="$hprof" \
	-v hbg="$hbg" "$STATS_AWK"'
	function add(c, k, v) { s[c, k] += v; q[c, k] += v * v; if (!((c, k) in lo) || v < lo[c, k]) lo[c, k] = v; if (!((c, k) in hi) || v > hi[c, k]) hi[c, k] = v }
	function mean(c, k) { return kept[c] ? s[c, k] / kept[c] : 0 }
	function sd(c, k) { return gs_sd(kept[c], s[c, k], q[c, k]) }
	function cell(c, k, d) { return sprintf("%." d "f +- %." d "f (%." d "f-%." d "f)", mean(c, k), sd(c, k), lo[c, k], hi[c, k]) }
	BEGIN {
		ncfg = split(configs, name, ",")
		while ((getline line < rows) > 0) {
			split(line, f, " ")
			c = f[2]; total[c]++
			if (f[3] != "NA" && f[3] + 0 > max + 0) { dropped[c]++; continue }
			kept[c]++
			add(c, "low", f[4]); add(c, "p99", f[5]); add(c, "avg", f[6])
			if (f[7] != "NA") { pre[c] += f[7]; lk[c] += f[8]; ns[c]++ }
			if (f[9] != "NA") { act[c] += f[9]; na[c]++ }
		}
		w = 13
		for (c = 1; c <= ncfg; c++) {
			if (name[c] == "default") def = c
			if (name[c] == "lavd") full = c
			if (length(name[c]) > w) w = length(name[c])
		}
		printf "   %-" w "s %5s  %-28s %-30s %7s  %9s %9s  %9s %9s %7s\n", "configuration", "runs", "1% low FPS", "p99 frame time (ms)", "avg FPS", "low/dflt", "p99/dflt", "preempt/s", "lock/s", "active"
		for (c = 1; c <= ncfg; c++) {
			if (!kept[c]) { printf "   %-" w "s %2d/%-2d  (no undisturbed run)\n", name[c], 0, total[c]; continue }
			rl = (def && kept[def] && mean(def, "low") > 0) ? sprintf("%.2f", mean(c, "low") / mean(def, "low")) : "-"
			rp = (def && kept[def] && mean(def, "p99") > 0) ? sprintf("%.2f", mean(c, "p99") / mean(def, "p99")) : "-"
			pr = ns[c] ? sprintf("%.0f", pre[c] / ns[c]) : "-"
			lr = ns[c] ? sprintf("%.0f", lk[c] / ns[c]) : "-"
			ac = na[c] ? sprintf("%.2f", act[c] / na[c]) : "-"
			printf "   %-" w "s %2d/%-2d  %-28s %-30s %7.1f  %9s %9s  %9s %9s %7s\n", name[c], kept[c], total[c], cell(c, "low", 1), cell(c, "p99", 1), mean(c, "avg"), rl, rp, pr, lr, ac
		}
		if (full && kept[full] >= 2) {
			printf "\n   switching one feature off, against lavd with everything (Welch t; |t| < 2: not resolved):\n"
			for (c = 1; c <= ncfg; c++) {
				if (c == full || c == def || kept[c] < 2 || name[c] !~ /^lavd:/) continue
				for (k = 1; k <= 2; k++) {
					key = k == 1 ? "low" : "p99"
					d = mean(c, key) - mean(full, key)
					t[k] = gs_welch(kept[c], s[c, key], q[c, key], kept[full], s[full, key], q[full, key]) + 0
					pc[k] = mean(full, key) ? 100 * d / mean(full, key) : 0
				}
				printf "   %-" w "s 1%% low %+6.1f%% (t %+5.1f)   p99 %+6.1f%% (t %+5.1f)\n", name[c], pc[1], t[1], pc[2], t[2]
			}
		}
		if (host != "") {
			hf_read(host, max)
			printf "\n"
			hf_fidelity(hprof, hf_fid(mean(def, "low"), hprof, hbg))
			if (full) hf_handicapped(hprof, hbg, kept[full], s[full, "low"], q[full, "low"])
		}
		printf "\n"
		for (c = 1; c <= ncfg; c++) {
			out += dropped[c]; all += total[c]
			if (dropped[c]) printf "   %s: %d run(s) left out (host load)\n", name[c], dropped[c]
		}
		printf "   %d of %d runs left out: the host'"'"'s other processes used more than %s CPUs during them\n", out, all, max
	}'
# BPF cost per call (gs.bpfstats=1): the median over each configuration's
# runs of every program's run_time_ns / run_cnt, and of the run's total
# (every program's run_time_ns: what the scheduler's BPF spent from load
# to unload, one framebench run)
if grep -q '^@@GS DATA bpf_cost ' "$res" 2>/dev/null; then
	echo
	echo "   BPF cost per call (ns, kernel.bpf_stats_enabled=1; median over the runs; total: all programs over the run, ms):"
	grep '^@@GS DATA bpf_cost ' "$res" | awk -v configs="$configs" '
		function put(k, v) { n[k]++; x[k, n[k]] = v }
		{ c = $5; tot = 0
		  for (i = 6; i + 1 <= NF; i += 2) { split($(i + 1), v, "ns/"); put(c SUBSEP $i, v[1] + 0); tot += v[1] * v[2]; if (!($i in seen)) { seen[$i] = 1; prog[++np] = $i } }
		  put(c SUBSEP "total", tot / 1e6) }
		function median(k,   m, i, j, t, a) { m = n[k]; for (i = 1; i <= m; i++) a[i] = x[k, i]
			for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
		END {
			ncfg = split(configs, name, ",")
			line = sprintf("   %-36s %9s", "configuration", "total"); for (p = 1; p <= np; p++) line = line sprintf(" %11s", prog[p]); print line
			for (c = 1; c <= ncfg; c++) {
				k = c SUBSEP "total"; if (!n[k]) continue
				line = sprintf("   %-36s %9.1f", name[c], median(k))
				for (p = 1; p <= np; p++) { k = c SUBSEP prog[p]; line = line (n[k] ? sprintf(" %11.0f", median(k)) : sprintf(" %11s", "-")) }
				print line
			}
		}'
fi
