#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The evidence for lavd's game profiles (docs/lavd.md, "Game profiles"),
# in one boot of the sched_ext kernel (guest plan vm/plans/profiles.sh):
#   load       profiles load, match a framebench run, show in the
#              statistics and --monitor, reload on SIGHUP (both ways of
#              noticing processes); verified instructions with and without
#   compare    each profile (lavd/profiles/NAME.conf, shipped, or
#              lavd/profiles/candidates/NAME.conf) against
#              lavd's defaults on every target framebench profile, rounds
#              interleaved; the table gives the shipping rule's verdict
#   isolation  a matched and an unmatched framebench at once: the
#              unmatched one's figures against the defaults, and which
#              processes the statistics say follow the profile
#   tune       gamesuite tune on one framebench profile, for real: the
#              profile it writes and its evidence
#   cost       the loader's CPU time while processes start (events path,
#              /proc scans every 1000 and 100 ms, no profiles)
# then prints the tables (vm/profiles-table.sh). Not part of `make test`:
# the full run takes hours under TCG. --host-rounds N: the compare phase
# also runs the kernel's own scheduler, and before the boot the same
# targets, background and calibration run N rounds under the default on
# the host's real CPUs (bench/eevdf-host.sh), in the same session; the
# table then gives each target's fidelity (lab-bound outside 0.85-1.15,
# vm/hostfid.awk). A smoke run:
#   vm/profiles.sh --reps 1 --duration 3s --cost-secs 3
#
#   vm/profiles.sh [--phases load,compare,isolation,tune,cost] [--reps N]
#                  [--duration D] [--bg PATTERN] [--cands C1,C2,...]
#                  [--targets T1,T2,...] [--iso A:B:CAND]
#                  [--exec-rate N] [--cost-secs S] [--calibration R|auto|host|mode]
#                  [--tune-target P] [--tune-knobs K=V,V+K=V,...] [--tune-rounds N]
#                  [--tune-final N] [--tcg single|multi|auto] [--smp N] [--out DIR]
#                  [--host-rounds N]
# Defaults: all phases; 6 rounds of 10s; hogs:2; the five game profiles
# (shipped and candidates) and the five framebench profiles of the same
# names; unreal:strategy:unreal; tune unreal over lat-cri-boost=0,128,512,
# 1 first-stage round, 6 final rounds; 100 starts/s for 10 s;
# --calibration mode (vm/calib.sh); -smp 2.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
phases=load,compare,isolation,tune,cost reps=6 dur=10s bg=hogs:2
tunetarget=unreal tuneknobs=lat-cri-boost=0,128,512 tunerounds=1 tunefinal=6
cands=unreal,unity,proton,esports,strategy targets=unreal,unity,proton,esports,strategy
iso=unreal:strategy:unreal rate=100 costsecs=10 calib=mode tcg=${VM_TCG:-auto} smp=2
out=$B/vm/profiles hostrounds=0
while [ $# -gt 0 ]; do
	case $1 in
	--phases) phases=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--duration) dur=$2; shift 2 ;;
	--bg) bg=$2; shift 2 ;;
	--cands) cands=$2; shift 2 ;;
	--targets) targets=$2; shift 2 ;;
	--iso) iso=$2; shift 2 ;;
	--exec-rate) rate=$2; shift 2 ;;
	--cost-secs) costsecs=$2; shift 2 ;;
	--calibration) calib=$2; shift 2 ;;
	--tune-target) tunetarget=$2; shift 2 ;;
	--tune-knobs) tuneknobs=$2; shift 2 ;;
	--tune-rounds) tunerounds=$2; shift 2 ;;
	--tune-final) tunefinal=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--host-rounds) hostrounds=$2; shift 2 ;;
	-h|--help) awk 'NR >= 3 && /^set -u/ { exit } NR >= 3' "$0"; exit 0 ;;
	*) echo "vm/profiles.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
. vm/hostruns.sh
vm_host_rounds_ok vm/profiles.sh "$hostrounds" || exit 2
case ,$phases, in
*,compare,*) ;;
*) [ "$hostrounds" -eq 0 ] ||
	{ echo "vm/profiles.sh: --host-rounds: the fidelity is the compare phase's; add compare to --phases" >&2; exit 2; } ;;
esac
# --calibration host: the host's own rate, so boots run the same work
. vm/calib.sh
calib=$(vm_resolve_calib "$calib" "$B" vm/profiles.sh "$tcg" "$smp") || exit 2
for n in "$reps" "$rate" "$costsecs" "$tunerounds"; do
	case $n in ''|*[!0-9]*|0) echo "vm/profiles.sh: --reps, --exec-rate, --cost-secs and --tune-rounds take positive numbers" >&2; exit 2 ;; esac
