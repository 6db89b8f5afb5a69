#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-gamesuite's fidelity (vm/gamesuite-demo.sh --host-rounds): per
# workload of the suite, the kernel default's median 1 % low FPS
# (percentile) in the VM over the host's, from gamesuite's two JSON
# reports; outside 0.85-1.15 the cell is lab-bound, a verdict there says
# more about the emulator than the scheduler (vm/hostfid.awk, as the other
# VM tables judge it).
#
#   vm/gamesuite-table.sh --suite FILE --vm JSON --host JSON --jsonget PATH
set -u
suite="" vm="" host="" jsonget=""
while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=$2; shift 2 ;;
	--vm) vm=$2; shift 2 ;;
	--host) host=$2; shift 2 ;;
	--jsonget) jsonget=$2; shift 2 ;;
	*) echo "vm/gamesuite-table.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -r "$suite" ] && [ -x "$jsonget" ] || { echo "vm/gamesuite-table.sh: --suite FILE and --jsonget are needed" >&2; exit 2; }
for f in "$vm" "$host"; do
	[ -r "$f" ] || { echo "vm/gamesuite-table.sh: no report $f" >&2; exit 1; }
done

# "workload bg vm host" per workload of the suite
med() {
	v=$("$jsonget" "$1" "workloads.$2.metrics.low1_percentile_fps.schedulers.eevdf.median" 2>/dev/null)
	case $v in ''|null|*[!0-9.]*) echo 0 ;; *) echo "$v" ;; esac
}
cells=$(awk '$1 == "workload" { w = $2; bg[w] = "none"; order[++n] = w }
	$1 == "bg" && w != "" { bg[w] = $2 }
	END { for (i = 1; i <= n; i++) print order[i], bg[order[i]] }' "$suite" |
	while read -r w bg; do
		echo "$w $bg $(med "$vm" "$w") $(med "$host" "$w")"
	done)

echo "== vm-gamesuite fidelity: the kernel default in the VM against the host's, medians"
STATS_AWK=$(cat "$(dirname "$0")/stats.awk" "$(dirname "$0")/hostfid.awk") || exit 1
echo "$cells" | awk "$STATS_AWK"'
	NF == 4 {
		k = $1 SUBSEP $2 SUBSEP "default"
		if ($4 > 0) { hf_n[k] = 1; hf_s[k] = $4 }
		hf_fidelity($1, hf_fid($3 + 0, $1, $2))
	}'
