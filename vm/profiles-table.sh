#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The tables of vm/profiles.sh from the runs' framebench JSON files and
# the plan's DATA lines: verified instructions; per target and
# configuration the 1 % low FPS (percentile) as mean +- sd (runs) with
# Welch's t against lavd's defaults, and each candidate's verdict under
# the shipping rule (better on its own target with t >= 2, no target with
# t <= -2); the isolation run (the unmatched game's figures with and
# without the profile, and whether the statistics named the matched
# process only); the loader's cost of matching while processes start.
# With --host RUNS.TSV (bench/eevdf-host.sh's runs on the host's real
# CPUs, same session and calibration) and the boot's --bg: each target's
# fidelity, the VM's kernel default (runs cmp-T-R-d.json) over the host's
# default, 1 % low; lab-bound outside 0.85-1.15 (vm/hostfid.awk).
#
#   vm/profiles-table.sh --files DIR --results FILE --cands C1,... --targets T1,...
#                        --jsonget PATH [--title TEXT] [--host RUNS.TSV --bg PATTERN]
set -u
files="" res="" cands="" targets="" jsonget="" title="" host="" hbg=""
while [ $# -gt 0 ]; do
	case $1 in
	--files) files=$2; shift 2 ;;
	--results) res=$2; shift 2 ;;
	--cands) cands=$2; shift 2 ;;
	--targets) targets=$2; shift 2 ;;
	--jsonget) jsonget=$2; shift 2 ;;
	--title) title=$2; shift 2 ;;
	--host) host=$2; shift 2 ;;
	--bg) hbg=$2; shift 2 ;;
	*) echo "vm/profiles-table.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -x "$jsonget" ] && [ -n "$cands" ] || { echo "vm/profiles-table.sh: --jsonget and --cands are needed" >&2; exit 2; }
if [ -n "$host" ]; then
	[ -n "$hbg" ] || { echo "vm/profiles-table.sh: --host needs the boot's --bg" >&2; exit 2; }
	[ -r "$host" ] || { echo "vm/profiles-table.sh: --host $host: not readable" >&2; exit 2; }
fi
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT

echo "== lavd game profiles: $title"
echo "-- verified instructions (lavd -v)"
sed -n 's/^@@GS DATA verified \([a-z]*\) lavd: loaded in \([0-9.]*\) s; verified instructions \([0-9]*\):.*/   \1: \3 in total, loaded in \2 s/p' "$res" 2>/dev/null
grep '^@@GS RESULT' "$res" 2>/dev/null | sed 's/^@@GS RESULT /   result: /'

# ---- compare ----
for f in "$files"/cmp-*.json; do
	[ -f "$f" ] || continue
	b=$(basename "$f" .json)
	t=$(echo "$b" | cut -d- -f2) r=$(echo "$b" | cut -d- -f3) k=$(echo "$b" | cut -d- -f4)
	v=$("$jsonget" "$f" low1_percentile_fps 2>/dev/null) || continue
	echo "cmp $t $r $k $v" >> "$rows"
done
for f in "$files"/iso-*-A.json; do
	[ -f "$f" ] || continue
	b=$(basename "$f" -A.json)
	r=$(echo "$b" | cut -d- -f2) k=$(echo "$b" | cut -d- -f3)
	va=$("$jsonget" "$f" low1_percentile_fps 2>/dev/null) || continue
	vb=$("$jsonget" "$(dirname "$f")/$b-B.json" low1_percentile_fps 2>/dev/null) || continue
	echo "iso A $r $k $va" >> "$rows"
	echo "iso B $r $k $vb" >> "$rows"
done
grep '^@@GS DATA \(isopids\|isoprof\|cost\|bpfcost\) ' "$res" 2>/dev/null |
	sed 's/^@@GS DATA //' >> "$rows"

for f in "$files"/tuned-*.conf; do
	[ -f "$f" ] || continue
	echo "-- gamesuite tune: $(basename "$f")"
	sed -n 's/^# /   /p; /^[a-z]/s/^/   /p' "$f"
