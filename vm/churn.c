// SPDX-License-Identifier: GPL-2.0-only
/*
 * churn: a scheduler stress load for the VM tests. Keeps N threads alive
 * for a while, each of which lives a short random life and is replaced by
 * a new thread when it ends: bursts of CPU work, short sleeps, futex
 * ping-pong with a partner, a contended futex mutex, sched_yield(),
 * affinity changes (pinned to one CPU, then free again: per-CPU queues and
 * set_cpumask) and nice changes. Every thread creation, exit, wakeup and
 * affinity change is a scheduler event; the point is that the scheduler
 * under test survives it without a stall. Prints one line of counts.
 *
 *   churn [--threads N] [--duration D] [--seed N]
 *   (defaults: 200 threads, 10s, seed 1)
 * Exit: 0 done, 1 a thread could not be created for 5 s in a row,
 * 2 bad usage.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "opttab.h"
#include "rng.h"
#include "util.h"

#define MAX_THREADS 4096

static _Atomic uint32_t mutex_word;	/* 0 free, 1 locked, 2 locked + waiters */
static _Atomic uint64_t n_started, n_done, n_lock, n_pingpong, n_pinned, n_yield;
static _Atomic int live;
static volatile int stopping;
static int ncpu = 1;

static long futex(_Atomic uint32_t *w, int op, uint32_t val, uint64_t timeout_ns)
{
	struct timespec ts = { (time_t)(timeout_ns / 1000000000ULL),
			       (long)(timeout_ns % 1000000000ULL) };

	return syscall(SYS_futex, (uint32_t *)w, op, val, timeout_ns ? &ts : NULL,
		       NULL, 0);
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = gs_now_ns() + ns;

	while (gs_now_ns() < end)
		;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };

	nanosleep(&ts, NULL);
}

static void mutex_lock(void)
{
	uint32_t c = 0;

	if (atomic_compare_exchange_strong(&mutex_word, &c, 1))
		return;
	if (c != 2)
		c = atomic_exchange(&mutex_word, 2);
	while (c != 0) {
		futex(&mutex_word, FUTEX_WAIT_PRIVATE, 2, 20 * 1000 * 1000);
		c = atomic_exchange(&mutex_word, 2);
	}
}

static void mutex_unlock(void)
{
	if (atomic_exchange(&mutex_word, 0) == 2)
		futex(&mutex_word, FUTEX_WAKE_PRIVATE, 1, 0);
}

/* Two threads bounce a token through a futex a few times. */
struct pingpong {
	_Atomic uint32_t turn;
	int rounds;
};

static void *pong(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < pp->rounds && !stopping; i++) {
		while (atomic_load(&pp->turn) != 1 && !stopping)
			futex(&pp->turn, FUTEX_WAIT_PRIVATE, 0, 10 * 1000 * 1000);
		atomic_store(&pp->turn, 0);
		futex(&pp->turn, FUTEX_WAKE_PRIVATE, 1, 0);
	}
	return NULL;
}

static void pingpong(struct gs_rng *r)
{
	struct pingpong pp = { .rounds = 5 + (int)gs_rng_below(r, 20) };
	pthread_t t;

	if (pthread_create(&t, NULL, pong, &pp) != 0)
		return;
	for (int i = 0; i < pp.rounds && !stopping; i++) {
		atomic_store(&pp.turn, 1);
		futex(&pp.turn, FUTEX_WAKE_PRIVATE, 1, 0);
		while (atomic_load(&pp.turn) != 0 && !stopping)
			futex(&pp.turn, FUTEX_WAIT_PRIVATE, 1, 10 * 1000 * 1000);
	}
	atomic_store(&pp.turn, 1);
	futex(&pp.turn, FUTEX_WAKE_PRIVATE, 1, 0);
	pthread_join(t, NULL);
	n_pingpong++;
}

static void pin_somewhere(struct gs_rng *r, bool pin)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (pin) {
		CPU_SET((int)gs_rng_below(r, (uint64_t)ncpu), &set);
		n_pinned++;
	} else {
		for (int c = 0; c < ncpu; c++)
			CPU_SET(c, &set);
	}
	sched_setaffinity(0, sizeof(set), &set);
}

