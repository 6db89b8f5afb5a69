#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lavd on the kernels players run: `make vm-test` and `make vm-test-topo`
# (lavd --eevdf is vm-test's eevdf phase) booted on each kernel named, one
# after another, and one table row per kernel for docs/vm.md. First
# `lavd --check --btf` reads the kernel's BTF: a kernel lavd cannot load
# on is not booted (--boot-anyway boots it). A kernel without sched_ext,
# or whose build left the implicit 'aux' argument in kfunc prototypes
# (lavd --check names them; no sched_ext program calling them loads),
# is a named skip, not a failure; any other reason the check gives is a
# failure. Not part of `make test` (about 7 minutes a kernel under TCG).
#
#   vm/kernels.sh [--plans test,topo] [--boot-anyway] [--out DIR] KERNEL...
# KERNEL: a Debian release vm/kernel.sh can fetch (7.3.4+deb13-cloud-amd64,
# 7.2.12+deb13-cloud-amd64, 6.12.95+deb12-cloud-amd64, ...) or one that
# vm/kernel-build.sh built into the cache (6.12.118-gamesched).
# Exit status: 0 every kernel passed or was skipped, 1 a test failed (or
# lavd --check refused a kernel for a reason other than its build),
# 2 bad usage.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${BUILD:-build}
plans=test,topo out=$B/vm/kernels anyway=0
while [ $# -gt 0 ]; do
	case $1 in
	--plans) [ $# -ge 2 ] || { echo "vm/kernels.sh: --plans needs a list" >&2; exit 2; }; plans=$2; shift 2 ;;
	--boot-anyway) anyway=1; shift ;;
	--out) [ $# -ge 2 ] || { echo "vm/kernels.sh: --out needs a directory" >&2; exit 2; }; out=$2; shift 2 ;;
	-h|--help) sed -n '3,21p' "$0"; exit 0 ;;
	-*) echo "vm/kernels.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: vm/kernels.sh [--plans test,topo] [--boot-anyway] [--out DIR] KERNEL..." >&2; exit 2; }
[ -x "$B/lavd" ] || { echo "vm/kernels.sh: $B/lavd missing: run make" >&2; exit 2; }
for p in $(echo "$plans" | tr ',' ' '); do
	case $p in test|topo) ;; *) echo "vm/kernels.sh: --plans: '$p' is not test or topo" >&2; exit 2 ;; esac
done
mkdir -p "$out"
rows=$out/rows.md
: > "$rows"
failed=0
# source KVER: where the kernel came from, for the table
source_of() {
	d=$(GAMESCHED_KERNEL=$1 vm/kernel.sh dir 2>/dev/null) || { echo "?"; return; }
	if [ -f "$d/BUILDINFO" ]; then
		sed -n 's/^source: \(.*\) (Debian)/built by vm\/kernel-build.sh from \1/p' "$d/BUILDINFO"
	else
		echo "Debian package (apt)"
	fi
}
for k in "$@"; do
	echo "== kernel $k"
	GAMESCHED_KERNEL=$k vm/kernel.sh fetch > "$out/$k.fetch" 2>&1
	frc=$?
	if [ $frc -eq 3 ]; then
		why=$(tail -n 1 "$out/$k.fetch" | sed 's/^vm\/kernel.sh: //')
		echo "   SKIP: $why"
		echo "| $k | Debian package (apt) | $(date -u +%Y-%m-%d) | no sched_ext | skipped | skipped |" >> "$rows"
		continue
	fi
	if [ $frc -ne 0 ]; then
		echo "   FAIL: could not fetch: $(tail -n 1 "$out/$k.fetch")"
		echo "| $k | ? | $(date -u +%Y-%m-%d) | not fetched | not fetched | not fetched |" >> "$rows"
		failed=1
		continue
	fi
	# could lavd load there? its BTF says, before a boot is spent on it
	kdir=$(GAMESCHED_KERNEL=$k vm/kernel.sh dir 2>/dev/null)
	"$B/lavd" --check --btf "$kdir/vmlinux" > "$out/$k.check" 2>&1
	if grep -q ': lavd can load there$' "$out/$k.check"; then
		check="can load"
	else
		names=$(grep -o "[a-z_0-9]* (takes [0-9]*" "$out/$k.check" | sed 's/ (takes.*//' | tr '\n' ' ' | sed 's/ $//')
		why=$(grep -v '^lavd --check\|^profile ' "$out/$k.check" | sed 's/^[^:]*: //' |
			grep -v '^lavd cannot load there$\|^guarded kfuncs\|^BTF yes, struct sched_ext_ops yes$' |
			tr '\n' ';' | sed 's/;$//' | cut -c1-300)
		if grep -q "implicit 'aux' argument" "$out/$k.check"; then
			check="cannot load: its build left the implicit 'aux' in the prototype of $names"
			skip=1
		else
			check="cannot load: $why"
			skip=0
		fi
		if [ $anyway -eq 0 ]; then
			echo "   $([ $skip -eq 1 ] && echo SKIP || echo FAIL): lavd --check: $check"
			[ $skip -eq 1 ] || failed=1
			echo "| $k | $(source_of "$k") | $(date -u +%Y-%m-%d) | $check | not booted | not booted |" >> "$rows"
			continue
		fi
	fi
	echo "   lavd --check: $check"
	cells=" | $check"
	for p in test topo; do
		case ",$plans," in *",$p,"*) ;; *) cells="$cells | not run"; continue ;; esac
		log=$out/$k.$p.log
		t0=$(date +%s)
		BUILD=$B GAMESCHED_KERNEL=$k vm/test-vm.sh "$p" > "$log" 2>&1
		rc=$?
		secs=$(( $(date +%s) - t0 ))
		verdict=$(grep '^vm: ' "$log" | tail -n 1)
		case $rc in
		0) cells="$cells | PASS ($secs s)" ;;
		77) cells="$cells | skipped: $(tail -n 1 "$log")" ;;
		*) fails=$(grep -o 'phase(s) failed: [^;]*' "$log" | head -n 1)
		   cells="$cells | FAIL${fails:+: $fails}"; failed=1 ;;
		esac
		echo "   $p: ${verdict:-exit $rc}"
	done
	echo "| $k | $(source_of "$k") | $(date -u +%Y-%m-%d)$cells |" >> "$rows"
done
echo
echo "| kernel | from | date | lavd --check | vm-test | vm-test-topo |"
echo "|---|---|---|---|---|---|"
cat "$rows"
exit $failed
