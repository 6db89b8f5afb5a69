#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `make vm-limit`: how close each scheduler keeps the game to its own
# figure under background load, and what it leaves the background. One
# boot of the sched_ext kernel runs every framebench profile under every
# scheduler with no background and with the background pattern, plus the
# kernel's scheduler with the game SCHED_FIFO (--rt) as a reference, in
# interleaved rotated rounds (vm/plans/limit.sh); vm/limit-table.sh then
# prints per profile and scheduler the 1 % low, p99, average FPS and
# background work per second, the limit ratio and the background kept,
# with Welch's t against lavd. The host's own load is sampled; runs during
# which other host processes used more than --max-host-load CPUs are left
# out and counted. Not part of `make test` (about 10 min per round with
# four profiles and three schedulers).
#
#   vm/limit.sh [--profiles P1,P2,...] [--scheds S1,S2,...] [--reps N]
#               [--duration D] [--bg PATTERN] [--no-rt]
#               [--calibration R|auto|host|mode] [--tcg single|multi|auto] [--smp SPEC]
#               [--max-host-load CPUS] [--program PATH]... [--out DIR]
#               [--host-rounds N]
# --host-rounds N: the same profiles, background and calibration on the
# host's real CPUs (bench/eevdf-host.sh: default, nice -10, FIFO and
# lavd --eevdf, N rounds) right before the boot, in the same session: the
# table then gives each profile's fidelity (lab-bound outside 0.85-1.15)
# and the handicapped comparison (lavd in the VM against the host's arms).
# Schedulers: "default", "default:FBARG..." (the kernel's scheduler with
# framebench options on the game's threads, e.g. default:--nice:-5,
# default:--slice-us:1000) or "PROGRAM[:ARG...]" (PROGRAM from the
# guest's /bin: lavd, or a static build passed with --program, e.g.
# scx_lavd). lavd's shipped game profiles are in the guest's
# /tmp/lavd-profiles: lavd:--game-profiles:/tmp/lavd-profiles.
# A --program that is not named in --scheds is added to them. The pinned
# kernel's config is in the guest's /boot for loaders that read it
# (vm/run.sh).
# Defaults: proton,unreal,esports,strategy; default,lavd (+ programs);
# 6 rounds of 10s; hogs:2; --calibration mode (vm/calib.sh); --tcg auto (vm/mode.sh); -smp 2; 0.5 CPUs.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
profiles=proton,unreal,esports,strategy scheds=default,lavd reps=6 dur=10s bg=hogs:2 rt=1
calib=mode tcg=${VM_TCG:-auto} smp=2 maxload=0.5 out="" programs="" hostrounds=0
while [ $# -gt 0 ]; do
	case $1 in
	--profiles) profiles=$2; shift 2 ;;
	--scheds) scheds=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--duration) dur=$2; shift 2 ;;
	--bg) bg=$2; shift 2 ;;
	--no-rt) rt=0; shift ;;
	--calibration) calib=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--max-host-load) maxload=$2; shift 2 ;;
	--program) programs="$programs $2"; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--host-rounds) hostrounds=$2; shift 2 ;;
	-h|--help) awk 'NR >= 3 && /^set -u/ { exit } NR >= 3' "$0"; exit 0 ;;
	*) echo "vm/limit.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
. vm/hostruns.sh
vm_host_rounds_ok vm/limit.sh "$hostrounds" || exit 2
# --calibration host: the host's own rate, so boots run the same work
. vm/calib.sh
calib=$(vm_resolve_calib "$calib" "$B" vm/limit.sh "$tcg" "$smp") || exit 2
case $reps in ''|*[!0-9]*|0) echo "vm/limit.sh: --reps needs a positive number" >&2; exit 2 ;; esac
case $profiles$scheds in *' '*) echo "vm/limit.sh: --profiles/--scheds: ',' between names, ':' between a program and its arguments" >&2; exit 2 ;; esac
[ "$bg" = none ] && { echo "vm/limit.sh: --bg none leaves nothing to compare (the limit ratio needs a background)" >&2; exit 2; }
[ -x "$B/static/framebench" ] && [ -x "$B/static/lavd" ] || { echo "vm/limit.sh: $B/static/{lavd,framebench} missing: run make static" >&2; exit 1; }
[ -x "$B/tests/jsonget" ] || { echo "vm/limit.sh: $B/tests/jsonget missing: run make $B/tests/jsonget" >&2; exit 1; }
out=${out:-$B/vm/limit}

