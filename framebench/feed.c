// SPDX-License-Identifier: GPL-2.0-only
#include "feed.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

static char unlink_path[80];	/* for fb_feed_unlink_now() */
static pid_t unlink_owner;

int fb_feed_create(struct fb_feed *f, uint32_t capacity, uint64_t target_ns)
{
	int fd;

	memset(f, 0, sizeof(*f));
	f->owner = getpid();
	snprintf(f->name, sizeof(f->name), GS_FEED_PREFIX "%d", (int)f->owner);
	snprintf(f->path, sizeof(f->path), "/dev/shm" GS_FEED_PREFIX "%d",
		 (int)f->owner);
	f->map_len = sizeof(struct gs_feed_header) +
		     (size_t)capacity * sizeof(struct gs_feed_frame);
	fd = shm_open(f->name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		gs_warn("frame feed %s not created (%s); continuing without "
			"it", f->path, strerror(errno));
		return -1;
	}
	/* from here on, every exit path unlinks it */
	gs_strlcpy(unlink_path, f->path, sizeof(unlink_path));
	unlink_owner = f->owner;
	if (ftruncate(fd, (off_t)f->map_len) < 0) {
		gs_warn("frame feed %s: %s; continuing without it", f->path,
			strerror(errno));
		close(fd);
		shm_unlink(f->name);
		unlink_path[0] = '\0';
		return -1;
	}
	f->hdr = mmap(NULL, f->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      0);
	close(fd);
	if (f->hdr == MAP_FAILED) {
		gs_warn("frame feed %s: mmap: %s; continuing without it",
			f->path, strerror(errno));
		f->hdr = NULL;
		shm_unlink(f->name);
		unlink_path[0] = '\0';
		return -1;
	}
	f->frames = (struct gs_feed_frame *)(f->hdr + 1);
	f->hdr->version = GS_FEED_VERSION;
	f->hdr->capacity = capacity;
	f->hdr->frame_size = sizeof(struct gs_feed_frame);
	f->hdr->pid = (int32_t)f->owner;
	f->hdr->target_ns = target_ns;
	f->hdr->state = 0;
	atomic_thread_fence(memory_order_release);
	/* the magic last: a reader that sees it sees a complete header */
	__atomic_store_n(&f->hdr->magic, GS_FEED_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

void fb_feed_publish(struct fb_feed *f, uint64_t n,
		     const struct gs_feed_frame *fr)
{
	struct gs_feed_frame *slot = &f->frames[n & (f->hdr->capacity - 1)];

	__atomic_store_n(&slot->seq, 0, __ATOMIC_RELAXED);
	atomic_thread_fence(memory_order_release);
	slot->start_ns = fr->start_ns;
	slot->present_ns = fr->present_ns;
	slot->frametime_ns = fr->frametime_ns;
	slot->input_latency_ns = fr->input_latency_ns;
	slot->flags = fr->flags;
	slot->disturbance = fr->disturbance;
	__atomic_store_n(&slot->seq, n + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&f->hdr->head, n + 1, __ATOMIC_RELEASE);
}

void fb_feed_set_state(struct fb_feed *f, uint32_t state, uint64_t start_ns)
{
	if (start_ns)
		f->hdr->start_ns = start_ns;
	__atomic_store_n(&f->hdr->state, state, __ATOMIC_RELEASE);
}

void fb_feed_destroy(struct fb_feed *f)
{
	if (!f->hdr || getpid() != f->owner)
		return;
	munmap(f->hdr, f->map_len);
	f->hdr = NULL;
	shm_unlink(f->name);
	unlink_path[0] = '\0';
}

void fb_feed_unlink_now(void)
{
	if (unlink_path[0] && getpid() == unlink_owner)
		unlink(unlink_path);
}

int fb_feed_remove_stale(void)
{
	DIR *d = opendir("/dev/shm");
	struct dirent *de;
	int removed = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[300];
		uint64_t pid;

		if (strncmp(de->d_name, "framebench.", 11) ||
		    gs_parse_u64(de->d_name + 11, 1, 0x7fffffff, &pid))
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "/dev/shm/%s", de->d_name);
		if (!unlink(path))
			removed++;
	}
	closedir(d);
	return removed;
}
