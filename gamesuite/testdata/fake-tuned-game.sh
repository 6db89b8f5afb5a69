#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A stand-in game whose frame times follow the game profile the stand-in
# lavd was started with (fake-lavd.sh wrote its path to DIR/profile), so
# `gamesuite tune` has an optimum to find: frames are 16.6 ms plus
# |slice-scale - 100| / 50 ms, plus 1 ms unless lat-cri-boost is 128 (no
# profile: slice-scale 100, lat-cri-boost 0); one frame in 20 is twice as
# long, and runs vary a little with GAMESUITE_RUN. It writes the MangoHud
# CSV log a game leaves in GAMESUITE_LOG_DIR, as fake-game.sh does.
#
#   fake-tuned-game.sh DIR [SECONDS]   (SECONDS: sleep first, for Ctrl-C tests)
dir=${GAMESUITE_LOG_DIR:?GAMESUITE_LOG_DIR is not set}
prof=$(cat "$1/profile" 2>/dev/null)
[ -n "${2:-}" ] && sleep "$2"
scale=100 boost=0
if [ -f "$prof" ]; then
	scale=$(awk '$1 == "slice-scale" { print $2 }' "$prof")
	boost=$(awk '$1 == "lat-cri-boost" { print $2 }' "$prof")
fi
awk -v scale="${scale:-100}" -v boost="${boost:-0}" -v run="${GAMESUITE_RUN:-0}" 'BEGIN {
	d = scale - 100
	pen = (d < 0 ? -d : d) / 50 + (boost == 128 ? 0 : 1)
	print "os,cpu,gpu,ram,kernel,driver,cpuscheduler"
	print "Linux,fake cpu,fake gpu,16GB,6.18,fake,performance"
	print "fps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp," \
	      "gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used," \
	      "swap_used,process_rss,cpu_mhz,elapsed"
	e = 0
	for (i = 0; i < 2000; i++) {
		ft = 16.6 + pen + (i % 7) * 0.1 + (run % 5) * 0.013
		if (i % 20 == 10)
			ft = 2 * ft
		e += ft * 1e6
		printf "%.3f,%.3f,0,0,0,0,0,0,0,0,0,0,0,0,0,%.0f\n", 1000 / ft, ft, e
	}
}' >"$dir/tunedgame_2026-01-01_00-00-00.csv"
