# SPDX-License-Identifier: GPL-2.0-only
# The path arithmetic tests/lint_c.awk and tests/lint_build.awk share
# (tests/lint.sh puts this file before each with a second -f).

# Normalizes a relative path: "." and ".." folded; "" when it leaves the tree.
function normpath(p,    n, parts, i, out, k, o) {
	n = split(p, parts, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] == "" || parts[i] == ".")
			continue
		if (parts[i] == "..") {
			if (k == 0)
				return ""
			k--
			continue
		}
		o[++k] = parts[i]
	}
	out = ""
	for (i = 1; i <= k; i++)
		out = out (i > 1 ? "/" : "") o[i]
	return out
}
