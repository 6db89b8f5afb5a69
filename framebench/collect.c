// SPDX-License-Identifier: GPL-2.0-only
#include "collect.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "mangohud.h"
#include "sysinfo.h"
#include "util.h"

int fb_collect_init(struct fb_collect *c, struct fb_shm *sh, FILE *csv,
		    uint64_t cap_frames, double target_ms)
{
	memset(c, 0, sizeof(*c));
	c->sh = sh;
	c->csv = csv;
	c->target_ms = target_ms;
	c->time_scale = 1;
	if (cap_frames > FB_FRAMES_CAP_MAX / 2)
		cap_frames = FB_FRAMES_CAP_MAX / 2;
	c->cap = (size_t)cap_frames * 2 + 4096;
	c->map_len = c->cap * sizeof(double);
	c->il_len = c->cap * sizeof(float);
	/* reserved, not committed: pages are touched as frames arrive */
	c->ft = mmap(NULL, c->map_len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	c->il = mmap(NULL, c->il_len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c->ft == MAP_FAILED || c->il == MAP_FAILED) {
		gs_warn("cannot reserve memory for %zu frame times: %s",
			c->cap, strerror(errno));
		if (c->ft != MAP_FAILED)
			munmap(c->ft, c->map_len);
		if (c->il != MAP_FAILED)
			munmap(c->il, c->il_len);
		c->ft = NULL;
		c->il = NULL;
		return -1;
	}
	return 0;
}

void fb_collect_free(struct fb_collect *c)
{
	if (c->ft)
		munmap(c->ft, c->map_len);
	if (c->il)
		munmap(c->il, c->il_len);
	c->ft = NULL;
	c->il = NULL;
}

void fb_collect_one(struct fb_collect *c, const struct fb_record *r)
{
	double ms;

	if (r->flags & FB_REC_WARMUP) {
		c->warmup_frames++;
		return;
	}
	if (r->flags & FB_REC_NO_INTERVAL)
		return;
	if (r->present_ns >= atomic_load_explicit(&c->sh->end_ns,
						  memory_order_relaxed)) {
		c->late_frames++;
		return;
	}
	ms = (double)r->frametime_ns / 1e6 * c->time_scale;
	if (c->n < c->cap)
		c->ft[c->n++] = ms;
	c->frames++;
	c->missed_vsyncs += r->missed_vsyncs;
	c->chain_ops += r->chain_ops;
	c->chain_woken += r->chain_woken;
	if (r->disturbance)
		c->disturbed_frames++;
	if (r->input_ns && r->present_ns > r->input_ns && c->n_il < c->cap)
		c->il[c->n_il++] = (float)((double)(r->present_ns - r->input_ns) / 1e6 *
						 c->time_scale);
	c->prog_frames++;
	if (ms > c->prog_worst_ms)
		c->prog_worst_ms = ms;
	if (c->target_ms > 0 && ms > 1.5 * c->target_ms)
		c->prog_stutter++;
	if (c->csv)
		gs_mh_write_frame(c->csv, ms, c->cpu_load,
				  r->present_ns - c->sh->measure_ns);
}

void fb_collect_drain(struct fb_collect *c)
{
	struct fb_shm *sh = c->sh;
	uint64_t head = atomic_load_explicit(&sh->rec_head, memory_order_acquire);
	uint64_t tail = atomic_load_explicit(&sh->rec_tail, memory_order_relaxed);

	while (tail < head) {
		struct fb_record r = sh->rec[tail % FB_REC_CAP];

		tail++;
		atomic_store_explicit(&sh->rec_tail, tail, memory_order_release);
		fb_collect_one(c, &r);
	}
}

void fb_collect_cpu_load(struct fb_collect *c, uint64_t now)
{
	struct gs_cputimes all;

	if (now < c->cpu_next_ns)
		return;
	c->cpu_next_ns = now + 500 * NSEC_PER_MSEC;
	if (gs_cputimes_read("/proc/stat", &all, NULL, 0) < 0)
		return;
	if (c->cpu_total && all.total > c->cpu_total)
		c->cpu_load = 100.0 * (double)(all.busy - c->cpu_busy) /
			      (double)(all.total - c->cpu_total);
	c->cpu_busy = all.busy;
	c->cpu_total = all.total;
}
