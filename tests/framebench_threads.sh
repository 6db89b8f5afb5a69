#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# framebench names threads and processes as the engine a profile models
# names them (thread=, workers N thread=FORMAT, comm, process P comm=):
# the shipped unreal, unity and proton profiles show those names in /proc
# while they run, a profile that says nothing keeps fb-NAME, and names
# Linux could not keep (over 15 characters) are refused with file:line.
. tests/lib.sh
FB=$B/framebench
need "$FB"

# names PROFILE: the comm of every thread of the run and of its helper
# processes ("pid comm" lines of children, "T comm" of threads), sampled
# once the run is measuring
names() {
	"$FB" --profile "$1" --duration 3s --warmup 200ms -q --json "$T/$1.json" \
		>"$T/$1.out" 2>&1 &
	BG_PID=$!
	i=0
	while [ ! -e /dev/shm/framebench.$BG_PID ] && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	sleep 0.5
	echo "P $(cat /proc/$BG_PID/comm)" >"$T/$1.names"
	for t in /proc/$BG_PID/task/*/comm; do echo "T $(cat "$t")"; done >>"$T/$1.names"
	ps -eo ppid=,comm= | awk -v p=$BG_PID '$1 == p { $1 = ""; print "C" $0 }' >>"$T/$1.names"
	wait $BG_PID || fail "$1: framebench exited $?: $(cat "$T/$1.out")"
	BG_PID=
}

# has PROFILE LINE...: each line is in the names of the run
has() {
	p=$1
	shift
	for l in "$@"; do
		grep -qxF "$l" "$T/$p.names" && pass "$p: $l" ||
			fail "$p: no '$l' among: $(tr '\n' ';' <"$T/$p.names")"
	done
}

names unreal
has unreal "T GameThread" "T RenderThread 1" "T RHIThread" "T TaskGraphNP 0" \
	"T TaskGraphNP 5" "T fb-driver" "P framebench" "C fb-compositor"
names unity
has unity "T UnityMain" "T UnityGfxDeviceW" "T Job.Worker 0" "T Job.Worker 3"
names proton
has proton "P ProtonGame.exe" "T ProtonGame.exe" "T dxvk-cs" "T dxvk-submit" \
	"C wineserver" "C fb-compositor"
names strategy
has strategy "P fb-strategy" "T fb-game" "T fb-worker0" "T fb-render"

# refused: names Linux cannot keep, bad formats, unclosed quotes
bad() {
	printf '%s\nstage s\n' "$1" >"$T/bad.profile"
	expect_exit 2 "$T/bad.profile:1: $2" "$FB" --profile "$T/bad.profile" -d 100ms
}
bad 'comm AVeryLongGameName.exe' "expected a name of 1-15 characters (Linux keeps 15 of a thread or process name), got 'AVeryLongGameName.exe'"
bad 'workers 12 thread="Foreground Worker #%d"' "expected a worker name of at most 15 characters with the largest index in it, got 'Foreground Worker #11'"
bad 'workers 4 thread="W %d %d"' "expected a worker name with at most one %d (its index), got 'W %d %d'"
bad 'workers 4 thread="W %s"' "expected a worker name with at most one %d (its index), got 'W %s'"
bad 'workers 4 name=x' "expected thread=FORMAT or end of line, got 'name'"
bad 'workers 4 thread="A Worker Name That Is Far Too Long %d"' "expected a worker name of 1-15 characters, got 'A Worker Name That Is Far Too Long %d'"
# a key given twice, a NUL byte: refused with file and line
printf 'fps 60\nfps 30\nstage s\n' >"$T/bad.profile"
expect_exit 2 "$T/bad.profile:2: fps given twice (first on line 1)" "$FB" --profile "$T/bad.profile" -d 100ms
printf 'fps 60\nstage s\000x\n' >"$T/bad.profile"
expect_exit 2 "$T/bad.profile:2: a NUL byte: not a text file" "$FB" --profile "$T/bad.profile" -d 100ms
# a profile named after its file: only the last .profile goes
printf 'stage s\n  work 100us\n' >"$T/game.profile.v2.profile"
"$FB" --profile "$T/game.profile.v2.profile" --dump-plan -d 1s >"$T/plan" 2>&1 &&
	grep -q "^profile game.profile.v2 " "$T/plan" || fail "name from the file: $(head -n 3 "$T/plan")"
bad 'process helper comm="a b c d e f g h i"' "expected a name of 1-15 characters (Linux keeps 15 of a thread or process name), got 'a b c d e f g h i'"
bad 'input period=1ms work=10 thread="x' "expected a closing '\"'"
printf 'stage s thread="%%s"\n' >"$T/bad.profile"
expect_exit 2 "bad.profile:1: expected a name of printable characters without '%', got '%s'" \
	"$FB" --profile "$T/bad.profile" -d 100ms
# '#' inside quotes is no comment: a UE5 worker name on a short pool
printf 'workers 2 thread="Back Worker #%%d"  # comment\nstage s\n  work 10\n' >"$T/ok.profile"
"$FB" --profile "$T/ok.profile" -d 300ms -w 100ms -q >"$T/out" 2>&1 &&
	pass "'#' inside quotes kept" || fail "'#' in quotes: $(cat "$T/out")"
finish "framebench thread names"
