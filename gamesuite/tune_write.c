// SPDX-License-Identifier: GPL-2.0-only
/*
 * gamesuite tune's files: the grid of knob values, each candidate's game
 * profile, and the profile it writes at the end with the evidence that
 * chose it (docs/gamesuite.md, "tune").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "outfile.h"
#include "tune.h"
#include "util.h"

/*
 * The game's own process in framebench's --dump-plan text: the comm of
 * its first "process" line (the main one) when the profile names it, else
 * prog's base name as the kernel keeps it (15 characters): the main
 * process runs under the program's own name then.
 */
int gsu_tune_plan_game_comm(const char *plan, const char *prog, char *out, size_t len)
{
	const char *l = plan, *end, *c, *name = NULL;
	size_t n;

	while (l && strncmp(l, "process ", 8)) {
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	if (!l || !len)
		return -1;
	end = strchr(l, '\n');
	if (!end)
		end = l + strlen(l);
	for (c = strchr(l, ' '); c && c < end && !name; c = strchr(c + 1, ' '))
		if (!strncmp(c, " comm:", 6))
			name = c + 6;
	if (name) {
		n = strcspn(name, " \n");
	} else {
		name = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
		n = strlen(name) < 15 ? strlen(name) : 15;
	}
	n = n < len - 1 ? n : len - 1;
	memcpy(out, name, n);
	out[n] = '\0';
	return 0;
}

/* Knob names and values as lavd's profiles write them: a-z, 0-9, '-'
 * (lavd itself checks the values when it reads each candidate). */
static bool word_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return false;
	return true;
}

/* Whether value i of k repeats an earlier one: the same word, or the
 * same number written otherwise (100, 100.0): it would be measured twice. */
static bool same_value_before(const struct gsu_tune_knob *k, int i)
{
	double a, b;

	for (int j = 0; j < i; j++) {
		if (!strcmp(k->val[j], k->val[i]))
			return true;
		if (!gs_parse_double(k->val[j], -1e300, 1e300, &a) &&
		    !gs_parse_double(k->val[i], -1e300, 1e300, &b) && a == b)
			return true;
	}
	return false;
}

int gsu_tune_parse_knob(const char *arg, struct gsu_tune_knob *k, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '='), *v;
	size_t kl = eq ? (size_t)(eq - arg) : 0;

	memset(k, 0, sizeof(*k));
	if (!eq || !kl || kl >= sizeof(k->key)) {
		snprintf(err, errlen, "expected KNOB=V1,V2,... (e.g. "
			 "lat-cri-boost=0,128,512), got '%s'", arg);
		return -1;
	}
	memcpy(k->key, arg, kl);
	if (!word_ok(k->key)) {
		snprintf(err, errlen, "'%s' is not a knob name", k->key);
		return -1;
	}
	for (v = eq + 1; *v; ) {
		size_t l = strcspn(v, ",");

		if (k->nval == TUNE_MAX_VALUES) {
			snprintf(err, errlen, "%s: at most %d values", k->key, TUNE_MAX_VALUES);
			return -1;
		}
		if (!l || l >= sizeof(k->val[0])) {
			snprintf(err, errlen, "%s: an empty or long value in '%s'", k->key, eq + 1);
			return -1;
		}
		memcpy(k->val[k->nval], v, l);
		k->val[k->nval][l] = '\0';
		if (!word_ok(k->val[k->nval])) {
			snprintf(err, errlen, "%s: '%s' is neither a number nor on/off",
				 k->key, k->val[k->nval]);
			return -1;
		}
		if (same_value_before(k, k->nval)) {
			snprintf(err, errlen, "%s: value %s given twice (each value "
				 "is one candidate, run once)", k->key,
				 k->val[k->nval]);
			return -1;
		}
		k->nval++;
		v += l + (v[l] == ',');
	}
	if (!k->nval) {
		snprintf(err, errlen, "%s: no values", k->key);
		return -1;
	}
	return 0;
}

int gsu_tune_make_grid(struct tune *t, char *err, size_t errlen)
{
	long n = 1;

	for (int k = 0; k < t->nknob; k++) {
		for (int j = 0; j < k; j++)
			if (!strcmp(t->knob[j].key, t->knob[k].key)) {
				snprintf(err, errlen, "knob %s given twice (--knob)",
					 t->knob[k].key);
				return -1;
			}
		n *= t->knob[k].nval;
	}
	if (n > TUNE_MAX_CANDS) {
		snprintf(err, errlen, "%ld combinations of knob values: at most %d "
			 "(fewer values or knobs)", n, TUNE_MAX_CANDS);
		return -1;
	}
	t->ncand = (int)n;
	for (int c = 0; c < t->ncand; c++) {
		int rest = c;

		memset(&t->cand[c], 0, sizeof(t->cand[c]));
		for (int k = t->nknob - 1; k >= 0; k--) {
			t->cand[c].vi[k] = rest % t->knob[k].nval;
			rest /= t->knob[k].nval;
		}
		t->cand[c].alive = true;
		t->cand[c].stage_out = -1;
		for (int s = 0; s < TUNE_MAX_STAGES; s++)
			t->cand[c].median[s] = NAN;
	}
	return 0;
}

void gsu_tune_cand_desc(const struct tune *t, int c, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int k = 0; k < t->nknob && off < len; k++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s", k ? ", " : "",
					t->knob[k].key, t->knob[k].val[t->cand[c].vi[k]]);
}

