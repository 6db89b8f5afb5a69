#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make install / make uninstall into a DESTDIR (docs/install.md):
#   - exactly the expected files, programs 0755 and the rest 0644, no
#     symlink (the service is never enabled);
#   - the installed programs find the shipped data there (a suite and an
#     added profile by name, from another working directory);
#   - lavd.service: the settings that matter, `systemd-analyze verify`
#     clean (when installed), and its ExecStart run with a bad option from
#     the default file exits 2 with lavd's own message;
#   - a second install keeps a changed default/lavd; uninstall removes
#     what install put, keeps files it did not put there and the changed
#     default/lavd;
#   - an unwritable DESTDIR fails with make's error;
#   - as a user (nobody when run as root) with PREFIX=$HOME/.local: every
#     file under the prefix, default/lavd in $PREFIX/etc, frametrace on
#     the user's PATH (bin) with its page in man1; uninstall removes the
#     directories install created once empty, and keeps a directory that
#     was there before and one that holds a file of the user's.
. tests/lib.sh
for p in framebench gamesuite frametrace lavd; do need "$B/$p"; done
# a make run inside `make test` must not inherit its jobserver
unset MAKEFLAGS MAKELEVEL MFLAGS
here=$(pwd)
D=$T/root
mk() { make -s --no-print-directory -C "$here" BUILD="$B" "$@"; }

mk DESTDIR="$D" install > "$T/install.out" 2>&1 || { cat "$T/install.out"; echo "FAIL: make install"; exit 1; }
grep -q 'neither enabled nor started' "$T/install.out" || fail "install did not say the service is not enabled"

P=/usr/local
E=$P/etc/default/lavd
cat > "$T/want" <<LIST
$E
$P/bin/framebench
$P/bin/frametrace
$P/bin/gamesuite
$P/lib/systemd/system/lavd.service
$P/sbin/lavd
$P/share/bash-completion/completions/framebench
$P/share/bash-completion/completions/frametrace
$P/share/bash-completion/completions/gamesuite
$P/share/bash-completion/completions/lavd
$P/share/gamesched/MangoHud.conf
$(for f in framebench/profiles/*.profile; do echo "$P/share/gamesched/profiles/${f##*/}"; done)
$(for f in gamesuite/suites/*.suite; do echo "$P/share/gamesched/suites/${f##*/}"; done)
$(for f in lavd/profiles/*.conf; do echo "$P/share/gamesched/lavd-profiles/${f##*/}"; done)
$P/share/man/man1/framebench.1
$P/share/man/man1/frametrace.1
$P/share/man/man1/gamesuite.1
$P/share/man/man8/lavd.8
LIST
sort -o "$T/want" "$T/want"
(cd "$D" && find . ! -type d | sed 's/^\.//' | sort) > "$T/got"
if cmp -s "$T/want" "$T/got"; then
	pass "install: the $(wc -l < "$T/got") expected files"
else
	fail "install: files differ from the expected list: $(diff "$T/want" "$T/got" | grep '^[<>]' | tr '\n' ' ')"
fi
[ -z "$(find "$D" -type l)" ] || fail "install made symlinks (an enabled unit?): $(find "$D" -type l)"
for f in $P/bin/framebench $P/bin/gamesuite $P/bin/frametrace $P/sbin/lavd; do
	[ "$(stat -c %a "$D$f")" = 755 ] || fail "$f: mode $(stat -c %a "$D$f")"
done
[ "$(stat -c %a "$D$P/share/gamesched/suites/quick.suite")" = 644 ] || fail "quick.suite: mode not 644"

# the installed programs find the installed data, from another directory
S=$D$P/share/gamesched
out=$(cd / && "$D$P/bin/gamesuite" check quick 2>&1) &&
	echo "$out" | grep -qF "($S/suites/quick.suite)" &&
	pass "installed gamesuite: check quick reads $S/suites/quick.suite" ||
	fail "installed gamesuite check quick: $out"
