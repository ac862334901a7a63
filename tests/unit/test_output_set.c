/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for output sets (fa_outset_* in reports/output.c): a set
 * abandoned half-way puts back every file it replaced, byte for byte, and
 * removes every file it added, leaving no temporary or kept copy; a set
 * kept leaves the new files and, for a run, nothing of an earlier run; a
 * directory every user may write is refused; the directory is written
 * through the descriptor opened.  Also the message of a JSON parse error
 * (fa_json_errmsg).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../core/errors.h"
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
	char *p;
	size_t i;
	const char *names[] = { "a", "b", "c", "moved" };

	for (i = 0; fa_run_files[i] != NULL; i++) {
		p = fa_strfmt("%s/%s", dir, fa_run_files[i]);
		unlink(p);
		free(p);
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		p = fa_strfmt("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
	assert_int_equal(rmdir(dir), 0);
	free(dir);
}

static struct fa_outset *
set_open(const char *dir, int flags)
{
	struct fa_outset *set = NULL;
	char *why = NULL, *warn = NULL;

	if (fa_outset_open(dir, flags, &set, &warn, &why) != 0)
		fail_msg("fa_outset_open %s: %s", dir, why ? why : "?");
	free(warn);
	return set;
}

static void
sput(struct fa_outset *set, const char *name, const char *text)
{
	assert_int_equal(fa_outset_write(set, name, text, strlen(text), 0640,
	    NULL), 0);
}

static void
test_abandoned_set_restores(void **state)
{
	char *d = tmpdir();
	struct fa_outset *set;

	(void)state;
	put(d, "a", "old a");
	put(d, "b", "old b");
	set = set_open(d, 0);
	sput(set, "a", "new a");
	sput(set, "c", "new c");	/* not there before */
	sput(set, "a", "newer a");	/* twice in one set */
	expect_file(d, "a", "newer a");
	assert_int_equal(fa_outset_close(set, 0, NULL), 0);
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
	struct fa_outset *set;

	(void)state;
	put(d, "a", "old a");
	set = set_open(d, 0);
	sput(set, "a", "new a");
	sput(set, "b", "new b");
	assert_int_equal(fa_outset_close(set, 1, NULL), 0);
	expect_file(d, "a", "new a");
	expect_file(d, "b", "new b");
	assert_int_equal(scratch_count(d), 2);
	cleanup(d);
}

/*
 * A rescan writing fewer formats, unsigned: the earlier run's renderings,
 * SHA256SUMS and signature are gone (verify would fail on them), a file
 * that is no run's stays, and a failed run leaves the earlier one whole.
 */
static void
test_run_removes_stale(void **state)
{
	static const char *const old[] = { "report.json", "report.txt",
	    "report.html", "report.xml", "junit.xml", "snapshot.json",
	    "mads.pcap", "SHA256SUMS", "SHA256SUMS.sig", NULL };
	char *d = tmpdir();
	struct fa_outset *set;
	size_t i;

	(void)state;
	for (i = 0; old[i] != NULL; i++)
		put(d, old[i], "old");
	put(d, "a", "not a run file");
	/* Failed half-way: every earlier file back, nothing new. */
	set = set_open(d, FA_OUTSET_RUN);
	sput(set, "snapshot.json", "new");
	sput(set, "report.json", "new");
	put(d, ".mads.pcap.AbC123", "new");	/* as fa_ib_pcap_finish */
	assert_int_equal(fa_outset_place(set, ".mads.pcap.AbC123",
	    "mads.pcap", NULL), 0);
	assert_int_equal(fa_outset_close(set, 0, NULL), 0);
	for (i = 0; old[i] != NULL; i++)
		expect_file(d, old[i], "old");
	assert_int_equal(scratch_count(d), 10);
	/* Done: only this run's files and the foreign one. */
	set = set_open(d, FA_OUTSET_RUN);
	sput(set, "snapshot.json", "new");
	sput(set, "report.json", "new");
	put(d, ".mads.pcap.dEf456", "new");
	assert_int_equal(fa_outset_place(set, "sub/.mads.pcap.dEf456",
	    "mads.pcap", NULL), FA_ERR_INPUT);
	assert_int_equal(fa_outset_place(set, ".mads.pcap.dEf456", "a",
	    NULL), FA_ERR_INPUT);
	assert_int_equal(fa_outset_place(set, ".mads.pcap.dEf456",
	    "mads.pcap", NULL), 0);
	assert_int_equal(fa_outset_close(set, 1, NULL), 0);
	expect_file(d, "snapshot.json", "new");
	expect_file(d, "report.json", "new");
	expect_file(d, "mads.pcap", "new");	/* placed: this run's */
	expect_file(d, ".mads.pcap.dEf456", NULL);
	expect_file(d, "a", "not a run file");
	for (i = 0; old[i] != NULL; i++)
		if (strcmp(old[i], "snapshot.json") != 0 &&
		    strcmp(old[i], "report.json") != 0 &&
		    strcmp(old[i], "mads.pcap") != 0)
			expect_file(d, old[i], NULL);
	assert_int_equal(scratch_count(d), 4);
	/* A check of that snapshot keeps it and its capture. */
	set = set_open(d, FA_OUTSET_RUN);
	assert_int_equal(fa_outset_keep(set, "snapshot.json"), 0);
	assert_int_equal(fa_outset_keep(set, "mads.pcap"), 0);
	assert_int_equal(fa_outset_keep(set, "a"), FA_ERR_INPUT);
	sput(set, "report.txt", "check");
	assert_int_equal(fa_outset_close(set, 1, NULL), 0);
	expect_file(d, "snapshot.json", "new");
	expect_file(d, "mads.pcap", "new");
	expect_file(d, "report.json", NULL);
	expect_file(d, "report.txt", "check");
	/* A killed run's leftover of the name a stale file is kept under
	 * does not keep a rescan from removing (and restoring) it. */
	put(d, ".report.txt.stale.prev", "leftover");
	set = set_open(d, FA_OUTSET_RUN);
	assert_int_equal(fa_outset_keep(set, "snapshot.json"), 0);
	assert_int_equal(fa_outset_keep(set, "mads.pcap"), 0);
	sput(set, "report.json", "again");
	assert_int_equal(fa_outset_close(set, 0, NULL), 0);
	expect_file(d, "report.txt", "check");	/* failed: put back */
	set = set_open(d, FA_OUTSET_RUN);
	assert_int_equal(fa_outset_keep(set, "snapshot.json"), 0);
	assert_int_equal(fa_outset_keep(set, "mads.pcap"), 0);
	sput(set, "report.json", "again");
	assert_int_equal(fa_outset_close(set, 1, NULL), 0);
	expect_file(d, "report.txt", NULL);
	expect_file(d, ".report.txt.stale.prev", NULL);
	put(d, "report.txt", "check");
	/* Outside a run's set (one file) nothing else is touched. */
	set = set_open(d, 0);
	sput(set, "b", "b");
	assert_int_equal(fa_outset_close(set, 1, NULL), 0);
	expect_file(d, "report.txt", "check");
	cleanup(d);
}

/* Who else may write the directory. */
static void
test_run_dir_modes(void **state)
{
	char *d = tmpdir(), *why = NULL, *warn = NULL;
	struct fa_outset *set = NULL;

	(void)state;
	assert_int_equal(chmod(d, 0777), 0);
	assert_int_equal(fa_outset_open(d, FA_OUTSET_RUN, &set, &warn, &why),
	    FA_ERR_INPUT);
	assert_null(set);
	assert_non_null(why);
	assert_non_null(strstr(why, "every user may write"));
	free(why);
	/* One file outside a run is not refused. */
	put(d, "a", "x");
	assert_int_equal(chmod(d, 01777), 0);
	assert_int_equal(fa_outset_open(d, FA_OUTSET_RUN, &set, &warn, &why),
	    0);
	assert_non_null(warn);
	assert_non_null(strstr(warn, "every user"));
	free(warn);
	assert_int_equal(fa_outset_close(set, 1, NULL), 0);
	assert_int_equal(chmod(d, 0770), 0);
	assert_int_equal(fa_outset_open(d, FA_OUTSET_RUN, &set, &warn, &why),
	    0);
	assert_non_null(warn);
	assert_non_null(strstr(warn, "its group"));
	free(warn);
	assert_int_equal(fa_outset_close(set, 1, NULL), 0);
	assert_int_equal(chmod(d, 0750), 0);
	assert_int_equal(fa_outset_open(d, FA_OUTSET_RUN, &set, &warn, &why),
	    0);
	assert_null(warn);
	assert_int_equal(fa_outset_close(set, 1, NULL), 0);
	cleanup(d);
}

/*
 * The directory is held open: renamed mid-run and replaced by a symbolic
 * link elsewhere, the files still land in the directory the run opened.
 */
static void
test_dir_handle(void **state)
{
	char *d = tmpdir(), *e = tmpdir(), *moved;
	struct fa_outset *set;

	(void)state;
	moved = fa_strfmt("%s.moved", d);
	assert_non_null(moved);
	set = set_open(d, FA_OUTSET_RUN);
	sput(set, "report.json", "one");
	assert_int_equal(rename(d, moved), 0);
	assert_int_equal(symlink(e, d), 0);
	sput(set, "report.txt", "two");
	assert_int_equal(fa_outset_close(set, 1, NULL), 0);
	expect_file(moved, "report.json", "one");
	expect_file(moved, "report.txt", "two");
	assert_int_equal(scratch_count(e), 0);
	assert_int_equal(unlink(d), 0);
	assert_int_equal(rename(moved, d), 0);
	free(moved);
	cleanup(d);
	cleanup(e);
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
		cmocka_unit_test(test_run_removes_stale),
		cmocka_unit_test(test_run_dir_modes),
		cmocka_unit_test(test_dir_handle),
		cmocka_unit_test(test_json_errmsg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
