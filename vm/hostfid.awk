# SPDX-License-Identifier: GPL-2.0-only
# The host's runs beside a VM table: fidelity and the handicapped
# comparison (vm/*-table.sh put this text after stats.awk when given
# --host RUNS.TSV, so every table judges the lab the same way). RUNS.TSV
# is bench/eevdf-host.sh's: profile bg arm round avg low1 work jobs other.

# hf_read(FILE, MAX): the host's 1 % lows per profile, background and arm,
# leaving out runs without one and runs during which the host's other
# processes used MAX CPUs or more; hf_bg: the background other than none
function hf_read(file, max,   line, f, k) {
	while ((getline line < file) > 0) {
		split(line, f, "\t")
		if (f[1] == "profile" || f[9] + 0 >= max + 0 || f[6] == "") continue
		if (f[2] != "none") hf_bg = f[2]
		k = f[1] SUBSEP f[2] SUBSEP f[3]
		hf_n[k]++; hf_s[k] += f[6]; hf_q[k] += f[6] * f[6]
	}
	close(file)
}

# hf_has(P, BG): the host's default ran profile P with background BG
function hf_has(p, bg) { return hf_n[p SUBSEP bg SUBSEP "default"] > 0 }

function hf_mean(k) { return hf_n[k] ? hf_s[k] / hf_n[k] : 0 }

# hf_fid(V, P, BG): "BG RATIO", the VM default's 1 % low V over the host
# default's; outside 0.85-1.15 the cell says more about the emulator than
# the scheduler: "lab-bound"
function hf_fid(v, p, bg,   h) {
	h = hf_mean(p SUBSEP bg SUBSEP "default")
	if (!h || !v) return bg " -"
	return sprintf("%s %.2f%s", bg, v / h, v / h < 0.85 || v / h > 1.15 ? " lab-bound" : "")
}

# hf_fidelity(P, CELLS): the line, CELLS being hf_fid's joined by ", "
function hf_fidelity(p, cells) {
	printf "   %s: fidelity (the VM default / the host default, 1 %% low): %s\n", p, cells
}

# hf_handicapped(P, BG, N, S, Q): lavd in the VM (its 1 % lows as count,
# sum, sum of squares) against each host arm that ran P with BG, Welch's t.
# Emulation only slows lavd: where it still wins, the gain transfers.
function hf_handicapped(p, bg, n, s, q,   a, k, t, arms) {
	printf "   %s: handicapped, lavd in the VM %s against the host:", p,
		n ? sprintf("%.1f +- %.1f", s / n, gs_sd(n, s, q)) : "-"
	split("default nice10 fifo lavd", arms, " ")
	for (a = 1; a <= 4; a++) {
		k = p SUBSEP bg SUBSEP arms[a]
		if (!hf_n[k]) continue
		t = gs_welch(n, s, q, hf_n[k], hf_s[k], hf_q[k])
		printf " %s %.1f +- %.1f (t %s)", arms[a] == "lavd" ? "lavd --eevdf" : arms[a],
			hf_mean(k), gs_sd(hf_n[k], hf_s[k], hf_q[k]), t == "" ? "-" : sprintf("%+.1f", t)
	}
	printf "\n"
}
