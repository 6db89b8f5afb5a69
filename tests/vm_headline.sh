#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# vm/headline.sh on two made-up boots (vm/limit-table.sh --summary lines):
# per boot lavd/default against the fidelity, the lab-bound mark, the
# pooled figures and ranking, the SVG plot and the HTML page.
. tests/lib.sh
mkdir -p "$T/a" "$T/b"
# boot a: the VM's default 30/32/34 with hogs (mean 32), lavd 48/50/52
# (50): 1.56, t = 18 / sqrt(4/3 + 4/3) = +11.0; the host's default 40:
# fidelity 0.80, lab-bound. boot b: the VM's default 44/46/48 (46):
# fidelity 1.15, the faithful band's edge. Pooled: the default's six runs
# (mean 39, sd 7.9) against lavd's (50, sd 1.8): t = 11 / 3.30 = +3.3.
cat > "$T/a/summary.txt" <<'E'
vm proton none default 3 180 10808
vm proton hogs:2 default 3 96 3080
vm proton hogs:2 lavd 3 150 7508
vm proton hogs:2 default:--nice:-10 3 120 4808
host proton hogs:2 default 3 120 4802
host proton hogs:2 nice10 3 165 9077
host proton hogs:2 lavd 3 174 10094
E
sed 's/^vm proton hogs:2 default 3 96 3080$/vm proton hogs:2 default 3 138 6356/' "$T/a/summary.txt" > "$T/b/summary.txt"
vm/headline.sh --html "$T/h.html" --svg "$T/h.svg" "$T/a" "$T/b" > "$T/out" 2>&1 ||
	fail "headline.sh failed: $(cat "$T/out")"
cat "$T/out"
grep -Eq 'proton +32\.0 \+- 2\.0 +50\.0 \+- 2\.0 +1\.56 \(t \+11\.0\) +40\.0 +0\.80 lab-bound +1\.45$' "$T/out" &&
	pass "boot a: lavd/default 1.56 (t +11.0), fidelity 0.80 lab-bound, host ratio 1.45" || fail "no boot a line"
grep -Eq 'proton +46\.0 \+- 2\.0 +50\.0 \+- 2\.0 +1\.09 \(t \+2\.4\) +40\.0 +1\.15 +1\.45$' "$T/out" &&
	pass "boot b: fidelity 1.15 is faithful (the band's edge)" || fail "no boot b line"
grep -q 'faithful cells (0.85-1.15): 1, lavd/default 1.09-1.09; lab-bound cells: 1, lavd/default 1.56-1.56' "$T/out" &&
	pass "faithful and lab-bound cells counted apart" || fail "no cell count line"
# pooled: the VM's default 30..34 and 44..48 (mean 39), lavd 50 (n 6)
grep -q 'proton    VM lavd/default 1.28 (50.0 vs 39.0, t +3.3, n 6/6); fidelity 0.97' "$T/out" &&
	pass "pooled: lavd/default 1.28 over both boots, fidelity 0.97" || fail "no pooled line"
grep -q 'ranking (+ better, - worse, = |t| < 2): host lavd --eevdf: default + nice10 + fifo ?; VM lavd: default + nice10 + fifo ? (agrees 2 of 2)' "$T/out" &&
	pass "pooled ranking: sched_ext lavd agrees with the host on 2 of 2 peers" || fail "no pooled ranking"
[ "$(grep -c '<circle' "$T/h.svg")" -eq 1 ] && [ "$(grep -c '<rect x="[0-9.]*" y="[0-9.]*" width="9"' "$T/h.svg")" -eq 1 ] &&
	grep -q '</svg>' "$T/h.svg" && pass "SVG: one marker per boot, closed" || fail "SVG: $(head -c 300 "$T/h.svg")"
grep -q '<svg' "$T/h.html" && grep -q 'lab-bound' "$T/h.html" && pass "HTML: the plot and the table" || fail "HTML page"
vm/headline.sh "$T/none" > "$T/out" 2>&1
[ $? -eq 2 ] && grep -q 'summary.txt missing' "$T/out" && pass "a directory without summary.txt: exit 2 naming it" ||
	fail "missing summary: $(cat "$T/out")"
finish "VM headline"
