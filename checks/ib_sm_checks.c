/*
 * Subnet manager checks, from the SMInfo Gets to every SM port and the
 * SA's SMInfoRecords:
 *
 * IB-SMKEY-DEFAULT   the SM_Key is 1 (OpenSM's default, osm_base.h) or 0
 *                    (no SM authentication at all: OpenSM skips the
 *                    check when its own key is 0, osm_sminfo_rcv.c).  A
 *                    zero in the reply is ambiguous: an SM port at M_Key
 *                    protection level >= 1 hides the key as 0.  The SM
 *                    port's PortInfo from discovery resolves it.
 * IB-SM-UNEXPECTED   more than one MASTER, or an SM on a port GUID the
 *                    policy's sm_guid lines do not list.
 */
#include <stdio.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_topo.h"

#define SM_MASTER	3	/* SMInfo SMState (IBA vol. 1 14.4.1) */

static const char *const state_names[] = {
	"NotActive", "Discovering", "Standby", "Master",
};

/* Protection bits of the SM's port from discovery, or -1 if unknown. */
static long long
sm_port_protect(const struct fa_eval_ctx *ctx, const struct fa_obs *o)
{
	const struct fa_obs *topo = fa_ib_topology(ctx->snap);
	struct fa_ib_port_ref p;
	uint64_t guid;
	long long prot = -1;

	if (topo == NULL || fa_json_get_u64(o->data, "port_guid", &guid) != 0 ||
	    fa_ib_find_port(topo, NULL, guid, &p) != 1)
		return -1;
	(void)fa_json_get_int(p.port, "mkey_protect", 0, 3, &prot);
	return prot;
}

static int
eval_smkey_default(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o;
	const json_t *key;
	const char *name;
	size_t it = 0;
	long long prot;
	json_t *ev;
	int r, zero, wk, seen = 0;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_IB_SMINFO, &it))) {
		seen++;
		name = fa_json_get_str(o->data, "node_desc");
		if (o->state != FA_OBS_COMPLETE) {
			if ((r = fa_results_add(out, c, fa_status_for_obs(o),
			    o->target, name, NULL, "SubnGet(SMInfo) got no "
			    "usable answer (%s)", fa_obs_reason(o))) < 0)
				return r;
			continue;
		}
		key = json_object_get(o->data, "sm_key");
		if (fa_ib_secret_zero(key, &zero) != 0 ||
		    fa_json_get_bool(key, "well_known", &wk) != 0) {
			if ((r = fa_results_add(out, c, FA_ST_ERROR, o->target,
			    name, NULL, "observation %s has no decodable sm_key",
			    o->id)) < 0)
				return r;
			continue;
		}
		prot = sm_port_protect(ctx, o);
		if ((ev = json_array()) == NULL || fa_evidence_add(ev,
		    fa_evidence(o, "sm_key", json_deep_copy(key))) != 0 ||
		    fa_evidence_add(ev, fa_evidence(NULL, "sm_port_mkey_protect",
		    prot >= 0 ? json_integer(prot) :
		    json_string("unknown"))) != 0 || fa_evidence_add(ev,
		    fa_evidence(NULL, "reproduce", json_string(
		    "sminfo -d -d -d <sm-lid>   (SM_Key: SMInfo bytes 8-15)")))
		    != 0) {
			json_decref(ev);
			return FA_ERR_NOMEM;
		}
		if (!zero && wk)
			r = fa_results_add(out, c, FA_ST_FAIL, o->target, name,
			    ev, "the SM_Key is 1, OpenSM's well-known default");
		else if (!zero)
			r = fa_results_add(out, c, FA_ST_PASS, o->target, name,
			    ev, "the SM_Key is neither 0 nor OpenSM's default 1");
		else if (prot == 0)
			r = fa_results_add(out, c, FA_ST_FAIL, o->target, name,
			    ev, "the SM_Key is really 0 (the SM port has no "
			    "M_Key protection, so 0 was not hidden): SMs do not "
			    "authenticate each other");
		else if (prot > 0)
			r = fa_results_add(out, c, FA_ST_NOT_TESTED, o->target,
			    name, ev, "SM_Key read as 0 but hidden by the SM "
			    "port's M_Key protection level %lld: its value "
			    "cannot be judged", prot);
		else
			r = fa_results_add(out, c, FA_ST_NOT_TESTED, o->target,
			    name, ev, "SM_Key read as 0 and the SM port's "
			    "PortInfo is unknown: hidden or unset cannot be "
			    "told apart");
		if (r < 0)
			return r;
	}
	if (seen == 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no subnet manager was found to query");
	return fa_ib_sm_enum_gate(c, ctx, out);
}

