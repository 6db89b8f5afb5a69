#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A stand-in sched_ext loader for gamesuite's tests on machines without
# sched_ext: it plays the kernel's part in a fake sched_ext directory that
# gamesuite reads through --sched-ext-root DIR.
#
#   fake-sched.sh DIR OPS MODE [SECONDS]
#
#   ok        enable (state, root/ops, enable_seq), run until SIGINT/SIGTERM,
#             then disable, like a real loader
#   fail      exit 1 before enabling (a verifier rejection)
#   eject     enable, after SECONDS disable and exit 1 (the kernel ejected it)
#   reenable  enable, after SECONDS disable and enable again (enable_seq
#             moves while the loader keeps running)
#   hang      never enable, run until stopped (a loader that never attaches)
dir=$1 ops=$2 mode=$3 secs=${4:-1}
seq=$(cat "$dir/enable_seq" 2>/dev/null || echo 0)

# put FILE TEXT: whole or not at all, as sysfs reads (a plain "echo >"
# truncates first: a reader in between saw an empty enable_seq, took it
# for a re-enable and failed gamesuite_cli.sh once in a fresh chroot)
put() {
	echo "$2" >"$1.tmp.$$" && mv -f "$1.tmp.$$" "$1"
}
# In the order the kernel does it: enable_seq counts up only after the
# state reads "enabled" (gamesuite must not take that for a re-enable).
# (ops_: enable and disable are the names of bash builtins.)
ops_enable() {
	seq=$((seq + 1))
	mkdir -p "$dir/root"
	put "$dir/root/ops" "$ops"
	put "$dir/state" enabled
	sleep 0.2
	put "$dir/enable_seq" "$seq"
}
ops_disable() {
	rm -f "$dir/root/ops"
	put "$dir/state" disabled
}
forever() {
	while :; do sleep 1; done
}

trap 'ops_disable; echo "fake-sched: unregistered from user space"; exit 0' INT TERM
case $mode in
ok) ops_enable; echo "fake-sched: $ops enabled"; forever ;;
fail) echo "fake-sched: failed to load: program rejected by the verifier" >&2
	exit 1 ;;
eject) ops_enable; sleep "$secs"; ops_disable
	echo "fake-sched: EXIT: runnable task stall (kind 1026)" >&2; exit 1 ;;
reenable) ops_enable; sleep "$secs"; ops_disable; ops_enable; forever ;;
hang) trap 'exit 0' INT TERM; forever ;;
*) echo "fake-sched: unknown mode '$mode'" >&2; exit 2 ;;
esac
