#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bpfcost (vm/bpfcost.c): usage errors exit 2, statistics off exit 1 with
# the reason, and with root, programs that ran (frametrace record's) are
# printed with their cost per call, the prefix cut; the sysctl is put back
# as it was. The VM's ablation uses it for schedulers whose loader prints
# no cost (bench/bpf-cost-icount.sh with the reference scx_lavd).
. tests/lib.sh
C=$B/bpfcost
FT=$B/frametrace
need "$C"
need "$FT"

expect() {
	want=$1 pat=$2
	shift 2
	expect_output "$want" "$pat" "$C" "$@"
}
expect 0 '^usage: bpfcost ' --help
# --help is made from the option table (lib/opttab.c): every option listed
expect 0 '^  --prefix P  *cut P from the programs' --help
expect 2 "^bpfcost: unexpected argument 'extra' (see --help)$" extra
expect 2 "^bpfcost: unknown option '--bogus' (see --help)$" --bogus

[ "$(id -u)" -eq 0 ] || { finish "bpfcost CLI (the loaded-program checks need root)"; exit; }
SYS=/proc/sys/kernel/bpf_stats_enabled
[ -w "$SYS" ] || { finish "bpfcost CLI (no writable $SYS)"; exit; }
old=$(cat "$SYS")
RPID=''
cleanup() {
	[ -n "$RPID" ] && kill -INT "$RPID" 2>/dev/null && wait "$RPID" 2>/dev/null
	echo "$old" > "$SYS"
	at_exit
}
trap cleanup EXIT
echo 0 > "$SYS"
expect 1 '^bpfcost: kernel.bpf_stats_enabled is not 1: no cost is counted$'
echo 1 > "$SYS"
"$FT" record -q -d 20s -o "$T/r.ftr" -- sleep 20 >"$T/rec.out" 2>&1 &
RPID=$!
# programs that ran: frametrace's context switch handler among them
i=0 out=''
while [ $i -lt 50 ]; do
	out=$("$C" --who ft --prefix on_)
	echo "$out" | grep -Eq ' switch [0-9]+ns/[0-9]+' && break
	sleep 0.2
	i=$((i + 1))
done
echo "$out" | cut -c1-200
echo "$out" | grep -Eq '^ft: BPF cost per call \(kernel.bpf_stats_enabled=1\):.* switch [0-9]+ns/[0-9]+' &&
	pass "frametrace's sched_switch program printed, its prefix cut" ||
	fail "no 'switch Nns/CALLS' in: $out"
kill -INT "$RPID"
wait "$RPID"
RPID=''
finish "bpfcost CLI"
