#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The lint's own test: each rule of tests/lint.sh is shown a fixture that
# breaks it, in a scratch copy of the tree, and must fail with its finding;
# a function at the limit, a room's include, the untouched build and an
# ignored file must pass. Takes a few seconds.
. tests/lib.sh

lint=tests/lint.sh
max_file=$(sed -n 's/^MAX_FILE=//p' $lint)
max_func=$(sed -n 's/^MAX_FUNC=//p' $lint)
max_progs=$(sed -n 's/^MAX_BPF_PROGS=//p' $lint)
[ -n "$max_file" ] && [ -n "$max_func" ] && [ -n "$max_progs" ] ||
	{ echo "FAIL: $lint states no MAX_FILE, MAX_FUNC or MAX_BPF_PROGS"; exit 1; }

tree=$T/tree
mkdir "$tree"
{ git ls-files; git ls-files --others --exclude-standard; } | tar -cf - -T - | tar -xf - -C "$tree" ||
	{ echo "FAIL: cannot copy the tree"; exit 1; }

# must_fail NAME FINDING FILE...: the lint on FILEs of the scratch tree
# exits 1 with a line holding FINDING (a fixed string)
must_fail() {
	name=$1 want=$2
	shift 2
	sh $lint -C "$tree" "$@" >"$T/out" 2>&1
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "$name: lint exit $rc, expected 1: $(tail -3 "$T/out")"
	elif ! grep -qF -- "$want" "$T/out"; then
		fail "$name: no '$want' in: $(grep FAIL "$T/out" | head -3)"
	else
		pass "$name: $(grep -F -- "$want" "$T/out" | head -1)"
	fi
}
must_pass() {
	name=$1
	shift
	if sh $lint -C "$tree" "$@" >"$T/out" 2>&1; then
		pass "$name: clean"
	else
		fail "$name: lint failed: $(grep FAIL "$T/out" | head -3)"
	fi
}
# lines N: N lines of a function body
lines() { i=0; while [ $i -lt "$1" ]; do echo "	x += $i;"; i=$((i + 1)); done; }
# edit FILE TEXT: TEXT appended to the scratch tree's FILE (kept in
# FILE.orig; restore puts every such file back)
edit() { [ -e "$tree/$1.orig" ] || cp "$tree/$1" "$tree/$1.orig"; printf '%s\n' "$2" >>"$tree/$1"; }
restore() { for o in "$tree"/*.orig "$tree"/*/*.orig; do [ -e "$o" ] && mv "$o" "${o%.orig}"; done; }

# Sizes.
{ echo 'int f(int x) {'; lines $((max_func - 3)); echo '	return x;'; echo '}'; } >"$tree/framebench/fx_fn.c"
must_pass "a function of $max_func lines, brace on its declarator line" framebench/fx_fn.c
{ echo 'int f(int x) {'; lines $((max_func - 2)); echo '	return x;'; echo '}'; } >"$tree/framebench/fx_fn.c"
must_fail "function, brace on its declarator line" "f(): $((max_func + 1)) lines" framebench/fx_fn.c
{ echo 'static int'; echo 'g(int x)'; echo '{'; lines "$max_func"; echo '	return x;'; echo '}'; } >"$tree/framebench/fx_fn.c"
must_fail "function, brace on its own line" "g(): $((max_func + 4)) lines" framebench/fx_fn.c
{ echo 'SEC("tp/x")'; echo 'int BPF_PROG(on_x, int a) {'; lines "$max_func"; echo '	return 0;'; echo '}'; } >"$tree/lavd/fx.bpf.h"
must_fail "BPF program, named by its first argument" "on_x(): $((max_func + 3)) lines" lavd/fx.bpf.h
rm -f "$tree/framebench/fx_fn.c" "$tree/lavd/fx.bpf.h"
{ lines $((max_file + 1)); } >"$tree/gamesuite/fx_big.h"
must_fail "file size" "fx_big.h:1: $((max_file + 1)) lines" gamesuite/fx_big.h
rm -f "$tree/gamesuite/fx_big.h"

# Includes, however spelt.
n=0
for inc in '#  include "../framebench/engine.h"' '	# include <../lavd/intf.h>' \
	'#include "lavd/intf.h"' '%:include "../gamesuite/suite.h"' '#include_next "../vm/x.h"' \
	'#define H "../lavd/intf.h"
#include H'; do
	n=$((n + 1))
	printf '%s\nint fx%d;\n' "$inc" $n >"$tree/frametrace/fx_inc.c"
	case $inc in
	*'include H') want="an include by macro" ;;
	*) want="frametrace/fx_inc.c:1: includes" ;;
	esac
	must_fail "include $n: $(echo "$inc" | head -1)" "$want" frametrace/fx_inc.c
