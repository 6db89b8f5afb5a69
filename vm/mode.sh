#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The emulator mode of the VM harness, resolved once for vm/run.sh and
# vm/boot.sh (sourced by both; POSIX sh). "auto" picks the mode whose
# figures came closest to the host's own (docs/vm.md#fidelity): TCG
# thread=multi (one host thread per vCPU) when qemu is 10.0 or newer and the
# host has at least as many CPUs as the guest has vCPUs; otherwise
# thread=single, with a line saying why. QEMU 7.2's thread=multi can panic
# the guest when a scheduler is loaded (its cross-CPU code patching race),
# which is why older qemus fall back.
#
# Environment: VM_QEMU (the qemu binary, default qemu-system-x86_64 on
# PATH), VM_TCG (single|multi|auto), VM_CPU (the -cpu model, default max),
# VM_ICOUNT, VM_PIN and VM_APPEND (vm/boot.sh).

vm_qemu() { echo "${VM_QEMU:-qemu-system-x86_64}"; }

# vm_qemu_version: "10.0.2", or empty when qemu is missing
vm_qemu_version() {
	"$(vm_qemu)" --version 2>/dev/null | sed -n 's/^QEMU emulator version \([0-9][0-9.]*\).*/\1/p' | head -n 1
}

# vm_smp_cpus SPEC: the vCPU count of an -smp spec ("2", "4,sockets=2,...")
vm_smp_cpus() { echo "${1%%,*}"; }

# vm_resolve_tcg REQUEST SMP: prints single or multi; a fallback from
# auto or multi is explained on stderr, prefixed "vm: ".
vm_resolve_tcg() {
	req=$1 ncpu=$(vm_smp_cpus "$2")
	case $req in single) echo single; return 0 ;; multi|auto) ;; *)
		echo "vm: --tcg must be single, multi or auto, got '$req'" >&2; return 2 ;;
	esac
	# qemu refuses -icount with multi-threaded TCG
	[ -n "${VM_ICOUNT:-}" ] && { echo single; return 0; }
	ver=$(vm_qemu_version)
	major=${ver%%.*}
	hostcpus=$(getconf _NPROCESSORS_ONLN)
	if [ "$req" = multi ]; then
		echo multi
		[ "${major:-0}" -ge 10 ] ||
			echo "vm: thread=multi asked for on qemu ${ver:-?}: before 10.0 a scheduler load can panic the guest (a panic is retried once under thread=single)" >&2
		return 0
	fi
	if [ "${major:-0}" -lt 10 ]; then
		echo "vm: qemu ${ver:-?} is older than 10.0: falling back to TCG thread=single (one host thread for all vCPUs, far from the host's figures: docs/vm.md#fidelity); scripts/deps.sh installs qemu 10 from bookworm-backports" >&2
		echo single
	elif [ "$hostcpus" -lt "$ncpu" ]; then
		echo "vm: the host has $hostcpus CPUs for $ncpu vCPUs: falling back to TCG thread=single (thread=multi needs a host CPU per vCPU)" >&2
		echo single
	else
		echo multi
	fi
}

# vm_mode_desc TCG: the mode in words, for every table's title
vm_mode_desc() {
	d="qemu $(vm_qemu_version) TCG thread=$1 -cpu ${VM_CPU:-max}"
	[ -n "${VM_ICOUNT:-}" ] && d="$d -icount ${VM_ICOUNT}"
	[ -n "${VM_APPEND:-}" ] && d="$d, guest ${VM_APPEND}"
	[ "${VM_PIN:-0}" = 1 ] && d="$d, vCPUs pinned"
	echo "$d"
}
