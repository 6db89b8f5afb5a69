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
#   - an unwritable DESTDIR fails with make's error.
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
cat > "$T/want" <<LIST
/etc/default/lavd
$P/bin/framebench
$P/bin/gamesuite
$P/lib/systemd/system/lavd.service
$P/sbin/frametrace
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
$P/share/man/man1/gamesuite.1
$P/share/man/man8/frametrace.8
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
for f in $P/bin/framebench $P/bin/gamesuite $P/sbin/frametrace $P/sbin/lavd; do
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
for want in 'ConditionPathExists=/sys/kernel/sched_ext' 'EnvironmentFile=-/etc/default/lavd' \
	"ExecStart=$P/sbin/lavd \$LAVD_OPTS" 'Restart=on-failure' 'RestartPreventExitStatus=2' \
	'StartLimitIntervalSec=' 'StartLimitBurst=' 'WantedBy=multi-user.target'; do
	grep -qF -- "$want" "$U" || fail "lavd.service lacks $want"
done
grep -q '^LAVD_OPTS="--stats 60"$' "$D/etc/default/lavd" || fail "default/lavd: no LAVD_OPTS=\"--stats 60\""
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
echo 'LAVD_OPTS="--stats 60 --no-such-option"' > "$D/etc/default/lavd"
opts=$(sed -n 's/^LAVD_OPTS="\(.*\)"$/\1/p' "$D/etc/default/lavd")
set -f
"$D$P/sbin/lavd" $opts > "$T/out" 2> "$T/err"
rc=$?
set +f
if [ $rc -eq 2 ] && grep -qx "lavd: unknown option '--no-such-option' (see --help)" "$T/err"; then
	pass "ExecStart with a bad LAVD_OPTS: exit 2, '$(cat "$T/err")'"
else
	fail "ExecStart with a bad LAVD_OPTS: exit $rc, stderr: $(cat "$T/err")"
fi

# a second install keeps the changed default file
mk DESTDIR="$D" install > "$T/install2.out" 2>&1 || fail "second make install"
grep -q 'kept .*/etc/default/lavd' "$T/install2.out" && grep -q 'no-such-option' "$D/etc/default/lavd" &&
	pass "a second install keeps a changed /etc/default/lavd" ||
	fail "second install: $(cat "$T/install2.out")"

# uninstall: what install put goes; mine.profile and the changed default stay
mk DESTDIR="$D" uninstall > "$T/uninstall.out" 2>&1 || fail "make uninstall: $(cat "$T/uninstall.out")"
left=$(cd "$D" && find . ! -type d | sed 's/^\.//' | sort | tr '\n' ' ')
[ "$left" = "/etc/default/lavd $P/share/gamesched/profiles/mine.profile " ] &&
	pass "uninstall: removed all it installed; kept: $left" || fail "uninstall left: $left"
rm -f "$S/profiles/mine.profile"
cp dist/lavd.default "$D/etc/default/lavd"
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
finish install
