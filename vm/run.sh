#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs one guest plan (vm/plans/PLAN.sh) in one boot of the sched_ext
# kernel and judges it from the explicit result lines only:
#   - every "RESULT <phase> PASS|FAIL ..." line is shown;
#   - the run passes when the plan's final "DONE" arrived, no RESULT says
#     FAIL, the phases listed with --expect all reported PASS, and the
#     console shows no kernel panic / BUG / oops;
#   - a hang is ended by the boot's timeout and fails; any failure prints
#     the end of the serial log.
#
# The emulator mode (vm/mode.sh, docs/vm.md#emulator-modes): --tcg auto,
# the default, is thread=multi on qemu 10 or newer with a host CPU per
# vCPU, else thread=single with a line saying why. The mode in words goes
# to DIR/mode, for the tables' titles. Under qemu older than 10.0,
# thread=multi can panic the guest when a scheduler loads (the emulator's
# code-patching race): such a panic is retried once under thread=single and
# the retry is reported, never passed silently; VM_RETRY_SINGLE=0 fails
# instead (a measurement that must not mix modes). On qemu 10 or newer a
# panic is a failed run, reported with its console excerpt.
#
#   vm/run.sh PLAN [options]
#     --expect "p1 p2 ..."  phases that must report PASS
#     --timeout S           boot time limit (default 420)
#     --smp SPEC / --mem MB / --append STR   passed to vm/boot.sh
#     --qemu ARGS           extra qemu arguments for vm/boot.sh (-numa ...)
#     --shape SxC           a shaped machine: S sockets x C cores (one
#                           thread each), one NUMA node per socket with
#                           its share of the memory; the emulated CPU's L3
#                           is per socket, so lavd sees S compute domains
#     --tcg single|multi|auto  (default auto; VM_TCG overrides the default)
#     --out DIR             where logs go (default build/vm/PLAN)
#     --program PATH        a static program for /bin (repeatable; default
#                           those of build/static/{lavd,framebench,gamesuite,
#                           churn,scx_minimal,bpfcost} that exist)
#     --sample-host         record, once a second, how much CPU the host's
#                           other processes used (not qemu) and which run
#                           (the plan's last "RUN-START" line) was going on:
#                           DIR/host-load.txt, "epoch cpus-used marker..."
# Exit: 0 pass, 1 fail, 2 usage, 77 qemu or the kernel missing (reason on
# the last line).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${BUILD:-build}
case $build in /*) ;; *) build=$root/$build ;; esac

[ $# -ge 1 ] || { sed -n '3,42p' "$0" >&2; exit 2; }
plan=$1
shift
expect="" timeout_s=420 smp=2 mem=1024 append="" out="" programs="" sample=0 qemu_extra="" shape=""
tcg=${VM_TCG:-auto}
while [ $# -gt 0 ]; do
	case $1 in
	--expect) expect=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--qemu) qemu_extra=$2; shift 2 ;;
	--shape) shape=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--program) programs="$programs $2"; shift 2 ;;
	--sample-host) sample=1; shift ;;
	*) echo "vm/run.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
if [ -n "$shape" ]; then
	sockets=${shape%x*} cores=${shape#*x}
	case $sockets$cores in ''|*[!0-9]*)
		echo "vm/run.sh: --shape wants SOCKETSxCORES, e.g. 2x2, got '$shape'" >&2; exit 2 ;;
	esac
	smp="$((sockets * cores)),sockets=$sockets,cores=$cores,threads=1"
	s=0
	while [ $s -lt "$sockets" ]; do
		qemu_extra="$qemu_extra -object memory-backend-ram,id=m$s,size=$((mem / sockets))M"
		qemu_extra="$qemu_extra -numa node,nodeid=$s,cpus=$((s * cores))-$((s * cores + cores - 1)),memdev=m$s"
		s=$((s + 1))
	done
fi
planfile=$here/plans/$plan.sh
[ -f "$planfile" ] || { echo "vm/run.sh: no plan $planfile" >&2; exit 2; }
out=${out:-$build/vm/$plan}

if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	echo "skipped: qemu-system-x86_64 is not installed (run scripts/deps.sh)"
	exit 77
fi
if ! "$here/kernel.sh" dir >/dev/null 2>&1; then
	echo "skipped: the sched_ext kernel is not fetched (run scripts/deps.sh or vm/kernel.sh fetch)"
	exit 77
fi
. "$here/mode.sh"
tcg=$(vm_resolve_tcg "$tcg" "$smp") || exit 2
qmajor=$(vm_qemu_version); qmajor=${qmajor%%.*}
kdir=$("$here/kernel.sh" dir)
kver=$(cat "$kdir/release" 2>/dev/null || basename "$kdir")

if [ -z "$programs" ]; then
	for p in lavd framebench gamesuite churn scx_minimal bpfcost; do
		[ -x "$build/static/$p" ] && programs="$programs $build/static/$p"
	done
fi
case " $programs " in
*/lavd\ *) ;;
*) echo "vm/run.sh: $build/static/lavd missing: run make static" >&2; exit 1 ;;
esac

