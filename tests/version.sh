#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# One version everywhere: lib/version.h defines it; every program's
# --version, `make version`, the generated man pages and debian/changelog's
# newest entry say the same.
. tests/lib.sh

v=$(sed -n 's/^#define GS_VERSION "\(.*\)"$/\1/p' lib/version.h)
[ -n "$v" ] || { echo "FAIL: no GS_VERSION in lib/version.h"; exit 1; }
echo "lib/version.h: $v"

for p in framebench gamesuite frametrace lavd; do
	need "$B/$p"
	line=$("$B/$p" --version 2>&1 | head -n 1)
	case $line in
	"$p $v"|"$p $v "*) pass "$p --version: $line" ;;
	*) fail "$p --version says '$line', expected '$p $v ...'" ;;
	esac
done

mv=$(unset MAKEFLAGS MAKELEVEL MFLAGS; make -s --no-print-directory BUILD="$B" version 2>&1)
[ "$mv" = "$v" ] && pass "make version: $mv" || fail "make version says '$mv'"

for page in "$B"/man/framebench.1 "$B"/man/gamesuite.1 "$B"/man/frametrace.1 "$B"/man/lavd.8; do
	[ -f "$page" ] || { fail "$page missing (make extras)"; continue; }
	grep -q "^\.TH .* \"gamesched $v\"" "$page" &&
		pass "$page: gamesched $v" || fail "$page: .TH lacks \"gamesched $v\": $(grep '^\.TH' "$page")"
done

if command -v dpkg-parsechangelog >/dev/null 2>&1; then
	dv=$(dpkg-parsechangelog -l debian/changelog -S Version)
else
	dv=$(sed -n '1s/^gamesched (\([^)]*\)).*/\1/p' debian/changelog)
fi
[ "$dv" = "$v" ] && pass "debian/changelog: $dv" ||
	fail "debian/changelog's newest entry is '$dv', lib/version.h says '$v' (add a changelog entry: docs/install.md, Versions)"
finish version
