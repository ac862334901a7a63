/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The evaluation loop: every registered check against one snapshot, in
 * registry order, fail-closed (a check that adds nothing gets a
 * not_tested row); then what the scan could not vouch for (a fabric not
 * reached whole, an SA gone, a --max-time cut) keeps passes from
 * standing.  Above registry.c and every check.
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
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

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
	    !json_is_true(fa_obs_jbool(o, FA_F(IB_TOPOLOGY,
	    unexplored_only))) &&
	    (*all = fa_strdup(fa_obs_reason(o))) == NULL)
		return FA_ERR_NOMEM;
	/* Unanswered: a send of ours that failed, or a --max-time cut
	 * (cut_passes() speaks for it), is not the SA gone. */
	if ((o = fa_snapshot_find(s, FA_KIND_IB_SA_ALIVE, "sa")) != NULL &&
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
 * A family whose acquisition --max-time cut short (a FA_KIND_SCAN_MAX_TIME
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
		    (r = fa_results_fold(out, before)) < 0 ||
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
