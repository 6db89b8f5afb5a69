#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The lab's headline across boots: for each vm-limit run (one boot each,
# made with --host-rounds so the host's runs sit beside it), per profile,
# lavd's 1 % low over the default's in the VM with the background, against
# the cell's fidelity (the VM's default over the host's default, same
# session). A gain measured where the VM's default is far below the
# host's (outside 0.85-1.15: lab-bound) may be the emulator's; the plot
# shows whether the gain shrinks as the cell gets more faithful. The host's
# own ratio (lavd --eevdf over the default, real CPUs) is drawn at
# fidelity 1 for reference.
#
#   vm/headline.sh [--html FILE] [--svg FILE] DIR...
# DIR: a vm/limit.sh --out directory (its summary.txt, written by
# vm/limit-table.sh --summary). Prints the table; --svg writes the plot,
# --html a page with the plot and the table.
set -u
html="" svg=""
while [ $# -gt 0 ]; do
	case $1 in
	--html) [ $# -ge 2 ] || { echo "vm/headline.sh: --html needs a file" >&2; exit 2; }; html=$2; shift 2 ;;
	--svg) [ $# -ge 2 ] || { echo "vm/headline.sh: --svg needs a file" >&2; exit 2; }; svg=$2; shift 2 ;;
	-h|--help) sed -n '3,17p' "$0"; exit 0 ;;
	-*) echo "vm/headline.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: vm/headline.sh [--html FILE] [--svg FILE] DIR..." >&2; exit 2; }
here=$(dirname "$0")
all=$(mktemp)
trap 'rm -f "$all"' EXIT
i=0
for d in "$@"; do
	[ -s "$d/summary.txt" ] || { echo "vm/headline.sh: $d/summary.txt missing or empty (vm/limit.sh --host-rounds writes it)" >&2; exit 2; }
	# the boot's label: its number and when its summary was written (UTC)
	i=$((i + 1))
	label="$i: $(date -u -r "$d/summary.txt" '+%m-%d %H:%M')"
	sed "s|^|$label\t|" "$d/summary.txt" >> "$all"
