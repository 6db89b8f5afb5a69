// SPDX-License-Identifier: GPL-2.0-only
#include "plan.h"

#include <inttypes.h>
#include <string.h>

#include "rng.h"

void fb_plan_rng(struct gs_rng *r, uint64_t seed, uint64_t stream,
		 uint64_t index)
{
	uint64_t x = seed, a, b;

	a = gs_splitmix64(&x);
	x = a ^ (stream * 0xd1b54a32d192ed03ULL);
	b = gs_splitmix64(&x);
	x = b ^ index;
	gs_rng_seed(r, gs_splitmix64(&x));
}

void fb_plan_stage(const struct fb_profile *p, uint64_t seed, uint64_t frame,
		   unsigned stage, struct fb_stage_plan *out)
{
	const struct fb_stage *st = &p->stage[stage];
	struct gs_rng r;

	fb_plan_rng(&r, seed, FB_STREAM_STAGE + stage, frame);
	out->nops = 0;
	out->njobs = 0;
	for (unsigned i = 0; i < st->nsteps; i++) {
		const struct fb_step *s = &st->step[i];
		struct fb_op *op;

		if (s->prob < 1.0 && gs_rng_unit(&r) >= s->prob)
			continue;
		op = &out->op[out->nops++];
		op->kind = (uint8_t)s->kind;
		op->target = (int8_t)s->target;
		op->step = (uint16_t)i;
		op->njobs = 0;
		op->job0 = 0;
		op->ns = 0;
		if (s->kind == FB_STEP_FANOUT) {
			op->njobs = (uint16_t)s->jobs;
			op->job0 = (uint16_t)out->njobs;
			for (unsigned j = 0; j < s->jobs; j++) {
				/* even: the first job's draw for all */
				out->job_ns[out->njobs] =
					s->even && j ? out->job_ns[op->job0]
						     : fb_dist_sample(&s->work, &r);
				out->hold_ns[out->njobs] =
					s->target >= 0
						? fb_dist_sample(&s->hold, &r)
						: 0;
				out->njobs++;
			}
		} else {
			op->ns = fb_dist_sample(&s->work, &r);
		}
	}
}

void fb_plan_periodic(const struct fb_profile *p, uint64_t seed, int which,
		      uint64_t k, uint32_t *work_ns, uint32_t *hold_ns)
{
	const struct fb_periodic *per = &p->periodic[which];
	struct gs_rng r;

	fb_plan_rng(&r, seed, FB_STREAM_PERIODIC + (uint64_t)which, k);
	*work_ns = fb_dist_sample(&per->work, &r);
	*hold_ns = per->lock >= 0 ? fb_dist_sample(&per->hold, &r) : 0;
}

/* Walks the chain; print != NULL lists each link. */
static void walk_chain(const struct fb_profile *p, struct fb_chain *c,
		       FILE *print)
{
	unsigned last = p->nstages - 1;
	int present_proc = p->stage[last].process;

	memset(c, 0, sizeof(*c));
#define LINK(n, cross, prob, ...)                                            \
	do {                                                                 \
		c->wakeups += (n);                                           \
		c->cross_process += (cross) ? (n) : 0;                       \
		c->expected += (n) * (prob);                                 \
		if (print) {                                                 \
			fprintf(print, "  %2u  ", c->wakeups);               \
			fprintf(print, __VA_ARGS__);                         \
			fprintf(print, "%s\n",                               \
				(cross) ? "  [cross-process]" : "");         \
		}                                                            \
	} while (0)

	LINK(1, present_proc != p->stage[0].process, 1.0,
	     "%s -> %s: frame slot free, next frame starts", p->stage[last].name,
	     p->stage[0].name);
	for (unsigned s = 0; s < p->nstages; s++) {
		const struct fb_stage *st = &p->stage[s];

		for (unsigned i = 0; i < st->nsteps; i++) {
			const struct fb_step *x = &st->step[i];

			if (x->kind == FB_STEP_CALL) {
				int sp = p->service[x->target].process;

				LINK(2, sp != st->process, x->prob,
				     "%s -> %s -> %s: call (request, reply)%s",
				     st->name, p->service[x->target].name,
				     st->name,
				     x->prob < 1 ? " (some frames)" : "");
			} else if (x->kind == FB_STEP_FANOUT && x->async) {
				LINK(1, st->process != 0, 1.0,
				     "%s -> worker: fan-out of %u jobs, not "
				     "waited for", st->name, x->jobs);
			} else if (x->kind == FB_STEP_FANOUT) {
				LINK(2, st->process != 0, x->prob,
				     "%s -> worker -> %s: fan-out of %u jobs, fan-in%s",
				     st->name, st->name, x->jobs,
				     x->prob < 1 ? " (some frames)" : "");
			} else if (x->kind == FB_STEP_JOIN) {
				LINK(1, st->process != 0, 1.0,
				     "worker -> %s: join, the fan-in of the "
				     "jobs of %s frame", st->name,
				     fb_stage_join_first(st) ? "the previous"
							     : "this");
			}
		}
		if (s < last)
			LINK(1, st->process != p->stage[s + 1].process, 1.0,
			     "%s -> %s: hand-off", st->name,
			     p->stage[s + 1].name);
	}
	if (p->fps)
		LINK(1, 0, 1.0, "vsync timer -> %s: present",
		     p->stage[last].name);
#undef LINK
}

void fb_plan_chain(const struct fb_profile *p, struct fb_chain *c)
{
	walk_chain(p, c, NULL);
}