out=$(cd / && "$D$P/bin/gamesuite" check game 2>&1) &&
	pass "installed gamesuite: the game suite finds the installed MangoHud.conf" ||
	fail "installed gamesuite check game: $out"
cp gamesuite/suites/game.suite "$T/my.suite"
out=$(cd / && "$D$P/bin/gamesuite" check "$T/my.suite" 2>&1) &&
	pass "installed gamesuite: a copied game suite falls back to the installed MangoHud.conf" ||
	fail "installed gamesuite check my.suite: $out"
sed 's/^name .*/name mine/' framebench/profiles/esports.profile > "$S/profiles/mine.profile"
out=$(cd / && "$D$P/bin/framebench" --profile mine --dump-plan -d 1s -w 0 2>&1) &&
	echo "$out" | grep -qF "profile mine ($S/profiles/mine.profile)" &&
	pass "installed framebench: --profile mine reads $S/profiles/mine.profile" ||
	fail "installed framebench --profile mine: $(echo "$out" | head -n 3)"

# the unit
U=$D$P/lib/systemd/system/lavd.service
for want in "EnvironmentFile=-$E" \
	"ExecStart=$P/sbin/lavd --auto \$LAVD_OPTS" 'Restart=on-failure' 'RestartPreventExitStatus=2' \
	'StartLimitIntervalSec=' 'StartLimitBurst=' 'WantedBy=multi-user.target' \
	'ExecReload=/bin/kill -HUP $MAINPID' 'Conflicts=scx.service scx_loader.service' \
	'After=scx.service scx_loader.service'; do
	grep -qF -- "$want" "$U" || fail "lavd.service lacks $want"
done
# it runs on every kernel: lavd --auto picks sched_ext or --eevdf
grep -q '^ConditionPathExists=' "$U" && fail "lavd.service still skips kernels without sched_ext"
grep -q '^LAVD_OPTS="--stats 60"$' "$D$E" || fail "default/lavd: no LAVD_OPTS=\"--stats 60\""
if command -v systemd-analyze >/dev/null 2>&1; then
	# the unit as installed, its ExecStart pointed at the staged lavd and
	# man at the staged pages (verify checks both exist)
	sed "s|^ExecStart=$P/sbin/|ExecStart=$D$P/sbin/|" "$U" > "$T/lavd.service"
	if out=$(MANPATH=$D$P/share/man systemd-analyze verify "$T/lavd.service" 2>&1) && [ -z "$out" ]; then
		pass "systemd-analyze verify lavd.service: clean"
	else
		fail "systemd-analyze verify lavd.service: $out"
	fi
else
	echo "note: no systemd-analyze here (scripts/deps.sh installs systemd): unit not verified"
fi

# ExecStart with LAVD_OPTS from the default file, as systemd runs it
# ($LAVD_OPTS split at white space): a bad option exits 2 with lavd's
# message, the status RestartPreventExitStatus names
echo 'LAVD_OPTS="--stats 60 --no-such-option"' > "$D$E"
opts=$(sed -n 's/^LAVD_OPTS="\(.*\)"$/\1/p' "$D$E")
set -f
"$D$P/sbin/lavd" $opts > "$T/out" 2> "$T/err"
rc=$?
set +f
if [ $rc -eq 2 ] && grep -qx "lavd: unknown option '--no-such-option' (see --help)" "$T/err"; then
	pass "ExecStart with a bad LAVD_OPTS: exit 2, '$(cat "$T/err")'"
else
	fail "ExecStart with a bad LAVD_OPTS: exit $rc, stderr: $(cat "$T/err")"
fi

# the installed lavd passes its own check on the installed profiles, on
# any machine (lavd --check needs neither root nor sched_ext)
if "$D$P/sbin/lavd" --check --game-profiles "$D$P/share/gamesched/lavd-profiles" >"$T/out" 2>&1 &&
	grep -q "^lavd --check: valid (the options and [1-9][0-9]* game profiles*)$" "$T/out"; then
	pass "lavd --check on the installed profiles: $(tail -n 1 "$T/out")"
