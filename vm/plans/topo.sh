# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Guest plan of `make vm-test-topo` (domains and energy, also run by `make test`): lavd on a
# shaped machine, 4 vCPUs as 2 sockets x 2 cores with one NUMA node and
# one LLC per socket (vm/test-vm-topo.sh boots it), so lavd sees two
# compute domains. Phases (each prints one RESULT line):
#
#   domains   the attach line names 2 nodes and 2 compute domains;
#             framebench with 4 hogs: both domains run tasks (share of
#             schedules per domain), work moves between them (planned
#             steals, force-steals or donations counted), no stall
#   compact   autopilot: idle, the active set shrinks to 1 CPU in
#             powersave mode; under 4 hogs it grows to all 4 CPUs in
#             performance mode; when they end it shrinks again; cpufreq
#             targets were set; --performance keeps all 4 active when
#             idle; no stall
#   hybrid    the emulated CPUs are identical, so a topology override
#             file makes CPUs 0-1 big (capacity 1024) and 2-3 little
#             (512); in powersave mode (little cores first) a single
#             heavy thread must end up on a big core (sampled from
#             /proc/PID/stat). (The active set cannot stay small here:
#             sizing counts each CPU at 50 % (docs/lavd.md), so one busy
#             thread, 1.25 x 1024 required, takes all four CPUs.)
#   autopower --autopower with a profile file: low-power -> powersave,
#             performance -> performance, custom -> autopilot; with
#             --no-freq-scaling no cpufreq target is set
#
# Needs /bin/lavd and /bin/framebench (make static). Parameters:
# gs.phases="..." (default: all).

# stat_last LOG KEY: the value after "KEY " on the last statistics line
stat_last() { grep '^\[' "$1" | tail -n 1 | sed -n "s|.* $2 \([^ ]*\).*|\1|p"; }
# power modes of every statistics line on stdin (active_series and
# sum_stat are in guest-lib.sh)
mode_series() { grep '^\[' | sed -n 's|.* mode \([a-z]*\) .*|\1|p'; }
# lines since line N of LOG (what happened after a point in time)
since() { tail -n "+$(( $2 + 1 ))" "$1"; }
nlines() { wc -l < "$1"; }
hog() { sh -c 'while :; do :; done' & }

gs_out "PHASE setup kernel=$(uname -r) cpus=$(nproc) nodes=$(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l)"
for c in 0 1 2 3; do
	gs_out "DATA cpu$c llc=$(cat /sys/devices/system/cpu/cpu$c/cache/index3/shared_cpu_list 2>/dev/null) node=$(ls -d /sys/devices/system/cpu/cpu$c/node* 2>/dev/null | sed 's|.*/||')"
done

# ---- domains: two domains share the work -------------------------------
if want_phase domains; then
	df=""
	start_lavd --stats 1 --watchdog-ms 5000
	if wait_until 120 lavd_attached; then
		framebench --profile proton --warmup 500ms --duration 4s --bg hogs:4 \
			--json /tmp/fb.json -q > /tmp/fb.out 2>&1
		fbrc=$?
		frames=$(sed -n 's/^ *"frames": *\([0-9]*\).*/\1/p' /tmp/fb.json 2>/dev/null | head -n 1)
		sleep 1
		alive=yes
		lavd_attached || alive=no
		stop_lavd 30
		line=$(grep 'compute domain' "$LOG" | head -n 1)
		echo "$line" | grep -q '2 nodes, 2 compute domains' || df="$df attach line: '$line';"
		# per-domain shares of the busiest statistics line
		shares=$(grep '^\[' "$LOG" | sed -n 's|.* doms 2 \[\([0-9]*\)% \([0-9]*\)%\].*|\1 \2|p' |
			awk '$1 + $2 > 0 { if ($1 < $2) m = $1; else m = $2; if (m > best) { best = m; l = $0 } } END { print l }')
		stolen=$(sum_stat "$LOG" stolen) forced=$(sum_stat "$LOG" forced)
		donated=$(sum_stat "$LOG" donated) xdom=$(sum_stat "$LOG" xdom/s)
		set -- $shares
		[ "${1:-0}" -ge 15 ] && [ "${2:-0}" -ge 15 ] || df="$df domains not both used (shares '${shares}');"
		[ $((stolen + forced + donated)) -gt 0 ] || df="$df no work moved between domains;"
		[ "$fbrc" = 0 ] && [ "${frames:-0}" -gt 0 ] || df="$df framebench exit $fbrc, ${frames:-0} frames;"
		[ $alive = yes ] && [ "$RC" = 0 ] && ! grep -q 'kernel stopped' "$LOG" || df="$df lavd enabled $alive, exit $RC;"
		gs_out "DATA domains $(grep '^\[' "$LOG" | tail -n 2 | head -n 1 | sed 's/.*| active/active/')"
	else
		df="no attach (state $(scx_state))"
		stop_lavd 20
	fi
	if [ -z "$df" ]; then
		gs_result domains PASS "2 nodes, 2 domains; busiest second's schedules per domain ${1}%/${2}%; moved between domains: $stolen planned steals, $forced force-steals, $donated donations, ~$xdom cross-domain schedules; framebench $frames frames with 4 hogs"
	else
		gs_result domains FAIL "$df"
		show_log "$LOG" 20
	fi
