/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: a snapshot file as `fabaudit check SNAPSHOT` reads it
 * (scanner/cmd_check.c): jansson's parser (duplicate keys refused), the
 * snapshot loader core/snapshot.c fa_snapshot_from_json, the policy text
 * embedded in it (core/policy.c fa_policy_parse; cmd_check.c dates its
 * waivers by the scan's start, here a fixed day), then every check,
 * report.json, report.txt, the summary and the report as its own baseline
 * on what was loaded (fuzz/fuzz_eval.h; the XML, HTML and JUnit writers
 * on the same reports are fuzz_report's).  A snapshot that loads is also
 * written back (fa_snapshot_to_json) and must load again.
 *
 * No false pass: the checks are evaluated again without one observation
 * (the input's length modulo their number picks it), and no result that
 * failed with it may pass without it.  An observation a scan could not
 * make must leave the verdict not_tested, never turn it into a pass.
 *
 * Input: the bytes of a snapshot.json.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/errors.h"
#include "../core/policy.h"
#include "../core/snapshot.h"
#include "fuzz_eval.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort if a failing result of `with` (the results of snap) passes
 * without observation `drop`. */
static void
no_false_pass(const struct fa_snapshot *snap, const struct fa_policy *pol,
    const struct fa_results *with, size_t drop)
{
	struct fa_snapshot less = *snap;
	struct fa_eval_ctx b = { &less, pol };
	struct fa_results without = { NULL, 0, 0 };
	size_t i, j;

	if ((less.obs = calloc(snap->nobs, sizeof(*less.obs))) == NULL)
		abort();
	/* Shares the observations' contents: only read, never freed. */
	for (i = 0, j = 0; i < snap->nobs; i++)
		if (i != drop)
			less.obs[j++] = snap->obs[i];
	less.nobs = less.cap = j;
	if (fa_evaluate(&b, &without) != 0)
		abort();
	for (i = 0; i < without.n; i++) {
		if (without.v[i].status != FA_ST_PASS)
			continue;
		for (j = 0; j < with->n; j++)
			if (with->v[j].status == FA_ST_FAIL &&
			    with->v[j].check == without.v[i].check &&
			    strcmp(with->v[j].target, without.v[i].target) == 0)
				abort();
	}
	fa_results_free(&without);
	free(less.obs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_snapshot *snap, *again = NULL;
	struct fa_policy *pol;
	struct fa_results res = { NULL, 0, 0 };
	json_t *j;
	char *why = NULL, sha[65];

	if (fz_load(data, size, &snap, &pol) != 0)
		return 0;
	/* What was loaded is written back and loads again. */
	if ((j = fa_snapshot_to_json(snap, 1)) == NULL)
		abort();
	if (fa_snapshot_from_json(j, &again, &why) != 0 ||
	    again->nobs != snap->nobs)
		abort();
	fa_snapshot_free(again);
	json_decref(j);
	if (fa_sha256_hex(data, size, sha) != 0)
		abort();
	fuzz_evaluate(snap, pol, sha, FZ_BASELINE, &res);
	if (snap->nobs > 0 && res.v != NULL)
		no_false_pass(snap, pol, &res, size % snap->nobs);
	fa_results_free(&res);
	fa_policy_free(pol);
	fa_snapshot_free(snap);
	return 0;
}
