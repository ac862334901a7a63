/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by the fuzz targets whose input ends up in a snapshot (fuzz_check,
 * fuzz_pcap): evaluate every registered check on it, as `fabaudit check`
 * and `scan` do (scanner/common.c fa_evaluate_and_emit), and render the
 * report to memory: report.json, report.txt, the summary and, with
 * FZ_BASELINE, the comparison of the report with itself as a baseline
 * (--baseline).  With FZ_SEEN_ONLY the results of families the snapshot
 * did not collect (never pass nor fail, as asserted) are left out of the
 * report: for a target whose input reaches one family, they are the same
 * text on every run.  Hostile values from a snapshot reach the checks and
 * writers here.  Nothing is written to a file.  Asserted: no pass or fail
 * for a family that was not collected (nothing unseen is called safe),
 * every result in report.json and in its summary, a report is its own
 * baseline with nothing new.
 *
 * With FZ_RENDER the report (annotated, with FZ_BASELINE too) is also
 * rendered as report.xml, report.html and junit.xml, and must render: a
 * report fabaudit made from any snapshot is ours (fuzz_report; fuzz_merge
 * gives the same writers any document).  The XML ones go through their
 * streaming form, as the scanner writes them (fuzz_merge renders into
 * memory), to a sink that counts the bytes.
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

/* An fa_emit_fn that counts what it is given. */
static int
fz_count(const char *p, size_t len, void *arg)
{
	(void)p;
	*(size_t *)arg += len;
	return 0;
}

#define FZ_BASELINE	1u
#define FZ_SEEN_ONLY	2u
#define FZ_RENDER	4u

/*
 * A snapshot file as `fabaudit check` loads it: jansson's parser
 * (duplicate keys refused), fa_snapshot_from_json, then the policy text
 * embedded in it (cmd_check.c dates its waivers by the scan's start,
 * here a fixed day).  0 with *snap and *pol set, or -1: the input is
 * refused, as check refuses it (anything else aborts).
 */
static inline int
fz_load(const uint8_t *data, size_t size, struct fa_snapshot **snap,
    struct fa_policy **pol)
{
	json_error_t jerr;
	json_t *j;
	char *why = NULL, *errs = NULL;
	int r;

	*snap = NULL;
	*pol = NULL;
	if ((j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &jerr)) == NULL)
		return -1;
	r = fa_snapshot_from_json(j, snap, &why);
	json_decref(j);
	if (r != 0) {
		if ((r != FA_ERR_INPUT && r != FA_ERR_NOMEM) || *snap != NULL)
			abort();
		free(why);
		return -1;
	}
	if (why != NULL)
		abort();
	if ((*snap)->policy_name == NULL) {
		if ((*pol = fa_policy_new_empty()) == NULL)
			abort();
		return 0;
	}
	r = fa_policy_parse((*snap)->policy_name, (*snap)->policy_text,
	    (*snap)->policy_text != NULL ? strlen((*snap)->policy_text) : 0,
	    FUZZ_NOW, pol, &errs);
	free(errs);
	if (r != 0) {
		if (*pol != NULL)
			abort();
		fa_snapshot_free(*snap);
		*snap = NULL;
		return -1;	/* check exits 2 */
	}
	return 0;
}

/* The results are left in *keep (if not NULL; empty if evaluation
 * failed for lack of memory), for the caller to free. */
static void
fuzz_evaluate(const struct fa_snapshot *snap, const struct fa_policy *pol,
    const char *snapshot_sha, unsigned flags, struct fa_results *keep)
{
	static int (*const stream[])(const json_t *, fa_emit_fn, void *,
	    char **) = { fa_report_xml_emit, fa_report_junit_emit };
	struct fa_eval_ctx ectx = { snap, pol };
	struct fa_results res = { NULL, 0, 0 };
	struct fa_report_ctx rctx;
	struct fa_tally t;
	json_t *j, *base;
	char *s, *why = NULL;
	struct fa_results shown = { NULL, 0, 0 };
	size_t i, len, newf;
	int r;

	if ((r = fa_evaluate(&ectx, &res)) != 0) {
		if (r != FA_ERR_NOMEM)
			abort();	/* a check's internal failure */
		fa_results_free(&res);
		if (keep != NULL)
			memset(keep, 0, sizeof(*keep));
		return;
	}
	/* No verdict on a family that was not collected: it was not seen.
	 * The report shows `shown`: res, or (a shallow copy) what of it is
	 * about families collected. */
	if ((shown.v = calloc(res.n + 1, sizeof(*shown.v))) == NULL)
		abort();
	for (i = 0; i < res.n; i++) {
		if (snap->fam[res.v[i].check->family].state ==
		    FA_FAMST_COLLECTED) {
			shown.v[shown.n++] = res.v[i];
			continue;
		}
		if (res.v[i].status == FA_ST_PASS ||
		    res.v[i].status == FA_ST_FAIL)
			abort();
		if (!(flags & FZ_SEEN_ONLY))
			shown.v[shown.n++] = res.v[i];
	}
	memset(&rctx, 0, sizeof(rctx));
	rctx.snap = snap;
	rctx.res = &shown;
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
	fa_tally(&shown, FA_SEV_HIGH, &t);
	if (json_array_size(json_object_get(j, "results")) != shown.n ||
	    (size_t)json_integer_value(json_object_get(json_object_get(j,
	    "summary"), "fail")) != t.by_status[FA_ST_FAIL] ||
	    (size_t)json_integer_value(json_object_get(json_object_get(j,
	    "summary"), "pass")) != t.by_status[FA_ST_PASS])
		abort();
	free(fa_report_txt(&rctx));
	free(fa_report_summary(&rctx));
	if (flags & FZ_BASELINE) {
		if ((base = json_deep_copy(j)) == NULL)
			abort();
		if (fa_diff_annotate(j, base, "baseline.json", snapshot_sha,
		    FA_SEV_HIGH, &newf, &why) != 0 || newf != 0)
			abort();	/* a report is its own baseline */
		json_decref(base);
	}
	/* Our own report must render, and say something. */
	for (i = 0; (flags & FZ_RENDER) && i <= sizeof(stream) /
	    sizeof(stream[0]); i++) {
		s = NULL;
		len = 0;
		r = i < sizeof(stream) / sizeof(stream[0]) ?
		    stream[i](j, fz_count, &len, &why) :
		    fa_report_html(j, &s, &len, &why);
		if ((r != 0 && r != FA_ERR_NOMEM) || (r == 0 && len == 0))
			abort();
		free(s);
		free(why);
		why = NULL;
	}
	/* The report can be written (all its strings UTF-8): that does not
	 * depend on the layout, so the cheapest one is asked for. */
	if ((s = json_dumps(j, JSON_COMPACT)) == NULL)
		abort();
	free(s);
	free(why);
	json_decref(j);
	free(shown.v);
	if (keep != NULL)
		*keep = res;
	else
		fa_results_free(&res);
}

#endif
