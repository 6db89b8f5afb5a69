#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Builds a sched_ext kernel from Debian's kernel source package for the VM
# harness, for kernels players run that Debian ships without sched_ext
# (6.12 LTS). The result lands in the kernel cache beside the downloaded
# ones, so `GAMESCHED_KERNEL=<release> make vm-test` boots it.
#
#   vm/kernel-build.sh [--series 6.12] [--jobs N] [--keep-tree]
#   vm/kernel-build.sh --check-config CONFIG   only the fragment check
#
# Config: x86_64_defconfig + kvm_guest.config + vm/kconfig/sched-ext.config;
# every option the fragment names is checked after olddefconfig and the
# build stops with the option's name if the source could not set it.
# Reproducible: fixed build timestamp, user and host; the source package's
# version and the config's checksum are kept in BUILDINFO.
# Needs: gcc make flex bison bc pahole (dwarves) libelf-dev libssl-dev xz.
# Exit status: 0 built (or already cached), 1 a build step failed,
# 2 bad usage or a missing tool or config option.
set -eu

series=6.12 jobs=$(getconf _NPROCESSORS_ONLN) keep=0
usage() { sed -n '9,19p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/kconfig/sched-ext.config
# check_config CONFIG WHAT: every option the fragment sets, set so in
# CONFIG; exit 2 naming the ones that are not
check_config() {
	bad=""
	for line in $(grep -E '^CONFIG_[A-Z0-9_]+=[yn]$' "$fragment"); do
		opt=${line%=*} want=${line#*=}
		if [ "$want" = y ]; then
			grep -qx "$opt=y" "$1" || bad="$bad $opt"
		else
			! grep -q "^$opt=[ym]" "$1" || bad="$bad $opt(=n)"
		fi
	done
	if [ -n "$bad" ]; then
		echo "vm/kernel-build.sh: $2 cannot set:$bad (see $fragment)" >&2
		exit 2
	fi
}
while [ $# -gt 0 ]; do
	case $1 in
	--series) [ $# -ge 2 ] || usage; series=$2; shift 2 ;;
	--jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	--keep-tree) keep=1; shift ;;
	--check-config)
		[ $# -ge 2 ] && [ -f "$2" ] || { echo "vm/kernel-build.sh: --check-config needs a config file" >&2; exit 2; }
		check_config "$2" "$2"; echo "$2: every option of $fragment is set"; exit 0 ;;
	-h|--help) usage ;;
	*) echo "vm/kernel-build.sh: unknown option '$1'" >&2; usage ;;
	esac
done
case $series in *[!0-9.]*|"") echo "vm/kernel-build.sh: --series '$series': want e.g. 6.12" >&2; exit 2 ;; esac
case $jobs in *[!0-9]*|""|0) echo "vm/kernel-build.sh: --jobs '$jobs': want a positive count" >&2; exit 2 ;; esac

CACHE=${GAMESCHED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gamesched}
work=$CACHE/kbuild/$series
die() { echo "vm/kernel-build.sh: $*" >&2; exit 1; }

missing=""
for t in gcc make flex bison bc pahole xz perl; do
	command -v "$t" >/dev/null || missing="$missing $t"
done
[ -f /usr/include/libelf.h ] || missing="$missing libelf-dev"
[ -f /usr/include/openssl/ssl.h ] || missing="$missing libssl-dev"
if [ -n "$missing" ]; then
	echo "vm/kernel-build.sh: missing:$missing" >&2
	echo "  apt-get install gcc make flex bison bc dwarves libelf-dev libssl-dev xz-utils" >&2
	exit 2
fi

# the source package: Debian's linux-source-SERIES (patched upstream source)
mkdir -p "$work"
pkg=linux-source-$series
version=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^  Candidate: //p')
[ -n "$version" ] && [ "$version" != "(none)" ] ||
	die "no $pkg in apt's lists (apt-get update; bookworm-backports/-security or trixie-backports)"
upstream=${version%%-*}
kver=$upstream-gamesched
dest=$CACHE/kernel/$kver
if [ -f "$dest/vmlinuz" ] && [ -f "$dest/vmlinux" ]; then
	echo "kernel $kver already built in $dest (remove it to rebuild)"
	exit 0
fi
deb=$(ls "$work"/"${pkg}"_*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
	echo "downloading $pkg $version"
	(cd "$work" && apt-get download -q "$pkg=$version") >/dev/null 2>&1 ||
		die "apt-get download $pkg=$version failed"
	deb=$(ls "$work"/"${pkg}"_*.deb | head -n 1)
fi
src=$work/linux-source-$series
if [ ! -f "$src/Makefile" ]; then
	echo "unpacking $(basename "$deb")"
	rm -rf "$work/x" "$src"
	dpkg-deb -x "$deb" "$work/x"
	tar -xJf "$work/x/usr/src/$pkg.tar.xz" -C "$work"
	rm -rf "$work/x"
	[ -f "$src/Makefile" ] || die "$deb did not unpack to $src"
fi

# the config
export KBUILD_BUILD_TIMESTAMP="1970-01-01" KBUILD_BUILD_USER=gamesched KBUILD_BUILD_HOST=gamesched
cd "$src"
make -s x86_64_defconfig >/dev/null
./scripts/kconfig/merge_config.sh -m .config kernel/configs/kvm_guest.config "$fragment" >/dev/null
make -s olddefconfig >/dev/null
check_config .config "$pkg $version"

# the build
log=$work/build.log
echo "building $kver with $jobs jobs (log: $log)"
t0=$(date +%s)
if ! make -j"$jobs" LOCALVERSION=-gamesched bzImage > "$log" 2>&1; then
	tail -n 20 "$log" >&2
	die "build failed: $log"
fi
t1=$(date +%s)
release=$(make -s LOCALVERSION=-gamesched kernelrelease)
mkdir -p "$dest"
cp arch/x86/boot/bzImage "$dest/vmlinuz"
cp vmlinux .config System.map "$dest/"
mv "$dest/.config" "$dest/config"
echo "$kver" > "$dest/release"
{
	echo "source: $pkg $version (Debian)"
	echo "kernelrelease: $release"
	echo "config: x86_64_defconfig + kvm_guest.config + vm/kconfig/sched-ext.config"
	echo "config sha256: $(sha256sum "$dest/config" | cut -d' ' -f1)"
	echo "gcc: $(gcc -dumpfullversion), pahole: $(pahole --version)"
	echo "build: $((t1 - t0)) s with $jobs jobs on $(uname -m), $(date -u +%Y-%m-%d)"
} > "$dest/BUILDINFO"
[ "$keep" = 1 ] || { cd /; rm -rf "$src"; }
cat "$dest/BUILDINFO"
echo "bzImage $(du -h "$dest/vmlinuz" | cut -f1), vmlinux $(du -h "$dest/vmlinux" | cut -f1)"
echo "kernel $kver ready in $dest: GAMESCHED_KERNEL=$kver make vm-test"
