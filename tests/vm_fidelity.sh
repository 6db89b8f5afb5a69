#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The VM harness's host side without booting: vm/mode.sh picks the mode
# and says why when it falls back (a fake qemu reports its version);
# vm/fidelity.sh refuses bad options with status 2 before any run;
# vm/fidelity-table.sh computes the VM/host ratios of a made-up round
# (ratios, spreads, the left-out and failed runs, a dilated run's CPU per
# frame). Runs in a second.
. tests/lib.sh
J=$B/tests/jsonget
need "$J"

# ---- vm/mode.sh -----------------------------------------------------------
fake_qemu() {
	printf '#!/bin/sh\necho "QEMU emulator version %s (fake)"\n' "$1" > "$T/qemu-$1"
	chmod +x "$T/qemu-$1"
}
fake_qemu 7.2.22
fake_qemu 10.0.2
hostcpus=$(getconf _NPROCESSORS_ONLN)
# resolve QEMU REQUEST SMP: the mode on stdout, the explanation in $T/why
resolve() {
	VM_QEMU=$T/qemu-$1 sh -c '. vm/mode.sh; vm_resolve_tcg "$1" "$2"' _ "$2" "$3" 2>"$T/why"
}
[ "$(resolve 10.0.2 auto "$hostcpus")" = multi ] || fail "qemu 10, a host CPU per vCPU: not multi ($(cat "$T/why"))"
[ ! -s "$T/why" ] || fail "qemu 10, auto, multi: said something: $(cat "$T/why")"
[ "$(resolve 7.2.22 auto 2)" = single ] || fail "qemu 7.2, auto: not single"
grep -q "qemu 7.2.22 is older than 10.0: falling back to TCG thread=single" "$T/why" ||
	fail "qemu 7.2 fallback not explained: $(cat "$T/why")"
[ "$(resolve 10.0.2 auto "$((hostcpus + 1)),sockets=1")" = single ] || fail "more vCPUs than host CPUs: not single"
grep -q "the host has $hostcpus CPUs for $((hostcpus + 1)) vCPUs: falling back" "$T/why" ||
	fail "too few host CPUs not explained: $(cat "$T/why")"
[ "$(resolve 7.2.22 multi 2)" = multi ] || fail "an explicit multi on qemu 7.2 was not kept"
grep -q "a panic is retried once under thread=single" "$T/why" || fail "multi on 7.2: no warning"
[ "$(resolve 10.0.2 single 2)" = single ] || fail "an explicit single was not kept"
resolve 10.0.2 sideways 2 >/dev/null && fail "--tcg sideways accepted"
grep -q "must be single, multi or auto, got 'sideways'" "$T/why" || fail "bad --tcg: $(cat "$T/why")"
desc=$(VM_QEMU=$T/qemu-10.0.2 VM_CPU=EPYC VM_APPEND=mitigations=off VM_PIN=1 sh -c '. vm/mode.sh; vm_mode_desc multi')
[ "$desc" = "qemu 10.0.2 TCG thread=multi -cpu EPYC, guest mitigations=off, vCPUs pinned" ] ||
	fail "mode in words: '$desc'"

# ---- vm/fidelity.sh: refusals before any run --------------------------------
expect_exit 2 "--rounds needs a positive number, got '0'" vm/fidelity.sh --rounds 0
expect_exit 2 "--tolerance needs a whole percentage, got 'x'" vm/fidelity.sh --tolerance x
expect_exit 2 "unknown option --frob" vm/fidelity.sh --frob
expect_exit 2 "vm/fidelity.sh: --host-cpus 999: taskset" vm/fidelity.sh --host-cpus 999
expect_exit 2 "vm/limit.sh: --calibration: expected auto, host, mode or loops per us, got 'x'" vm/limit.sh --calibration x
expect_exit 2 "vm/ablation.sh: --calibration: expected auto, host, mode or loops per us" vm/ablation.sh --calibration 1x
if [ -x "$B/static/framebench" ] && [ -x "$B/framebench" ]; then
	expect_exit 2 "--profiles: framebench knows no profile 'nosuch'" vm/fidelity.sh --profiles nosuch --out "$T/o"
	expect_exit 2 "--dilate 7: framebench: option --dilate: proton's 60 FPS divided by 7" \
		vm/fidelity.sh --profiles proton --dilate 7 --out "$T/o"
