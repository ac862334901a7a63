/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by the fuzz targets whose input ends up in a snapshot (fuzz_check,
 * fuzz_pcap): evaluate every registered check on it, as `fabaudit check`
 * and `scan` do (scanner/common.c fa_evaluate_and_emit), and render the
 * report to memory: report.json, report.txt, the summary and, when `all`
 * is set, the comparison of the report with itself as a baseline
 * (--baseline).  Hostile values from a snapshot reach the checks and
 * writers here.  Nothing is written to a file.  Asserted: no pass or fail
 * for a family that was not collected (nothing unseen is called safe),
 * every result in report.json and in its summary, a report is its own
 * baseline with nothing new.
 *
 * report.xml, report.html and junit.xml are rendered from report.json
 * alone (reports/report.h): fuzz_merge gives them any document, reports
 * fabaudit made (its seeds) and their mutations.  Rendering them here too
 * took half of each run's time for no path fuzz_merge does not reach.
 */
#ifndef FUZZ_EVAL_H
#define FUZZ_EVAL_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "../checks/check.h"
#include "../core/errors.h"
#include "../core/policy.h"
#include "../core/snapshot.h"
#include "../reports/diff.h"
#include "../reports/report.h"

/* A fixed clock: the runs must be deterministic. */
#define FUZZ_NOW	((time_t)1796200000)

/* The results are left in *keep (if not NULL; empty if evaluation
 * failed for lack of memory), for the caller to free. */
static void
fuzz_evaluate(const struct fa_snapshot *snap, const struct fa_policy *pol,
    const char *snapshot_sha, int all, struct fa_results *keep)
{
	struct fa_eval_ctx ectx = { snap, pol };
	struct fa_results res = { NULL, 0, 0 };
	struct fa_report_ctx rctx;
	struct fa_tally t;
	json_t *j, *base;
	char *s, *why = NULL;
	size_t i, newf;
	int r;

	if ((r = fa_evaluate(&ectx, &res)) != 0) {
		if (r != FA_ERR_NOMEM)
			abort();	/* a check's internal failure */
		fa_results_free(&res);
		if (keep != NULL)
			memset(keep, 0, sizeof(*keep));
		return;
	}
	/* No verdict on a family that was not collected: it was not seen. */
	for (i = 0; i < res.n; i++)
		if (snap->fam[res.v[i].check->family].state !=
		    FA_FAMST_COLLECTED && (res.v[i].status == FA_ST_PASS ||
		    res.v[i].status == FA_ST_FAIL))
			abort();
	memset(&rctx, 0, sizeof(rctx));
	rctx.snap = snap;
	rctx.res = &res;
	rctx.fail_on = FA_SEV_HIGH;
	rctx.snapshot_file = "snapshot.json";
	rctx.snapshot_sha256 = snapshot_sha;
	rctx.mode = "offline";
	rctx.policy_name = pol->name;
	rctx.policy = pol;
	rctx.generated = FUZZ_NOW;
	if ((j = fa_report_json(&rctx)) == NULL)
		abort();
	/* Every result is in the report and counted once. */
	fa_tally(&res, FA_SEV_HIGH, &t);
	if (json_array_size(json_object_get(j, "results")) != res.n ||
	    (size_t)json_integer_value(json_object_get(json_object_get(j,
	    "summary"), "fail")) != t.by_status[FA_ST_FAIL] ||
	    (size_t)json_integer_value(json_object_get(json_object_get(j,
	    "summary"), "pass")) != t.by_status[FA_ST_PASS])
		abort();
	free(fa_report_txt(&rctx));
	free(fa_report_summary(&rctx));
	if (!all)
		goto out;
	if ((base = json_deep_copy(j)) == NULL)
		abort();
	if (fa_diff_annotate(j, base, "baseline.json", snapshot_sha,
	    FA_SEV_HIGH, &newf, &why) != 0 || newf != 0)
		abort();	/* a report is its own baseline */
	json_decref(base);
out:
	/* The report can be written (all its strings UTF-8): that does not
	 * depend on the layout, so the cheapest one is asked for. */
	if ((s = json_dumps(j, JSON_COMPACT)) == NULL)
		abort();
	free(s);
	free(why);
	json_decref(j);
	if (keep != NULL)
		*keep = res;
	else
		fa_results_free(&res);
}

#endif
