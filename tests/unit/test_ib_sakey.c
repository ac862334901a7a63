/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the SA access checks (checks/ib_sa_checks.c) against what
 * OpenSM really does with the two PKeyTableRecord queries of the tenant's
 * own port (opensm osm_sa_mad_ctrl.c and osm_sa_pkey_record.c):
 *
 *  - a request whose SM_Key is non-zero and differs from opt.sa_key is
 *    dropped without an answer (ERR 1A04);
 *  - a PKeyTableRecord request whose SM_Key differs from opt.sa_key is
 *    refused with 0x0200 (ERR 4608); one whose SM_Key equals it is trusted
 *    and gets the records.
 *
 * So with `sa_key 0x0` the untrusted query (SM_Key 0) gets the records and
 * every send of the SM_Key 1 query is dropped: the key every requester
 * sends is trusted,
 * IB-SAKEY-DEFAULT fails.  With OpenSM's default sa_key (1,
 * OSM_DEFAULT_SA_KEY in osm_base.h) the SM_Key 1 query gets the records:
 * fail.  With a random key the SM_Key 1 query is dropped and the untrusted
 * one refused: pass, unless a send to the SA was seen lost in the run, or
 * the keyed query was sent only once (older scans), when the silence may
 * be loss.  Each verdict is written from that, not from
 * what the check printed.
 *
 * The observations are written as fabric/ib_sa.c and fabric/ib_local.c
 * write them (kinds, targets, data members).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../../checks/check.h"
#include "../../checks/ib_checks.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"
#include "ib_snap.h"

#define NOW		((time_t)1796205600)	/* 2026-12-02T10:00:00Z */
#define SELF_LID	4
#define SM_LID		1
#define POLICY		"tenant_node acme-*\nprovider_node ufm-*\n"

/* ---- observations as fabric/ib_*.c writes them ------------------------ */

/* ib.local_port: the tenant port, LID SELF_LID (fabric/ib_local.c). */
static char *
o_local(void)
{
	return obs("ib.local", "ib.local_port", "H-0x0002c90300000100/1",
	    "umad port attributes", "complete", NULL, "{\"ca\":\"mlx5_0\","
	    "\"port\":1,\"lid\":4,\"sm_lid\":1,\"node_desc\":\"acme-gpu-01 "
	    "mlx5_0\",\"node_type\":\"CA\",\"port_guid\":"
	    "\"0x0002c90300000101\",\"node_guid\":\"0x0002c90300000100\"}");
}

static char *
reason_of(const char *state, int mad_status, int sends)
{
	if (strcmp(state, "complete") == 0)
		return NULL;
	if (strcmp(state, "rejected") == 0)
		return xfmt("answered with MAD status 0x%04x", mad_status);
	if (strcmp(state, "no_response") == 0)
		return xfmt("no response after %d sends", sends);
	return xfmt("the request could not be sent");
}

/*
 * ib.sa.pkey_table_record of our own port: target "sa/untrusted" (SM_Key
 * 0) or "sa/trusted-default-key" (SM_Key 1), with `sends` sends.
 */
static char *
o_pktr(int keyed, const char *state, int mad_status, int records, int sends)
{
	char *d, *o, *req, *why = reason_of(state, mad_status, sends);

	d = xfmt("{\"sm_key_sent\":\"%s\",\"trusted_query\":%s,\"records\":%d,"
	    "\"mad_status\":%d,\"sends\":%d}", keyed ? "1 (OpenSM default)" :
	    "0", keyed ? "true" : "false", records, mad_status, sends);
	req = xfmt("SubnAdmGet(PKeyTableRecord) LID %d to the SA at LID %d, "
	    "SM_Key %s", SELF_LID, SM_LID, keyed ? "1 (OpenSM default)" : "0");
	o = obs(keyed ? "ib.sa.pkey_table_record#2" :
	    "ib.sa.pkey_table_record#1", "ib.sa.pkey_table_record", keyed ?
	    "sa/trusted-default-key" : "sa/untrusted", req, state, why, d);
	free(d);
	free(req);
	free(why);
	return o;
}

