#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A stand-in game for gamesuite's tests: it writes the MangoHud CSV log a
# game run with MangoHud (log_interval=0) would leave in the output folder
# gamesuite gives it (GAMESUITE_LOG_DIR; MangoHud itself reads
# output_folder from MANGOHUD_CONFIG).
#
#   fake-game.sh [MODE [SLOW_SCHED]]
#
#   ok       frames near 16.7 ms with a 33 ms frame every 20, for the
#            log_duration MANGOHUD_CONFIG gives (as MangoHud logs: the
#            whole span gamesuite asks for), else 2000 of them; frames
#            are 2 ms slower when GAMESUITE_SCHED is SLOW_SCHED, and vary a
#            little with GAMESUITE_RUN so runs are not all ties
#   sampled  rows every 500 ms (log_interval=500): no lows can be computed
#   rough    the frames of ok, plus a row of 0 ms every 25 frames (MangoHud
#            writes one when it had nothing to show), one damaged row of
#            99999 ms and two extra rows whose elapsed time is damaged (0,
#            no number): rows that are no frame, left out by the reader
#   crash    dies of SIGSEGV
#   nolog    exits 0 without a log
#   sleep    writes nothing and sleeps (for Ctrl-C tests)
dir=${GAMESUITE_LOG_DIR:?GAMESUITE_LOG_DIR is not set}
mode=${1:-ok}
slow=0
[ -n "${2:-}" ] && [ "${GAMESUITE_SCHED:-}" = "$2" ] && slow=2
run=${GAMESUITE_RUN:-0}

case $mode in
crash) kill -SEGV $$ ;;
nolog) exit 0 ;;
sleep) exec sleep 600 ;;
esac

# log_duration=N of MANGOHUD_CONFIG, in seconds; 0 when absent
dur=$(printf '%s\n' "${MANGOHUD_CONFIG:-}" | tr ',' '\n' | sed -n 's/^log_duration=\([0-9]*\)$/\1/p')

awk -v slow="$slow" -v run="$run" -v mode="$mode" -v dur="${dur:-0}" 'BEGIN {
	print "os,cpu,gpu,ram,kernel,driver,cpuscheduler"
	print "Linux,fake cpu,fake gpu,16GB,6.18,fake,performance"
	print "fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp," \
	      "gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used," \
	      "swap_used,process_rss,cpu_mhz,elapsed"
	e = 0
	for (i = 0; dur > 0 && mode != "sampled" ? e < dur * 1e9 : i < 2000; i++) {
		ft = 16.6 + (i % 7) * 0.1 + (run % 5) * 0.013 + slow
		if (i % 20 == 10)
			ft = 33.3 + slow
		if (mode == "sampled") {
			e += 500e6
			ft = 16.7
		} else {
			e += ft * 1e6
		}
		printf "%.3f,%.3f,0,0,0,0,0,0,0,0,0,0,0,0,0,%.0f\n", 1000 / ft, ft, e
		if (mode == "rough" && i % 25 == 0)
			printf "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,%.0f\n", e
		if (mode == "rough" && i == 1000)
			printf "0.01,99999,0,0,0,0,0,0,0,0,0,0,0,0,0,%.0f\n", e
		if (mode == "rough" && i == 1500)
			printf "60,16.6,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
		if (mode == "rough" && i == 1600)
			printf "60,16.6,0,0,0,0,0,0,0,0,0,0,0,0,0,12x4\n"
	}
}' >"$dir/fakegame_2026-01-01_00-00-00.csv"