fi

# ---- compact: autopilot, active set and modes follow the load ----------
if want_phase compact; then
	cf=""
	start_lavd --stats 0.5 --watchdog-ms 5000
	if wait_until 120 lavd_attached; then
		sleep 3
		n0=$(nlines "$LOG")
		idle_min=$(active_series < "$LOG" | tail -n 3 | sort -n | head -n 1)
		# the plan's own commands are load too: powersave in any of the
		# last three lines (1.5 s), as for the active count above
		idle_mode=$(mode_series < "$LOG" | tail -n 3 | grep -x powersave | head -n 1)
		[ -n "$idle_mode" ] || idle_mode=$(mode_series < "$LOG" | tail -n 1)
		hog; H1=$!; hog; H2=$!; hog; H3=$!; hog; H4=$!
		sleep 3
		busy_max=$(since "$LOG" "$n0" | active_series | sort -n | tail -n 1)
		busy_mode=$(since "$LOG" "$n0" | mode_series | tail -n 1)
		kill $H1 $H2 $H3 $H4
		wait $H1 $H2 $H3 $H4 2>/dev/null
		n1=$(nlines "$LOG")
		sleep 4
		after=$(since "$LOG" "$n1" | active_series | tail -n 2 | sort -n | head -n 1)
		alive=yes
		lavd_attached || alive=no
		stop_lavd 30
		# counted over the whole run, its last lines included (a failed
		# run showed 'set 34' on a line that came after an earlier count)
		sets=$(sum_stat "$LOG" set)
		[ "${idle_min:-9}" -le 1 ] || cf="$cf idle: ${idle_min:-?} active CPUs (want 1);"
		[ "$idle_mode" = powersave ] || cf="$cf idle mode '$idle_mode' (want powersave);"
		[ "${busy_max:-0}" -ge 4 ] || cf="$cf 4 hogs: at most ${busy_max:-?} active CPUs (want 4);"
		[ "$busy_mode" = performance ] || cf="$cf 4 hogs: mode '$busy_mode' (want performance);"
		[ "${after:-9}" -le 2 ] || cf="$cf after the hogs: ${after:-?} active CPUs (want <= 2);"
		[ "${sets:-0}" -gt 0 ] || cf="$cf no cpufreq target set;"
		[ $alive = yes ] && [ "$RC" = 0 ] && ! grep -q 'kernel stopped' "$LOG" || cf="$cf lavd enabled $alive, exit $RC;"
		gs_out "DATA compact series $(active_series < "$LOG" | tr '\n' ' ')"
		gs_out "DATA compact modes $(mode_series < "$LOG" | uniq | tr '\n' ' ')"
		gs_out "DATA compact last $(grep '^\[' "$LOG" | tail -n 1 | sed 's/.*| active/active/')"
	else
		cf="no attach (state $(scx_state))"
		stop_lavd 20
	fi
	# --performance: everything active even when idle
	start_lavd --stats 0.5 --performance
	if wait_until 120 lavd_attached; then
		sleep 2
		perf_min=$(active_series < "$LOG" | tail -n 2 | sort -n | head -n 1)
		stop_lavd 30
		[ "${perf_min:-0}" -eq 4 ] || cf="$cf --performance idle: ${perf_min:-?} active CPUs (want 4);"
	else
		cf="$cf --performance: no attach;"
		stop_lavd 20
	fi
	if [ -z "$cf" ]; then
		gs_result compact PASS "autopilot: idle $idle_min active CPU ($idle_mode), 4 hogs $busy_max ($busy_mode), after them $after; $sets cpufreq target changes; --performance idle: $perf_min active"
	else
		gs_result compact FAIL "$cf"
		show_log "$LOG" 20
	fi
