#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The Debian package (debian/, docs/install.md): built with
# `dpkg-buildpackage -b -us -uc` from a copy of this tree (its tracked and
# untracked, not ignored files: what a clone plus the work in progress
# holds) under a temporary directory, never in the checkout, with an empty
# HOME and no GAMESCHED_* variable: from what the source holds, without
# the kernel that scripts/deps.sh downloads (no ~/.cache/gamesched); then
#   - its contents (dpkg-deb -c): programs, man pages, unit, completions,
#     profiles, suites, MangoHud.conf, /etc/default/lavd (a conffile);
#     frametrace in /usr/bin with its page in man1;
#   - libbpf linked statically (no libbpf in Depends or NEEDED);
#   - the data directory compiled in is /usr/share/gamesched;
#   - the unit (ExecReload, Conflicts) is not enabled by the maintainer
#     scripts;
#   - lintian reports no error (warnings are printed).
# Skipped (77) without the build dependencies (scripts/deps.sh installs
# them). About a minute on 2 CPUs;
# the unit tests are left to `make test` (nocheck).
. tests/lib.sh
for t in dpkg-buildpackage dpkg-checkbuilddeps dpkg-deb dh lintian; do
	command -v $t >/dev/null 2>&1 || skip "no $t (scripts/deps.sh installs dpkg-dev, debhelper and lintian)"
done
v=$(sed -n 's/^#define GS_VERSION "\(.*\)"$/\1/p' lib/version.h)
start=$(date +%s)

# the copy
S=$T/src/gamesched-$v
mkdir -p "$S"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# (a tracked file deleted in the work tree is left out)
	git ls-files -z -c -o --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -C "$S" -xf - ||
		{ echo "FAIL: copying the tree"; exit 1; }
else
	tar --exclude=./build --exclude=./.git -cf - . | tar -C "$S" -xf -
fi

if ! (cd "$S" && dpkg-checkbuilddeps) > "$T/deps.out" 2>&1; then
	skip "build dependencies missing: $(tail -n 1 "$T/deps.out")"
fi

# the build, as a builder without the downloaded kernel: an empty HOME
# (no ~/.cache/gamesched), no GAMESCHED_CACHE or GAMESCHED_KERNEL. Nothing
# of this test's environment steers the package's make: BUILD (run.sh's
# build directory) would send its build and `make clean` there
unset MAKEFLAGS MAKELEVEL MFLAGS BUILD GAMESCHED_CACHE GAMESCHED_KERNEL XDG_CACHE_HOME
mkdir "$T/home"
if ! (cd "$S" && HOME=$T/home DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
	dpkg-buildpackage -b -us -uc) > "$T/build.log" 2>&1; then
	tail -n 40 "$T/build.log"
	echo "FAIL: dpkg-buildpackage -b -us -uc"
	exit 1
fi
deb=$T/src/gamesched_${v}_amd64.deb
[ -f "$deb" ] || { ls "$T/src"; echo "FAIL: no $deb"; exit 1; }
pass "dpkg-buildpackage -b -us -uc with an empty HOME: $(cd "$T/src" && ls ./*.deb | tr '\n' ' ')($(( $(date +%s) - start )) s)"
grep -q '^cp lib/vmlinux/vmlinux.h build/bpf/vmlinux.h$' "$T/build.log" && ! grep -q 'vm/kernel.sh' "$T/build.log" &&
	pass "the BPF programs built against the committed lib/vmlinux/vmlinux.h" ||
	fail "the build did not use lib/vmlinux/vmlinux.h: $(grep 'vmlinux' "$T/build.log" | head -n 3)"
[ -z "$(ls -A "$T/home")" ] || fail "the build wrote into HOME: $(ls -A "$T/home")"

