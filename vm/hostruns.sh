# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# The host's own runs before a boot (sourced by vm/limit.sh,
# vm/ablation.sh and vm/profiles.sh for --host-rounds N):
# bench/eevdf-host.sh on the host's real CPUs with the boot's profiles,
# background and calibration, in the same session, so the table can say
# how far the lab is from real CPUs (vm/hostfid.awk). Needs root and the
# native build (bench/eevdf-host.sh says so).

# vm_host_rounds_ok WHO N: N is a count of rounds (0: no host runs);
# "WHO: ..." and status 2 otherwise
vm_host_rounds_ok() {
	case $2 in
	'' | *[!0-9]*)
		echo "$1: --host-rounds: expected a number of rounds (0: none), got '$2'" >&2
		return 2 ;;
	esac
}

# vm_host_runs ROUNDS DURATION PROFILES BGS ARMS CALIB OUT: the runs into
# OUT/host/runs.tsv; DURATION as framebench takes it (the host's script
# takes whole seconds)
vm_host_runs() {
	hsecs=$(echo "$2" | awk '/ms$/ { print int($0 / 1000) + 1; next } /m$/ { print $0 * 60; next } { print $0 + 0 }')
	CALIB=$6 sh bench/eevdf-host.sh -r "$1" -d "$hsecs" -p "$3" -b "$4" -a "$5" -o "$7/host"
}
