#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Mistakes that must not cost work (README, the rules for inputs): a FIFO or another file
# that is no regular file, given where a tool reads an input, is refused
# at once (exit 2, the file named) instead of blocking in open() for a
# writer that never comes: a lavd game profile, a *.conf in
# --game-profiles DIR, a framebench profile, a gamesuite suite, every
# frametrace input. An output that is an input, or that cannot be
# written, is refused before the run; one that fails at the end anyway
# keeps the results in another file.
. tests/lib.sh
need "$B/lavd"
need "$B/framebench"
need "$B/gamesuite"
need "$B/frametrace"
need "$B/tests/jsonget"

mkfifo "$T/fifo" || skip "cannot make a FIFO here"
mkdir "$T/dir"
mkfifo "$T/dir/game.conf"

# refused CMD...: exits 2 within 5 s (a blocking open() would be killed
# at 5 s and fail) and says the file is a FIFO
refused() {
	timeout 5 "$@" >"$T/out" 2>&1
	rc=$?
	if [ $rc -ne 2 ]; then
		fail "$*: exit $rc, expected 2 (124: it blocked): $(cat "$T/out")"
	elif ! grep -q "not a regular file (a FIFO)" "$T/out"; then
		fail "$*: no 'not a regular file (a FIFO)' in: $(cat "$T/out")"
	else
		pass "$* -> refused"
	fi
}

refused "$B/lavd" --game-profile "$T/fifo"
refused "$B/lavd" --game-profiles "$T/dir"
refused "$B/framebench" --profile "$T/fifo" --duration 1s
refused "$B/gamesuite" check "$T/fifo"
refused "$B/frametrace" profile -o "$T/p.profile" "$T/fifo"
for cmd in report info; do
	refused "$B/frametrace" $cmd "$T/fifo"
done
refused "$B/frametrace" import -o "$T/x.ftr" "$T/fifo"
refused "$B/frametrace" import --format mangohud -o "$T/x.ftr" "$T/fifo"
refused "$B/frametrace" compare "$T/fifo" "$T/fifo"
refused "$B/frametrace" export --perfetto "$T/x.json" "$T/fifo"
# a directory is no input either, and says so
expect_exit 2 "not a regular file (a directory)" "$B/frametrace" report "$T/dir"
[ ! -e "$T/x.ftr" ] && [ ! -e "$T/x.json" ] && [ ! -e "$T/p.profile" ] || fail "a refused input left an output behind"

# an output that is an input is refused before anything runs (exit 2, both
# options named) and the input is left as it was
cp framebench/profiles/esports.profile "$T/in.profile"
sum0=$(cksum <"$T/in.profile")
for o in --json --csv; do
	expect_exit 2 "option $o: $T/in.profile is the input $T/in.profile (--profile)" \
		"$B/framebench" --profile "$T/in.profile" -d 1s $o "$T/in.profile"
done
expect_exit 2 "framebench: option --json: an empty file name" "$B/framebench" -d 1s --json ""
TD=$(pwd)/gamesuite/testdata
printf 'repeat 1\nwarmup 0\nworkload g\n  kind game\n  command %s/fake-game.sh ok\n  mangohud-config %s/gamesuite/MangoHud.conf\n  duration 2s\n' \
	"$TD" "$(pwd)" >"$T/q.suite"
sum1=$(cksum <"$T/q.suite")
GSQ="--cooldown 0 --settle 0 --probe-factor 0 --max-other-cpu 100 --max-busy 100 -q"
for o in --json --html; do
	expect_exit 2 "option $o: $T/q.suite is the input $T/q.suite" \
		"$B/gamesuite" run "$T/q.suite" --sched eevdf $o "$T/q.suite"
done
expect_exit 2 "option -o: $T/q.suite is the input $T/q.suite" \
	"$B/gamesuite" tune "$T/q.suite" --only g -o "$T/q.suite"
expect_exit 2 "option -o: $T/in.profile is the input $T/in.profile (--framebench)" \
	"$B/gamesuite" tune --framebench "$T/in.profile" -o "$T/in.profile"
[ "$(cksum <"$T/in.profile")" = "$sum0" ] && [ "$(cksum <"$T/q.suite")" = "$sum1" ] ||
	fail "a refused output overwrote its input"

# an output that cannot be written is refused before the runs (exit 2, no
# run made); one that fails at the end anyway (/dev/full) keeps the
# results in another file, named (exit 1)
# shellcheck disable=SC2086 # GSQ: several options
expect_exit 2 "option --html: /nonexistent/r.html: cannot create it in /nonexistent" \
	"$B/gamesuite" run "$T/q.suite" --sched eevdf $GSQ --workdir "$T/wd" --html /nonexistent/r.html
[ ! -e "$T/wd" ] || fail "a run was made before refusing an unwritable --html"
if [ -w /dev/full ]; then
	# shellcheck disable=SC2086
	TMPDIR=$T expect_exit 1 "option --json: cannot write /dev/full: No space left on device; kept in $T/full.kept-" \
		"$B/gamesuite" run "$T/q.suite" --sched eevdf $GSQ --json /dev/full
	"$B/tests/jsonget" "$T"/full.kept-* workloads.g.metrics.avg_fps.schedulers.eevdf.n >"$T/n" 2>&1
	[ "$(cat "$T/n")" = 1 ] || fail "the kept --json holds no results: $(cat "$T/n")"
fi

# numbers: a '+' or a tab before the digits is refused as a space is
for v in "+60" "$(printf '\t60')" " 60"; do
	expect_exit 2 "option --fps: expected an integer" "$B/framebench" --fps "$v" --dump-plan
done
# messages quote input with what a terminal would act on or hide escaped:
# an ESC byte, a tab, a BOM
"$B/framebench" --fps "$(printf '\t60')" --dump-plan 2>"$T/err"
grep -qF "got '\\t60'" "$T/err" || fail "a tab echoed raw: $(cat -A "$T/err")"
printf '\357\273\277repeat 3\nworkload a\n  kind schbench\n' >"$T/bom.suite"
expect_exit 2 "$T/bom.suite:1: unknown suite key '\\ufeffrepeat'" "$B/gamesuite" check "$T/bom.suite"
printf 'workload a\033[2J\n  kind schbench\n' >"$T/esc.suite"
expect_exit 2 "got 'a\\x1b[2J'" "$B/gamesuite" check "$T/esc.suite"
if LC_ALL=C grep -q "$(printf '[\001-\010\016-\037\177]')" "$T/err"; then
	fail "raw control bytes in a message: $(cat -v "$T/err")"
fi

# a path of 1 000 bytes is shortened in the middle: the reason is still said
L=$T/$(printf '%0250d' 0)/$(printf '%0250d' 1)/$(printf '%0250d' 2)/$(printf '%0250d' 3)/x
expect_exit 2 "/x.suite: cannot open: No such file or directory" "$B/gamesuite" check "$L.suite"
expect_exit 2 "/x.profile: No such file or directory" "$B/framebench" --profile "$L.profile" --dump-plan
expect_exit 2 "/x.ftr: No such file or directory" "$B/frametrace" report "$L.ftr"
expect_exit 2 "/x.conf: No such file or directory" "$B/lavd" --game-profile "$L.conf" --check
expect_exit 2 ": cannot create it in $T/" "$B/gamesuite" tune --framebench unreal -o "$L.conf"
grep -q "No such file or directory" "$T/err" || fail "tune -o LONG: no reason: $(cat "$T/err")"

finish input_mistakes
