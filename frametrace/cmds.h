/* SPDX-License-Identifier: GPL-2.0-only */
/* The subcommands of frametrace (main.c dispatches), one cmd_<name>.c
 * each (watch and trigger: cmd_watch.c, cmd_trigger.c). Each returns an
 * exit status (util.h). */
#ifndef FT_CMDS_H
#define FT_CMDS_H

int ft_cmd_record(int argc, char **argv);
int ft_cmd_watch(int argc, char **argv);
int ft_cmd_trigger(int argc, char **argv);
int ft_cmd_import(int argc, char **argv);
int ft_cmd_report(int argc, char **argv);
int ft_cmd_export(int argc, char **argv);
int ft_cmd_info(int argc, char **argv);
int ft_cmd_profile(int argc, char **argv);
int ft_cmd_compare(int argc, char **argv);

#endif
