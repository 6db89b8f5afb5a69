// SPDX-License-Identifier: GPL-2.0-only
/*
 * Globs and the match of one process against the game profiles
 * (gameprof.h). Pure functions: the loader's /proc reader (procscan.c)
 * gathers what a process looks like, this file decides.
 */
#include "gameprof.h"

#include <stdio.h>
#include <string.h>

/*
 * A bracket class at p (just after '['): does c belong to it? *end gets
 * the character after its ']'. lavd_glob_check() made sure it closes.
 */
static bool class_match(const char *p, char c, const char **end)
{
	unsigned char uc = (unsigned char)c;
	bool neg = false, hit = false, first = true;

	if (*p == '!' || *p == '^') {
		neg = true;
		p++;
	}
	while (*p && (first || *p != ']')) {
		unsigned char lo, hi;

		if (*p == '\\' && p[1])
			p++;
		lo = hi = (unsigned char)*p++;
		if (*p == '-' && p[1] && p[1] != ']') {
			p++;
			if (*p == '\\' && p[1])
				p++;
			hi = (unsigned char)*p++;
		}
		if (uc >= lo && uc <= hi)
			hit = true;
		first = false;
	}
	*end = *p ? p + 1 : p;
	return hit != neg;
}

bool lavd_glob_match(const char *pat, const char *s)
{
	const char *p = pat, *star_p = NULL, *star_s = NULL;

	while (*s) {
		const char *e = p;

		if (*p == '*') {
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (*p == '?' || (*p == '[' && class_match(p + 1, *s, &e)) ||
		    (*p == '\\' && p[1] == *s) ||
		    (*p && *p != '[' && *p != '\\' && *p == *s)) {
			p = *p == '?' ? p + 1 : *p == '[' ? e : *p == '\\' ? p + 2 : p + 1;
			s++;
			continue;
		}
		/* no match here: the last star takes one more character */
		if (!star_p)
			return false;
		p = star_p;
		s = ++star_s;
	}
	while (*p == '*')
		p++;
	return !*p;
}

int lavd_glob_check(const char *pat, size_t *minlen, char *err, size_t errlen)
{
	size_t n = 0;

	if (!*pat) {
		snprintf(err, errlen, "an empty pattern matches nothing");
		return -1;
	}
	for (const char *p = pat; *p; p++) {
		if (*p == '*')
			continue;
		n++;
		if (*p == '\\') {
			if (!p[1]) {
				snprintf(err, errlen, "ends with a lone '\\'");
				return -1;
			}
			p++;
		} else if (*p == '[') {
			const char *q = p + 1;

			if (*q == '!' || *q == '^')
				q++;
			if (*q == ']')
				q++;	/* a ']' first is literal */
			while (*q && *q != ']')
				q += (*q == '\\' && q[1]) ? 2 : 1;
			if (!*q) {
				snprintf(err, errlen, "a '[' is not closed");
				return -1;
			}
			p = q;
		}
	}
	*minlen = n;
	return 0;
}

static bool cond_match(const struct lavd_gp_cond *c, const struct lavd_gp_proc *pr)
{
	switch (c->kind) {
	case LAVD_GP_COMM:
		return pr->comm && lavd_glob_match(c->glob, pr->comm);
	case LAVD_GP_EXE:
		return pr->exe && lavd_glob_match(c->glob, pr->exe);
	case LAVD_GP_THREAD:
		for (int i = 0; i < pr->nthreads; i++)
			if (pr->threads[i] && lavd_glob_match(c->glob, pr->threads[i]))
				return true;
		return false;
	}
	return false;
}

int lavd_gp_match(const struct lavd_gp_set *set, const struct lavd_gp_proc *pr)
{
	for (int i = 0; i < set->n; i++) {
		const struct lavd_gprof *p = &set->p[i];

		for (int r = 0; r < p->nrules; r++) {
			int c;

			for (c = 0; c < p->rule[r].ncond; c++)
				if (!cond_match(&p->rule[r].cond[c], pr))
					break;
			if (c == p->rule[r].ncond)
				return i;
		}
	}
	return -1;
}

bool lavd_gp_thread_relevant(const struct lavd_gp_set *set, const char *comm,
			     int before)
{
	for (int i = 0; i < set->n && i < before; i++)
		for (int r = 0; r < set->p[i].nrules; r++)
			for (int c = 0; c < set->p[i].rule[r].ncond; c++) {
				const struct lavd_gp_cond *cd = &set->p[i].rule[r].cond[c];

				if (cd->kind == LAVD_GP_THREAD && lavd_glob_match(cd->glob, comm))
					return true;
			}
	return false;
}
