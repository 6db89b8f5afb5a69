# SPDX-License-Identifier: GPL-2.0-only
#
# The C rules of tests/lint.sh, on a tokenizer rather than on one spelling:
# comments, strings and character literals are blanked first, then
#   functions  every function definition, whatever the brace placement
#              (`int f(void) {` as well as the brace on its own line), is
#              measured from the line of its name to its closing brace;
#              over max_func lines is a finding
#   includes   every #include / #include_next / #import, with any spaces
#              around the hash (and the %: digraph), is resolved as the
#              compiler would (the file's folder, then lib/, then the
#              repository root for a -I.); a tool's file (or lib's) that
#              reaches into another tool's folder is a finding, and so is
#              an include the lint cannot resolve (one by macro); a
#              tool's file that climbs out of its folder ("../"): a room
#              names another room's header from the tool's folder; and
#              every include circle
# Prints FILE:LINE: why, one line per finding.
#
#   awk -v max_func=N -f tests/lint_c.awk FILE...
BEGIN {
	ntools = split("framebench frametrace gamesuite lavd vm", tl, " ")
	for (i = 1; i <= ntools; i++)
		istool[tl[i]] = 1
	# macros that are no function's name: the name is their first argument
	# (BPF_PROG) or the next call (SEC, attributes)
	skipname["SEC"] = skipname["__attribute__"] = skipname["__attribute"] = 1
	skipname["__section"] = skipname["__aligned"] = skipname["__printf"] = 1
}

FNR == 1 { begin_file() }
{ scan_line($0) }

function begin_file() {
	incomment = 0; depth = 0; ppcont = 0; nhead = 0; fstart = 0
	dir = FILENAME; sub(/\/[^\/]*$/, "", dir)
	if (dir == FILENAME)
		dir = "."
	owner = FILENAME; sub(/\/.*/, "", owner)
	if (!(owner in istool) && owner != "lib")
		owner = ""
}

# The code of a line with comments, strings and characters blanked
# (block comments carry over lines in incomment).
function clean(s,    out, i, c, n, q) {
	out = ""; n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (incomment) {
			if (c == "*" && substr(s, i + 1, 1) == "/") { incomment = 0; i++ }
			out = out " "
			continue
		}
		if (c == "/" && substr(s, i + 1, 1) == "*") { incomment = 1; i++; out = out "  "; continue }
		if (c == "/" && substr(s, i + 1, 1) == "/")
			break
		if (c == "\"" || c == "'") {
			q = c; out = out q
			for (i++; i <= n; i++) {
				c = substr(s, i, 1)
				if (c == "\\") { i++; continue }
				if (c == q)
					break
			}
			out = out q
			continue
		}
		out = out c
	}
	return out
}

function exists(p,    line, r) {
	r = (getline line < p)
	if (r >= 0)
		close(p)
	return r >= 0
}

function toolof(p,    t) {
	t = p; sub(/\/.*/, "", t)
	return (t in istool) && t != p ? t : ""
}

