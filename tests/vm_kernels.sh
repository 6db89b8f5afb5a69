#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel matrix's host side (no VM, no build, no download): a kernel
# without sched_ext is a named skip, an unknown self-built kernel says how
# to build it, and the kernel build's config check names each option the
# fragment needs that a config lacks.
. tests/lib.sh
cache=$T/cache
mkdir -p "$cache/kernel/6.12.1+test-cloud-amd64"
k=$cache/kernel/6.12.1+test-cloud-amd64
echo "not a kernel" > "$k/vmlinuz"
printf 'CONFIG_BPF=y\n# CONFIG_SCHED_CLASS_EXT is not set\n' > "$k/config"
GAMESCHED_CACHE=$cache GAMESCHED_KERNEL=6.12.1+test-cloud-amd64 vm/kernel.sh fetch > "$T/out" 2>&1
rc=$?
[ $rc -eq 3 ] && grep -q 'CONFIG_SCHED_CLASS_EXT is not set' "$T/out" &&
	pass "vm/kernel.sh: a kernel without sched_ext exits 3 naming the option" ||
	fail "kernel.sh fetch: rc $rc, $(cat "$T/out")"
GAMESCHED_CACHE=$cache BUILD=$B vm/kernels.sh --out "$T/k" 6.12.1+test-cloud-amd64 > "$T/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q 'SKIP: 6.12.1+test-cloud-amd64: CONFIG_SCHED_CLASS_EXT is not set' "$T/out" &&
	grep -q '^| 6.12.1+test-cloud-amd64 | .* | no sched_ext | skipped | skipped |$' "$T/out" &&
	pass "vm/kernels.sh: the kernel is a named skip, exit 0, with its table row" ||
	fail "kernels.sh: rc $rc, $(cat "$T/out")"
# a kernel chosen for one run (cached) does not become the default
mkdir -p "$cache/kernel/7.0.1+test"
for f in vmlinuz vmlinux; do echo x > "$cache/kernel/7.0.1+test/$f"; done
echo 'CONFIG_SCHED_CLASS_EXT=y' > "$cache/kernel/7.0.1+test/config"
GAMESCHED_CACHE=$cache GAMESCHED_KERNEL=7.0.1+test vm/kernel.sh fetch > "$T/out" 2>&1 &&
	[ ! -e "$cache/kernel/current" ] &&
	pass "vm/kernel.sh: GAMESCHED_KERNEL's kernel is used, not made the default" ||
	fail "kernel.sh fetch 7.0.1+test: $(cat "$T/out"); current: $(cat "$cache/kernel/current" 2>&1)"
# lavd --check --btf decides before a boot: a vmlinux without BTF is
# refused, named, and not booted
GAMESCHED_CACHE=$cache BUILD=$B vm/kernels.sh --out "$T/k" 7.0.1+test > "$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'FAIL: lavd --check: cannot load: no BTF' "$T/out" &&
	grep -q '^| 7.0.1+test | .* | cannot load: no BTF .* | not booted | not booted |$' "$T/out" &&
	pass "vm/kernels.sh: a kernel lavd --check refuses is named and not booted" ||
	fail "kernels.sh on a kernel without BTF: rc $rc, $(cat "$T/out")"
GAMESCHED_CACHE=$cache GAMESCHED_KERNEL=6.12.2-gamesched vm/kernel.sh fetch > "$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '6.12.2-gamesched is not in .*: build it with vm/kernel-build.sh' "$T/out" &&
	pass "vm/kernel.sh: a self-built kernel that is missing says how to build it" ||
	fail "kernel.sh fetch gamesched: rc $rc, $(cat "$T/out")"
vm/kernels.sh --plans test,bogus 7.3.4+deb13-cloud-amd64 > "$T/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "plans: 'bogus' is not test or topo" "$T/out" &&
	pass "vm/kernels.sh --plans bogus: exit 2 naming it" || fail "kernels.sh --plans: rc $rc, $(cat "$T/out")"
# the build's config check: the fragment's options, and one missing
grep -E '^CONFIG_[A-Z0-9_]+=y$' vm/kconfig/sched-ext.config > "$T/good.config"
vm/kernel-build.sh --check-config "$T/good.config" > "$T/out" 2>&1 &&
	pass "kernel-build --check-config: a config with every option passes" ||
	fail "check-config good: $(cat "$T/out")"
grep -v '^CONFIG_SCHED_CLASS_EXT=y$' "$T/good.config" > "$T/bad.config"
echo 'CONFIG_MODULES=y' >> "$T/bad.config"
vm/kernel-build.sh --check-config "$T/bad.config" > "$T/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'cannot set: CONFIG_SCHED_CLASS_EXT CONFIG_MODULES(=n)' "$T/out" &&
	pass "kernel-build --check-config: exit 2 naming CONFIG_SCHED_CLASS_EXT and CONFIG_MODULES" ||
	fail "check-config bad: rc $rc, $(cat "$T/out")"
vm/kernel-build.sh --series 6.x > "$T/out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "series '6.x'" "$T/out" && pass "kernel-build --series 6.x: exit 2" ||
	fail "kernel-build --series: rc $rc, $(cat "$T/out")"
finish "VM kernels"
