/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Result lists and evidence items (the report model, result.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "result.h"

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