done
# a profile under test: shipped (lavd/profiles/NAME.conf) or a candidate
for c in $(echo "$cands" | tr ',' ' '); do
	[ -f "lavd/profiles/$c.conf" ] || [ -f "lavd/profiles/candidates/$c.conf" ] ||
		{ echo "vm/profiles.sh: no lavd/profiles/$c.conf or lavd/profiles/candidates/$c.conf" >&2; exit 2; }
done
isoa=${iso%%:*} rest=${iso#*:}
isob=${rest%%:*} isocand=${rest#*:}
[ -x "$B/static/framebench" ] && [ -x "$B/static/lavd" ] ||
	{ echo "vm/profiles.sh: $B/static/{lavd,framebench} missing: run make static" >&2; exit 1; }
[ -x "$B/tests/jsonget" ] || { echo "vm/profiles.sh: $B/tests/jsonget missing: run make $B/tests/jsonget" >&2; exit 1; }

# the shipped profiles and the candidates travel as one archive (folder
# candidates/) among the initramfs's programs
mkdir -p "$out"
rm -rf "$out/profiles-stage" && mkdir -p "$out/profiles-stage/candidates" || exit 1
for f in lavd/profiles/*.conf lavd/profiles/candidates/*.conf; do
	[ -f "$f" ] && { cp "$f" "$out/profiles-stage/candidates/" || exit 1; }
done
tar -cf "$out/lavd-profiles.tar" -C "$out/profiles-stage" candidates || exit 1
chmod +x "$out/lavd-profiles.tar"

# time limit: every run's duration plus load/unload, x3 under emulation,
# and the boot
secs=$(echo "$dur" | awk '/ms$/ { print int($0 / 1000) + 1; next } /m$/ { print $0 * 60; next } { print $0 + 0 }')
nc=$(echo "$cands" | tr ',' '\n' | grep -c .)
nt=$(echo "$targets" | tr ',' '\n' | grep -c .)
ntune=$(echo "$tuneknobs" | tr '+' '\n' | awk -F= '{ n = split($2, v, ","); t = t ? t * n : n } END { print t + 0 }')
# the kernel's own scheduler joins the compare phase for the host's runs
ncmp=$((nc + 1))
[ "$hostrounds" -gt 0 ] && ncmp=$((nc + 2))
limit=$(( 300 + (reps * nt * ncmp * (secs + 15) + reps * 2 * (secs + 15) + 4 * (2 * costsecs + 20) + (2 * ntune * tunerounds + 2 * tunefinal + 4) * (secs + 20)) * 3 ))
expect=$(echo "$phases" | tr ',' ' ')
append="gs.phases=$phases gs.reps=$reps gs.fbdur=$dur gs.bg=$bg gs.cands=$cands gs.targets=$targets gs.calib=$calib gs.isoa=$isoa gs.isob=$isob gs.isocand=$isocand gs.execrate=$rate gs.costsecs=$costsecs gs.tunetarget=$tunetarget gs.tuneknobs=$tuneknobs gs.tunerounds=$tunerounds gs.tunefinal=$tunefinal"
# the host's own runs first: the same session, the same work per frame
hostarg=""
if [ "$hostrounds" -gt 0 ]; then
	vm_host_runs "$hostrounds" "$dur" "$targets" "$bg" default "$calib" "$out" || exit 1
	hostarg="--host $out/host/runs.tsv --bg $bg"
	append="$append gs.cmpdefault=1"
fi
gsprog=""
[ -x "$B/static/gamesuite" ] && gsprog="--program $B/static/gamesuite"
BUILD=$B vm/run.sh profiles --expect "$expect" --timeout "$limit" --tcg "$tcg" --smp "$smp" \
	--append "$append" --out "$out" --sample-host \
	--program "$B/static/lavd" --program "$B/static/framebench" --program "$out/lavd-profiles.tar" $gsprog
rc=$?
res=$out/results.txt
# the retry of a panicked boot runs under thread=single: its title says so
if [ -f "$out/results-retry.txt" ]; then
	res=$out/results-retry.txt
	tcg=single
fi
echo
# shellcheck disable=SC2086 # options and their values, split on purpose
vm/profiles-table.sh --files "$out/files" --results "$res" --cands "$cands" \
	--targets "$targets" --jsonget "$B/tests/jsonget" $hostarg \
	--title "$reps rounds of $dur, --bg $bg, kernel $(sed -n 's/^@@GS BOOT kernel=\([^ ]*\).*/\1/p' "$res" | head -n 1), $(cat "$out/mode" 2>/dev/null || echo "TCG thread=$tcg"), -smp $smp"
trc=$?
[ $rc -eq 0 ] || exit $rc
exit $trc
