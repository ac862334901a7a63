/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * IB-SMKEY-DISCLOSED: an SM returns a non-zero SM_Key to an unauthenticated
 * SubnGet(SMInfo).  The SM_Key (SMInfo bytes 8-15, IBA vol. 1 14.2.5) guards
 * SM-to-SM handover; a key any node can read guards nothing.  OpenSM fills
 * the real key into every SMInfo GetResp unless the SM's own port has a
 * non-zero M_Key with protection bits >= 1 (opensm osm_sminfo_rcv.c), so
 * this fails on an OpenSM fabric without M_Key protection.
 *
 * A zero key passes here (nothing disclosed); whether zero is a real,
 * unauthenticated configuration is IB-SMKEY-DEFAULT's question.  Silence
 * from the SM port passes only with a control: the SA, which OpenSM runs
 * at the master SM's own LID, answered in the same run, so the node is up
 * and its SMA dropped our Get, as M_Key protection level 2 requires.
 */
#include <stdio.h>
#include <string.h>

#include "../core/errors.h"
#include "ib_checks.h"
#include "ib_topo.h"
#include "../core/obs_fields.h"

static const char *const refs[] = {
	"InfiniBand Architecture Specification Vol. 1, 14.2.5: SMInfo "
	    "attribute (SM_Key)",
	"InfiniBand Architecture Specification Vol. 1, 14.4: SM "
	    "negotiation and handover",
	"OpenSM osm_sminfo_rcv.c: SMInfo GetResp carries the SM_Key unless "
	    "the SM port is M_Key protected",
	FA_CMAX_IB_KEYS,
	FA_CMAX_UFM_KEY("SMKEY"),
	NULL
};

/*
 * The SA answered at the LID this SMInfo was sent to (the master's): the
 * answered SA observation, or NULL.
 */
static const struct fa_obs *
sa_alive_at(const struct fa_eval_ctx *ctx, const struct fa_obs *sm)
{
	const struct fa_obs *local = fa_ib_local_obs(ctx->snap), *o;
	long long lid = -1, sm_lid = -2;
	size_t it = 0;

	/*
	 * Discovery reached the SM's port (its GUID is known): the port
	 * answered our key-0 Gets, so protection level 2 does not explain
	 * its silence now.
	 */
	if (fa_obs_jstr(sm, FA_F(IB_SMINFO, port_guid)) != NULL)
		return NULL;
	if (local == NULL ||
	    fa_obs_int(sm, FA_F(IB_SMINFO, lid), 1, 0xbfff, &lid) != 0 ||
	    fa_obs_int(local, FA_F(IB_LOCAL, sm_lid), 1, 0xbfff,
	    &sm_lid) != 0 ||
	    lid != sm_lid)
		return NULL;
	while ((o = fa_snapshot_next(ctx->snap, NULL, &it)) != NULL)
		if (strncmp(o->kind, "ib.sa.", 6) == 0 &&
		    (o->state == FA_OBS_COMPLETE || o->state == FA_OBS_REJECTED))
			return o;
	return NULL;
}

