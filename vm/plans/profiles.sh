# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan of vm/profiles.sh: lavd's game profiles in one boot
# (docs/lavd.md, "Game profiles"). The shipped and candidate profiles
# arrive as /bin/lavd-profiles.tar (lavd/profiles/*.conf and
# lavd/profiles/candidates/*.conf, in one folder) and are
# unpacked into /tmp/profiles/candidates. Phases (gs.phases, default all):
#
#   load       lavd loads without and with profiles (verified instructions
#              of each, -v); with them a framebench run is matched (the
#              "follows profile" line, the statistics part, --monitor's
#              line); a profile file that changes is reported and not
#              read, SIGHUP with a broken file keeps the old set, SIGHUP
#              with a good one reloads; the /proc scan path matches too
#   compare    for each target framebench profile (gs.targets) and round
#              (gs.reps): lavd's defaults and lavd with each candidate
#              (gs.cands), order rotated per round; FILE cmp-T-R-K.json
#              (K 0: defaults, 1..: the candidates in gs.cands order);
#              with gs.cmpdefault=1 also the kernel's own scheduler, K d
#              (what vm/profiles.sh --host-rounds holds against the host)
#   isolation  two framebench at once, A (gs.isoa) matching candidate
#              gs.isocand and B (gs.isob) not, under the defaults and with
#              the candidate, interleaved; FILE iso-R-K-A.json / -B.json,
#              "DATA isopids R K PIDA PIDB", "DATA isoprof R K <profiles
#              part of the last statistics line>"
#   tune       gamesuite tune --framebench gs.tunetarget (unreal) with
#              gs.tuneknobs (lat-cri-boost=0,128,512), gs.tunerounds (1)
#              first-stage rounds, gs.tunefinal (6) final rounds: the
#              profile it writes, FILE tuned.conf
#   cost       the loader's CPU time (schedstat) while gs.execrate
#              processes start per second for gs.costsecs seconds, and
#              while idle as long, under: no profiles, the events path,
#              the scan path every 1000 ms and every 100 ms; "DATA cost
#              MODE ...", the BPF programs'
#              cost per call (bpf_stats_enabled) as "DATA bpfcost MODE ..."
#              (DATA cost MODE IDLE_NS IDLE_S STORM_NS STORM_S FORKS)
#
# Parameters (vm/boot.sh --append): gs.phases, gs.reps (6), gs.fbdur
# (10s), gs.bg (hogs:2), gs.cands (unreal,unity,proton,esports,strategy),
# gs.targets (the same five), gs.calib (auto), gs.isoa (unreal), gs.isob
# (strategy), gs.isocand (unreal), gs.execrate (100), gs.costsecs (10),
# gs.cmpdefault (0).

reps=$(gs_param reps 6)
fbdur=$(gs_param fbdur 10s)
bg=$(gs_param bg hogs:2)
cands=$(gs_param cands unreal,unity,proton,esports,strategy)
targets=$(gs_param targets unreal,unity,proton,esports,strategy)
calib=$(gs_param calib auto)
isoa=$(gs_param isoa unreal)
isob=$(gs_param isob strategy)
isocand=$(gs_param isocand unreal)
execrate=$(gs_param execrate 100)
tunetarget=$(gs_param tunetarget unreal)
tuneknobs=$(gs_param tuneknobs lat-cri-boost=0,128,512)
tunerounds=$(gs_param tunerounds 1)
tunefinal=$(gs_param tunefinal 6)
costsecs=$(gs_param costsecs 10)
cmpdefault=$(gs_param cmpdefault 0)
PD=/tmp/profiles
CD=$PD/candidates

