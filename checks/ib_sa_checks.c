/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SA access control, from two PKeyTableRecord queries of our own port:
 *
 * IB-SAKEY-DEFAULT   a well-known key is trusted: the query carrying
 *                    SM_Key 0 got records (sa_key 0: OpenSM compares the
 *                    SM_Key with sa_key, osm_sa_pkey_record.c, so 0 is
 *                    trusted), or the one carrying SM_Key 1 (OpenSM's
 *                    default sa_key, OSM_DEFAULT_SA_KEY in osm_base.h)
 *                    got records, NO_RECORDS or TOO_MANY.  OpenSM
 *                    silently drops a wrong non-zero key
 *                    (osm_sa_mad_ctrl.c), so the keyed query's silence
 *                    means "not the key" only if it lasted through more
 *                    than one send, the SA answered the untrusted control
 *                    query, and no SA query of the run lost a send.
 * IB-SA-DISCLOSURE   the query with SM_Key 0 (untrusted) was answered with
 *                    records; OpenSM rejects it with 0x0200
 *                    (osm_sa_pkey_record.c).
 */
#include <string.h>

#include "../core/errors.h"
#include "ib_checks.h"
#include "ib_topo.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

#define SA_REQ_INVALID	0x0200	/* SA class status codes, IBA 15.2.1.1 */
#define SA_NO_RECORDS	0x0300
#define SA_TOO_MANY	0x0400
#define SA_DENIED	0x0700
/*
 * Common MAD status bits 4:2 (IBA vol. 1 13.4.7): bad class version,
 * method or attribute unsupported, invalid field.  An SA that answers so
 * did not judge our key at all.
 */
#define MAD_ST_INVALID_FIELD	0x001c

static const struct fa_obs *
pktr(const struct fa_eval_ctx *ctx, const char *target)
{
	return fa_snapshot_find(ctx->snap, FA_KIND_IB_SA_PKEY_RECORD, target);
}

/* Evidence for an SA observation; *records gets its record count. */
static json_t *
ev_of(const struct fa_obs *o, long long records)
{
	json_t *ev = json_array();

	if (ev == NULL || fa_evidence_add(ev, fa_evidence(o, "request",
	    json_string(o->request))) != 0 || fa_evidence_add(ev,
	    fa_evidence(o, "outcome", json_string(o->reason != NULL ?
	    o->reason : "answered"))) != 0 || fa_evidence_add(ev,
	    fa_evidence(o, "records", json_integer(records))) != 0) {
		json_decref(ev);
		return NULL;
	}
	return ev;
}

/*
 * Common checks of an answered SA observation: 1 if a result was added
 * (malformed, or the SA does not support the query), 0 to go on, <0 on
 * error.
 */
static int
sa_sane(const struct fa_check *c, const struct fa_obs *o, long long *records,
    struct fa_results *out)
{
	long long st = -1;
	int r;

	if (fa_obs_int(o, FA_F(IB_SA_PKEY_RECORD, records), 0, 1 << 20,
	    records) != 0 ||
	    fa_obs_int(o, FA_F(IB_SA_PKEY_RECORD, mad_status), 0, 0xffff,
	    &st) != 0) {
		r = fa_results_add(out, c, FA_ST_ERROR, "sa", NULL, NULL,
		    "observation %s lacks its record count or MAD status",
		    o->id);
		return r < 0 ? r : 1;
	}
	if (st & MAD_ST_INVALID_FIELD) {
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "sa", NULL, NULL,
		    "the SA does not support the query (MAD status 0x%04llx)",
		    st);
		return r < 0 ? r : 1;
	}
	return 0;
}

static int
answered(const struct fa_obs *o)
{
	return o != NULL && (o->state == FA_OBS_COMPLETE ||
	    o->state == FA_OBS_REJECTED);
}

