/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --autopower: the power mode follows the platform's power profile, read
 * from /sys/firmware/acpi/platform_profile (ACPI platform profile:
 * low-power, cool, quiet, balanced, balanced-performance, performance,
 * ...) or, where that is missing, from the CPU's energy-performance
 * preference (intel_pstate/amd-pstate EPP: power, balance_power, default,
 * balance_performance, performance). The loader polls it once a second
 * and hands the mode to BPF. Parsers are pure and unit-tested
 * (tests/test_lavd_domains.c).
 */
#ifndef LAVD_POWER_H
#define LAVD_POWER_H

#include <stddef.h>

/*
 * LAVD_PM_* for a platform_profile value; LAVD_PM_AUTO for values that
 * say nothing about performance ("custom", unknown ones): the autopilot
 * decides then.
 */
int lavd_profile_mode(const char *value);

/* The same for an energy_performance_preference value. */
int lavd_epp_mode(const char *value);

/*
 * Reads the power profile under sysroot ("/sys"), or from file when it is
 * not NULL (read as a platform_profile; for tests). Returns LAVD_PM_* or
 * LAVD_PM_AUTO, with src naming the file and value its content; -1 when
 * no source exists.
 */
int lavd_power_profile(const char *sysroot, const char *file, char *src,
		       size_t srclen, char *value, size_t valuelen);

#endif
