// SPDX-License-Identifier: GPL-2.0-only
/* Frames from present calls: names, frames, library choice (present.h). */
#include "present.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ftutil.h"

const char *const ft_present_funcs[] = {
	"glXSwapBuffers",
	"eglSwapBuffers",
	"vkQueuePresentKHR",
};
const size_t ft_present_nfuncs =
	sizeof(ft_present_funcs) / sizeof(ft_present_funcs[0]);

const char *const ft_present_loader_libs[] = {
	"libGLX.so.0",
	"libGL.so.1",
	"libEGL.so.1",
	"libvulkan.so.1",
};
const size_t ft_present_nloader_libs =
	sizeof(ft_present_loader_libs) / sizeof(ft_present_loader_libs[0]);

/* ev is name, or name + "_" + digits (perf probe's second probe), or
 * name + suffix when suffix is given. */
static bool name_is(const char *ev, const char *name, const char *suffix)
{
	size_t n = strlen(name);
	const char *p;

	if (strncmp(ev, name, n))
		return false;
	p = ev + n;
	if (suffix) {
		size_t s = strlen(suffix);

		if (strncmp(p, suffix, s))
			return false;
		p += s;
	}
	if (!*p)
		return true;
	if (*p != '_' || !isdigit((unsigned char)p[1]))
		return false;
	for (p++; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

static bool match(const char *ev, const char *const *extra, size_t nextra,
		  const char *suffix, const char **name)
{
	for (size_t i = 0; i < ft_present_nfuncs; i++)
		if (name_is(ev, ft_present_funcs[i], suffix)) {
			*name = ft_present_funcs[i];
			return true;
		}
	for (size_t i = 0; i < nextra; i++)
		if (extra[i] && *extra[i] && name_is(ev, extra[i], suffix)) {
			*name = extra[i];
			return true;
		}
	return false;
}

bool ft_present_event(const char *ev, const char *const *extra, size_t nextra,
		      const char **name)
{
	const char *n;

	if (!match(ev, extra, nextra, NULL, &n))
		return false;
	if (name)
		*name = n;
	return true;
}

bool ft_present_return_event(const char *ev, const char *const *extra,
			     size_t nextra)
{
	const char *n;

	return match(ev, extra, nextra, "__return", &n);
}

/* The caller's process; perf script's default fields carry no pid, and
 * frames are grouped by process, so a thread whose process is unknown
 * stands for its own (a main thread's tid is its pid). */
static uint32_t pid_of(const struct ft_trace *t, const struct ft_ev *e)
{
	uint32_t pid = e->arg ? e->arg : ft_task_pid(t, e->tid);

	return pid ? pid : e->tid;
}

void ft_present_seq_init(struct ft_present_seq *s)
{
	memset(s, 0, sizeof(*s));
	ft_map_init(&s->idx);
}

void ft_present_seq_free(struct ft_present_seq *s)
{
	ft_map_free(&s->idx);
	free(s->last);
	memset(s, 0, sizeof(*s));
}

int ft_present_seq_add(struct ft_present_seq *s, uint32_t tid, uint64_t ts,
		       uint64_t *prev)
{
	bool isnew;
	uint32_t *k = ft_map_put(&s->idx, tid, (uint32_t)s->n, &isnew);
	uint64_t p;

	if (!k || (isnew && FT_VEC_RESERVE(s->last, s->n, s->cap)))
		return -1;
	if (isnew) {
		s->last[s->n++] = ts;
		return 0;
	}
	p = s->last[*k];
	s->last[*k] = ts;
	/* equal times make no frame */
	if (ts <= p)
		return 0;
	*prev = p;
	s->frames++;
	return 1;
}

long ft_frames_from_presents(struct ft_trace *t)
{
	struct ft_present_seq seq;
	size_t before = t->nframes;
	long rc = -1;

	ft_present_seq_init(&seq);
	for (size_t i = 0; i < t->nev; i++) {
		const struct ft_ev *e = &t->ev[i];
		uint64_t prev;
		int made;

		if (e->type != FT_EV_PRESENT || !e->tid)
			continue;
		made = ft_present_seq_add(&seq, e->tid, e->ts, &prev);
		if (made < 0)
			goto out;
		if (made) {
			struct ft_frame f = {
				.start_ns = prev,
				.present_ns = e->ts,
				.frametime_ns = e->ts - prev,
				.pid = pid_of(t, e),
				.tid = e->tid,
				.flags = FT_FRAME_PRESENT,
			};

			if (ft_frame_push(t, &f))
				goto out;
		}
	}
	rc = (long)(t->nframes - before);
out:
	ft_present_seq_free(&seq);
	return rc;
}

/* The file name of a path, up to ".so": "libGLX" for
 * "/usr/lib/x86_64-linux-gnu/libGLX.so.0.0.0". */
static bool lib_is(const char *path, const char *stem)
{
	const char *b = strrchr(path, '/');
	size_t n = strlen(stem);

	b = b ? b + 1 : path;
	return !strncmp(b, stem, n) && !strncmp(b + n, ".so", 3);
}

size_t ft_present_auto_targets(const char *const *paths, size_t n,
			       const bool *glvnd, struct ft_present_target *out,
			       size_t max)
{
	bool have_glx = false;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (lib_is(paths[i], "libGLX"))
			have_glx = true;
	for (size_t i = 0; i < n && k < max; i++) {
		const char *f = NULL;

		if (lib_is(paths[i], "libGLX") ||
		    (!have_glx && lib_is(paths[i], "libGL") &&
		     !(glvnd && glvnd[i])))
			f = "glXSwapBuffers";
		else if (lib_is(paths[i], "libEGL"))
			f = "eglSwapBuffers";
		else if (lib_is(paths[i], "libvulkan"))
			f = "vkQueuePresentKHR";
		if (f)
			out[k++] = (struct ft_present_target){ i, f };
	}
	return k;
}

bool ft_maps_parse_line(char *line, struct ft_maps_line *m)
{
	char *f[6], *s = line;
	int nf = 0;

	memset(m, 0, sizeof(*m));
	/* address perms offset dev inode [path]; the path may hold spaces */
	while (nf < 5) {
		while (*s == ' ')
			s++;
		if (!*s || *s == '\n')
			return false;
		f[nf++] = s;
		while (*s && *s != ' ' && *s != '\n')
			s++;
		if (*s)
			*s++ = '\0';
	}
	while (*s == ' ')
		s++;
	f[5] = s;
	s[strcspn(s, "\n")] = '\0';
	if (strlen(f[1]) < 4 || !strchr(f[3], ':'))
		return false;
	{
		char *end;
		unsigned long maj = strtoul(f[3], &end, 16), min;

		if (*end != ':')
			return false;
		min = strtoul(end + 1, &end, 16);
		if (*end)
			return false;
		m->dev = (uint64_t)maj << 32 | min;
		m->ino = strtoull(f[4], &end, 10);
		if (*end)
			return false;
	}
	m->exec = f[1][2] == 'x';
	{
		size_t n = strlen(f[5]);

		/* a file replaced since it was mapped: its path is another file */
		if (n > 10 && !strcmp(f[5] + n - 10, " (deleted)"))
			return true;
	}
	if (f[5][0] == '/' && m->ino && m->exec)
		m->path = f[5];
	return true;
}
