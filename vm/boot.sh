#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Boots the sched_ext kernel with an initramfs under qemu, bounded by a
# timeout. The console (kernel messages, plan output) goes to LOG, the
# results port (/dev/ttyS1 in the guest) to RESULTS. The exit status is
# timeout's: 0 when qemu ended (a guest panic also ends with 0 under
# -no-reboot!), 124 when the guest hung. Judge the run by RESULTS only.
#
#   vm/boot.sh INITRD LOG RESULTS [options]
#     --timeout S   wall-clock limit (default 300)
#     --smp N       vCPUs (default 2), or a full -smp spec like sockets=1,cores=2,threads=2
#     --mem MB      memory (default 1024)
#     --tcg MODE    single | multi: TCG threading (default single; vm/run.sh
#                   resolves its own default, auto, with vm/mode.sh)
#     --append STR  extra kernel command line (gs.* parameters for the plan)
#     --qemu ARGS   extra qemu arguments, split on spaces (e.g. -numa ...)
# Environment: VM_ACCEL=kvm|tcg|auto (default auto: KVM only when /dev/kvm
# is usable and the CPU advertises vmx/svm), GAMESCHED_KERNEL (vm/kernel.sh),
# and the emulator's knobs (docs/vm.md#emulator-modes): VM_QEMU (the qemu
# binary), VM_CPU (-cpu model, default max), VM_ICOUNT (an -icount spec,
# e.g. shift=0,sleep=off: forces thread=single, which -icount needs),
# VM_PIN=1 (vCPU thread i on host CPU i mod the host's CPUs), VM_APPEND
# (more kernel command line, e.g. mitigations=off).
set -eu

[ $# -ge 3 ] || { sed -n '3,18p' "$0" >&2; exit 2; }
initrd=$1 log=$2 results=$3
shift 3
timeout_s=300 smp=2 mem=1024 tcg=single append="" qemu_extra=""
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) timeout_s=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--qemu) qemu_extra=$2; shift 2 ;;
	*) echo "vm/boot.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
case $tcg in single|multi) ;; *) echo "vm/boot.sh: --tcg single|multi" >&2; exit 2 ;; esac

here=$(cd "$(dirname "$0")" && pwd)
kdir=$("$here/kernel.sh" dir)
. "$here/mode.sh"
qemu=$(vm_qemu)
command -v "$qemu" >/dev/null || { echo "vm/boot.sh: $qemu missing: run scripts/deps.sh" >&2; exit 1; }

icount=""
if [ -n "${VM_ICOUNT:-}" ]; then
	icount="-icount ${VM_ICOUNT}"
	tcg=single	# qemu refuses -icount with multi-threaded TCG
fi
accel="tcg,thread=$tcg"
cpu=${VM_CPU:-max}
case ${VM_ACCEL:-auto} in
kvm) accel=kvm; cpu=host ;;
auto) if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
	accel=kvm; cpu=host
      fi ;;
tcg) ;;
*) echo "vm/boot.sh: VM_ACCEL must be kvm, tcg or auto" >&2; exit 2 ;;
esac

: > "$results"
# pin_vcpus QEMU_PID: once qemu's vCPU threads exist ("CPU N/TCG", named
# by debug-threads), vCPU N runs on host CPU N mod the host's CPUs only.
pin_vcpus() {
	n=$(getconf _NPROCESSORS_ONLN) tries=0
	while [ $tries -lt 100 ] && kill -0 "$1" 2>/dev/null; do
		found=0
		for t in /proc/"$1"/task/*; do
			c=$(cat "$t/comm" 2>/dev/null) || continue
			case $c in "CPU "*/TCG)
				i=${c#CPU }; i=${i%%/*}
				taskset -p -c $((i % n)) "${t##*/}" >/dev/null 2>&1 && found=$((found + 1)) ;;
			esac
		done
		[ $found -gt 0 ] && return 0
		tries=$((tries + 1))
		sleep 0.1
	done
}

# -serial twice: ttyS0 = console on stdout (into LOG), ttyS1 = results file.
# shellcheck disable=SC2086
timeout -k 5 "$timeout_s" "$qemu" $qemu_extra ${VM_QEMU_ARGS:-} $icount \
	-name gamesched,debug-threads=on \
	-m "$mem" -smp "$smp" -accel "$accel" -cpu "$cpu" \
	-nographic -no-reboot -nic none -monitor none \
	-serial stdio -serial "file:$results" \
	-kernel "$kdir/vmlinuz" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=4 ${VM_APPEND:-} $append" \
	< /dev/null > "$log" 2>&1 &
qpid=$!
if [ "${VM_PIN:-0}" = 1 ]; then
	# timeout's child is qemu
	sleep 0.2
	pin_vcpus "$(pgrep -P "$qpid" | head -n 1)" &
fi
wait "$qpid"