done
printf '#include "../framebench/engine.h"\n' >"$tree/lib/fx_inc.h"
must_fail "include from lib/" "lib/fx_inc.h:1: includes framebench/engine.h" lib/fx_inc.h
rm -f "$tree/frametrace/fx_inc.c" "$tree/lib/fx_inc.h"
printf '#include "trace/trace.h"\nint fx;\n' >"$tree/frametrace/import/fx_room.c"
must_pass "a room's include named from the tool's folder" frametrace/import/fx_room.c
printf '#include "../trace/trace.h"\nint fx;\n' >"$tree/frametrace/import/fx_room.c"
must_fail "an include climbing out of a room" "fx_room.c:1: includes ../trace/trace.h by climbing" frametrace/import/fx_room.c
printf '#include "fx_b.h"\n' >"$tree/gamesuite/fx_a.h"
printf '#include "fx_a.h"\n' >"$tree/gamesuite/fx_b.h"
must_fail "an include circle" "an include circle: gamesuite/fx_" gamesuite/fx_a.h gamesuite/fx_b.h
rm -f "$tree/frametrace/import/fx_room.c" "$tree/gamesuite/fx_a.h" "$tree/gamesuite/fx_b.h"

# Build flags in any makefile, any spelling, and another tool's objects.
must_pass "the untouched build rules" Makefile
edit tests/module.mk '$(BUILD)/obj/gamesuite/%.o: CFLAGS += -I lavd'
must_fail "-I DIR in tests/module.mk" "tests/module.mk:" tests/module.mk
restore
edit vm/module.mk '$(BUILD)/vm/churn.o: CFLAGS += -I./framebench/'
must_fail "-I./DIR in vm/module.mk" "vm/module.mk:" vm/module.mk
restore
edit Makefile '$(BUILD)/ft/%.o: CFLAGS += -I$(CURDIR)/gamesuite'
must_fail "-I\$(CURDIR)/DIR in the Makefile" "compiled with" Makefile
restore
edit lavd/module.mk '$(LAVD_OBJDIR)/%.o: CFLAGS += -iquote frametrace'
must_fail "-iquote DIR" "frametrace's folder" lavd/module.mk
restore
edit tests/module.mk '$(BUILD)/frametrace: $(FB_LIB)'
must_fail "another tool's archive on a link line" "links build/obj/framebench/libfb.a" tests/module.mk
restore

# lavd's BPF.
i=0
while [ $i -le "$max_progs" ]; do printf 'SEC("tp/x%d")\nint p%d(void *c) { return 0; }\n' $i $i; i=$((i + 1)); done >"$tree/lavd/fx.bpf.h"
must_fail "BPF program count" "$((max_progs + 1)) BPF programs" lavd/fx.bpf.h
printf 'static void f(void)\n{\n\tfor (u32 i = 0; i < nr_cpu_ids; i++)\n\t\t;\n}\n' >"$tree/lavd/fx.bpf.h"
must_fail "a CPU loop that is no bpf_loop" "lavd/fx.bpf.h:3: a loop bounded" lavd/fx.bpf.h
rm -f "$tree/lavd/fx.bpf.h"

# The two checkers: a shellcheck warning, a cppcheck error.
printf '#!/bin/sh\ncd /nowhere\necho hi\n' >"$tree/tests/fx.sh"
must_fail "shellcheck" "shellcheck:" tests/fx.sh
printf 'int f(void)\n{\n\tint a[2];\n\ta[2] = 0;\n\treturn a[0];\n}\n' >"$tree/gamesuite/fx_cc.c"
must_fail "cppcheck" "cppcheck" gamesuite/fx_cc.c
rm -f "$tree/tests/fx.sh" "$tree/gamesuite/fx_cc.c"

# Files git does not know yet are linted, those it ignores are not.
repo=$T/repo
mkdir -p "$repo/framebench"
git -C "$repo" init -q || { echo "FAIL: git init"; exit 1; }
echo 'int ok;' >"$repo/framebench/ok.c"
echo '/framebench/ignored.h' >"$repo/.gitignore"
git -C "$repo" add framebench/ok.c .gitignore
lines $((max_file + 1)) >"$repo/framebench/ignored.h"
if sh $lint -C "$repo" >"$T/out" 2>&1; then
	pass "an ignored file is not linted"
else
	fail "an ignored file was linted: $(grep FAIL "$T/out" | head -3)"
fi
lines $((max_file + 1)) >"$repo/framebench/new.h"
if sh $lint -C "$repo" >"$T/out" 2>&1; then
	fail "an untracked file was not linted"
elif grep -q 'framebench/new.h:1:' "$T/out"; then
	pass "an untracked file is linted: $(grep new.h "$T/out")"
else
	fail "untracked file: no finding on framebench/new.h: $(grep FAIL "$T/out" | head -3)"
fi

finish lint_selftest
