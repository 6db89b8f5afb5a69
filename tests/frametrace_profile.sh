#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# frametrace profile and compare: a round trip through framebench. Each
# shipped profile is run under `frametrace record` (every run with the one
# --calibration this machine measured, so the runs do the same work), a
# profile is derived from the trace, framebench must accept it, the derived
# profile is run and recorded the same way, and `compare --json` must find
# the same number of stages, a frame-time p50 within 15 % of the
# original's and each stage's CPU per frame within 20 %. Bad input first
# (no root needed): a trace without frames, frames without scheduler
# events, too few frames, an -o that cannot be written (exit 1, nothing
# left). Skips (77) without root or when the kernel refuses the BPF
# programs. About 60 s.
. tests/lib.sh
FT=$B/frametrace
FB=$B/framebench
JG=$B/tests/jsonget
need "$FT"
need "$FB"
need "$JG"

# ---- bad input -------------------------------------------------------------
expect_exit 2 "no frames in the trace" "$FT" profile -o "$T/x.profile" \
	tests/fixtures/frametrace-perf-sched.txt
"$FB" -p esports -d 300ms -w 100ms -q --csv "$T/m.csv" >/dev/null 2>&1 ||
	fail "framebench --csv"
expect_exit 2 "frames name no process" "$FT" profile -o "$T/x.profile" "$T/m.csv"
expect_exit 2 "" "$FT" profile "$T/m.csv"
expect_exit 2 "expected A..B" "$FT" profile --frames 7 -o "$T/x.profile" "$T/m.csv"
expect_exit 2 "" "$FT" compare "$T/m.csv"
[ -e "$T/x.profile" ] && fail "a profile was written from bad input"

[ "$(id -u)" -eq 0 ] || skip "frametrace record needs root (BPF)"

# ---- the round trip --------------------------------------------------------
"$FB" -p esports -d 300ms -w 100ms -q --json "$T/cal.json" >/dev/null 2>&1 ||
	fail "framebench for the calibration"
R=$("$JG" "$T/cal.json" calibration.loops_per_us) || fail "no calibration"
echo "calibration: $R loops/us"

# rec OUT PROFILE: framebench under the recorder
rec() {
	"$FT" record -q -o "$1" -- "$FB" -p "$2" -d 3s -w 500ms --calibration "$R" -q \
		>"$T/rec.out" 2>"$T/rec.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		grep -q "BPF programs failed\|needs root" "$T/rec.err" &&
			skip "the kernel refused the BPF programs: $(tail -1 "$T/rec.err")"
		fail "record $2 exited $rc: $(tail -1 "$T/rec.err")"
		return 1
	fi
}

# within LO HI X: LO <= X <= HI
within() {
	awk -v lo="$1" -v hi="$2" -v x="$3" 'BEGIN { exit !(x != "null" && x >= lo && x <= hi) }'
}

for p in proton unreal strategy unity esports; do
	rec "$T/o-$p.ftr" "$p" || continue
	"$FT" profile -o "$T/d-$p.profile" "$T/o-$p.ftr" 2>"$T/prof.err" || {
		fail "profile of $p: $(cat "$T/prof.err")"
		continue
	}
	cat "$T/prof.err"
	# framebench's own checks on the derived profile
	"$FB" --dump-plan -p "$T/d-$p.profile" -d 100ms -w 0s >/dev/null 2>"$T/plan.err" ||
		fail "framebench refuses the profile derived from $p: $(cat "$T/plan.err")"
	rec "$T/r-$p.ftr" "$T/d-$p.profile" || continue
	"$FT" compare --json "$T/o-$p.ftr" "$T/r-$p.ftr" >"$T/c-$p.json" ||
		{ fail "compare $p"; continue; }
	"$FT" compare "$T/o-$p.ftr" "$T/r-$p.ftr" >"$T/c-$p.txt" || fail "compare $p (text)"
	grep -E "frame time p50|^    stage [0-9]" "$T/c-$p.txt"
	[ "$("$JG" "$T/c-$p.json" ratio.same_stages)" = true ] ||
		fail "$p: the replay has $("$JG" "$T/c-$p.json" b.stages | tr -d '<>') stages, the original $("$JG" "$T/c-$p.json" a.stages | tr -d '<>')"
	r=$("$JG" "$T/c-$p.json" ratio.frametime_p50)
	within 0.85 1.15 "$r" || fail "$p: replay frame-time p50 $r x the original's"
	k=0
	while x=$("$JG" "$T/c-$p.json" "ratio.stage_cpu.$k" 2>/dev/null); do
		within 0.8 1.2 "$x" ||
			fail "$p: stage $((k + 1)) CPU per frame $x x the original's"
		k=$((k + 1))
	done
	[ $k -gt 0 ] || fail "$p: no stage CPU ratios"
	pass "$p: p50 ratio $r, $k stages"
done

# ---- bad input that needs a recording ----------------------------------------
if [ -f "$T/o-proton.ftr" ]; then
	expect_exit 2 "only 51 frames" "$FT" profile --frames 0..50 -o "$T/y.profile" \
		"$T/o-proton.ftr"
	# -o in a "directory" that is a file: exit 1, nothing written
	: >"$T/file"
	expect_exit 1 "cannot write" "$FT" profile -o "$T/file/y.profile" "$T/o-proton.ftr"
	ls "$T" | grep -q "^y\.profile" && fail "a profile or its temporary was left"
	# an existing profile is replaced whole
	echo "old" >"$T/z.profile"
	"$FT" profile -o "$T/z.profile" "$T/o-proton.ftr" 2>/dev/null || fail "profile over a file"
	grep -q "^stage " "$T/z.profile" || fail "the old profile was not replaced"
	ls "$T" | grep -q "^z\.profile\.tmp" && fail "a temporary file was left"
fi
finish "frametrace profile round trip"
