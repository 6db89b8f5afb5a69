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
#                              (`make vmlinux-h`: the committed
#                              lib/vmlinux/vmlinux.h the build uses)
#
# Environment: GAMESCHED_CACHE (default ~/.cache/gamesched),
# GAMESCHED_KERNEL (a kernel release to use instead of the pinned one:
# another Debian release, packaged as linux-binary-/linux-base- (7.x) or
# linux-image- (6.12), or one vm/kernel-build.sh built into the cache).
# Exit status: 0 ready, 1 a download or unpack failed, 2 bad usage,
# 3 the kernel has no sched_ext (CONFIG_SCHED_CLASS_EXT is not set; with no
# packaged config: no struct sched_ext_ops in its BTF).
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

# unpack_debs KVER DEST: the kernel, config and System.map of a release
# from its Debian packages: linux-binary + linux-base (trixie's 7.x
# packaging, files in usr/lib/modules/KVER), linux-binary alone (releases
# whose linux-base left the archive: vmlinuz in boot/, no config) or
# linux-image (6.18 and before, files in boot/)
unpack_debs() {
	kver=$1 dest=$2
	case $kver in *-gamesched) return 1 ;; esac	# built here, never packaged
	mkdir -p "$dest/deb"
	if ! (cd "$dest/deb" && apt-get download -q -t trixie-backports \
		"linux-binary-$kver" "linux-base-$kver") >/dev/null 2>&1; then
		rm -f "$dest"/deb/*.deb
		(cd "$dest/deb" && apt-get download -q "linux-image-$kver") >/dev/null 2>&1 || return 1
		# a linux-image that is only a meta package: its linux-binary
		dpkg-deb -c "$dest"/deb/*.deb | grep -q 'vmlinuz' ||
			(cd "$dest/deb" && apt-get download -q "linux-binary-$kver") >/dev/null 2>&1 || return 1
	fi
	rm -rf "$dest/x"
	for d in "$dest"/deb/*.deb; do dpkg-deb -x "$d" "$dest/x"; done
	m=$dest/x/usr/lib/modules/$kver
	if [ -f "$m/vmlinuz" ]; then
		cp "$m/vmlinuz" "$m/config" "$dest/"
		[ -f "$m/System.map" ] && cp "$m/System.map" "$dest/"
	elif [ -f "$dest/x/boot/vmlinuz-$kver" ]; then
		cp "$dest/x/boot/vmlinuz-$kver" "$dest/vmlinuz"
		[ -f "$dest/x/boot/config-$kver" ] && cp "$dest/x/boot/config-$kver" "$dest/config"
		[ -f "$dest/x/boot/System.map-$kver" ] && cp "$dest/x/boot/System.map-$kver" "$dest/System.map"
	else
		die "the packages of $kver hold no vmlinuz"
	fi
	rm -rf "$dest/x" "$dest/deb"
}

# no_sched_ext KVER WHY: the named skip (exit 3) of a kernel without sched_ext
no_sched_ext() {
	echo "vm/kernel.sh: $1: $2 (no sched_ext)" >&2
	exit 3
}

fetch_one() {
	kver=$1
	dest=$KROOT/$kver
	[ -f "$dest/vmlinuz" ] && [ -f "$dest/vmlinux" ] && return 0
	[ -f "$dest/vmlinuz" ] || unpack_debs "$kver" "$dest" || return 1
	if [ -f "$dest/config" ] && ! grep -q '^CONFIG_SCHED_CLASS_EXT=y' "$dest/config"; then
		no_sched_ext "$kver" "CONFIG_SCHED_CLASS_EXT is not set"
	fi
	# vmlinuz is a bzImage with a zstd payload: decompress from the first
	# zstd frame magic. zstd complains about the trailing bytes, so judge
	# the result by its ELF header instead of the exit status.
	off=$(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$dest/vmlinuz" | head -n 1 | cut -d: -f1)
	[ -n "$off" ] || die "no zstd payload in $dest/vmlinuz"
	tail -c +$((off + 1)) "$dest/vmlinuz" | zstd -dcq 2>/dev/null > "$dest/vmlinux.tmp" || true
	[ "$(head -c 4 "$dest/vmlinux.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] ||
		die "decompressed payload of $dest/vmlinuz is not an ELF file"
	# no packaged config (linux-binary alone): the kernel's BTF decides
	if [ ! -f "$dest/config" ] && ! bpftool btf dump file "$dest/vmlinux.tmp" 2>/dev/null |
		grep -q "^\[[0-9]*\] STRUCT 'sched_ext_ops'"; then
		rm -f "$dest/vmlinux.tmp"
		no_sched_ext "$kver" "no packaged config, and its BTF has no struct sched_ext_ops"
	fi
	mv "$dest/vmlinux.tmp" "$dest/vmlinux"
	echo "$kver" > "$dest/release"
}

cmd_fetch() {
	command -v zstd >/dev/null || die "zstd missing: run scripts/deps.sh"
	kver=$(current_kver)
	if fetch_one "$kver"; then
		# an explicit choice (GAMESCHED_KERNEL) is not the default for later runs
		[ -n "${GAMESCHED_KERNEL:-}" ] || echo "$kver" > "$KROOT/current"
		echo "kernel $kver ready in $KROOT/$kver"
		return 0
	fi
	case $kver in *-gamesched) die "$kver is not in $KROOT: build it with vm/kernel-build.sh" ;; esac
	[ -n "${GAMESCHED_KERNEL:-}" ] && die "cannot download $kver (linux-binary-/linux-base- or linux-image-)"
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
	kver=$(basename "$dir")
	[ "$kver" = "$PINNED_KVER" ] ||
		echo "vm/kernel.sh: WARNING: vmlinux.h from $kver, not the pinned $PINNED_KVER" >&2
	mkdir -p "$(dirname "$out")"
	{
		echo "/* vmlinux.h: the BTF types of the sched_ext kernel $kver,"
		echo " * generated by vm/kernel.sh vmlinux-h (bpftool btf dump format c);"
		echo " * make vmlinux-h regenerates it. Do not edit. */"
		bpftool btf dump file "$dir/vmlinux" format c
	} > "$out.tmp" || { rm -f "$out.tmp"; die "bpftool btf dump failed on $dir/vmlinux"; }
	mv "$out.tmp" "$out"
	echo "vm/kernel.sh: $out from $kver"
}

mkdir -p "$KROOT"
case "${1:-}" in
fetch) cmd_fetch ;;
dir) cmd_dir ;;
vmlinux-h) [ $# -eq 2 ] || die "usage: vm/kernel.sh vmlinux-h OUT"; cmd_vmlinux_h "$2" ;;
*) echo "usage: vm/kernel.sh fetch | dir | vmlinux-h OUT" >&2; exit 2 ;;
esac
