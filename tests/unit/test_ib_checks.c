/*
 * Unit tests for the IB checks, from hand-written snapshots: every status a
 * check can give (pass, fail, not_tested, error) and the family gate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../checks/check.h"
#include "../../checks/ib_checks.h"
#include "../../core/snapshot.h"

/* A snapshot with the IB family collected and one observation. */
static struct fa_snapshot *
snap_with(const char *ib_state, const char *obs_json)
{
	struct fa_snapshot *s = NULL;
	json_error_t e;
	json_t *j;
	char buf[4096];
	int n;

	n = snprintf(buf, sizeof(buf),
	    "{\"schema\":\"fabaudit-snapshot/1\","
	    "\"families\":{\"ib\":{\"state\":\"%s\",\"reason\":\"test reason\"}},"
	    "\"observations\":[%s]}", ib_state, obs_json);
	assert_true(n > 0 && (size_t)n < sizeof(buf));
	j = json_loads(buf, 0, &e);
	if (j == NULL)
		fail_msg("bad test JSON: %s", e.text);
	assert_int_equal(fa_snapshot_from_json(j, &s, NULL), 0);
	json_decref(j);
	return s;
}

/* Run one check; return the single result's status (asserting one). */
static enum fa_status
run1(const struct fa_check *c, struct fa_snapshot *s, struct fa_results *r)
{
	struct fa_policy *p = fa_policy_new_empty();
	struct fa_eval_ctx ctx = { s, p };

	assert_non_null(p);
	memset(r, 0, sizeof(*r));
	assert_int_equal(c->eval(c, &ctx, r), 0);
	assert_int_equal(r->n, 1);
	fa_policy_free(p);
	return r->v[0].status;
}

#define SMINFO(state, extra) \
	"{\"id\":\"sm1\",\"family\":\"ib\",\"kind\":\"ib.smp.sminfo\"," \
	"\"target\":\"H-0x0000000000100000/1\",\"request\":\"x\"," \
	"\"state\":\"" state "\",\"reason\":null,\"data\":{\"lid\":1," \
	"\"node_desc\":\"ufm-sm01\"" extra "}}"

static void
smkey_nonzero_fails(void **state)
{
	struct fa_snapshot *s = snap_with("collected", SMINFO("complete",
	    ",\"sm_key\":{\"secret\":true,\"value\":\"<redacted>\","
	    "\"zero\":false},\"state\":3,\"priority\":0"));
	struct fa_results r;

	(void)state;
	assert_int_equal(run1(&fa_chk_ib_smkey_disclosed, s, &r), FA_ST_FAIL);
	assert_string_equal(r.v[0].target, "H-0x0000000000100000/1");
	assert_string_equal(r.v[0].target_name, "ufm-sm01");
	assert_int_equal(json_array_size(r.v[0].evidence), 3);
	fa_results_free(&r);
	fa_snapshot_free(s);
}

static void
smkey_zero_passes(void **state)
{
	struct fa_snapshot *s = snap_with("collected", SMINFO("complete",
	    ",\"sm_key\":{\"secret\":true,\"value\":\"0x0000000000000000\","
	    "\"zero\":true},\"state\":3,\"priority\":15"));
	struct fa_results r;

	(void)state;
	assert_int_equal(run1(&fa_chk_ib_smkey_disclosed, s, &r), FA_ST_PASS);
	fa_results_free(&r);
	fa_snapshot_free(s);
}

static void
smkey_timeout_not_tested(void **state)
{
	struct fa_snapshot *s = snap_with("collected",
	    SMINFO("no_response", ""));
	struct fa_results r;

	(void)state;
	assert_int_equal(run1(&fa_chk_ib_smkey_disclosed, s, &r),
	    FA_ST_NOT_TESTED);
	fa_results_free(&r);
	fa_snapshot_free(s);
}

static void
smkey_missing_key_is_error(void **state)
{
	/* Complete, but the key member is absent: never a pass. */
	struct fa_snapshot *s = snap_with("collected", SMINFO("complete",
	    ",\"state\":3"));
	struct fa_results r;

	(void)state;
	assert_int_equal(run1(&fa_chk_ib_smkey_disclosed, s, &r), FA_ST_ERROR);
	fa_results_free(&r);
	fa_snapshot_free(s);
}