/* ib.sa.sminfo_records, in `state` after `sends` sends. */
static char *
o_smir(const char *state, int sends)
{
	char *d, *o, *why = reason_of(state, 0, sends);

	d = xfmt("{\"sms\":[%s],\"mad_status\":0,\"sends\":%d}",
	    strcmp(state, "complete") == 0 ? "{\"lid\":1,\"priority\":15,"
	    "\"state\":3,\"guid\":\"0x0002c90300000201\"}" : "", sends);
	o = obs("ib.sa.sminfo_records#3", "ib.sa.sminfo_records", "sa",
	    "SubnAdmGetTable(SMInfoRecord) to the SA at LID 1, SM_Key 0",
	    state, why, d);
	free(d);
	free(why);
	return o;
}

/* Observations (malloc'd, consumed), NULL-terminated; IB collected. */
static struct fa_snapshot *
snap(const char *first, ...)
{
	struct fa_snapshot *s = NULL;
	json_error_t e;
	va_list ap;
	json_t *j;
	char *sb, *n, *why = NULL;
	const char *o;
	int k = 0;

	sb = xfmt("{\"schema\":\"fabaudit-snapshot/1\",\"tool\":{\"name\":"
	    "\"fabaudit\"},\"families\":{\"ib\":{\"state\":\"collected\","
	    "\"reason\":null},\"eth\":{\"state\":\"not_requested\"}},"
	    "\"observations\":[");
	va_start(ap, first);
	for (o = first; o != NULL; o = va_arg(ap, const char *)) {
		n = xfmt("%s%s%s", sb, k++ > 0 ? "," : "", o);
		free(sb);
		free((char *)o);
		sb = n;
	}
	va_end(ap);
	n = xfmt("%s]}", sb);
	free(sb);
	j = json_loads(n, 0, &e);
	if (j == NULL)
		fail_msg("bad test JSON: %s at %d: %s", e.text, e.position, n);
	free(n);
	if (fa_snapshot_from_json(j, &s, &why) != 0)
		fail_msg("snapshot rejected: %s", why != NULL ? why : "?");
	json_decref(j);
	return s;
}

/* ---- running checks --------------------------------------------------- */

struct verdict {
	enum fa_status	 st;
	char		 reason[512];
	char		 reproduce[128];
	char		 obs[64];	/* the observation of "records" */
	size_t		 n;
};

/* Evaluate c on s (consumed); everything freed before asserting. */
static struct verdict
judge(const struct fa_check *c, struct fa_snapshot *s)
{
	struct fa_policy *p = NULL;
	struct fa_results r;
	struct fa_eval_ctx ctx;
	struct verdict v;
	const json_t *e;
	const char *f, *val;
	char *errs = NULL;
	size_t i;
	int rc;

	memset(&v, 0, sizeof(v));
	v.st = FA_ST_MAX;
	if (fa_policy_parse("t.conf", POLICY, strlen(POLICY), NOW, &p,
	    &errs) != 0)
		fail_msg("policy rejected: %s", errs != NULL ? errs : "?");
	ctx.snap = s;
	ctx.policy = p;
	memset(&r, 0, sizeof(r));
	rc = c->eval(c, &ctx, &r);
	v.n = r.n;
	if (r.n > 0) {
		v.st = r.v[0].status;
		snprintf(v.reason, sizeof(v.reason), "%s", r.v[0].reason);
		json_array_foreach(r.v[0].evidence, i, e) {
			f = json_string_value(json_object_get(e, "field"));
			if (f == NULL)
				continue;
			if (strcmp(f, "reproduce") == 0 && (val =
			    json_string_value(json_object_get(e, "value"))) !=
			    NULL)
				snprintf(v.reproduce, sizeof(v.reproduce), "%s",
				    val);
			if (strcmp(f, "records") == 0 && (val =
			    json_string_value(json_object_get(e,
			    "observation"))) != NULL)
				snprintf(v.obs, sizeof(v.obs), "%s", val);
		}
	}
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
	assert_int_equal(rc, 0);
	assert_int_equal(v.n, 1);
	return v;
}

