/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the model and rendering: number parsing, sanitising of
 * hostile strings, snapshot round trip and validation, secret redaction,
 * report JSON/txt content, and atomic writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../checks/check.h"
#include "../../core/errors.h"
#include "../../core/snapshot.h"
#include "../../core/util.h"
#include "../../reports/report.h"
#include "emit_sink.h"

static void
parse_numbers(void **state)
{
	uint64_t v;
	const char *err;

	(void)state;
	assert_int_equal(fa_parse_u64("42", 0, 100, &v, &err), 0);
	assert_int_equal(v, 42);
	assert_int_equal(fa_parse_u64("0x2A", 0, 100, &v, &err), 0);
	assert_int_equal(v, 42);
	assert_int_equal(fa_parse_u64("101", 0, 100, &v, &err), FA_ERR_INPUT);
	assert_string_equal(err, "too large");
	assert_int_equal(fa_parse_u64("1", 2, 100, &v, &err), FA_ERR_INPUT);
	assert_string_equal(err, "too small");
	assert_int_equal(fa_parse_u64("", 0, 1, &v, &err), FA_ERR_INPUT);
	assert_int_equal(fa_parse_u64("-1", 0, 1, &v, &err), FA_ERR_INPUT);
	assert_int_equal(fa_parse_u64(" 1", 0, 1, &v, &err), FA_ERR_INPUT);
	assert_int_equal(fa_parse_u64("1x", 0, 9, &v, &err), FA_ERR_INPUT);
	assert_int_equal(fa_parse_u64("0x", 0, 9, &v, &err), FA_ERR_INPUT);
	assert_int_equal(fa_parse_u64("0x0x5", 0, 9, &v, &err), FA_ERR_INPUT);
	assert_int_equal(fa_parse_u64("0x-5", 0, 9, &v, &err), FA_ERR_INPUT);
	assert_int_equal(fa_parse_hex64("0x0x5", &v, &err), FA_ERR_INPUT);
	assert_int_equal(fa_parse_u64("99999999999999999999", 0, UINT64_MAX,
	    &v, &err), FA_ERR_INPUT);
	assert_int_equal(fa_parse_hex64("0xffffffffffffffff", &v, &err), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(fa_parse_hex64("0x1ffffffffffffffff", &v, &err),
	    FA_ERR_INPUT);
	assert_int_equal(fa_parse_hex64("12", &v, &err), FA_ERR_INPUT);
}

static void
sanitize_hostile(void **state)
{
	const char raw[] = "<script>\x01\x7f\xff\\ok";
	char *s;

	(void)state;
	s = fa_str_sanitize(raw, sizeof(raw));
	assert_non_null(s);
	assert_string_equal(s, "<script>\\x01\\x7f\\xff\\x5cok");
	free(s);
	/* Stops at NUL and at len. */
	s = fa_str_sanitize("ab\0cd", 5);
	assert_string_equal(s, "ab");
	free(s);
	s = fa_str_sanitize("abcdef", 3);
	assert_string_equal(s, "abc");
	free(s);
}

static struct fa_snapshot *
sample(void)
{
	struct fa_snapshot *s = fa_snapshot_new();
	json_t *d;

	assert_non_null(s);
	assert_int_equal(fa_snapshot_set_family(s, FA_FAM_IB,
	    FA_FAMST_COLLECTED, NULL), 0);
	assert_int_equal(fa_snapshot_set_policy(s, "p.conf",
	    "tenant_node acme-*\n"), 0);
	d = json_pack("{s:o, s:s}", "sm_key", fa_secret_new(0x1122334455667788ULL),
	    "node_desc", "<script>alert(1)</script>\x1b]0;owned\x07\r");
	assert_non_null(d);
	assert_int_equal(json_object_set_new(d, "state", json_integer(3)), 0);
	assert_int_equal(json_object_set_new(d, "priority", json_integer(0)),
	    0);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, NULL, "ib.smp.sminfo",
	    "H-0x1/1\x1b[2J", "SubnGet(SMInfo)", FA_OBS_COMPLETE, NULL, d,
	    NULL), 0);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, NULL, "ib.smp.sminfo",
	    "H-0x2/1", "SubnGet(SMInfo)", FA_OBS_NO_RESPONSE, "timed out",
	    NULL, NULL), 0);
	return s;
}

