// SPDX-License-Identifier: GPL-2.0-only
#include "proc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spawn.h"
#include "util.h"

volatile sig_atomic_t gsu_stop_signal;

static void on_stop(int sig)
{
	gsu_stop_signal = sig;
}

void gsu_install_signal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a signal cuts sleeps short */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* ---- words ------------------------------------------------------------ */

static int push_word(char ***v, int *n, int *cap, char *w)
{
	if (*n + 2 > *cap) {
		int nc = *cap ? *cap * 2 : 8;
		char **nv = realloc(*v, (size_t)nc * sizeof(**v));

		if (!nv)
			return -1;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = w;
	(*v)[*n] = NULL;
	return 0;
}

int gsu_split_words(const char *s, char ***argv, int *argc, char *err,
		    size_t errlen)
{
	char **v = NULL, *buf;
	int n = 0, cap = 0;
	size_t len = strlen(s);

	buf = malloc(len + 1);
	if (!buf || push_word(&v, &n, &cap, NULL)) {
		free(buf);
		free(v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	n = 0;
	while (*s) {
		size_t o = 0;
		bool have = false;
		char *w;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		while (*s && *s != ' ' && *s != '\t') {
			have = true;
			if (*s == '\'') {
				const char *e = strchr(s + 1, '\'');

				if (!e)
					goto unbalanced;
				memcpy(buf + o, s + 1, (size_t)(e - s - 1));
				o += (size_t)(e - s - 1);
				s = e + 1;
			} else if (*s == '"') {
				s++;
				while (*s && *s != '"') {
					if (*s == '\\' && s[1])
						s++;
					buf[o++] = *s++;
				}
				if (*s != '"')
					goto unbalanced;
				s++;
			} else if (*s == '\\' && s[1]) {
				buf[o++] = s[1];
				s += 2;
			} else {
				buf[o++] = *s++;
			}
		}
		if (!have)
			break;
		w = malloc(o + 1);
		if (!w)
			goto oom;
		memcpy(w, buf, o);
		w[o] = '\0';
		if (push_word(&v, &n, &cap, w)) {
			free(w);
			goto oom;
		}
	}
	free(buf);
	*argv = v;
	*argc = n;
	return 0;
unbalanced:
	snprintf(err, errlen, "unbalanced quote");
	goto fail;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	free(buf);
	gsu_free_words(v);
	return -1;
}

void gsu_free_words(char **argv)
{
	if (!argv)
		return;
	for (char **p = argv; *p; p++)
		free(*p);
	free(argv);
}

/* ---- resolving programs ---------------------------------------------- */

static bool is_exec_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

int gsu_resolve(const char *prog, char *out, size_t len)
{
	char self[PATH_MAX], cand[PATH_MAX + 256];
	const char *path;
	ssize_t n;

	if (!prog || !*prog)
		return -1;
	if (strchr(prog, '/')) {
		if (!is_exec_file(prog))
			return -1;
		gs_strlcpy(out, prog, len);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(cand, sizeof(cand), "%s/%s", self, prog);
			if (is_exec_file(cand)) {
				gs_strlcpy(out, cand, len);
				return 0;
			}
		}
	}
	path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	while (*path) {
		const char *c = strchr(path, ':');
		size_t dl = c ? (size_t)(c - path) : strlen(path);

		snprintf(cand, sizeof(cand), "%.*s/%s", (int)(dl ? dl : 1),
			 dl ? path : ".", prog);
		if (is_exec_file(cand)) {
			gs_strlcpy(out, cand, len);
			return 0;
		}
		path += dl + (c ? 1 : 0);
	}
	return -1;
}

/* ---- spawning ---------------------------------------------------------- */

int gsu_spawn(struct gsu_proc *p, char *const argv[], char *const env_add[],
	      const char *log_path, char *err, size_t errlen)
{
	/* a killed gamesuite must not leave a loader behind */
	const struct gs_spawn_opts o = {
		.log_path = log_path ? log_path : "/dev/null",
		.env_add = env_add,
		.own_group = true,
		.die_with_parent = true,
	};
	pid_t pid;

	memset(p, 0, sizeof(*p));
	pid = gs_spawn(argv, &o, NULL, err, errlen);
	if (pid < 0)
		return -1;
	p->pid = pid;
	p->running = true;
	p->start_ns = gs_now_ns();
	return 0;
}

bool gsu_proc_poll(struct gsu_proc *p)
{
	int st;
	pid_t r;

	if (!p->pid || !p->running)
		return true;
	r = wait4(p->pid, &st, WNOHANG, &p->ru);
	if (r == p->pid) {
		p->running = false;
		p->status = st;
		p->end_ns = gs_now_ns();
		return true;
	}
	if (r < 0 && errno == ECHILD) {
		p->running = false;
		p->end_ns = gs_now_ns();
		return true;
	}
	return false;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

void gsu_proc_stop(struct gsu_proc *p, int sig, uint64_t grace_ns)
{
	uint64_t deadline;

	if (gsu_proc_poll(p))
		goto group;
	p->stopped_by_us = true;
	kill(-p->pid, sig);
	deadline = gs_now_ns() + grace_ns;
	while (!gsu_proc_poll(p) && gs_now_ns() < deadline)
		nap_ms(10);
	if (!gsu_proc_poll(p)) {
		kill(-p->pid, SIGKILL);
		while (!gsu_proc_poll(p))
			nap_ms(5);
	}
group:
	/* leftovers of the group (a shell's children) */
	if (p->pid)
		kill(-p->pid, SIGKILL);
}

void gsu_describe_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) > 128 &&
	    WEXITSTATUS(status) < 128 + 32)
		/* a shell reporting a child it lost to a signal */
		snprintf(buf, len, "exit %d (a child killed by signal %d, %s)",
			 WEXITSTATUS(status), WEXITSTATUS(status) - 128,
			 strsignal(WEXITSTATUS(status) - 128));
	else if (WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "wait status %#x", status);
}

bool gsu_sleep_ns(uint64_t ns)
{
	uint64_t end = gs_now_ns() + ns;

	while (!gsu_stop_signal) {
		uint64_t now = gs_now_ns();
		uint64_t left = now < end ? end - now : 0;
		struct timespec ts;

		if (!left)
			return false;
		if (left > 100 * NSEC_PER_MSEC)
			left = 100 * NSEC_PER_MSEC;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)left;
		nanosleep(&ts, NULL);
	}
	return true;
}

void gsu_file_tail(const char *path, char *buf, size_t len)
{
	FILE *f;
	long size, from;
	size_t n;
	char *start;

	buf[0] = '\0';
	if (!path || len < 2 || !(f = fopen(path, "r")))
		return;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	from = size > (long)len - 1 ? size - (long)len + 1 : 0;
	fseek(f, from, SEEK_SET);
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	start = buf;
	if (from > 0) { /* drop a partial first line */
		char *nl = strchr(buf, '\n');

		if (nl && nl[1])
			start = nl + 1;
	}
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (start != buf)
		memmove(buf, start, strlen(start) + 1);
	/* keep it printable for the report */
	for (char *c = buf; *c; c++)
		if ((unsigned char)*c < 32 && *c != '\n')
			*c = ' ';
}
