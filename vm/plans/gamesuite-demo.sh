# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan: the scheduler comparison of `make vm-demo` done by gamesuite
# (added by the gamesuite work as a plan the VM harness can pack; vm/ itself
# belongs to the lavd/VM harness). Inside one boot, interleaved and
# repeated: the kernel default against lavd and a lavd ablation, on two
# framebench workloads, with gamesuite's verdicts (median, bootstrap
# interval, ratio, Mann-Whitney p). The JSON and HTML reports go to the host
# over the results port (gs_file), the terminal table to the console.
#
# Needs in /bin: gamesuite, framebench, lavd (make static) and the suite,
# gamesuite-demo.suite (vm/plans/gamesuite-demo.suite). Kernel command
# line parameters (vm/boot.sh --append):
#   gs.repeat=N      measured runs per scheduler (default 5)
#   gs.warmup=N      warm-up runs per scheduler (default 1)
#   gs.duration=D    framebench duration per run (default 4s)
#   gs.ablation=ARGS lavd options of the ablation, commas for spaces
#                    (default --no-wake-sync; "none" leaves it out)
# Results: "RESULT gamesuite PASS|FAIL exit=N", FILE gamesuite.json,
# FILE gamesuite.html. docs/vm.md: under emulation only effects of about 1.2x
# and more separate with ~5 pairs; wake-up latency differs between TCG
# modes, frame-time medians and throughput keep their direction.

repeat=$(gs_param repeat 5)
warmup=$(gs_param warmup 1)
duration=$(gs_param duration 4s)
ablation=$(gs_param ablation --no-wake-sync | tr ',' ' ')

# the suite travels as /bin/gamesuite-demo.suite (vm/gamesuite-demo.sh):
# the host's own runs use the same file
[ -r /bin/gamesuite-demo.suite ] ||
	{ gs_result gamesuite FAIL "no /bin/gamesuite-demo.suite (vm/gamesuite-demo.sh packs it)"; return 0; }

set -- --sched eevdf --sched lavd
[ "$ablation" = none ] || set -- "$@" --sched "lavd $ablation"
gs_out "PHASE gamesuite repeat=$repeat duration=$duration ablation=$ablation"
# The fixed-work probe is recorded per run but not used to discard runs:
# in this VM it flagged lavd's runs far more often than the default's,
# which would bias the comparison (docs/gamesuite.md). Host contention is
# best watched from the host.
gamesuite run /bin/gamesuite-demo.suite "$@" --repeat "$repeat" --warmup "$warmup" \
	--duration "$duration" --load-timeout 90s --retries 1 \
	--json /tmp/gamesuite.json --html /tmp/gamesuite.html \
	> /tmp/gamesuite.out 2> /tmp/gamesuite.err
rc=$?
cat /tmp/gamesuite.out
show_log /tmp/gamesuite.err 80
if [ $rc -eq 0 ] && [ "$(scx_state)" != enabled ]; then
	gs_result gamesuite PASS "exit=$rc state=$(scx_state)"
else
	gs_result gamesuite FAIL "exit=$rc state=$(scx_state)"
fi
[ -s /tmp/gamesuite.json ] && gs_file gamesuite.json /tmp/gamesuite.json
[ -s /tmp/gamesuite.html ] && gs_file gamesuite.html /tmp/gamesuite.html