done
[ -z "$svg" ] && [ -n "$html" ] && svg=$html.svg.tmp
awk -F '\t' -v svg="${svg:-/dev/null}" "$(cat "$here/stats.awk")"'
	function m(k) { return n[k] ? s[k] / n[k] : 0 }
	function sdv(k) { return gs_sd(n[k], s[k], q[k]) }
	{
		split($2, f, " ")
		# f: vm|host PROFILE BG ARM n sum sumsq
		if (f[3] == "none") next
		k = $1 SUBSEP f[1] SUBSEP f[2] SUBSEP f[4]
		n[k] = f[5]; s[k] = f[6]; q[k] = f[7]; bg = f[3]
		# pooled over the boots
		k = f[1] SUBSEP f[2] SUBSEP f[4]
		n[k] += f[5]; s[k] += f[6]; q[k] += f[7]
		if (!($1 in seenb)) { seenb[$1] = 1; boots[++nb] = $1 }
		if (!(f[2] in seenp)) { seenp[f[2]] = 1; profs[++np] = f[2] }
	}
	END {
		printf "== lavd / default, 1 %% low FPS with %s, per boot (VM, TCG) against the cell'"'"'s fidelity\n", bg
		printf "   %-17s %-9s %-12s %-12s %-18s %-12s %-14s %s\n", "boot ended (UTC)", "profile", "VM default",
			"VM lavd", "lavd/default (t)", "host default", "fidelity", "host lavd --eevdf/default"
		for (b = 1; b <= nb; b++) for (i = 1; i <= np; i++) {
			B = boots[b]; p = profs[i]
			d = B SUBSEP "vm" SUBSEP p SUBSEP "default"; l = B SUBSEP "vm" SUBSEP p SUBSEP "lavd"
			h = B SUBSEP "host" SUBSEP p SUBSEP "default"; he = B SUBSEP "host" SUBSEP p SUBSEP "lavd"
			if (!n[d] || !n[l]) continue
			t = gs_welch(n[l], s[l], q[l], n[d], s[d], q[d])
			r = m(l) / m(d); fd = n[h] ? m(d) / m(h) : 0
			hr = n[he] && n[h] ? sprintf("%.2f", m(he) / m(h)) : "-"
			printf "   %-17s %-9s %5.1f +- %-4.1f %5.1f +- %-4.1f %4.2f (t %-8s %-12s %-14s %s\n", B, p,
				m(d), sdv(d), m(l), sdv(l), r, t == "" ? "-)" : sprintf("%+.1f)", t),
				n[h] ? sprintf("%.1f", m(h)) : "-",
				fd ? sprintf("%.2f%s", fd, fd < 0.85 || fd > 1.15 ? " lab-bound" : "") : "-", hr
			pt[++npt] = fd SUBSEP r SUBSEP p SUBSEP b
			if (hr != "-") hpt[++nh] = (m(he) / m(h)) SUBSEP p
			if (fd >= 0.85 && fd <= 1.15) { nf++; fmin = nf == 1 || r < fmin ? r : fmin; fmax = nf == 1 || r > fmax ? r : fmax }
			else if (fd) { nl++; lmin = nl == 1 || r < lmin ? r : lmin; lmax = nl == 1 || r > lmax ? r : lmax }
		}
		printf "   faithful cells (0.85-1.15): %d", nf
		if (nf) printf ", lavd/default %.2f-%.2f", fmin, fmax
		printf "; lab-bound cells: %d", nl
		if (nl) printf ", lavd/default %.2f-%.2f", lmin, lmax
		printf "\n"
		pooled()
		if (svg != "/dev/null") plot()
	}
	# the sign of cell a against cell b (stats.awk)
	function vs(a, b) { return gs_sign(n[a], s[a], q[a], n[b], s[b], q[b]) }
	# every boot pooled: lavd/default and the fidelity, then the ranking:
	# lavd --eevdf against the peers on the host, and sched_ext lavd and
	# lavd --eevdf against the same peers in the VM
	function pooled(   i, p, d, l, h, t, peers, vmp, j, w, who, hs, line, agree, asked, sg) {
		printf "\n== pooled over %d boot(s): mean +- sd of every run kept\n", nb
		split("default nice10 fifo", peers, " ")
		vmp["default"] = "default"; vmp["nice10"] = "default:--nice:-10"; vmp["fifo"] = "fifo"
		split("lavd:--eevdf lavd", who, " ")
		for (i = 1; i <= np; i++) {
			p = profs[i]
			d = "vm" SUBSEP p SUBSEP "default"; l = "vm" SUBSEP p SUBSEP "lavd"; h = "host" SUBSEP p SUBSEP "default"
			if (!n[d] || !n[l]) continue
			t = gs_welch(n[l], s[l], q[l], n[d], s[d], q[d])
			printf "   %-9s VM lavd/default %.2f (%.1f vs %.1f, t %s, n %d/%d); fidelity %s\n", p, m(l) / m(d),
				m(l), m(d), t == "" ? "-" : sprintf("%+.1f", t), n[l], n[d],
				n[h] ? sprintf("%.2f", m(d) / m(h)) : "-"
			line = "host lavd --eevdf:"
			for (j = 1; j <= 3; j++) {
				hs[j] = vs("host" SUBSEP p SUBSEP "lavd", "host" SUBSEP p SUBSEP peers[j])
				line = line " " peers[j] " " hs[j]
			}
			for (w = 1; w <= 2; w++) {
				if (!n["vm" SUBSEP p SUBSEP who[w]]) continue
				line = line "; VM " (w == 2 ? "lavd" : "lavd --eevdf") ":"
				agree = asked = 0
				for (j = 1; j <= 3; j++) {
					sg = vs("vm" SUBSEP p SUBSEP who[w], "vm" SUBSEP p SUBSEP vmp[peers[j]])
					line = line " " peers[j] " " sg
					if (sg != "?" && hs[j] != "?") { asked++; agree += sg == hs[j] }
				}
				line = line sprintf(" (agrees %d of %d)", agree, asked)
			}
			printf "   %-9s ranking (+ better, - worse, = |t| < 2): %s\n", p, line
		}
	}
	# the plot: fidelity across, lavd/default up; one colour per profile,
	# one marker per boot; the faithful band shaded; host ratios at x = 1
	function X(v) { return 60 + (v - x0) / (x1 - x0) * 540 }
	function Y(v) { return 380 - (v - y0) / (y1 - y0) * 340 }
	function plot(   i, a, c, col, x, y, g) {
		x0 = 0.3; x1 = 1.3; y0 = 0.5; y1 = 1.5
		for (i = 1; i <= npt; i++) { split(pt[i], a, SUBSEP); if (a[1] && a[1] < x0) x0 = a[1] - 0.05
			if (a[1] > x1) x1 = a[1] + 0.05; if (a[2] > y1) y1 = a[2] + 0.2 }
		for (i = 1; i <= nh; i++) { split(hpt[i], a, SUBSEP); if (a[1] > y1) y1 = a[1] + 0.2 }
		split("#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b", col, " ")
		for (i = 1; i <= np; i++) colour[profs[i]] = col[(i - 1) % 6 + 1]
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"430\" font-family=\"sans-serif\" font-size=\"12\">\n" > svg
		printf "<rect x=\"%.1f\" y=\"40\" width=\"%.1f\" height=\"340\" fill=\"#e8f5e9\"/>\n", X(0.85), X(1.15) - X(0.85) > svg
		printf "<text x=\"%.1f\" y=\"54\" fill=\"#2e7d32\">faithful 0.85-1.15</text>\n", X(0.86) > svg
		printf "<line x1=\"60\" y1=\"%.1f\" x2=\"600\" y2=\"%.1f\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n", Y(1), Y(1) > svg
		printf "<rect x=\"60\" y=\"40\" width=\"540\" height=\"340\" fill=\"none\" stroke=\"#333\"/>\n" > svg
		for (g = 0; g <= 10; g++) {
			x = x0 + g * (x1 - x0) / 10; y = y0 + g * (y1 - y0) / 10
			printf "<text x=\"%.1f\" y=\"396\" text-anchor=\"middle\">%.2f</text>\n", X(x), x > svg
			printf "<text x=\"54\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n", Y(y) + 4, y > svg
		}
		printf "<text x=\"330\" y=\"420\" text-anchor=\"middle\">fidelity: the VM default / the host default (1 %% low, %s)</text>\n", bg > svg
		printf "<text x=\"16\" y=\"210\" transform=\"rotate(-90 16 210)\" text-anchor=\"middle\">lavd / default, 1 %% low (VM)</text>\n" > svg
		printf "<text x=\"60\" y=\"24\" font-size=\"14\">lavd over the default in the VM, per boot and profile, against the cell'"'"'s fidelity</text>\n" > svg
		for (i = 1; i <= npt; i++) {
			split(pt[i], a, SUBSEP); if (!a[1]) continue
			c = colour[a[3]]; x = X(a[1]); y = Y(a[2])
			if (a[4] % 3 == 1) printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>\n", x, y, c > svg
			else if (a[4] % 3 == 2) printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\"/>\n", x - 4.5, y - 4.5, c > svg
			else printf "<path d=\"M%.1f %.1f l5 9 h-10 z\" fill=\"%s\"/>\n", x, y - 5, c > svg
		}
		for (i = 1; i <= nh; i++) {
			split(hpt[i], a, SUBSEP); x = X(1); y = Y(a[1])
			printf "<path d=\"M%.1f %.1f l5 5 l-5 5 l-5 -5 z\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", x, y - 5, colour[a[2]] > svg
		}
		for (i = 1; i <= np; i++)
			printf "<rect x=\"612\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"628\" y=\"%d\">%s</text>\n",
				40 + 18 * i, colour[profs[i]], 49 + 18 * i, profs[i] > svg
		for (b = 1; b <= nb; b++)
			printf "<text x=\"612\" y=\"%d\">%s boot %s</text>\n", 60 + 18 * (np + b),
				b % 3 == 1 ? "o" : b % 3 == 2 ? "#" : "^", boots[b] > svg
		printf "<text x=\"612\" y=\"%d\">&lt;&gt; host lavd --eevdf</text>\n", 78 + 18 * (np + nb) > svg
		printf "</svg>\n" > svg
	}' "$all" > "$all.table" || exit 1
cat "$all.table"
if [ -n "$html" ]; then
	{
		echo '<!DOCTYPE html><html><head><meta charset="utf-8"><title>lavd / default against fidelity</title></head><body>'
		cat "$svg"
		echo '<pre>'
		sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' "$all.table"
		echo "</pre><p>vm/headline.sh $*</p></body></html>"
	} > "$html"
	case $svg in *.svg.tmp) rm -f "$svg" ;; esac
fi
rm -f "$all.table"
