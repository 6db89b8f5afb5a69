#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Frames recorded inside the VM: for each scheduler configuration, one
# framebench run with the background load, all of it recorded by
# frametrace (BPF in the guest kernel), and frametrace's report
# (vm/plans/trace.sh). The reports land in OUT/files/report-IDX.txt and
# .json; this script prints each one's frame summary, the most
# latency-critical tasks and the first slow frames explained.
#
#   vm/trace.sh [--configs C1,C2,...] [--profile NAME] [--bg PATTERN|none]
#               [--duration D] [--slow-ms MS]
#               [--calibration R|auto] [--tcg single|multi|auto] [--smp SPEC]
#               [--program PATH]... [--out DIR]
# Defaults: lavd; proton; hogs:2; 12s, all of it recorded; auto;
# --tcg auto (vm/mode.sh); -smp 2.
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
configs=lavd profile=proton bg=hogs:2 dur=12s slow="" calib=auto tcg=${VM_TCG:-auto} smp=2
out="" extra=""
while [ $# -gt 0 ]; do
	case $1 in
	--configs) configs=$2; shift 2 ;;
	--profile) profile=$2; shift 2 ;;
	--bg) bg=$2; shift 2 ;;
	--duration) dur=$2; shift 2 ;;
	--slow-ms) slow=$2; shift 2 ;;
	--calibration) calib=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--program) extra="$extra --program $2"; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h|--help) sed -n '3,17p' "$0"; exit 0 ;;
	*) echo "vm/trace.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
for p in lavd framebench frametrace; do
	[ -x "$B/static/$p" ] || { echo "vm/trace.sh: $B/static/$p missing: run make static" >&2; exit 1; }
done
out=${out:-$B/vm/trace}
ncfg=$(echo "$configs" | tr ',' '\n' | wc -l)
secs=$(echo "$dur" | awk '/ms$/ { print int($0 / 1000) + 1; next } /m$/ { print $0 * 60; next } { print $0 + 0 }')
limit=$(( 300 + ncfg * (secs + 60) * 3 ))
append="gs.configs=$configs gs.profile=$profile gs.bg=$bg gs.fbdur=$dur gs.calib=$calib"
[ -n "$slow" ] && append="$append gs.slow=$slow"
# shellcheck disable=SC2086
BUILD=$B vm/run.sh trace --expect trace --timeout "$limit" --tcg "$tcg" --smp "$smp" \
	--append "$append" --out "$out" --program "$B/static/lavd" \
	--program "$B/static/framebench" --program "$B/static/frametrace" $extra
rc=$?
i=1
for cfg in $(echo "$configs" | tr ',' ' '); do
	f=$out/files/report-$i.txt
	if [ -f "$f" ]; then
		echo
		echo "== $cfg: framebench --profile $profile --bg $bg ($out/files/report-$i.txt)"
		sed -n '/^frames:/,/^$/p' "$f"
		sed -n '/^latency-critical/,/^$/p' "$f" | head -n 8
		sed -n '/^slow frames explained/,$p' "$f" | head -n 30
	fi
	i=$((i + 1))
done
exit $rc
