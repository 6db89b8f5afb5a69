#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The table of vm/limit.sh from the runs' framebench JSON files
# (run-ROUND-SLOT.VARIANT.json; variant 0: no background, 1: with it) and
# the plan's "DATA slot S PROFILE SCHED" lines. Per profile and scheduler:
# runs kept, the 1 % low FPS (percentile) with no background and with it,
# the p99 frame time and average FPS with it, the background's work per
# second, and two ratios computed per round:
#   limit ratio     = 1 % low with background / the same scheduler's 1 % low
#                     with none in the same slot (FIFO: against the kernel
#                     default's no-background run of that round)
#   background kept = background work/s / the default's mean work/s
# each as mean +- sd, with Welch's t against lavd (|t| < 2: not resolved).
# Runs during which the host's other processes used more than MAX CPUs are
# left out and counted; RUN-FAIL lines are counted and named per scheduler.
# With --host RUNS.TSV (bench/eevdf-host.sh's runs on the host's real CPUs,
# same session and calibration), each profile also gets its fidelity (the
# VM's default over the host's default, with and without the background;
# outside 0.85-1.15 the cell is lab-bound) and the handicapped comparison:
# lavd in the VM against the host's arms (default, nice -10, FIFO,
# lavd --eevdf) with Welch's t. Emulation only slows lavd: where it still
# wins, the gain transfers to real CPUs. Then the ranking: lavd --eevdf
# against each peer (default, nice -10, FIFO) on the host, and sched_ext
# lavd and lavd --eevdf against the same peers in the VM (default:--nice:-10
# and lavd:--eevdf slots), each "+" (t >= 2), "-" (t <= -2) or "=", and
# how many of the VM's answers agree with the host's.
# --summary FILE writes every cell's runs as "vm|host PROFILE BG ARM n sum
# sumsq" of the 1 % low (vm/headline.sh pools boots from it).
#
#   vm/limit-table.sh --files DIR --results FILE --host-load FILE
#                     --max-host-load MAX --jsonget PATH [--title TEXT]
#                     [--host RUNS.TSV] [--summary FILE] [--bg PATTERN]
set -u
files="" res="" load="" max=0.5 jsonget="" title="" host=/dev/null summary=/dev/null bg=bg
while [ $# -gt 0 ]; do
	case $1 in
	--files) files=$2; shift 2 ;;
	--results) res=$2; shift 2 ;;
	--host-load) load=$2; shift 2 ;;
	--max-host-load) max=$2; shift 2 ;;
	--jsonget) jsonget=$2; shift 2 ;;
	--title) title=$2; shift 2 ;;
	--host) host=$2; shift 2 ;;
	--summary) summary=$2; shift 2 ;;
	--bg) bg=$2; shift 2 ;;
	*) echo "vm/limit-table.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -x "$jsonget" ] && [ -f "$res" ] || { echo "vm/limit-table.sh: --results FILE and --jsonget are needed" >&2; exit 2; }

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
# one line per slot first: "slot S PROFILE SCHED"
sed -n 's/^@@GS DATA slot /slot /p' "$res" > "$rows"
# then "fail S SCHED-less reason" per failed run, and one line per run
sed -n 's/^@@GS RUN-FAIL \([0-9]*\) \([0-9]*\)\.[0-9]* .*/fail \1 \2/p' "$res" >> "$rows"
n=0
for f in "$files"/run-*-*.json; do
	[ -f "$f" ] || continue
	b=$(basename "$f" .json)
	r=$(echo "$b" | cut -d- -f2)
	sv=$(echo "$b" | cut -d- -f3)
	vals=$("$jsonget" "$f" low1_percentile_fps frametime_ms.p99 avg_fps 2>/dev/null | tr '\n' ' ')
	[ "$(echo "$vals" | wc -w)" -eq 3 ] || { echo "limit: $f: unreadable JSON, left out"; continue; }
	work=$("$jsonget" "$f" background.0.work_per_s 2>/dev/null)
	case $work in ''|null|'<'*) work=NA ;; esac
	hl=NA
	[ -s "$load" ] && hl=$(awk -v m="$r $sv" '{ k = $3 " " $4 } k == m { t += $2; c++ }
		END { if (c) printf "%.2f", t / c; else print "NA" }' "$load")
	echo "run $r ${sv%.*} ${sv#*.} $hl $vals $work" >> "$rows"
	n=$((n + 1))
done
if [ "$n" -eq 0 ]; then
	echo "limit: no run results to tabulate"
	grep '^@@GS RUN-' "$res" 2>/dev/null
	exit 1
fi

echo "== lavd limit table: $title"
echo "   Emulated (TCG) figures: compare within this table only. mean +- sd over the runs kept;"
echo "   ratios are per round (see vm/limit-table.sh); t: Welch's t against lavd (|t| < 2: not resolved)."
grep '^@@GS DATA version ' "$res" | sed 's/^@@GS DATA version /   version: /'
STATS_AWK=$(cat "$(dirname "$0")/stats.awk" "$(dirname "$0")/hostfid.awk") || exit 1
awk -v max="$max" -v rows="$rows" -v host="$host" -v summary="$summary" -v vbg="$bg" "$STATS_AWK"'
	function push(k, v) { cnt[k]++; sum[k] += v; sq[k] += v * v }
	function mean(k) { return cnt[k] ? sum[k] / cnt[k] : 0 }
	function sd(k) { return gs_sd(cnt[k], sum[k], sq[k]) }
	function ms(k, d) { return cnt[k] ? sprintf("%." d "f +- %." d "f", mean(k), sd(k)) : "-" }
	# ranking P: lavd --eevdf against the peers on the host; sched_ext lavd
	# and lavd --eevdf against the same peers in the VM; agreement
	function ranking(p,   peers, vmname, i, hk, he, vk, line, who, w, sign, agree, asked) {
		split("default nice10 fifo", peers, " ")
		vmname["default"] = "default"; vmname["nice10"] = "default:--nice:-10"; vmname["fifo"] = "fifo"
		he = p SUBSEP hf_bg SUBSEP "lavd"
		if (!hf_n[he]) return
		line = "host lavd --eevdf:"
		for (i = 1; i <= 3; i++) {
			hk = p SUBSEP hf_bg SUBSEP peers[i]
			hsign[i] = hf_n[hk] ? gs_sign(hf_n[he], hf_s[he], hf_q[he], hf_n[hk], hf_s[hk], hf_q[hk]) : "?"
			line = line " " peers[i] " " hsign[i]
		}
		split("lavd:--eevdf lavd", who, " ")
		for (w = 1; w <= 2; w++) {
			if (!((p, who[w]) in slotof)) continue
			vk = slotof[p, who[w]] "|low1"
			line = line "; VM " (who[w] == "lavd" ? "lavd" : "lavd --eevdf") ":"
			agree = asked = 0
			for (i = 1; i <= 3; i++) {
				if (!((p, vmname[peers[i]]) in slotof)) continue
				k = slotof[p, vmname[peers[i]]] "|low1"
				sign = gs_sign(cnt[vk], sum[vk], sq[vk], cnt[k], sum[k], sq[k])
				line = line " " peers[i] " " sign
				if (hsign[i] != "?" && sign != "?") { asked++; agree += sign == hsign[i] }
			}
			line = line sprintf(" (agrees %d of %d)", agree, asked)
		}
		printf "   %s: ranking, 1 %% low with %s (+ better, - worse, = |t| < 2): %s\n", p, hf_bg, line
	}
	function write_summary(   s, v, k) {
		for (s = 1; s <= nslot; s++)
			for (v = 0; v <= 1; v++)
				if (cnt[s "|low" v])
					printf "vm %s %s %s %d %.6f %.6f\n", prof[s], v ? vbg : "none", sch[s],
						cnt[s "|low" v], sum[s "|low" v], sq[s "|low" v] > summary
		for (k in hf_n) {
			if (!hf_n[k]) continue
			split(k, f, SUBSEP)
			printf "host %s %s %s %d %.6f %.6f\n", f[1], f[2], f[3], hf_n[k], hf_s[k], hf_q[k] > summary
		}
	}
	function welch(a, b,   t) {
		t = gs_welch(cnt[a], sum[a], sq[a], cnt[b], sum[b], sq[b])
		return t == "" ? "  -  " : sprintf("%+5.1f", t)
	}
	BEGIN {
		while ((getline line < rows) > 0) {
			split(line, f, " ")
			if (f[1] == "slot") {
				prof[f[2]] = f[3]; sch[f[2]] = f[4]
				if (!(f[3] in seenp)) { seenp[f[3]] = 1; porder[++np] = f[3] }
				if (f[4] == "default") defslot[f[3]] = f[2]
				if (f[4] == "lavd") lavdslot[f[3]] = f[2]
				slotof[f[3], f[4]] = f[2]
				nslot = f[2] > nslot ? f[2] : nslot
			} else if (f[1] == "fail") {
				failed[f[3]]++
			} else {
				r = f[2]; s = f[3]; v = f[4]; total[s, v]++
				if (f[5] != "NA" && f[5] + 0 > max + 0) { dropped[s, v]++; continue }
				kept[s, v]++
				low[r, s, v] = f[6]; have[r, s, v] = 1
				push(s "|low" v, f[6])
				if (v == 1) { push(s "|p99", f[7]); push(s "|avg", f[8]) }
				else push(s "|avg0", f[8])
				if (v == 1 && f[9] != "NA") { work[r, s] = f[9]; push(s "|work", f[9]) }
				if (r > nround) nround = r
			}
		}
		# per-round ratios
		for (s = 1; s <= nslot; s++) {
			d = defslot[prof[s]]
			for (r = 1; r <= nround; r++) {
				base = sch[s] == "fifo" ? d : s
				if (have[r, s, 1] && have[r, base, 0] && low[r, base, 0] > 0)
					push(s "|limit", low[r, s, 1] / low[r, base, 0])
				if ((r, s) in work && d && mean(d "|work") > 0)
					push(s "|kept", work[r, s] / mean(d "|work"))
			}
		}
		for (i = 1; i <= np; i++) {
			p = porder[i]; L = lavdslot[p]
			printf "\n   %s\n", p
			printf "   %-22s %5s %5s  %-13s %-13s %-13s %-11s %-11s %-11s %6s %-13s %6s %-13s %6s\n",
				"scheduler", "runs", "out", "1% low none", "1% low bg", "p99 ms bg", "avg FPS 0", "avg FPS bg",
				"bg work/s", "t", "limit ratio", "t", "bg kept", "t"
			for (s = 1; s <= nslot; s++) {
				if (prof[s] != p) continue
				name = sch[s] == "fifo" ? "default, game FIFO" : sch[s]
				runs = kept[s, 0] + kept[s, 1]
				tot = total[s, 0] + total[s, 1] + failed[s]
				o = dropped[s, 0] + dropped[s, 1]
				tl = s == L ? "     " : welch(s "|low1", L "|low1")
				tr = s == L ? "     " : welch(s "|limit", L "|limit")
				tk = s == L ? "     " : welch(s "|kept", L "|kept")
				printf "   %-22s %2d/%-2d %5d  %-13s %-13s %-13s %-11s %-11s %-11s %6s %-13s %6s %-13s %6s\n",
					name, runs, tot, o, ms(s "|low0", 1), ms(s "|low1", 1), ms(s "|p99", 1),
					ms(s "|avg0", 1), ms(s "|avg", 1), ms(s "|work", 2), tl,
					ms(s "|limit", 2), tr, ms(s "|kept", 2), tk
			}
		}
		hf_read(host, max)
		for (i = 1; i <= np; i++) {
			p = porder[i]; d = defslot[p]; L = lavdslot[p]
			if (!hf_has(p, "none") && !hf_has(p, hf_bg)) continue
			hf_fidelity(p, hf_fid(mean(d "|low0"), p, "none") ", " hf_fid(mean(d "|low1"), p, hf_bg))
			if (L) hf_handicapped(p, hf_bg, cnt[L "|low1"], sum[L "|low1"], sq[L "|low1"])
		}
		for (i = 1; i <= np; i++) ranking(porder[i])
		write_summary()
		printf "\n"
		for (s = 1; s <= nslot; s++) {
			all += total[s, 0] + total[s, 1] + failed[s]
			out += dropped[s, 0] + dropped[s, 1]; bad += failed[s]
			if (failed[s]) printf "   %s / %s: %d run(s) FAILED (see the RUN-FAIL lines)\n", prof[s], sch[s], failed[s]
		}
		printf "   %d of %d runs left out: the host'"'"'s other processes used more than %s CPUs during them; %d failed\n", out, all, max, bad
	}'
grep -E '^@@GS RUN-(FAIL|NOTE) ' "$res" | sed 's/^@@GS /   /'
exit 0
