/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Facts about the running kernel and this process: the scheduler tick rate
 * (CONFIG_HZ) the loader hands to BPF, which sysfs does not state directly
 * (it times evictions: an eviction by slice := 1 lands on the victim's
 * next tick); the clock lavd's times count on; whether this process may
 * load a scheduler.
 * Parsers are separate from the reads so they are unit-tested
 * (tests/test_lavd_features.c).
 */
#ifndef LAVD_KINFO_H
#define LAVD_KINFO_H

#include <stddef.h>
#include <stdint.h>

/* CONFIG_HZ from the text of a kernel config file; 0 if absent. */
unsigned lavd_config_hz(const char *config_text);

/*
 * The first "jiffies: N" and "now at T nsecs" of /proc/timer_list text.
 * Returns 0 when both were found, else -1.
 */
int lavd_parse_timer_list(const char *text, uint64_t *jiffies, uint64_t *now_ns);

/*
 * A measured tick rate rounded to the HZ value it is within 10 % of
 * (100, 250, 300, 1000); 0 when it is near none of them.
 */
unsigned lavd_hz_round(double measured_hz);

/*
 * The kernel's HZ: from /boot/config-RELEASE, else by reading
 * /proc/timer_list twice about 120 ms apart. 0 when unknown; src gets
 * where it came from ("config", "timer_list", "unknown").
 */
unsigned lavd_kernel_hz(char *src, size_t srclen);

/* Seconds on the monotonic clock: the times lavd prints start from it. */
double lavd_now_s(void);
/* Exit 1 unless we have CAP_SYS_ADMIN and CAP_BPF. */
void lavd_need_privileges(void);

#endif
