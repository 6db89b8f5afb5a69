// SPDX-License-Identifier: GPL-2.0-only
#include "cmds.h"
#include "util.h"
int ft_cmd_watch(int argc, char **argv) { (void)argc; (void)argv; return 2; }
int ft_cmd_trigger(int argc, char **argv) { (void)argc; (void)argv; return 2; }
