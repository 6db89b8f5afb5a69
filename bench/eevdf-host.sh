#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lavd --eevdf on real CPUs: framebench's profiles under the kernel's own
# scheduler left alone (default), the player's remedies (nice -5, nice -10,
# a 500 us slice request, SCHED_FIFO) and lavd --eevdf steering it, with
# and without background load; interleaved rounds (the arms' order turns
# each round), one fixed work-loop calibration for every run, a quiet
# host enforced (a run starts only after a second in which the rest of
# the machine used under QUIET CPUs; a run during which it used more is
# marked and left out of the table).
#
#   bench/eevdf-host.sh [-r ROUNDS] [-d SECONDS] [-p PROFILES] [-b BGS]
#                       [-a ARMS] [-o DIR]
#     ROUNDS   interleaved rounds (default 5)
#     SECONDS  measured seconds per run (default 8; 1 s warm-up before)
#     PROFILES comma list (default proton,unreal,strategy,esports)
#     BGS      comma list of none, hogs:2, compile:2, ... (default
#              none,hogs:2,compile:2)
#     ARMS     comma list of default, nice5, nice10, slice500, fifo, lavd
#              (default all six); lavd@L1+L2 is lavd --eevdf-levers L1,L2;
#              gamemode is Debian's GameMode itself as players run it:
#              gamemoderun (libgamemodeauto registers the game as it
#              starts, so every thread it creates inherits the renice),
#              gamemoded 1.7 in a D-Bus session of its own, renice=10 in
#              its gamemode.ini.
#              Without background only default and lavd run, with a
#              compile background only default, nice10 and lavd (its
#              lever variants lavd@... run with the other backgrounds)
#     DIR      where runs.tsv and table.md go (default build/bench/eevdf-host)
#
# Needs root (negative nice, FIFO, lavd). Every figure is printed with the
# command, the machine and the date; nothing is kept from another run.
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build}
rounds=5 dur=8 profiles=proton,unreal,strategy,esports bgs=none,hogs:2,compile:2
arms=default,nice5,nice10,slice500,fifo,lavd out=$B/bench/eevdf-host
QUIET=${QUIET:-0.15}
# gamemoderun and the game of eevdf-game.sh live there on Debian
PATH=$PATH:/usr/games
while getopts r:d:p:b:a:o: o; do
	case $o in
	r) rounds=$OPTARG ;; d) dur=$OPTARG ;; p) profiles=$OPTARG ;;
	b) bgs=$OPTARG ;; a) arms=$OPTARG ;; o) out=$OPTARG ;;
	*) echo "usage: see the header of $0" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (nice -10, FIFO, lavd --eevdf)" >&2; exit 2; }
for p in framebench lavd tests/jsonget; do
	[ -x "$B/$p" ] || { echo "$0: $B/$p missing: make first" >&2; exit 2; }
done
mkdir -p "$out"
tsv=$out/runs.tsv
FB=$B/framebench J=$B/tests/jsonget
cmdline="bench/eevdf-host.sh -r $rounds -d $dur -p $profiles -b $bgs -a $arms"

# busy: CPUs the whole machine used over one second
busy() {
	# shellcheck disable=SC2046 # the fields of /proc/stat's cpu line
	set -- $(head -n 1 /proc/stat)
	t0=$(($2 + $3 + $4 + $5 + $6 + $7 + $8 + $9)) i0=$(($5 + $6))
	sleep 1
	# shellcheck disable=SC2046
	set -- $(head -n 1 /proc/stat)
	t1=$(($2 + $3 + $4 + $5 + $6 + $7 + $8 + $9)) i1=$(($5 + $6))
	awk -v dt=$((t1 - t0)) -v di=$((i1 - i0)) -v n="$(nproc)" \
		'BEGIN { printf "%.2f", (dt > 0 ? (dt - di) * n / dt : 0) }'
}
# wait_quiet: up to 10 minutes for a quiet second
wait_quiet() {
	i=0
	while [ $i -lt 600 ]; do
		b=$(busy)
		awk -v b="$b" -v q="$QUIET" 'BEGIN { exit !(b < q) }' && return 0
		i=$((i + 1))
	done
	echo "$0: the host never became quiet (last second: $b CPUs busy)" >&2
	exit 1
}
# the rest of the machine's CPU use while PID runs (vm/hostload.sh's sampler)
. vm/hostload.sh

arm_opts() {
	case $1 in
	default | lavd | lavd@* | gamemode) echo "" ;;
	nice5) echo "--nice -5" ;;
	nice10) echo "--nice -10" ;;
	slice500) echo "--slice-us 500" ;;
	fifo) echo "--rt" ;;
	*) echo "$0: unknown arm '$1'" >&2; exit 2 ;;
	esac
}

