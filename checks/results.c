/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Result lists, evidence items and the evaluation loop shared by every check.
 * The loop is fail-closed: a check that adds nothing gets a not_tested row.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "check.h"
#include "ib_checks.h"

static void
result_clear(struct fa_result *r)
{
	free(r->target);
	free(r->target_name);
	free(r->reason);
	free(r->waiver_reason);
	free(r->expired_reason);
	json_decref(r->evidence);
}

void
fa_results_free(struct fa_results *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++)
		result_clear(&r->v[i]);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

int
fa_results_add(struct fa_results *rs, const struct fa_check *c,
    enum fa_status st, const char *target, const char *target_name,
    json_t *evidence, const char *fmt, ...)
{
	struct fa_result r, *nv;
	va_list ap;
	size_t ncap;
	int n;

	memset(&r, 0, sizeof(r));
	if (evidence == NULL && (evidence = json_array()) == NULL)
		return FA_ERR_NOMEM;
	r.evidence = evidence;
	if (!json_is_array(evidence) || (unsigned)st >= FA_ST_MAX) {
		result_clear(&r);
		return FA_ERR_INTERNAL;
	}
	r.check = c;
	r.status = st;
	r.severity = c->severity;
	r.target = strdup(target != NULL ? target : "");
	r.target_name = target_name != NULL ? strdup(target_name) : NULL;
	va_start(ap, fmt);
	n = vasprintf(&r.reason, fmt, ap);
	va_end(ap);
	if (n < 0)
		r.reason = NULL;
	if (r.target == NULL || r.reason == NULL ||
	    (target_name != NULL && r.target_name == NULL))
		goto nomem;
	if (rs->n == rs->cap) {
		ncap = rs->cap ? rs->cap * 2 : 16;
		if ((nv = reallocarray(rs->v, ncap, sizeof(*nv))) == NULL)
			goto nomem;
		rs->v = nv;
		rs->cap = ncap;
	}
	rs->v[rs->n++] = r;
	return 0;
nomem:
	result_clear(&r);
	return FA_ERR_NOMEM;
}

json_t *
fa_evidence(const struct fa_obs *o, const char *field, json_t *v)
{
	json_t *e;

	if (v == NULL)
		return NULL;
	e = json_pack("{s:s?, s:s, s:o}", "observation",
	    o != NULL ? o->id : NULL, "field", field, "value", v);
	return e;
}

int
fa_evidence_add(json_t *ev, json_t *item)
{
	if (item == NULL)
		return FA_ERR_NOMEM;
	return json_array_append_new(ev, item) == 0 ? 0 : FA_ERR_NOMEM;
}

const struct fa_check *
fa_check_find(const char *id)
{
	const struct fa_check *const *c;

	for (c = fa_checks; *c != NULL; c++)
		if (strcmp((*c)->id, id) == 0)
			return *c;
	return NULL;
}

int
fa_check_family_gate(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    enum fa_family f, struct fa_results *out)
{
	const struct fa_fam_status *fs = &ctx->snap->fam[f];
	const char *why = fs->reason != NULL ? fs->reason : "no reason recorded";
	int r;

	switch (fs->state) {
	case FA_FAMST_COLLECTED:
		return 0;
	case FA_FAMST_NOT_REQUESTED:
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, fa_family_name(f),
		    NULL, NULL, "%s family not in the scope of this scan",
		    fa_family_name(f));
		break;
	case FA_FAMST_UNAVAILABLE:
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, fa_family_name(f),
		    NULL, NULL, "%s family unavailable: %s", fa_family_name(f),
		    why);
		break;
	default:
		r = fa_results_add(out, c, FA_ST_ERROR, fa_family_name(f),
		    NULL, NULL, "%s acquisition failed: %s", fa_family_name(f),
		    why);
		break;
	}
	return r < 0 ? r : 1;
}

/*
 * Results [from, n) that pass, or are not applicable, become not_tested:
 * the scan did not reach the whole fabric (why), so what was not found
 * may be there.
 */
static int
no_pass(struct fa_results *out, size_t from, const char *why)
{
	char *reason;
	size_t i;

	for (i = from; i < out->n; i++) {
		if (out->v[i].status != FA_ST_PASS &&
		    out->v[i].status != FA_ST_NOT_APPLICABLE)
			continue;
		reason = fa_strfmt("would %s (%s), but %s",
		    out->v[i].status == FA_ST_PASS ? "pass" :
		    "not apply", out->v[i].reason != NULL ?
		    out->v[i].reason : "no reason", why);
		if (reason == NULL)
			return FA_ERR_NOMEM;
		free(out->v[i].reason);
		out->v[i].reason = reason;
		out->v[i].status = FA_ST_NOT_TESTED;
	}
	return 0;
}

/*
 * What keeps IB checks from passing: a scan that did not reach the whole
 * fabric.  The topology is incomplete (two discoveries differed, or the
 * 64-hop limit was reached): no IB check passes (*all) but those decided
 * from the tenant port alone (own_port_only).  The SA stopped
 * answering during the scan: what the SM and SA then left unanswered was
 * not refusal, so no check that reads the SM or SA (reads_sm_sa) passes
 * (*sa); the SMAs of the nodes answer SMPs whether an SM runs or not, so
 * a check decided from SMPs alone keeps its verdict.  Loss is not such a
 * reason: each observation records its own fate (an answer after a retry
 * is complete, a request never answered is no_response), and each check
 * turns an observation it needs that was not seen into not_tested; a
 * check that read only complete observations may pass however much was
 * lost elsewhere.  Nor is a malformed answer: it is ignored, and its
 * request resent or left no_response.  0 with each reason a new string
 * or NULL, or FA_ERR_NOMEM.
 */
