#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Packs the VM harness's initramfs: static busybox, the given static
# programs (into /bin), /init (vm/init.sh), the guest helpers and a test
# plan (as /plan.sh). No host cpio needed: busybox packs it.
#
#   vm/mkinitramfs.sh OUT.cpio.gz PLAN.sh [PROGRAM...]
set -eu

[ $# -ge 2 ] || { echo "usage: vm/mkinitramfs.sh OUT.cpio.gz PLAN.sh [PROGRAM...]" >&2; exit 2; }
out=$1 plan=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)

busybox=$(command -v busybox || true)
[ -n "$busybox" ] || { echo "vm/mkinitramfs.sh: busybox missing: run scripts/deps.sh" >&2; exit 1; }
if ! file -L "$busybox" 2>/dev/null | grep -q 'statically linked'; then
	echo "vm/mkinitramfs.sh: $busybox is not static (install busybox-static)" >&2
	exit 1
fi
[ -f "$plan" ] || { echo "vm/mkinitramfs.sh: no plan $plan" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"	# mktemp's 0700 would become the guest's /
mkdir -p "$stage/bin" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp" "$stage/root" "$stage/etc"
echo 'root:x:0:0:root:/root:/bin/sh' > "$stage/etc/passwd"
echo 'root:x:0:' > "$stage/etc/group"
cp "$busybox" "$stage/bin/busybox"
cp "$here/init.sh" "$stage/init"
cp "$here/guest-lib.sh" "$stage/guest-lib.sh"
cp "$plan" "$stage/plan.sh"
chmod 755 "$stage/init"
for p in "$@"; do
	[ -x "$p" ] || { echo "vm/mkinitramfs.sh: $p is missing or not executable" >&2; exit 1; }
	if file -L "$p" | grep -q 'dynamically linked'; then
		echo "vm/mkinitramfs.sh: $p is dynamically linked (build it with make static)" >&2
		exit 1
	fi
	cp "$p" "$stage/bin/"
done
mkdir -p "$(dirname "$out")"
(cd "$stage" && find . | busybox cpio -o -H newc -R 0:0 2>/dev/null) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
