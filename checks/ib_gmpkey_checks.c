/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * IB-CCKEY-UNSET, IB-VSKEY-UNSET, IB-AMKEY-UNSET: the key of the
 * Congestion Control, vendor-specific (Mellanox 0x0A) and SHARP
 * Aggregation Management classes, from one Get per node with key 0
 * (fabric/ib_gmpkeys.c).
 *
 * An agent that answers our key-0 request has no key, or does not enforce
 * it (CC protect bit 0 returns even a set key, UFM cc_key_protect_bit);
 * that is a failure, and the answer is the evidence.  Silence cannot be
 * judged: an agent with a protected key drops a wrong key exactly as a
 * node without the class does, and the scan has no key to send a control
 * with.  So these checks never pass; without an answer they are
 * not_tested, with the counts of silent and unsupported nodes; and
 * not_tested when the scan was told to leave the class out (--key-probes).
 */
#include <stdio.h>
#include <string.h>

#include "../core/errors.h"
#include "ib_checks.h"
#include "ib_topo.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

#define MAD_ST_INVALID_FIELD	0x001c	/* IBA vol. 1 13.4.7, bits 4:2 */

/*
 * Whether the scan was told not to probe class cls: its options list the
 * classes probed (scan.ib_options.key_probes, --key-probes); a snapshot
 * without the list comes from a scan that probed them all.
 */
static int
left_out(const struct fa_eval_ctx *ctx, const char *cls)
{
	const json_t *l, *v;
	size_t i;

	l = json_object_get(json_object_get(json_object_get(ctx->snap->meta,
	    "scan"), "ib_options"), "key_probes");
	if (!json_is_array(l))
		return 0;
	json_array_foreach(l, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), cls) == 0)
			return 0;
	return 1;
}

/* What the probes of one class showed, node by node. */
struct tally {
	struct fa_ib_list	 l;		/* the nodes that answered */
	size_t			 probed, silent, unsupported, other;
	const struct fa_obs	*src;		/* their observation, if one */
};

/*
 * Judge one node's probe: its target, the state it ended in, and d, which
 * holds its node_desc, node_type, mad_status and (CC) cc_key.  0,
 * FA_ERR_INPUT when d has no consistent cc_key, or FA_ERR_NOMEM.
 */
static int
judge(struct tally *t, const char *cls, const char *target,
    enum fa_obs_state state, const json_t *d)
{
	long long st;
	const char *why;
	json_t *item;
	int zero;

	t->probed++;
	if (state == FA_OBS_NO_RESPONSE) {
		t->silent++;
		return 0;
	}
	if (state == FA_OBS_REJECTED &&
	    fa_json_get_int(d, "mad_status", 0, 0xffff, &st) == 0 &&
	    (st & MAD_ST_INVALID_FIELD) != 0) {
		t->unsupported++;
		return 0;
	}
	if (state != FA_OBS_COMPLETE) {
		t->other++;
		return 0;
	}
	why = "answered a request carrying key 0: no key, or not enforced";
	if (strcmp(cls, "cc") == 0) {
		if (fa_ib_secret_zero(json_object_get(d, "cc_key"), &zero) != 0)
			return FA_ERR_INPUT;
		why = zero ? "CongestionKeyInfo answered with CC_Key 0: no "
		    "CC_Key check" : "CongestionKeyInfo returned the non-zero "
		    "CC_Key to a key-0 Get (protect bit 0)";
	}
	/* Its LID for the "reproduce" command. */
	item = json_pack("{s:s, s:O?, s:s?, s:s?, s:O?, s:s}", "target",
	    target, "lid", json_object_get(d, "lid"), "node_desc",
	    fa_json_get_str(d, "node_desc"), "node_type", fa_json_get_str(d,
	    "node_type"), "cc_key", json_object_get(d, "cc_key"), "finding",
	    why);
	return fa_ib_list_add(&t->l, item) != 0 ? FA_ERR_NOMEM : 0;
}

/*
 * Tally the class's probes: its ib.gmp.key_probes observation (an entry
 * per node that answered, the others in quiet groups; older versions
 * listed every node as an entry), or, from snapshots before it, one
 * ib.gmp.key_probe observation per node.  0, FA_ERR_NOMEM, or
 * FA_ERR_INPUT with *bad naming the observation and *why (static) what
 * is wrong with it: a CC answer without a consistent cc_key, or no node
 * list, or a node without a target or a state (or, in a quiet group,
 * with state complete).
 */
