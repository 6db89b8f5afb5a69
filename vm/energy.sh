#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lavd's core compaction, measured (the evidence for docs/results.md): one boot of the
# sched_ext kernel on a shaped machine (default 2 sockets x 2 cores, one
# NUMA node each) runs one lavd instance through an idle period, a light
# framebench run (proton capped at 10 FPS: four emulated
# CPUs on one host thread run proton at ~20 FPS at most) and a heavy one (strategy,
# uncapped, 2 CPU hogs) (vm/plans/energy.sh), then prints per load the
# mean required capacity (in CPUs of capacity 1024, +25 % headroom), the
# active CPUs of every 0.5 s statistics line, their mean and range, the
# power modes seen, and framebench's average FPS.
#
#   vm/energy.sh [--lavd-args "ARGS"] [--duration D] [--idle S]
#                [--light-fps N] [--shape SxC] [--tcg single|multi|auto]
# Defaults: autopilot, 8s, 6 s, 10, 2x2, --tcg auto. Not part of
# `make test` (about 2 minutes).
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
lavdargs="" dur=8s idle=6 lightfps=10 shape=2x2 tcg=${VM_TCG:-auto}
while [ $# -gt 0 ]; do
	case $1 in
	--lavd-args) lavdargs=$2; shift 2 ;;
	--duration) dur=$2; shift 2 ;;
	--idle) idle=$2; shift 2 ;;
	--light-fps) lightfps=$2; shift 2 ;;
	--shape) shape=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	-h|--help) sed -n '3,16p' "$0"; exit 0 ;;
	*) echo "vm/energy.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
[ -x "$B/tests/jsonget" ] || { echo "vm/energy.sh: $B/tests/jsonget missing: run make $B/tests/jsonget" >&2; exit 1; }
make -s BUILD="$B" static >/dev/null || { echo "vm/energy.sh: make static failed" >&2; exit 1; }
out=$B/vm/energy
append="gs.fbdur=$dur gs.idle=$idle gs.lightfps=$lightfps"
[ -n "$lavdargs" ] && append="$append gs.lavdargs=$(echo "$lavdargs" | tr ' ' ',')"
BUILD=$B vm/run.sh energy --expect energy --timeout 600 --tcg "$tcg" --shape "$shape" \
	--append "$append" --out "$out" \
	--program "$B/static/lavd" --program "$B/static/framebench"
rc=$?
res=$out/results.txt log=$out/files/lavd.log
[ -f "$out/results-retry.txt" ] && res=$out/results-retry.txt
[ -s "$log" ] || { echo "vm/energy.sh: no lavd log came back (see $out/serial.log)" >&2; exit 1; }
kver=$(sed -n 's/^@@GS BOOT kernel=\([^ ]*\).*/\1/p' "$res" | head -n 1)
ncpu=$(sed -n 's/^@@GS PHASE energy cpus=\([0-9]*\).*/\1/p' "$res" | head -n 1)

echo
echo "== lavd ${lavdargs:-(autopilot)}: active CPUs per 0.5 s statistics line, ${ncpu:-?} vCPUs ($shape), kernel ${kver:-?}, $(cat "$out/mode" 2>/dev/null || echo "qemu TCG thread=$tcg")"
grep '^lavd: [0-9]* node' "$log" | sed 's/^/   /'
printf '   %-7s %-40s %-8s %-16s %-28s %s\n' load "framebench" "req" "active mean (range)" "modes (lines)" "active CPUs, one per line"
for load in idle light heavy; do
	a=$(sed -n "s/^@@GS MARK $load-start \([0-9]*\)/\1/p" "$res")
	b=$(sed -n "s/^@@GS MARK $load-end \([0-9]*\)/\1/p" "$res")
	[ -n "$a" ] && [ -n "$b" ] || { echo "   $load: no marks"; continue; }
	lines=$(grep '^\[' "$log" | sed -n "$((a + 1)),${b}p")
	series=$(echo "$lines" | sed -n 's|.* active \([0-9]*\)/.*|\1|p')
	stat=$(echo "$series" | awk 'NF { s += $1; n++; if (n == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
		END { if (n) printf "%.2f (%d-%d)", s / n, lo, hi; else print "-" }')
	req=$(echo "$lines" | sed -n 's|.* req \([0-9.]*\) .*|\1|p' |
		awk 'NF { s += $1; n++ } END { if (n) printf "%.2f", s / n; else print "-" }')
	modes=$(echo "$lines" | sed -n 's|.* mode \([a-z]*\) .*|\1|p' | sort | uniq -c |
		awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')
	case $load in
	idle) fb="-" ;;
	light) fb="proton --fps $lightfps" ;;
	heavy) fb="strategy --fps 0 --bg hogs:2" ;;
	esac
	j=$out/files/$load.json
	[ -s "$j" ] && fb="$fb: $("$B/tests/jsonget" "$j" avg_fps | awk '{ printf "%.1f", $1 }') FPS"
	printf '   %-7s %-40s %-8s %-16s %-28s %s\n' "$load" "$fb" "$req" "$stat" "$modes" "$(echo $series)"
done
exit $rc
