/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A throw-away directory tree for host tests that read files (a fake
 * sysfs, a topology override): put("a/b/c", text) writes tmpdir/a/b/c,
 * creating the folders, fake_cpu() writes one CPU's sysfs entries;
 * fake_tree_setup/teardown are cmocka fixtures. Include after cmocka.h; define FAKE_TREE_NAME first.
 */
#ifndef GS_TESTS_FAKE_TREE_H
#define GS_TESTS_FAKE_TREE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char tmpdir[256];

static void put(const char *rel, const char *text)
{
	char path[1024], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	for (p = path + strlen(tmpdir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int fake_tree_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/%s.XXXXXX", FAKE_TREE_NAME);
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int fake_tree_teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/*
 * A fake sysfs CPU N: L1 data and instruction caches shared with its SMT
 * siblings (readers must skip them), the L3 shared list, the sibling
 * list, and cpu_capacity unless cap is NULL.
 */
static void put_cpu(int n, const char *rel, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "devices/system/cpu/cpu%d/%s", n, rel);
	put(path, text);
}

static void fake_cpu(int n, const char *l3, const char *sibs, const char *cap)
{
	put_cpu(n, "cache/index0/level", "1\n");
	put_cpu(n, "cache/index0/type", "Data\n");
	put_cpu(n, "cache/index0/shared_cpu_list", sibs);
	put_cpu(n, "cache/index1/level", "1\n");
	put_cpu(n, "cache/index1/type", "Instruction\n");
	put_cpu(n, "cache/index1/shared_cpu_list", sibs);
	put_cpu(n, "cache/index3/level", "3\n");
	put_cpu(n, "cache/index3/type", "Unified\n");
	put_cpu(n, "cache/index3/shared_cpu_list", l3);
	put_cpu(n, "topology/thread_siblings_list", sibs);
	if (cap)
		put_cpu(n, "cpu_capacity", cap);
}

#endif
