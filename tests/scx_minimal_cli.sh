#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# scx_minimal's command line on the host (the yardstick of vm/ablation.sh):
# usage errors exit 2 naming the option, --help exits 0, and on a kernel
# without sched_ext either shape fails cleanly (exit 1) saying what it
# needs. Loading it for real is the VM test's yardstick phase.
. tests/lib.sh
M=$B/scx_minimal
need "$M"

# expect STATUS PATTERN ARGS...: scx_minimal's exit status and output
expect() {
	want=$1 pat=$2
	shift 2
	expect_output "$want" "$pat" "$M" "$@"
}

expect 0 '^usage: scx_minimal .*--lavd-shape' --help
# --help is made from the option table (lib/opttab.c): each option listed
expect 0 '^  --slice-us N  *every run.s slice, microseconds (default 20000)$' -h
expect 2 "option --stats: expected an integer in \[1, 3600\], got '0'" -s 0
expect 2 "^scx_minimal: unknown option '--bogus' (see --help)$" --bogus
expect 2 "option --slice-us: expected an integer in \[100, 1000000\], got '5'" --slice-us 5
expect 2 "^scx_minimal: option '--slice-us' needs a value (see --help)$" --slice-us
expect 2 "^scx_minimal: option '--lavd-shape' takes no value (see --help)$" --lavd-shape=1
expect 2 "^scx_minimal: unexpected argument 'extra' (see --help)$" extra
expect 2 'option --stats: expected' --stats 0

if [ -d /sys/kernel/sched_ext ]; then
	echo "note: this kernel has sched_ext; the no-sched_ext checks do not apply here"
else
	expect 1 'cannot load the BPF scheduler: .*a kernel with sched_ext' --stats 1
	expect 1 'cannot load the BPF scheduler: .*a kernel with sched_ext' --lavd-shape --slice-us 5000
fi

finish "scx_minimal CLI"
