/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for output sets (fa_output_begin/fa_output_end in
 * reports/output.c): a set abandoned half-way puts back every file it
 * replaced, byte for byte, and removes every file it added, leaving no
 * temporary or kept copy; a set kept leaves the new files and nothing
 * else; outside a set, writes replace at once.  Also the message of a
 * JSON parse error (fa_json_errmsg).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../core/util.h"
#include "../../reports/report.h"
#include "scratch_tree.h"

/* A fresh directory; caller frees. */
static char *
tmpdir(void)
{
	char *d = strdup("/tmp/fa-outset-XXXXXX");

	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

static void
put(const char *dir, const char *name, const char *text)
{
	assert_int_equal(fa_write_atomic(dir, name, text, strlen(text), NULL),
	    0);
}

/* The content of dir/name, or NULL if absent; caller frees. */
static char *
get(const char *dir, const char *name)
{
	char *p = fa_strfmt("%s/%s", dir, name), buf[256];
	FILE *f;
	size_t n;

	assert_non_null(p);
	f = fopen(p, "r");
	free(p);
	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strdup(buf);
}

static void
expect_file(const char *dir, const char *name, const char *want)
{
	char *got = get(dir, name);

	if (want == NULL) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void
cleanup(char *dir)
{
	const char *names[] = { "a", "b", "c" };
	char *p;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		p = fa_strfmt("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

static void
test_abandoned_set_restores(void **state)
{
	char *d = tmpdir();

	(void)state;
	put(d, "a", "old a");
	put(d, "b", "old b");
	fa_output_begin();
	put(d, "a", "new a");
	put(d, "c", "new c");		/* not there before */
	put(d, "a", "newer a");		/* twice in one set */
	expect_file(d, "a", "newer a");
	fa_output_end(0);
	expect_file(d, "a", "old a");
	expect_file(d, "b", "old b");
	expect_file(d, "c", NULL);
	assert_int_equal(scratch_count(d), 2);	/* no temporary, no copy */
	cleanup(d);
}

static void
test_kept_set_replaces(void **state)
{
	char *d = tmpdir();

	(void)state;
	put(d, "a", "old a");
	fa_output_begin();
	put(d, "a", "new a");
	put(d, "b", "new b");
	fa_output_end(1);
	expect_file(d, "a", "new a");
	expect_file(d, "b", "new b");
	assert_int_equal(scratch_count(d), 2);
	/* After the set, nothing is undone any more. */
	fa_output_end(0);
	expect_file(d, "a", "new a");
	cleanup(d);
}

static void
test_no_set(void **state)
{
	char *d = tmpdir();

	(void)state;
	put(d, "a", "old a");
	put(d, "a", "new a");
	fa_output_end(0);		/* no set: nothing to undo */
	expect_file(d, "a", "new a");
	assert_int_equal(scratch_count(d), 1);
	cleanup(d);
}

static void
test_json_errmsg(void **state)
{
	json_error_t je;
	char *m;

	(void)state;
	assert_null(json_loads("{\"a\":\n  \x01}", 0, &je));
	assert_non_null(m = fa_json_errmsg("x.json", &je));
	/* FILE:LINE:COLUMN: text, the control byte escaped. */
	assert_int_equal(strncmp(m, "x.json:2:", 9), 0);
	assert_null(strchr(m, '\x01'));
	free(m);
	memset(&je, 0, sizeof(je));
	je.line = -1;
	snprintf(je.text, sizeof(je.text), "no position");
	assert_non_null(m = fa_json_errmsg("y.json", &je));
	assert_string_equal(m, "y.json: no position");
	free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abandoned_set_restores),
		cmocka_unit_test(test_kept_set_replaces),
		cmocka_unit_test(test_no_set),
		cmocka_unit_test(test_json_errmsg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
