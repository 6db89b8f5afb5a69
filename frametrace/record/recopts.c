// SPDX-License-Identifier: GPL-2.0-only
/* The options record and watch share (recopts.h). */
#include "recopts.h"

#include "util.h"

bool ft_rec_special(int id, const char *arg, uint64_t *duration,
		    struct ft_present_cli *present)
{
	switch (id) {
	case FT_RO_DURATION:
		*duration = gs_opt_duration_ns("--duration", arg, NSEC_PER_SEC,
					       NSEC_PER_MSEC, UINT64_MAX / 2);
		return true;
	case FT_RO_PRESENT: ft_present_cli_add(present, arg); return true;
	case FT_RO_PID: ft_present_cli_pid(present, arg); return true;
	default: return false;
	}
}
