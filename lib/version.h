/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The project's version, its one definition: every program's --version
 * prints it, the Makefile reads it from this line for the man pages and
 * `make version`, and tests/version.sh checks that debian/changelog says
 * the same. Bump it here and add a debian/changelog entry (docs/install.md,
 * "Versions").
 */
#ifndef GS_VERSION_H
#define GS_VERSION_H

#define GS_VERSION "0.1.0"

#endif
