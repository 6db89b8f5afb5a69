// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timeline's builder, shared by the build (model.c: the events in
 * order, the segments closed and indexed) and the handlers of the events
 * that change a task's state (model_events.c). Private to the two.
 */
#ifndef FT_MODEL_BUILD_H
#define FT_MODEL_BUILD_H

#include "model.h"

enum tstate { TS_UNKNOWN, TS_RUNNING, TS_RUNNABLE, TS_SLEEPING, TS_DEAD };

struct live {
	uint8_t state;
	uint8_t rq_reason;
	uint8_t rq_irq;
	uint16_t cpu;
	uint64_t since;		/* of the current state */
	uint32_t rq_by;
	long last_wake;		/* wake record that made it runnable */
	uint64_t last_sum;
	bool has_sum;
	uint32_t chain[3];	/* who woke whom before this task, oldest first */
	int chainlen;
	long last_fx_wait;	/* latest futex wait call */
	long pending_fx;	/* entry-only wait call not yet ended */
};struct builder {
	struct ft_model *m;
	struct live *live;	/* parallel to m->task */
	size_t livecap;
	int64_t *cur;		/* per CPU: running tid, -1 unknown */
	uint64_t *since;
	uint8_t *segflags;
};
/* A task's record and state, created on first sight; NULL: out of memory. */
struct ft_tstat *ftm_task_of(struct builder *b, uint32_t tid, struct live **lv);
int ftm_hist_add(struct gs_hist **h, uint64_t v);
int ftm_vec_push(struct ft_u32vec *v, uint32_t x);
/* Ends CPU cpu's current segment at end. */
int ftm_push_seg(struct builder *b, uint16_t cpu, uint64_t end,
		 uint32_t tid, uint32_t next, char out_state, uint8_t extra);

/* The events that change a task's state: 0, or -1 out of memory. */
int ftm_on_switch(struct builder *b, const struct ft_ev *e);
int ftm_on_wake(struct builder *b, const struct ft_ev *e);
int ftm_on_futex(struct builder *b, const struct ft_ev *e);

#endif
