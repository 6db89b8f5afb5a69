// SPDX-License-Identifier: GPL-2.0-only
/* The options record and watch share (recopts.h). */
#include "recopts.h"

#include "util.h"

bool ft_rec_option(int c, const char *arg, const struct ft_rec_common *rc)
{
	switch (c) {
	case 'd':
		*rc->duration = gs_opt_duration_ns("--duration", arg, NSEC_PER_SEC,
						   NSEC_PER_MSEC, UINT64_MAX / 2);
		return true;
	case FT_RO_NO_FUTEX: *rc->no_futex = true; return true;
	case FT_RO_NO_MARKERS: *rc->no_markers = true; return true;
	case FT_RO_FUTEX_CALLS: *rc->futex_calls = true; return true;
	case FT_RO_MARKERS: *rc->markers_now = true; return true;
	case FT_RO_FEED_PID:
		*rc->feed_pid = gs_opt_u64("--feed-pid", arg, 1, INT32_MAX);
		return true;
	case FT_RO_PRESENT: ft_present_cli_add(rc->present, arg); return true;
	case 'p': ft_present_cli_pid(rc->present, arg); return true;
	case FT_RO_FEED_DIR: *rc->feed_dir = arg; return true;
	case 'q': *rc->quiet = true; return true;
	case 'v': ++*rc->verbose; return true;
	default: return false;
	}
}