static int
tally(const struct fa_eval_ctx *ctx, const char *cls, struct tally *t,
    const struct fa_obs **bad, const char **why)
{
	const struct fa_obs *o;
	const json_t *e;
	const char *name, *target;
	enum fa_obs_state st;
	size_t it = 0, i;
	int r;

	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_IB_KEYPROBES, &it))) {
		name = fa_obs_str(o, FA_F(IB_KEYPROBES, class));
		if (name == NULL || strcmp(name, cls) != 0)
			continue;
		*bad = o;
		t->src = t->probed == 0 ? o : NULL;
		*why = "has no node list, or a node without a target or a "
		    "state";
		if (!json_is_array(fa_obs_arr(o, FA_F(IB_KEYPROBES, nodes))))
			return FA_ERR_INPUT;
		json_array_foreach(fa_obs_arr(o, FA_F(IB_KEYPROBES, nodes)), i,
		    e) {
			target = fa_json_get_str(e, "target");
			if (target == NULL || fa_obs_state_parse(
			    fa_json_get_str(e, "state"), &st) != 0)
				return FA_ERR_INPUT;
			if ((r = judge(t, cls, target, st, e)) != 0) {
				*why = "has no consistent cc_key";
				return r;
			}
		}
		/* Grouped: nodes that did not answer (none answered). */
		*why = "has a node without a target or a state (in a quiet "
		    "group: or with state complete)";
		json_array_foreach(fa_obs_arr(o, FA_F(IB_KEYPROBES, quiet)),
		    i, e) {
			const json_t *tg = json_object_get(e, "targets"), *v;
			size_t k;

			if (!json_is_array(tg) || fa_obs_state_parse(
			    fa_json_get_str(e, "state"), &st) != 0 ||
			    st == FA_OBS_COMPLETE)
				return FA_ERR_INPUT;
			json_array_foreach(tg, k, v) {
				if (!json_is_string(v))
					return FA_ERR_INPUT;
				if ((r = judge(t, cls, json_string_value(v), st,
				    e)) != 0)
					return r;
			}
		}
	}
	it = 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_IB_KEYPROBE, &it))) {
		name = fa_obs_str(o, FA_F(IB_KEYPROBE, class));
		if (name == NULL || strcmp(name, cls) != 0)
			continue;
		*bad = o;
		t->src = NULL;
		if ((r = judge(t, cls, o->target, o->state,
		    fa_obs_data(o))) != 0) {
			*why = "has no consistent cc_key";
			return r;
		}
	}
	return 0;
}

/*
 * The command that sends the class's Get without a key to the first node
 * listed (the LID judge() kept), and what its output shows; only a note
 * where no command exists.  0 or FA_ERR_NOMEM.
 */
static int
gk_repro(json_t *ev, const char *cls, const json_t *first)
{
	long long lid = 0;
	char cmd[48];
	const char *note;

	if (strcmp(cls, "am") == 0 && first != NULL)
		note = "no command: no infiniband-diags tool sends SHARP "
		    "Aggregation Management (class 0x0B) MADs; the nodes "
		    "listed answered the scan's Get(ClassPortInfo) carrying "
		    "AM_Key 0";
	else if (strcmp(cls, "am") == 0)
		note = "no command: no infiniband-diags tool sends SHARP "
		    "Aggregation Management (class 0x0B) MADs";
	else if (first == NULL)
		note = "no command: no node answered a request without the key";
	else if (fa_json_get_int(first, "lid", 1, 0xbfff, &lid) != 0)
		note = "no command: the first node listed has no LID recorded";
	else
		note = NULL;
	if (note != NULL)
		return fa_ib_repro(ev, NULL, note);
	if (strcmp(cls, "cc") == 0) {
		snprintf(cmd, sizeof(cmd), "ibccquery CongestionKeyInfo %lld",
		    lid);
		note = "for the first node listed; for the others use their "
		    "LID. ibccquery sends CC_Key 0: CC_Key reads "
		    "0x0000000000000000 where no key is set; a non-zero CC_Key "
		    "with CC_KeyProtectBit 0 is returned to anyone";
	} else {
		snprintf(cmd, sizeof(cmd), "vendstat -N %lld", lid);
		note = "for the first node listed; for the others use their "
		    "LID. vendstat sends vendor class 0x0A Gets without a "
		    "VS_Key; an answer shows the agent accepts them";
	}
	return fa_ib_repro(ev, cmd, note);
}

