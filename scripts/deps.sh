#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs everything the build and the tests need on Debian 12 (bookworm):
# the toolchain, libbpf, bpftool and qemu 10 from bookworm-backports,
# busybox for the VM harness, cmocka, perf, shellcheck and cppcheck for
# make lint (tests/lint.sh), the packaging and man page
# tools (debhelper, lintian, man-db, systemd-analyze, bash-completion),
# Xvfb and glxgears for frametrace's present-call test (xvfb and mesa-utils
# add about 10 MB installed; Mesa's libgl1-mesa-dri comes with them),
# bookworm's MangoHud 0.6.8 for gamesuite's real-game test (2 MB; the
# version users of Debian 12 have, not backports' 0.7), and
# the pinned sched_ext kernel (downloaded into a cache, not installed).
# Idempotent: when all is present it changes nothing.
#
# Run it as root, or as the user who builds: then only apt goes through
# sudo, and the kernel lands in that user's cache (~/.cache/gamesched),
# where the build looks for it. A user without sudo can run it once
# everything is installed.
set -eu

cd "$(dirname "$0")/.."

# as_root CMD...: CMD as root: directly, or through sudo
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		echo "scripts/deps.sh: installing packages needs root: run it as root, or install sudo" >&2
		exit 1
	fi
}

PKGS="build-essential make pkg-config clang-19 llvm-19 zlib1g-dev
libcmocka-dev busybox-static zstd linux-perf file procps
libclang-rt-19-dev shellcheck cppcheck
debhelper dpkg-dev fakeroot lintian man-db groff-base systemd bash-completion
xvfb mesa-utils libgl1-mesa-dri mangohud glmark2-x11"
# glmark2-x11: a real OpenGL program heavy enough for llvmpipe's rasterizer
# threads, whose recording tests/frametrace_llvmpipe.sh derives and replays.
# libbpf 1.4 and bpftool 7.5 from bookworm-backports (bookworm's libbpf 1.1
# lacks the struct_ops and ring-buffer APIs we use). Selected per package,
# never with -t: -t also pulls backports' libelf 0.192 (and its libdw) in as
# dependencies, and that libelf.a cannot link statically (it needs
# elfutils' internal libeu) while the VM needs static binaries. So libelf
# is bookworm's 0.188, named explicitly.
# QEMU 10 from bookworm-backports too: its TCG thread=multi (a host thread
# per vCPU) is the VM harness's default mode, the closest to the host
# (docs/vm.md#fidelity); bookworm's 7.2 can panic the guest in that mode.
# Its firmware (seabios) and data must come from backports with it.
BACKPORT_PKGS="libbpf-dev/bookworm-backports bpftool/bookworm-backports
libelf-dev/bookworm libelf1/bookworm
qemu-system-x86/bookworm-backports qemu-system-common/bookworm-backports
qemu-system-data/bookworm-backports seabios/bookworm-backports"
SOURCES=/etc/apt/sources.list.d/gamesched-backports.sources

missing() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || echo "$p"
	done
}

# bookworm-backports for libbpf 1.4 / bpftool 7.5; trixie-backports only to
# download the sched_ext kernel. Both keep apt's default backports priority
# (100), so nothing else on the machine is upgraded from them.
updated=0
if [ ! -f "$SOURCES" ]; then
	as_root tee "$SOURCES" >/dev/null <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports trixie-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	as_root apt-get update -q
	updated=1
fi

need=$(missing $PKGS)
bpf_ok=1
v=$(dpkg-query -W -f='${Version}' libbpf-dev 2>/dev/null || true)
case "$v" in 1:1.[4-9]*|1:[2-9]*) ;; *) bpf_ok=0 ;; esac
[ -n "$(missing bpftool)" ] && bpf_ok=0
v=$(dpkg-query -W -f='${Version}' libelf-dev 2>/dev/null || true)
case "$v" in 0.188*) ;; *) bpf_ok=0 ;; esac
v=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null || true)
case "$v" in 1:1[0-9].*|1:[2-9][0-9].*) ;; *) bpf_ok=0 ;; esac

if [ -n "$need" ] || [ $bpf_ok -eq 0 ]; then
	[ $updated -eq 1 ] || as_root apt-get update -q
	# One transaction, so a package the libelf choice would remove (e.g.
	# a backports perf) is resolved together with the rest.
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends --allow-downgrades $PKGS $BACKPORT_PKGS
fi

# The pinned sched_ext kernel for the VM harness and for vmlinux.h.
vm/kernel.sh fetch

echo "scripts/deps.sh: all dependencies present"
