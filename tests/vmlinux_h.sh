#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The committed lib/vmlinux/vmlinux.h, which every build compiles the BPF
# programs against (docs/install.md), is what `make vmlinux-h` makes from
# the pinned kernel: regenerated from the cached kernel into a temporary
# file, it is the same byte for byte. Skipped (77) without the cached
# kernel (scripts/deps.sh fetches it) or bpftool.
. tests/lib.sh
H=lib/vmlinux/vmlinux.h
[ -s "$H" ] || { echo "FAIL: $H missing"; exit 1; }
command -v bpftool >/dev/null 2>&1 || skip "no bpftool (scripts/deps.sh installs it)"
# the pinned kernel, not one GAMESCHED_KERNEL names
unset GAMESCHED_KERNEL
kdir=$(vm/kernel.sh dir 2>&1) || skip "no cached sched_ext kernel: $kdir"
pinned=$(sed -n 's/^PINNED_KVER=//p' vm/kernel.sh)
[ "${kdir##*/}" = "$pinned" ] || skip "the cached kernel is ${kdir##*/}, not the pinned $pinned"
vm/kernel.sh vmlinux-h "$T/vmlinux.h" > "$T/out" 2>&1 || { cat "$T/out"; echo "FAIL: vm/kernel.sh vmlinux-h"; exit 1; }
if cmp -s "$H" "$T/vmlinux.h"; then
	pass "$H is the BTF of the pinned kernel $pinned ($(wc -c < "$H") bytes)"
else
	fail "$H differs from the pinned kernel's BTF ($(cmp "$H" "$T/vmlinux.h" 2>&1)): run make vmlinux-h and commit it"
fi
grep -q "sched_ext kernel $pinned," "$H" || fail "$H does not name the pinned kernel $pinned in its first lines"
grep -q 'struct sched_ext_ops {' "$H" || fail "$H has no struct sched_ext_ops"
finish vmlinux_h
