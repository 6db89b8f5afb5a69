#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The side-by-side table of `make vm-demo` from the runs' framebench JSON
# files (run-N-SCHED.json): per scheduler the median and the min-max over
# the repetitions, and the ratio of the medians (lavd / default). Runs
# during which the host's other processes used more than MAX CPUs
# (host-load file of vm/run.sh --sample-host) are listed but left out.
#
#   vm/demo-table.sh --files DIR --results FILE --host-load FILE
#                    --max-host-load MAX --jsonget PATH [--title TEXT]
set -u
files="" res="" load="" max=0.5 jsonget="" title=""
while [ $# -gt 0 ]; do
	case $1 in
	--files) files=$2; shift 2 ;;
	--results) res=$2; shift 2 ;;
	--host-load) load=$2; shift 2 ;;
	--max-host-load) max=$2; shift 2 ;;
	--jsonget) jsonget=$2; shift 2 ;;
	--title) title=$2; shift 2 ;;
	*) echo "vm/demo-table.sh: unknown option $1" >&2; exit 2 ;;
	esac
done

# label|json path|decimals|better (h: higher, l: lower)
metrics='avg FPS|avg_fps|1|h
1% low FPS (percentile)|low1_percentile_fps|1|h
1% low FPS (average)|low1_average_fps|1|h
0.1% low FPS (percentile)|low01_percentile_fps|1|h
0.1% low FPS (average)|low01_average_fps|1|h
p99 frame time (ms)|frametime_ms.p99|2|l
stutter > 1.5x target (frames)|stutter.over_1_5x|0|l
stutter > 2x target (frames)|stutter.over_2x|0|l
frames|frames|0|h'
paths=$(echo "$metrics" | cut -d'|' -f2 | tr '\n' ' ')

rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
n_json=0
for f in "$files"/run-*-*.json; do
	[ -f "$f" ] || continue
	n_json=$((n_json + 1))
	b=$(basename "$f" .json)
	n=$(echo "$b" | cut -d- -f2)
	s=$(echo "$b" | cut -d- -f3-)
	# shellcheck disable=SC2086
	vals=$("$jsonget" "$f" $paths 2>/dev/null | tr '\n' ' ')
	[ -n "$vals" ] || { echo "vm-demo: $f: unreadable JSON, left out"; continue; }
	hl=NA
	[ -s "$load" ] && hl=$(awk -v m="$n $s" '{ k = $3 " " $4 } k == m { t += $2; c++ }
		END { if (c) printf "%.2f", t / c; else print "NA" }' "$load")
	echo "$n $s $hl $vals" >> "$rows"
done
if [ "$n_json" -eq 0 ]; then
	echo "vm-demo: no run results to tabulate"
	grep '^@@GS RUN-' "$res" 2>/dev/null
	exit 1
fi

echo "== vm-demo: $title"
echo "   Under emulation the figures are noisy: host load changes them 2-3x and"
echo "   TCG distorts wake-up latency (docs/vm.md). Compare within this"
echo "   table only; with a few pairs, differences below ~20 % are not resolvable."
echo
echo "$metrics" | awk -F'|' -v rows="$rows" -v max="$max" '
	function sortv(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	}
	function median(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	BEGIN {
		while ((getline line < rows) > 0) {
			split(line, f, " ")
			nr++
			run[nr] = f[1]; sch[nr] = f[2]; hl[nr] = f[3]
			kept[nr] = (f[3] == "NA" || f[3] + 0 <= max + 0)
			if (kept[nr]) nkept[f[2]]++
			for (k = 4; k in f; k++) val[nr, k - 3] = f[k]
		}
		# Too few undisturbed runs to compare: use them all, loudly.
		if (nkept["default"] < 2 || nkept["lavd"] < 2) {
			all_disturbed = 1
			for (r = 1; r <= nr; r++) kept[r] = 1
		}
	}
	{ label[NR] = $1; dec[NR] = $3; better[NR] = $4; nm = NR }
	END {
		printf "   %-30s %-26s %-26s %s\n", "", "default: median (min-max)", "lavd: median (min-max)", "lavd/default"
		for (m = 1; m <= nm; m++) {
			line = sprintf("   %-30s", label[m])
			for (si = 1; si <= 2; si++) {
				s = si == 1 ? "default" : "lavd"
				c = 0
				for (r = 1; r <= nr; r++)
					if (sch[r] == s && kept[r]) v[++c] = val[r, m] + 0
				if (c == 0) { cell = "n/a"; med[si] = "" }
				else {
					sortv(v, c)
					med[si] = median(v, c)
					fmt = "%." dec[m] "f (%." dec[m] "f-%." dec[m] "f)"
					cell = sprintf(fmt, med[si], v[1], v[c])
				}
				line = line sprintf(" %-26s", cell)
			}
			ratio = (med[1] != "" && med[2] != "" && med[1] != 0) ? sprintf("%.2f", med[2] / med[1]) : "-"
			if (ratio != "-") ratio = ratio (better[m] == "h" ? "  (higher is better)" : "  (lower is better)")
			print line " " ratio
		}
		printf "\n   runs (in boot order within each pair): "
		for (r = 1; r <= nr; r++) {
			printf "%s%s-%s host-load %s%s", (r > 1 ? ", " : ""), run[r], sch[r],
				hl[r], kept[r] ? "" : " LEFT OUT"
			if (!kept[r]) out++
		}
		printf "\n   %d of %d runs left out: the host'"'"'s other processes used more than %s CPUs during them\n", out, nr, max
		if (all_disturbed)
			printf "   WARNING: fewer than 2 undisturbed runs per scheduler, so the table uses every\n   run, disturbed ones included: these figures include host contention.\n"
	}'
