#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A stand-in lavd for `gamesuite tune`'s tests: it notes which game
# profile it was given (DIR/profile: the file's path, or "none") for the
# stand-in game (fake-tuned-game.sh) to read, then plays a loader that
# loads and runs until stopped (fake-sched.sh DIR lavd ok).
#
#   fake-lavd.sh DIR [--game-profile FILE] [other lavd options]
#
# With --check it hands its options to the real lavd's check
# (FAKE_LAVD_CHECK: its path), as tune runs it before any run.
dir=$1
shift
for a in "$@"; do
	[ "$a" = --check ] && exec "${FAKE_LAVD_CHECK:?the real lavd for --check}" "$@"
done
prof=none
while [ $# -gt 0 ]; do
	case $1 in
	--game-profile) prof=$2; shift 2 ;;
	*) shift ;;
	esac
done
echo "$prof" >"$dir/profile"
exec "$(dirname "$0")/fake-sched.sh" "$dir" lavd ok
