# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# What the shell tests share. A test sources it, from the repository root
# (where tests/run.sh runs them):  . tests/lib.sh
#
#   $B          the build directory: $BUILD, else build
#   $T          a fresh temporary directory, removed at exit
#   $BG_PID     a background process the test started and has not waited
#               for yet: killed at exit (clear it once the process is gone)
#   fail MSG    one failed check; the test goes on
#   pass MSG    one passed check, for tests that list them
#   skip MSG    the test does not apply here: exit 77, which tests/run.sh
#               counts as skipped
#   need PROG   ends the test (exit 1) when the built program is missing
#   expect_exit RC FRAGMENT CMD [ARG...]
#               CMD exits with RC and its stderr holds FRAGMENT (a fixed
#               string; "" checks the status only); stdout and stderr are
#               left in $T/out and $T/err
#   finish NAME exit 1 after "N failure(s)" when a check failed, else exit
#               0 after "NAME: all checks passed"
set -u
# shellcheck disable=SC2034 # B: for the tests that source this
B=${BUILD:-build}
fails=0
BG_PID=
T=$(mktemp -d) || exit 1

at_exit() {
	[ -n "$BG_PID" ] && kill "$BG_PID" 2>/dev/null
	rm -rf "$T"
}
trap at_exit EXIT
# an interrupted test still cleans up (through the EXIT trap)
trap 'exit 130' INT
trap 'exit 143' TERM

# glxgears_display: an Xvfb of the test's own with DISPLAY exported, its
# pid in XPID for the test's cleanup to kill (bounded by a timeout: a test
# killed before its cleanup leaves no X server for long); skips (77) when
# it does not start or glxgears (Mesa's software renderer) does not run on
# it.
glxgears_display() {
	timeout 300 Xvfb -displayfd 3 -screen 0 320x240x24 -nolisten tcp \
		3>"$T/display" >"$T/xvfb.log" 2>&1 &
	# shellcheck disable=SC2034 # the test's cleanup kills it
	XPID=$!
	i=0
	while [ ! -s "$T/display" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$T/display" ] || skip "Xvfb did not start: $(tail -1 "$T/xvfb.log")"
	DISPLAY=:$(head -1 "$T/display")
	export DISPLAY
	timeout 2 glxgears >/dev/null 2>"$T/gg.err"
	[ $? -eq 124 ] || skip "glxgears does not run on Xvfb here: $(tail -1 "$T/gg.err")"
}

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }
skip() { echo "skip: $*"; exit 77; }
need() { [ -x "$1" ] || { echo "FAIL: $1 not built"; exit 1; }; }

expect_exit() {
	want_rc=$1 want=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq "$want_rc" ] || fail "$*: exit $rc, expected $want_rc ($(cat "$T/err"))"
	[ -z "$want" ] || grep -qF -- "$want" "$T/err" ||
		fail "$*: stderr lacks '$want': $(cat "$T/err")"
}

# expect_output STATUS PATTERN CMD...: CMD exits STATUS and its output
# (stdout and stderr together) matches the grep pattern PATTERN.
expect_output() {
	want_rc=$1 pat=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want_rc" ]; then
		fail "$*: exit $rc, expected $want_rc; output: $out"
	elif ! printf '%s\n' "$out" | grep -q -- "$pat"; then
		fail "$*: output lacks '$pat': $out"
	else
		pass "$* -> $rc"
	fi
}

finish() {
	[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
	echo "$1: all checks passed"
	exit 0
}
