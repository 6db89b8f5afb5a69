# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# framebench's work-loop rate for the VM's runs (sourced by vm/*.sh).
# "auto" lets the guest measure its own at the start of a boot; under
# qemu 10 thread=multi that reading moves between boots (435.5 and 615.7
# loops/us on one host, one evening), so two boots' figures compare only
# at one rate. "host" measures the host's own (the fastest of three
# trials, as the guest does) and gives it to the guest: boots then run the
# same work per frame, and under thread=multi the emulated loop runs at
# about the host's rate (docs/results.md).

# vm_host_rate JSONGET TMPFILE FRAMEBENCH...: the host's loops per us
# (FRAMEBENCH: its command, e.g. under taskset)
vm_host_rate() {
	jg=$1 tmp=$2
	shift 2
	best=0
	for _ in 1 2 3; do
		"$@" --duration 100ms --warmup 0 -q --no-feed --json "$tmp" >/dev/null 2>&1
		c=$("$jg" "$tmp" calibration.loops_per_us 2>/dev/null)
		best=$(awk -v a="$best" -v b="${c:-0}" 'BEGIN { print (b > a) ? b : a }')
	done
	rm -f "$tmp"
	echo "$best"
}

# vm_resolve_calib VALUE BUILD WHO: VALUE as given, or the host's rate for
# "host"; "WHO: ..." and status 2 when it is neither auto, host nor a
# number
vm_resolve_calib() {
	case $1 in
	auto) echo auto ;;
	host)
		[ -x "$2/framebench" ] && [ -x "$2/tests/jsonget" ] ||
			{ echo "$3: --calibration host: $2/framebench or $2/tests/jsonget missing: run make" >&2; return 2; }
		vm_host_rate "$2/tests/jsonget" "$(mktemp)" "$2/framebench" ;;
	*[!0-9.]*|'') echo "$3: --calibration: expected auto, host or loops per us, got '$1'" >&2; return 2 ;;
	*) echo "$1" ;;
	esac
}