static void
expect(const struct verdict *v, enum fa_status st, const char *needle,
    const char *reproduce)
{
	if (v->st != st)
		fail_msg("gave %s (expected %s): %s", fa_status_name(v->st),
		    fa_status_name(st), v->reason);
	if (needle != NULL && strstr(v->reason, needle) == NULL)
		fail_msg("reason \"%s\" lacks \"%s\"", v->reason, needle);
	if (reproduce != NULL && strcmp(v->reproduce, reproduce) != 0)
		fail_msg("reproduce \"%s\" (expected \"%s\")", v->reproduce,
		    reproduce);
}

#define SAKEY	(&fa_chk_ib_sakey_default)
#define DISC	(&fa_chk_ib_sa_disclosure)

/* ---- sa_key 0x0 ------------------------------------------------------- */

/*
 * OpenSM with sa_key 0: the untrusted query is trusted and answered with
 * the record; the SM_Key 1 query is dropped, each of its 3 sends.  The
 * answer proves the SA_Key protects nothing: fail, reproduced by the same
 * untrusted query of our own LID.
 */
static void
sakey_zero_fails(void **state)
{
	struct verdict v;

	(void)state;
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "complete", 0, 1, 1),
	    o_pktr(1, "no_response", 0, 0, 3), o_smir("complete", 1), NULL));
	expect(&v, FA_ST_FAIL, "SM_Key 0", "saquery PKTR 4");
	assert_string_equal(v.obs, "ib.sa.pkey_table_record#1");
	/* The same, whatever became of the keyed query. */
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "complete", 0, 1, 1),
	    NULL));
	expect(&v, FA_ST_FAIL, "SM_Key 0", "saquery PKTR 4");
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "complete", 0, 1, 1),
	    o_pktr(1, "error", 0, 0, 0), NULL));
	expect(&v, FA_ST_FAIL, "SM_Key 0", "saquery PKTR 4");
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "complete", 0, 1, 1),
	    o_pktr(1, "rejected", 0x000c, 0, 1), NULL));
	expect(&v, FA_ST_FAIL, "SM_Key 0", "saquery PKTR 4");
	/* A lost send elsewhere changes nothing: an answer is no loss. */
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "complete", 0, 1, 3),
	    o_pktr(1, "no_response", 0, 0, 3), o_smir("no_response", 4),
	    NULL));
	expect(&v, FA_ST_FAIL, "SM_Key 0", "saquery PKTR 4");
}

/* IB-SA-DISCLOSURE on the same SA: fails, reproducible the same way. */
static void
disclosure_zero_fails(void **state)
{
	struct verdict v;

	(void)state;
	v = judge(DISC, snap(o_local(), o_pktr(0, "complete", 0, 1, 1),
	    o_pktr(1, "no_response", 0, 0, 3), NULL));
	expect(&v, FA_ST_FAIL, "untrusted", "saquery PKTR 4");
	/* Refused (any key but 0): pass, reproduced by the refusal. */
	v = judge(DISC, snap(o_local(), o_pktr(0, "rejected", 0x0200, 0, 1),
	    NULL));
	expect(&v, FA_ST_PASS, NULL, "saquery PKTR 4");
}

/* ---- OpenSM's default sa_key 1 ---------------------------------------- */

static void
sakey_default_fails(void **state)
{
	struct verdict v;

	(void)state;
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0200, 0, 1),
	    o_pktr(1, "complete", 0, 1, 1), o_smir("complete", 1), NULL));
	expect(&v, FA_ST_FAIL, "SM_Key 1", "saquery --smkey 1 PKTR 4");
	assert_string_equal(v.obs, "ib.sa.pkey_table_record#2");
	/* No local port observation: a placeholder, never a wrong LID. */
	v = judge(SAKEY, snap(o_pktr(0, "rejected", 0x0200, 0, 1),
	    o_pktr(1, "complete", 0, 1, 1), NULL));
	expect(&v, FA_ST_FAIL, "SM_Key 1", "saquery --smkey 1 PKTR <own-lid>");
}

/* ---- a random sa_key --------------------------------------------------- */

/*
 * The untrusted query refused with 0x0200, the SM_Key 1 query dropped
 * through its 3 sends, no other SA send lost: 1 is not the key.  Older
 * scans sent it once: one silent send may as well be one lost send, the
 * false pass test_faults met under random loss.
 */
