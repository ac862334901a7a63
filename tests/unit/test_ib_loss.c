/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for what MAD loss does to the IB verdicts (checks/evaluate.c):
 * loss degrades only what it touched.  A check whose observations were all
 * seen keeps its verdict however many MADs were lost, recovered or left
 * unanswered elsewhere in the scan; an observation answered after a retry
 * is as good as one answered at once; a check whose own observation was
 * lost becomes not_tested, and the others stand.  A scan that did not
 * reach the whole fabric (incomplete topology, the SA gone mid-scan) still
 * passes nothing.  The input is the careless provider's real snapshot
 * (fixtures/reports/careless.snapshot.json, read from the repo root, where
 * tests/run.sh runs the tests), edited as a faulty scan would record it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../checks/check.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"

#define CARELESS	"fixtures/reports/careless.snapshot.json"

static json_t *
careless_json(void)
{
	json_error_t e;
	json_t *j = json_load_file(CARELESS, 0, &e);

	assert_non_null(j);
	return j;
}

/* The observation `id` of the snapshot text j. */
static json_t *
obs_of(json_t *j, const char *id)
{
	json_t *o;
	size_t i;

	json_array_foreach(json_object_get(j, "observations"), i, o)
		if (strcmp(json_string_value(json_object_get(o, "id")), id) == 0)
			return o;
	fail_msg("no observation %s in %s", id, CARELESS);
	return NULL;
}

/* Set an integer member of the data of observation id. */
static void
set_data(json_t *j, const char *id, const char *key, json_int_t v)
{
	assert_int_equal(json_object_set_new(json_object_get(obs_of(j, id),
	    "data"), key, json_integer(v)), 0);
}

/* Observation id becomes state st, with reason why (NULL: none). */
static void
set_state(json_t *j, const char *id, const char *st, const char *why)
{
	json_t *o = obs_of(j, id);

	assert_int_equal(json_object_set_new(o, "state", json_string(st)), 0);
	assert_int_equal(json_object_set_new(o, "reason", why != NULL ?
	    json_string(why) : json_null()), 0);
}

/* Evaluate the snapshot text j (stolen) into r. */
static void
evaluate(json_t *j, struct fa_results *r)
{
	struct fa_snapshot *s = NULL;
	struct fa_policy *p = fa_policy_new_empty();
	struct fa_eval_ctx ctx;
	char *why = NULL;

	assert_int_equal(fa_snapshot_from_json(j, &s, &why), 0);
	json_decref(j);
	free(why);
	assert_non_null(p);
	ctx.snap = s;
	ctx.policy = p;
	memset(r, 0, sizeof(*r));
	assert_int_equal(fa_evaluate(&ctx, r), 0);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

/* The status of check id's first result on target (NULL: any). */
static enum fa_status
status_of(const struct fa_results *r, const char *id, const char *target,
    const char **reason)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->v[i].check->id, id) == 0 && (target == NULL ||
		    strcmp(r->v[i].target, target) == 0)) {
			if (reason != NULL)
				*reason = r->v[i].reason;
			return r->v[i].status;
		}
	fail_msg("no result of %s", id);
	return FA_ST_MAX;
}

static size_t
count(const struct fa_results *r, enum fa_status st)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		if (r->v[i].check->family == FA_FAM_IB && r->v[i].status == st)
			n++;
	return n;
}

/* Same checks, targets and statuses, result by result. */
static void
same_verdicts(const struct fa_results *a, const struct fa_results *b)
{
	size_t i;

	assert_int_equal(a->n, b->n);
	for (i = 0; i < a->n; i++) {
		assert_string_equal(a->v[i].check->id, b->v[i].check->id);
		assert_string_equal(a->v[i].target, b->v[i].target);
		if (a->v[i].status != b->v[i].status)
			fail_msg("%s %s: %s, was %s (%s)", b->v[i].check->id,
			    b->v[i].target, fa_status_name(b->v[i].status),
			    fa_status_name(a->v[i].status), b->v[i].reason);
	}
}