static long long
status_of(const struct fa_obs *o)
{
	long long st = -1;

	(void)fa_obs_int(o, FA_F(IB_SA_PKEY_RECORD, mad_status), 0, 0xffff,
	    &st);
	return st;
}

/* The SA refused the request: "invalid" or "denied" (IBA 15.2.1.1). */
static int
refused(const struct fa_obs *o)
{
	return o != NULL && o->state == FA_OBS_REJECTED &&
	    (status_of(o) == SA_REQ_INVALID || status_of(o) == SA_DENIED);
}

/*
 * A send to the SA was lost in this run: another SA query needed more than
 * one send, or was never answered.  *why gets a description (static).
 */
static int
sa_loss_seen(const struct fa_eval_ctx *ctx, const struct fa_obs *skip,
    const char **why)
{
	/* Each SA query's kind, and its count of sends. */
	static const struct {
		const char			*kind;
		const struct fa_fld_INT		*sends;
	} q[] = {
		{ FA_KIND_IB_SA_PKEY_RECORD, FA_F(IB_SA_PKEY_RECORD, sends) },
		{ FA_KIND_IB_SA_SMINFO, FA_F(IB_SA_SMINFO, sends) },
		{ FA_KIND_IB_SA_PATH_TABLE, FA_F(IB_SA_PATH_TABLE, sends) },
		{ FA_KIND_IB_PATH_RECORD, FA_F(IB_PATH_RECORD, sends) },
		{ FA_KIND_IB_SA_ALIVE, FA_F(IB_SA_ALIVE, sends) },
	};
	const struct fa_obs *o;
	long long sends;
	size_t i, it;

	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++)
		for (it = 0; (o = fa_snapshot_next(ctx->snap, q[i].kind,
		    &it)) != NULL; ) {
			if (o == skip)
				continue;
			if (o->state == FA_OBS_NO_RESPONSE) {
				*why = "another SA query of the run went "
				    "unanswered";
				return 1;
			}
			if (fa_obs_int(o, q[i].sends, 0, 1 << 20, &sends) ==
			    0 && sends > 1) {
				*why = "another SA query of the run was "
				    "answered only after a lost send";
				return 1;
			}
		}
	return 0;
}

/* The reproduce command: `saquery [--smkey 1] PKTR <our LID>`. */
static json_t *
reproduce(const struct fa_eval_ctx *ctx, int keyed)
{
	const struct fa_obs *l = fa_ib_local_obs(ctx->snap);
	long long lid;

	if (l != NULL && fa_obs_int(l, FA_F(IB_LOCAL, lid), 1, 0xbfff,
	    &lid) == 0)
		return fa_json_stringf("saquery%s PKTR %lld", keyed ?
		    " --smkey 1" : "", lid);
	return fa_json_stringf("saquery%s PKTR <own-lid>", keyed ?
	    " --smkey 1" : "");
}

static json_t *
ev_repro(const struct fa_eval_ctx *ctx, const struct fa_obs *o,
    long long records, int keyed)
{
	json_t *ev = ev_of(o, records);

	if (ev != NULL && fa_evidence_add(ev, fa_evidence(NULL, "reproduce",
	    reproduce(ctx, keyed))) != 0) {
		json_decref(ev);
		return NULL;
	}
	return ev;
}

