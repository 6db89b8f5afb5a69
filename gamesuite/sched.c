// SPDX-License-Identifier: GPL-2.0-only
#include "sched.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static const char *const default_names[] = { "eevdf", "default", "cfs",
					     "kernel" };

const char *gsu_sched_status_name(enum gsu_sched_status st)
{
	switch (st) {
	case GSU_SCHED_OK: return "ok";
	case GSU_SCHED_UNKNOWN: return "unknown command";
	case GSU_SCHED_UNAVAILABLE: return "unavailable";
	case GSU_SCHED_FAILED: return "failed to load";
	}
	return "?";
}

/* nice:N, fifo, slice:US: 1 when cmd is one (s filled), 0 when not,
 * -1 with a message when it is one with a bad value. */
static int parse_remedy(struct gsu_sched *s, const char *cmd, char *err,
			size_t errlen)
{
	long v = 0;
	char *end;

	if (!strcmp(cmd, "fifo")) {
		s->remedy = GSU_REM_FIFO;
	} else if (!strncmp(cmd, "nice:", 5) || !strncmp(cmd, "slice:", 6)) {
		bool nice = cmd[0] == 'n';
		const char *num = cmd + (nice ? 5 : 6);

		errno = 0;
		v = strtol(num, &end, 10);
		if (!*num || *end || errno || (nice ? v < -20 || v > 19 :
					       v < 100 || v > 100000)) {
			snprintf(err, errlen, "option --sched: '%s': expected %s",
				 cmd, nice ? "nice:N with N in -20..19" :
				 "slice:US with US in 100..100000");
			return -1;
		}
		s->remedy = nice ? GSU_REM_NICE : GSU_REM_SLICE;
	} else {
		return 0;
	}
	s->arm = GSU_ARM_REMEDY;
	s->remedy_value = (int)v;
	gs_strlcpy(s->label, cmd, sizeof(s->label));
	return 1;
}

