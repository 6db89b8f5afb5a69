// SPDX-License-Identifier: GPL-2.0-only
#include "monitor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "gamectl.h"
#include "kinfo.h"
#include "report.h"
#include "sysinfo.h"
#include "util.h"

int lavd_read_stats(int fd, struct lavd_stats *st)
{
	__u32 zero = 0;

	/* the refill takes microseconds every 10 ms: a few tries find a copy */
	for (int i = 0; i < 100; i++) {
		if (bpf_map_lookup_elem(fd, &zero, st) != 0)
			return -1;
		if (st->magic != LAVD_STATS_MAGIC)
			return -1;
		if (lavd_stats_consistent(st))
			return 0;
		nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
	}
	return -1;
}

void lavd_print_stats(const struct lavd_stats *prev, const struct lavd_stats *cur,
		      double secs, double since, const char *extra)
{
	char line[512], energy[512];

	lavd_stats_line(line, sizeof(line), prev, cur, secs);
	lavd_energy_line(energy, sizeof(energy), prev, cur, secs, cur->have_little);
	printf("[%7.1fs] %s | %s%s%s\n", since, line, energy,
	       extra && extra[0] ? " | " : "", extra ? extra : "");
	fflush(stdout);
}

static int on_sample(void *ctx, void *data, size_t len)
{
	const double *t0 = ctx;
	char line[512];

	if (len < sizeof(struct lavd_sample))
		return 0;
	lavd_sample_line(line, sizeof(line), data,
			 (double)((const struct lavd_sample *)data)->now_ns / 1e9 - *t0);
	puts(line);
	return 0;
}

struct ring_buffer *lavd_samples_reader(int rb_fd, const double *t0)
{
	return ring_buffer__new(rb_fd, on_sample, (void *)t0, NULL);
}

int lavd_samples_request(int ctl_fd, uint64_t n)
{
	/* the owner lets a later --monitor tell whether a reader is alive */
	struct lavd_ctl c = { .samples_per_s = n, .owner_pid = n ? (uint64_t)getpid() : 0 };
	__u32 zero = 0;

	return bpf_map_update_elem(ctl_fd, &zero, &c, BPF_ANY);
}

