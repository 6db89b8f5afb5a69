#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The table of vm/fidelity.sh: host and VM side by side from the runs'
# framebench JSON files (DIR/host/run-R-P.V.json and
# DIR/vm-R/files/run-R-P.V.json; V 0: no background, 1: with it). Per
# profile, variant and metric: host and VM mean +- sd over the runs kept,
# the VM/host ratio of the means with its spread (the two relative sds
# added in quadrature) and whether the ratio is within the tolerance. The
# goal's metrics are average FPS, 1 % low and background work/s; p99 and
# the game's CPU time per frame (a dilated run's divided by its K) are
# shown beside them. Runs during which
# the host's other processes used more than MAX CPUs are left out and
# counted, and so are failed ones.
#
#   vm/fidelity-table.sh --out DIR --jsonget PATH [--max-host-load MAX]
#                        [--tolerance PCT] [--title TEXT]
set -u
out="" jsonget="" max=0.5 tol=15 title=""
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--jsonget) jsonget=$2; shift 2 ;;
	--max-host-load) max=$2; shift 2 ;;
	--tolerance) tol=$2; shift 2 ;;
	--title) title=$2; shift 2 ;;
	*) echo "vm/fidelity-table.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -d "$out" ] && [ -x "$jsonget" ] || { echo "vm/fidelity-table.sh: --out DIR and --jsonget PATH are needed" >&2; exit 2; }

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
# row: SIDE ROUND PROFILE VARIANT LOAD avg low1 p99 cpu_per_frame_ms work
# load: mean of the host's other load over the run's samples (NA: none)
add_run() {
	side=$1 f=$2 loadf=$3
	b=$(basename "$f" .json)
	r=$(echo "$b" | cut -d- -f2) id=$(echo "$b" | cut -d- -f3-)
	# shellcheck disable=SC2046 # split into fields on purpose
	set -- $("$jsonget" "$f" avg_fps low1_percentile_fps frametime_ms.p99 game_cpu_s frames config.dilate 2>/dev/null)
	[ $# -eq 6 ] || { echo "fidelity: $f: unreadable JSON, left out"; return; }
	work=$("$jsonget" "$f" background.0.work_per_s 2>/dev/null)
	case $work in ''|null|'<'*) work=NA ;; esac
	hl=NA
	[ -s "$loadf" ] && hl=$(awk -v m="$r $id" '{ k = $3 " " $4 } k == m { t += $2; c++ }
		END { if (c) printf "%.2f", t / c; else print "NA" }' "$loadf")
	echo "$side $r ${id%.*} ${id##*.} $hl $1 $2 $3 $(awk -v c="$4" -v n="$5" -v k="$6" 'BEGIN { printf "%.3f", (n > 0) ? c * 1000 / n / k : 0 }') $work" >> "$rows"
}
for f in "$out"/host/run-*.json; do
	[ -f "$f" ] && add_run host "$f" "$out/host/host-load.txt"
done
for d in "$out"/vm-*/; do
	for f in "$d"files/run-*.json; do
		[ -f "$f" ] && add_run vm "$f" "$d/host-load.txt"
	done
	sed -n 's/^@@GS RUN-FAIL \([0-9]*\) \([^ ]*\) \(.*\)/fail vm \1 \2 \3/p' "$d/results.txt" 2>/dev/null >> "$rows"
done
[ -s "$rows" ] || { echo "fidelity: no run results to tabulate in $out"; exit 1; }

echo "== VM fidelity: $title"
echo "   Default scheduler on both sides. mean +- sd over the runs kept; VM/host: ratio of the means,"
echo "   +- its spread; 'ok' when within $tol %. Goal metrics: average FPS, 1 % low, background work/s."
STATS_AWK=$(cat "$(dirname "$0")/stats.awk") || exit 1
awk -v max="$max" -v tol="$tol" "$STATS_AWK"'
	function push(k, v) { cnt[k]++; sum[k] += v; sq[k] += v * v }
	function mean(k) { return cnt[k] ? sum[k] / cnt[k] : 0 }
	function sd(k) { return gs_sd(cnt[k], sum[k], sq[k]) }
	function ms(k, d) { return cnt[k] ? sprintf("%." d "f +- %." d "f", mean(k), sd(k)) : "-" }
	$1 == "fail" { failed++; failnote = failnote sprintf("   VM run %s %s failed: %s\n", $3, $4, substr($0, index($0, $5))); next }
	{
		side = $1; p = $3; v = $4; total[side]++
		if (!(p in seenp)) { seenp[p] = 1; porder[++np] = p }
		if ($5 != "NA" && $5 + 0 > max + 0) { dropped[side]++; next }
		kept[side, p, v]++
		push(side "|" p "|" v "|avg", $6); push(side "|" p "|" v "|low1", $7)
		push(side "|" p "|" v "|p99", $8); push(side "|" p "|" v "|cpu", $9)
		if ($10 != "NA") push(side "|" p "|" v "|work", $10)
	}
	END {
		split("avg low1 p99 cpu work", mk, " ")
		name["avg"] = "average FPS"; name["low1"] = "1 % low FPS"; name["p99"] = "p99 frame ms"
		name["cpu"] = "game CPU ms/frame"; name["work"] = "bg work/s (1 = a CPU)"
		goal["avg"] = 1; goal["low1"] = 1; goal["work"] = 1
		for (i = 1; i <= np; i++) {
			p = porder[i]
			printf "\n   %-10s %-24s %-18s %-18s %-15s %s\n", p, "metric", "host", "VM", "VM/host", ""
			for (v = 0; v <= 1; v++) {
				printf "   %-10s runs kept: host %d, VM %d\n", v ? "with bg" : "no bg", kept["host", p, v], kept["vm", p, v]
				for (j = 1; j <= 5; j++) {
					m = mk[j]; h = "host|" p "|" v "|" m; g = "vm|" p "|" v "|" m
					if (!cnt[h] && !cnt[g]) continue
					verdict = ""; rs = "-"
					if (cnt[h] && cnt[g] && mean(h) > 0 && mean(g) > 0) {
						r = mean(g) / mean(h)
						e = r * sqrt((sd(g) / mean(g)) ^ 2 + (sd(h) / mean(h)) ^ 2)
						rs = sprintf("%.2f +- %.2f", r, e)
						ok = (r >= 1 - tol / 100 && r <= 1 + tol / 100)
						verdict = ok ? "ok" : "OFF"
						if (goal[m]) { ngoal++; if (ok) nok++; else miss = miss sprintf(" %s/%s/%s %.2f;", p, v ? "bg" : "none", m, r) }
						else verdict = "(" verdict ")"
					}
					printf "   %-10s %-24s %-18s %-18s %-15s %s\n", "", name[m], ms(h, 2), ms(g, 2), rs, verdict
				}
			}
		}
		printf "\n   goal (average FPS, 1 %% low and background work/s within %d %% of the host): %d of %d met\n", tol, nok, ngoal
		if (miss != "") printf "   off:%s\n", miss
		printf "   left out: host %d of %d runs, VM %d of %d (other host processes used more than %s CPUs); VM runs failed: %d\n",
			dropped["host"], total["host"], dropped["vm"], total["vm"], max, failed
		printf "%s", failnote
	}' "$rows"