static void
smkey_no_sm_not_tested(void **state)
{
	struct fa_snapshot *s = snap_with("collected", "");
	struct fa_results r;

	(void)state;
	assert_int_equal(run1(&fa_chk_ib_smkey_disclosed, s, &r),
	    FA_ST_NOT_TESTED);
	fa_results_free(&r);
	fa_snapshot_free(s);
}

static void
smkey_family_unavailable(void **state)
{
	struct fa_snapshot *s = snap_with("unavailable", SMINFO("complete",
	    ",\"sm_key\":{\"secret\":true,\"value\":\"x\",\"zero\":false}"));
	struct fa_results r;

	(void)state;
	assert_int_equal(run1(&fa_chk_ib_smkey_disclosed, s, &r),
	    FA_ST_NOT_TESTED);
	assert_non_null(strstr(r.v[0].reason, "test reason"));
	fa_results_free(&r);
	fa_snapshot_free(s);
}

static void
smkey_family_failed_is_error(void **state)
{
	struct fa_snapshot *s = snap_with("failed", "");
	struct fa_results r;

	(void)state;
	assert_int_equal(run1(&fa_chk_ib_smkey_disclosed, s, &r), FA_ST_ERROR);
	fa_results_free(&r);
	fa_snapshot_free(s);
}

#define PKEYS(state, pkeys, got) \
	"{\"id\":\"pk1\",\"family\":\"ib\",\"kind\":\"ib.smp.pkey_table\"," \
	"\"target\":\"H-0x0000000000100002/1\",\"request\":\"x\"," \
	"\"state\":\"" state "\",\"reason\":\"r\",\"data\":{\"role\":" \
	"\"local\",\"node_desc\":\"acme-gpu-01\",\"blocks_total\":2," \
	"\"blocks_read\":" got ",\"pkeys\":[" pkeys "]}}"

static enum fa_status
pkey_status(const char *ib, const char *obs)
{
	struct fa_snapshot *s = snap_with(ib, obs);
	struct fa_results r;
	enum fa_status st;

	st = run1(&fa_chk_ib_pkey_default_full, s, &r);
	fa_results_free(&r);
	fa_snapshot_free(s);
	return st;
}

static void
pkey_full_default_fails(void **state)
{
	(void)state;
	assert_int_equal(pkey_status("collected", PKEYS("complete",
	    "\"0x8001\",\"0xffff\"", "2")), FA_ST_FAIL);
	/* Found in a partial read: still a failure. */
	assert_int_equal(pkey_status("collected", PKEYS("incomplete",
	    "\"0xffff\"", "1")), FA_ST_FAIL);
}

static void
pkey_limited_default_passes(void **state)
{
	(void)state;
	assert_int_equal(pkey_status("collected", PKEYS("complete",
	    "\"0x7fff\",\"0x8001\"", "2")), FA_ST_PASS);
	assert_int_equal(pkey_status("collected", PKEYS("complete",
	    "\"0x8001\"", "2")), FA_ST_PASS);
}

static void
pkey_partial_not_tested(void **state)
{
	(void)state;
	assert_int_equal(pkey_status("collected", PKEYS("incomplete",
	    "\"0x7fff\"", "1")), FA_ST_NOT_TESTED);
	assert_int_equal(pkey_status("collected", PKEYS("no_response", "",
	    "0")), FA_ST_NOT_TESTED);
	assert_int_equal(pkey_status("collected", ""), FA_ST_NOT_TESTED);
	assert_int_equal(pkey_status("not_requested", ""), FA_ST_NOT_TESTED);
}

static void
pkey_malformed_is_error(void **state)
{
	(void)state;
	assert_int_equal(pkey_status("collected", PKEYS("complete",
	    "\"0x7fff\",\"0x10000\"", "2")), FA_ST_ERROR);
	assert_int_equal(pkey_status("collected", PKEYS("complete",
	    "\"0x7fff\",7", "2")), FA_ST_ERROR);
	assert_int_equal(pkey_status("collected", PKEYS("error", "", "0")),
	    FA_ST_ERROR);
}

