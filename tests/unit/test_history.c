/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the history directory (core/history.c), each in a fresh
 * temporary directory: the lock excludes a second holder, run names and
 * their suffixes, the newest complete report found past junk and
 * incomplete runs, `latest` replaced atomically, and pruning that keeps N,
 * never touches junk or links and refuses runs with unexpected content.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include "../../core/history.h"
#include "scratch_tree.h"

#define NOW	((time_t)1796205600)	/* 2026-12-02T10:00:00Z */

/* Names used by several tests, oldest first. */
#define I0	"20261130T000000Z"
#define C1	"20261201T000000Z"
#define C2	"20261202T000000Z"
#define C3	"20261203T000000Z"
#define I3	"20261203T000000Z-2"
#define C4	"20261204T000000Z"
#define C5	"20261205T000000Z"
#define C6	"20261206T000000Z"
#define I9	"20261209T000000Z"

struct t {
	char	root[64];
	char	buf[512];
};

static int
setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return -1;
	snprintf(t->root, sizeof(t->root), "/tmp/fa-history-XXXXXX");
	if (mkdtemp(t->root) == NULL) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int
teardown(void **state)
{
	struct t *t = *state;

	scratch_rm(t->root, "");
	free(t);
	return 0;
}

/* root + "/" + rel, in t->buf. */
static const char *
P(struct t *t, const char *rel)
{
	snprintf(t->buf, sizeof(t->buf), "%s/%s", t->root, rel);
	return t->buf;
}

static void
mk(struct t *t, const char *rel)
{
	assert_int_equal(mkdir(P(t, rel), 0750), 0);
}

