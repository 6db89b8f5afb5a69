# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# framebench's work-loop rate for the VM's runs (sourced by vm/*.sh).
# "auto" lets the guest measure its own at the start of a boot; under
# qemu 10 thread=multi that reading moves between boots (615.5-615.7
# loops/us in 14 of 16 boots on one host, 554.9 and 435.5 in the other
# two), so two boots' figures compare only at one rate. "host" measures
# the host's own (the fastest of three trials, as the guest does) and
# gives it to the guest: boots then run the same work per frame, and
# under thread=multi the emulated loop runs at the host's rate
# (docs/vm.md). "mode", the default of the plans: "host" under
# thread=multi, "auto" otherwise (thread=single and -icount run the loop
# slower than the host).

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

# vm_resolve_calib VALUE BUILD WHO TCG SMP: VALUE as given, the host's
# rate for "host" (and for "mode" when TCG and SMP resolve to
# thread=multi); "WHO: ..." and status 2 when it is none of auto, host,
# mode or a number
vm_resolve_calib() {
	if [ "$1" = mode ]; then
		. vm/mode.sh
		if [ "$(vm_resolve_tcg "$4" "$5" 2>/dev/null)" = multi ]; then
			set -- host "$2" "$3"
		else
			set -- auto "$2" "$3"
		fi
	fi
	case $1 in
	auto) echo auto ;;
	host)
		[ -x "$2/framebench" ] && [ -x "$2/tests/jsonget" ] ||
			{ echo "$3: --calibration host: $2/framebench or $2/tests/jsonget missing: run make" >&2; return 2; }
		vm_host_rate "$2/tests/jsonget" "$(mktemp)" "$2/framebench" ;;
	*[!0-9.]*|'') echo "$3: --calibration: expected auto, host, mode or loops per us, got '$1'" >&2; return 2 ;;
	*) echo "$1" ;;
	esac
}