/* The fixture as recorded: two IB passes and one not_applicable. */
static void
baseline(void **state)
{
	struct fa_results r;

	(void)state;
	evaluate(careless_json(), &r);
	assert_int_equal(status_of(&r, "IB-SM-UNEXPECTED", NULL, NULL),
	    FA_ST_PASS);
	assert_int_equal(status_of(&r, "IB-SA-DISCLOSURE", NULL, NULL),
	    FA_ST_PASS);
	assert_int_equal(status_of(&r, "IB-MKEY-READABLE", NULL, NULL),
	    FA_ST_NOT_APPLICABLE);
	fa_results_free(&r);
}

/*
 * MADs recovered by retries, others left unanswered, a malformed answer
 * ignored, and the key probes no agent answers (the fixture's 22
 * unanswered sends): no verdict moves, since every observation the
 * checks read was seen.
 */
static void
loss_elsewhere_changes_nothing(void **state)
{
	struct fa_results a, b;
	json_t *j = careless_json();

	(void)state;
	evaluate(careless_json(), &a);
	set_data(j, "ib.engine", "recovered", 3);
	set_data(j, "ib.engine", "unanswered", 22);
	set_data(j, "ib.engine", "lost", 25);
	set_data(j, "ib.engine", "lost_sends", 70);
	set_data(j, "ib.engine", "malformed", 1);
	set_data(j, "ib.engine", "silent", 14);
	/* A probe no check reads as an answer, lost after its retries. */
	set_state(j, "ib.gmp.key_probe#37", "no_response",
	    "no response after 7 sends");
	set_data(j, "ib.gmp.key_probe#37", "sends", 7);
	evaluate(j, &b);
	same_verdicts(&a, &b);
	assert_int_equal(count(&b, FA_ST_PASS), 2);
	fa_results_free(&a);
	fa_results_free(&b);
}

/* An answer that needed retries is a complete answer: the pass stays. */
static void
recovered_answer_is_evidence(void **state)
{
	struct fa_results r;
	json_t *j = careless_json();

	(void)state;
	set_data(j, "ib.sa.pkey_table_record#14", "sends", 4);
	set_data(j, "ib.engine", "recovered", 1);
	set_data(j, "ib.engine", "lost", 23);
	evaluate(j, &r);
	assert_int_equal(status_of(&r, "IB-SA-DISCLOSURE", NULL, NULL),
	    FA_ST_PASS);
	assert_int_equal(count(&r, FA_ST_PASS), 2);
	fa_results_free(&r);
}

/*
 * The untrusted SA query (the only observation IB-SA-DISCLOSURE reads)
 * lost: that check is not_tested, saying so; the SM check, read from
 * SMInfo, still passes, and every failure stays.
 */
static void
lost_observation_degrades_its_check_only(void **state)
{
	struct fa_results a, b;
	const char *why = NULL;
	json_t *j = careless_json();

	(void)state;
	evaluate(careless_json(), &a);
	set_state(j, "ib.sa.pkey_table_record#14", "no_response",
	    "no response after 4 sends");
	set_data(j, "ib.sa.pkey_table_record#14", "sends", 4);
	set_data(j, "ib.engine", "unanswered", 23);
	set_data(j, "ib.engine", "lost", 23);
	evaluate(j, &b);
	assert_int_equal(status_of(&b, "IB-SA-DISCLOSURE", NULL, &why),
	    FA_ST_NOT_TESTED);
	assert_non_null(strstr(why, "no response after 4 sends"));
	assert_int_equal(status_of(&b, "IB-SM-UNEXPECTED", NULL, NULL),
	    FA_ST_PASS);
	assert_int_equal(status_of(&b, "IB-MKEY-READABLE", NULL, NULL),
	    FA_ST_NOT_APPLICABLE);
	assert_int_equal(count(&b, FA_ST_FAIL), count(&a, FA_ST_FAIL));
	fa_results_free(&a);
	fa_results_free(&b);
}