static int
eval(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o, *ctl;
	const json_t *key;
	json_t *ev;
	size_t it = 0;
	long long state = -1, prio = -1;
	int r, zero, seen = 0;
	const char *name;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_IB_SMINFO, &it))) {
		seen++;
		name = fa_obs_str(o, FA_F(IB_SMINFO, node_desc));
		/* Silence proves a refusal only where nothing was lost: a
		 * Get to a port discovery did not reach is sent once. */
		if (o->state == FA_OBS_NO_RESPONSE &&
		    (ctl = sa_alive_at(ctx, o)) != NULL &&
		    fa_ib_mads_lost(ctx->snap) == 0) {
			if ((ev = json_array()) == NULL || fa_evidence_add(ev,
			    fa_evidence(o, "unanswered", json_string(
			    o->request))) != 0 || fa_evidence_add(ev,
			    fa_evidence(ctl, "answered_control",
			    json_string(ctl->request))) != 0) {
				json_decref(ev);
				return FA_ERR_NOMEM;
			}
			r = fa_results_add(out, c, FA_ST_PASS, o->target, name,
			    ev, "the SM port dropped our SubnGet(SMInfo) while "
			    "the SA at the same LID answered: the SMA refuses "
			    "unauthenticated Gets (M_Key protection level 2 or "
			    "more), so the SM_Key is not disclosed");
			if (r < 0)
				return r;
			continue;
		}
		if (o->state != FA_OBS_COMPLETE) {
			r = fa_results_add(out, c, fa_status_for_obs(o),
			    o->target, name, NULL,
			    "SubnGet(SMInfo) got no usable answer (%s%s); "
			    "whether the SM_Key is disclosed is unknown",
			    fa_obs_reason(o), o->state == FA_OBS_NO_RESPONSE &&
			    fa_ib_mads_lost(ctx->snap) > 0 ? ", and MADs were "
			    "lost during the scan: the silence may be loss" :
			    "");
			if (r < 0)
				return r;
			continue;
		}
		key = fa_obs_secret(o, FA_F(IB_SMINFO, sm_key));
		if (fa_ib_secret_zero(key, &zero) != 0 ||
		    fa_obs_int(o, FA_F(IB_SMINFO, state), 0, 15, &state) != 0 ||
		    fa_obs_int(o, FA_F(IB_SMINFO, priority), 0, 15,
		    &prio) != 0) {
			r = fa_results_add(out, c, FA_ST_ERROR, o->target, name,
			    NULL, "observation %s lacks a consistent sm_key, "
			    "state or priority", o->id);
			if (r < 0)
				return r;
			continue;
		}
		if ((ev = json_array()) == NULL ||
		    fa_evidence_add(ev, fa_evidence(o, "sm_key",
		    json_deep_copy(key))) != 0 ||
		    fa_evidence_add(ev, fa_evidence(o, "state",
		    json_integer(state))) != 0 ||
		    fa_evidence_add(ev, fa_evidence(o, "priority",
		    json_integer(prio))) != 0 || fa_ib_sminfo_repro(ev, o) != 0) {
			json_decref(ev);
			return FA_ERR_NOMEM;
		}
		if (!zero)
			r = fa_results_add(out, c, FA_ST_FAIL, o->target, name,
			    ev, "the SM returned its non-zero SM_Key to an "
			    "unauthenticated SubnGet(SMInfo) from the tenant "
			    "port");
		else
			r = fa_results_add(out, c, FA_ST_PASS, o->target, name,
			    ev, "the SM returned SM_Key 0 (hidden or unset) to "
			    "an unauthenticated SubnGet(SMInfo)");
		if (r < 0)
			return r;
	}
	if (seen == 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no subnet manager was found to query");
	return fa_ib_sm_enum_gate(c, ctx, out);
}

const struct fa_check fa_chk_ib_smkey_disclosed = {
	.id = "IB-SMKEY-DISCLOSED",
	.family = FA_FAM_IB,
	.reads_sm_sa = 1,
	.severity = FA_SEV_CRITICAL,
	.title = "Subnet manager discloses its SM_Key to any node",
	.rationale =
	    "The SM_Key authenticates subnet managers to each other. An SM "
	    "that returns it to an unauthenticated SMInfo Get hands every "
	    "tenant the credential needed to pose as a peer SM and take "
	    "part in mastership negotiation and handover.",
	.remediation =
	    "Set a random, non-default sm_key, and protect the SM's port with "
	    "a non-zero M_Key at protection level 1 or higher (m_key, "
	    "m_key_protection_level in opensm.conf, or the UFM equivalents) "
	    "so that SMInfo responses to unauthenticated requesters carry a "
	    "zero key or are dropped.",
	.msa_clause =
	    "Provider shall configure every subnet manager with a secret, "
	    "randomly generated SM_Key that is not disclosed to tenant nodes, "
	    "and shall protect subnet manager ports with M_Key protection "
	    "level 1 or higher such that an SMInfo query from a tenant node "
	    "never returns the SM_Key.",
	.refs = refs,
	.sends =
	    "Only Gets: " FA_IB_SENDS_SMINFO ". The SA queries of the same "
	    "scan (see IB-SAKEY-DEFAULT) are the control that tells a dropped "
	    "Get from a dead SM; the SM's port is found by discovery.",
	.outcomes =
	    "One result per SM. Fails when the SM returned a non-zero SM_Key "
	    "to the unauthenticated SubnGet(SMInfo). Passes when it returned "
	    "SM_Key 0 (hidden or unset: IB-SMKEY-DEFAULT tells which), or "
	    "when the SM's port dropped the Get while the SA at the same LID "
	    "answered in the same run (its SMA refuses unauthenticated Gets) "
	    "and no MAD of the run was lost. "
	    "Not tested when SMInfo got no usable answer and no such control "
	    "exists or MADs were lost, when no SM was found, and, as an "
	    "extra result, when "
	    "discovery did not complete (SMs other than the master were not "
	    "looked for).",
	.eval = eval,
};
