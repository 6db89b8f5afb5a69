/* SPDX-License-Identifier: GPL-2.0-only
 *
 * The uprobes on present calls for record and watch (--present): where
 * the present functions are, attached per library and process, and found
 * again as processes start and load libraries.
 *
 *  - `--present auto`: the present functions of present.h in the
 *    libraries the target has mapped (/proc/PID/maps);
 *  - `--present FUNC[@LIB]`: FUNC in LIB (a path, or a file name such as
 *    libGLX.so.0), or without LIB in every executable file the target has
 *    mapped (an engine's or DXVK's own function).
 *
 * The target is `-p PID` or the command after `--`, and every process
 * started under it. A command has loaded nothing when the uprobes attach
 * (it waits at its gate), so for it the libraries are first looked up
 * where the dynamic loader finds them (LD_LIBRARY_PATH, ld.so.conf, the
 * standard directories) and attached for its pid before it runs; then,
 * every FT_PRESENT_SCAN_MS, the process tree's maps are read again and
 * what a process has loaded since (dlopen, a child process, a library in
 * a container) is attached. Frames from a library loaded by dlopen are
 * caught from the next scan on.
 */
#ifndef FT_PRESENT_ATTACH_H
#define FT_PRESENT_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <bpf/libbpf.h>

#define FT_PRESENT_SCAN_MS 500
#define FT_PRESENT_MAX_SPECS 8
#define FT_PRESENT_MAX_FUNCS 16
#define FT_PRESENT_MAX_ATTACH 256

struct ft_present_spec {
	char func[128];
	char lib[512];		/* "" any mapped file; with '/' a path */
};

/* Parses "auto" or "FUNC[@LIB]" into s (auto: *is_auto). 0, or -1 with
 * the reason in err. */
int ft_present_spec_parse(const char *arg, struct ft_present_spec *s,
			  bool *is_auto, char *err, size_t errlen);

/* The command line's --present and -p: bad values exit 2 (util.h). */
struct ft_present_cli {
	bool autodetect;
	struct ft_present_spec spec[FT_PRESENT_MAX_SPECS];
	size_t nspec;
	pid_t pid;		/* -p PID, 0 none */
};
void ft_present_cli_add(struct ft_present_cli *c, const char *arg);
void ft_present_cli_pid(struct ft_present_cli *c, const char *arg);
/* After the options: --present needs -p PID or a command. */
void ft_present_cli_check(const struct ft_present_cli *c, bool command);
static inline bool ft_present_cli_any(const struct ft_present_cli *c)
{
	return c->autodetect || c->nspec;
}

struct ft_present_att {
	pid_t pid;
	uint64_t dev, ino;	/* the library file */
	uint32_t func;		/* index into funcs */
	struct bpf_link *link;	/* NULL: tried, failed (symbol absent) */
	char path[512];
};

struct ft_presents {
	struct bpf_program *prog;
	bool autodetect;
	struct ft_present_spec spec[FT_PRESENT_MAX_SPECS];
	size_t nspec;
	pid_t root;		/* -p PID or the command; 0 none */
	char funcs[FT_PRESENT_MAX_FUNCS][128];	/* cookie -> name */
	size_t nfuncs;
	struct ft_present_att *att;
	size_t natt, attcap;
	size_t nlinks;
	uint64_t next_scan_ns;
	bool full;		/* FT_PRESENT_MAX_ATTACH reached */
	int verbose;
};

/* Nothing attached yet. */
void ft_presents_init(struct ft_presents *p, struct bpf_program *prog,
		      bool autodetect, const struct ft_present_spec *spec,
		      size_t nspec, pid_t root, int verbose);
/* Before the command is released: the libraries it will load, from the
 * loader's paths (command) or what -p PID has mapped. Returns the number
 * of uprobes attached. */
size_t ft_presents_start(struct ft_presents *p, bool command);
/* Every FT_PRESENT_SCAN_MS (now in CLOCK_MONOTONIC ns): the process tree
 * under the target again. Returns the number of new uprobes. */
size_t ft_presents_scan(struct ft_presents *p, uint64_t now_ns);
/* A function's name by its cookie (the PRESENT record's arg2). */
const char *ft_presents_func(const struct ft_presents *p, uint32_t id);
/* "glXSwapBuffers@/usr/lib/.../libGLX.so.0.0.0 (pid 1234), ..." */
void ft_presents_describe(const struct ft_presents *p, char *buf, size_t len);
/* Detaches every uprobe. */
void ft_presents_close(struct ft_presents *p);

#endif