extra=""
for p in $programs; do
	[ -x "$p" ] || { echo "vm/limit.sh: --program $p: not an executable file" >&2; exit 2; }
	if file -L "$p" | grep -q 'dynamically linked'; then
		echo "vm/limit.sh: --program $p is dynamically linked (the guest has no shared libraries)" >&2
		exit 2
	fi
	name=$(basename "$p")
	case ",$scheds," in *",$name,"*|*",$name:"*) ;; *) scheds="$scheds,$name" ;; esac
	extra="$extra --program $p"
done

# lavd's shipped game profiles, as one archive among the programs
mkdir -p "$out"
# shellcheck disable=SC2046 # file names without blanks, split on purpose
tar -cf "$out/lavd-profiles.tar" -C lavd/profiles $(cd lavd/profiles && ls -- *.conf) || exit 1
chmod +x "$out/lavd-profiles.tar"
extra="$extra --program $out/lavd-profiles.tar"

np=$(echo "$profiles" | tr ',' '\n' | wc -l)
ns=$(echo "$scheds" | tr ',' '\n' | wc -l)
secs=$(echo "$dur" | awk '/ms$/ { print int($0 / 1000) + 1; next } /m$/ { print $0 * 60; next } { print $0 + 0 }')
# boot limit: two runs per slot (duration + warm-up) and a load of up to
# 30 s, x2 for emulation under host load, plus calibration and the boot
limit=$(( 300 + reps * np * (ns * (2 * (secs + 3) + 30) + secs + 3) * 2 ))

# the host's own runs first: the same session, the same work per frame
hostarg=""
if [ "$hostrounds" -gt 0 ]; then
	vm_host_runs "$hostrounds" "$dur" "$profiles" "none,$bg" default,nice10,fifo,lavd \
		"$calib" "$out" || exit 1
	hostarg="--host $out/host/runs.tsv"
fi

append="gs.profiles=$profiles gs.scheds=$scheds gs.reps=$reps gs.fbdur=$dur gs.bg=$bg gs.rt=$rt gs.calib=$calib"
fifo=""; [ "$rt" = 1 ] && fifo=" + the FIFO reference"
echo "vm/limit.sh: $np profiles x $ns schedulers$fifo, $reps rounds; boot limit ${limit}s"
# shellcheck disable=SC2086
BUILD=$B vm/run.sh limit --expect limit --timeout "$limit" --tcg "$tcg" --smp "$smp" \
	--append "$append" --out "$out" --sample-host \
	--program "$B/static/lavd" --program "$B/static/framebench" $extra
rc=$?
res=$out/results.txt load=$out/host-load.txt
# the retry of a panicked boot runs under thread=single: its title says so
if [ -f "$out/results-retry.txt" ]; then
	res=$out/results-retry.txt load=$out/host-load-retry.txt
	tcg=single
fi
kver=$(sed -n 's/^@@GS BOOT kernel=\([^ ]*\).*/\1/p' "$res" | head -n 1)
echo
vm/limit-table.sh --files "$out/files" --results "$res" --host-load "$load" \
	--max-host-load "$maxload" --jsonget "$B/tests/jsonget" $hostarg \
	--bg "$bg" --summary "$out/summary.txt" \
	--title "framebench --duration $dur --calibration $(sed -n 's/^@@GS DATA calibration //p' "$res" | head -n 1), background --bg $bg, $reps interleaved rounds, kernel ${kver:-?}, $(cat "$out/mode" 2>/dev/null || echo "qemu TCG thread=$tcg"), -smp $smp"
trc=$?
[ $rc -eq 0 ] || exit $rc
exit $trc