static void write_rules(FILE *f, const struct tune *t, int c)
{
	for (int m = 0; m < t->nmatch; m++)
		fprintf(f, "match %s\n", t->match[m]);
	fputc('\n', f);
	for (int k = 0; k < t->nknob; k++)
		fprintf(f, "%-22s %s\n", t->knob[k].key, t->knob[k].val[t->cand[c].vi[k]]);
}

int gsu_tune_write_cand(const struct tune *t, int c, const char *name,
			const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "# gamesuite tune: candidate %d of %d\n", c + 1, t->ncand);
	if (name)
		fprintf(f, "name %s\n", name);
	else
		fprintf(f, "name tune-%d\n", c + 1);
	write_rules(f, t, c);
	return fclose(f) ? -1 : 0;
}

static void when(double epoch, char *buf, size_t len)
{
	time_t tt = (time_t)epoch;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm);
}

/* The final comparison's lines of the evidence. */
static void write_final(FILE *f, const struct tune *t)
{
	const struct gsu_tune_final *fi = &t->final;
	bool rule;

	if (!fi->done) {
		fprintf(f, "# Final comparison: not run (%s).\n", fi->interrupted ?
			"interrupted" : "the search did not finish");
		return;
	}
	fprintf(f, "# Final comparison, %d interleaved rounds%s: lavd's defaults %.4g "
		"[%.4g, %.4g] (n %d), with this profile %.4g [%.4g, %.4g] (n %d);\n",
		fi->rounds, fi->interrupted ? " (INTERRUPTED: fewer runs)" : "",
		fi->median[0], fi->lo[0], fi->hi[0], fi->n[0], fi->median[1], fi->lo[1],
		fi->hi[1], fi->n[1]);
	fprintf(f, "#   ratio %.3f [%.3f, %.3f], Mann-Whitney p %.3g, Welch t %.2f: "
		"verdict %s.\n", fi->ratio, fi->ratio_lo, fi->ratio_hi, fi->p,
		fi->welch_t, gsu_verdict_name(fi->verdict));
	rule = fi->verdict == GSU_BETTER && !isnan(fi->welch_t) &&
	       (t->higher_better ? fi->welch_t >= 2 : fi->welch_t <= -2);
	fprintf(f, "#   Shipping rule (docs/lavd.md): %s on this workload; the other "
		"framebench\n#   profiles were not measured by tune (vm/profiles.sh "
		"does that).\n", rule ? "met (better, |Welch t| >= 2)" : "NOT met");
}

static int write_profile(FILE *f, const void *ctx)
{
	const struct tune *t = ctx;
	char desc[400], w0[40], w1[40];

	when(t->started, w0, sizeof(w0));
	when(t->ended, w1, sizeof(w1));
	fprintf(f, "# lavd game profile written by gamesuite tune%s.\n",
		t->final.interrupted || t->final.done == false ?
		" - INTERRUPTED: the best knob set measured so far" : "");
	fprintf(f, "#\n# Workload: %s\n", t->workload_desc);
	fprintf(f, "# Scheduler: %s (candidates add --game-profile FILE)\n", t->lavd);
	fprintf(f, "# Measured %s to %s; metric %s (%s is better).\n", w0, w1,
		t->metric_name, t->higher_better ? "higher" : "lower");
	fprintf(f, "# Search: successive halving over %d knob sets", t->ncand);
	for (int k = 0; k < t->nknob; k++) {
		fprintf(f, "%s %s {", k ? " x" : ":", t->knob[k].key);
		for (int v = 0; v < t->knob[k].nval; v++)
			fprintf(f, "%s%s", v ? "," : "", t->knob[k].val[v]);
		fprintf(f, "}");
	}
	fprintf(f, ";\n#   the best 1/%d kept after each stage, each stage with %d times the "
		"runs,\n#   every run interleaved with lavd's defaults.\n", t->eta, t->eta);
	for (int s = 0; s < t->nstage; s++) {
		const struct gsu_tune_stage *st = &t->stage[s];

		fprintf(f, "# Stage %d: %d candidates x %d round%s%s; defaults median %.4g (n %d)\n",
			s + 1, st->ncand, st->rounds, st->rounds == 1 ? "" : "s",
			st->interrupted ? " (INTERRUPTED)" : "",
			st->base_median, st->base_n);
		for (int c = 0; c < t->ncand; c++) {
			if (isnan(t->cand[c].median[s]) && !t->cand[c].n[s])
				continue;
			gsu_tune_cand_desc(t, c, desc, sizeof(desc));
			fprintf(f, "#   tune-%-3d %-40s median %.4g (n %d)%s\n", c + 1, desc,
				t->cand[c].median[s], t->cand[c].n[s],
				t->cand[c].stage_out == s ? " - dropped" : "");
		}
	}
	write_final(f, t);
	gsu_tune_cand_desc(t, t->best, desc, sizeof(desc));
	fprintf(f, "\nname        %s\ndescription tuned by gamesuite tune on %s: %s\n",
		t->name, t->framebench ? t->framebench : t->only, desc);
	write_rules(f, t, t->best);
	return 0;
}

int gsu_tune_write_profile(const struct tune *t, const char *path)
{
	return gs_write_output("-o", path, write_profile, t);
}
