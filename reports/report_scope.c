/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The scope section of report.json: who is audited and by whom, when,
 * from where, with which tool and catalogue, on which fabric (subnet
 * prefix, local port, the SMs found), and which snapshot it rests on; and
 * the policy's expired waivers.  Everything here is read from the
 * snapshot's metadata and observations and from the policy; missing
 * values are null, never guessed.
 */
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "report.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

/* GUIDs of the SMs the scan found (SMInfo answers), without repeats. */
static json_t *
sm_guids(const struct fa_snapshot *s)
{
	const struct fa_obs *o;
	const json_t *g, *e;
	json_t *a = json_array();
	size_t it = 0, i;
	int dup;

	while (a != NULL && (o = fa_snapshot_next(s, FA_KIND_IB_SMINFO,
	    &it)) != NULL) {
		g = fa_obs_jstr(o, FA_F(IB_SMINFO, port_guid));
		if (o->state != FA_OBS_COMPLETE || !json_is_string(g))
			continue;
		dup = 0;
		json_array_foreach(a, i, e)
			dup |= json_equal(e, g);
		if (!dup && json_array_append(a, (json_t *)g) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
fabric(const struct fa_snapshot *s)
{
	const struct fa_obs *o;
	size_t it = 0;

	o = fa_snapshot_next(s, FA_KIND_IB_LOCAL, &it);
	return json_pack("{s:O?, s:O?, s:O?, s:O?, s:O?, s:o}",
	    "subnet_prefix", fa_obs_jstr(o, FA_F(IB_LOCAL, subnet_prefix)),
	    "local_port_guid", fa_obs_jstr(o, FA_F(IB_LOCAL, port_guid)),
	    "local_node_desc", fa_obs_jstr(o, FA_F(IB_LOCAL, node_desc)),
	    "local_lid", fa_obs_jint(o, FA_F(IB_LOCAL, lid)),
	    "ca", fa_obs_jstr(o, FA_F(IB_LOCAL, ca)), "sm_guids", sm_guids(s));
}

json_t *
fa_report_scope(const struct fa_report_ctx *ctx)
{
	const json_t *scan = json_object_get(ctx->snap->meta, "scan");
	const json_t *cat = json_object_get(scan, "catalogue");
	const struct fa_policy *p = ctx->policy;

	return json_pack("{s:s?, s:s?, s:O?, s:O?, s:O?, s:O?, s:O?, s:s, "
	    "s:{s:O?, s:O?, s:O?}, s:s?, s:s?, s:o}",
	    "tenant", p != NULL ? p->tenant_name : NULL,
	    "provider", p != NULL ? p->provider_name : NULL,
	    "run_by", json_object_get(scan, "run_by"),
	    "host", json_object_get(scan, "host"),
	    "started", json_object_get(scan, "started"),
	    "finished", json_object_get(scan, "finished"),
	    "scanned_by_version", json_object_get(json_object_get(
	    ctx->snap->meta, "tool"), "version"),
	    "tool_version", FA_VERSION,
	    "catalogue", "date", json_object_get(cat, "date"),
	    "age_days", json_object_get(cat, "age_days"),
	    "stale", json_object_get(cat, "stale"),
	    "snapshot_sha256", ctx->snapshot_sha256,
	    "policy", ctx->policy_name,
	    "fabric", fabric(ctx->snap));
}

/* A count, 0 when absent or not a positive integer. */
static json_int_t
positive(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) > 0 ?
	    json_integer_value(v) : 0;
}

/* A counter of discovery's (a member of ib.engine's "discovery"). */
static json_int_t
count(const json_t *o, const char *key)
{
	return positive(json_object_get(o, key));
}

/* A counter of the engine's own. */
#define ENG(NAME)	positive(fa_obs_jint(o, FA_F(IB_ENGINE, NAME)))

/*
 * The MADs of the InfiniBand scan, from its ib.engine observation (the
 * engine's counters, discovery's under "discovery"): sent (retries
 * included), lost (sends that timed out or came back unanswered, the
 * silence a probe expects excepted), retried (resends, the SM_Key 1
 * query's included), unanswered (the engine's requests never answered)
 * and malformed (answers ignored).  NULL without that
 * observation (no IB scan, or one that stopped before the audit).
 */
json_t *
fa_report_ib_mads(const struct fa_snapshot *s)
{
	const struct fa_obs *o = fa_snapshot_find(s, FA_KIND_IB_ENGINE,
	    "local");
	const json_t *disc;
	json_int_t sent, retried;

	if (o == NULL)
		return NULL;
	disc = fa_obs_obj(o, FA_F(IB_ENGINE, discovery));
	sent = ENG(sent);
	/* Sends after a request's first (fabric/ib_mad.h); a snapshot
	 * written before that counter: what was neither answered nor left
	 * unanswered, which also counts the once probes left silent. */
	if (fa_obs_jint(o, FA_F(IB_ENGINE, resent)) != NULL)
		retried = ENG(resent);
	else
		retried = sent - ENG(answered) - ENG(unanswered);
	if (retried < 0)
		retried = 0;
	/* Discovery's lost sends were resent but for the last of each. */
	if (count(disc, "lost_sends") > count(disc, "failed"))
		retried += count(disc, "lost_sends") - count(disc, "failed");
	return json_pack("{s:I, s:I, s:I, s:I, s:I}",
	    "sent", sent + count(disc, "sent"),
	    "lost", ENG(lost_sends) + count(disc, "lost_sends"),
	    "retried", retried,
	    "unanswered", ENG(unanswered),
	    "malformed", ENG(malformed) + count(disc, "malformed"));
}
#undef ENG

json_t *
fa_report_expired_waivers(const struct fa_policy *p)
{
	json_t *a = json_array(), *w;
	size_t i;

	for (i = 0; a != NULL && p != NULL && i < p->n_waive; i++) {
		if (!p->waive[i].expired)
			continue;
		w = json_pack("{s:s, s:s, s:s, s:s, s:i}", "check_id",
		    p->waive[i].check_id, "target", p->waive[i].target,
		    "expires", p->waive[i].expires, "reason",
		    p->waive[i].reason, "policy_line", (int)p->waive[i].line);
		if (json_array_append_new(a, w) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