fi

# ---- hybrid: a heavy thread ends up on a big core -------------------
if want_phase hybrid; then
	hf=""
	cat > /tmp/hybrid.topo <<'TOPO'
# the emulated CPUs are identical: state a hybrid machine
cpus 0-1 node 0 llc 0 capacity 1024 type big
cpus 2-3 node 0 llc 0 capacity 512 type little
TOPO
	start_lavd --stats 1 --watchdog-ms 5000 --powersave --topology /tmp/hybrid.topo
	if wait_until 120 lavd_attached; then
		hog; H=$!
		sleep 2		# demand builds up in ~0.5 s
		onbig=0 n=0
		for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
			cpu=$(cut -d' ' -f39 "/proc/$H/stat")
			[ "$cpu" -le 1 ] && onbig=$((onbig + 1))
			n=$((n + 1))
			usleep 200000
		done
		kill $H
		wait $H 2>/dev/null
		sleep 1
		alive=yes
		lavd_attached || alive=no
		stop_lavd 30
		heavy=$(grep '^\[' "$LOG" | sed -n 's|.* heavy \([0-9]*\) .*|\1|p' | sort -n | tail -n 1)
		act=$(active_series < "$LOG" | sort -n | tail -n 1)
		grep -q 'core types override (big and little)' "$LOG" || hf="$hf attach line lacks the override's core types;"
		[ $((onbig * 10)) -ge $((n * 7)) ] || hf="$hf heavy thread on a big core in $onbig of $n samples (want >= 70 %);"
		[ "${heavy:-0}" -ge 1 ] || hf="$hf stats never counted a heavy task;"
		[ $alive = yes ] && [ "$RC" = 0 ] || hf="$hf lavd enabled $alive, exit $RC;"
		gs_out "DATA hybrid $(grep 'compute domain' "$LOG" | head -n 1)"
		gs_out "DATA hybrid $(grep '^\[' "$LOG" | tail -n 2 | head -n 1 | sed 's/.*| active/active/')"
	else
		hf="no attach (state $(scx_state))"
		show_log "$LOG" 20
		stop_lavd 20
	fi
	if [ -z "$hf" ]; then
		gs_result hybrid PASS "override: CPUs 0-1 big, 2-3 little; powersave: a single heavy thread ran on a big core in $onbig of $n samples, at most $act CPUs active, heavy tasks counted: $heavy"
	else
		gs_result hybrid FAIL "$hf"
		show_log "$LOG" 20
	fi
fi

# ---- autopower: the mode follows the platform profile ---------------
if want_phase autopower; then
	af=""
	echo low-power > /tmp/profile
	start_lavd --stats 0.5 --autopower --power-profile-file /tmp/profile --no-freq-scaling
	mode_now() { [ "$(stat_last "$LOG" mode)" = "$1" ]; }
	if wait_until 120 lavd_attached; then
		wait_until 5 mode_now powersave || af="$af low-power: mode $(stat_last "$LOG" mode);"
		echo performance > /tmp/profile
		wait_until 5 mode_now performance || af="$af performance: mode $(stat_last "$LOG" mode);"
		echo custom > /tmp/profile
		wait_until 5 grep -q "'custom'.*autopilot" "$LOG" || af="$af custom: no switch to the autopilot;"
		sleep 1
		sets=$(sum_stat "$LOG" set)
		stop_lavd 30
		[ "$sets" = 0 ] || af="$af --no-freq-scaling still set $sets targets;"
		[ "$RC" = 0 ] || af="$af exit $RC;"
		gs_out "DATA autopower $(grep 'power profile' "$LOG" | tr '\n' ';')"
	else
		af="no attach (state $(scx_state))"
		stop_lavd 20
	fi
	if [ -z "$af" ]; then
		gs_result autopower PASS "low-power -> powersave, performance -> performance, custom -> autopilot; no cpufreq target with --no-freq-scaling"
	else
		gs_result autopower FAIL "$af"
		show_log "$LOG" 20
	fi
fi