#define MAX_MASTERS	64

/* Distinct master GUIDs, from SMInfo and the SA together. */
struct masters {
	uint64_t	guid[MAX_MASTERS];
	int		n;
	int		nomem;	/* an evidence entry could not be added */
};

/* Add one SM to the evidence list and judge it; returns 1 if unexpected. */
static int
judge_sm(const struct fa_eval_ctx *ctx, json_t *list, uint64_t guid,
    long long lid, long long state, long long prio, const char *source,
    struct masters *m)
{
	char hex[19];
	json_t *e;
	size_t i;
	int listed = 0, bad, k;

	for (i = 0; i < ctx->policy->n_sm_guid; i++)
		if (ctx->policy->sm_guid[i].value == guid)
			listed = 1;
	bad = ctx->policy->n_sm_guid > 0 && !listed;
	if (state == SM_MASTER) {
		for (k = 0; k < m->n && m->guid[k] != guid; k++)
			;
		if (k == m->n && m->n < MAX_MASTERS)
			m->guid[m->n++] = guid;
	}
	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)guid);
	e = json_pack("{s:s, s:I, s:s, s:I, s:s, s:b}", "guid", hex, "lid",
	    (json_int_t)lid, "state", state >= 0 && state <= 3 ?
	    state_names[state] : "unknown", "priority", (json_int_t)prio,
	    "source", source, "listed_in_policy", listed);
	if (e == NULL || json_array_append_new(list, e) != 0)
		m->nomem = 1;
	return bad;
}

static int
eval_sm_unexpected(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o, *sa;
	const json_t *sms, *e;
	size_t it = 0, i;
	long long lid, state, prio;
	uint64_t guid;
	json_t *list, *ev;
	struct masters ms;
	int r, masters, unexpected = 0, seen = 0, malformed = 0;
	int unanswered = 0;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	if ((list = json_array()) == NULL)
		return FA_ERR_NOMEM;
	ms.n = 0;
	ms.nomem = 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_IB_SMINFO, &it))) {
		if (o->state != FA_OBS_COMPLETE) {
			unanswered++;
			continue;
		}
		if (fa_json_get_u64(o->data, "guid", &guid) != 0 ||
		    fa_json_get_int(o->data, "lid", 0, 0xffff, &lid) != 0 ||
		    fa_json_get_int(o->data, "state", 0, 15, &state) != 0 ||
		    fa_json_get_int(o->data, "priority", 0, 15, &prio) != 0) {
			malformed++;
			continue;
		}
		seen++;
		unexpected += judge_sm(ctx, list, guid, lid, state, prio,
		    "SubnGet(SMInfo)", &ms);
	}
	/* SMs the SA knows but SMP discovery did not find (and vice versa). */
	sa = fa_snapshot_find(ctx->snap, "ib.sa.sminfo_records", "sa");
	sms = sa != NULL && sa->state == FA_OBS_COMPLETE ?
	    json_object_get(sa->data, "sms") : NULL;
	json_array_foreach(sms, i, e) {
		if (fa_json_get_u64(e, "guid", &guid) != 0 ||
		    fa_json_get_int(e, "lid", 0, 0xffff, &lid) != 0 ||
		    fa_json_get_int(e, "state", 0, 15, &state) != 0 ||
		    fa_json_get_int(e, "priority", 0, 15, &prio) != 0) {
			malformed++;
			continue;
		}
		seen++;
		unexpected += judge_sm(ctx, list, guid, lid, state, prio,
		    "SA SMInfoRecord", &ms);
	}
	if (malformed > 0) {
		json_decref(list);
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "%d SM observation%s or record%s malformed", malformed,
		    malformed == 1 ? " is" : "s are", malformed == 1 ? "" : "s");
	}
	if (ms.nomem) {
		json_decref(list);
		return FA_ERR_NOMEM;
	}
	masters = ms.n;
	if (seen == 0) {
		json_decref(list);
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no SM answered SMInfo and the SA listed none");
	}
	if ((ev = json_array()) == NULL || fa_evidence_add(ev, fa_evidence(
	    NULL, "sms", list)) != 0 || fa_evidence_add(ev, fa_evidence(NULL,
	    "reproduce", json_string("saquery SMIR; sminfo <lid>"))) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (masters <= 1 && unexpected == 0 &&
	    fa_ib_topology(ctx->snap) == NULL) {
		json_decref(ev);
		return fa_ib_sm_enum_gate(c, ctx, out);
	}
	if (masters <= 1 && unexpected == 0 && unanswered > 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    ev, "%d port%s advertising an SM did not answer SMInfo: "
		    "their state and identity are unknown", unanswered,
		    unanswered == 1 ? "" : "s");
	if (masters > 1 || unexpected > 0)
		return fa_results_add(out, c, FA_ST_FAIL, "fabric", NULL, ev,
		    "%d SM%s in MASTER state, %d SM report%s from ports the "
		    "policy does not list as SM ports", masters,
		    masters == 1 ? "" : "s", unexpected,
		    unexpected == 1 ? "" : "s");
	if (ctx->policy->n_sm_guid == 0)
		return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL, ev,
		    "one master SM; the policy names no sm_guid, so SM "
		    "placement was not judged");
	return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL, ev,
	    "every SM found runs on a port the policy lists, with one master");
}