# contents
dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' > "$T/list"
for f in /usr/bin/framebench /usr/bin/gamesuite /usr/bin/frametrace /usr/sbin/lavd \
	/usr/share/man/man1/framebench.1.gz /usr/share/man/man1/gamesuite.1.gz \
	/usr/share/man/man1/frametrace.1.gz /usr/share/man/man8/lavd.8.gz \
	/lib/systemd/system/lavd.service /etc/default/lavd \
	/usr/share/bash-completion/completions/framebench \
	/usr/share/bash-completion/completions/gamesuite \
	/usr/share/bash-completion/completions/frametrace \
	/usr/share/bash-completion/completions/lavd \
	/usr/share/gamesched/MangoHud.conf /usr/share/doc/gamesched/copyright \
	$(for p in framebench/profiles/*.profile; do echo "/usr/share/gamesched/profiles/${p##*/}"; done) \
	$(for s in gamesuite/suites/*.suite; do echo "/usr/share/gamesched/suites/${s##*/}"; done) \
	$(for g in lavd/profiles/*.conf; do echo "/usr/share/gamesched/lavd-profiles/${g##*/}"; done); do
	grep -qx -- "$f" "$T/list" || fail "package lacks $f"
done
grep -q '/sbin/frametrace$\|/man8/frametrace' "$T/list" && fail "package holds frametrace in sbin or man8: $(grep 'frametrace' "$T/list" | tr '\n' ' ')"
grep -q '/churn$\|/scx_minimal$\|/tests/\|/build/' "$T/list" && fail "package holds build or test files: $(grep '/churn$\|/scx_minimal$\|/tests/\|/build/' "$T/list")"
pass "contents: $(grep -c '[^/]$' "$T/list") files, programs, man pages, unit, completions, data"

# libbpf inside, the rest from bookworm; the data directory compiled in
dep=$(dpkg-deb -f "$deb" Depends)
case $dep in *libbpf*) fail "Depends names libbpf: $dep" ;; *) pass "Depends: $dep" ;; esac
dpkg-deb -x "$deb" "$T/x"
if command -v readelf >/dev/null 2>&1; then
	for p in usr/sbin/lavd usr/bin/frametrace; do
		readelf -d "$T/x/$p" | grep -q 'NEEDED.*libbpf' && fail "$p is linked to libbpf.so"
	done
fi
grep -q '/usr/share/gamesched' "$T/x/usr/bin/gamesuite" ||
	fail "gamesuite does not hold the data directory /usr/share/gamesched"
"$T/x/usr/bin/framebench" --version | grep -q "^framebench $v " || fail "packaged framebench --version"
for l in 'ExecStart=/usr/sbin/lavd --auto $LAVD_OPTS' 'EnvironmentFile=-/etc/default/lavd' \
	'ExecReload=/bin/kill -HUP $MAINPID' 'Conflicts=scx.service scx_loader.service'; do
	grep -qxF -- "$l" "$T/x/lib/systemd/system/lavd.service" || fail "the packaged unit lacks $l"
done

# maintainer scripts: /etc/default/lavd a conffile, the unit not enabled
dpkg-deb -e "$deb" "$T/ctl"
grep -qx /etc/default/lavd "$T/ctl/conffiles" || fail "/etc/default/lavd is no conffile"
if grep -q 'deb-systemd-helper enable' "$T/ctl/postinst" &&
   ! grep -q "deb-systemd-helper debian-installed 'lavd.service'" "$T/ctl/postinst"; then
	fail "postinst enables lavd.service"
else
	pass "maintainer scripts: conffile, lavd.service re-enabled only where an administrator had enabled it"
fi

# lintian
lintian --fail-on error --color never "$T/src/gamesched_${v}_amd64.changes" > "$T/lintian.out" 2>&1
rc=$?
grep -v 'running with root privileges' "$T/lintian.out" | sed 's/^/lintian: /'
[ $rc -eq 0 ] && pass "lintian: no error ($(grep -c '^W:' "$T/lintian.out") warning lines)" ||
	fail "lintian exit $rc: $(grep '^E:' "$T/lintian.out" | tr '\n' ' ')"
echo "took $(( $(date +%s) - start )) s"
finish package
