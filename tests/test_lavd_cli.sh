#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lavd's command line on the host: usage errors exit 2 naming the option,
# --help/--version exit 0, and on a kernel without sched_ext the loader
# fails cleanly (exit 1) with the message that points to `make vm-demo`.
# The scheduler itself is tested in the VM (vm/test-vm.sh).
. tests/lib.sh
L=$B/lavd
need "$L"

# expect STATUS PATTERN ARGS...: run lavd, check exit status and that its
# output (stdout and stderr) matches the grep pattern.
expect() {
	want=$1 pat=$2
	shift 2
	expect_output "$want" "$pat" "$L" "$@"
}

expect 0 'usage: lavd' --help
expect 0 'usage: lavd' -h
expect 0 '^lavd [0-9]' --version
expect 2 "^lavd: unknown option '--bogus' (see --help)$" --bogus
expect 2 "^lavd: unknown option '--bogus' (see --help)$" --bogus=3
expect 2 "^lavd: unknown option '-Z' (see --help)$" -Z
expect 2 "^lavd: option '--partial' takes no value (see --help)$" --partial=1
expect 2 "^lavd: unexpected argument 'extra' (see --help)$" extra
expect 2 'option --slice-min-us: expected' --slice-min-us 10
expect 2 'option --slice-max-us: expected' --slice-max-us abc
expect 2 'larger than --slice-max-us' --slice-min-us 900 --slice-max-us 800
expect 2 'option --preempt-shift: expected' --preempt-shift 11
expect 2 'option --stats: expected' --stats 0
expect 2 "^lavd: option '--stats' needs a value (see --help)$" --stats
expect 2 'option --monitor: expected' --monitor -1
expect 2 'only watches' --monitor 1 --partial
expect 2 'only watches' --monitor 1 --no-preemption
expect 2 'no scheduler options (got --preempt-shift)' --monitor 1 --preempt-shift 3
expect 2 'no scheduler options (got --slice-min-us)' --slice-min-us 600 --monitor 1
expect 2 'no scheduler options (got --sysfs-root)' --monitor 1 --sysfs-root /tmp
expect 2 'option --pinned-slice-us: expected' --pinned-slice-us -5
expect 2 'option --monitor-sched-samples: expected' --monitor-sched-samples 100000
expect 2 'option --debug-preempt-kick: expected auto, never or always' --debug-preempt-kick sometimes
expect 2 'option --debug-futex-path: expected fexit or tracepoint' --debug-futex-path kprobe

# energy options: one power mode, the profile file, --topology files
# checked before anything is loaded, naming file and line
expect 2 'options --performance and --powersave exclude each other' --performance --powersave
expect 2 'needs --autopower' --power-profile-file /etc/hostname
expect 2 'cannot read /nonexistent/profile' --autopower --power-profile-file /nonexistent/profile
topo=$T/topology
expect 2 'cannot open /nonexistent/topo' --topology /nonexistent/topo
printf 'cpus 0-1 llc 0 capacity 1024 type big\ncpus 2 capacity 5000\n' > "$topo"
expect 2 "$topo:2: capacity: expected 1..1024, got '5000'" --topology "$topo"
printf '# hybrid\ncpus 0 type medium\n' > "$topo"
expect 2 "$topo:2: type: expected big or little, got 'medium'" --topology "$topo"
printf 'cpus 900 llc 0\n' > "$topo"
expect 2 "$topo:1: '900' is not a CPU list" --topology "$topo"
expect 0 'no-futex-boost' --help

# --check --btf FILE: another kernel's BTF, named when unreadable
# (kernels built from lavd's own BTF: tests/test_lavd_kcheck.c)
expect 2 'is read by --check alone .*add --check' --btf /sys/kernel/btf/vmlinux
expect 2 'it takes no --eevdf' --check --eevdf --btf /sys/kernel/btf/vmlinux
expect 2 "/nonexistent/vmlinux" --check --btf /nonexistent/vmlinux
printf 'not BTF\n' > "$T/junk"
expect 0 "^$T/junk: no BTF (.*): lavd cannot load there$" --check --btf "$T/junk"

if [ -d /sys/kernel/sched_ext ]; then
	echo "note: this kernel has sched_ext; the no-sched_ext checks do not apply here"
else
	expect 1 'this kernel has no sched_ext; see `make vm-demo`'
	expect 1 'this kernel has no sched_ext; see `make vm-demo`' --stats 1 --partial
	expect 1 'this kernel has no sched_ext' --monitor 1
	expect 1 'this kernel has no sched_ext' --monitor 1 --monitor-sched-samples 5
	expect 1 'this kernel has no sched_ext' --no-preemption --no-futex-boost --no-slice-boost --pinned-slice-us 0
	expect 1 '`lavd --eevdf` runs lavd.s model on this kernel.s own scheduler instead'
	# --auto takes --eevdf here, with what that refuses
	expect 2 'takes no sched_ext option (got --powersave) (--auto chose --eevdf' --auto --powersave
	expect 0 'lavd --check --eevdf: ' --auto --check
	expect 0 '^this kernel: lavd cannot load here' --check
	expect 0 '^this kernel: sched_ext no' --check
fi
expect 2 '^lavd: --auto chooses --eevdf itself: give one of them$' --auto --eevdf

finish "lavd CLI"