else
	fail "lavd --check on the installed profiles: $(cat "$T/out")"
fi

# a second install keeps the changed default file, and removes the
# frametrace of an earlier release's install (sbin, man8)
mkdir -p "$D$P/share/man/man8"
cp "$D$P/bin/frametrace" "$D$P/sbin/frametrace"
: > "$D$P/share/man/man8/frametrace.8"
mk DESTDIR="$D" install > "$T/install2.out" 2>&1 || fail "second make install"
grep -q "kept .*$E" "$T/install2.out" && grep -q 'no-such-option' "$D$E" &&
	pass "a second install keeps a changed $E" ||
	fail "second install: $(cat "$T/install2.out")"
[ ! -e "$D$P/sbin/frametrace" ] && [ ! -e "$D$P/share/man/man8/frametrace.8" ] &&
	grep -q "rm -f $D$P/sbin/frametrace (an earlier install's" "$T/install2.out" &&
	pass "install removes an earlier install's sbin/frametrace and man8/frametrace.8" ||
	fail "install kept the old sbin/frametrace or man8/frametrace.8: $(cat "$T/install2.out")"

# uninstall: what install put goes; mine.profile and the changed default stay
mk DESTDIR="$D" uninstall > "$T/uninstall.out" 2>&1 || fail "make uninstall: $(cat "$T/uninstall.out")"
left=$(cd "$D" && find . ! -type d | sed 's/^\.//' | sort | tr '\n' ' ')
[ "$left" = "$E $P/share/gamesched/profiles/mine.profile " ] &&
	pass "uninstall: removed all it installed; kept: $left" || fail "uninstall left: $left"
rm -f "$S/profiles/mine.profile"
cp dist/lavd.default "$D$E"
mk DESTDIR="$D" uninstall > "$T/uninstall.out" 2>&1 || fail "second make uninstall"
left=$(cd "$D" && find . ! -type d | tr '\n' ' ')
[ -z "$left" ] && [ ! -d "$S" ] && pass "uninstall: an unchanged default/lavd and the empty data directory go too" ||
	fail "second uninstall left: $left $(ls -d "$S" 2>/dev/null)"

# an unwritable DESTDIR: make's error, nothing enabled (root writes
# anywhere, so root gets one under /proc)
if [ "$(id -u)" -eq 0 ]; then
	bad=/proc/gamesched-no-such-dir
else
	bad=$T/ro
	mkdir "$bad" && chmod 555 "$bad"
fi
mk DESTDIR="$bad" install > "$T/out" 2> "$T/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'make: \*\*\* .*install.* Error' "$T/err"; then
	pass "unwritable DESTDIR: exit $rc, $(grep -m1 'install:' "$T/err"); $(grep 'make: \*\*\*' "$T/err")"
else
	fail "unwritable DESTDIR: exit $rc, stderr: $(cat "$T/err")"
fi

# As a user: PREFIX=$HOME/.local, as autotools' and meson's users do. Run
# as nobody when the test runs as root, in a copy of the tree and the build
# that user owns (a checkout under /root is not readable by nobody; the
# new prefix rebuilds the object holding the data directory). tar keeps
# the files' times, so nothing else is rebuilt.
U_H=$T/home
U_P=$U_H/.local
mkdir -p "$U_P/bin" "$U_P/share/man/man1"
echo 'echo other' > "$U_P/bin/other-tool"   # a file that is not ours
U_S=$T/usrc
mkdir "$U_S"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z -c -o --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -C "$U_S" -xf -
else
	tar --exclude=./build --exclude=./.git -cf - . | tar -C "$U_S" -xf -
fi
cp -a "$B" "$T/ubuild"
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null 2>&1 || skip "no setpriv (util-linux) to run make install as a user"
	chmod 755 "$T"
	chown -R 65534:65534 "$U_H" "$U_S" "$T/ubuild"
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$U_H" "$@"; }
else
	as_user() { env HOME="$U_H" "$@"; }
