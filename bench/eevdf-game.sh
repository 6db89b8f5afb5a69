#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A real OpenGL game from Debian on the host's real CPUs beside two CPU
# hogs, under the kernel's default scheduler, the player's renice (nice
# -10, gamesuite's nice:-10 arm) and lavd --eevdf: chromium-bsu (package
# chromium-bsu) on an Xvfb display of its own, rendered by Mesa's llvmpipe,
# its frames from MangoHud's log (mangohud --dlsym), through gamesuite run
# (interleaved, rotated rounds). The hogs are load of their own, so
# gamesuite's disturbance checks are off: run it on an otherwise quiet
# machine.
# The hogs are two shell loops of this script's session, so that the
# game, its renice and the hogs share one autogroup as a game and a build
# started from one desktop session would.
#
#   bench/eevdf-game.sh [-r ROUNDS] [-d SECONDS] [-o DIR]   (5, 10, build/bench/eevdf-game)
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build}
rounds=5 dur=10 out=$B/bench/eevdf-game
while getopts r:d:o: o; do
	case $o in
	r) rounds=$OPTARG ;; d) dur=$OPTARG ;; o) out=$OPTARG ;;
	*) echo "usage: see the header of $0" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (nice -10, lavd --eevdf)" >&2; exit 2; }
for p in /usr/games/chromium-bsu mangohud Xvfb; do
	command -v "$p" >/dev/null 2>&1 || { echo "$0: $p missing (apt-get install chromium-bsu mangohud xvfb)" >&2; exit 2; }
done
mkdir -p "$out"
rm -rf "$out/work"
pids=""
cleanup() {
	# shellcheck disable=SC2086 # a list of pids
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
}
trap cleanup EXIT INT TERM
disp=:$(( $$ % 500 + 100 ))
Xvfb "$disp" -screen 0 1280x720x24 >/dev/null 2>&1 &
pids="$pids $!"
sleep 1
cat >"$out/game.suite" <<SUITE
name       eevdf-game
repeat     $rounds
warmup     1
cooldown   2s
workload chromium-bsu
  kind     game
  command  exec mangohud --dlsym /usr/games/chromium-bsu
  mangohud-config $(pwd)/gamesuite/MangoHud.conf
  startup  3s
  duration ${dur}s
SUITE
for _ in 1 2; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
done
echo "# bench/eevdf-game.sh -r $rounds -d $dur; $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs" >"$out/meta"
DISPLAY=$disp "$B/gamesuite" run "$out/game.suite" --order rotate \
	--sched default --sched nice:-10 \
	--sched "$B/lavd --eevdf --eevdf-state $out/lavd.state" --label lavd-eevdf \
	--max-other-cpu 100 --settle 0 --max-busy 100 \
	--workdir "$out/work" --json "$out/game.json" >"$out/game.txt" 2>&1 || true
cat "$out/meta" "$out/game.txt"
