// SPDX-License-Identifier: GPL-2.0-only
#include "markers.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo.h"
#include "util.h"

int fb_marker_fd = -1;
static int tgid;

int fb_markers_open(void)
{
	char dir[512], path[600];

	if (!gs_tracefs_dir(dir, sizeof(dir))) {
		snprintf(path, sizeof(path), "%s/trace_marker", dir);
		fb_marker_fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fb_marker_fd >= 0) {
			fb_markers_set_pid();
			return 0;
		}
	}
	gs_warn("--trace-markers: no tracefs trace_marker (%s; mount tracefs "
		"on /sys/kernel/tracing); continuing without markers",
		strerror(errno));
	return -1;
}

void fb_markers_close(void)
{
	if (fb_marker_fd >= 0)
		close(fb_marker_fd);
	fb_marker_fd = -1;
}

void fb_markers_set_pid(void)
{
	tgid = (int)getpid();
}

static void put(const char *buf, int n)
{
	/* a full or disabled trace buffer is not the run's problem */
	if (n > 0 && write(fb_marker_fd, buf, (size_t)n) < 0)
		return;
}

void fb_marker_begin(const char *what, uint64_t frame)
{
	char buf[96];

	if (fb_marker_fd < 0)
		return;
	put(buf, snprintf(buf, sizeof(buf), "B|%d|%s %" PRIu64, tgid, what,
			  frame));
}

void fb_marker_end(void)
{
	char buf[32];

	if (fb_marker_fd < 0)
		return;
	put(buf, snprintf(buf, sizeof(buf), "E|%d", tgid));
}

void fb_marker_counter(const char *name, int64_t value)
{
	char buf[96];

	if (fb_marker_fd < 0)
		return;
	put(buf, snprintf(buf, sizeof(buf), "C|%d|%s|%" PRId64, tgid, name,
			  value));
}
