#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The profile round trip on a real game: neverball (Debian's package; its
# title screen plays a level)
# on an Xvfb display of its own, rendered by Mesa's llvmpipe with two
# rasterizer threads, recorded by `frametrace record --present auto`;
# `frametrace profile` derives its profile (the main thread's stage, the
# rasterizer pool, and how the pool overlaps the stage), framebench
# replays it under the recorder with the machine's rate measured right
# before, and `frametrace compare` sets the replay against the recording.
# One row per round: the two frame-time medians and their ratio, the
# stage's and the pool's CPU per frame (replay / recording), and what the
# derivation said about the overlap. tests/frametrace_llvmpipe.sh is the
# same trip on glmark2, in `make test`; this one needs the game, which
# scripts/deps.sh does not install. Run it on a quiet machine: the
# recording and its replay are seconds apart and a load between them
# moves one and not the other.
#
#   bench/roundtrip-game.sh [-r ROUNDS] [-d SECONDS] [-o DIR]   (4, 12, build/bench/roundtrip-game)
#   GAME="/usr/games/neverball" (the command that is recorded; e.g.
#   /usr/games/chromium-bsu)
# Exit status: 0 done (the rows say how close), 2 bad usage or missing
# program, 1 a step failed.
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build}
FT=$B/frametrace FB=$B/framebench JG=$B/tests/jsonget
rounds=4 dur=12 out=$B/bench/roundtrip-game
GAME=${GAME:-/usr/games/neverball}
while getopts r:d:o: o; do
	case $o in
	r) rounds=$OPTARG ;; d) dur=$OPTARG ;; o) out=$OPTARG ;;
	*) echo "usage: see the header of $0" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (frametrace record)" >&2; exit 2; }
for p in "${GAME%% *}" Xvfb "$FT" "$FB" "$JG"; do
	command -v "$p" >/dev/null 2>&1 || { echo "$0: $p missing (apt-get install neverball xvfb; make)" >&2; exit 2; }
done
mkdir -p "$out"
xpid=""
cleanup() { [ -z "$xpid" ] || kill "$xpid" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
disp=:$(( $$ % 500 + 100 ))
Xvfb "$disp" -screen 0 1280x720x24 >/dev/null 2>&1 &
xpid=$!
sleep 1
DISPLAY=$disp LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS=2
export DISPLAY LIBGL_ALWAYS_SOFTWARE GALLIUM_DRIVER LP_NUM_THREADS

echo "# bench/roundtrip-game.sh -r $rounds -d $dur: $GAME; $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/table"
printf '%-5s %10s %10s %7s %9s %8s  %s\n' round rec_p50 replay_p50 ratio stage_cpu pool_cpu overlap | tee -a "$out/table"
i=1
while [ "$i" -le "$rounds" ]; do
	d=$out/round-$i
	mkdir -p "$d"
	"$FB" -p esports -d 300ms -w 100ms -q --json "$d/cal.json" >/dev/null 2>&1 ||
		{ echo "$0: framebench calibration failed" >&2; exit 1; }
	rate=$("$JG" "$d/cal.json" calibration.median_loops_per_us)
	# shellcheck disable=SC2086 # GAME is a command line
	"$FT" record -q --present auto -d "${dur}s" -o "$d/game.ftr" -- $GAME \
		>/dev/null 2>"$d/rec.err" || { echo "$0: record: $(tail -n 1 "$d/rec.err")" >&2; exit 1; }
	gp=$("$FT" info "$d/game.ftr" | sed -n 's/^meta present=.*(pid \([0-9]*\)).*/\1/p' | head -n 1)
	"$FT" profile --pid "${gp:-0}" -o "$d/game.profile" "$d/game.ftr" 2>"$d/profile.err" ||
		{ echo "$0: profile: $(tail -n 1 "$d/profile.err")" >&2; exit 1; }
	# shellcheck disable=SC2016 # $$ is the inner shell's: the replay's pid
	"$FT" record -q -o "$d/replay.ftr" -- sh -c 'echo $$ >"$1"; shift; exec "$@"' rec "$d/replay.pid" \
		"$FB" -p "$d/game.profile" -d "${dur}s" -w 500ms --calibration "$rate" -q >/dev/null 2>&1 ||
		{ echo "$0: the replay failed" >&2; exit 1; }
	rp=$(cat "$d/replay.pid")
	if ! "$FT" compare --pid-a "$gp" --pid-b "$rp" --json "$d/game.ftr" "$d/replay.ftr" >"$d/compare.json" ||
	   ! "$FT" compare --pid-a "$gp" --pid-b "$rp" "$d/game.ftr" "$d/replay.ftr" >"$d/compare.txt"; then
		echo "$0: compare failed" >&2
		exit 1
	fi
	ov=$(grep -E '^# frames in flight|async|^  join|overlap not expressed' "$d/game.profile" |
		sed 's/^# //; s/^ *//' | tr '\n' ';' | cut -c1-90)
	printf '%-5s %8.2fms %8.2fms %7.3f %9s %8s  %s\n' "$i" \
		"$("$JG" "$d/compare.json" a.frametime_ms.p50)" "$("$JG" "$d/compare.json" b.frametime_ms.p50)" \
		"$("$JG" "$d/compare.json" ratio.frametime_p50)" "$("$JG" "$d/compare.json" ratio.stage_cpu.0)" \
		"$("$JG" "$d/compare.json" ratio.pool_cpu)" "${ov:-waited-for fan-out}" | tee -a "$out/table"
	i=$((i + 1))
done
echo "# rows: $out/table; each round's recording, profile and comparison: $out/round-N" | tee -a "$out/table"
