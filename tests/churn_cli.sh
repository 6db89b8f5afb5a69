#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# churn's command line (vm/churn.c, the stress load of vm-test): the option
# table's --help, short options taking their values, ranges and usage
# errors exit 2 naming the option, and a short run prints its counts.
. tests/lib.sh
C=$B/churn
need "$C"

expect() {
	want=$1 pat=$2
	shift 2
	expect_output "$want" "$pat" "$C" "$@"
}
expect 0 '^usage: churn ' --help
expect 0 '^  -d, --duration D  how long to run' -h
expect 2 "option --threads: expected an integer in \[1, 4096\], got '5000'" -t 5000
expect 2 "^churn: option '-t' needs a value (see --help)$" -t
expect 2 "option --duration: expected a duration .* got '0'" --duration 0
expect 2 "option --seed: expected an integer in \[0, 18446744073709551615\]" -s 18446744073709551616
expect 2 "^churn: unexpected argument 'extra' (see --help)$" extra
expect 0 '^churn: [0-9]* threads started, ' -t 2 -d 20ms -s 18446744073709551615
finish "churn CLI"
