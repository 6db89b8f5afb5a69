#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The profile round trip on a real OpenGL program rendered by llvmpipe:
# glmark2's jellyfish scene (Debian's glmark2-x11) on an Xvfb of the
# test's own with Mesa's software renderer and two rasterizer threads
# (LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS=2),
# recorded by `frametrace record --present auto`; `frametrace profile`
# derives its profile, framebench must accept it, and its replay under
# the recorder must have the same stages, a fan-out to the two rasterizer
# threads, the stage's and the pool's CPU per frame within 20 % and the
# frame-time median within 10 % of the recording's. The machine is
# shared, so a round trip that misses is run once more; two misses in a
# row fail, except the median's when the two recordings' own medians
# differ by more than 10 % (the load, not the replay, moved it: said as a
# note). What the derivation said about overlap (an asynchronous fan-out,
# a join, or an overlap it could not express) is printed. Skips (77), saying why, without root, Xvfb, glxgears or
# glmark2 (scripts/deps.sh installs xvfb, mesa-utils and glmark2-x11).
. tests/lib.sh
FT=$B/frametrace
FB=$B/framebench
JG=$B/tests/jsonget
need "$FT"
need "$FB"
need "$JG"

[ "$(id -u)" -eq 0 ] || skip "frametrace record needs root (BPF)"
command -v Xvfb >/dev/null 2>&1 || skip "no Xvfb (Debian package xvfb)"
command -v glxgears >/dev/null 2>&1 || skip "no glxgears (Debian package mesa-utils)"
command -v glmark2 >/dev/null 2>&1 || skip "no glmark2 (Debian package glmark2-x11)"

XPID=''
cleanup() {
	[ -n "$XPID" ] && kill "$XPID" 2>/dev/null && wait "$XPID" 2>/dev/null
	at_exit
}
trap cleanup EXIT
trap 'exit 141' PIPE

glxgears_display
LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=llvmpipe LP_NUM_THREADS=2
export LIBGL_ALWAYS_SOFTWARE GALLIUM_DRIVER LP_NUM_THREADS

# trip: record, derive, replay, compare; the misses in $T/miss
trip() {
	: >"$T/miss"
	# calibrated right before the replay: the machine's load moves it
	"$FB" -p esports -d 300ms -w 100ms -q --json "$T/cal.json" >/dev/null 2>&1 ||
		fail "framebench for the calibration"
	R=$("$JG" "$T/cal.json" calibration.median_loops_per_us) || fail "no calibration"
	"$FT" record -q --present auto -d 6s -o "$T/o.ftr" -- glmark2 --size 800x600 \
		-b jellyfish:duration=60 >/dev/null 2>"$T/rec.err" || {
		grep -q "BPF programs failed\|needs root" "$T/rec.err" &&
			skip "the kernel refused the BPF programs: $(tail -1 "$T/rec.err")"
		fail "record glmark2: $(tail -1 "$T/rec.err")"
		return 1
	}
	gp=$("$FT" info "$T/o.ftr" | sed -n 's/^meta present=.*(pid \([0-9]*\)).*/\1/p' | head -n 1)
	"$FT" profile --pid "${gp:-0}" -o "$T/d.profile" "$T/o.ftr" 2>"$T/prof.err" || {
		fail "profile of glmark2: $(cat "$T/prof.err")"
		return 1
	}
	tail -n 1 "$T/prof.err"
	grep "overlap\|async\|^  join" "$T/d.profile" || echo "no overlap with the pool found"
	"$FB" --dump-plan -p "$T/d.profile" -d 100ms -w 0s >/dev/null 2>"$T/plan.err" ||
		fail "framebench refuses the profile of glmark2: $(cat "$T/plan.err")"
	grep -q "^  fanout 2 " "$T/d.profile" ||
		echo "no fan-out to the 2 rasterizer threads: $(grep '^  [a-z]' "$T/d.profile" | tr '\n' ';')" >>"$T/miss"
	"$FT" record -q -o "$T/r.ftr" -- sh -c 'echo $$ >"$1"; shift; exec "$@"' rec "$T/r.pid" \
		"$FB" -p "$T/d.profile" -d 6s -w 500ms --calibration "$R" -q >/dev/null 2>&1 ||
		{ fail "the replay failed"; return 1; }
	"$FT" compare --pid-a "$gp" --pid-b "$(cat "$T/r.pid")" --json "$T/o.ftr" "$T/r.ftr" \
		>"$T/c.json" || { fail "compare"; return 1; }
	"$FT" compare --pid-a "$gp" --pid-b "$(cat "$T/r.pid")" "$T/o.ftr" "$T/r.ftr" |
		grep -E "frame time p50|^    stage [0-9]|job pool"
	[ "$("$JG" "$T/c.json" ratio.same_stages)" = true ] ||
		echo "the replay has other stages than the original" >>"$T/miss"
	for k in stage_cpu.0 pool_cpu; do
		x=$("$JG" "$T/c.json" "ratio.$k")
		awk -v x="$x" 'BEGIN { exit !(x != "null" && x >= 0.8 && x <= 1.2) }' ||
			echo "$k: the replay's CPU per frame $x x the original's" >>"$T/miss"
	done
	r=$("$JG" "$T/c.json" ratio.frametime_p50)
	echo "$("$JG" "$T/c.json" a.frametime_ms.p50)" >>"$T/orig_p50"
	awk -v x="$r" 'BEGIN { exit !(x != "null" && x >= 0.9 && x <= 1.1) }' ||
		echo "replay frame-time p50 $r x the original's (not in 0.9..1.1)" >>"$T/p50miss"
	[ -s "$T/miss" ] || [ -s "$T/p50miss" ] && return 1
	pass "glmark2 jellyfish under llvmpipe: p50 ratio $r"
}

: >"$T/orig_p50"
: >"$T/p50miss"
if ! trip; then
	if [ -s "$T/miss" ] || [ -s "$T/p50miss" ]; then
		cat "$T/miss" "$T/p50miss" | sed 's/^/first try: /'
		: >"$T/p50miss"
		trip || {
			while read -r m; do fail "$m"; done <"$T/miss"
			# the two recordings' own medians: apart by more than
			# the tolerance, the load moved them, not the replay
			if [ -s "$T/p50miss" ] && awk 'NR == 1 { a = $1 } NR == 2 { b = $1 }
				END { exit !(a > 0 && b > 0 && (a > 1.1 * b || b > 1.1 * a)) }' "$T/orig_p50"; then
				echo "note: $(cat "$T/p50miss"); the recordings' own medians were $(tr '\n' ' ' <"$T/orig_p50")ms: the machine's load moved them more than 10 %, so the median's tolerance is not checked"
			else
				while read -r m; do fail "$m"; done <"$T/p50miss"
			fi
		}
	fi
fi
pgrep -x glmark2 >/dev/null && fail "glmark2 left running"
finish "frametrace llvmpipe round trip"
