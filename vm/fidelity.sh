#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `make vm-fidelity`: the VM's calibration certificate. The host runs the
# kernel's default scheduler on real CPUs, so it is the one real reference
# for the VM: the same framebench runs (every profile, with no background
# and with the background pattern) natively on the host and, under the
# same default scheduler, in the VM, in rounds that alternate host and VM
# in time (round 1 host first, round 2 VM first, ...; one boot per VM
# round, each run order rotated by round). vm/fidelity-table.sh then gives
# per profile and metric (average FPS, 1 % low, p99, game CPU per frame,
# background work/s) host and VM as mean +- sd and the VM/host ratio with
# its spread. The host part needs no root. Runs during which other host
# processes used more than --max-host-load CPUs are left out and counted,
# on both sides. The emulator mode is vm/run.sh's (VM_TCG, VM_CPU, VM_PIN,
# VM_QEMU, VM_ICOUNT: docs/vm.md#emulator-modes) and is named in the title.
#
#   vm/fidelity.sh [--profiles P1,P2,...] [--rounds N] [--duration D]
#                  [--bg PATTERN] [--tcg single|multi|auto] [--smp SPEC]
#                  [--max-host-load CPUS] [--tolerance PCT] [--out DIR]
#                  [--dilate K [--no-slice-scale]] [--host-cpus LIST]
# --dilate K: the VM's runs time-dilated by K (framebench --dilate; the
# guest's EEVDF base slice K times longer too unless --no-slice-scale);
# the host's runs are never dilated: they are the reference.
# --host-cpus LIST: the host's runs on those CPUs only (taskset -c), e.g.
# --smp 1 --host-cpus 1: one vCPU against one real CPU, leaving the host
# a CPU for qemu's other threads.
# Defaults: proton,unreal,esports,strategy; 3 rounds of 10s; hogs:2;
# auto; -smp 2; 0.5 CPUs; 15 %.
# Exit: 0 done (the table says what is within the tolerance), 1 a run or
# boot failed, 2 usage.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
profiles=proton,unreal,esports,strategy rounds=3 dur=10s bg=hogs:2
tcg=${VM_TCG:-auto} smp=2 maxload=0.5 tol=15 out="" dilate=1 slicescale=1 hostcpus=""
while [ $# -gt 0 ]; do
	case $1 in
	--profiles) profiles=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--duration) dur=$2; shift 2 ;;
	--bg) bg=$2; shift 2 ;;
	--tcg) tcg=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--max-host-load) maxload=$2; shift 2 ;;
	--tolerance) tol=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--dilate) dilate=$2; shift 2 ;;
	--no-slice-scale) slicescale=0; shift ;;
	--host-cpus) hostcpus=$2; shift 2 ;;
	-h|--help) awk 'NR >= 3 && /^set -u/ { exit } NR >= 3' "$0"; exit 0 ;;
	*) echo "vm/fidelity.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
case $rounds in ''|*[!0-9]*|0) echo "vm/fidelity.sh: --rounds needs a positive number, got '$rounds'" >&2; exit 2 ;; esac
case $tol in ''|*[!0-9]*) echo "vm/fidelity.sh: --tolerance needs a whole percentage, got '$tol'" >&2; exit 2 ;; esac
case $bg in none|'') echo "vm/fidelity.sh: --bg needs a background pattern (variant 1 runs with it)" >&2; exit 2 ;; esac
case $profiles in *' '*|'') echo "vm/fidelity.sh: --profiles: names separated by ','" >&2; exit 2 ;; esac
# the host's runs on LIST: taskset says whether this host has those CPUs
pin=""
if [ -n "$hostcpus" ]; then
	why=$(taskset -c "$hostcpus" true 2>&1) ||
		{ echo "vm/fidelity.sh: --host-cpus $hostcpus: ${why:-taskset failed}" >&2; exit 2; }
	pin="taskset -c $hostcpus"
fi
for x in "$B/framebench" "$B/static/framebench" "$B/static/lavd" "$B/tests/jsonget"; do
	[ -x "$x" ] || { echo "vm/fidelity.sh: $x missing: run make, make static and make $B/tests/jsonget" >&2; exit 1; }
done
for p in $(echo "$profiles" | tr ',' ' '); do
	"$B/framebench" --profile "$p" --dump-plan >/dev/null 2>&1 ||
		{ echo "vm/fidelity.sh: --profiles: framebench knows no profile '$p'" >&2; exit 2; }
	why=$("$B/framebench" --profile "$p" --dilate "$dilate" --dump-plan 2>&1 >/dev/null) ||
		{ echo "vm/fidelity.sh: --dilate $dilate: $why" >&2; exit 2; }
