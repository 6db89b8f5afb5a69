#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `make vm-gamesuite`: gamesuite's comparison inside the sched_ext VM, the
# kernel default against lavd and a lavd ablation, interleaved in one boot
# (guest plan vm/plans/gamesuite-demo.sh, suite
# vm/plans/gamesuite-demo.suite); the reports land in OUT/files/.
# --host-rounds N: before the boot, in the same session, the same suite
# runs on the host's real CPUs under the kernel's default scheduler (N
# measured runs per workload, gamesuite's JSON in OUT/host/), and
# vm/gamesuite-table.sh then gives each workload's fidelity: the VM
# default's median 1 % low over the host default's (lab-bound outside
# 0.85-1.15). Not part of `make test`.
#
#   vm/gamesuite-demo.sh [--repeat N] [--duration D] [--ablation "ARGS"|none]
#                        [--host-rounds N] [--out DIR]
# Defaults: 5 runs per scheduler of 4s, --no-wake-sync, no host rounds,
# build/vm/gamesuite-demo.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
repeat=5 dur=4s ablation=--no-wake-sync hostrounds=0 out=""
while [ $# -gt 0 ]; do
	case $1 in
	--repeat) repeat=$2; shift 2 ;;
	--duration) dur=$2; shift 2 ;;
	--ablation) ablation=$2; shift 2 ;;
	--host-rounds) hostrounds=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h|--help) awk 'NR >= 3 && /^set -u/ { exit } NR >= 3' "$0"; exit 0 ;;
	*) echo "vm/gamesuite-demo.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
. vm/hostruns.sh
vm_host_rounds_ok vm/gamesuite-demo.sh "$hostrounds" || exit 2
case $repeat in ''|*[!0-9]*|0) echo "vm/gamesuite-demo.sh: --repeat needs a positive number, got '$repeat'" >&2; exit 2 ;; esac
for p in lavd framebench gamesuite; do
	[ -x "$B/static/$p" ] || { echo "vm/gamesuite-demo.sh: $B/static/$p missing: run make static" >&2; exit 1; }
done
if [ "$hostrounds" -gt 0 ]; then
	for p in gamesuite framebench tests/jsonget; do
		[ -x "$B/$p" ] || { echo "vm/gamesuite-demo.sh: --host-rounds: $B/$p missing: run make" >&2; exit 1; }
	done
fi
out=${out:-$B/vm/gamesuite-demo}
suite=vm/plans/gamesuite-demo.suite
# the suite rides among the guest's programs (/bin), so it must be executable
mkdir -p "$out" && cp "$suite" "$out/" && chmod +x "$out/gamesuite-demo.suite" || exit 1

# the host's own runs first: the same suite and session, the default only
if [ "$hostrounds" -gt 0 ]; then
	mkdir -p "$out/host" || exit 1
	"$B/gamesuite" run "$suite" --sched eevdf --repeat "$hostrounds" --warmup 1 \
		--duration "$dur" --json "$out/host/gamesuite.json" || exit 1
fi

BUILD=$B vm/run.sh gamesuite-demo --expect gamesuite --timeout 3000 --out "$out" \
	--append "gs.repeat=$repeat gs.duration=$dur gs.ablation=$(echo "$ablation" | tr ' ' ',')" \
	--program "$B/static/lavd" --program "$B/static/framebench" \
	--program "$B/static/gamesuite" --program "$out/gamesuite-demo.suite"
rc=$?
if [ "$hostrounds" -gt 0 ]; then
	echo
	vm/gamesuite-table.sh --suite "$suite" --vm "$out/files/gamesuite.json" \
		--host "$out/host/gamesuite.json" --jsonget "$B/tests/jsonget" || [ $rc -ne 0 ] || rc=1
fi
exit $rc
