#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `make test`'s VM tests: build the static binaries and run one plan in
# one boot of the sched_ext kernel. Exits 77 with the reason as its last
# line when qemu or the kernel is missing.
#
#   vm/test-vm.sh        the vm-test plan (vm/plans/test.sh), -smp 2
#   vm/test-vm.sh topo   the topology plan (vm/plans/topo.sh: domains, energy) on
#                        a shaped machine: 4 vCPUs as 2 sockets x 2 cores,
#                        one NUMA node per socket (the emulated CPU's L3
#                        is per socket), so lavd sees two compute domains
set -u
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	echo "skipped: qemu-system-x86_64 is not installed (run scripts/deps.sh)"
	exit 77
fi
if ! vm/kernel.sh dir >/dev/null 2>&1; then
	echo "skipped: the sched_ext kernel is not fetched (run scripts/deps.sh or vm/kernel.sh fetch)"
	exit 77
fi
make -s BUILD="$B" static >/dev/null || { echo "FAIL: make static"; exit 1; }
case ${1:-test} in
test)
	# 900 s: the whole boot took 283-392 s (CI: 392 s), 20 loads of
	# ~155 000 verified instructions each 43-161 s of it, on shared 2-core
	# machines; a slower CI machine must not fail on time alone
	BUILD=$B exec vm/run.sh test --timeout 900 \
		--expect "load run unload verifier sigterm watchdog cycles hotplug errors futex preempt features churn yardstick eevdf" ;;
topo)
	BUILD=$B exec vm/run.sh topo --expect "domains compact hybrid autopower" --shape 2x2 ;;
*)
	echo "vm/test-vm.sh: unknown plan '$1' (test or topo)" >&2
	exit 2 ;;
esac