static void
put(struct t *t, const char *rel)
{
	FILE *f;

	assert_non_null(f = fopen(P(t, rel), "w"));
	assert_true(fputs("x\n", f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static void
ln(struct t *t, const char *target, const char *rel)
{
	assert_int_equal(symlink(target, P(t, rel)), 0);
}

/* No temporary link of fa_history_publish is left behind. */
static void
no_temporary(struct t *t)
{
	struct dirent *e;
	DIR *d;

	assert_non_null(d = opendir(t->root));
	while ((e = readdir(d)) != NULL)
		assert_int_not_equal(strncmp(e->d_name, ".latest", 7), 0);
	closedir(d);
}

static int
exists(struct t *t, const char *rel)
{
	struct stat st;

	return lstat(P(t, rel), &st) == 0;
}

static void
expect_latest(struct t *t, const char *want)
{
	char got[64];
	ssize_t n;

	n = readlink(P(t, FA_HISTORY_LATEST), got, sizeof(got) - 1);
	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got, want);
}

/* A complete run: its directory and report.json. */
static void
complete(struct t *t, const char *name)
{
	char rel[64];

	mk(t, name);
	snprintf(rel, sizeof(rel), "%s/report.json", name);
	put(t, rel);
}

static void
run_names(void **state)
{
	static const char *const good[] = {
		"20261202T100000Z", "20261202T100000Z-2", "20261202T100000Z-9",
		"00000000T000000Z",
	};
	static const char *const bad[] = {
		"", "latest", ".lock", "20261202T100000Z-1",
		"20261202T100000Z-0", "20261202T100000Z-10",
		"20261202T100000Z-", "20261202T100000Z-2x", "20261202t100000Z",
		"20261202T100000z", "2026120xT100000Z", "20261202T10000Z",
		"120261202T100000Z", "20261202T100000Z.bak", "20261202-100000Z",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(fa_history_is_run_name(good[i]));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(fa_history_is_run_name(bad[i]));
	assert_false(fa_history_is_run_name(NULL));
}

static void
lock_excludes(void **state)
{
	struct t *t = *state;
	struct stat st;
	char *why = NULL, want[256];
	int fd1, fd2, fd3;

	/* The directory is created, 0750. */
	assert_int_equal(fa_history_lock(P(t, "h"), &fd1, &why), 0);
	assert_null(why);
	assert_true(fd1 >= 0);
	assert_int_equal(stat(P(t, "h"), &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0750);
	assert_int_equal(stat(P(t, "h/.lock"), &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0640);

	/* A second open file description cannot lock it, even here. */
	assert_int_equal(fa_history_lock(P(t, "h"), &fd2, &why),
	    FA_ERR_UNAVAIL);
	assert_int_equal(fd2, -1);
	snprintf(want, sizeof(want), "another fabaudit run holds %s/h/.lock",
	    t->root);
	assert_non_null(why);
	assert_string_equal(why, want);
	free(why);
	why = NULL;

	/* Released on close. */
	assert_int_equal(close(fd1), 0);
	assert_int_equal(fa_history_lock(P(t, "h"), &fd3, &why), 0);
	assert_true(fd3 >= 0);
	assert_int_equal(close(fd3), 0);
}

static void
lock_refuses(void **state)
{
	struct t *t = *state;
	char *why = NULL, victim[128];
	int fd;

	/* A link as .lock is not followed, so nothing is created. */
	snprintf(victim, sizeof(victim), "%s/victim", t->root);
	mk(t, "l");
	ln(t, victim, "l/.lock");
	assert_int_equal(fa_history_lock(P(t, "l"), &fd, &why),
	    FA_ERR_INPUT);
	assert_int_equal(fd, -1);
	assert_non_null(strstr(why, "/l/.lock: is a symbolic link"));
	assert_false(exists(t, "victim"));
	free(why);
	why = NULL;

	/* A FIFO as .lock: refused, not waited on. */
	mk(t, "f");
	assert_int_equal(mkfifo(P(t, "f/.lock"), 0600), 0);
	assert_int_equal(fa_history_lock(P(t, "f"), &fd, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, "/f/.lock: is not a regular file"));
	free(why);
	why = NULL;

	/* No parent: mkdir is not recursive. */
	assert_int_equal(fa_history_lock(P(t, "no/such"), &fd, &why),
	    FA_ERR_IO);
	assert_non_null(strstr(why, "/no/such: No such file or directory"));
	free(why);
}

static void
new_run_names(void **state)
{
	struct t *t = *state;
	struct stat st;
	char *rundir = NULL, *why = NULL, want[128];
	int k;

	for (k = 1; k <= FA_HISTORY_MAX_SUFFIX; k++) {
		assert_int_equal(fa_history_new_run(t->root, NOW, &rundir,
		    &why), 0);
		assert_null(why);
		if (k == 1)
			snprintf(want, sizeof(want), "%s/20261202T100000Z",
			    t->root);
		else
			snprintf(want, sizeof(want), "%s/20261202T100000Z-%d",
			    t->root, k);
		assert_string_equal(rundir, want);
		assert_int_equal(stat(rundir, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
		assert_int_equal(st.st_mode & 07777, 0750);
		free(rundir);
	}
	/* A tenth run in the same second is refused, not misnamed. */
	assert_int_equal(fa_history_new_run(t->root, NOW, &rundir, &why),
	    FA_ERR_UNAVAIL);
	assert_null(rundir);
	assert_non_null(strstr(why, ": 9 runs already started at "
	    "20261202T100000Z"));
	free(why);
	why = NULL;
	assert_false(exists(t, "20261202T100000Z-10"));

	/* The next second starts afresh. */
	assert_int_equal(fa_history_new_run(t->root, NOW + 1, &rundir, &why),
	    0);
	snprintf(want, sizeof(want), "%s/20261202T100001Z", t->root);
	assert_string_equal(rundir, want);
	free(rundir);

	/* A year past 9999 would not sort: refused. */
	assert_int_equal(fa_history_new_run(t->root, (time_t)253402300800LL,
	    &rundir, &why), FA_ERR_INPUT);
	assert_null(rundir);
	free(why);
}

static void
latest_report(void **state)
{
	struct t *t = *state;
	char *path = NULL, *why = NULL, want[128];

	assert_int_equal(fa_history_latest_report(t->root, &path, &why),
	    FA_ERR_NOTFOUND);
	assert_null(path);
	assert_non_null(strstr(why, ": no complete run"));
	free(why);
	why = NULL;

	complete(t, C1);
	complete(t, C2);
	mk(t, C3);					/* incomplete */
	mk(t, C4);					/* report.json a dir */
	mk(t, C4 "/report.json");
	mk(t, C5);					/* report.json a link */
	ln(t, "../" C1 "/report.json", C5 "/report.json");
	ln(t, C1, C6);					/* a link */
	put(t, "20261207T000000Z");			/* a file */
	complete(t, "20261208T000000Z-10");		/* junk names */
	complete(t, "20261209T000000Z.bak");
	complete(t, "zzz");
	ln(t, C1, FA_HISTORY_LATEST);			/* not trusted */
	assert_int_equal(fa_history_latest_report(t->root, &path, &why), 0);
	assert_null(why);
	snprintf(want, sizeof(want), "%s/" C2 "/report.json", t->root);
	assert_string_equal(path, want);
	free(path);

	/* A suffixed run is newer than its unsuffixed twin. */
	complete(t, C2 "-2");
	assert_int_equal(fa_history_latest_report(t->root, &path, &why), 0);
	snprintf(want, sizeof(want), "%s/" C2 "-2/report.json", t->root);
	assert_string_equal(path, want);
	free(path);
}

static void
latest_report_bounded(void **state)
{
	struct t *t = *state;
	char *path = NULL, *why = NULL, name[128];
	int i, fd;

	complete(t, C1);
	for (i = 0; i < FA_HISTORY_MAX_ENTRIES; i++) {
		snprintf(name, sizeof(name), "%s/j%d", t->root, i);
		assert_true((fd = open(name, O_WRONLY | O_CREAT, 0600)) >= 0);
		close(fd);
	}
	assert_int_equal(fa_history_latest_report(t->root, &path, &why),
	    FA_ERR_TOOBIG);
	assert_null(path);
	assert_non_null(strstr(why, ": more than 10000 entries"));
	free(why);
}

static void
publish(void **state)
{
	struct t *t = *state;
	char *why = NULL;

	complete(t, C1);
	complete(t, C2);
	mk(t, C3);
	assert_int_equal(fa_history_publish(t->root, C1, &why), 0);
	assert_null(why);
	expect_latest(t, C1);
	/* An existing link is replaced, leaving no temporary name. */
	assert_int_equal(fa_history_publish(t->root, C2, &why), 0);
	expect_latest(t, C2);
	no_temporary(t);

	/* Incomplete, not a run name, absent, a link: refused. */
	assert_int_equal(fa_history_publish(t->root, C3, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, C3 ": has no report.json, the run is "
	    "incomplete"));
	free(why);
	why = NULL;
	assert_int_equal(fa_history_publish(t->root, "../" C1, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, ": not a run name"));
	free(why);
	why = NULL;
	assert_int_equal(fa_history_publish(t->root, C4, &why), FA_ERR_IO);
	free(why);
	why = NULL;
	ln(t, C1, C5);
	assert_int_equal(fa_history_publish(t->root, C5, &why), FA_ERR_IO);
	free(why);
	why = NULL;
	expect_latest(t, C2);

	/* A directory squatting on `latest` is not replaced. */
	assert_int_equal(unlink(P(t, FA_HISTORY_LATEST)), 0);
	mk(t, FA_HISTORY_LATEST);
	assert_int_equal(fa_history_publish(t->root, C1, &why), FA_ERR_IO);
	assert_non_null(strstr(why, "/latest: "));
	free(why);
	no_temporary(t);
}

static void
expect_removed(char **removed, size_t n, const char *const *want,
    size_t nwant)
{
	size_t i;

	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++)
		assert_string_equal(removed[i], want[i]);
}

static void
prune_keeps(void **state)
{
	static const char *const want[] = { C4, I3, C3, C1, I0 };
	struct t *t = *state;
	char **removed = NULL, *why = NULL;
	size_t n = 0;

	mk(t, I0);
	put(t, I0 "/report.txt");
	complete(t, C1);
	put(t, C1 "/report.txt");
	put(t, C1 "/.report.json.aB3dE9");
	complete(t, C2);
	complete(t, C3);
	mk(t, I3);
	complete(t, C4);
	complete(t, C5);
	complete(t, C6);
	mk(t, I9);
	/* Junk: never touched. */
	complete(t, "20261201T000000Z-10");
	put(t, "notes");
	mk(t, "outside");
	put(t, "outside/keep.me");
	ln(t, "outside", "20261202T000000Z-3");
	ln(t, C2, FA_HISTORY_LATEST);

	assert_int_equal(fa_history_prune(t->root, 2, &removed, &n, &why), 0);
	assert_null(why);
	expect_removed(removed, n, want, sizeof(want) / sizeof(want[0]));
	fa_history_free_names(removed, n);
	assert_false(exists(t, I0));
	assert_false(exists(t, C1));
	assert_false(exists(t, C3));
	assert_false(exists(t, I3));
	assert_false(exists(t, C4));
	/* The newest two, the published run, a newer incomplete run. */
	assert_true(exists(t, C5 "/report.json"));
	assert_true(exists(t, C6 "/report.json"));
	assert_true(exists(t, C2 "/report.json"));
	assert_true(exists(t, I9));
	assert_true(exists(t, "20261201T000000Z-10/report.json"));
	assert_true(exists(t, "notes"));
	assert_true(exists(t, "outside/keep.me"));
	assert_true(exists(t, "20261202T000000Z-3"));
	expect_latest(t, C2);

	/* Nothing left to do. */
	assert_int_equal(fa_history_prune(t->root, 2, &removed, &n, &why), 0);
	assert_int_equal(n, 0);
	assert_null(removed);

	/* keep 0 would delete the run just written. */
	assert_int_equal(fa_history_prune(t->root, 0, &removed, &n, &why),
	    FA_ERR_INPUT);
	assert_int_equal(n, 0);
	assert_non_null(why);
	free(why);
	assert_true(exists(t, C5 "/report.json"));
}

static void
prune_no_complete_run(void **state)
{
	struct t *t = *state;
	char **removed = NULL, *why = NULL;
	size_t n = 0;

	/* Without a complete run an incomplete one may be in progress. */
	mk(t, I0);
	mk(t, C1);
	assert_int_equal(fa_history_prune(t->root, 1, &removed, &n, &why), 0);
	assert_int_equal(n, 0);
	assert_true(exists(t, I0));
	assert_true(exists(t, C1));
}

static void
prune_refuses(void **state)
{
	static const char *const want[] = { C4 };
	struct t *t = *state;
	char **removed = NULL, *why = NULL, exp[1024];
	size_t n = 0;
	int i;

	complete(t, C1);
	mk(t, C1 "/sub");
	put(t, C1 "/sub/file");
	complete(t, C2);
	mk(t, "outside");
	put(t, "outside/keep.me");
	ln(t, "../outside/keep.me", C2 "/ev\nil");
	complete(t, C3);
	assert_int_equal(mkfifo(P(t, C3 "/fifo"), 0600), 0);
	complete(t, C4);
	complete(t, C5);
	complete(t, C6);
	for (i = 0; i < FA_HISTORY_MAX_FILES; i++) {
		snprintf(exp, sizeof(exp), C5 "/f%d", i);
		put(t, exp);
	}

	assert_int_equal(fa_history_prune(t->root, 1, &removed, &n, &why),
	    FA_ERR_INPUT);
	expect_removed(removed, n, want, 1);
	fa_history_free_names(removed, n);
	snprintf(exp, sizeof(exp),
	    "%s/" C5 ": more than 256 entries, left in place; "
	    "%s/" C3 "/fifo: not a regular file, " C3 " left in place; "
	    "%s/" C2 "/ev\\x0ail: not a regular file, " C2 " left in place; "
	    "%s/" C1 "/sub: not a regular file, " C1 " left in place",
	    t->root, t->root, t->root, t->root);
	assert_string_equal(why, exp);
	free(why);
	/* Every refused run is whole; what its links name is untouched. */
	assert_true(exists(t, C1 "/report.json"));
	assert_true(exists(t, C1 "/sub/file"));
	assert_true(exists(t, C2 "/report.json"));
	assert_true(exists(t, C2 "/ev\nil"));
	assert_true(exists(t, "outside/keep.me"));
	assert_true(exists(t, C3 "/report.json"));
	assert_true(exists(t, C5 "/report.json"));
	assert_true(exists(t, C5 "/f0"));
	assert_false(exists(t, C4));
	assert_true(exists(t, C6 "/report.json"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(run_names),
		cmocka_unit_test_setup_teardown(lock_excludes, setup, teardown),
		cmocka_unit_test_setup_teardown(lock_refuses, setup, teardown),
		cmocka_unit_test_setup_teardown(new_run_names, setup, teardown),
		cmocka_unit_test_setup_teardown(latest_report, setup, teardown),
		cmocka_unit_test_setup_teardown(latest_report_bounded, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(publish, setup, teardown),
		cmocka_unit_test_setup_teardown(prune_keeps, setup, teardown),
		cmocka_unit_test_setup_teardown(prune_no_complete_run, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(prune_refuses, setup, teardown),
	};

	umask(022);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
