/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * framebench's command line (docs/framebench.md, "Options"). Every bad
 * option ends the program with a message naming the option and exit
 * status 2.
 */
#ifndef FB_CLI_H
#define FB_CLI_H

#include <stdio.h>

#include "fb.h"

/* Parses argv into cfg and resolves the profile; exits on bad input
 * (status 2) and after --help / --version (status 0). */
void fb_cli_parse(int argc, char **argv, struct fb_config *cfg);

#endif