/* A map of a running instance by name (and value size); -1 if none. */
static int find_map(const char *name, __u32 value_size, __u32 flags)
{
	__u32 id = 0;

	while (bpf_map_get_next_id(id, &id) == 0) {
		LIBBPF_OPTS(bpf_get_fd_by_id_opts, o, .open_flags = flags);
		struct bpf_map_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_map_get_fd_by_id_opts(id, &o);

		if (fd < 0)
			continue;
		if (bpf_map_get_info_by_fd(fd, &info, &len) == 0 &&
		    !strcmp(info.name, name) && info.value_size == value_size)
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * The running instance's samples: its ring buffer, and its control map
 * (*ctl_fd) set to n a second. Another reader that is still alive keeps
 * them: two readers would each get part of the samples.
 */
static struct ring_buffer *monitor_samples(uint64_t n, int *ctl_fd, const double *t0)
{
	struct ring_buffer *rb;
	struct lavd_ctl c;
	__u32 zero = 0;
	int rb_fd;

	*ctl_fd = find_map(LAVD_CTL_MAP, sizeof(struct lavd_ctl), 0);
	rb_fd = find_map(LAVD_SAMPLES_MAP, 0, 0);
	if (*ctl_fd < 0 || rb_fd < 0)
		gs_die(EXIT_RUNTIME, "the running lavd has no sample ring buffer "
		       "(an older version?)");
	if (bpf_map_lookup_elem(*ctl_fd, &zero, &c) == 0 && c.samples_per_s &&
	    c.owner_pid && c.owner_pid != (uint64_t)getpid() &&
	    kill((pid_t)c.owner_pid, 0) == 0)
		gs_die(EXIT_RUNTIME, "the running lavd's samples are already read by "
		       "pid %llu", (unsigned long long)c.owner_pid);
	rb = lavd_samples_reader(rb_fd, t0);
	close(rb_fd);
	if (!rb || lavd_samples_request(*ctl_fd, n))
		gs_die(EXIT_RUNTIME, "cannot read the running lavd's samples: %s",
		       strerror(errno));
	return rb;
}

/* The monitor's sample request ends with it (if it is still ours). */
static void monitor_release_samples(int ctl_fd)
{
	struct lavd_ctl c;
	__u32 zero = 0;

	if (ctl_fd < 0)
		return;
	if (bpf_map_lookup_elem(ctl_fd, &zero, &c) == 0 &&
	    c.owner_pid == (uint64_t)getpid())
		lavd_samples_request(ctl_fd, 0);
	close(ctl_fd);
}

/* The statistics map of the running instance; exits 1 when there is none. */
static int monitor_attach(struct lavd_stats *first)
{
	char ops[128], state[64];
	int fd;

	if (lavd_scx_check(GS_SCX_ROOT, ops, sizeof(ops), state, sizeof(state)) ==
	    LAVD_SCX_MISSING)
		gs_die(EXIT_RUNTIME, "this kernel has no sched_ext; see `make vm-demo`");
	lavd_need_privileges();
	fd = find_map(LAVD_STATS_MAP, sizeof(struct lavd_stats), BPF_F_RDONLY);
	if (fd < 0 || lavd_read_stats(fd, first) != 0)
		gs_die(EXIT_RUNTIME, "no running lavd instance found%s%s%s",
		       ops[0] ? " (the loaded scheduler is '" : "", ops,
		       ops[0] ? "')" : "");
	return fd;
}

int lavd_monitor(const struct lavd_opts *opts, const volatile sig_atomic_t *stop)
{
	struct lavd_stats prev, cur;
	struct ring_buffer *rb = NULL;
	char ops[128], state[64], games[512];
	double t0, last, next;
	int fd, ctl_fd = -1, tgid_fd, knob_fd;

	fd = monitor_attach(&prev);
	/* its game profiles, when it has them (gamectl.c) */
	tgid_fd = find_map(LAVD_PROF_TGID_MAP, sizeof(struct lavd_prof_tgid), BPF_F_RDONLY);
	knob_fd = find_map(LAVD_PROF_KNOB_MAP, sizeof(struct lavd_prof_info), BPF_F_RDONLY);
	printf("lavd: monitoring the running instance every %.1fs (read-only%s)\n",
	       opts->monitor_s, opts->samples ? "; sampling its decisions" : "");
	fflush(stdout);
	t0 = last = lavd_now_s();
	if (opts->samples)
		rb = monitor_samples(opts->samples, &ctl_fd, &t0);
	next = t0 + opts->monitor_s;
	while (!*stop) {
		double t;

		nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000 * 1000 }, NULL);
		if (rb)
			ring_buffer__consume(rb);
		if (*stop)
			break;
		t = lavd_now_s();
		if (t < next)
			continue;
		next += opts->monitor_s;
		if (lavd_read_stats(fd, &cur) != 0)
			gs_die(EXIT_RUNTIME, "reading the statistics map failed");
		if (cur.seq == prev.seq) {
			/* the timer publishes every 10 ms while lavd runs */
			printf("lavd: the monitored instance stopped publishing "
			       "(sched_ext state '%s')\n",
			       lavd_scx_check(GS_SCX_ROOT, ops, sizeof(ops), state,
					      sizeof(state)) == LAVD_SCX_BUSY ?
			       state : "disabled");
			break;
		}
		lavd_game_monitor_stats(tgid_fd, knob_fd, &prev, &cur, t - last,
					games, sizeof(games));
		lavd_print_stats(&prev, &cur, t - last, t - t0, games);
		prev = cur;
		last = t;
	}
	if (rb) {
		ring_buffer__consume(rb);
		ring_buffer__free(rb);
	}
	monitor_release_samples(ctl_fd);
	if (tgid_fd >= 0)
		close(tgid_fd);
	if (knob_fd >= 0)
		close(knob_fd);
	close(fd);
	return EXIT_OK;
}
