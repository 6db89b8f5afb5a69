#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Test runner: runs each test program (cmocka binaries, or *.sh scripts run
# with sh from the repository root), each bounded by a timeout, and ends
# with one summary line. Exit status 77 from a test means "skipped" (the
# automake convention), e.g. when the machine lacks qemu or BPF privileges;
# the reason is the test's last output line.
#
#   tests/run.sh TEST...         TEST_TIMEOUT=seconds (default 900)
#
# Shell tests source tests/lib.sh (their shared helpers).
set -u

cd "$(dirname "$0")/.." || exit 1
timeout_s=${TEST_TIMEOUT:-900}
pass=0 fail=0 skip=0 failed="" skipped=""
logdir=${BUILD:-build}/test-logs
mkdir -p "$logdir"

ntests=0
for t in "$@"; do
	name=$(basename "$t")
	# the runner and the library the shell tests source are no tests
	case "$t" in
	*tests/run.sh|*tests/lib.sh) continue ;;
	esac
	ntests=$((ntests + 1))
	log=$logdir/$name.log
	start=$(date +%s)
	case "$t" in
	*.sh) timeout -k 10 "$timeout_s" sh "$t" >"$log" 2>&1 ;;
	*) timeout -k 10 "$timeout_s" "$t" >"$log" 2>&1 ;;
	esac
	rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0) pass=$((pass + 1)); status=PASS ;;
	77) skip=$((skip + 1)); status=SKIP; skipped="$skipped $name" ;;
	124|137) fail=$((fail + 1)); status="FAIL (timeout ${timeout_s}s)"; failed="$failed $name" ;;
	*) fail=$((fail + 1)); status="FAIL (exit $rc)"; failed="$failed $name" ;;
	esac
	printf '%-6s %-34s %4ss\n' "$status" "$name" "$secs"
	case $status in
	PASS) grep -E '^\[  PASSED  \]' "$log" | sed 's/^/       /' ;;
	SKIP) tail -n 1 "$log" | sed 's/^/       skipped: /' ;;
	*) echo "------- output of $name (last 60 lines; full log $log) -------"
	   tail -n 60 "$log"
	   echo "------- end of $name -------" ;;
	esac
done

echo "== summary: $pass passed, $fail failed, $skip skipped (of $ntests) =="
[ -z "$skipped" ] || echo "== skipped:$skipped"
[ -z "$failed" ] || echo "== failed:$failed"
[ $fail -eq 0 ]
