/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Prometheus metrics for node_exporter's textfile collector: a run's
 * outcome (findings by severity and status, per-check state, run time,
 * last success) in the text exposition format, written to a *.prom file.
 */
#ifndef FA_METRICS_H
#define FA_METRICS_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

/* Results read from one report; more is FA_ERR_TOOBIG. */
#define FA_METRICS_MAX_RESULTS	100000
/* Bytes of a label value kept (cut on a UTF-8 character boundary). */
#define FA_METRICS_LABEL_MAX	256
/* Bytes of the previous metrics file looked at; a longer one is ignored. */
#define FA_METRICS_PREV_MAX	(1024 * 1024)

/*
 * The metrics text for a run.  report is the run's report.json, or NULL
 * when the run failed before it had one: then only the run metrics are
 * written and fabaudit_last_run_success is 0 whatever run_ok says.
 * run_ok is 1 when the scan ran and its report was written, whatever the
 * findings.  previous_text (NULL, or the previous file's text, NUL-
 * terminated) supplies fabaudit_last_success_timestamp_seconds when run_ok
 * is 0; anything malformed in it is ignored.  now is the run's end.
 * Returns 0 with *buf (malloc'd, *len bytes, NUL-terminated), or FA_ERR_*
 * with *why (may be NULL).
 */
int fa_metrics_text(const json_t *report, double duration_s, int run_ok,
    const char *previous_text, time_t now, char **buf, size_t *len,
    char **why);

/*
 * Write the metrics to path atomically (fa_write_atomic in path's
 * directory), carrying the last success over from the file path already
 * holds.  path must name a regular file or nothing: a symbolic link, a
 * directory or a device there is refused (FA_ERR_INPUT).  The file is made
 * readable by all (0644): node_exporter does not run as root.  Returns 0
 * or FA_ERR_* with *why (may be NULL).
 */
int fa_metrics_write(const char *path, const json_t *report,
    double duration_s, int run_ok, time_t now, char **why);

#endif