static int
eval_sakey(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *k = pktr(ctx, "sa/trusted-default-key"),
	    *ctl = pktr(ctx, "sa/untrusted");
	const char *loss = NULL;
	long long st, recs = 0, sends = 0;
	json_t *ev;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	/*
	 * P_Key table records to SM_Key 0, the key every requester sends,
	 * go to trusted requests only (IBA vol. 1, quoted in OpenSM's
	 * osm_sa_pkey_record.c, which compares the SM_Key with its sa_key):
	 * the SA's key is 0 or it checks none.  Whatever became of the
	 * keyed query, any tenant's queries are trusted.
	 */
	if (ctl != NULL && ctl->state == FA_OBS_COMPLETE &&
	    fa_obs_int(ctl, FA_F(IB_SA_PKEY_RECORD, records), 0, 1 << 20,
	    &recs) == 0 &&
	    recs > 0) {
		if ((ev = ev_repro(ctx, ctl, recs, 0)) == NULL)
			return FA_ERR_NOMEM;
		return fa_results_add(out, c, FA_ST_FAIL, "sa", NULL, ev,
		    "the SA treated a request carrying SM_Key 0, which needs "
		    "no key at all, as trusted (P_Key table records returned): "
		    "its SA_Key is 0 (OpenSM sa_key 0x0) or it checks none");
	}
	if (k == NULL)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "sa", NULL,
		    NULL, "the SA was not queried with the default SA_Key%s%s",
		    ctl != NULL ? ": " : "", ctl != NULL ? fa_obs_reason(ctl) :
		    "");
	recs = 0;
	if (answered(k) && (r = sa_sane(c, k, &recs, out)) != 0)
		return r < 0 ? r : 0;
	if ((ev = ev_repro(ctx, k, recs, 1)) == NULL)
		return FA_ERR_NOMEM;
	st = status_of(k);
	/*
	 * "None" or "too many" to the keyed query, when the untrusted one got
	 * the same: the key made no difference, so it says nothing of it.
	 * (Neither is an answer OpenSM gives about the requester's own LID,
	 * whose record exists: with its key, or with key 0 when sa_key is 0,
	 * it returns the record; else it refuses or drops the request.)
	 */
	if (k->state == FA_OBS_REJECTED && (st == SA_NO_RECORDS ||
	    st == SA_TOO_MANY) && ctl != NULL &&
	    ctl->state == FA_OBS_REJECTED && status_of(ctl) == st)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "sa", NULL, ev,
		    "the SA gave the request carrying SM_Key 1 the answer it "
		    "gave the untrusted one (%s): the key made no difference",
		    fa_obs_reason(k));
	/* Records, or "none"/"too many": the query was processed as trusted. */
	if (k->state == FA_OBS_COMPLETE || (k->state == FA_OBS_REJECTED &&
	    (st == SA_NO_RECORDS || st == SA_TOO_MANY)))
		return fa_results_add(out, c, FA_ST_FAIL, "sa", NULL, ev,
		    "the SA treated a request carrying SM_Key 1 (OpenSM's "
		    "default sa_key) as trusted (%s)", k->state ==
		    FA_OBS_COMPLETE ? "records returned" : fa_obs_reason(k));
	if (k->state == FA_OBS_REJECTED && (st == SA_REQ_INVALID ||
	    st == SA_DENIED))
		return fa_results_add(out, c, FA_ST_PASS, "sa", NULL, ev,
		    "the SA refused the request carrying SM_Key 1 (%s)",
		    fa_obs_reason(k));
	if (k->state == FA_OBS_REJECTED)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "sa", NULL, ev,
		    "the SA answered the request carrying SM_Key 1 with a "
		    "status that says nothing of the key (%s)",
		    fa_obs_reason(k));
	/*
	 * Silence is the answer of an SA whose key is not 1 (OpenSM drops
	 * the request, osm_sa_mad_ctrl.c) only if it lasted through more
	 * than one send (a snapshot of an older scan, which sent it once,
	 * may hold one: one lost send is as likely as a refused key), the
	 * SA refused the untrusted control (an SA that checks keys), and no
	 * send to it was lost in the run: else it may be loss.
	 */
	if (k->state == FA_OBS_NO_RESPONSE && (fa_obs_int(k,
	    FA_F(IB_SA_PKEY_RECORD, sends), 0, 1 << 20, &sends) != 0 ||
	    sends < 2))
		loss = "the request was sent only once";
	else if (k->state == FA_OBS_NO_RESPONSE && refused(ctl) &&
	    !sa_loss_seen(ctx, k, &loss))
		return fa_results_add(out, c, FA_ST_PASS, "sa", NULL, ev,
		    "the SA dropped the request carrying SM_Key 1 while it "
		    "answered the untrusted control request: 1 is not its "
		    "SA_Key");
	if (k->state == FA_OBS_NO_RESPONSE && answered(ctl) && loss == NULL)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "sa", NULL, ev,
		    "no answer to the request carrying SM_Key 1, but the SA "
		    "did not refuse the untrusted control (%s), so it may "
		    "check no key: the silence says nothing of one",
		    fa_obs_reason(ctl));
	if (k->state == FA_OBS_NO_RESPONSE && answered(ctl))
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "sa", NULL, ev,
		    "no answer to the request carrying SM_Key 1, but %s: its "
		    "silence may be loss, not a refused key", loss);
	return fa_results_add(out, c, fa_status_for_obs(k), "sa", NULL, ev,
	    "no usable answer to the request carrying SM_Key 1 (%s) and no "
	    "answered control request", fa_obs_reason(k));
}

