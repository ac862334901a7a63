/* SPDX-License-Identifier: BSD-2-Clause */
/* Report comparison by check ID and target (fabaudit diff, --baseline). */
#ifndef FA_DIFF_H
#define FA_DIFF_H

#include <stddef.h>

#include <jansson.h>

#include "../core/model.h"

/*
 * A report's results as {"ID\ttarget": result} (borrowed into a new
 * object).  0, or FA_ERR_INPUT with *why naming the entry at fault.
 */
int fa_diff_index(const json_t *report, json_t **map, char **why);

/*
 * How result n compares with its match o (either may be NULL): "new"
 * (fails now, did not), "resolved", "changed", "unchanged" or "added"
 * (absent before and not failing).
 */
const char *fa_diff_class(const json_t *o, const json_t *n);

/*
 * The comparison of two indexes: {new_failures[], resolved[], changed[],
 * unchanged_failures, failing_at_or_above, fail_on}; entries are {id,
 * target, status, severity, was_status, was_severity, waived}.  NULL on
 * ENOMEM.
 */
json_t *fa_diff_compute(const json_t *old, const json_t *new,
    enum fa_severity fail_on);

/*
 * Compare report with old_report (the baseline read from file, whose bytes
 * hash to sha256): mark each result's "baseline" class, add "baseline"
 * (the comparison) and "previous" {file, sha256} (the hash chain).
 * *new_failing counts new, unwaived failures at or above fail_on.  0 or
 * FA_ERR_* with *why.
 */
int fa_diff_annotate(json_t *report, const json_t *old_report,
    const char *file, const char *sha256, enum fa_severity fail_on,
    size_t *new_failing, char **why);

#endif