static int
ib_unreached(const struct fa_snapshot *s, char **all, char **sa)
{
	const struct fa_obs *o;

	*all = *sa = NULL;
	o = fa_snapshot_find(s, FA_KIND_IB_TOPOLOGY, "fabric");
	/* Incomplete only by ports whose peer discovery did not reach:
	 * the checks that need those ports are gated one by one. */
	if (o != NULL && o->state == FA_OBS_INCOMPLETE &&
	    !json_is_true(json_object_get(o->data, "unexplored_only")) &&
	    (*all = fa_strdup(fa_obs_reason(o))) == NULL)
		return FA_ERR_NOMEM;
	/* Unanswered: a send of ours that failed, or a --max-time cut
	 * (cut_passes() speaks for it), is not the SA gone. */
	if ((o = fa_snapshot_find(s, "ib.sa.alive_after", "sa")) != NULL &&
	    o->state == FA_OBS_NO_RESPONSE &&
	    (*sa = fa_strfmt("the SA stopped answering during the scan "
	    "(%s): what the SM and SA did not answer was not seen",
	    fa_obs_reason(o))) == NULL) {
		free(*all);
		*all = NULL;
		return FA_ERR_NOMEM;
	}
	return 0;
}

/*
 * A family whose acquisition --max-time cut short (a FA_DEADLINE_KIND
 * observation) cannot vouch for what it did not see: each pass of its
 * checks becomes not_tested, saying so and what the part seen showed,
 * and each not_tested says the budget ran out (unless it says so
 * already).  Failures stay: what was seen is true whatever was not.
 */
static int
cut_passes(const struct fa_eval_ctx *ctx, enum fa_family f,
    struct fa_results *out, size_t from)
{
	const struct fa_obs *o = fa_deadline_obs(ctx->snap, f);
	struct fa_result *r;
	char *why;
	size_t i;

	for (i = from; o != NULL && i < out->n; i++) {
		r = &out->v[i];
		if (r->status == FA_ST_NOT_TESTED && r->reason != NULL &&
		    strstr(r->reason, "--max-time") == NULL) {
			/* Say why it may not have been seen. */
			if ((why = fa_strfmt("%s (%s)", r->reason,
			    fa_obs_reason(o))) == NULL)
				return FA_ERR_NOMEM;
			free(r->reason);
			r->reason = why;
			continue;
		}
		if (r->status != FA_ST_PASS)
			continue;
		why = fa_strfmt("%s; the part scanned passed: %s",
		    fa_obs_reason(o), r->reason != NULL ? r->reason : "");
		if (why == NULL || fa_evidence_add(r->evidence, fa_evidence(o,
		    "reason", json_string(fa_obs_reason(o)))) != 0) {
			free(why);
			return FA_ERR_NOMEM;
		}
		free(r->reason);
		r->reason = why;
		r->status = FA_ST_NOT_TESTED;
	}
	return 0;
}

int
fa_evaluate(const struct fa_eval_ctx *ctx, struct fa_results *out)
{
	const struct fa_check *const *c;
	const struct fa_pol_waiver *w;
	enum fa_severity sev;
	size_t before, i;
	char *unsteady, *sa_gone, *why;
	int r;

	/* A scan that could not reach everything: no IB pass. */
	if ((r = ib_unreached(ctx->snap, &unsteady, &sa_gone)) < 0)
		return r;
	for (c = fa_checks; *c != NULL; c++) {
		before = out->n;
		why = (*c)->family != FA_FAM_IB ? NULL : unsteady != NULL &&
		    !(*c)->own_port_only ? unsteady : (*c)->reads_sm_sa ?
		    sa_gone : NULL;
		/* A cut by --max-time first: its reason says what passed. */
		if ((r = (*c)->eval(*c, ctx, out)) < 0 ||
		    (out->n == before && (r = fa_results_add(out, *c,
		    FA_ST_NOT_TESTED, fa_family_name((*c)->family), NULL, NULL,
		    "the check produced no result")) < 0) ||
		    (r = cut_passes(ctx, (*c)->family, out, before)) < 0 ||
		    (why != NULL && (r = no_pass(out, before, why)) < 0)) {
			free(unsteady);
			free(sa_gone);
			return r;
		}
		sev = fa_policy_severity(ctx->policy, (*c)->id, (*c)->severity);
		for (i = before; i < out->n; i++) {
			out->v[i].severity = sev;
			if (out->v[i].status != FA_ST_FAIL)
				continue;
			w = fa_policy_waiver(ctx->policy, (*c)->id,
			    out->v[i].target, 1);
			if (w != NULL) {
				if ((out->v[i].expired_reason =
				    strdup(w->reason)) == NULL)
					goto nomem;
				memcpy(out->v[i].expired_on, w->expires,
				    sizeof(out->v[i].expired_on));
				out->v[i].expired_line = w->line;
			}
			w = fa_policy_waiver(ctx->policy, (*c)->id,
			    out->v[i].target, 0);
			if (w == NULL)
				continue;
			if ((out->v[i].waiver_reason = strdup(w->reason)) == NULL)
				goto nomem;
			memcpy(out->v[i].waiver_expires, w->expires,
			    sizeof(out->v[i].waiver_expires));
			out->v[i].waiver_line = w->line;
		}
	}
	free(unsteady);
	free(sa_gone);
	return 0;
nomem:
	free(unsteady);
	free(sa_gone);
	return FA_ERR_NOMEM;
}

enum fa_status
fa_status_for_obs(const struct fa_obs *o)
{
	return o->state == FA_OBS_ERROR ? FA_ST_ERROR : FA_ST_NOT_TESTED;
}

const char *
fa_obs_reason(const struct fa_obs *o)
{
	return o->reason != NULL ? o->reason : fa_obs_state_name(o->state);
}
