/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The history directory of scheduled scans: one subdirectory per run,
 * named by its UTC start time, a `latest` link to the last published run,
 * a lock file that keeps two runs apart, and pruning of old runs.
 *
 *	DIR/.lock			flock(2)ed by the running scan
 *	DIR/20261202T100000Z/		one run (-2 ... -9 if same second)
 *	DIR/20261202T100000Z/report.json	present once the run completed
 *	DIR/latest -> 20261202T100000Z	the last published run
 *
 * Only names of that pattern are ever treated as runs; anything else in
 * DIR is left alone.  A run counts as complete when its report.json is
 * there: reports are written temp + rename, so a crashed run has none.
 */
#ifndef FA_HISTORY_H
#define FA_HISTORY_H

#include <stddef.h>
#include <time.h>

#define FA_HISTORY_LOCK		".lock"
#define FA_HISTORY_LATEST	"latest"
#define FA_HISTORY_REPORT	"report.json"
/* Entries read from DIR; a larger directory is FA_ERR_TOOBIG. */
#define FA_HISTORY_MAX_ENTRIES	10000
/* Entries in one run directory that pruning will delete. */
#define FA_HISTORY_MAX_FILES	256
/* Runs started in one second: -2 ... -9 keep names sorting as strings. */
#define FA_HISTORY_MAX_SUFFIX	9

/* 1 when name is a run's name (YYYYmmddTHHMMSSZ, optional -2 ... -9). */
int fa_history_is_run_name(const char *name);

/*
 * Create dir (0750) if it is missing and take an exclusive lock on
 * dir/.lock for this process: *fd holds it until closed or exit.  Another
 * holder is FA_ERR_UNAVAIL ("another fabaudit run holds DIR/.lock").
 * A symbolic link or anything but a regular file as .lock is refused.
 */
int fa_history_lock(const char *dir, int *fd, char **why);

/*
 * Make the directory of a run started at `started` (UTC), or with suffix
 * -2, -3 ... when that name is taken; mkdir is the test.  *rundir is the
 * new "dir/NAME"; NAME is what follows its last '/'.
 */
int fa_history_new_run(const char *dir, time_t started, char **rundir,
    char **why);

/*
 * "dir/NAME/report.json" of the newest complete run, or FA_ERR_NOTFOUND.
 * Scans run names only: the `latest` link is not trusted for this.
 */
int fa_history_latest_report(const char *dir, char **path, char **why);

/*
 * Point dir/latest at run rundir_name (a run name; the run must be
 * complete), atomically: a new relative symbolic link under a temporary
 * name, renamed over `latest`.
 */
int fa_history_publish(const char *dir, const char *rundir_name,
    char **why);

/*
 * Delete old runs: keep the newest `keep` (at least 1) complete runs and
 * the run `latest` names, delete the older complete runs and every
 * incomplete run older than the newest complete one (an interrupted run's
 * leftovers); newer incomplete runs may be in progress and stay.  A run is
 * deleted only if it holds nothing but regular files (at most
 * FA_HISTORY_MAX_FILES): one holding a directory, a link or a device is
 * left whole and reported; nothing is followed or deleted recursively.
 * *removed (names, free with fa_history_free_names) and *n list what was
 * deleted, also on error.  Returns 0, or FA_ERR_INPUT (a run was refused)
 * or FA_ERR_IO with *why naming every run left behind and why.
 */
int fa_history_prune(const char *dir, unsigned keep, char ***removed,
    size_t *n, char **why);

void fa_history_free_names(char **names, size_t n);

#endif