static void
snapshot_round_trip(void **state)
{
	struct fa_snapshot *s = sample(), *t = NULL;
	json_t *j, *k;
	size_t it = 0;
	const struct fa_obs *o;

	(void)state;
	j = fa_snapshot_to_json(s, 1);
	assert_non_null(j);
	assert_int_equal(fa_snapshot_from_json(j, &t, NULL), 0);
	k = fa_snapshot_to_json(t, 1);
	assert_true(json_equal(j, k));
	assert_string_equal(t->policy_name, "p.conf");
	assert_int_equal(t->fam[FA_FAM_IB].state, FA_FAMST_COLLECTED);
	o = fa_snapshot_next(t, "ib.smp.sminfo", &it);
	assert_non_null(o);
	assert_string_equal(o->id, "ib.smp.sminfo#1");
	o = fa_snapshot_next(t, "ib.smp.sminfo", &it);
	assert_int_equal(o->state, FA_OBS_NO_RESPONSE);
	assert_string_equal(o->reason, "timed out");
	assert_null(fa_snapshot_next(t, "ib.smp.sminfo", &it));
	assert_non_null(fa_snapshot_find(t, "ib.smp.sminfo", "H-0x2/1"));
	assert_null(fa_snapshot_find(t, "ib.smp.sminfo", "H-0x3/1"));
	json_decref(j);
	json_decref(k);
	fa_snapshot_free(s);
	fa_snapshot_free(t);
}

/*
 * In parts (the acquisition child's answer): the head, then each
 * observation, gives the same snapshot; a bad observation is refused with
 * its index.
 */
static void
snapshot_in_parts(void **state)
{
	struct fa_snapshot *s = sample(), *t = NULL;
	json_t *j, *k, *bad;
	char *why = NULL;
	size_t i;

	(void)state;
	j = fa_snapshot_head_json(s, 1);
	assert_non_null(j);
	assert_int_equal(fa_snapshot_head_from_json(j, &t, NULL), 0);
	json_decref(j);
	assert_int_equal(t->nobs, 0);
	for (i = 0; i < s->nobs; i++) {
		j = fa_snapshot_obs_json(s, i, 1);
		assert_int_equal(fa_snapshot_obs_from_json(t, j, i, NULL), 0);
		json_decref(j);
	}
	j = fa_snapshot_to_json(s, 1);
	k = fa_snapshot_to_json(t, 1);
	assert_true(json_equal(j, k));
	bad = json_pack("{s:s}", "id", "x");
	assert_int_equal(fa_snapshot_obs_from_json(t, bad, 7, &why),
	    FA_ERR_INPUT);
	assert_string_equal(why, "observations[7] is malformed");
	free(why);
	json_decref(bad);
	json_decref(j);
	json_decref(k);
	fa_snapshot_free(s);
	fa_snapshot_free(t);
}

/* fa_snapshot_flush(): how many observations the hook saw, each call. */
static void
count_flush(struct fa_snapshot *s, void *arg)
{
	size_t *seen = arg;

	*seen = s->nobs;
}

/*
 * The acquisition child's order (scanner/privsep.c): observations sent
 * as they become final (the flush hook), the head last.  Read that way,
 * through a bare snapshot whose observations then move under the head,
 * the snapshot is the one sent; a snapshot that has observations takes
 * no more that way.
 */
static void
snapshot_obs_before_head(void **state)
{
	struct fa_snapshot *s = sample(), *got, *t = NULL;
	size_t i, seen = 0;
	json_t *j, *k;

	(void)state;
	fa_snapshot_flush(s);		/* no hook: nothing happens */
	s->flush = count_flush;
	s->flush_arg = &seen;
	fa_snapshot_flush(s);
	assert_int_equal(seen, s->nobs);
	assert_non_null(got = fa_snapshot_new());
	for (i = 0; i < s->nobs; i++) {
		j = fa_snapshot_obs_json(s, i, 1);
		assert_int_equal(fa_snapshot_obs_from_json(got, j, i, NULL), 0);
		json_decref(j);
	}
	j = fa_snapshot_head_json(s, 1);
	assert_int_equal(fa_snapshot_head_from_json(j, &t, NULL), 0);
	json_decref(j);
	assert_int_equal(fa_snapshot_move_obs(t, got), 0);
	assert_int_equal(got->nobs, 0);
	assert_null(got->pool);
	assert_int_equal(fa_snapshot_move_obs(t, s), FA_ERR_INTERNAL);
	j = fa_snapshot_to_json(s, 1);
	k = fa_snapshot_to_json(t, 1);
	assert_true(json_equal(j, k));
	json_decref(j);
	json_decref(k);
	fa_snapshot_free(got);
	fa_snapshot_free(s);
	fa_snapshot_free(t);
}

