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
#     --tcg MODE    single | multi: TCG threading (default single, see docs/vm.md)
#     --append STR  extra kernel command line (gs.* parameters for the plan)
#     --qemu ARGS   extra qemu arguments, split on spaces (e.g. -numa ...)
# Environment: VM_ACCEL=kvm|tcg|auto (default auto: KVM only when /dev/kvm
# is usable and the CPU advertises vmx/svm), GAMESCHED_KERNEL (vm/kernel.sh).
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
command -v qemu-system-x86_64 >/dev/null || { echo "vm/boot.sh: qemu-system-x86_64 missing: run scripts/deps.sh" >&2; exit 1; }

accel="tcg,thread=$tcg"
cpu=max
case ${VM_ACCEL:-auto} in
kvm) accel=kvm; cpu=host ;;
auto) if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
	accel=kvm; cpu=host
      fi ;;
tcg) ;;
*) echo "vm/boot.sh: VM_ACCEL must be kvm, tcg or auto" >&2; exit 2 ;;
esac

: > "$results"
# -serial twice: ttyS0 = console on stdout (into LOG), ttyS1 = results file.
# shellcheck disable=SC2086
timeout -k 5 "$timeout_s" qemu-system-x86_64 $qemu_extra \
	-m "$mem" -smp "$smp" -accel "$accel" -cpu "$cpu" \
	-nographic -no-reboot -nic none -monitor none \
	-serial stdio -serial "file:$results" \
	-kernel "$kdir/vmlinuz" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=4 $append" \
	< /dev/null > "$log" 2>&1