static int
eval_disclosure(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *u = pktr(ctx, "sa/untrusted");
	long long recs = 0, st;
	json_t *ev;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	if (u == NULL || (u->state != FA_OBS_COMPLETE &&
	    u->state != FA_OBS_REJECTED))
		return fa_results_add(out, c, u != NULL ? fa_status_for_obs(u) :
		    FA_ST_NOT_TESTED, "sa", NULL, NULL, "the untrusted "
		    "PKeyTableRecord query got no answer (%s)", u != NULL ?
		    fa_obs_reason(u) : "not sent");
	if ((r = sa_sane(c, u, &recs, out)) != 0)
		return r < 0 ? r : 0;
	if ((ev = ev_repro(ctx, u, recs, 0)) == NULL)
		return FA_ERR_NOMEM;
	if (u->state == FA_OBS_COMPLETE && recs > 0)
		return fa_results_add(out, c, FA_ST_FAIL, "sa", NULL, ev,
		    "the SA returned P_Key table records to an untrusted "
		    "requester (SM_Key 0)");
	st = status_of(u);
	if (u->state == FA_OBS_REJECTED && (st == SA_REQ_INVALID ||
	    st == SA_DENIED))
		return fa_results_add(out, c, FA_ST_PASS, "sa", NULL, ev,
		    "the SA refused P_Key table records to an untrusted "
		    "requester (%s)", fa_obs_reason(u));
	return fa_results_add(out, c, FA_ST_NOT_TESTED, "sa", NULL, ev,
	    "the untrusted query got neither records nor a refusal (%s)",
	    fa_obs_reason(u));
}

#define REF_IBA								\
	"InfiniBand Architecture Specification Vol. 1, 15.2.1: SA MAD "	\
	"header (SM_Key) and trusted requests"
#define REF_OSM								\
	"OpenSM osm_sa_mad_ctrl.c, osm_sa_pkey_record.c: sa_key check, " \
	"untrusted PKeyTableRecord rejected"

static const char *const refs_key[] = {
	REF_IBA, REF_OSM, FA_CMAX_IB_KEYS, FA_CMAX_UFM_KEY("SAKEY"), NULL
};

static const char *const refs_disc[] = {
	REF_IBA, REF_OSM,
	FA_CMAX_UFM("enhanced SA trust model applied to all commands"),
	NULL
};

#define SENDS_PKTR							\
	"two SubnAdmGet(PKeyTableRecord) of the tenant port's own P_Key " \
	"table (block 0) to the SA at the master SM's LID, one with SM_Key " \
	"0 (untrusted) and one with SM_Key 1, OpenSM's default sa_key"