# GameMode as a player runs it: gamemoderun in a D-Bus session with
# gamemoded. (Registering the game with gamemoded -r after it started
# reniced only the threads that existed then: framebench's 1 % lows
# stayed the default's on three profiles of four.)
gamemode_run() {
	mkdir -p "$out/gamemode"
	printf '[general]\nrenice=10\nsoftrealtime=off\n' >"$out/gamemode/gamemode.ini"
	XDG_CONFIG_HOME=$out/gamemode dbus-run-session -- sh -c '
		gamemoded >"$1/gamemode/gamemoded.log" 2>&1 &
		g=$!
		sleep 0.3
		# shellcheck disable=SC2086 # the background option and its value
		gamemoderun "$2" -p "$3" -d "$4" -w 1s -q --calibration "$5" $6 --json "$7" \
			>/dev/null 2>"$1/fb.err"
		rc=$?
		kill $g 2>/dev/null
		exit $rc' sh "$out" "$FB" "$1" "${dur}s" "$calib" "$2" "$3"
}

# one run: profile bg arm round -> a line of runs.tsv
one_run() {
	prof=$1 bg=$2 arm=$3 r=$4 json=$out/$1.$2.$3.$4.json
	bgopt="" lp=""
	[ "$bg" = none ] || bgopt="--bg $bg"
	wait_quiet
	case $arm in
	lavd | lavd@*)
		levers=""
		[ "$arm" = lavd ] || levers="--eevdf-levers $(echo "${arm#lavd@}" | tr + ,)"
		# shellcheck disable=SC2086 # an option and its value
		"$B/lavd" --eevdf --eevdf-state "$out/lavd.state" --stats 1 $levers \
			>"$out/$arm.$prof.$bg.$r.log" 2>&1 &
		lp=$!
		;;
	esac
	if [ "$arm" = gamemode ]; then
		gamemode_run "$prof" "$bgopt" "$json" &
	else
		# shellcheck disable=SC2046,SC2086 # option lists, split on purpose
		"$FB" -p "$prof" -d "${dur}s" -w 1s -q --calibration "$calib" $bgopt \
			$(arm_opts "$arm") --json "$json" >/dev/null 2>"$out/fb.err" &
	fi
	fp=$!
	sample_host $fp >"$out/load" || true
	wait $fp || echo "$0: framebench failed: $(cat "$out/fb.err")" >&2
	[ -z "$lp" ] || { kill -INT "$lp"; wait "$lp" || echo "$0: lavd exited $?" >&2; }
	other=$(awk '{ s += $2; n++ } END { printf "%.2f", n ? s / n : 0 }' "$out/load")
	# shellcheck disable=SC2046 # four values, split on purpose
	set -- $("$J" "$json" avg_fps low1_percentile_fps background.0.work_per_s \
		background.0.jobs_done 2>/dev/null | tr '\n' ' ')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$prof" "$bg" "$arm" "$r" \
		"${1:-}" "${2:-}" "${3:-}" "${4:-}" "$other" >>"$tsv"
	rm -f "$json"
}

# one work-loop rate for every run: CALIB in the environment (a number,
# as vm/limit.sh hands its own), else measured once here
case ${CALIB:-} in
[0-9]*) calib=$CALIB ;;
*) calib=$("$FB" -p proton -d 1s -q --json "$out/calib.json" >/dev/null 2>&1 &&
	"$J" "$out/calib.json" calibration.loops_per_us) ;;
esac
printf 'profile\tbg\tarm\tround\tavg_fps\tlow1\thog_work_s\tjobs\tother_cpus\n' >"$tsv"
echo "# $cmdline" >"$out/meta"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), calibration $calib loops/us" >>"$out/meta"
# rotated N LIST...: the list turned left by N (each round starts with
# another arm, so no arm always follows the same one)
rotated() {
	k=$1
	shift
	i=0
	while [ $i -lt $((k % $#)) ]; do
		first=$1
		shift
		set -- "$@" "$first"
		i=$((i + 1))
	done
	echo "$@"
}
arm_list=$(echo "$arms" | tr , ' ')
r=1
while [ "$r" -le "$rounds" ]; do
	for prof in $(echo "$profiles" | tr , ' '); do
		for bg in $(echo "$bgs" | tr , ' '); do
			# shellcheck disable=SC2086 # a list of arms
			for a in $(rotated $((r - 1)) $arm_list); do
				# no background: only the default and lavd matter
				# no background: only the default and lavd matter; a
				# build's bursts: the default, nice -10 and lavd
				case $bg.$a in
				none.default | none.lavd) ;;
				none.*) continue ;;
				compile*.default | compile*.nice10 | compile*.lavd) ;;
				compile*) continue ;;
				*.gamemode) command -v gamemoderun >/dev/null || continue ;;
				esac
				one_run "$prof" "$bg" "$a" "$r"
				echo "round $r $prof $bg $a: $(tail -n 1 "$tsv" | cut -f5-9)"
			done
		done
	done
	r=$((r + 1))
done
sh bench/eevdf-table.sh "$tsv" "$out/meta" >"$out/table.md"
cat "$out/table.md"
