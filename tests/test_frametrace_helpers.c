// SPDX-License-Identifier: GPL-2.0-only
/* Helpers of frametrace's unit tests (test_frametrace.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "trace/finish.h"
#include "trace/marker.h"
#include "test_frametrace.h"

static uint64_t lcg = 12345;

double rnd(void)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(lcg >> 11) / 9007199254740992.0;
}

struct ft_ev ev(uint64_t ts, uint8_t type, uint16_t cpu, uint32_t tid,
		uint32_t arg, uint32_t arg2, uint64_t val, uint8_t flags)
{
	struct ft_ev e = { .ts = ts, .tid = tid, .arg = arg, .arg2 = arg2,
			   .cpu = cpu, .type = type, .flags = flags, .val = val };

	return e;
}

void add(struct ft_trace *t, struct ft_ev e)
{
	assert_int_equal(ft_trace_push(t, &e), 0);
}

void sw(struct ft_trace *t, uint64_t ts, uint16_t cpu, uint32_t prev,
	uint32_t next, uint32_t state)
{
	add(t, ev(ts, FT_EV_SWITCH, cpu, prev, next, state | 120u << 16 | 120u << 24,
		  0, state ? 0 : FT_F_PREEMPT));
}

void wake(struct ft_trace *t, uint64_t ts, uint16_t cpu, uint32_t wakee,
	  uint32_t waker)
{
	add(t, ev(ts, FT_EV_WAKING, cpu, wakee, waker, cpu | 120u << 16, 0, 0));
}

char *report_text(const struct ft_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	ft_report_text(f, r);
	fclose(f);
	return text;
}

void build_frames_with(struct ft_trace *t, uint32_t holder, bool futex,
		       bool late)
{
	ft_trace_init(t);
	t->ncpus = 1;
	ft_task_set(t, 50, 50, "game");
	ft_task_set(t, 51, 50, "render");
	ft_task_set(t, 52, 50, "present");
	ft_task_set(t, 60, 60, "hog");
	for (int i = 0; i < 20; i++) {
		uint64_t extra = i == 10 ? 15 * MS : 0;
		uint64_t b = T0 + (uint64_t)i * 50 * MS + (late ? extra : 0);
		uint64_t hold = late ? 0 : extra;
		struct ft_frame fr = { .start_ns = b + 1 * MS,
				       .present_ns = b + 5 * MS + hold,
				       .frametime_ns = 0, .pid = 50, .tid = 52 };

		wake(t, b + 1 * MS, 0, 50, 0);
		add(t, ev(b + 1 * MS, FT_EV_WAKING, 0, 50, 0, 0, 0, FT_F_IRQ));
		sw(t, b + 1 * MS + 10 * US, 0, 0, 50, 0);
		wake(t, b + 2 * MS, 0, 51, 50);
		if (hold) {
			/* the game thread is done; the holder (the hog, or
			 * the idle task: a wake-up not acted on) gets the
			 * CPU before the render thread */
			sw(t, b + 2 * MS + 10 * US, 0, 50, holder, 1);
			sw(t, b + 2 * MS + 10 * US + hold, 0, holder, 51, holder ? 0 : 1);
		} else {
			sw(t, b + 2 * MS + 10 * US, 0, 50, 51, 1);
		}
		wake(t, b + 4 * MS + hold, 0, 52, 51);
		sw(t, b + 4 * MS + 10 * US + hold, 0, 51, 52, 1);
		sw(t, b + 6 * MS + hold, 0, 52, 0, 1);
		if (futex && i < 19) {
			/* present waits on a futex until the next frame's wake */
			uint64_t next_extra = i + 1 == 10 ? 15 * MS : 0;

			add(t, ev(b + 6 * MS + hold, FT_EV_FUTEX, 0, 52, 0 /* WAIT */,
				  (uint32_t)(48 * MS + next_extra - hold), 0x2000, 0));
		}
		ft_frame_push(t, &fr);
	}
	ft_frames_fix(t);
	assert_int_equal(ft_trace_finish(t), 0);
}

void build_frames(struct ft_trace *t)
{
	build_frames_with(t, 60, false, false);
}
