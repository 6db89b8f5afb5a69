// SPDX-License-Identifier: GPL-2.0-only
/* MangoHud CSV logs (lib/mangohud.h) into frames. */
#include "importer.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "mangohud.h"

int ft_import_mangohud(struct ft_import *im, const char *buf, size_t len,
		       char *err, size_t errlen)
{
	struct gs_mh_log log;
	FILE *f = fmemopen((void *)buf, len ? len : 1, "r");
	uint64_t t = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", im->name, strerror(errno));
		return -1;
	}
	if (gs_mh_read(f, im->name, &log, err, errlen)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	if (log.unusable) {
		char desc[200];

		/* counted, and the first named: the rules are lib/mangohud.c's */
		im->line = log.first_unusable_line;
		ft_import_bad(im, "%s", gs_mh_unusable_desc(&log, desc, sizeof(desc)));
		im->bad_lines += log.unusable - 1;
		im->mh_unusable += log.unusable;
	}
	for (size_t i = 0; i < log.n; i++) {
		struct ft_frame fr = { 0 };
		double ft = log.frametime_ms[i];

		fr.frametime_ns = (uint64_t)(ft * 1e6 + 0.5);
		if (log.has_elapsed && log.per_frame && log.elapsed_ns[i] >= t)
			t = log.elapsed_ns[i];
		else
			t += fr.frametime_ns;
		fr.present_ns = t;
		fr.start_ns = t >= fr.frametime_ns ? t - fr.frametime_ns : 0;
		fr.flags = FT_FRAME_MANGOHUD;
		if (ft_frame_push(im->t, &fr)) {
			gs_mh_free(&log);
			snprintf(err, errlen, "%s: out of memory", im->name);
			return -1;
		}
	}
	ft_meta_set(im->t, "mangohud_unit", "%s",
		    log.unit == GS_MH_US ? "us (v0.6.8 layout)" : "ms");
	ft_meta_set(im->t, "mangohud_rows", "%s",
		    log.per_frame ? "per frame" : "periodic samples");
	if (log.has_sysinfo) {
		ft_meta_set(im->t, "mangohud_cpu", "%s", log.sys.cpu);
		ft_meta_set(im->t, "mangohud_gpu", "%s", log.sys.gpu);
		ft_meta_set(im->t, "mangohud_kernel", "%s", log.sys.kernel);
	}
	if (!log.per_frame) {
		size_t o = strlen(im->first_bad);

		/* after the first unusable row, when there was one */
		snprintf(im->first_bad + o, sizeof(im->first_bad) - o,
			 "%s%s:%zu: rows are periodic samples (log_interval > "
			 "0), not single frames: frame-time statistics describe "
			 "samples",
			 o ? "; " : "", im->name, log.header_line);
		im->bad_lines++;
	}
	gs_mh_free(&log);
	return 0;
}
