# SPDX-License-Identifier: GPL-2.0-only
# The statistics the VM's tables share (vm/*-table.sh put this text before
# their own awk program, so any awk runs it). Each figure is kept as a
# count n, a sum s and a sum of squares q.

# sample standard deviation; 0 below two values
function gs_sd(n, s, q,   m, v) {
	if (n < 2) return 0
	m = s / n; v = (q - n * m * m) / (n - 1)
	return v > 0 ? sqrt(v) : 0
}

# Welch's t of a's mean against b's; "" when either has fewer than two
# values or neither varies
function gs_welch(na, sa, qa, nb, sb, qb,   se) {
	if (na < 2 || nb < 2) return ""
	se = sqrt(gs_sd(na, sa, qa) ^ 2 / na + gs_sd(nb, sb, qb) ^ 2 / nb)
	return se > 0 ? (sa / na - sb / nb) / se : ""
}

# the verdict of a against b: "+" (t >= 2), "-" (t <= -2), "=" (not
# resolved), "?" (too few values to say)
function gs_sign(na, sa, qa, nb, sb, qb,   t) {
	t = gs_welch(na, sa, qa, nb, sb, qb)
	return t == "" ? "?" : t >= 2 ? "+" : t <= -2 ? "-" : "="
}