done
out=${out:-$B/vm/fidelity}
rm -rf "$out"
mkdir -p "$out/host"
. vm/hostload.sh

secs=$(echo "$dur" | awk '/ms$/ { print int($0 / 1000) + 1; next } /m$/ { print $0 * 60; next } { print $0 + 0 }')
nrun=$(( $(echo "$profiles" | tr ',' '\n' | wc -l) * 2 ))
limit=$(awk -v n="$nrun" -v s="$secs" -v k="$dilate" 'BEGIN { printf "%d", 120 + n * ((s + 1) * k + 3) * 3 }')

# the runs of round R, rotated by R: "P.V ..."
round_runs() {
	all=""
	for p in $(echo "$profiles" | tr ',' ' '); do all="$all $p.0 $p.1"; done
	# shellcheck disable=SC2086 # one word per run
	set -- $all
	k=$(( (r - 1) % nrun ))
	i=0
	while [ $i -lt "$k" ]; do first=$1; shift; set -- "$@" "$first"; i=$((i + 1)); done
	echo "$@"
}

. vm/calib.sh

# host_round R: the round's runs natively, each with the host's other load
host_round() {
	for id in $(round_runs); do
		p=${id%.*} v=${id##*.}
		bgargs=""
		[ "$v" = 1 ] && bgargs="--bg $bg"
		# shellcheck disable=SC2086
		$pin "$B/framebench" --profile "$p" --duration "$dur" --calibration "$hrate" $bgargs \
			--json "$out/host/run-$r-$id.json" -q > "$out/host/run-$r-$id.out" 2>&1 &
		fpid=$!
		SAMPLE_MARKER="$r $id" sample_host "$fpid" >> "$out/host/host-load.txt" &
		spid=$!
		wait "$fpid" || { echo "vm/fidelity.sh: host run $r $id failed: $(cat "$out/host/run-$r-$id.out")"; failed=$((failed + 1)); }
		wait "$spid"
	done
}

# vm_round R: the round's runs in one boot
vm_round() {
	runs=$(round_runs | tr ' ' ',')
	BUILD=$B vm/run.sh fidelity --expect fidelity --timeout "$limit" --tcg "$tcg" --smp "$smp" \
		--append "gs.round=$r gs.runs=$runs gs.fbdur=$dur gs.bg=$bg gs.calib=auto gs.dilate=$dilate gs.slicescale=$slicescale" \
		--out "$out/vm-$r" --sample-host \
		--program "$B/static/framebench" --program "$B/static/lavd" > "$out/vm-$r.log" 2>&1 ||
		{ echo "vm/fidelity.sh: VM round $r failed (boot log: $out/vm-$r.log):"; tail -n 5 "$out/vm-$r.log"; failed=$((failed + 1)); }
	sed -n 's/^vm: \(.*falling back.*\)/vm\/fidelity.sh: \1/p' "$out/vm-$r.log"
}

# shellcheck disable=SC2086 # no pin: an empty word
hrate=$(vm_host_rate "$B/tests/jsonget" "$out/cal.json" $pin "$B/framebench")
echo "vm/fidelity.sh: $nrun runs a round on each side ($(echo "$profiles" | tr ',' ' '), none and --bg $bg), $rounds rounds of $dur; host calibration $hrate loops/us"
failed=0
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) -eq 1 ]; then
		host_round; vm_round
	else
		vm_round; host_round
	fi
	echo "vm/fidelity.sh: round $r done ($(date +%H:%M:%S))"
	r=$((r + 1))
done

mode=$(cat "$out/vm-1/mode" 2>/dev/null || echo "?")
kver=$(sed -n 's/^@@GS BOOT kernel=\([^ ]*\).*/\1/p' "$out/vm-1/results.txt" 2>/dev/null | head -n 1)
echo
vm/fidelity-table.sh --out "$out" --max-host-load "$maxload" --tolerance "$tol" \
	--jsonget "$B/tests/jsonget" \
	--title "framebench --duration $dur, none and --bg $bg, $rounds rounds; host $(uname -r) native, $(getconf _NPROCESSORS_ONLN) CPUs; VM kernel ${kver:-?}, $mode, -smp $smp$([ -n "$hostcpus" ] && echo ", host runs on CPUs $hostcpus")$([ "$dilate" = 1 ] || echo ", VM runs --dilate $dilate$([ $slicescale = 1 ] && echo " with the base slice x$dilate")")"
trc=$?
[ $failed -eq 0 ] || exit 1
exit $trc
