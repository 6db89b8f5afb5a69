/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shipped data files: framebench's profiles, gamesuite's suites and
 * the recommended MangoHud.conf. `make install` puts them under
 * $(DATADIR)/gamesched (docs/install.md); in the source tree they live
 * beside their program's sources.
 */
#ifndef GS_DATADIR_H
#define GS_DATADIR_H

#include <stddef.h>

/* The data directory compiled in (the Makefile passes
 * -DGS_DATADIR="$(DATADIR)/gamesched"). */
extern const char gs_datadir[];

/*
 * Finds a shipped file by its installed name REL ("suites/quick.suite")
 * and its name in the source tree SRC ("gamesuite/suites/quick.suite"),
 * looking in order in:
 *   $GAMESCHED_DATADIR/REL           an explicit choice (tests, a copy)
 *   EXE/../SRC, EXE/../../SRC        the source tree of a program run from
 *                                    its build directory (build/, build/static/)
 *   EXE/../share/gamesched/REL       an installed tree that was moved
 *   gs_datadir/REL                   the install's data directory
 *   ./SRC                            the source tree as the working directory
 * where EXE is the directory of the running program (/proc/self/exe).
 * Returns 0 with the first readable candidate in out, or -1.
 */
int gs_data_find(const char *rel, const char *src, char *out, size_t len);

#endif
