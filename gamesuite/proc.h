/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Child processes of the runner (scheduler loaders and workloads): each in
 * its own process group (so Ctrl-C on the terminal reaches only gamesuite,
 * which then stops them in order), stdin from /dev/null, output to a log,
 * and a parent-death signal so nothing outlives a killed gamesuite.
 */
#ifndef GSU_PROC_H
#define GSU_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/* Set by the SIGINT/SIGTERM handler: the signal number, else 0. */
extern volatile sig_atomic_t gsu_stop_signal;
void gsu_install_signal_handlers(void);

struct gsu_proc {
	pid_t pid;		/* 0 when none */
	bool running;
	bool stopped_by_us;	/* gsu_proc_stop() sent a signal */
	int status;		/* wait status once exited */
	struct rusage ru;	/* of the exited process and its waited-for
				 * descendants */
	uint64_t start_ns, end_ns;
};

/*
 * Splits a command line into words: blanks separate, '...' and "..." quote,
 * backslash escapes outside single quotes. Returns 0 with a NULL-terminated
 * malloc'ed vector (free with gsu_free_words), or -1 with a message.
 */
int gsu_split_words(const char *s, char ***argv, int *argc, char *err,
		    size_t errlen);
void gsu_free_words(char **argv);

/*
 * Finds prog (a word without '/') in the directory of the gamesuite binary,
 * then in PATH; a word with '/' must name an executable file. Returns 0
 * with the path in out, -1 when not found.
 */
int gsu_resolve(const char *prog, char *out, size_t len);

/*
 * Starts argv (argv[0] a resolved path) with env_add ("NAME=value" strings,
 * NULL-terminated, may be NULL) added to the environment, output appended
 * to log_path (or /dev/null when NULL). Returns 0 or -1 with a message.
 */
int gsu_spawn(struct gsu_proc *p, char *const argv[], char *const env_add[],
	      const char *log_path, char *err, size_t errlen);

/* Reaps the process if it has exited; returns true when it has. */
bool gsu_proc_poll(struct gsu_proc *p);

/*
 * Stops the process group: sig, then after grace_ns SIGKILL; returns once
 * the process is reaped. No-op when it already exited.
 */
void gsu_proc_stop(struct gsu_proc *p, int sig, uint64_t grace_ns);

/* "exit 3", "killed by signal 11 (Segmentation fault)" */
void gsu_describe_status(int status, char *buf, size_t len);

/* Sleeps up to ns; returns early (true) when a stop signal arrived. */
bool gsu_sleep_ns(uint64_t ns);

/* The last lines of a text file, at most len-1 bytes, one line per '\n';
 * "" when unreadable. */
void gsu_file_tail(const char *path, char *buf, size_t len);

#endif