fi

# ---- vm/fidelity-table.sh on a made-up round --------------------------------
# run JSON: avg low1 p99 game_cpu_s frames dilate [work]
mkrun() {
	work=null
	[ -n "${8:-}" ] && work=$8
	mkdir -p "$(dirname "$1")"
	printf '{"avg_fps": %s, "low1_percentile_fps": %s, "frametime_ms": {"p99": %s}, "game_cpu_s": %s, "frames": %s, "config": {"dilate": %s}, "background": [{"work_per_s": %s}]}\n' \
		"$2" "$3" "$4" "$5" "$6" "$7" "$work" > "$1"
}
O=$T/fid
mkrun "$O/host/run-1-proton.0.json" 60 50 20 10 600 1
mkrun "$O/host/run-2-proton.0.json" 60 50 20 10 600 1
mkrun "$O/host/run-1-proton.1.json" 60 40 25 10 600 1 1.2
mkrun "$O/host/run-2-proton.1.json" 60 40 25 10 600 1 1.2
mkrun "$O/vm-1/files/run-1-proton.0.json" 57 45 22 24 600 2
mkrun "$O/vm-2/files/run-2-proton.0.json" 57 45 22 24 600 2
mkrun "$O/vm-1/files/run-1-proton.1.json" 30 20 50 12 600 1 0.6
mkrun "$O/vm-2/files/run-2-proton.1.json" 90 20 50 12 600 1 0.6
printf '1 0.1 1 proton.0\n1 0.1 1 proton.1\n' > "$O/host/host-load.txt"
printf '1 0.9 2 proton.1\n' > "$O/vm-2/host-load.txt"	# disturbed: left out
printf '@@GS RUN-FAIL 1 esports.0 framebench exit 1\n' > "$O/vm-1/results.txt"
vm/fidelity-table.sh --out "$O" --jsonget "$J" --title test >"$T/table" 2>&1 || fail "fidelity-table exit $?"
row() { grep -A7 "^   $1 " "$T/table" | grep "$2" | head -n 1; }
grep -q "no bg      runs kept: host 2, VM 2" "$T/table" || fail "no-bg runs kept: $(grep 'no bg' "$T/table")"
grep -q "with bg    runs kept: host 2, VM 1" "$T/table" || fail "the disturbed VM run was not left out"
row proton "average FPS" | grep -q "60.00 +- 0.00 *57.00 +- 0.00 *0.95 +- 0.00 *ok" || fail "avg: $(row proton 'average FPS')"
row proton "1 % low FPS" | grep -q "0.90 +- 0.00 *ok" || fail "low1: $(row proton '1 % low FPS')"
# the dilated VM run: 24 s of CPU / 600 frames / K 2 = 20 ms against 16.67
row proton "game CPU" | grep -q "16.67 +- 0.00 *20.00 +- 0.00 *1.20 +- 0.00 *(OFF)" || fail "cpu/frame: $(row proton 'game CPU')"
grep -q "bg work/s (1 = a CPU)    1.20 +- 0.00       0.60 +- 0.00       0.50 +- 0.00    OFF" "$T/table" ||
	fail "work: $(grep 'bg work' "$T/table")"
grep -q "goal .*: 2 of 5 met" "$T/table" || fail "goal count: $(grep goal "$T/table")"
grep -q "left out: host 0 of 4 runs, VM 1 of 4 .* VM runs failed: 1" "$T/table" || fail "left-out line: $(grep 'left out' "$T/table")"
grep -q "VM run 1 esports.0 failed: framebench exit 1" "$T/table" || fail "the failed run is not named"
finish "vm fidelity (host side)"