# shellcheck disable=SC2154 # phases: set by vm/guest-lib.sh, sourced first
gs_out "PHASE profiles phases=$phases reps=$reps fbdur=$fbdur bg=$bg cands=$cands targets=$targets"
echo 1 > /proc/sys/kernel/bpf_stats_enabled
mkdir -p "$PD"
if ! tar -xf /bin/lavd-profiles.tar -C "$PD" 2>/dev/null || ! ls "$CD"/*.conf >/dev/null 2>&1; then
	gs_result profiles FAIL "no candidate profiles in /bin/lavd-profiles.tar"
	return 0
fi
[ -x /bin/framebench ] || { gs_result profiles FAIL "no /bin/framebench (make static)"; return 0; }
[ "$calib" = auto ] && calib=$(fb_rate)
gs_out "DATA calibration $calib"

# up LOG ARGS...: lavd in the background (LPID), 0 once it is attached
up() {
	log=$1
	shift
	lavd --stats 1 "$@" > "$log" 2>&1 &
	LPID=$!
	wait_until 90 lavd_attached && return 0
	show_log "$log" 20
	return 1
}
down() {
	kill -INT "$LPID" 2>/dev/null
	wait_exit "$LPID" 30
}
# in_log LOG PATTERN SECS [N]: the pattern shows in the log (N times)
# within SECS
in_log() { wait_until "$3" log_has "$1" "$2" "${4:-1}"; }
log_has() { [ "$(grep -c -- "$2" "$1")" -ge "$3" ]; }
# nth CSV N: the N-th item
nth() { echo "$1" | cut -d, -f"$2"; }
count() { echo "$1" | tr ',' '\n' | grep -c .; }
# CPU time of a process's threads, ns (schedstat's first field)
cpu_ns() {
	t=0
	for s in /proc/"$1"/task/*/schedstat; do
		read -r a _ < "$s" 2>/dev/null && t=$((t + a))
	done
	echo "$t"
}
upt() { read -r u _ < /proc/uptime; echo "$u"; }
forks() { sed -n 's/^processes //p' /proc/stat; }

# ---- load: matching, statistics, reload, both paths -------------------
if want_phase load; then
fails=""
L=/tmp/lavd-load.log
if up "$L" -v; then
	gs_out "DATA verified none $(grep 'verified instructions' "$L" | head -n 1)"
	down
else
	fails="$fails no-profiles-load"
	down
fi
rm -rf "$PD/work"
cp -r "$CD" "$PD/work"
if up "$L" -v --game-profiles "$PD/work"; then
	gs_out "DATA verified profiles $(grep 'verified instructions' "$L" | head -n 1)"
	# printed once the tracepoints are attached, which may follow the
	# scheduler's attach: waited for, not grepped at once
	in_log "$L" 'game profiles: 5 .*exec and rename events' 10 || fails="$fails events-path"
	framebench --profile unreal --duration 25s --warmup 500ms -q > /tmp/fb.out 2>&1 &
	FB=$!
	in_log "$L" "framebench:$FB follows profile unreal" 30 || fails="$fails no-match"
	in_log "$L" "unreal \[framebench:$FB\] sched/s [1-9]" 10 || fails="$fails no-stats"
	timeout -s INT 4 lavd --monitor 1 > /tmp/mon.log 2>&1
	grep -q "profiles 5 matched [1-9].*unreal \[framebench:$FB\]" /tmp/mon.log ||
		fails="$fails monitor"
	# a changed file is reported, not read; a broken one keeps the old set
	echo "bogus 1" >> "$PD/work/unreal.conf"
	in_log "$L" "unreal.conf changed on disk" 10 || fails="$fails no-change-warning"
	kill -HUP "$LPID"
	in_log "$L" "reloading the game profiles failed: .*unreal.conf:[0-9]*: unknown key 'bogus'.*keeping the 5 loaded" 10 ||
		fails="$fails bad-reload"
	cp "$CD/unreal.conf" "$PD/work/unreal.conf"
	kill -HUP "$LPID"
	in_log "$L" "reloaded the game profiles: 5" 10 || fails="$fails reload"
	in_log "$L" "framebench:$FB follows profile unreal" 10 2 || fails="$fails rematch"
	wait_exit "$FB" 60
	[ "$RC" = 0 ] || fails="$fails framebench-$RC"
	in_log "$L" "framebench:$FB leaves profile unreal" 10 || fails="$fails no-leave"
	lavd_attached || fails="$fails ejected"
	down
	[ "$RC" = 0 ] || fails="$fails exit-$RC"
	grep 'follows\|leaves\|reload\|changed on disk\|game profiles' "$L" | head -n 12
	gs_out "DATA loadstats $(grep '^\[' "$L" | grep 'unreal \[' | tail -n 1)"
else
	fails="$fails profiles-load"
	down
fi
# the scan path: a young process's threads are read until they match
if up "$L" --game-profiles "$CD" --debug-match-path scan --match-scan-ms 500; then
	grep -q 'processes noticed by scanning /proc' "$L" || fails="$fails scan-path"
	framebench --profile unity --duration 5s --warmup 500ms -q > /tmp/fb.out 2>&1 &
	FB=$!
	in_log "$L" "framebench:$FB follows profile unity" 20 || fails="$fails scan-no-match"
	wait_exit "$FB" 60
	down
	[ "$RC" = 0 ] || fails="$fails scan-exit-$RC"
