# SPDX-License-Identifier: GPL-2.0-only
#
# The build rules of tests/lint.sh, on the commands make would run
# (`make -n -B programs`), so that every spelling of a flag, in whichever
# makefile it is set, is seen as the compiler sees it:
#   a tool's source compiled with another tool's folder on its include path
#   (-I, -iquote, -isystem, -idirafter, --include-directory, joined or
#   apart, relative, ./-prefixed or absolute) or forced into it (-include,
#   -imacros);
#   a tool's program linked with another tool's objects (an object, or an
#   archive whose members are another tool's, on its link line).
# Prints "tool|FILE|why" lines; tests/lint.sh finds the makefile line.
#
#   make -n -B programs | awk -v root=$PWD -f tests/lint_build.awk
BEGIN {
	ntools = split("framebench frametrace gamesuite lavd vm", tl, " ")
	for (i = 1; i <= ntools; i++)
		istool[tl[i]] = 1
}

# A path of the tree, relative to its root: "" when it leaves the tree.
function treepath(p) {
	if (substr(p, 1, length(root) + 1) == root "/")
		p = substr(p, length(root) + 2)
	else if (p == root)
		p = "."
	else if (substr(p, 1, 1) == "/")
		return ""
	return normpath(p)
}

function toolof(p,    t) {
	p = treepath(p)
	t = p; sub(/\/.*/, "", t)
	return (t in istool) ? t : ""
}

function strip_quotes(w) {
	gsub(/^['"]+|['"]+$/, "", w)
	return w
}

# One shell command of the dry run (the recipes' && and ; split apart).
function command(cmd,    n, w, i, j, out, srcs, ns, compile, flag, val, t, dirs, nd, ins, nin) {
	n = split(cmd, w, /[ \t]+/)
	# an archive: ar OPTIONS ARCHIVE MEMBER...
	for (i = 1; i <= n; i++)
		if (w[i] ~ /(^|\/)(llvm-)?ar(-[0-9]+)?$/ && i + 2 <= n) {
			for (j = i + 3; j <= n; j++)
				members[w[i + 2]] = members[w[i + 2]] " " w[j]
			return
		}
	out = ""; ns = 0; compile = 0; nd = 0; nin = 0
	for (i = 1; i <= n; i++) {
		flag = w[i]; val = ""
		if (flag == "-o" && i < n) { out = w[++i]; continue }
		if (flag == "-c") { compile = 1; continue }
		if (flag ~ /^(-I|-iquote|-isystem|-idirafter|--include-directory|-include|-imacros)$/ && i < n)
			val = w[++i]
		else if (match(flag, /^(-I|-iquote|-isystem|-idirafter|--include-directory=)/))
			val = substr(flag, RLENGTH + 1)
		if (val != "") {
			sub(/^=/, "", val)
			dirs[++nd] = strip_quotes(val)
			continue
		}
		if (flag ~ /\.c$/ && flag !~ /^-/)
			srcs[++ns] = flag
		else if (flag ~ /\.(o|a)$/ && flag !~ /^-/)
			ins[++nin] = flag
	}
	if (compile && out != "") {
		for (j = 1; j <= ns; j++) {
			src_of[out] = srcs[j]
			t = toolof(srcs[j])
			if (t == "")
				continue
			for (i = 1; i <= nd; i++)
				if (toolof(dirs[i]) != "" && toolof(dirs[i]) != t)
					printf "%s|%s|compiled with %s on its include path, %s's folder: move what both use into lib/\n", toolof(dirs[i]), srcs[j], dirs[i], toolof(dirs[i])
		}
		return
	}
	if (out != "" && nin > 0) {
		nlinks++
		link_out[nlinks] = out
		link_ins[nlinks] = ""
		for (i = 1; i <= nin; i++)
			link_ins[nlinks] = link_ins[nlinks] " " ins[i]
	}
}

{
	line = $0
	gsub(/&&|\|\||;/, "\n", line)
	nc = split(line, cmds, "\n")
	for (c = 1; c <= nc; c++)
		command(cmds[c])
}

# The tools whose sources an input holds (an object, or an archive's members).
function input_tools(f,    n, m, i, t, s) {
	s = ""
	if (f ~ /\.a$/) {
		n = split(members[f], m, " ")
		for (i = 1; i <= n; i++) {
			t = toolof(src_of[m[i]])
			if (t != "" && index(" " s " ", " " t " ") == 0)
				s = s " " t
		}
	} else {
		t = toolof(src_of[f])
		if (t != "")
			s = " " t
	}
	return s
}

END {
	for (k = 1; k <= nlinks; k++) {
		n = split(link_ins[k], ins, " ")
		own = ""
		for (i = 1; i <= n; i++) {
			nt = split(input_tools(ins[i]), ts, " ")
			for (j = 1; j <= nt; j++) {
				if (own == "")
					own = ts[j]
				else if (ts[j] != own)
					printf "%s|%s|links %s, %s's objects, into %s's program: move what both use into lib/\n", own, link_out[k], ins[i], ts[j], own
			}
		}
	}
}
