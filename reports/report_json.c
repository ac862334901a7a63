/* SPDX-License-Identifier: BSD-2-Clause */
/* report.json: the machine-readable report (design.md section 3). */
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "report.h"

void
fa_tally(const struct fa_results *res, enum fa_severity fail_on,
    struct fa_tally *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < res->n; i++) {
		t->by_status[res->v[i].status]++;
		if (res->v[i].waiver_reason != NULL)
			t->waived++;
		else if (res->v[i].status == FA_ST_FAIL &&
		    res->v[i].severity <= fail_on)
			t->failing++;
	}
}

static json_t *
refs_json(const char *const *refs)
{
	json_t *a = json_array();

	for (; a != NULL && refs != NULL && *refs != NULL; refs++)
		if (json_array_append_new(a, json_string(*refs)) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/*
 * The texts of one check, which schema 1 repeated in each of its results
 * (a 10,000-port fabric gives one check 10,000 results): stated once, in
 * "checks", in the order of the checks' first results.
 */
struct check_texts {
	const struct fa_check	*c;
	json_t			*rationale, *remediation, *msa, *refs;
};

struct texts_cache {
	struct check_texts	*v;
	size_t			 n, cap;
};

static void
texts_free(struct texts_cache *tc)
{
	size_t i;

	for (i = 0; i < tc->n; i++) {
		json_decref(tc->v[i].rationale);
		json_decref(tc->v[i].remediation);
		json_decref(tc->v[i].msa);
		json_decref(tc->v[i].refs);
	}
	free(tc->v);
	tc->v = NULL;
	tc->n = tc->cap = 0;
}

/* The shared texts of check c; NULL when out of memory. */
static const struct check_texts *
texts_of(struct texts_cache *tc, const struct fa_check *c)
{
	struct check_texts *t, *nv;
	size_t i, cap;

	for (i = 0; i < tc->n; i++)	/* a few dozen checks at most */
		if (tc->v[i].c == c)
			return &tc->v[i];
	if (tc->n == tc->cap) {
		cap = tc->cap > 0 ? tc->cap * 2 : 16;
		if ((nv = realloc(tc->v, cap * sizeof(*nv))) == NULL)
			return NULL;
		tc->v = nv;
		tc->cap = cap;
	}
	t = &tc->v[tc->n];
	t->c = c;
	t->rationale = json_string(c->rationale);
	t->remediation = json_string(c->remediation);
	t->msa = json_string(c->msa_clause);
	t->refs = refs_json(c->refs);
	if (t->rationale == NULL || t->remediation == NULL || t->msa == NULL ||
	    t->refs == NULL) {
		json_decref(t->rationale);
		json_decref(t->remediation);
		json_decref(t->msa);
		json_decref(t->refs);
		return NULL;
	}
	return &tc->v[tc->n++];
}

static json_t *
result_json(const struct fa_result *r, int reveal)
{
	const struct fa_check *c = r->check;
	json_t *ev, *w = NULL, *x = NULL, *j;

	/* Shared with the results, not copied: written, not changed. */
	ev = reveal ? json_incref(r->evidence) :
	    fa_json_redact_shared(r->evidence);
	if (ev == NULL)
		return NULL;
	if (r->waiver_reason != NULL && (w = json_pack("{s:s, s:s, s:i}",
	    "reason", r->waiver_reason, "expires", r->waiver_expires,
	    "policy_line", r->waiver_line)) == NULL) {
		json_decref(ev);
		return NULL;
	}
	if (r->expired_reason != NULL && (x = json_pack("{s:s, s:s, s:i}",
	    "reason", r->expired_reason, "expires", r->expired_on,
	    "policy_line", r->expired_line)) == NULL) {
		json_decref(ev);
		json_decref(w);
		return NULL;
	}
	j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s?, s:s, s:o, "
	    "s:o*, s:o*}",
	    "id", c->id, "family", fa_family_name(c->family),
	    "status", fa_status_name(r->status),
	    "severity", fa_severity_name(r->severity),
	    "title", c->title, "target", r->target,
	    "target_name", r->target_name, "reason", r->reason,
	    "evidence", ev, "waived", w, "waiver_expired", x);
	return j;
}

/* "checks": each check's texts, once. */
static json_t *
checks_json(const struct texts_cache *tc)
{
	const struct check_texts *t;
	json_t *a = json_array();
	size_t i;

	for (i = 0; a != NULL && i < tc->n; i++) {
		t = &tc->v[i];
		if (json_array_append_new(a, json_pack("{s:s, s:O, s:O, s:O, "
		    "s:O}", "id", t->c->id, "rationale", t->rationale,
		    "remediation", t->remediation, "msa_clause", t->msa,
		    "references", t->refs)) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
families_json(const struct fa_snapshot *s)
{
	json_t *o = json_object(), *f, *m;
	int i;

	for (i = 0; o != NULL && i < FA_FAM_MAX; i++) {
		f = json_pack("{s:s, s:s?}", "state",
		    fa_fam_state_name(s->fam[i].state), "reason",
		    s->fam[i].reason);
		/* The IB family says how many MADs the scan sent and lost. */
		if (f != NULL && i == FA_FAM_IB &&
		    (m = fa_report_ib_mads(s)) != NULL &&
		    json_object_set_new(f, "mads", m) != 0) {
			json_decref(f);
			f = NULL;
		}
		if (f == NULL || json_object_set_new(o,
		    fa_family_name((enum fa_family)i), f) != 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

json_t *
fa_report_json(const struct fa_report_ctx *ctx)
{
	struct texts_cache tc = { NULL, 0, 0 };
	json_t *root, *results, *summary, *checks, *r;
	struct fa_tally t;
	char when[32];
	size_t i;

	fa_tally(ctx->res, ctx->fail_on, &t);
	fa_time_rfc3339(ctx->generated, when, sizeof(when));
	results = json_array();
	summary = json_pack("{s:I, s:I, s:I, s:I, s:I, s:s, s:I, s:I, s:b}",
	    "pass", (json_int_t)t.by_status[FA_ST_PASS],
	    "fail", (json_int_t)t.by_status[FA_ST_FAIL],
	    "not_tested", (json_int_t)t.by_status[FA_ST_NOT_TESTED],
	    "not_applicable", (json_int_t)t.by_status[FA_ST_NOT_APPLICABLE],
	    "error", (json_int_t)t.by_status[FA_ST_ERROR],
	    "fail_on", fa_severity_name(ctx->fail_on),
	    "failing_at_or_above", (json_int_t)t.failing,
	    "waived", (json_int_t)t.waived,
	    /* The host CVE catalogue was over FA_CVEDB_STALE_DAYS old. */
	    "catalogue_stale", json_is_true(json_object_get(json_object_get(
	    json_object_get(ctx->snap->meta, "scan"), "catalogue"), "stale")));
	if (results == NULL || summary == NULL)
		goto fail;
	for (i = 0; i < ctx->res->n; i++) {
		if (texts_of(&tc, ctx->res->v[i].check) == NULL ||
		    (r = result_json(&ctx->res->v[i], ctx->reveal)) ==
		    NULL || json_array_append_new(results, r) != 0)
			goto fail;
	}
	checks = checks_json(&tc);
	texts_free(&tc);
	if (checks == NULL)
		goto fail;
	root = json_pack("{s:s, s:{s:s, s:s}, s:O*, s:O*, s:{s:s, s:s}, "
	    "s:{s:s?, s:s?}, s:o, s:{s:s?}, s:o, s:o, s:o, s:o, s:o}",
	    "schema", FA_REPORT_SCHEMA,
	    "tool", "name", "fabaudit", "version", FA_VERSION,
	    "scanned_by", json_object_get(ctx->snap->meta, "tool"),
	    "scan", json_object_get(ctx->snap->meta, "scan"),
	    "evaluation", "mode", ctx->mode, "generated", when,
	    "snapshot", "file", ctx->snapshot_file,
	    "sha256", ctx->snapshot_sha256,
	    "families", families_json(ctx->snap),
	    "policy", "name", ctx->policy_name,
	    "summary", summary, "checks", checks, "results", results,
	    "scope", fa_report_scope(ctx),
	    "expired_waivers", fa_report_expired_waivers(ctx->policy));
	return root;
fail:
	texts_free(&tc);
	json_decref(results);
	json_decref(summary);
	return NULL;
}
