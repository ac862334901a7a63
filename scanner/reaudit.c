/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The re-audit loop around a scan (--history, --keep, --metrics,
 * --syslog): a locked history directory with one directory per run whose
 * previous report is the baseline (so the reports form a hash chain), the
 * `latest` link and retention, Prometheus textfile metrics, and a one-line
 * syslog summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "../core/errors.h"
#include "../core/history.h"
#include "../core/interrupt.h"
#include "../core/util.h"
#include "../reports/metrics.h"
#include "scanner.h"

int
fa_reaudit_begin(struct fa_reaudit *ra, struct fa_out_opts *o,
    time_t started)
{
	sigset_t old;
	char *why = NULL;
	int r;

	clock_gettime(CLOCK_MONOTONIC, &ra->t0);
	if (ra->history == NULL)
		return 0;
	if ((r = fa_history_lock(ra->history, &ra->lockfd, &why)) != 0) {
		fa_diag("--history", "%s", why != NULL ? why :
		    fa_strerror(r));
		free(why);
		/* Another run holds the lock: this one could not run. */
		return r == FA_ERR_UNAVAIL ? FA_EXIT_NORUN : FA_EXIT_USAGE;
	}
	if (o->baseline == NULL) {
		r = fa_history_latest_report(ra->history, &ra->basepath, &why);
		if (r == 0)
			r = fa_load_baseline(ra->basepath, o);
		else if (r == FA_ERR_NOTFOUND)
			r = 0;	/* the first run: nothing to compare with */
		else {
			fa_diag("--history", "%s", why != NULL ? why :
			    fa_strerror(r));
			r = FA_EXIT_USAGE;
		}
		free(why);
		why = NULL;
		if (r != 0)
			return r;
	}
	/* The run's directory and its registration, not split by a signal
	 * (core/interrupt.h): else an interruption leaves it empty. */
	fa_interrupt_defer(&old);
	if ((r = fa_history_new_run(ra->history, started, &ra->rundir,
	    &why)) != 0) {
		fa_interrupt_undefer(&old);
		fa_diag("--history", "%s", why != NULL ? why :
		    fa_strerror(r));
		free(why);
		return FA_EXIT_NORUN;
	}
	(void)fa_interrupt_add(ra->rundir, 1);
	fa_interrupt_undefer(&old);
	o->outdir = ra->rundir;
	return 0;
}

int
fa_reaudit_end(struct fa_reaudit *ra, const json_t *report, int rc)
{
	struct timespec t1;
	char *why = NULL, **gone = NULL;
	size_t n = 0, i;
	double dur;
	int r;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	dur = (double)(t1.tv_sec - ra->t0.tv_sec) +
	    (double)(t1.tv_nsec - ra->t0.tv_nsec) / 1e9;
	if (ra->rundir != NULL)
		fa_interrupt_forget(ra->rundir);
	if (ra->rundir != NULL && report != NULL) {
		if ((r = fa_history_publish(ra->history,
		    strrchr(ra->rundir, '/') + 1, &why)) != 0) {
			fa_diag("--history", "%s", why != NULL ? why :
			    fa_strerror(r));
			rc = rc == FA_EXIT_OK ? FA_EXIT_NORUN : rc;
		}
		free(why);
		why = NULL;
		/* A run left in place is worth a warning, not a failure. */
		if (fa_history_prune(ra->history, ra->keep, &gone, &n,
		    &why) != 0)
			fa_diag("--history", "kept: %s", why != NULL ? why :
			    "runs that could not be removed");
		for (i = 0; i < n && !ra->quiet; i++)
			printf("Removed old run %s\n", gone[i]);
		fa_history_free_names(gone, n);
		free(why);
		why = NULL;
	}
	if (ra->metrics != NULL && (r = fa_metrics_write(ra->metrics, report,
	    dur, report != NULL && rc <= FA_EXIT_FINDINGS, time(NULL),
	    &why)) != 0) {
		fa_diag("--metrics", "%s", why != NULL ? why :
		    fa_strerror(r));
		rc = rc == FA_EXIT_OK ? FA_EXIT_NORUN : rc;
	}
	free(why);
	if (ra->syslog)
		fa_syslog_summary(report, ra->rundir != NULL ? ra->rundir :
		    ra->outdir != NULL ? ra->outdir : "-", rc);
	return rc;
}

void
fa_reaudit_free(struct fa_reaudit *ra)
{
	if (ra->lockfd >= 0)
		close(ra->lockfd);	/* releases the flock */
	ra->lockfd = -1;
	free(ra->rundir);
	free(ra->basepath);
	ra->rundir = ra->basepath = NULL;
}

static long long
num(const json_t *o, const char *k)
{
	return (long long)json_integer_value(json_object_get(o, k));
}

void
fa_syslog_summary(const json_t *report, const char *outdir, int rc)
{
	const json_t *s = json_object_get(report, "summary");
	const json_t *b = json_object_get(report, "baseline");
	char *host, *dir, newpart[96] = "";
	const char *h = fa_json_get_str(json_object_get(report, "scan"),
	    "host");

	host = fa_str_sanitize(h != NULL ? h : "?", strlen(h != NULL ? h :
	    "?"));
	dir = fa_str_sanitize(outdir, strlen(outdir));
	if (b != NULL)
		snprintf(newpart, sizeof(newpart), "; %zu new since the "
		    "baseline (%lld at or above %s)",
		    json_array_size(json_object_get(b, "new_failures")),
		    num(b, "failing_at_or_above"),
		    fa_json_get_str(b, "fail_on") != NULL ?
		    fa_json_get_str(b, "fail_on") : "?");
	openlog("fabaudit", LOG_PID, LOG_DAEMON);
	if (report == NULL)
		syslog(LOG_ERR, "scan of %s did not produce a report (exit %d)",
		    host != NULL ? host : "?", rc);
	else
		syslog(rc == 0 ? LOG_INFO : LOG_WARNING, "scan of %s: %lld "
		    "pass, %lld fail, %lld not tested, %lld error; %lld "
		    "failing at or above %s%s; exit %d; report %s",
		    host != NULL ? host : "?", num(s, "pass"), num(s, "fail"),
		    num(s, "not_tested"), num(s, "error"),
		    num(s, "failing_at_or_above"),
		    fa_json_get_str(s, "fail_on") != NULL ?
		    fa_json_get_str(s, "fail_on") : "?", newpart, rc,
		    dir != NULL ? dir : "?");
	closelog();
	free(host);
	free(dir);
}