const struct fa_check fa_chk_ib_sakey_default = {
	.id = "IB-SAKEY-DEFAULT",
	.family = FA_FAM_IB,
	.own_port_only = 1,
	.reads_sm_sa = 1,
	.severity = FA_SEV_CRITICAL,
	.title = "The SA trusts a well-known SA_Key (0 or OpenSM's default 1)",
	.rationale =
	    "With OpenSM's default sa_key of 1, or with sa_key 0 (the SM_Key "
	    "every untrusted requester sends), any tenant can make trusted "
	    "SA queries: P_Key tables of every port it shares a partition "
	    "with, real M_Keys in PortInfoRecords, service keys and "
	    "subscriptions to security traps.",
	.remediation =
	    "Set a random, secret, non-zero sa_key (OpenSM sa_key; UFM "
	    "sa_key) and "
	    "distribute it only to provider management hosts.",
	.msa_clause =
	    "Provider shall configure the subnet administrator with a secret, "
	    "randomly generated SA_Key, and shall not disclose it to Customer "
	    "or to any other tenant.",
	.refs = refs_key,
	.sends =
	    "Only Gets: " SENDS_PKTR "; the untrusted one is the control. "
	    "When the SA returned records to the SM_Key 1 query and none to "
	    "the untrusted one, one more SubnAdmGet(PKeyTableRecord) with "
	    "SM_Key 1 per other CA port whose P_Key table SMP could not "
	    "read. An SA whose key is not 1 drops the SM_Key 1 query of the "
	    "tenant's own port, and OpenSM logs each send of it (ERR 1A04: "
	    "1 + --retries lines, since one lost send must not read as a "
	    "refused key), as it logs the untrusted one it refuses (ERR "
	    "4608).",
	.outcomes =
	    "Fails when the SA returned records to the untrusted query "
	    "(SM_Key 0): its SA_Key is 0, or it checks none, whatever became "
	    "of the other query. Fails too when it treated the query "
	    "carrying SM_Key 1 as trusted: it returned records, or said "
	    "\"no records\" or \"too many\" where the untrusted query got "
	    "another answer. Passes when the SA refused the SM_Key 1 query "
	    "(REQ_INVALID or DENIED), or dropped every send of it while "
	    "refusing the untrusted control (an SA that checks keys), no SA "
	    "query of the run having lost a send. "
	    "Not tested when it was not sent (no SM LID known), when the SA "
	    "does not support the query, when both queries got the same "
	    "\"no records\" or \"too many\", when the SM_Key 1 query went "
	    "unanswered and was sent only once (a snapshot of an older "
	    "scan), the control was not refused or another SA query lost a "
	    "send, or when only a status that says nothing of the key came "
	    "back.",
	.eval = eval_sakey,
};

const struct fa_check fa_chk_ib_sa_disclosure = {
	.id = "IB-SA-DISCLOSURE",
	.family = FA_FAM_IB,
	.own_port_only = 1,
	.severity = FA_SEV_HIGH,
	.title = "The SA discloses restricted records to untrusted requesters",
	.rationale =
	    "P_Key tables (and M_Keys in PortInfoRecords) are for trusted "
	    "managers only. An SA that hands them to any node discloses the "
	    "partition layout and keys of the fabric.",
	.remediation =
	    "Use an SA that enforces the trusted/untrusted distinction "
	    "(OpenSM does; NVIDIA's SA enhanced trust model restricts "
	    "further).",
	.msa_clause =
	    "Provider shall configure the subnet administrator to refuse "
	    "P_Key table records, management keys and other restricted "
	    "records to tenant nodes.",
	.refs = refs_disc,
	.sends =
	    "Only Gets: of the " SENDS_PKTR " (see IB-SAKEY-DEFAULT), this "
	    "check reads the untrusted one.",
	.outcomes =
	    "Fails when the SA returned P_Key table records to the untrusted "
	    "query. Passes when it refused them (REQ_INVALID or DENIED). "
	    "Not tested when the query got no answer, the SA does not "
	    "support it, or the answer was neither records nor a refusal.",
	.eval = eval_disclosure,
};