static void
snapshot_redacts_secrets(void **state)
{
	struct fa_snapshot *s = sample();
	json_t *j;
	char *text;

	(void)state;
	j = fa_snapshot_to_json(s, 0);
	text = json_dumps(j, 0);
	assert_null(strstr(text, "1122334455667788"));
	assert_non_null(strstr(text, FA_REDACTED));
	assert_non_null(strstr(text, "\"zero\": false"));
	free(text);
	json_decref(j);
	j = fa_snapshot_to_json(s, 1);
	text = json_dumps(j, 0);
	assert_non_null(strstr(text, "0x1122334455667788"));
	free(text);
	json_decref(j);
	fa_snapshot_free(s);
}

static int
load_text(const char *text)
{
	struct fa_snapshot *s = NULL;
	json_t *j = json_loads(text, JSON_ALLOW_NUL, NULL);
	char *why = NULL;
	int r;

	assert_non_null(j);
	r = fa_snapshot_from_json(j, &s, &why);
	if (r == 0)
		assert_non_null(s);
	else {
		assert_null(s);
		assert_non_null(why);
	}
	free(why);
	fa_snapshot_free(s);
	json_decref(j);
	return r;
}

static void
snapshot_rejects_malformed(void **state)
{
	(void)state;
#define HDR "{\"schema\":\"fabaudit-snapshot/1\",\"families\":{},"
	assert_int_equal(load_text(HDR "\"observations\":[]}"), 0);
	assert_int_equal(load_text("[]"), FA_ERR_INPUT);
	assert_int_equal(load_text("{\"schema\":\"other/1\",\"families\":{},"
	    "\"observations\":[]}"), FA_ERR_INPUT);
	assert_int_equal(load_text(HDR "\"observations\":{}}"), FA_ERR_INPUT);
	assert_int_equal(load_text(HDR "\"observations\":[{\"id\":\"a\","
	    "\"family\":\"ib\",\"kind\":\"k\",\"target\":\"t\",\"request\":"
	    "\"r\",\"state\":\"bogus\",\"data\":{}}]}"), FA_ERR_INPUT);
	assert_int_equal(load_text(HDR "\"observations\":[{\"id\":\"a\","
	    "\"family\":\"xx\",\"kind\":\"k\",\"target\":\"t\",\"request\":"
	    "\"r\",\"state\":\"complete\",\"data\":{}}]}"), FA_ERR_INPUT);
	assert_int_equal(load_text(HDR "\"observations\":[{\"id\":\"a\","
	    "\"family\":\"ib\",\"kind\":\"k\",\"target\":\"t\",\"request\":"
	    "\"r\",\"state\":\"complete\",\"data\":[]}]}"), FA_ERR_INPUT);
	assert_int_equal(load_text(HDR "\"observations\":[{\"id\":\"a\","
	    "\"family\":\"ib\",\"kind\":\"k\",\"target\":\"t\\u0000x\","
	    "\"request\":\"r\",\"state\":\"complete\",\"data\":{}}]}"),
	    FA_ERR_INPUT);
	assert_int_equal(load_text("{\"schema\":\"fabaudit-snapshot/1\","
	    "\"families\":{\"ib\":{\"state\":\"nope\"}},\"observations\":[]}"),
	    FA_ERR_INPUT);
#undef HDR
}