void fb_plan_print_chain(FILE *f, const struct fb_profile *p)
{
	struct fb_chain c;

	walk_chain(p, &c, f);
}

static void print_us(FILE *f, uint32_t ns)
{
	fprintf(f, "%.1f", ns / 1e3);
}

/* One step of one frame's plan, as --dump-plan lists it. */
static void print_op(FILE *f, const struct fb_profile *p,
		     const struct fb_stage *st, const struct fb_stage_plan *sp,
		     const struct fb_op *op)
{
	switch (op->kind) {
	case FB_STEP_WORK:
		fputs(" work ", f);
		print_us(f, op->ns);
		break;
	case FB_STEP_CALL:
		fprintf(f, " call %s ", p->service[op->target].name);
		print_us(f, op->ns);
		break;
	case FB_STEP_LOCK:
		fprintf(f, " lock %s ", p->lock[op->target]);
		print_us(f, op->ns);
		break;
	case FB_STEP_JOIN:
		fputs(" join", f);
		break;
	default:
		fputs(" fanout [", f);
		for (unsigned j = 0; j < op->njobs; j++) {
			if (j)
				fputc(' ', f);
			print_us(f, sp->job_ns[op->job0 + j]);
			if (op->target >= 0) {
				fputc('/', f);
				print_us(f, sp->hold_ns[op->job0 + j]);
			}
		}
		fputc(']', f);
		if (st->step[op->step].even)
			fputs(" even", f);
		if (st->step[op->step].async)
			fputs(" async", f);
		break;
	}
}

void fb_plan_dump(FILE *f, const struct fb_profile *p, uint64_t seed,
		  uint64_t nframes)
{
	static struct fb_stage_plan sp; /* 2.5 KiB: keep it off the stack */
	struct fb_chain c;
	char d[64];

	fb_plan_chain(p, &c);
	fprintf(f, "# framebench plan: the same profile and seed give this "
		   "same text\n");
	fprintf(f, "profile %s (%s)\n", p->name, p->source);
	fprintf(f, "seed %" PRIu64 "\n", seed);
	fprintf(f, "fps %u%s, frames-in-flight %u, workers %u\n", p->fps,
		p->fps ? "" : " (uncapped)", p->frames_in_flight, p->workers);
	for (unsigned pr = 0; pr <= p->nprocs; pr++) {
		fprintf(f, "process %s:", p->proc[pr]);
		/* the name it runs under (engine.c), which a lavd game
		 * profile matches; the main process without a `comm` keeps
		 * the program's own */
		if (p->proc_comm[pr][0])
			fprintf(f, " comm:%s", p->proc_comm[pr]);
		else if (pr > 0)
			fprintf(f, " comm:fb-%s", p->proc[pr]);
		for (unsigned s = 0; s < p->nstages; s++)
			if (p->stage[s].process == (int)pr)
				fprintf(f, " stage:%s", p->stage[s].name);
		if (pr == 0)
			fprintf(f, " workers:%u", p->workers);
		for (unsigned s = 0; s < p->nservices; s++)
			if (p->service[s].process == (int)pr)
				fprintf(f, " service:%s", p->service[s].name);
		for (int k = 0; k < FB_PER_N; k++)
			if (p->periodic[k].enabled &&
			    p->periodic[k].process == (int)pr)
				fprintf(f, " %s", fb_periodic_names[k]);
		fputc('\n', f);
	}
	for (int k = 0; k < FB_PER_N; k++) {
		const struct fb_periodic *per = &p->periodic[k];

		if (!per->enabled)
			continue;
		fb_dist_format(&per->work, d, sizeof(d));
		fprintf(f, "periodic %s: every %.3f ms, work %s", fb_periodic_names[k],
			per->period_ns / 1e6, d);
		if (k == FB_PER_AUDIO)
			fprintf(f, ", deadline %.3f ms", per->deadline_ns / 1e6);
		if (per->lock >= 0) {
			fb_dist_format(&per->hold, d, sizeof(d));
			fprintf(f, ", holds %s for %s", p->lock[per->lock], d);
		}
		fputc('\n', f);
	}
	fprintf(f, "critical chain: %u wake-ups per frame, %u of them "
		   "cross-process (mean %.2f with the p= steps)\n",
		c.wakeups, c.cross_process, c.expected);
	fb_plan_print_chain(f, p);
	fprintf(f, "frames %" PRIu64 " (work in us; call SERVICE WORK, lock "
		   "MUTEX HOLD, fanout [JOB ...] or [JOB/HOLD ...])\n",
		nframes);
	for (uint64_t fr = 0; fr < nframes; fr++) {
		fprintf(f, "frame %" PRIu64, fr);
		for (unsigned s = 0; s < p->nstages; s++) {
			fb_plan_stage(p, seed, fr, s, &sp);
			fprintf(f, " | %s:", p->stage[s].name);
			for (unsigned i = 0; i < sp.nops; i++)
				print_op(f, p, &p->stage[s], &sp, &sp.op[i]);
		}
		fputc('\n', f);
	}
	for (int k = 0; k < FB_PER_N; k++) {
		if (!p->periodic[k].enabled)
			continue;
		fprintf(f, "%s periods 0-31:", fb_periodic_names[k]);
		for (uint64_t i = 0; i < 32; i++) {
			uint32_t w, h;

			fb_plan_periodic(p, seed, k, i, &w, &h);
			fputc(' ', f);
			print_us(f, w);
			if (p->periodic[k].lock >= 0) {
				fputc('/', f);
				print_us(f, h);
			}
		}
		fputc('\n', f);
	}
}
