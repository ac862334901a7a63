/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Scratch sysroot trees for the host collector tests: make one under /tmp,
 * write a file at a path inside it (parents created), count what a
 * directory holds, remove it.  Include after <cmocka.h>; failures are test
 * failures.
 */
#ifndef FA_SCRATCH_TREE_H
#define FA_SCRATCH_TREE_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dir must be a writable "/tmp/...-XXXXXX" template. */
static inline void
scratch_new(char *dir)
{
	assert_non_null(mkdtemp(dir));
}

/* Write text at root + rel ("/proc/self/status"), creating parents. */
static inline void
scratch_put(const char *root, const char *rel, const char *text)
{
	char p[512], cmd[600];
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	assert_int_equal(system(cmd), 0);
	assert_non_null(f = fopen(p, "w"));
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* Entries of dir, "." and ".." aside. */
static inline size_t
scratch_count(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* Remove root + rel ("" for the whole tree). */
static inline void
scratch_rm(const char *root, const char *rel)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}
#endif