static void
report_json_and_txt(void **state)
{
	struct fa_snapshot *s = sample();
	struct fa_policy *p = fa_policy_new_empty();
	struct fa_eval_ctx ectx = { s, p };
	struct fa_results res = { NULL, 0, 0 };
	struct fa_report_ctx rc;
	struct fa_tally t;
	json_t *j, *r;
	char *text, *txt;
	const char *c;
	size_t i, k, n;

	(void)state;
	assert_int_equal(fa_evaluate(&ectx, &res), 0);
	memset(&rc, 0, sizeof(rc));
	rc.snap = s;
	rc.res = &res;
	rc.fail_on = FA_SEV_HIGH;
	rc.mode = "scan";
	j = fa_report_json(&rc);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "schema")),
	    FA_REPORT_SCHEMA);
	fa_tally(&res, FA_SEV_HIGH, &t);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j,
	    "summary"), "fail")), t.by_status[FA_ST_FAIL]);
	assert_int_equal(t.by_status[FA_ST_FAIL], 1);	/* the SM key */
	assert_int_equal(json_array_size(json_object_get(j, "results")),
	    res.n);
	/* Schema 2: each check's texts once, in "checks", none in a result;
	 * fa_report_text() finds them for each result. */
	for (i = 0; i < res.n; i++) {
		r = json_array_get(json_object_get(j, "results"), i);
		assert_null(json_object_get(r, "remediation"));
		assert_null(json_object_get(r, "references"));
		assert_string_equal(json_string_value(fa_report_text(j, r,
		    "remediation")), res.v[i].check->remediation);
		assert_string_equal(json_string_value(fa_report_text(j, r,
		    "msa_clause")), res.v[i].check->msa_clause);
		assert_true(json_is_array(fa_report_text(j, r,
		    "references")));
		for (k = 0, n = 0; k < json_array_size(json_object_get(j,
		    "checks")); k++)
			n += strcmp(json_string_value(json_object_get(
			    json_array_get(json_object_get(j, "checks"), k),
			    "id")), res.v[i].check->id) == 0;
		assert_int_equal(n, 1);
	}
	text = json_dumps(j, 0);
	assert_null(strstr(text, "1122334455667788"));
	free(text);
	txt = fa_report_txt(&rc);
	assert_non_null(txt);
	assert_non_null(strstr(txt, "IB-SMKEY-DISCLOSED"));
	assert_non_null(strstr(txt, "Summary: "));
	assert_null(strstr(txt, "1122334455667788"));
	for (c = txt; *c != '\0'; c++)
		assert_true(*c == '\n' || (*c >= 0x20 && *c < 0x7f));
	free(txt);
	rc.reveal = 1;
	txt = fa_report_txt(&rc);
	assert_non_null(strstr(txt, "0x1122334455667788"));
	/* Streamed (report.txt as written): the same bytes; a sink that
	 * stops is an I/O error. */
	{
		struct sink sk = { NULL, 0, 0 };
		char *why = NULL;

		assert_int_equal(fa_report_txt_emit(&rc, sink_emit, &sk,
		    &why), 0);
		assert_non_null(sk.p);
		assert_string_equal(sk.p, txt);
		free(sk.p);
		memset(&sk, 0, sizeof(sk));
		sk.stop = strlen(txt) / 2;
		assert_int_equal(fa_report_txt_emit(&rc, sink_emit, &sk,
		    &why), FA_ERR_IO);
		free(sk.p);
		free(why);
	}
	free(txt);
	json_decref(j);
	fa_results_free(&res);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

static void
atomic_write(void **state)
{
	char dir[] = "/tmp/fa-test-XXXXXX", path[64], *why = NULL;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(fa_write_atomic(dir, "a.txt", "hello", 5, &why), 0);
	snprintf(path, sizeof(path), "%s/a.txt", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 5);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	/* The directory is gone: a clear error naming the file, nothing left. */
	assert_int_equal(fa_write_atomic(dir, "a.txt", "hello", 5, &why),
	    FA_ERR_IO);
	assert_non_null(why);
	assert_non_null(strstr(why, "a.txt"));
	free(why);
}

/* Run from the repository root (tests/run.sh does). */
static void
frozen_ids_are_known(void **state)
{
	char line[128], all[8192] = "\n";
	const char *const *id;
	FILE *f;
	size_t n = 0, len;

	(void)state;
	f = fopen("tests/ids.frozen", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		len = strcspn(line, "\n");
		line[len] = '\0';
		if (!fa_check_id_known(line))
			fail_msg("published ID %s is no longer known", line);
		assert_true(fa_check_id_valid(line));
		assert_true(strlen(all) + len + 2 < sizeof(all));
		strncat(all, line, len);
		strncat(all, "\n", 2);
		n++;
	}
	fclose(f);
	assert_true(n >= 46);
	/* And the other way: every ID the program knows has been frozen. */
	for (id = fa_known_check_ids; *id != NULL; id++) {
		char pat[80];

		snprintf(pat, sizeof(pat), "\n%s\n", *id);
		if (strstr(all, pat) == NULL)
			fail_msg("%s is not in tests/ids.frozen", *id);
	}
}

/*
 * Observations share their kind, target, reason and short data strings
 * through the snapshot's pool; values stay distinct where they differ
 * (also by an embedded NUL), long ones are not shared, and the JSON is
 * what each observation was given.
 */
