#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Does the emulator mode survive repeated scheduler loads? Boots the
# sched_ext kernel BOOTS times; each boot loads and unloads lavd CYCLES
# times (vm-test's cycles phase) while framebench with 2 hogs keeps both
# vCPUs busy, so each load patches code another vCPU is running: what
# panicked qemu 7.2's thread=multi ("int3" at a static-branch site). No
# retry: a panic is a failed boot, counted and shown with its console
# excerpt. Prints one line per boot and a summary.
#
#   vm/reload.sh [--boots N] [--cycles N] [--idle] [--tcg single|multi|auto]
#                [--out DIR]
# --idle: no framebench beside the loads (each load is then 2-3x faster).
# Defaults: 10 boots, 20 cycles, busy, auto (vm/mode.sh).
# Exit: 0 every boot passed, 1 a boot panicked or failed, 2 usage.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
boots=10 cycles=20 tcg=${VM_TCG:-auto} out="" busy=1
while [ $# -gt 0 ]; do
	case $1 in
	--boots) boots=$2; shift 2 ;;
	--cycles) cycles=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--idle) busy=0; shift ;;
	-h|--help) sed -n '3,17p' "$0"; exit 0 ;;
	*) echo "vm/reload.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
for v in "$boots" "$cycles"; do
	case $v in ''|*[!0-9]*|0) echo "vm/reload.sh: --boots and --cycles need positive numbers, got '$v'" >&2; exit 2 ;; esac
done
[ -x "$B/static/lavd" ] && [ -x "$B/static/framebench" ] || { echo "vm/reload.sh: $B/static/{lavd,framebench} missing: run make static" >&2; exit 1; }
out=${out:-$B/vm/reload}
mkdir -p "$out"
ok=0 panics=0 other=0 loads=0
i=1
while [ $i -le "$boots" ]; do
	d=$out/boot-$i
	VM_RETRY_SINGLE=0 BUILD=$B vm/run.sh test --expect cycles --timeout $((120 + cycles * 30)) \
		--tcg "$tcg" --append "gs.phases=cycles gs.cycles=$cycles gs.cyclebusy=$busy" --out "$d" \
		--program "$B/static/lavd" --program "$B/static/framebench" > "$d.log" 2>&1
	rc=$?
	n=$(sed -n 's/^@@GS RESULT cycles [A-Z]* \([0-9]*\) of.*/\1/p' "$d/results.txt" 2>/dev/null | head -n 1)
	loads=$((loads + ${n:-0}))
	if [ -f "$d/serial-panic.log" ]; then
		panics=$((panics + 1))
		echo "boot $i: PANIC after ${n:-?} loads: $(grep -E -m 1 'Kernel panic|BUG: |Oops|int3' "$d/serial-panic.log")"
	elif [ $rc -eq 0 ]; then
		ok=$((ok + 1))
		echo "boot $i: $(sed -n 's/^  cycles //p' "$d.log")"
	else
		other=$((other + 1))
		echo "boot $i: FAILED (exit $rc): $(grep '^vm: FAIL' "$d.log")"
	fi
	i=$((i + 1))
done
echo "reload: $(cat "$out/boot-1/mode" 2>/dev/null): $boots boots, $loads loads of lavd$([ $busy = 1 ] && echo " beside a busy framebench"); $ok passed, $panics panicked, $other failed otherwise"
[ $ok -eq "$boots" ]