int gsu_sched_init(struct gsu_sched *s, const char *cmd, char *err,
		   size_t errlen)
{
	char e[128], label[256];
	const char *base;
	size_t o = 0;

	memset(s, 0, sizeof(*s));
	if (!(s->command = strdup(cmd))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	{
		char *t = gs_trim(s->command);

		memmove(s->command, t, strlen(t) + 1);
	}
	if (!s->command[0]) {
		snprintf(err, errlen, "option --sched: empty scheduler command");
		goto fail;
	}
	switch (parse_remedy(s, s->command, err, errlen)) {
	case 1:
		return 0;
	case -1:
		goto fail;
	}
	for (size_t i = 0; i < ARRAY_SIZE(default_names); i++)
		if (!strcmp(s->command, default_names[i])) {
			s->is_default = true;
			s->arm = GSU_ARM_DEFAULT;
			gs_strlcpy(s->label, s->command, sizeof(s->label));
			return 0;
		}
	if (gsu_split_words(s->command, &s->argv, &s->argc, e, sizeof(e))) {
		snprintf(err, errlen, "option --sched: '%s': %s", s->command, e);
		goto fail;
	}
	if (!s->argc) {
		snprintf(err, errlen, "option --sched: empty scheduler command");
		goto fail;
	}
	/* label: program name without its directory, then the arguments;
	 * '.' becomes '_' so labels work as keys of dotted JSON paths */
	base = strrchr(s->argv[0], '/');
	base = base ? base + 1 : s->argv[0];
	o = (size_t)snprintf(label, sizeof(label), "%s", base);
	for (int i = 1; i < s->argc && o < sizeof(label); i++)
		o += (size_t)snprintf(label + o, sizeof(label) - o, " %s",
				      s->argv[i]);
	for (char *c = label; *c; c++)
		if (*c == '.' || *c == '"' || *c == '\\')
			*c = '_';
	gs_strlcpy(s->label, label, sizeof(s->label));
	for (int i = 1; i < s->argc; i++)
		if (!strcmp(s->argv[i], "--eevdf"))
			s->arm = GSU_ARM_STEER;
	/* expected ops: the program name less a "scx_" prefix */
	if (!strncmp(base, "scx_", 4) && base[4])
		base += 4;
	gs_strlcpy(s->expected_ops, base, sizeof(s->expected_ops));
	return 0;
fail:
	gsu_sched_free(s);
	return -1;
}

void gsu_sched_free(struct gsu_sched *s)
{
	gsu_free_words(s->argv);
	free(s->command);
	s->argv = NULL;
	s->command = NULL;
}

/* ---- sysfs -------------------------------------------------------------- */

bool gsu_ops_match(const char *expected, const char *ops)
{
	size_t n = strlen(expected);

	if (!n || strncmp(expected, ops, n))
		return false;
	return ops[n] == '\0' || ops[n] == '_';
}

/* ---- start / check / stop ----------------------------------------------- */

static void nap(void)
{
	gsu_sleep_ns(20 * NSEC_PER_MSEC);
}

/* Starts the scheduler's command (its resolved path as argv[0]), its
 * output into log_path; -1 with the reason in why. */
static int spawn_loader(const struct gsu_sched *s, const char *log_path,
			struct gsu_proc *proc, char *why, size_t whylen)
{
	char **argv = calloc((size_t)s->argc + 1, sizeof(*argv));
	int rc;

	if (!argv) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	argv[0] = (char *)s->resolved;
	for (int i = 1; i < s->argc; i++)
		argv[i] = s->argv[i];
	rc = gsu_spawn(proc, argv, NULL, log_path, why, whylen);
	free(argv);
	return rc ? -1 : 0;
}

/*
 * A steering program beside the kernel's scheduler: it is running when
 * it is still alive after a second (lavd --eevdf has attached and taken
 * its first readings by then).
 */
static enum gsu_start start_steering(const struct gsu_sched *s,
				     uint64_t stop_timeout_ns,
				     const char *log_path, struct gsu_loaded *out,
				     char *why, size_t whylen)
{
	uint64_t t0 = gs_now_ns();
	char st[96];

	if (spawn_loader(s, log_path, &out->proc, why, whylen))
		return GSU_START_FAILED;
	while (gs_now_ns() - t0 < NSEC_PER_SEC) {
		if (gsu_stop_signal) {
			gsu_proc_stop(&out->proc, SIGINT, stop_timeout_ns);
			snprintf(why, whylen, "interrupted while starting");
			return GSU_START_INTERRUPTED;
		}
		if (gsu_proc_poll(&out->proc)) {
			gsu_describe_status(out->proc.status, st, sizeof(st));
			snprintf(why, whylen, "steering program exited at start (%s)", st);
			return GSU_START_FAILED;
		}
		nap();
	}
	out->load_s = (double)(gs_now_ns() - t0) / 1e9;
	return GSU_START_OK;
}

enum gsu_start gsu_sched_start(const struct gsu_sched *s, const char *root,
			       uint64_t timeout_ns, uint64_t stop_timeout_ns,
			       const char *log_path, struct gsu_loaded *out,
			       char *why, size_t whylen)
{
	struct gs_scx snap;
	char st[96];
	uint64_t t0, deadline;
	int empty_ops = 0;
	long long pre_seq;

	memset(out, 0, sizeof(*out));
	why[0] = '\0';
	gs_scx_read(root, &snap);
	if (gs_scx_enabled(&snap)) {
		snprintf(why, whylen,
			 "sched_ext scheduler '%s' is already enabled (not "
			 "started by this run)",
			 snap.ops[0] ? snap.ops : "?");
		return GSU_START_WRONG;
	}
	if (gsu_arm_native(s)) {
		out->active = snap;
		if (s->arm == GSU_ARM_STEER)
			return start_steering(s, stop_timeout_ns, log_path, out,
					      why, whylen);
		return GSU_START_OK;
	}
	pre_seq = snap.enable_seq;
	t0 = gs_now_ns();
	if (spawn_loader(s, log_path, &out->proc, why, whylen))
		return GSU_START_FAILED;
	deadline = t0 + timeout_ns;
	for (;;) {
		if (gsu_stop_signal) {
			gsu_proc_stop(&out->proc, SIGINT, stop_timeout_ns);
			snprintf(why, whylen, "interrupted while loading");
			return GSU_START_INTERRUPTED;
		}
		gs_scx_read(root, &snap);
		if (gs_scx_enabled(&snap)) {
			if (!snap.ops[0] && ++empty_ops < 10) {
				nap();
				continue;
			}
			if (!gsu_ops_match(s->expected_ops, snap.ops)) {
				snprintf(why, whylen,
					 "sched_ext ops is '%s', expected '%s'%s",
					 snap.ops, s->expected_ops,
					 s->ops_given ? "" :
					 " (derived from the command; name it "
					 "with --ops NAME)");
				gsu_proc_stop(&out->proc, SIGINT,
					      stop_timeout_ns);
				return GSU_START_WRONG;
			}
			if (gsu_proc_poll(&out->proc)) {
				gsu_describe_status(out->proc.status, st,
						    sizeof(st));
				snprintf(why, whylen, "loader exited right "
					 "after loading (%s)", st);
				return GSU_START_FAILED;
			}
			/* the kernel counts enable_seq up after the state
			 * reads "enabled": wait for it (5 s at most), or a
			 * later check would see it move and call the
			 * scheduler re-enabled; an unreadable value is not
			 * the new one */
			for (int i = 0; i < 250 && pre_seq >= 0 &&
					(snap.enable_seq == pre_seq ||
					 snap.enable_seq < 0); i++) {
				nap();
				gs_scx_read(root, &snap);
			}
			out->active = snap;
			out->load_s = (double)(gs_now_ns() - t0) / 1e9;
			return GSU_START_OK;
		}
		if (gsu_proc_poll(&out->proc)) {
			gsu_describe_status(out->proc.status, st, sizeof(st));
			snprintf(why, whylen,
				 "loader exited before sched_ext was enabled "
				 "(%s)", st);
			return GSU_START_FAILED;
		}
		if (gs_now_ns() >= deadline) {
			gsu_proc_stop(&out->proc, SIGINT, stop_timeout_ns);
			snprintf(why, whylen,
				 "sched_ext not enabled within %.0f s (state "
				 "'%s')", (double)timeout_ns / 1e9,
				 snap.state[0] ? snap.state : "absent");
			return GSU_START_FAILED;
		}
		nap();
	}
}

bool gsu_sched_check(const struct gsu_sched *s, const char *root,
		     struct gsu_loaded *l, char *why, size_t whylen)
{
	struct gs_scx now;
	char st[96];

	gs_scx_read(root, &now);
	if (s->arm == GSU_ARM_STEER && gsu_proc_poll(&l->proc)) {
		gsu_describe_status(l->proc.status, st, sizeof(st));
		snprintf(why, whylen, "the steering program exited during the run "
			 "(%s)", st);
		return false;
	}
	if (gsu_arm_native(s)) {
		if (gs_scx_enabled(&now)) {
			snprintf(why, whylen, "sched_ext scheduler '%s' was "
				 "enabled during the run", now.ops);
			return false;
		}
		if (now.enable_seq != l->active.enable_seq) {
			snprintf(why, whylen, "a sched_ext scheduler was "
				 "loaded and unloaded during the run "
				 "(enable_seq %lld -> %lld)",
				 l->active.enable_seq, now.enable_seq);
			return false;
		}
		return true;
	}
	if (gsu_proc_poll(&l->proc)) {
		gsu_describe_status(l->proc.status, st, sizeof(st));
		snprintf(why, whylen, "ejected: the loader exited during the "
			 "run (%s; state '%s')", st, now.state);
		return false;
	}
	if (!gs_scx_enabled(&now)) {
		snprintf(why, whylen, "ejected: sched_ext state is '%s' "
			 "during the run", now.state);
		return false;
	}
	if (strcmp(now.ops, l->active.ops)) {
		snprintf(why, whylen, "ejected: ops changed from '%s' to '%s'",
			 l->active.ops, now.ops);
		return false;
	}
	if (now.enable_seq != l->active.enable_seq) {
		snprintf(why, whylen, "ejected and re-enabled during the run "
			 "(enable_seq %lld -> %lld)",
			 l->active.enable_seq, now.enable_seq);
		return false;
	}
	return true;
}

int gsu_sched_stop(const struct gsu_sched *s, const char *root,
		   struct gsu_loaded *l, uint64_t timeout_ns, char *why,
		   size_t whylen)
{
	struct gs_scx now;
	uint64_t deadline;

	why[0] = '\0';
	if ((s->arm == GSU_ARM_LOADER || s->arm == GSU_ARM_STEER) && l->proc.pid)
		gsu_proc_stop(&l->proc, SIGINT, timeout_ns);
	deadline = gs_now_ns() + timeout_ns;
	for (;;) {
		gs_scx_read(root, &now);
		if (!gs_scx_enabled(&now))
			return 0;
		if (gs_now_ns() >= deadline)
			break;
		/* not gsu_sleep_ns: a second Ctrl-C must not cut this short */
		usleep(20000);
	}
	snprintf(why, whylen, "sched_ext is still enabled ('%s') after "
		 "stopping '%s'; the machine is not on its default scheduler",
		 now.ops, s->label);
	return -1;
}
