#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `make vm-demo`: one boot of the sched_ext kernel runs the same framebench
# workload under the kernel's default scheduler (EEVDF) and under lavd,
# interleaved A B A B ..., then prints the side-by-side table with the
# spread over the repetitions (vm/demo-table.sh). The host's own load is
# sampled during the boot; runs during which other host processes used
# more than --max-host-load CPUs are left out of the table and counted.
#
#   vm/demo.sh [--reps N] [--duration D] [--profile NAME] [--bg PATTERN|none]
#              [--lavd-args "ARGS"] [--tcg single|multi|auto] [--smp SPEC]
#              [--max-host-load CPUS]
# Defaults: 3 pairs, 10s, proton, hogs:2, --tcg auto (vm/mode.sh), -smp 2, 0.5.
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
reps=3 dur=10s profile=proton bg=hogs:2 lavdargs="" tcg=${VM_TCG:-auto} smp=2 maxload=0.5
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	--duration) dur=$2; shift 2 ;;
	--profile) profile=$2; shift 2 ;;
	--bg) bg=$2; shift 2 ;;
	--lavd-args) lavdargs=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--max-host-load) maxload=$2; shift 2 ;;
	*) echo "vm/demo.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
case $reps in ''|*[!0-9]*) echo "vm/demo.sh: --reps needs a number" >&2; exit 2 ;; esac
[ -x "$B/static/framebench" ] || { echo "vm/demo.sh: $B/static/framebench missing: run make static" >&2; exit 1; }
[ -x "$B/tests/jsonget" ] || { echo "vm/demo.sh: $B/tests/jsonget missing: run make $B/tests/jsonget" >&2; exit 1; }

# Seconds per run, for the boot's time limit: duration + framebench's 1 s
# warm-up + lavd load/unload, x3 for emulation, + boot.
secs=$(echo "$dur" | awk '/ms$/ { print int($0 / 1000) + 1; next } /m$/ { print $0 * 60; next } { print $0 + 0 }')
limit=$(( 120 + reps * 2 * (secs + 15) * 3 ))

out=$B/vm/demo
append="gs.reps=$reps gs.fbdur=$dur gs.profile=$profile gs.bg=$bg"
[ -n "$lavdargs" ] && append="$append gs.lavdargs=$(echo "$lavdargs" | tr ' ' ',')"
BUILD=$B vm/run.sh demo --expect demo --timeout "$limit" --tcg "$tcg" --smp "$smp" \
	--append "$append" --out "$out" --sample-host \
	--program "$B/static/lavd" --program "$B/static/framebench"
rc=$?
# the boot that counts (a reported retry replaces the first)
res=$out/results.txt load=$out/host-load.txt
[ -f "$out/results-retry.txt" ] && res=$out/results-retry.txt load=$out/host-load-retry.txt
kver=$(sed -n 's/^@@GS BOOT kernel=\([^ ]*\).*/\1/p' "$res" | head -n 1)
echo
vm/demo-table.sh --files "$out/files" --results "$res" --host-load "$load" \
	--max-host-load "$maxload" --jsonget "$B/tests/jsonget" \
	--title "framebench --profile $profile $([ "$bg" = none ] && echo "(no background load)" || echo "--bg $bg") --duration $dur, $reps interleaved pairs (default, lavd${lavdargs:+ $lavdargs}), kernel ${kver:-?}, $(cat "$out/mode" 2>/dev/null || echo "qemu TCG thread=$tcg"), -smp $smp"
trc=$?
[ $rc -eq 0 ] || exit $rc
exit $trc