function check_include(raw, ln,    m, path, quoted, cand, nc, i, hit, t) {
	if (owner == "")
		return
	sub(/^[ \t]*(#|%:)[ \t]*(include_next|include|import)[ \t]*/, "", raw)
	if (match(raw, /^"[^"]*"/)) {
		path = substr(raw, 2, RLENGTH - 2); quoted = 1
	} else if (match(raw, /^<[^>]*>/)) {
		path = substr(raw, 2, RLENGTH - 2); quoted = 0
	} else {
		printf "%s:%d: an include by macro: the lint cannot see where it leads; name the file\n", FILENAME, ln
		return
	}
	nc = 0
	if (quoted || substr(path, 1, 1) == ".")
		cand[++nc] = normpath(dir "/" path)
	# a tool's rooms include each other from the tool's folder (-ITOOL)
	if (owner != "lib")
		cand[++nc] = normpath(owner "/" path)
	cand[++nc] = normpath("lib/" path)
	cand[++nc] = normpath(path)
	# the first that exists is what the compiler takes; when none does,
	# any that lands in another tool is one too many
	hit = ""
	for (i = 1; i <= nc; i++)
		if (cand[i] != "" && exists(cand[i])) { hit = cand[i]; break }
	if (hit == "")
		for (i = 1; i <= nc; i++)
			if (cand[i] != "" && toolof(cand[i]) != "" && toolof(cand[i]) != owner) { hit = cand[i]; break }
	t = toolof(hit)
	if (t != "" && t != owner) {
		printf "%s:%d: includes %s, %s's file: move what both use into lib/\n", FILENAME, ln, hit, t
		return
	}
	if (path ~ /(^|\/)\.\.\//)
		printf "%s:%d: includes %s by climbing out of its folder: name it from the %s folder (%s)\n", FILENAME, ln, path, owner, hit != "" ? hit : "unresolved"
	if (hit != "" && exists(hit)) {
		adj[FILENAME] = adj[FILENAME] SUBSEP hit
		eline[FILENAME, hit] = ln
	}
}

# Include circles: a depth-first walk of the includes resolved above.
function walk(u,    n, vs, i, v, k, path) {
	color[u] = 1
	stk[++sp] = u
	n = split(adj[u], vs, SUBSEP)
	for (i = 1; i <= n; i++) {
		v = vs[i]
		if (v == "")
			continue
		if (color[v] == 1) {
			path = ""
			for (k = 1; k <= sp && stk[k] != v; k++)
				;
			for (; k <= sp; k++)
				path = path stk[k] " -> "
			printf "%s:%d: an include circle: %s%s: one of them must not need the other\n", u, eline[u, v], path, v
		} else if (!color[v]) {
			walk(v)
		}
	}
	sp--
	color[u] = 2
}

END {
	for (u in adj)
		if (!color[u])
			walk(u)
}

# At a brace opening at depth 0: when the text before it is a function's
# declarator, remember its name and the line of that name.
function open_block(    i, j, s, c, pd, id, idline, sp, cand, candline, text) {
	fstart = 0
	text = ""
	for (i = 1; i <= nhead; i++)
		text = text " " head[i]
	sub(/[ \t]+$/, "", text)
	if (text !~ /\)$/)
		return
	# the names called at paren depth 0: the function's is the last that
	# is no attribute or section macro
	pd = 0; cand = ""; id = ""; sp = 0
	for (i = 1; i <= nhead; i++) {
		s = head[i] " "
		for (j = 1; j <= length(s); j++) {
			c = substr(s, j, 1)
			if (c ~ /[A-Za-z_0-9]/) {
				if (sp || id == "") { id = c; idline = headline[i] } else id = id c
				sp = 0
			} else if (c == " " || c == "\t") {
				sp = 1
			} else {
				if (c == "(" && pd == 0 && id != "" && !(id in skipname)) {
					cand = id; candline = idline
					# BPF_PROG(name, ...): the program's name
					if (id ~ /^[A-Z_0-9]+$/ && match(substr(s, j + 1), /^[ \t]*[A-Za-z_][A-Za-z_0-9]*/))
						cand = substr(s, j + 1, RLENGTH)
				}
				if (c == "(") pd++
				else if (c == ")") pd--
				id = ""; sp = 0
			}
		}
	}
	if (cand == "")
		return
	sub(/^[ \t]+/, "", cand)
	fname = cand; fstart = candline
}

function scan_line(raw,    s, i, c, n) {
	if (ppcont) {
		ppcont = (raw ~ /\\$/)
		clean(raw)
		return
	}
	if (!incomment && raw ~ /^[ \t]*(#|%:)/) {
		ppcont = (raw ~ /\\$/)
		if (raw ~ /^[ \t]*(#|%:)[ \t]*(include_next|include|import)([^A-Za-z_0-9]|$)/) {
			pp = raw
			while (pp ~ /\\$/ && (getline nxt) > 0) {
				sub(/\\$/, "", pp); pp = pp nxt
			}
			ppcont = 0
			check_include(pp, FNR)
		}
		clean(raw)
		return
	}
	s = clean(raw)
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "{") {
			if (depth == 0) {
				head[++nhead] = substr(s, 1, i - 1); headline[nhead] = FNR
				open_block()
				nhead = 0
				s = substr(s, i + 1); n = length(s); i = 0
			}
			depth++
		} else if (c == "}") {
			if (depth > 0)
				depth--
			if (depth == 0) {
				if (fstart && FNR - fstart + 1 > max_func)
					printf "%s:%d: %s(): %d lines, over %d: split it\n", FILENAME, fstart, fname, FNR - fstart + 1, max_func
				fstart = 0; nhead = 0
				s = substr(s, i + 1); n = length(s); i = 0
			}
		} else if (c == ";" && depth == 0) {
			nhead = 0
			s = substr(s, i + 1); n = length(s); i = 0
		}
	}
	if (depth == 0 && s ~ /[^ \t]/) {
		head[++nhead] = s; headline[nhead] = FNR
	}
}
