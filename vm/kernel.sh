#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The sched_ext kernel the VM harness boots and the BPF code is built
# against: Debian trixie-backports' cloud kernel, pinned so results stay
# comparable. Downloads are cached outside the repository.
#
#   vm/kernel.sh fetch         download and unpack (no-op when cached)
#   vm/kernel.sh dir           print the unpacked kernel directory
#   vm/kernel.sh vmlinux-h OUT generate vmlinux.h from the kernel's BTF
#
# Environment: GAMESCHED_CACHE (default ~/.cache/gamesched),
# GAMESCHED_KERNEL (a kernel release to use instead of the pinned one).
set -eu

PINNED_KVER=7.3.4+deb13-cloud-amd64
CACHE=${GAMESCHED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gamesched}
KROOT=$CACHE/kernel

die() { echo "vm/kernel.sh: $*" >&2; exit 1; }

# The release in use: an explicit choice, the pinned one if cached or
# still downloadable, else the fallback recorded by an earlier fetch.
current_kver() {
	if [ -n "${GAMESCHED_KERNEL:-}" ]; then echo "$GAMESCHED_KERNEL"; return; fi
	if [ -f "$KROOT/$PINNED_KVER/vmlinuz" ]; then echo "$PINNED_KVER"; return; fi
	if [ -f "$KROOT/current" ]; then cat "$KROOT/current"; return; fi
	echo "$PINNED_KVER"
}

# Newest trixie-backports cloud kernel whose config enables sched_ext.
fallback_kver() {
	apt-cache search --names-only '^linux-binary-[0-9.]+\+deb13-cloud-amd64$' 2>/dev/null |
		sed -n 's/^linux-binary-\([^ ]*\) .*/\1/p' | sort -V -r |
		while read -r v; do
			tmp=$(mktemp -d)
			if (cd "$tmp" && apt-get download -q -t trixie-backports "linux-base-$v" >/dev/null 2>&1) &&
			   dpkg-deb --fsys-tarfile "$tmp"/linux-base-*.deb |
			   tar -xO "./usr/lib/modules/$v/config" 2>/dev/null | grep -q '^CONFIG_SCHED_CLASS_EXT=y'; then
				rm -rf "$tmp"; echo "$v"; return 0
			fi
			rm -rf "$tmp"
		done
}

fetch_one() {
	kver=$1
	dest=$KROOT/$kver
	[ -f "$dest/vmlinuz" ] && [ -f "$dest/vmlinux" ] && return 0
	mkdir -p "$dest/deb"
	(cd "$dest/deb" && apt-get download -q -t trixie-backports \
		"linux-binary-$kver" "linux-base-$kver") >/dev/null 2>&1 || return 1
	rm -rf "$dest/x"
	for d in "$dest"/deb/*.deb; do dpkg-deb -x "$d" "$dest/x"; done
	m=$dest/x/usr/lib/modules/$kver
	[ -f "$m/vmlinuz" ] || die "linux-binary-$kver has no vmlinuz"
	cp "$m/vmlinuz" "$m/config" "$dest/"
	[ -f "$m/System.map" ] && cp "$m/System.map" "$dest/"
	grep -q '^CONFIG_SCHED_CLASS_EXT=y' "$dest/config" ||
		die "$kver: CONFIG_SCHED_CLASS_EXT is not set"
	# vmlinuz is a bzImage with a zstd payload: decompress from the first
	# zstd frame magic. zstd complains about the trailing bytes, so judge
	# the result by its ELF header instead of the exit status.
	off=$(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$dest/vmlinuz" | head -n 1 | cut -d: -f1)
	[ -n "$off" ] || die "no zstd payload in $dest/vmlinuz"
	tail -c +$((off + 1)) "$dest/vmlinuz" | zstd -dcq 2>/dev/null > "$dest/vmlinux.tmp" || true
	[ "$(head -c 4 "$dest/vmlinux.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] ||
		die "decompressed payload of $dest/vmlinuz is not an ELF file"
	mv "$dest/vmlinux.tmp" "$dest/vmlinux"
	rm -rf "$dest/x" "$dest/deb"
	echo "$kver" > "$dest/release"
}

cmd_fetch() {
	command -v zstd >/dev/null || die "zstd missing: run scripts/deps.sh"
	kver=$(current_kver)
	if fetch_one "$kver"; then
		echo "$kver" > "$KROOT/current"
		echo "kernel $kver ready in $KROOT/$kver"
		return 0
	fi
	[ -n "${GAMESCHED_KERNEL:-}" ] && die "cannot download linux-binary-$kver from trixie-backports"
	echo "vm/kernel.sh: WARNING: pinned kernel $kver is no longer in trixie-backports;" >&2
	fb=$(fallback_kver)
	[ -n "$fb" ] || die "no trixie-backports cloud kernel with CONFIG_SCHED_CLASS_EXT=y found (apt-get update?)"
	echo "vm/kernel.sh: WARNING: falling back to $fb; results are not comparable with $PINNED_KVER" >&2
	fetch_one "$fb" || die "cannot download linux-binary-$fb"
	echo "$fb" > "$KROOT/current"
	echo "kernel $fb ready in $KROOT/$fb (FALLBACK, not the pinned $PINNED_KVER)"
}

cmd_dir() {
	kver=$(current_kver)
	[ -f "$KROOT/$kver/vmlinux" ] || die "kernel $kver not fetched: run scripts/deps.sh (or vm/kernel.sh fetch)"
	echo "$KROOT/$kver"
}

cmd_vmlinux_h() {
	out=$1
	dir=$(cmd_dir)
	command -v bpftool >/dev/null || die "bpftool missing: run scripts/deps.sh"
	mkdir -p "$(dirname "$out")"
	bpftool btf dump file "$dir/vmlinux" format c > "$out.tmp" || die "bpftool btf dump failed on $dir/vmlinux"
	mv "$out.tmp" "$out"
}

mkdir -p "$KROOT"
case "${1:-}" in
fetch) cmd_fetch ;;
dir) cmd_dir ;;
vmlinux-h) [ $# -eq 2 ] || die "usage: vm/kernel.sh vmlinux-h OUT"; cmd_vmlinux_h "$2" ;;
*) echo "usage: vm/kernel.sh fetch | dir | vmlinux-h OUT" >&2; exit 2 ;;
esac