static void
evaluate_applies_severity_override(void **state)
{
	struct fa_snapshot *s = snap_with("collected", "");
	struct fa_policy *p = NULL;
	struct fa_eval_ctx ctx;
	struct fa_results r = { NULL, 0, 0 };
	const char *text = "severity IB-PKEY-DEFAULT-FULL low\n";
	size_t i;

	(void)state;
	assert_int_equal(fa_policy_parse("t.conf", text, strlen(text), 0, &p,
	    NULL), 0);
	ctx.snap = s;
	ctx.policy = p;
	assert_int_equal(fa_evaluate(&ctx, &r), 0);
	/* Every registered check yields at least one result. */
	assert_true(r.n >= 2);
	for (i = 0; i < r.n; i++)
		if (strcmp(r.v[i].check->id, "IB-PKEY-DEFAULT-FULL") == 0)
			assert_int_equal(r.v[i].severity, FA_SEV_LOW);
		else
			assert_int_equal(r.v[i].severity, r.v[i].check->severity);
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

static void
evaluate_marks_waived_failures(void **state)
{
	struct fa_snapshot *s = snap_with("collected", PKEYS("complete",
	    "\"0xffff\"", "2"));
	struct fa_policy *p = NULL;
	struct fa_eval_ctx ctx;
	struct fa_results r = { NULL, 0, 0 };
	const char *text =
	    "waive IB-PKEY-DEFAULT-FULL H-0x0000000000100002/* 2099-01-31 "
	    "\"fixed in Q1\"\n"
	    "waive IB-SMKEY-DISCLOSED H-0x9* 2099-01-31 \"other target\"\n";
	size_t i, waived = 0;

	(void)state;
	assert_int_equal(fa_policy_parse("t.conf", text, strlen(text), 0, &p,
	    NULL), 0);
	ctx.snap = s;
	ctx.policy = p;
	assert_int_equal(fa_evaluate(&ctx, &r), 0);
	for (i = 0; i < r.n; i++) {
		if (r.v[i].waiver_reason == NULL)
			continue;
		waived++;
		/* The finding stays a failure, only marked. */
		assert_string_equal(r.v[i].check->id, "IB-PKEY-DEFAULT-FULL");
		assert_int_equal(r.v[i].status, FA_ST_FAIL);
		assert_string_equal(r.v[i].waiver_reason, "fixed in Q1");
		assert_string_equal(r.v[i].waiver_expires, "2099-01-31");
		assert_int_equal(r.v[i].waiver_line, 1);
	}
	assert_int_equal(waived, 1);
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

static void
registry_ids_are_published(void **state)
{
	const struct fa_check *const *c;

	(void)state;
	for (c = fa_checks; *c != NULL; c++) {
		assert_true(fa_check_id_valid((*c)->id));
		assert_true(fa_check_id_known((*c)->id));
		assert_ptr_equal(fa_check_find((*c)->id), *c);
		assert_non_null((*c)->title);
		assert_non_null((*c)->rationale);
		assert_non_null((*c)->remediation);
		assert_non_null((*c)->msa_clause);
		assert_non_null((*c)->refs);
		assert_non_null((*c)->refs[0]);
		assert_non_null((*c)->eval);
	}
	assert_null(fa_check_find("IB-NO-SUCH-CHECK"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(smkey_nonzero_fails),
		cmocka_unit_test(smkey_zero_passes),
		cmocka_unit_test(smkey_timeout_not_tested),
		cmocka_unit_test(smkey_missing_key_is_error),
		cmocka_unit_test(smkey_no_sm_not_tested),
		cmocka_unit_test(smkey_family_unavailable),
		cmocka_unit_test(smkey_family_failed_is_error),
		cmocka_unit_test(pkey_full_default_fails),
		cmocka_unit_test(pkey_limited_default_passes),
		cmocka_unit_test(pkey_partial_not_tested),
		cmocka_unit_test(pkey_malformed_is_error),
		cmocka_unit_test(evaluate_applies_severity_override),
		cmocka_unit_test(evaluate_marks_waived_failures),
		cmocka_unit_test(registry_ids_are_published),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