static void
sakey_random_passes(void **state)
{
	struct verdict v;

	(void)state;
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0200, 0, 1),
	    o_pktr(1, "no_response", 0, 0, 3), o_smir("complete", 1), NULL));
	expect(&v, FA_ST_PASS, "1 is not its SA_Key",
	    "saquery --smkey 1 PKTR 4");
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0200, 0, 1),
	    o_pktr(1, "no_response", 0, 0, 1), o_smir("complete", 1), NULL));
	expect(&v, FA_ST_NOT_TESTED, "sent only once", NULL);
}

/*
 * The same silence while a send to the SA was seen lost (the control, or
 * another SA query, needed a retry or went unanswered): the SM_Key 1
 * query may have been lost too.  Not a pass.
 */
static void
sakey_silence_with_sa_loss_not_tested(void **state)
{
	struct verdict v;

	(void)state;
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0200, 0, 2),
	    o_pktr(1, "no_response", 0, 0, 3), o_smir("complete", 1), NULL));
	expect(&v, FA_ST_NOT_TESTED, "may be loss", NULL);
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0200, 0, 1),
	    o_pktr(1, "no_response", 0, 0, 3), o_smir("no_response", 4),
	    NULL));
	expect(&v, FA_ST_NOT_TESTED, "unanswered", NULL);
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0200, 0, 1),
	    o_pktr(1, "no_response", 0, 0, 3), o_smir("complete", 2), NULL));
	expect(&v, FA_ST_NOT_TESTED, "lost send", NULL);
}

/*
 * "No records" to both queries: the key changed nothing, so the SM_Key 1
 * answer says nothing of the key (an SA that filters untrusted requests
 * so would be called "default key" otherwise).
 */
static void
sakey_same_answer_not_tested(void **state)
{
	struct verdict v;

	(void)state;
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0300, 0, 1),
	    o_pktr(1, "rejected", 0x0300, 0, 1), NULL));
	expect(&v, FA_ST_NOT_TESTED, "made no difference", NULL);
	/* A different answer to the untrusted query: trusted, fail. */
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0200, 0, 1),
	    o_pktr(1, "rejected", 0x0300, 0, 1), NULL));
	expect(&v, FA_ST_FAIL, "0x0300", NULL);
}

/*
 * Silence to SM_Key 1 says "not its key" only from an SA that checks
 * keys: one that refused the untrusted control.  A control answered "no
 * records" about the requester's own LID (which has a table) shows no
 * key check, so the silence proves nothing.
 */
static void
sakey_silence_needs_refusal(void **state)
{
	struct verdict v;

	(void)state;
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0300, 0, 1),
	    o_pktr(1, "no_response", 0, 0, 3), o_smir("complete", 1), NULL));
	expect(&v, FA_ST_NOT_TESTED, "did not refuse the untrusted control "
	    "(answered with MAD status 0x0300)", NULL);
	assert_null(strstr(v.reason, "(null)"));
	v = judge(SAKEY, snap(o_local(), o_pktr(0, "rejected", 0x0200, 0, 1),
	    o_pktr(1, "no_response", 0, 0, 3), o_smir("complete", 1), NULL));
	expect(&v, FA_ST_PASS, "dropped", NULL);
}

/* The texts that make fabaudit-checks(7) say what is sent and decided. */
static void
sakey_texts(void **state)
{
	(void)state;
	assert_non_null(strstr(SAKEY->sends, "logs each send of it"));
	assert_null(strstr(SAKEY->sends, "never retried"));
	assert_non_null(strstr(SAKEY->outcomes, "untrusted query (SM_Key "
	    "0)"));
	assert_null(strstr(SAKEY->outcomes, "enforces no trust"));
	assert_non_null(strstr(SAKEY->rationale, "sa_key 0"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sakey_zero_fails),
		cmocka_unit_test(disclosure_zero_fails),
		cmocka_unit_test(sakey_default_fails),
		cmocka_unit_test(sakey_random_passes),
		cmocka_unit_test(sakey_silence_with_sa_loss_not_tested),
		cmocka_unit_test(sakey_same_answer_not_tested),
		cmocka_unit_test(sakey_silence_needs_refusal),
		cmocka_unit_test(sakey_texts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
