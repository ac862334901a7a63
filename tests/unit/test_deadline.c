/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the --max-time budget (core/deadline.c) and what the
 * evaluation makes of a cut family (checks/evaluate.c): the clock clamp,
 * the cut notes recorded as "scan.max_time" observations, and the rule
 * that a cut family has no pass (each becomes not_tested, saying why)
 * while its failures stay.  The input is the careless provider's real
 * snapshot (fixtures/reports/careless.snapshot.json, read from the repo
 * root, where tests/run.sh runs the tests).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../checks/check.h"
#include "../../core/deadline.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"

#define CARELESS	"fixtures/reports/careless.snapshot.json"

static struct fa_snapshot *
careless(void)
{
	struct fa_snapshot *s = NULL;
	json_error_t e;
	json_t *j = json_load_file(CARELESS, 0, &e);
	char *why = NULL;

	assert_non_null(j);
	assert_int_equal(fa_snapshot_from_json(j, &s, &why), 0);
	json_decref(j);
	free(why);
	return s;
}

/* Count the results of family f with status st; *mt: of those, how many
 * give --max-time in their reason. */
static size_t
count(const struct fa_results *r, enum fa_family f, enum fa_status st,
    size_t *mt)
{
	size_t i, n = 0;

	*mt = 0;
	for (i = 0; i < r->n; i++)
		if (r->v[i].check->family == f && r->v[i].status == st) {
			n++;
			if (r->v[i].reason != NULL &&
			    strstr(r->v[i].reason, "--max-time 7 s reached "
			    "during the audit") != NULL)
				(*mt)++;
		}
	return n;
}

static void
test_clamp(void **state)
{
	(void)state;
	fa_deadline_set(0);
	assert_int_equal(fa_deadline_seconds(), 0);
	assert_false(fa_deadline_passed());
	assert_int_equal(fa_deadline_clamp_ms(-1), -1);
	assert_int_equal(fa_deadline_clamp_ms(250), 250);
	fa_deadline_set(3600);
	assert_int_equal(fa_deadline_seconds(), 3600);
	assert_false(fa_deadline_passed());
	assert_int_equal(fa_deadline_clamp_ms(250), 250);
	/* Unbounded becomes what is left: about an hour. */
	assert_true(fa_deadline_clamp_ms(-1) > 3590 * 1000);
	assert_true(fa_deadline_clamp_ms(-1) <= 3600 * 1000);
	fa_deadline_set(0);
}

static void
test_cut_recorded(void **state)
{
	struct fa_snapshot *s = careless();
	const struct fa_obs *o;
	size_t n = s->nobs;

	(void)state;
	fa_deadline_set(7);
	assert_false(fa_deadline_was_cut(FA_FAM_IB));
	fa_deadline_cut(FA_FAM_IB, "during the audit: %d requests not sent",
	    12);
	fa_deadline_cut(FA_FAM_IB, "later: kept is the first");
	assert_true(fa_deadline_was_cut(FA_FAM_IB));
	assert_false(fa_deadline_was_cut(FA_FAM_HOST));
	assert_int_equal(fa_deadline_record(s), 0);
	assert_int_equal(s->nobs, n + 1);
	assert_non_null(o = fa_deadline_obs(s, FA_FAM_IB));
	assert_null(fa_deadline_obs(s, FA_FAM_HOST));
	assert_int_equal(o->state, FA_OBS_NOT_COLLECTED);
	assert_string_equal(o->target, "ib");
	assert_string_equal(o->reason, "--max-time 7 s reached during the "
	    "audit: 12 requests not sent");
	fa_deadline_set(0);
	fa_snapshot_free(s);
}

static void
test_no_pass_when_cut(void **state)
{
	struct fa_snapshot *s = careless();
	struct fa_policy *p = fa_policy_new_empty();
	struct fa_results full = { NULL, 0, 0 }, cut = { NULL, 0, 0 };
	struct fa_eval_ctx ctx = { s, p };
	size_t pass, fail, fail2, nt, nt_mt, host_pass, host2, mt, i;
	const json_t *last;

	(void)state;
	assert_non_null(p);
	assert_int_equal(fa_evaluate(&ctx, &full), 0);
	pass = count(&full, FA_FAM_IB, FA_ST_PASS, &mt);
	fail = count(&full, FA_FAM_IB, FA_ST_FAIL, &mt);
	host_pass = count(&full, FA_FAM_HOST, FA_ST_PASS, &mt);
	assert_true(pass > 0);		/* there is something to lose */
	assert_true(fail > 0);

	fa_deadline_set(7);
	fa_deadline_cut(FA_FAM_IB, "during the audit");
	assert_int_equal(fa_deadline_record(s), 0);
	fa_deadline_set(0);
	assert_int_equal(fa_evaluate(&ctx, &cut), 0);
	assert_int_equal(cut.n, full.n);
	assert_int_equal(count(&cut, FA_FAM_IB, FA_ST_PASS, &mt), 0);
	fail2 = count(&cut, FA_FAM_IB, FA_ST_FAIL, &mt);
	assert_int_equal(fail2, fail);	/* what was seen to fail, failed */
	nt = count(&cut, FA_FAM_IB, FA_ST_NOT_TESTED, &nt_mt);
	assert_int_equal(nt, nt_mt);	/* each says --max-time */
	assert_int_equal(nt, count(&full, FA_FAM_IB, FA_ST_NOT_TESTED, &mt) +
	    pass);
	/* The pass it was is said, and the cut is evidence. */
	for (i = 0; i < cut.n; i++)
		if (full.v[i].status == FA_ST_PASS &&
		    cut.v[i].check->family == FA_FAM_IB) {
			assert_non_null(strstr(cut.v[i].reason,
			    "the part scanned passed: "));
			last = json_array_get(cut.v[i].evidence,
			    json_array_size(cut.v[i].evidence) - 1);
			assert_string_equal(json_string_value(json_object_get(
			    last, "observation")), fa_deadline_obs(s,
			    FA_FAM_IB)->id);
		}
	/* Another family is not touched. */
	host2 = count(&cut, FA_FAM_HOST, FA_ST_PASS, &mt);
	assert_int_equal(host2, host_pass);
	fa_results_free(&full);
	fa_results_free(&cut);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clamp),
		cmocka_unit_test(test_cut_recorded),
		cmocka_unit_test(test_no_pass_when_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
