// SPDX-License-Identifier: GPL-2.0-only
#include "feed.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/ftutil.h"
#include "util.h"

int ft_feed_open(struct ft_feed *f, const char *dir, int pid, char *err,
		 size_t errlen)
{
	char path[512];
	struct stat st;
	int fd;
	const struct gs_feed_header *h;
	uint64_t need;

	memset(f, 0, sizeof(*f));
	f->pid = pid;
	snprintf(path, sizeof(path), "%s/framebench.%d", dir, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*h)) {
		snprintf(err, errlen, "%s: too small for a frame feed", path);
		close(fd);
		return -1;
	}
	f->len = (size_t)st.st_size;
	f->map = mmap(NULL, f->len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		snprintf(err, errlen, "%s: mmap: %s", path, strerror(errno));
		return -1;
	}
	h = f->map;
	if (h->magic != GS_FEED_MAGIC || h->version != GS_FEED_VERSION ||
	    h->frame_size != sizeof(struct gs_feed_frame) || !h->capacity ||
	    (h->capacity & (h->capacity - 1))) {
		snprintf(err, errlen,
			 "%s: not a version %d frame feed (magic, version, "
			 "frame size or capacity wrong)",
			 path, GS_FEED_VERSION);
		ft_feed_close(f);
		return -1;
	}
	need = sizeof(*h) + (uint64_t)h->capacity * sizeof(struct gs_feed_frame);
	if (need > f->len) {
		snprintf(err, errlen,
			 "%s: feed of %u frames needs %llu bytes, file has %zu",
			 path, h->capacity, (unsigned long long)need, f->len);
		ft_feed_close(f);
		return -1;
	}
	f->h = (volatile struct gs_feed_header *)f->map;
	f->fr = (volatile struct gs_feed_frame *)((char *)f->map + sizeof(*h));
	f->cap = h->capacity;
	/* start with what is still in the ring */
	{
		uint64_t head = __atomic_load_n(&f->h->head, __ATOMIC_ACQUIRE);

		f->next = head > f->cap ? head - f->cap : 0;
	}
	return 0;
}

long ft_feed_poll(struct ft_feed *f, ft_feed_cb cb, void *ctx)
{
	uint64_t head;
	long n = 0;

	if (!f->map)
		return 0;
	head = __atomic_load_n(&f->h->head, __ATOMIC_ACQUIRE);
	if (head < f->next)	/* writer restarted: follow it */
		f->next = head;
	if (head - f->next > f->cap) {
		f->lost += head - f->next - f->cap;
		f->next = head - f->cap;
	}
	for (; f->next < head; f->next++) {
		volatile struct gs_feed_frame *s = &f->fr[f->next & (f->cap - 1)];
		struct gs_feed_frame copy;
		uint64_t s1, s2;

		s1 = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (s1 != f->next + 1) {
			f->lost++;
			continue;
		}
		copy.seq = s1;
		copy.start_ns = s->start_ns;
		copy.present_ns = s->present_ns;
		copy.frametime_ns = s->frametime_ns;
		copy.input_latency_ns = s->input_latency_ns;
		copy.flags = s->flags;
		copy.disturbance = s->disturbance;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
		if (s2 != s1) {
			f->lost++;
			continue;
		}
		f->read++;
		n++;
		if (cb && cb(ctx, f->pid, &copy))
			return -1;
	}
	if (f->h->state == 2 || (kill(f->pid, 0) && errno == ESRCH))
		f->done = true;
	return n;
}

void ft_feed_close(struct ft_feed *f)
{
	if (f->map)
		munmap(f->map, f->len);
	f->map = NULL;
	f->h = NULL;
	f->fr = NULL;
}

struct ft_frame ft_frame_from_feed(int pid, const struct gs_feed_frame *f)
{
	struct ft_frame fr = {
		.start_ns = f->start_ns,
		.present_ns = f->present_ns,
		.frametime_ns = f->frametime_ns,
		.input_latency_ns = f->input_latency_ns,
		.pid = (uint32_t)pid,
		.flags = f->flags | FT_FRAME_FEED,
		.disturbance = f->disturbance,
	};

	return fr;
}

/* pid is root or under it: its parent chain in /proc/[pid]/stat. */
static bool descends(long pid, int root)
{
	for (int depth = 0; pid > 1 && depth < 64; depth++) {
		char path[64], buf[512], *rp;

		if (pid == root)
			return true;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		if (gs_read_text(path, buf, sizeof(buf)) < 0)
			return false;
		rp = strrchr(buf, ')');
		if (!rp || strlen(rp) < 5)
			return false;
		pid = strtol(rp + 4, NULL, 10);
	}
	return pid == root;
}

void ft_feedset_root(struct ft_feedset *s, int root)
{
	s->root = root;
}

void ft_feedset_init(struct ft_feedset *s, const char *dir, int only_pid)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s", dir ? dir : "/dev/shm");
	s->only_pid = only_pid;
}

static bool known(const struct ft_feedset *s, int pid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->feeds[i].pid == pid)
			return true;
	for (size_t i = 0; i < s->ngone; i++)
		if (s->gone[i] == pid)
			return true;
	return false;
}

int ft_feedset_scan(struct ft_feedset *s)
{
	DIR *d = opendir(s->dir);
	struct dirent *de;
	int opened = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;
		long pid;
		char err[256];

		if (strncmp(de->d_name, "framebench.", 11))
			continue;
		pid = strtol(de->d_name + 11, &end, 10);
		if (*end || pid <= 0 || pid > 0x7fffffff)
			continue;
		if (s->only_pid > 0 && pid != s->only_pid)
			continue;
		if (known(s, (int)pid))
			continue;
		if (s->root > 0 && !descends(pid, s->root))
			continue;
		if (FT_VEC_RESERVE(s->feeds, s->n, s->cap))
			break;
		if (ft_feed_open(&s->feeds[s->n], s->dir, (int)pid, err,
				 sizeof(err)))
			continue; /* being created, or not ours: retry later */
		s->n++;
		opened++;
	}
	closedir(d);
	return opened;
}

long ft_feedset_poll(struct ft_feedset *s, ft_feed_cb cb, void *ctx)
{
	long total = 0;

	for (size_t i = 0; i < s->n;) {
		long n = ft_feed_poll(&s->feeds[i], cb, ctx);

		if (n < 0)
			return -1;
		total += n;
		if (s->feeds[i].done) {
			if (!FT_VEC_RESERVE(s->gone, s->ngone, s->gonecap))
				s->gone[s->ngone++] = s->feeds[i].pid;
			/* keep its loss count in the set */
			s->feeds[i].done = true;
			ft_feed_close(&s->feeds[i]);
			i++;
			continue;
		}
		i++;
	}
	return total;
}

uint64_t ft_feedset_lost(const struct ft_feedset *s)
{
	uint64_t l = 0;

	for (size_t i = 0; i < s->n; i++)
		l += s->feeds[i].lost;
	return l;
}

void ft_feedset_free(struct ft_feedset *s)
{
	for (size_t i = 0; i < s->n; i++)
		ft_feed_close(&s->feeds[i]);
	free(s->feeds);
	free(s->gone);
	memset(s, 0, sizeof(*s));
}