done
STATS_AWK=$(cat "$(dirname "$0")/stats.awk" "$(dirname "$0")/hostfid.awk") || exit 1
awk -v cands="$cands" -v targets="$targets" -v host="$host" -v hbg="$hbg" "$STATS_AWK"'
function stats(key,   n, s, ss, m) {
	n = cnt[key]; s = sum[key]; ss = sq[key]
	if (!n) return "-"
	m = s / n
	return sprintf("%6.1f+-%-4s(%d)", m, n > 1 ? sprintf("%.1f", gs_sd(n, s, ss)) : "-", n)
}
function welch(a, b,   t, ma, mb) {
	if (cnt[a] < 2 || cnt[b] < 2) return "NA"
	t = gs_welch(cnt[a], sum[a], sq[a], cnt[b], sum[b], sq[b])
	if (t != "") return t
	ma = sum[a] / cnt[a]; mb = sum[b] / cnt[b]
	return (ma == mb) ? 0 : (ma > mb ? 99 : -99)
}
function add(key, v) { cnt[key]++; sum[key] += v; sq[key] += v * v }
$1 == "cmp" { add($2 "|" $4, $5); ncmp++ }
$1 == "iso" { add("iso" $2 "|" $4, $5) }
$1 == "isopids" { pa[$2 "|" $3] = $4; pb[$2 "|" $3] = $5 }
$1 == "isoprof" { line = $0; sub(/^isoprof [0-9]+ [0-9]+ /, "", line); prof[$2 "|" $3] = line }
$1 == "cost" { cmode[++nm] = $2; idle[$2] = $3; isecs[$2] = $4; storm[$2] = $5; secs[$2] = $6; forks[$2] = $7 }
$1 == "bpfcost" { l = $0; sub(/^bpfcost [a-z0-9]+ ?/, "", l); bc[$2] = l }
END {
	nc = split(cands, C, ","); nt = split(targets, T, ",")
	if (ncmp) {
		printf "-- compare: 1 %% low FPS (percentile), mean+-sd(runs); t: Welch against lavd'"'"'s defaults (|t| < 2: not resolved)\n"
		printf "   %-9s %-18s", "target", "defaults"
		for (c = 1; c <= nc; c++) printf " %-26s", C[c]
		printf "\n"
		for (t = 1; t <= nt; t++) {
			printf "   %-9s %-18s", T[t], stats(T[t] "|0")
			for (c = 1; c <= nc; c++) {
				w = welch(T[t] "|" c, T[t] "|0")
				tv[c, t] = w
				printf " %-18s t %-5s", stats(T[t] "|" c), w == "NA" ? "NA" : sprintf("%.1f", w)
			}
			printf "\n"
		}
		printf "-- shipping rule: better on its own target (t >= 2), no target worse (t <= -2)\n"
		for (c = 1; c <= nc; c++) {
			own = "NA"; worst = ""; bad = ""
			for (t = 1; t <= nt; t++) {
				if (T[t] == C[c]) own = tv[c, t]
				else if (tv[c, t] != "NA" && tv[c, t] <= -2) bad = bad " " T[t]
			}
			if (own == "NA") v = "not measured (fewer than 2 runs on its target, or no target " C[c] ")"
			else if (own >= 2 && bad == "") v = "SHIP: better on " C[c] " (t " sprintf("%.1f", own) "), worse nowhere"
			else if (own < 2) v = "keep as candidate: not better on " C[c] " (t " sprintf("%.1f", own) ")" (bad != "" ? "; worse on" bad : "")
			else v = "keep as candidate: worse on" bad
			printf "   %-9s %s\n", C[c], v
		}
		# the host runs under the host-load limit vm/*.sh take by default (0.5 CPUs)
		if (host != "") {
			hf_read(host, 0.5)
			for (t = 1; t <= nt; t++)
				hf_fidelity(T[t], hf_fid(cnt[T[t] "|d"] ? sum[T[t] "|d"] / cnt[T[t] "|d"] : 0, T[t], hbg))
		}
	}
	if (cnt["isoB|0"] || cnt["isoB|1"]) {
		printf "-- isolation: A matched by the candidate, B not, at once\n"
		wb = welch("isoB|1", "isoB|0"); wa = welch("isoA|1", "isoA|0")
		printf "   B (unmatched) 1 %% low: defaults %s  with the profile %s  t %s%s\n",
			stats("isoB|0"), stats("isoB|1"), wb == "NA" ? "NA" : sprintf("%.1f", wb),
			(wb == "NA" ? "" : ((wb > -2 && wb < 2) ? " (same within the noise)" : " (DIFFERS)"))
		printf "   A (matched)   1 %% low: defaults %s  with the profile %s  t %s\n",
			stats("isoA|0"), stats("isoA|1"), wa == "NA" ? "NA" : sprintf("%.1f", wa)
		ok = 0; all = 0
		for (k in prof) {
			split(k, kk, "|")
			if (kk[2] != 1) continue
			all++
			if (index(prof[k], ":" pa[k] "]") && !index(prof[k], ":" pb[k] "]") &&
			    !index(prof[k], ":" pb[k] " "))
				ok++
			else
				printf "   run %s: statistics said: %s (A %s, B %s)\n", kk[1], prof[k], pa[k], pb[k]
		}
		printf "   statistics: %d of %d runs with the profile name A'"'"'s process and not B'"'"'s\n", ok, all
	}
	if (nm) {
		printf "-- cost: the loader'"'"'s CPU time (schedstat) idle and while processes start\n"
		printf "   %-9s %10s %10s %15s %9s  %s\n", "mode", "idle ms/s", "storm ms/s", "ms/1000 starts", "starts/s", "BPF cost per call"
		for (i = 1; i <= nm; i++) {
			m = cmode[i]; s = secs[m] > 0 ? secs[m] : 1; is = isecs[m] > 0 ? isecs[m] : 1
			ims = idle[m] / 1e6 / is; sms = storm[m] / 1e6 / s
			printf "   %-9s %10.2f %10.2f %15.2f %9.0f  %s\n", m, ims, sms,
				(forks[m] > 0 ? (sms - ims) * s / forks[m] * 1000 : 0),
				forks[m] / s, bc[m]
		}
	}
}' "$rows"
