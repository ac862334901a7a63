/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Result lists and evidence items (the report model, result.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "result.h"
#include "util.h"

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
	/*
	 * What a result may not be (the report model's rule): every status
	 * says why, and a pass shows what it stands on.  A check that tries
	 * otherwise has a bug; its result becomes an error saying so, never
	 * a pass a reader would take on trust.
	 */
	if (r.reason[0] == '\0' || (st == FA_ST_PASS &&
	    json_array_size(evidence) == 0)) {
		char *why = fa_strfmt("fabaudit bug: %s would %s on %s %s",
		    c->id, fa_status_name(st), r.target, r.reason[0] == '\0' ?
		    "without a reason" : "without evidence");

		if (why == NULL)
			goto nomem;
		free(r.reason);
		r.reason = why;
		r.status = FA_ST_ERROR;
	}
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

/*
 * Which of two verdicts on one target stands: what was seen unsafe
 * (fail), then what could not be decided (error, not_tested), then pass,
 * then not_applicable.  A higher rank wins.
 */
static int
rank(enum fa_status st)
{
	switch (st) {
	case FA_ST_FAIL:
		return 4;
	case FA_ST_ERROR:
		return 3;
	case FA_ST_NOT_TESTED:
		return 2;
	case FA_ST_PASS:
		return 1;
	default:
		return 0;
	}
}

/* Fold b into a (same check, same target); b is cleared.  0 or NOMEM. */
static int
fold_one(struct fa_result *a, struct fa_result *b)
{
	struct fa_result *win = rank(b->status) > rank(a->status) ? b : a;
	struct fa_result *other = win == a ? b : a;
	char *reason;

	if (strcmp(a->reason, b->reason) == 0)
		reason = fa_strdup(a->reason);
	else if (a->status == b->status)
		reason = fa_strfmt("%s; %s", a->reason, b->reason);
	else
		reason = fa_strfmt("%s (also %s: %s)", win->reason,
		    fa_status_name(other->status), other->reason);
	if (reason == NULL || json_array_extend(a->evidence, b->evidence) != 0)
		goto nomem;
	free(a->reason);
	a->reason = reason;
	a->status = win->status;
	if (a->target_name == NULL) {
		a->target_name = b->target_name;
		b->target_name = NULL;
	}
	result_clear(b);
	memset(b, 0, sizeof(*b));
	return 0;
nomem:
	free(reason);
	return FA_ERR_NOMEM;
}

/* Sort key of fa_results_fold: check, target, then position. */
static int
fold_cmp(const void *pa, const void *pb, void *arg)
{
	const struct fa_results *rs = arg;
	const struct fa_result *a = &rs->v[*(const size_t *)pa];
	const struct fa_result *b = &rs->v[*(const size_t *)pb];
	int c;

	if (a->check != b->check)
		return (uintptr_t)a->check < (uintptr_t)b->check ? -1 : 1;
	if ((c = strcmp(a->target, b->target)) != 0)
		return c;
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

int
fa_results_fold(struct fa_results *rs, size_t from)
{
	size_t *ix, i, k, n, first;
	int r = 0;

	if (rs->n < from + 2)
		return 0;
	n = rs->n - from;
	if ((ix = calloc(n, sizeof(*ix))) == NULL)
		return FA_ERR_NOMEM;
	for (i = 0; i < n; i++)
		ix[i] = from + i;
	/*
	 * Sorted by (check, target, position): a run of equal keys is folded
	 * into its first, the earliest, so the order of the first results
	 * is kept.
	 */
	qsort_r(ix, n, sizeof(*ix), fold_cmp, rs);
	for (i = 1, first = ix[0]; i < n && r == 0; i++) {
		if (rs->v[ix[i]].check == rs->v[first].check &&
		    strcmp(rs->v[ix[i]].target, rs->v[first].target) == 0)
			r = fold_one(&rs->v[first], &rs->v[ix[i]]);
		else
			first = ix[i];
	}
	free(ix);
	if (r != 0)
		return r;
	/* Folded ones were cleared (check NULL): close the gaps. */
	for (i = k = from; i < rs->n; i++)
		if (rs->v[i].check != NULL)
			rs->v[k++] = rs->v[i];
	rs->n = k;
	return 0;
}