/* What was not reached still backs no pass, loss or not; an SA gone
 * backs no pass of what reads the SM or SA. */
static void
unreached_passes_nothing(void **state)
{
	struct fa_results a, b;
	json_t *j;
	size_t i, n_sa, n_smp;

	(void)state;
	evaluate(careless_json(), &a);
	j = careless_json();
	set_state(j, "ib.topology", "incomplete", "TOPOLOGY CUT");
	evaluate(j, &b);
	/* Only what the tenant port alone decides may still pass. */
	assert_int_equal(a.n, b.n);
	for (i = 0; i < b.n; i++) {
		if (b.v[i].check->family != FA_FAM_IB)
			continue;
		if (b.v[i].check->own_port_only)
			assert_int_equal(b.v[i].status, a.v[i].status);
		else {
			assert_int_not_equal(b.v[i].status, FA_ST_PASS);
			assert_int_not_equal(b.v[i].status,
			    FA_ST_NOT_APPLICABLE);
		}
	}
	assert_int_equal(count(&b, FA_ST_FAIL), count(&a, FA_ST_FAIL));
	for (i = 0; i < b.n; i++)
		if (strcmp(b.v[i].check->id, "IB-SM-UNEXPECTED") == 0)
			assert_non_null(strstr(b.v[i].reason, "TOPOLOGY CUT"));
	fa_results_free(&b);
	j = careless_json();
	assert_int_equal(json_array_append_new(json_object_get(j,
	    "observations"), json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, "
	    "s:{s:i, s:i}}", "family", "ib", "id", "ib.sa.alive_after#1",
	    "kind", "ib.sa.alive_after", "target", "sa", "request", "x",
	    "state", "no_response", "reason", "no response after 3 sends",
	    "data", "mad_status", 0, "sends", 3)), 0);
	evaluate(j, &b);
	/*
	 * The SA gone: what reads the SM or SA passes nothing; what the
	 * nodes' SMAs answered keeps its verdict (SMAs answer with or
	 * without an SM, IBA vol. 1 14.2.1).
	 */
	assert_int_equal(a.n, b.n);
	for (i = 0; i < b.n; i++) {
		assert_string_equal(a.v[i].check->id, b.v[i].check->id);
		if (b.v[i].check->family != FA_FAM_IB)
			continue;
		if (!b.v[i].check->reads_sm_sa) {
			if (a.v[i].status != b.v[i].status)
				fail_msg("%s: %s without the SA, %s with it",
				    b.v[i].check->id,
				    fa_status_name(b.v[i].status),
				    fa_status_name(a.v[i].status));
			continue;
		}
		assert_int_not_equal(b.v[i].status, FA_ST_PASS);
		assert_int_not_equal(b.v[i].status, FA_ST_NOT_APPLICABLE);
		if (a.v[i].status == FA_ST_FAIL)
			assert_int_equal(b.v[i].status, FA_ST_FAIL);
	}
	assert_int_equal(count(&b, FA_ST_FAIL), count(&a, FA_ST_FAIL));
	/* It is not vacuous: the careless snapshot has passes of both. */
	for (i = 0, n_sa = n_smp = 0; i < a.n; i++)
		if (a.v[i].check->family == FA_FAM_IB &&
		    (a.v[i].status == FA_ST_PASS ||
		    a.v[i].status == FA_ST_NOT_APPLICABLE)) {
			if (a.v[i].check->reads_sm_sa)
				n_sa++;
			else
				n_smp++;
		}
	assert_true(n_sa > 0);
	assert_true(n_smp > 0);
	fa_results_free(&a);
	fa_results_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(baseline),
		cmocka_unit_test(loss_elsewhere_changes_nothing),
		cmocka_unit_test(recovered_answer_is_evidence),
		cmocka_unit_test(lost_observation_degrades_its_check_only),
		cmocka_unit_test(unreached_passes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
