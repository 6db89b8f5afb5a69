// SPDX-License-Identifier: GPL-2.0-only
#include "power.h"

#include <stdio.h>
#include <string.h>

#include "intf.h"
#include "util.h"

struct pm_name {
	const char *name;
	int mode;
};

static int lookup(const struct pm_name *t, size_t n, const char *value)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, value))
			return t[i].mode;
	return LAVD_PM_AUTO;
}

int lavd_profile_mode(const char *value)
{
	static const struct pm_name t[] = {
		{ "low-power", LAVD_PM_POWERSAVE },
		{ "cool", LAVD_PM_POWERSAVE },
		{ "quiet", LAVD_PM_POWERSAVE },
		{ "balanced", LAVD_PM_BALANCED },
		{ "balanced-performance", LAVD_PM_PERFORMANCE },
		{ "performance", LAVD_PM_PERFORMANCE },
		{ "max-power", LAVD_PM_PERFORMANCE },
	};

	return lookup(t, sizeof(t) / sizeof(t[0]), value);
}

int lavd_epp_mode(const char *value)
{
	static const struct pm_name t[] = {
		{ "power", LAVD_PM_POWERSAVE },
		{ "balance_power", LAVD_PM_POWERSAVE },
		{ "default", LAVD_PM_BALANCED },
		{ "balance_performance", LAVD_PM_BALANCED },
		{ "performance", LAVD_PM_PERFORMANCE },
	};

	return lookup(t, sizeof(t) / sizeof(t[0]), value);
}

/* The trimmed content of a small sysfs file; -1 if unreadable. */
static int read_value(const char *path, char *value, size_t len)
{
	char *t;

	if (gs_read_text(path, value, len) < 0)
		return -1;
	t = gs_trim(value);
	memmove(value, t, strlen(t) + 1);
	return 0;
}

int lavd_power_profile(const char *sysroot, const char *file, char *src,
		       size_t srclen, char *value, size_t valuelen)
{
	char path[512];

	if (file) {
		gs_strlcpy(src, file, srclen);
		if (read_value(file, value, valuelen) < 0)
			return -1;
		return lavd_profile_mode(value);
	}
	snprintf(path, sizeof(path), "%s/firmware/acpi/platform_profile", sysroot);
	if (read_value(path, value, valuelen) == 0) {
		gs_strlcpy(src, "platform_profile", srclen);
		return lavd_profile_mode(value);
	}
	snprintf(path, sizeof(path),
		 "%s/devices/system/cpu/cpufreq/policy0/energy_performance_preference",
		 sysroot);
	if (read_value(path, value, valuelen) == 0) {
		gs_strlcpy(src, "energy_performance_preference", srclen);
		return lavd_epp_mode(value);
	}
	gs_strlcpy(src, "none", srclen);
	value[0] = '\0';
	return -1;
}