static int
gk_eval(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out, const char *cls, const char *key_name)
{
	const struct fa_obs *bad = NULL, *topo;
	const char *why = NULL;
	struct tally t;
	json_t *ev, *first;
	long long lost;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	memset(&t, 0, sizeof(t));
	if (fa_ib_list_init(&t.l) != 0)
		return FA_ERR_NOMEM;
	if ((r = tally(ctx, cls, &t, &bad, &why)) != 0) {
		json_decref(t.l.items);
		if (r == FA_ERR_INPUT)
			return fa_results_add(out, c, FA_ST_ERROR, bad->target,
			    NULL, NULL, "observation %s %s", bad->id, why);
		return r;
	}
	if (t.probed == 0) {
		json_decref(t.l.items);
		if (left_out(ctx, cls))
			return fa_results_add(out, c, FA_ST_NOT_TESTED,
			    "fabric", NULL, NULL, "the scan was told not to "
			    "probe for the %s (--key-probes without %s)",
			    key_name, cls);
		topo = fa_snapshot_find(ctx->snap, FA_KIND_IB_TOPOLOGY,
		    "fabric");
		if (topo == NULL || (topo->state != FA_OBS_COMPLETE &&
		    topo->state != FA_OBS_INCOMPLETE))
			return fa_results_add(out, c, FA_ST_NOT_TESTED,
			    "fabric", NULL, NULL, "no node was probed for the "
			    "%s: discovery did not complete (%s)", key_name,
			    topo != NULL ? fa_obs_reason(topo) : "not run");
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no node was probed for the %s: discovery found no "
		    "node to probe (every node but the tenant's own and those "
		    "hosting an SM, with a LID)%s%s%s", key_name,
		    topo->state != FA_OBS_COMPLETE ? ", and it did not "
		    "observe the whole fabric (" : "", topo->state !=
		    FA_OBS_COMPLETE ? fa_obs_reason(topo) : "",
		    topo->state != FA_OBS_COMPLETE ? ")" : "");
	}
	/* The list is stolen below: keep its first node for the command. */
	first = json_incref(json_array_get(t.l.items, 0));
	if ((ev = fa_ib_list_evidence(&t.l, t.src, "nodes")) == NULL ||
	    fa_evidence_add(ev, fa_evidence(NULL, "silent",
	    json_integer((json_int_t)t.silent))) != 0 ||
	    fa_evidence_add(ev, fa_evidence(NULL, "unsupported",
	    json_integer((json_int_t)t.unsupported))) != 0 ||
	    gk_repro(ev, cls, first) != 0) {
		json_decref(first);
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	json_decref(first);
	if (t.l.count > 0)
		return fa_results_add(out, c, FA_ST_FAIL, "fabric", NULL, ev,
		    "%zu of %zu nodes answered a request carrying %s 0",
		    t.l.count, t.probed, key_name);
	lost = fa_ib_mads_lost(ctx->snap);
	return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL, ev,
	    "no node answered a request carrying %s 0 (%zu silent, %zu "
	    "unsupported, %zu other): a protected key and an absent class "
	    "look alike without a key to send%s", key_name, t.silent,
	    t.unsupported, t.other, lost > 0 ? "; and MADs were lost during "
	    "this scan, so a silence may be a probe lost on the way (the "
	    "probes are sent once)" : "");
}

static int
eval_cc(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	return gk_eval(c, ctx, out, "cc", "CC_Key");
}

static int
eval_vs(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	return gk_eval(c, ctx, out, "vs", "VS_Key");
}

static int
eval_am(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	return gk_eval(c, ctx, out, "am", "AM_Key");
}

static const char *const refs_cc[] = {
	"InfiniBand Architecture Specification Vol. 1, Annex A10: Congestion "
	    "Control (CC_Key, CongestionKeyInfo)",
	"NVIDIA UFM SM: cc_key_protect_bit, key_mgr_seed",
	FA_CMAX_IB_KEYS,
	FA_CMAX_UFM_KEY("CCKEY"),
	NULL
};

static const char *const refs_vs[] = {
	"InfiniBand Architecture Specification Vol. 1, 13.4.4: vendor-specific "
	    "management classes",
	"NVIDIA UFM SM: vs_key_enable; MFT mtcr_ib_ofed.c (VS_Key)",
	FA_CMAX_IB_KEYS,
	FA_CMAX_UFM_KEY("VSKEY"),
	NULL
};

