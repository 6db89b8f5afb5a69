#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# `make test`'s VM test: builds the static binaries and runs the vm-test
# plan (vm/plans/test.sh) in one boot of the sched_ext kernel. Exits 77
# with the reason as its last line when qemu or the kernel is missing.
set -u
cd "$(dirname "$0")/.."
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
BUILD=$B exec vm/run.sh test --expect "load run unload watchdog cycles hotplug errors futex preempt features churn"