fi
umk() { as_user make -s --no-print-directory -C "$U_S" BUILD="$T/ubuild" PREFIX="$U_P" "$@"; }
umk install > "$T/uinstall.out" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	pass "make install PREFIX=\$HOME/.local as uid $(as_user id -u): exit 0"
else
	fail "make install PREFIX=\$HOME/.local as uid $(as_user id -u): exit $rc: $(grep -v '^install -m\|^rm -f' "$T/uinstall.out" | tail -n 3 | tr '\n' ' ')"
fi
sed -e "s|^$P/|/|" -e "s|^$E\$|/etc/default/lavd|" "$T/want" > "$T/uwant"
printf '%s\n' /bin/other-tool /share/gamesched/installed-dirs >> "$T/uwant"
LC_ALL=C sort -o "$T/uwant" "$T/uwant"
(cd "$U_P" && find . ! -type d | sed 's/^\.//' | LC_ALL=C sort) > "$T/ugot"
if cmp -s "$T/uwant" "$T/ugot"; then
	pass "user install: the $(($(wc -l < "$T/ugot") - 1)) files under \$HOME/.local, lavd's defaults in \$HOME/.local/etc/default/lavd"
else
	fail "user install: files under \$HOME/.local differ: $(diff "$T/uwant" "$T/ugot" | grep '^[<>]' | tr '\n' ' ')"
fi
grep -qx "EnvironmentFile=-$U_P/etc/default/lavd" "$U_P/lib/systemd/system/lavd.service" 2>/dev/null ||
	fail "user install: the unit does not read $U_P/etc/default/lavd"
# frametrace on the user's PATH, which has no sbin, and a command of its
# that needs no root; its page in section 1
out=$(cd "$T" && as_user env PATH="$U_P/bin:/usr/bin:/bin" sh -c \
	'frametrace import -o "$HOME/p.ftr" "$1" >/dev/null && frametrace info "$HOME/p.ftr"' \
	sh "$U_S/tests/fixtures/frametrace-perf-sched.txt" 2>&1) && echo "$out" | grep -q '^span: ' &&
	pass "frametrace on a user's PATH (\$HOME/.local/bin): import and info as the user" ||
	fail "frametrace as the user with PATH=\$HOME/.local/bin:/usr/bin:/bin: $out"
rm -f "$U_H/p.ftr"
if command -v man >/dev/null 2>&1; then
	page=$(MANPATH=$U_P/share/man man -w frametrace 2>&1)
	[ "$page" = "$U_P/share/man/man1/frametrace.1" ] && pass "man frametrace: section 1 ($page)" ||
		fail "man -w frametrace: $page"
fi
# uninstall: every file and every directory install created goes, except
# one that now holds a file of the user's; bin (there before, not empty)
# and share/man/man1 (there before, empty) stay
as_user sh -c 'echo "complete -F _x x" > "$1"' sh "$U_P/share/bash-completion/completions/mytool"
umk uninstall > "$T/uuninstall.out" 2>&1 || fail "make uninstall PREFIX=\$HOME/.local: $(cat "$T/uuninstall.out")"
left=$(cd "$U_H" && find . | LC_ALL=C sort | tr '\n' ' ')
want="$(printf '%s ' . ./.local ./.local/bin ./.local/bin/other-tool ./.local/share \
	./.local/share/bash-completion ./.local/share/bash-completion/completions \
	./.local/share/bash-completion/completions/mytool ./.local/share/man ./.local/share/man/man1)"
if [ "$left" = "$want" ]; then
	pass "user uninstall: the directories install created are gone; kept $(grep -c '^kept ' "$T/uuninstall.out") that hold a file of the user's, and bin and man1 that were there before"
else
	fail "user uninstall left: $left (expected: $want); $(grep '^kept\|^rmdir' "$T/uuninstall.out" | tr '\n' ' ')"
fi
grep -q "^kept $U_P/share/bash-completion/completions (not empty)$" "$T/uuninstall.out" ||
	fail "user uninstall did not say it kept $U_P/share/bash-completion/completions: $(cat "$T/uuninstall.out")"
finish install