else
	fails="$fails scan-load"
	down
fi
if [ -z "$fails" ]; then
	gs_result load PASS "profiles load (both paths), match, show in --stats and --monitor, reload on SIGHUP, keep the old set on a broken file"
else
	gs_result load FAIL "$fails"
	show_log "$L" 30
fi
fi

# ---- compare: each candidate against the defaults on every target ------
# cmp_default T R: the kernel's own scheduler on target T, round R (no
# lavd loaded); FILE cmp-T-R-d.json
cmp_default() {
	gs_out "RUN-START $2 $1 d"
	framebench --profile "$1" --duration "$fbdur" --calibration "$calib" \
		--bg "$bg" --json /tmp/run.json -q > /tmp/run.out 2>&1
	rc=$?
	gs_out "RUN-END $2 $1 d exit=$rc $(tr -d '\n' < /tmp/run.out)"
	[ $rc -eq 0 ] && [ -s /tmp/run.json ] && gs_file "cmp-$1-$2-d.json" /tmp/run.json
	rc=$?
	rm -f /tmp/run.json
	return $rc
}
if want_phase compare; then
ncand=$(count "$cands")
ntarget=$(count "$targets")
nconf=$((ncand + 1))
[ "$cmpdefault" = 1 ] && nconf=$((ncand + 2))
failed=0
r=1
while [ "$r" -le "$reps" ]; do
	ti=1
	while [ "$ti" -le "$ntarget" ]; do
		t=$(nth "$targets" "$ti")
		k=0
		while [ "$k" -lt "$nconf" ]; do
			# rotated: no configuration always first or after the same one
			idx=$(( (k + r + ti) % nconf ))
			k=$((k + 1))
			if [ "$idx" -gt "$ncand" ]; then
				cmp_default "$t" "$r" || failed=$((failed + 1))
				continue
			fi
			if [ "$idx" -eq 0 ]; then set --; else set -- --game-profile "$CD/$(nth "$cands" "$idx").conf"; fi
			L=/tmp/lavd-cmp.log
			gs_out "RUN-START $r $t $idx"
			if up "$L" "$@"; then
				framebench --profile "$t" --duration "$fbdur" --calibration "$calib" \
					--bg "$bg" --json /tmp/run.json -q > /tmp/run.out 2>&1
				rc=$?
				lavd_attached || rc=99
				down
				gs_out "RUN-END $r $t $idx exit=$rc $(tr -d '\n' < /tmp/run.out)"
				gs_out "DATA cmpprof $r $t $idx $(grep '^\[' "$L" | tail -n 2 | head -n 1 | sed -n 's/.*| profiles/profiles/p')"
				[ $rc -eq 0 ] && [ -s /tmp/run.json ] && gs_file "cmp-$t-$r-$idx.json" /tmp/run.json || failed=$((failed + 1))
			else
				down
				failed=$((failed + 1))
			fi
			rm -f /tmp/run.json
		done
		ti=$((ti + 1))
	done
	r=$((r + 1))
done
if [ $failed -eq 0 ]; then
	gs_result compare PASS "$reps rounds x $ntarget targets x $nconf configurations"
else
	gs_result compare FAIL "$failed runs failed"
fi
fi

# ---- isolation: a matched and an unmatched game at once ----------------
if want_phase isolation; then
failed=0
r=1
while [ "$r" -le "$reps" ]; do
	for k in $(( r % 2 )) $(( (r + 1) % 2 )); do
		if [ "$k" -eq 0 ]; then set --; else set -- --game-profile "$CD/$isocand.conf"; fi
		L=/tmp/lavd-iso.log
		gs_out "RUN-START iso $r $k"
		if ! up "$L" "$@"; then
			down
			failed=$((failed + 1))
			continue
		fi
		framebench --profile "$isoa" --duration "$fbdur" --calibration "$calib" \
			--json /tmp/a.json -q > /tmp/a.out 2>&1 &
		A=$!
		framebench --profile "$isob" --duration "$fbdur" --calibration "$calib" \
			--json /tmp/b.json -q > /tmp/b.out 2>&1 &
		B=$!
		gs_out "DATA isopids $r $k $A $B"
		wait_exit "$A" 120
		ra=$RC
		wait_exit "$B" 120
		rb=$RC
		lavd_attached || ra=99
		down
		gs_out "RUN-END iso $r $k exit=$ra,$rb"
		gs_out "DATA isoprof $r $k $(grep '^\[' "$L" | grep ' profiles ' | tail -n 3 | head -n 1 | sed -n 's/.*| profiles/profiles/p')"
		if [ "$ra" = 0 ] && [ "$rb" = 0 ]; then
			gs_file "iso-$r-$k-A.json" /tmp/a.json
			gs_file "iso-$r-$k-B.json" /tmp/b.json
		else
			failed=$((failed + 1))
		fi
	done
	r=$((r + 1))
