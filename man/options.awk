# SPDX-License-Identifier: GPL-2.0-only
#
# awk -f man/options.awk PAGE.tables PAGE.in PAGE.in: the page with its
# OPTIONS entries made from the program's option tables. PAGE.tables is
# what the program prints for --dump-options=man (lib/optdump.c), one line
# per option: COMMAND, NAME, HEADING (.BR \-o ", " \-\-output " \fIFILE\fR")
# and HELP, tab-separated. In PAGE.in (read twice: first for what it
# names):
#   @OPT NAME...@     the heading of each NAME (COMMAND:NAME where two
#                     commands' options differ), the next ones after .TQ,
#                     above the page's own text for them;
#   @OPTIONS COMMAND@ a .TP entry, heading and --help text, for each
#                     option of COMMAND's table that no @OPT names.
# A table's option in neither, or an @OPT naming no option of the tables,
# is an error: the page and the program cannot drift apart.
BEGIN { FS = "\t"; bad = 0 }
FNR == 1 { file++ }
file == 1 {
	if (!($2 in heading))
		heading[$2] = $3
	heading[$1 ":" $2] = $3
	help[$1 ":" $2] = $4
	order[++n] = $1 ":" $2
	next
}
/^@OPT [^@]*@$/ {
	k = split(substr($0, 6, length($0) - 6), names, " ")
	for (i = 1; i <= k; i++) {
		if (file == 2) {
			key = names[i]
			sub(/^[^:]*:/, "", key)
			named[key] = 1
			continue
		}
		if (!(names[i] in heading)) {
			printf "%s:%d: @OPT %s: no such option in the tables\n",
				FILENAME, FNR, names[i] > "/dev/stderr"
			bad = 1
			continue
		}
		if (i > 1)
			print ".TQ"
		print heading[names[i]]
	}
	next
}
/^@OPTIONS [^@]*@$/ {
	c = substr($0, 10, length($0) - 10)
	if (file == 2) {
		rest[c] = 1
		next
	}
	for (i = 1; i <= n; i++) {
		split(order[i], part, ":")
		if (part[1] != c || (part[2] in named))
			continue
		print ".TP"
		print heading[order[i]]
		print help[order[i]]
	}
	next
}
file == 3 { print }
END {
	for (i = 1; i <= n; i++) {
		split(order[i], part, ":")
		if (!(part[2] in named) && !(part[1] in rest)) {
			printf "%s: no entry (@OPT %s@) for --%s of %s's options\n",
				FILENAME, part[2], part[2], part[1] > "/dev/stderr"
			bad = 1
		}
	}
	exit bad
}