/* One short life: a few random steps, then exit. */
static void *life(void *arg)
{
	struct gs_rng r;
	int steps;

	gs_rng_seed(&r, (uint64_t)(uintptr_t)arg);
	steps = 2 + (int)gs_rng_below(&r, 7);
	for (int i = 0; i < steps && !stopping; i++) {
		switch (gs_rng_below(&r, 8)) {
		case 0:
		case 1:
			spin_ns(10000 + gs_rng_below(&r, 500000));	/* 10 .. 510 us */
			break;
		case 2:
			sleep_ns(50000 + gs_rng_below(&r, 2000000));	/* 50 us .. 2 ms */
			break;
		case 3:
			mutex_lock();
			spin_ns(5000 + gs_rng_below(&r, 100000));
			mutex_unlock();
			n_lock++;
			break;
		case 4:
			pingpong(&r);
			break;
		case 5:
			sched_yield();
			n_yield++;
			break;
		case 6:
			pin_somewhere(&r, gs_rng_below(&r, 2) == 0);
			break;
		case 7:
			setpriority(PRIO_PROCESS, 0, (int)gs_rng_below(&r, 20) - 5);
			break;
		}
	}
	n_done++;
	live--;
	return NULL;
}

struct opts {
	uint64_t threads, dur_ns, seed;
};

#define FIELD(f) offsetof(struct opts, f)

static const struct opts defaults = {
	.threads = 200, .dur_ns = 10ULL * 1000000000ULL, .seed = 1,
};

static const struct gs_opt specs[] = {
	{ "threads", 't', "N", GS_OPT_U64, FIELD(threads), 1, MAX_THREADS,
	  .show_default = true,
	  .help = "threads kept alive at once, 1-4096" },
	{ "duration", 'd', "D", GS_OPT_DURATION, FIELD(dur_ns),
	  1000000ULL, 3600ULL * 1000000000ULL,
	  .help = "how long to run: 10s, 500ms, ... (1ms-1h, default 10s)" },
	{ "seed", 's', "N", GS_OPT_U64, FIELD(seed), 0, (double)UINT64_MAX,
	  .show_default = true,
	  .help = "seed of the threads' random lives" },
	{ "help", 'h', NULL, GS_OPT_HELP, .help = "this help" },
};

static const struct gs_opt_table table = {
	specs, ARRAY_SIZE(specs),
	"usage: churn [--threads N] [--duration D] [--seed N]\n"
	"Keeps N threads of short random lives alive: a scheduler stress load.\n\n",
	"", &defaults, 20,
};

int main(int argc, char **argv)
{
	struct opts o = defaults;
	uint64_t end, stuck = 0;
	pthread_attr_t attr;
	struct gs_rng r;
	int i;

	gs_set_prog(argv[0]);
	i = gs_opt_parse(&table, &o, argc, argv, NULL);
	if (i < argc)
		gs_die_extra_argument(argv[i]);
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	gs_rng_seed(&r, o.seed);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	end = gs_now_ns() + o.dur_ns;
	while (gs_now_ns() < end) {
		while (live < (int)o.threads && gs_now_ns() < end) {
			pthread_t t;

			live++;
			if (pthread_create(&t, &attr, life,
					   (void *)(uintptr_t)gs_rng_next(&r)) != 0) {
				live--;
				if (!stuck)
					stuck = gs_now_ns();
				else if (gs_now_ns() - stuck > 5ULL * 1000000000ULL) {
					gs_warn("no thread could be created for 5 s: %s",
						strerror(errno));
					stopping = 1;
					return EXIT_RUNTIME;
				}
				break;
			}
			stuck = 0;
			n_started++;
		}
		sleep_ns(1000000);
	}
	stopping = 1;
	for (int i = 0; i < 5000 && live > 0; i++)
		sleep_ns(1000000);
	printf("churn: %llu threads started, %llu finished, %llu lock sections, "
	       "%llu ping-pongs, %llu pinnings, %llu yields, %d still alive\n",
	       (unsigned long long)n_started, (unsigned long long)n_done,
	       (unsigned long long)n_lock, (unsigned long long)n_pingpong,
	       (unsigned long long)n_pinned, (unsigned long long)n_yield, live);
	return EXIT_OK;
}