mkdir -p "$out"
# libbpf-based loaders other than ours (the reference scx_lavd) read the
# kernel's config for __kconfig externs: /init puts it in the guest's /boot
if [ -f "$kdir/config" ]; then
	cp "$kdir/config" "$out/config-$kver" && chmod 755 "$out/config-$kver" &&
		programs="$programs $out/config-$kver"
fi
initrd=$out/initrd.cpio.gz
# shellcheck disable=SC2086
"$here/mkinitramfs.sh" "$initrd" "$planfile" $programs || exit 1

. "$here/hostload.sh"

# boot MODE TAG: one boot; sets LOG, RES, BOOT_RC, BOOT_S.
boot() {
	LOG=$out/serial$2.log RES=$out/results$2.txt
	t0=$(date +%s)
	"$here/boot.sh" "$initrd" "$LOG" "$RES" --timeout "$timeout_s" \
		--smp "$smp" --mem "$mem" --tcg "$1" --append "$append" \
		--qemu "$qemu_extra" &
	bpid=$!
	if [ $sample -eq 1 ]; then
		SAMPLE_MARKER_FILE=$RES sample_host "$bpid" > "$out/host-load$2.txt" &
		spid=$!
	fi
	wait "$bpid"
	BOOT_RC=$?
	[ $sample -eq 1 ] && wait "$spid"
	BOOT_S=$(( $(date +%s) - t0 ))
	tr -d '\r' < "$RES" > "$RES.tmp" && mv "$RES.tmp" "$RES"
}

panicked() { grep -qE 'Kernel panic|BUG: |Oops|general protection fault|int3: 0000' "$LOG"; }

mode=$(vm_mode_desc "$tcg")
echo "$mode" > "$out/mode"
echo "vm: plan $plan, kernel $kver, -smp $smp${shape:+ ($shape: one NUMA node per socket)}, $mode, timeout ${timeout_s}s"
boot "$tcg" ""
retried=""
if panicked; then
	echo "vm: the guest panicked ($mode); console excerpt:"
	grep -E -m 5 -A 3 'Kernel panic|BUG: |Oops|int3' "$LOG" | sed 's/^/    /'
	cp "$LOG" "$out/serial-panic.log"
fi
if panicked && [ "$tcg" = multi ] && [ "${qmajor:-0}" -lt 10 ]; then
	echo "vm: (qemu before 10.0 under thread=multi: the emulator's code-patching race, docs/vm.md)"
	if [ "${VM_RETRY_SINGLE:-1}" = 0 ]; then
		echo "vm: VM_RETRY_SINGLE=0: no retry"
	else
		echo "vm: RETRYING ONCE under thread=single (this retry is part of the result)"
		boot single "-retry"
		retried="after one retry under thread=single (first boot panicked)"
		vm_mode_desc single > "$out/mode"
	fi
fi

# Files the plan sent (gs_file) land in $out/files/.
rm -rf "$out/files"
mkdir -p "$out/files"
awk -v dir="$out/files" '
	/^@@GS FILE-BEGIN / { f = dir "/" $3; printf "" > f; next }
	/^@@GS FILE-END / { close(f); f = ""; next }
	f != "" { print >> f }
' "$RES"

fail=0 why=""
grep '^@@GS RESULT ' "$RES" | sed 's/^@@GS RESULT /  /'
if panicked; then
	fail=1 why="$why kernel panic/BUG in the serial log;"
fi
if [ "$BOOT_RC" -eq 124 ] || [ "$BOOT_RC" -eq 137 ]; then
	fail=1 why="$why the guest hung (killed after ${timeout_s}s);"
fi
if ! grep -q '^@@GS DONE' "$RES"; then
	fail=1 why="$why the plan did not finish (no DONE line);"
fi
if grep -q '^@@GS RESULT [^ ]* FAIL' "$RES"; then
	fail=1 why="$why phase(s) failed:$(sed -n 's/^@@GS RESULT \([^ ]*\) FAIL.*/ \1/p' "$RES" | tr -d '\n');"
fi
for p in $expect; do
	grep -q "^@@GS RESULT $p PASS" "$RES" || {
		grep -q "^@@GS RESULT $p " "$RES" || { fail=1; why="$why phase $p never reported;"; }
	}
done
grep '^@@GS DATA ' "$RES" | sed 's/^@@GS DATA /  data: /'

if [ $fail -ne 0 ]; then
	echo "---- serial log (last 80 lines of $LOG) ----"
	tail -n 80 "$LOG"
	echo "---- end of serial log ----"
	echo "vm: FAIL ($plan, ${BOOT_S}s):$why"
	exit 1
fi
echo "vm: PASS ($plan, ${BOOT_S}s, kernel $kver${retried:+, $retried})"
exit 0