static const char *const refs_am[] = {
	"NVIDIA SHARP Aggregation Manager: AM_Key (class 0x0B)",
	"NVIDIA ibdiagnet: --am_key, guid2am_key",
	FA_CMAX_AM_KEY,
	FA_CMAX_UFM_KEY("AM and job keys"),
	NULL
};

/* The probe, and the verdicts, are the same for the three classes. */
#define SENDS(get)							\
	"One LID-routed " get " with key 0 to every node discovery "	\
	"found, on switch port 0 or a CA's first port with a LID, except " \
	"the tenant's own node and nodes whose port advertises IsSM. Each " \
	"is sent once, never retried: to an agent whose key is set and " \
	"protected a wrong key is a violation that it counts and may "	\
	"report. A Get changes nothing."
#define OUTCOMES(key)							\
	"Fails when a node answered a request carrying " key " 0: it "	\
	"has no key, or does not enforce it. Never passes: an agent with a " \
	"protected key drops a wrong key exactly as a node without the " \
	"class does, and the scan has no key to send a control with. Not " \
	"tested otherwise, with the counts of silent and unsupported "	\
	"nodes, when discovery did not complete (no node probed), and " \
	"when the scan was told to leave the class out (--key-probes)."

const struct fa_check fa_chk_ib_cckey_unset = {
	.id = "IB-CCKEY-UNSET",
	.family = FA_FAM_IB,
	.severity = FA_SEV_MEDIUM,
	.title = "Congestion Control agents accept requests without a CC_Key",
	.rationale =
	    "Without a CC_Key (or with it unprotected) any node may read and "
	    "change congestion control settings of switches and adapters, and "
	    "so throttle other tenants' traffic.",
	.remediation =
	    "Configure CC_Keys on every CC agent with the protect bit set "
	    "(UFM key_mgr_seed, cc_key_protect_bit 1).",
	.msa_clause =
	    "Provider shall protect the Congestion Control agents of all "
	    "switches and adapters with a secret CC_Key with its protect bit "
	    "set.",
	.refs = refs_cc,
	.sends = SENDS("Congestion Control (class 0x21) "
	    "Get(CongestionKeyInfo)"),
	.outcomes = OUTCOMES("CC_Key") " A CC agent whose protect bit is "
	    "clear also fails: it returns even a set CC_Key to anyone.",
	.eval = eval_cc,
};

const struct fa_check fa_chk_ib_vskey_unset = {
	.id = "IB-VSKEY-UNSET",
	.family = FA_FAM_IB,
	.severity = FA_SEV_HIGH,
	.title = "Vendor-specific agents accept requests without a VS_Key",
	.rationale =
	    "The vendor class reaches firmware and configuration-space access "
	    "of switches and adapters; without an enforced VS_Key any tenant "
	    "can use it.",
	.remediation =
	    "Enable VS_Keys per port (UFM vs_key_enable, vs_key_per_port) so "
	    "vendor MADs without the key are dropped.",
	.msa_clause =
	    "Provider shall protect the vendor-specific management agents of "
	    "all switches and adapters with secret VS_Keys, so that tenant "
	    "nodes cannot use vendor-specific management.",
	.refs = refs_vs,
	.sends = SENDS("Mellanox vendor-specific (class 0x0A) "
	    "Get(GeneralInfo)"),
	.outcomes = OUTCOMES("VS_Key"),
	.eval = eval_vs,
};

const struct fa_check fa_chk_ib_amkey_unset = {
	.id = "IB-AMKEY-UNSET",
	.family = FA_FAM_IB,
	.severity = FA_SEV_MEDIUM,
	.title = "SHARP aggregation nodes accept requests without an AM_Key",
	.rationale =
	    "Aggregation Management MADs allocate and configure in-network "
	    "reduction trees; without an AM_Key any tenant can disturb other "
	    "tenants' collectives.",
	.remediation =
	    "Set a secret AM_Key in the SHARP Aggregation Manager.",
	.msa_clause =
	    "Provider shall protect SHARP aggregation nodes with a secret "
	    "AM_Key.",
	.refs = refs_am,
	.sends = SENDS("SHARP Aggregation Management (class 0x0B) "
	    "Get(ClassPortInfo)"),
	.outcomes = OUTCOMES("AM_Key"),
	.eval = eval_am,
};
