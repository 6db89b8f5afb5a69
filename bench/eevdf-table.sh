#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The tables of bench/eevdf-host.sh from its runs.tsv: per background,
# each profile's 1 % low FPS under each arm (mean ± sd over the rounds,
# the limit ratio against the default's own figure without background),
# the background's work per second, and Welch's t of lavd --eevdf against
# the default and against nice -10. Runs during which the rest of the
# machine used MAX CPUs or more are left out, and counted. Runs with a
# build in the background are not filtered that way: the sampler of the
# first measurement (2026-12-06) counted the build's own reaped jobs as
# the rest of the machine; every run still started on a quiet machine.
#
#   bench/eevdf-table.sh RUNS.TSV [META] [MAX]     (MAX default 0.3)
set -eu
tsv=$1 meta=${2:-} max=${3:-0.3}
[ -z "$meta" ] || cat "$meta"
echo
awk -F '\t' -v max="$max" "$(cat vm/stats.awk)"'
NR == 1 { next }
$9 + 0 >= max && $2 !~ /^compile/ { out++; next }
{
	k = $1 SUBSEP $2 SUBSEP $3
	if (!(k in n)) { n[k] = 0 }
	n[k]++; s[k] += $6; q[k] += $6 * $6
	fs[k] += $5
	if ($7 != "" && $7 != "null") { hn[k]++; hs[k] += $7 }
	else if ($8 != "" && $8 != "null") { hn[k]++; hs[k] += $8 }
	if (!($1 in seenp)) { seenp[$1] = 1; prof[++np] = $1 }
	if (!($2 in seenb)) { seenb[$2] = 1; bgs[++nb] = $2 }
	if (!($3 in seena)) { seena[$3] = 1; arm[++na] = $3 }
	inbg[$2, $3] = 1
	kept++
}
# the arms in a fixed order: the default, the remedies, lavd, its variants
function rank(a,   i, n, names) {
	n = split("default nice5 nice10 slice500 fifo gamemode lavd", names, " ")
	for (i = 1; i <= n; i++)
		if (names[i] == a) return i
	return n + 1
}
function order_arms(   i, j, t) {
	for (i = 2; i <= na; i++)
		for (j = i; j > 1 && rank(arm[j]) < rank(arm[j - 1]); j--) {
			t = arm[j]; arm[j] = arm[j - 1]; arm[j - 1] = t
		}
}
# the arms run with background b, into cols[1..nc]
function columns(b,   a) {
	nc = 0
	for (a = 1; a <= na; a++)
		if ((bgs[b], arm[a]) in inbg) cols[++nc] = arm[a]
}
function cell(k, ref,   m) {
	if (!(k in n)) return "-"
	m = s[k] / n[k]
	return sprintf("%.1f ± %.1f%s", m, gs_sd(n[k], s[k], q[k]),
		       ref > 0 ? sprintf(" (%.2f)", m / ref) : "")
}
function tval(a, b,   t) {
	if (!(a in n) || !(b in n)) return "-"
	t = gs_welch(n[a], s[a], q[a], n[b], s[b], q[b])
	return t == "" ? "-" : sprintf("%+.1f", t)
}
END {
	order_arms()
	printf "%d runs kept, %d left out (the rest of the machine used >= %s CPUs)\n\n", kept, out, max
	for (b = 1; b <= nb; b++) {
		columns(b)
		printf "### background: %s\n\n1 %% low FPS, mean ± sd (limit ratio: / the default without background)\n\n", bgs[b]
		printf "| profile |"
		for (a = 1; a <= nc; a++) printf " %s |", cols[a]
		printf " lavd vs default t | lavd vs nice10 t |\n|---|"
		for (a = 1; a <= nc + 2; a++) printf "---|"
		printf "\n"
		for (p = 1; p <= np; p++) {
			nk = prof[p] SUBSEP "none" SUBSEP "default"
			ref = (nk in n) ? s[nk] / n[nk] : 0
			printf "| %s |", prof[p]
			for (a = 1; a <= nc; a++)
				printf " %s |", cell(prof[p] SUBSEP bgs[b] SUBSEP cols[a], ref)
			printf " %s | %s |\n", tval(prof[p] SUBSEP bgs[b] SUBSEP "lavd", prof[p] SUBSEP bgs[b] SUBSEP "default"),
				tval(prof[p] SUBSEP bgs[b] SUBSEP "lavd", prof[p] SUBSEP bgs[b] SUBSEP "nice10")
		}
		printf "\naverage FPS | background work per second (hogs: work units; compile: jobs)\n\n| profile |"
		for (a = 1; a <= nc; a++) printf " %s |", cols[a]
		printf "\n|---|"
		for (a = 1; a <= nc; a++) printf "---|"
		printf "\n"
		for (p = 1; p <= np; p++) {
			printf "| %s |", prof[p]
			for (a = 1; a <= nc; a++) {
				k = prof[p] SUBSEP bgs[b] SUBSEP cols[a]
				if (!(k in n)) { printf " - |"; continue }
				printf " %.1f", fs[k] / n[k]
				printf "%s |", hn[k] ? sprintf(" \\| %.2f", hs[k] / hn[k]) : ""
			}
			printf "\n"
		}
		printf "\n"
	}
}' "$tsv"