static void
snapshot_pools_strings(void **state)
{
	struct fa_snapshot *s = fa_snapshot_new();
	const struct fa_obs *a, *b, *c;
	char longv[200];
	json_t *j;

	(void)state;
	memset(longv, 'x', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	assert_non_null(s);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, NULL, "ib.k",
	    "H-0x1/1", "r1", FA_OBS_NO_RESPONSE, "timed out",
	    json_pack("{s:s, s:s, s:[s]}", "desc", "gpu-01 mlx5_0", "long",
	    longv, "a", "gpu-01 mlx5_0"), &a), 0);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, NULL, "ib.k",
	    "H-0x1/1", "r2", FA_OBS_NO_RESPONSE, "timed out",
	    json_pack("{s:s, s:s, s:s%}", "desc", "gpu-01 mlx5_0", "long",
	    longv, "nul", "ab\0c", (size_t)4), &b), 0);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, NULL, "ib.k",
	    "H-0x2/1", "r3", FA_OBS_COMPLETE, NULL,
	    json_pack("{s:s, s:s}", "desc", "gpu-02 mlx5_0", "nul", "ab"),
	    &c), 0);
	a = &s->obs[0];
	b = &s->obs[1];
	assert_ptr_equal(a->kind, b->kind);
	assert_ptr_equal(a->target, b->target);
	assert_ptr_equal(a->reason, b->reason);
	assert_ptr_not_equal(a->target, c->target);
	assert_string_equal(c->target, "H-0x2/1");
	assert_ptr_equal(json_object_get(a->data, "desc"),
	    json_object_get(b->data, "desc"));
	assert_ptr_equal(json_object_get(a->data, "desc"),
	    json_array_get(json_object_get(a->data, "a"), 0));
	assert_ptr_not_equal(json_object_get(a->data, "long"),
	    json_object_get(b->data, "long"));
	assert_int_equal(json_string_length(json_object_get(b->data, "nul")),
	    4);
	assert_int_equal(json_string_length(json_object_get(c->data, "nul")),
	    2);
	assert_string_equal(json_string_value(json_object_get(c->data,
	    "desc")), "gpu-02 mlx5_0");
	j = fa_snapshot_to_json(s, 0);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "observations")),
	    3);
	json_decref(j);
	fa_snapshot_free(s);
}