static const char *const refs_key[] = {
	"InfiniBand Architecture Specification Vol. 1, 14.4: SM_Key and "
	    "SM negotiation",
	"OpenSM osm_base.h (sm_key default 1), osm_sminfo_rcv.c",
	FA_CMAX_IB_KEYS,
	FA_CMAX_UFM_KEY("SMKEY"),
	NULL
};

static const char *const refs_sm[] = {
	"InfiniBand Architecture Specification Vol. 1, 14.4.1: SM states "
	    "and priority",
	"OpenSM osm_state_mgr.c: handover to a higher-priority SM",
	NULL
};

const struct fa_check fa_chk_ib_smkey_default = {
	.id = "IB-SMKEY-DEFAULT",
	.family = FA_FAM_IB,
	.severity = FA_SEV_CRITICAL,
	.title = "The SM_Key is a well-known value (0 or OpenSM's default 1)",
	.rationale =
	    "With SM_Key 1 (OpenSM's default) a rogue SM configured the same "
	    "way is accepted for handover when it outranks the master; with "
	    "SM_Key 0 SMs do not authenticate each other at all.",
	.remediation =
	    "Set a random sm_key on every provider SM (the same value on "
	    "master and standbys) and keep it secret.",
	.msa_clause =
	    "Provider shall configure every subnet manager with a secret, "
	    "randomly generated SM_Key other than 0 and 1.",
	.refs = refs_key,
	.sends =
	    "Only Gets: " FA_IB_SENDS_SMINFO "; and the PortInfo that "
	    "discovery read from the SM's port (see IB-MKEY-UNSET).",
	.outcomes =
	    "One result per SM. Fails when the SM_Key read is 1 (OpenSM's "
	    "default), or 0 while the SM's port has M_Key protection bits 0, "
	    "so that the 0 was not hidden. Passes when the key read is "
	    "neither 0 nor 1. Not tested when the key reads 0 but the SM's "
	    "port is M_Key protected (a hidden key cannot be judged) or its "
	    "PortInfo is unknown, when SMInfo got no usable answer, when no "
	    "SM was found, and, as an extra result, when discovery did not "
	    "complete.",
	.eval = eval_smkey_default,
};

const struct fa_check fa_chk_ib_sm_unexpected = {
	.id = "IB-SM-UNEXPECTED",
	.family = FA_FAM_IB,
	.severity = FA_SEV_HIGH,
	.title = "Unexpected subnet manager (several masters, or an unlisted SM)",
	.rationale =
	    "An SM outside the provider's infrastructure, or a second master, "
	    "means the fabric's configuration is not under the provider's "
	    "sole control: a rogue SM can reassign LIDs, partitions and "
	    "routes.",
	.remediation =
	    "Run SMs only on provider management nodes, disable SM "
	    "capability on tenant ports (IsSMDisabled), and investigate any "
	    "SM reported from a tenant node.",
	.msa_clause =
	    "Provider shall operate subnet managers only on provider-"
	    "controlled nodes identified to Customer, and shall prevent "
	    "tenant nodes from acting as subnet managers.",
	.refs = refs_sm,
	.sends =
	    "Only Gets: " FA_IB_SENDS_SMINFO ", and one "
	    "SubnAdmGetTable(SMInfoRecord) to the SA: every SM it knows.",
	.outcomes =
	    "Fails when more than one SM is in MASTER state, or when the "
	    "policy lists sm_guid lines and an SM reports from a port GUID "
	    "they do not list. Passes with one master and no unlisted SM; "
	    "without sm_guid lines only the number of masters is judged. "
	    "Not tested when no SM answered SMInfo and the SA listed none; "
	    "and, instead of passing, when a port advertising an SM did not "
	    "answer SMInfo or discovery did not complete.",
	.eval = eval_sm_unexpected,
};