done
if [ $failed -eq 0 ]; then
	gs_result isolation PASS "$reps rounds: $isoa (matched by $isocand) beside $isob"
else
	gs_result isolation FAIL "$failed runs failed"
fi
fi

# ---- tune: gamesuite's search, for real --------------------------------
if want_phase tune; then
if [ -x /bin/gamesuite ]; then
	set --
	for k in $(echo "$tuneknobs" | tr '+' ' '); do set -- "$@" --knob "$k"; done
	# the probe and the disturbance checks would flag runs for the
	# emulator's own jitter (docs/gamesuite.md): watched from the host
	gamesuite tune --framebench "$tunetarget" --bg "$bg" --lavd lavd "$@" \
		--duration "$fbdur" --rounds "$tunerounds" --final-rounds "$tunefinal" --cooldown 1s \
		--load-timeout 90s --settle 0 --max-busy 100 --max-other-cpu 100 \
		--probe-factor 0 -o /tmp/tuned.conf > /tmp/tune.out 2> /tmp/tune.err
	rc=$?
	cat /tmp/tune.out
	show_log /tmp/tune.err 40
	[ -s /tmp/tuned.conf ] && gs_file "tuned-$tunetarget.conf" /tmp/tuned.conf
	if [ $rc -eq 0 ] && [ -s /tmp/tuned.conf ] && [ "$(scx_state)" != enabled ]; then
		gs_result tune PASS "$(grep '^tune: wrote' /tmp/tune.out | sed 's|/tmp/tuned.conf: ||')"
	else
		gs_result tune FAIL "exit=$rc state=$(scx_state)"
	fi
else
	gs_result tune FAIL "no /bin/gamesuite (make static)"
fi
fi

# ---- cost: matching while processes start ------------------------------
# storm RATE SECS: RATE process starts a second for SECS seconds, in a
# subshell (its wait must not wait for lavd)
storm() {
	(
		s=0
		t0=$(upt)
		while [ $s -lt "$2" ]; do
			i=0
			while [ $i -lt "$1" ]; do
				/bin/busybox true &
				i=$((i + 1))
			done
			wait
			s=$((s + 1))
			d=$(awk -v t0="$t0" -v s=$s -v n="$(upt)" 'BEGIN { d = t0 + s - n; print (d > 0) ? int(d * 1000000) : 0 }')
			[ "$d" -gt 0 ] && usleep "$d"
		done
	)
}
if want_phase cost; then
failed=0
for mode in none events scan1000 scan100; do
	case $mode in
	none) set -- ;;
	events) set -- --game-profiles "$CD" ;;
	scan1000) set -- --game-profiles "$CD" --debug-match-path scan --match-scan-ms 1000 ;;
	scan100) set -- --game-profiles "$CD" --debug-match-path scan --match-scan-ms 100 ;;
	esac
	L=/tmp/lavd-cost.log
	if ! up "$L" "$@"; then
		down
		failed=$((failed + 1))
		continue
	fi
	sleep 2
	i0=$(upt)
	c0=$(cpu_ns "$LPID")
	sleep "$costsecs"
	c1=$(cpu_ns "$LPID")
	i1=$(upt)
	f0=$(forks)
	t0=$(upt)
	storm "$execrate" "$costsecs"
	t1=$(upt)
	f1=$(forks)
	c2=$(cpu_ns "$LPID")
	down
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	isecs=$(awk -v a="$i0" -v b="$i1" 'BEGIN { printf "%.2f", b - a }')
	gs_out "DATA cost $mode $((c1 - c0)) $isecs $((c2 - c1)) $secs $((f1 - f0))"
	gs_out "DATA bpfcost $mode $(grep 'BPF cost per call' "$L" | sed 's/.*): //')"
	[ "$RC" = 0 ] || failed=$((failed + 1))
done
if [ $failed -eq 0 ]; then
	gs_result cost PASS "$execrate starts/s for $costsecs s under 4 configurations"
else
	gs_result cost FAIL "$failed configurations failed"
fi
fi