static size_t
occurrences(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/*
 * report.txt gives a check's remediation and clause with its first
 * failure only; each later failure of that check refers to it, and
 * another check's failure has its own.
 */
static void
txt_texts_once(void **state)
{
	static const struct fa_check a = { .id = "TEST-A", .title = "A",
	    .remediation = "fix A", .msa_clause = "clause A" }, b = {
	    .id = "TEST-B", .title = "B", .remediation = "fix B",
	    .msa_clause = "clause B" };
	struct fa_snapshot *s = sample();
	struct fa_results r = { NULL, 0, 0 };
	struct fa_report_ctx rc;
	const char *full, *ref;
	char *txt;

	(void)state;
	assert_int_equal(fa_results_add(&r, &a, FA_ST_FAIL, "t1", NULL,
	    NULL, "one"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_FAIL, "t2", NULL,
	    NULL, "two"), 0);
	assert_int_equal(fa_results_add(&r, &b, FA_ST_FAIL, "t1", NULL,
	    NULL, "three"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_PASS, "t3", NULL,
	    NULL, "four"), 0);
	memset(&rc, 0, sizeof(rc));
	rc.snap = s;
	rc.res = &r;
	rc.fail_on = FA_SEV_HIGH;
	rc.mode = "check";
	assert_non_null(txt = fa_report_txt(&rc));
	assert_int_equal(occurrences(txt, "remediation: fix A\n    msa "
	    "clause: clause A\n"), 1);
	assert_int_equal(occurrences(txt, "remediation, msa clause: as for "
	    "the first TEST-A failure above\n"), 1);
	assert_int_equal(occurrences(txt, "remediation: fix B\n    msa "
	    "clause: clause B\n"), 1);
	assert_int_equal(occurrences(txt, "remediation"), 3);
	full = strstr(txt, "fix A");
	ref = strstr(txt, "as for the first TEST-A");
	assert_true(full != NULL && ref != NULL && full < ref);
	assert_non_null(strstr(txt, "two"));
	assert_true(strstr(txt, "two") < ref);
	free(txt);
	fa_results_free(&r);
	fa_snapshot_free(s);
}

/*
 * One check on one target is one result (fa_results_fold): two fails
 * become one with both's evidence; a fail and a pass on one target fail,
 * saying what else was found; other checks and targets are untouched.
 */
static void
results_fold(void **state)
{
	static const struct fa_check a = { .id = "TEST-A" }, b = {
	    .id = "TEST-B" };
	struct fa_results r = { NULL, 0, 0 };

	(void)state;
	assert_int_equal(fa_results_add(&r, &a, FA_ST_PASS, "x", NULL,
	    json_pack("[i]", 0), "before"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_FAIL, "t", NULL,
	    json_pack("[i]", 1), "first"), 0);
	assert_int_equal(fa_results_add(&r, &b, FA_ST_PASS, "t", NULL,
	    json_pack("[i]", 0), "other check"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_FAIL, "t", "T",
	    json_pack("[i]", 2), "second"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_PASS, "t", NULL,
	    json_pack("[i]", 3), "fine"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_FAIL, "u", NULL, NULL,
	    "same"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_FAIL, "u", NULL, NULL,
	    "same"), 0);
	/* From 1: the result before is another run's, left alone. */
	assert_int_equal(fa_results_add(&r, &a, FA_ST_PASS, "x", NULL,
	    json_pack("[i]", 0), "again"), 0);
	assert_int_equal(fa_results_fold(&r, 1), 0);
	assert_int_equal(r.n, 5);
	assert_string_equal(r.v[0].reason, "before");
	assert_int_equal(r.v[1].status, FA_ST_FAIL);
	assert_string_equal(r.v[1].target, "t");
	assert_string_equal(r.v[1].target_name, "T");
	assert_string_equal(r.v[1].reason, "first; second (also pass: fine)");
	assert_int_equal(json_array_size(r.v[1].evidence), 3);
	assert_ptr_equal(r.v[2].check, &b);
	assert_string_equal(r.v[3].target, "u");
	assert_string_equal(r.v[3].reason, "same");
	assert_string_equal(r.v[4].reason, "again");
	/* A pass then a not_tested: not_tested stands. */
	fa_results_free(&r);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_PASS, "t", NULL,
	    json_pack("[i]", 0), "seen"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_NOT_TESTED, "t", NULL,
	    NULL, "unseen"), 0);
	assert_int_equal(fa_results_fold(&r, 0), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_NOT_TESTED);
	assert_string_equal(r.v[0].reason, "unseen (also pass: seen)");
	fa_results_free(&r);
}

/*
 * The report model refuses a pass without evidence and a result without
 * a reason: an error result naming the bug is made instead.
 */
static void
results_refuse(void **state)
{
	static const struct fa_check a = { .id = "TEST-A" };
	struct fa_results r = { NULL, 0, 0 };

	(void)state;
	assert_int_equal(fa_results_add(&r, &a, FA_ST_PASS, "t", NULL, NULL,
	    "looks fine"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_FAIL, "u", NULL, NULL,
	    "%s", ""), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_PASS, "v", NULL,
	    json_pack("[i]", 1), "seen"), 0);
	assert_int_equal(fa_results_add(&r, &a, FA_ST_NOT_TESTED, "w", NULL,
	    NULL, "not seen"), 0);
	assert_int_equal(r.n, 4);
	assert_int_equal(r.v[0].status, FA_ST_ERROR);
	assert_non_null(strstr(r.v[0].reason, "without evidence"));
	assert_int_equal(r.v[1].status, FA_ST_ERROR);
	assert_non_null(strstr(r.v[1].reason, "without a reason"));
	assert_int_equal(r.v[2].status, FA_ST_PASS);
	assert_int_equal(r.v[3].status, FA_ST_NOT_TESTED);
	fa_results_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_numbers),
		cmocka_unit_test(sanitize_hostile),
		cmocka_unit_test(snapshot_round_trip),
		cmocka_unit_test(snapshot_in_parts),
		cmocka_unit_test(snapshot_obs_before_head),
		cmocka_unit_test(snapshot_redacts_secrets),
		cmocka_unit_test(snapshot_pools_strings),
		cmocka_unit_test(snapshot_rejects_malformed),
		cmocka_unit_test(report_json_and_txt),
		cmocka_unit_test(atomic_write),
		cmocka_unit_test(frozen_ids_are_known),
		cmocka_unit_test(txt_texts_once),
		cmocka_unit_test(results_fold),
		cmocka_unit_test(results_refuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
