#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The flight recorder demonstration, shortened: framebench (game threads
# SCHED_FIFO, so ordinary load on this shared machine cannot stall it)
# with --disturb injecting a 200 ms burst of higher-priority hogs at a
# random moment of every 6 s; frametrace watch beside it with a 150 ms
# frame trigger (a burst makes a frame of 200 ms or more). Every burst
# must be captured once, with the burst inside the saved window and the
# slow frame flagged as disturbed. A capture holding no burst is a real
# slow frame of the host (a CI run saw a 130 ms one: the vCPU was taken
# away, not the threads): it is listed, and its report must not blame a
# disturbance. Then a manual trigger (frametrace trigger DIR) and a
# MangoHud log being written must each produce one capture. Root only
# (77 otherwise).
. tests/lib.sh
FT=$B/frametrace
FB=$B/framebench

[ "$(id -u)" -eq 0 ] || skip "frametrace watch needs root (BPF) and framebench --rt"
"$FT" watch -o "$T/cap" --frame-ms 150 --pre 2s --post 500ms --min-gap 1s \
	-- "$FB" -d 12s -w 1s --rt --disturb 6s:200ms -q >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out" "$T/err"
if [ $rc -ne 0 ]; then
	grep -q "BPF programs failed\|needs root" "$T/err" &&
		skip "the kernel refused the BPF programs: $(tail -1 "$T/err")"
	fail "watch exited $rc"
fi
grep "disturbance [0-9]*: start_ns=" "$T/err" |
	sed 's/.*start_ns=\([0-9]*\) end_ns=\([0-9]*\).*/\1 \2/' >"$T/bursts"
nb=$(wc -l <"$T/bursts")
nc=$(ls "$T/cap"/capture-*.ftr 2>/dev/null | wc -l)
echo "bursts: $nb, captures: $nc"
[ "$nb" -ge 1 ] || fail "framebench reported no disturbance"
nheld=0
: >"$T/held"
for c in "$T/cap"/capture-*.ftr; do
	[ -f "$c" ] || continue
	w=$("$FT" info "$c" | sed -n 's/^meta window_ns=//p')
	lo=${w% *}
	hi=${w#* }
	inside=0
	# windows of captures close together may overlap: a burst may lie in two
	while read -r s e; do
		if [ "$s" -ge "$lo" ] && [ "$e" -le "$hi" ]; then
			inside=1
			echo "$s" >>"$T/held"
		fi
	done <"$T/bursts"
	"$FT" report "$c" >"$T/rep" 2>&1 || fail "$c: report failed"
	if [ $inside -eq 1 ]; then
		nheld=$((nheld + 1))
		grep -q "fb-disturb-hog" "$T/rep" || fail "$c: the hogs are not in the capture"
		grep -q "disturbance running" "$T/rep" ||
			fail "$c: the slow frame is not flagged as disturbed"
	else
		echo "note: $c holds no burst (a slow frame of the host):"
		k=${c##*capture-}
		grep "^capture $(expr "${k%.ftr}" + 0):" "$T/cap/captures.log"
		! grep -q "disturbance running" "$T/rep" ||
			fail "$c: holds no burst, yet its report blames a disturbance"
	fi
done
while read -r s e; do
	grep -q "^$s\$" "$T/held" || fail "burst at $s ns is in no capture"
done <"$T/bursts"
# one capture per burst, not one per slow frame of it
[ "$nheld" -le "$nb" ] || fail "$nheld captures hold the $nb bursts"
grep -c "^capture " "$T/cap/captures.log" >/dev/null || fail "no notes in captures.log"

# a manual trigger
"$FT" watch -q -o "$T/man" --pre 500ms --post 200ms -d 4s >/dev/null 2>"$T/err2" &
BG_PID=$!
i=0
while [ ! -f "$T/man/watch.pid" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1
"$FT" trigger "$T/man" || fail "trigger failed"
wait "$BG_PID"
BG_PID=
n=$(ls "$T/man"/capture-*.ftr 2>/dev/null | wc -l)
[ "$n" -eq 1 ] || fail "manual trigger: $n captures"
grep -q "manual trigger" "$T/man/captures.log" || fail "manual trigger note"
[ ! -f "$T/man/watch.pid" ] || fail "watch.pid left behind"

# a MangoHud log being written: an old spike already in it does not
# trigger, a new one does
mkdir -p "$T/mh"
{
	echo "os,cpu,gpu,ram,kernel,driver,cpuscheduler"
	echo "Debian,cpu,gpu,16GB,6.1,mesa,schedutil"
	echo "fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,cpu_mhz,elapsed"
	echo "10,100.0,1,0,0,0,0,0,0,0,0,0,0,0,0,100000000"
	echo "60,16.6,1,0,0,0,0,0,0,0,0,0,0,0,0,116600000"
} >"$T/mh/log.csv"
"$FT" watch -q -o "$T/mhc" --mangohud "$T/mh/log.csv" --frame-ms 50 \
	--pre 500ms --post 200ms -d 3s >/dev/null 2>&1 &
BG_PID=$!
sleep 1
echo "60,16.6,1,0,0,0,0,0,0,0,0,0,0,0,0,133200000" >>"$T/mh/log.csv"
echo "8,120.0,1,0,0,0,0,0,0,0,0,0,0,0,0,253200000" >>"$T/mh/log.csv"
wait "$BG_PID"
BG_PID=
n=$(ls "$T/mhc"/capture-*.ftr 2>/dev/null | wc -l)
[ "$n" -eq 1 ] || fail "MangoHud trigger: $n captures, expected 1"
grep -q "frame 120.00 ms > 50.00 ms.*MangoHud" "$T/mhc/captures.log" ||
	fail "MangoHud trigger note: $(cat "$T/mhc/captures.log")"

# a closed terminal (SIGHUP) ends a watch as SIGINT does: the pid file
# goes with it, so no later trigger can signal whoever reuses its pid
"$FT" watch -q -o "$T/hup" -d 30s >/dev/null 2>"$T/err3" &
BG_PID=$!
i=0
while [ ! -f "$T/hup/watch.pid" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$FT" watch -q -o "$T/hup" -d 1s >/dev/null 2>"$T/err4" &&
	fail "a second watch on the same directory was not refused"
grep -q "another watch is running in $T/hup" "$T/err4" || fail "second watch: $(cat "$T/err4")"
kill -HUP "$BG_PID"
wait "$BG_PID"
rc=$?
BG_PID=
[ $rc -eq 0 ] || fail "watch ended by SIGHUP: exit $rc ($(cat "$T/err3"))"
[ ! -f "$T/hup/watch.pid" ] || fail "watch.pid left behind after SIGHUP"

finish "frametrace watch"
