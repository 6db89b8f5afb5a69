#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Mistakes that must not cost work (README, the rules for inputs): a FIFO or another file
# that is no regular file, given where a tool reads an input, is refused
# at once (exit 2, the file named) instead of blocking in open() for a
# writer that never comes: a lavd game profile, a *.conf in
# --game-profiles DIR, a framebench profile, a gamesuite suite, every
# frametrace input.
. tests/lib.sh
need "$B/lavd"
need "$B/framebench"
need "$B/gamesuite"
need "$B/frametrace"

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

finish input_mistakes
