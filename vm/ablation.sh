#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The lavd ablation table: one boot of the sched_ext kernel runs framebench
# (proton profile with 2 CPU hogs by default) under the kernel's default
# scheduler, lavd with every feature, and lavd with each of preemption,
# futex boost, slice boost and wake-sync switched off, interleaved and
# repeated (vm/plans/ablation.sh), then prints per configuration the mean,
# standard deviation and range of the 1 % low and the p99 frame time
# (vm/ablation-table.sh). The host's own load is sampled during the boot;
# runs during which other host processes used more than --max-host-load
# CPUs are left out and counted. Not part of `make test` (about 10 min).
# --host-rounds N: the same profile, background and calibration on the
# host's real CPUs first (bench/eevdf-host.sh, N rounds: the default, and
# nice -10, FIFO and lavd --eevdf when "lavd" is a configuration), in the
# same session; the table then gives the fidelity (lab-bound outside
# 0.85-1.15) and lavd's handicapped comparison (vm/hostfid.awk). The host
# runs take no --fb-args.
#
#   vm/ablation.sh [--configs C1,C2,...] [--reps N] [--duration D]
#                  [--profile NAME] [--bg PATTERN|none] [--fb-args "ARGS"]
#                  [--calibration R|auto|host|mode] [--bpf-stats]
#                  [--tcg single|multi|auto]
#                  [--smp SPEC | --shape SxC] [--max-host-load CPUS]
#                  [--program PATH]...
#                  [--out DIR] [--host-rounds N]
# Configurations: "default" or "PROGRAM[:ARG...]" (PROGRAM from /bin of the
# guest: lavd, or another static build passed with --program).
# Defaults: default, lavd, lavd:--no-preemption, lavd:--no-futex-boost,
# lavd:--no-slice-boost, lavd:--no-wake-sync; 5 rounds of 10s; proton;
# hogs:2; --calibration mode (vm/calib.sh: the host's rate under
# thread=multi, else the guest's own, measured at the
# start); --tcg auto (vm/mode.sh); -smp 2; 0.5 CPUs.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
configs=default,lavd,lavd:--no-preemption,lavd:--no-futex-boost,lavd:--no-slice-boost,lavd:--no-wake-sync
reps=5 dur=10s profile=proton bg=hogs:2 calib=mode fbargs="" tcg=${VM_TCG:-auto} smp=2 maxload=0.5 shape=""
out=$B/vm/ablation extra="" bpfstats=0 hostrounds=0
while [ $# -gt 0 ]; do
	case $1 in
	--configs) configs=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--duration) dur=$2; shift 2 ;;
	--profile) profile=$2; shift 2 ;;
	--bg) bg=$2; shift 2 ;;
	--calibration) calib=$2; shift 2 ;;
	--bpf-stats) bpfstats=1; shift ;;
	--fb-args) fbargs=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--shape) shape="--shape $2"; smp=$2; shift 2 ;;
	--max-host-load) maxload=$2; shift 2 ;;
	--program) extra="$extra --program $2"; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--host-rounds) hostrounds=$2; shift 2 ;;
	-h|--help) awk 'NR >= 3 && /^set -u/ { exit } NR >= 3' "$0"; exit 0 ;;
	*) echo "vm/ablation.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
. vm/hostruns.sh
vm_host_rounds_ok vm/ablation.sh "$hostrounds" || exit 2
# the host's framebench runs the profile as it is: other options would
# make the fidelity compare two different games
[ "$hostrounds" -gt 0 ] && [ -n "$fbargs" ] &&
	{ echo "vm/ablation.sh: --host-rounds: the host runs take no --fb-args; leave one of them out" >&2; exit 2; }
# --calibration host: the host's own rate, so boots run the same work
. vm/calib.sh
calib=$(vm_resolve_calib "$calib" "$B" vm/ablation.sh "$tcg" "$smp") || exit 2
case $reps in ''|*[!0-9]*|0) echo "vm/ablation.sh: --reps needs a positive number" >&2; exit 2 ;; esac
case $configs in *' '*) echo "vm/ablation.sh: --configs: use ':' between a program and its arguments, ',' between configurations" >&2; exit 2 ;; esac
[ -x "$B/static/framebench" ] || { echo "vm/ablation.sh: $B/static/framebench missing: run make static" >&2; exit 1; }
[ -x "$B/tests/jsonget" ] || { echo "vm/ablation.sh: $B/tests/jsonget missing: run make $B/tests/jsonget" >&2; exit 1; }

ncfg=$(echo "$configs" | tr ',' '\n' | wc -l)
# boot limit: per run the duration + 1 s warm-up + load/unload, x3 under
# emulation and host load, plus the boot
secs=$(echo "$dur" | awk '/ms$/ { print int($0 / 1000) + 1; next } /m$/ { print $0 * 60; next } { print $0 + 0 }')
limit=$(( 180 + reps * ncfg * (secs + 20) * 3 ))

# the host's own runs first: the same session, the same work per frame
hostarg=""
if [ "$hostrounds" -gt 0 ]; then
	arms=default
	case ",$configs," in *,lavd,*) arms=default,nice10,fifo,lavd ;; esac
	vm_host_runs "$hostrounds" "$dur" "$profile" "$bg" "$arms" "$calib" "$out" || exit 1
	hostarg="--host $out/host/runs.tsv --profile $profile --bg $bg"
fi

# bpfcost: what a loader that prints no cost line spent (--bpf-stats)
cost=""
[ -x "$B/static/bpfcost" ] && cost="--program $B/static/bpfcost"
append="gs.configs=$configs gs.reps=$reps gs.fbdur=$dur gs.profile=$profile gs.bg=$bg gs.calib=$calib gs.bpfstats=$bpfstats"
[ -n "$fbargs" ] && append="$append gs.fbargs=$(echo "$fbargs" | tr ' ' ',')"
# shellcheck disable=SC2086
BUILD=$B vm/run.sh ablation --expect ablation --timeout "$limit" --tcg "$tcg" --smp "$smp" $shape \
	--append "$append" --out "$out" --sample-host \
	--program "$B/static/lavd" --program "$B/static/framebench" $cost $extra
rc=$?
res=$out/results.txt load=$out/host-load.txt
# the retry of a panicked boot runs under thread=single: its title says so
if [ -f "$out/results-retry.txt" ]; then
	res=$out/results-retry.txt load=$out/host-load-retry.txt
	tcg=single
fi
kver=$(sed -n 's/^@@GS BOOT kernel=\([^ ]*\).*/\1/p' "$res" | head -n 1)
echo
# shellcheck disable=SC2086 # options and their values, split on purpose
vm/ablation-table.sh --files "$out/files" --results "$res" --host-load "$load" \
	--configs "$configs" --max-host-load "$maxload" --jsonget "$B/tests/jsonget" $hostarg \
	--title "framebench --profile $profile${fbargs:+ $fbargs} --calibration $(sed -n 's/^@@GS DATA calibration //p' "$res" | head -n 1) $([ "$bg" = none ] && echo "(no background load)" || echo "--bg $bg") --duration $dur, $reps interleaved rounds, kernel ${kver:-?}, $(cat "$out/mode" 2>/dev/null || echo "qemu TCG thread=$tcg"), -smp $smp"
trc=$?
[ $rc -eq 0 ] || exit $rc
exit $trc
