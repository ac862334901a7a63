/* SPDX-License-Identifier: BSD-2-Clause */
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
 * IB-SM-UNEXPECTED   more than one MASTER, or an SM whose port GUID and
 *                    node GUID the policy's sm_guid lines both leave out.
 *                    Each SM counts once (its SMInfo and the SA's record
 *                    of it are merged by GUID or LID), whether it runs on
 *                    a CA port or on a managed switch's port 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_topo.h"
#include "../core/obs_kinds.h"
#include "../core/obs_fields.h"

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

	/* The port discovery matched, else the SMInfo GUID (the SM's port
	 * GUID, IBA vol. 1 14.2.5.13). */
	if (topo == NULL || ((fa_obs_u64(o, FA_F(IB_SMINFO, port_guid),
	    &guid) !=
	    0 || fa_ib_find_port(topo, NULL, guid, &p) != 1) &&
	    (fa_obs_u64(o, FA_F(IB_SMINFO, guid), &guid) != 0 ||
	    fa_ib_find_port(topo, NULL, guid, &p) != 1)))
		return -1;	/* not an error: unknown */
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
		name = fa_obs_str(o, FA_F(IB_SMINFO, node_desc));
		if (o->state != FA_OBS_COMPLETE) {
			if ((r = fa_results_add(out, c, fa_status_for_obs(o),
			    o->target, name, NULL, "SubnGet(SMInfo) got no "
			    "usable answer (%s)", fa_obs_reason(o))) < 0)
				return r;
			continue;
		}
		key = fa_obs_secret(o, FA_F(IB_SMINFO, sm_key));
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
		    json_string("unknown"))) != 0 || fa_ib_sminfo_repro(ev, o) != 0) {
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
		else if (prot >= 2)
			/*
			 * At level 2 or 3 a Get with the wrong M_Key is
			 * dropped (IBA vol. 1 14.2.4): discovery's, carrying
			 * M_Key 0, was answered, so the port's M_Key is 0 and
			 * hides nothing (OpenSM hides the SM_Key only behind a
			 * non-zero M_Key, osm_sminfo_rcv.c).
			 */
			r = fa_results_add(out, c, FA_ST_FAIL, o->target, name,
			    ev, "the SM_Key is really 0: the SM port is at M_Key "
			    "protection level %lld yet answered discovery's Get "
			    "carrying M_Key 0, so its M_Key is 0 and hides "
			    "nothing: SMs do not authenticate each other", prot);
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

/*
 * IB-SM-UNEXPECTED's view of one subnet manager.  An SM is reported by
 * up to two sources: its own answer to SubnGet(SMInfo), and the SA's
 * SMInfoRecord (a LID and the SM's SMInfo, IBA vol. 1 15.2.5.5).  Both
 * carry the SMInfo GUID, which is the SM's port GUID (14.2.5.13), and
 * the SMInfoRecord's LID is that port's: reports with the same GUID, or
 * the same LID, are one SM, counted once.  An SM runs on a CA port or on
 * a managed switch's port 0; either way discovery gives the node GUID,
 * and a policy may name the SM by either GUID.
 */
struct sm_ent {
	uint64_t	 guid;		/* SMInfo GUID, if guid_known */
	long long	 lid;
	long long	 state;		/* -1: unknown */
	long long	 prio;		/* -1: unknown */
	long long	 sa_state;	/* -1: the SA did not list it */
	int		 guid_known;
	int		 answered;	/* its SMInfo was answered */
	int		 on_sa;		/* listed by the SA */
	int		 have_port;	/* discovery found its port */
	uint64_t	 port_guid;	/* the discovered port's GUID */
	uint64_t	 node_guid;
	const char	*type;		/* "CA", "Switch", "Router" or NULL */
	const char	*desc;
	const struct fa_obs *obs;	/* its SMInfo observation, or NULL */
};

struct sm_set {
	struct sm_ent	*v;
	size_t		 n, cap;
};

static struct sm_ent *
sm_new(struct sm_set *s)
{
	struct sm_ent *v;

	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 8 : s->cap * 2;
		if ((v = realloc(s->v, s->cap * sizeof(*v))) == NULL)
			return NULL;
		s->v = v;
	}
	v = &s->v[s->n++];
	memset(v, 0, sizeof(*v));
	v->state = v->prio = v->sa_state = -1;
	return v;
}

/* The SM with this GUID, else the one at this LID, or NULL. */
static struct sm_ent *
sm_find(struct sm_set *s, uint64_t guid, long long lid)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].guid_known && s->v[i].guid == guid)
			return &s->v[i];
	for (i = 0; i < s->n; i++)
		if (lid > 0 && s->v[i].lid == lid)
			return &s->v[i];
	return NULL;
}

/*
 * The port an SM runs on, from the topology: the CA port or switch port 0
 * with its GUID, else the one whose LID it is.  1 found, 0 not,
 * FA_ERR_INPUT on a malformed topology.
 */
static int
sm_port_of(const struct fa_obs *topo, const struct sm_ent *e,
    struct fa_ib_port_ref *ref)
{
	size_t ni = 0, pi = 0;
	int r;

	if (e->guid_known &&
	    (r = fa_ib_find_port(topo, NULL, e->guid, ref)) != 0)
		return r;
	if (e->lid <= 0)
		return 0;
	while ((r = fa_ib_next_port(topo, &ni, &pi, ref)) == 1)
		if (ref->lid == e->lid &&
		    (strcmp(ref->type, "CA") == 0 || ref->num == 0))
			return 1;
	return r;
}

/*
 * Fill in where the SM runs: from its SMInfo observation, else discovery.
 * 0, or FA_ERR_INPUT on a malformed topology.
 */
static int
sm_resolve(const struct fa_obs *topo, struct sm_ent *e)
{
	struct fa_ib_port_ref ref;
	int r;

	if ((e->have_port && e->type != NULL) || topo == NULL)
		return 0;
	/* The port discovery read at the SM's LID, else the SM's GUID. */
	r = e->have_port ? fa_ib_find_port(topo, NULL, e->port_guid, &ref) :
	    sm_port_of(topo, e, &ref);
	if (r <= 0)
		return r;
	e->have_port = 1;
	e->port_guid = ref.port_guid;
	e->node_guid = ref.node_guid;
	e->type = ref.type;
	if (e->desc == NULL && fa_ib_desc_known(&ref))
		e->desc = ref.desc;
	return 0;
}

static int
pol_sm_guid(const struct fa_policy *p, uint64_t guid)
{
	size_t i;

	for (i = 0; i < p->n_sm_guid; i++)
		if (p->sm_guid[i].value == guid)
			return 1;
	return 0;
}

/* 1 listed, 0 not, -1 unknown (its node GUID could be listed). */
static int
sm_listed(const struct fa_policy *p, const struct sm_ent *e)
{
	if ((e->guid_known && pol_sm_guid(p, e->guid)) ||
	    (e->have_port && (pol_sm_guid(p, e->port_guid) ||
	    (e->type != NULL && pol_sm_guid(p, e->node_guid)))))
		return 1;
	return e->have_port && e->type != NULL ? 0 : -1;
}

/* Take in one answered SMInfo, or an unanswered one's port. */
static int
sm_from_obs(struct sm_set *s, const struct fa_obs *o)
{
	struct sm_ent *e;
	long long lid, state = -1, prio = -1, num = -1;
	uint64_t guid = 0, port = 0, node = 0;
	int complete = o->state == FA_OBS_COMPLETE, has_port, has_node;

	if (fa_obs_int(o, FA_F(IB_SMINFO, lid), 0, 0xffff, &lid) != 0)
		return FA_ERR_INPUT;
	if (complete && (fa_obs_u64(o, FA_F(IB_SMINFO, guid), &guid) != 0 ||
	    fa_obs_int(o, FA_F(IB_SMINFO, state), 0, 15, &state) != 0 ||
	    fa_obs_int(o, FA_F(IB_SMINFO, priority), 0, 15, &prio) != 0))
		return FA_ERR_INPUT;
	has_port = fa_obs_jstr(o, FA_F(IB_SMINFO, port_guid)) != NULL;
	if (has_port && fa_obs_u64(o, FA_F(IB_SMINFO, port_guid), &port) != 0)
		return FA_ERR_INPUT;
	has_node = has_port && fa_obs_jstr(o, FA_F(IB_SMINFO,
	    node_guid)) != NULL;
	if (has_node && (fa_obs_u64(o, FA_F(IB_SMINFO, node_guid),
	    &node) != 0 ||
	    fa_obs_str(o, FA_F(IB_SMINFO, node_type)) == NULL))
		return FA_ERR_INPUT;
	(void)fa_obs_int(o, FA_F(IB_SMINFO, port_num), 0, 255, &num);
	if ((e = sm_new(s)) == NULL)
		return FA_ERR_NOMEM;
	e->obs = o;
	e->lid = lid;
	e->answered = complete;
	if (complete) {
		e->guid = guid;
		e->guid_known = 1;
		e->state = state;
		e->prio = prio;
	} else if (has_port) {
		/* Unanswered, but discovery read its port: IsSM there. */
		e->guid = port;
		e->guid_known = 1;
	}
	e->have_port = has_port;
	e->port_guid = port;
	if (has_node) {
		e->node_guid = node;
		e->type = fa_obs_str(o, FA_F(IB_SMINFO, node_type));
	}
	e->desc = fa_obs_str(o, FA_F(IB_SMINFO, node_desc));
	if (e->desc != NULL && e->desc[0] == '\0')
		e->desc = NULL;
	return 0;
}

/* Take in one SMInfoRecord: merged with the SM it describes, if seen. */
static int
sm_from_record(struct sm_set *s, const json_t *r)
{
	struct sm_ent *e;
	long long lid, state, prio;
	uint64_t guid;

	if (fa_json_get_u64(r, "guid", &guid) != 0 ||
	    fa_json_get_int(r, "lid", 0, 0xffff, &lid) != 0 ||
	    fa_json_get_int(r, "state", 0, 15, &state) != 0 ||
	    fa_json_get_int(r, "priority", 0, 15, &prio) != 0)
		return FA_ERR_INPUT;
	if ((e = sm_find(s, guid, lid)) == NULL) {
		if ((e = sm_new(s)) == NULL)
			return FA_ERR_NOMEM;
		e->lid = lid;
	}
	if (!e->guid_known) {
		e->guid = guid;
		e->guid_known = 1;
	}
	e->on_sa = 1;
	e->sa_state = state;
	/* The SM's own SMInfo answer is its state now; the SA's may lag. */
	if (!e->answered) {
		e->state = state;
		e->prio = prio;
	}
	return 0;
}

static json_t *
guid_json(uint64_t g)
{
	char hex[19];

	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)g);
	return json_string(hex);
}

/* The evidence entry of one SM. */
static json_t *
sm_json(const struct sm_ent *e, int listed)
{
	json_t *o = json_object();

	if (o == NULL ||
	    json_object_set_new(o, "guid", e->guid_known ?
	    guid_json(e->guid) : json_null()) != 0 ||
	    json_object_set_new(o, "lid", json_integer(e->lid)) != 0 ||
	    json_object_set_new(o, "state", json_string(e->state >= 0 &&
	    e->state <= 3 ? state_names[e->state] : "unknown")) != 0 ||
	    json_object_set_new(o, "priority", e->prio >= 0 ?
	    json_integer(e->prio) : json_null()) != 0 ||
	    json_object_set_new(o, "source", json_string(e->answered ?
	    "SubnGet(SMInfo)" : e->on_sa ? "SA SMInfoRecord" :
	    "PortInfo CapabilityMask IsSM (SMInfo unanswered)")) != 0 ||
	    json_object_set_new(o, "sa_record", json_boolean(e->on_sa)) != 0 ||
	    (e->on_sa && e->answered && e->sa_state != e->state &&
	    json_object_set_new(o, "sa_state", json_string(e->sa_state >= 0 &&
	    e->sa_state <= 3 ? state_names[e->sa_state] : "unknown")) != 0) ||
	    json_object_set_new(o, "listed_in_policy", listed < 0 ?
	    json_string("unknown") : json_boolean(listed)) != 0 ||
	    (e->have_port && json_object_set_new(o, "port_guid",
	    guid_json(e->port_guid)) != 0) ||
	    (e->type != NULL && (json_object_set_new(o, "node_guid",
	    guid_json(e->node_guid)) != 0 || json_object_set_new(o,
	    "node_type", json_string(e->type)) != 0)) ||
	    (e->desc != NULL && json_object_set_new(o, "node_desc",
	    json_string(e->desc)) != 0)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

#define SM_REPRO_MAX	8	/* commands for IB-SM-UNEXPECTED */

/* Whether SM e is one the result is about: unlisted, or a second master. */
static int
sm_offends(const struct fa_policy *p, const struct sm_ent *e, int judged,
    int masters)
{
	return (judged && sm_listed(p, e) == 0) ||
	    (masters > 1 && e->state == SM_MASTER);
}

/*
 * Append to cmds the commands that show the SMs the result is about (every
 * SM when none offends): sminfo at the LID of each that answered SMInfo,
 * saquery SMIR once for those only the SA listed.  0 or FA_ERR_NOMEM.
 */
static int
sm_repro_cmds(json_t *cmds, const struct sm_set *set,
    const struct fa_policy *p, int judged, int masters)
{
	const struct sm_ent *e;
	size_t i;
	int any = 0, all, smir = 0;
	char cmd[32];

	for (i = 0; i < set->n; i++)
		any |= sm_offends(p, &set->v[i], judged, masters);
	all = !any;
	for (i = 0; i < set->n && json_array_size(cmds) < SM_REPRO_MAX; i++) {
		e = &set->v[i];
		if ((!e->answered && !e->on_sa && !e->have_port) ||
		    (!all && !sm_offends(p, e, judged, masters)))
			continue;
		if (e->answered && e->lid > 0)
			snprintf(cmd, sizeof(cmd), "sminfo %lld", e->lid);
		else if (e->on_sa && !smir)
			snprintf(cmd, sizeof(cmd), "saquery SMIR");
		else
			continue;
		smir |= strcmp(cmd, "saquery SMIR") == 0;
		if (json_array_append_new(cmds, json_string(cmd)) != 0)
			return FA_ERR_NOMEM;
	}
	return 0;
}

/* The commands as "reproduce" entries, and a note on reading them. */
static int
sm_repro_add(json_t *ev, const json_t *cmds)
{
	const json_t *v;
	size_t i;

	json_array_foreach(cmds, i, v)
		if (fa_evidence_add(ev, fa_evidence(NULL, "reproduce",
		    json_deep_copy(v))) != 0)
			return FA_ERR_NOMEM;
	return fa_evidence_add(ev, fa_evidence(NULL, "reproduce_note",
	    json_string(json_array_size(cmds) == 0 ? "no command: no SM "
	    "listed answered SMInfo or was listed by the SA" : "one command "
	    "per SM listed as unexpected or as a second master (every SM "
	    "when none is): sminfo LID prints the SM's port GUID (sm guid) "
	    "and state (3 SMINFO_MASTER), smpquery nodeinfo LID its node "
	    "GUID, saquery SMIR every SM the SA knows; compare the GUIDs "
	    "with the policy's sm_guid lines")));
}

static int
eval_sm_unexpected(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *o, *sa, *topo = fa_ib_topology(ctx->snap);
	const json_t *sms, *e;
	struct sm_set set = { NULL, 0, 0 };
	size_t it = 0, i;
	json_t *list = NULL, *ev = NULL, *item, *cmds = NULL;
	int r, listed, masters = 0, unexpected = 0, unresolved = 0;
	int seen = 0, malformed = 0, unknown_state = 0, judged;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	while ((o = fa_snapshot_next(ctx->snap, FA_KIND_IB_SMINFO, &it)))
		if ((r = sm_from_obs(&set, o)) == FA_ERR_NOMEM)
			goto nomem;
		else if (r != 0)
			malformed++;
	/* The SMs the SA knows: the same SMs, or ones SMPs did not find. */
	sa = fa_snapshot_find(ctx->snap, FA_KIND_IB_SA_SMINFO, "sa");
	/* A table cut short still lists real SMs: read what it holds. */
	sms = sa != NULL && (sa->state == FA_OBS_COMPLETE ||
	    sa->state == FA_OBS_INCOMPLETE) ?
	    fa_obs_arr(sa, FA_F(IB_SA_SMINFO, sms)) : NULL;
	json_array_foreach(sms, i, e)
		if ((r = sm_from_record(&set, e)) == FA_ERR_NOMEM)
			goto nomem;
		else if (r != 0)
			malformed++;
	if (malformed > 0) {
		free(set.v);
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "%d SM observation%s or record%s malformed", malformed,
		    malformed == 1 ? " is" : "s are", malformed == 1 ? "" : "s");
	}
	if ((list = json_array()) == NULL)
		goto nomem;
	judged = ctx->policy->n_sm_guid > 0;
	for (i = 0; i < set.n; i++) {
		struct sm_ent *s = &set.v[i];

		if (sm_resolve(topo, s) != 0) {
			json_decref(list);
			free(set.v);
			return fa_results_add(out, c, FA_ST_ERROR, "fabric",
			    NULL, NULL, "the topology observation is "
			    "malformed");
		}
		/* An unanswered port known by LID alone: nothing to judge. */
		if (!s->answered && !s->on_sa && !s->have_port) {
			unknown_state++;
			continue;
		}
		listed = sm_listed(ctx->policy, s);
		if (s->answered || s->on_sa)
			seen++;
		else
			unknown_state++;
		if (s->state == SM_MASTER)
			masters++;
		if (judged && listed == 0)
			unexpected++;
		else if (judged && listed < 0)
			unresolved++;
		if ((item = sm_json(s, judged ? listed : 1)) == NULL ||
		    json_array_append_new(list, item) != 0)
			goto nomem;
	}
	if ((cmds = json_array()) == NULL || sm_repro_cmds(cmds, &set,
	    ctx->policy, judged, masters) != 0)
		goto nomem;
	free(set.v);
	set.v = NULL;
	if (seen == 0 && unexpected == 0) {
		json_decref(list);
		json_decref(cmds);
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "no SM was observed: SMInfo went unanswered at %d "
		    "port(s) and the SA listed none", unknown_state);
	}
	if ((ev = json_array()) == NULL || fa_evidence_add(ev, fa_evidence(
	    NULL, "sms", list)) != 0) {
		list = NULL;
		goto nomem;
	}
	list = NULL;
	if (fa_evidence_add(ev, fa_evidence(NULL, "sm_count",
	    json_integer((json_int_t)(seen + unknown_state)))) != 0 ||
	    sm_repro_add(ev, cmds) != 0)
		goto nomem;
	json_decref(cmds);
	cmds = NULL;
	if (masters > 1 || unexpected > 0)
		return fa_results_add(out, c, FA_ST_FAIL, "fabric", NULL, ev,
		    "%d SM%s in MASTER state, %d SM report%s from ports the "
		    "policy does not list as SM ports (by port or node GUID)",
		    masters, masters == 1 ? "" : "s", unexpected,
		    unexpected == 1 ? "" : "s");
	if (topo == NULL) {
		json_decref(ev);
		return fa_ib_sm_enum_gate(c, ctx, out);
	}
	if (unknown_state > 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    ev, "%d port%s advertising an SM did not answer SMInfo "
		    "and the SA did not list %s: %s state%s unknown",
		    unknown_state, unknown_state == 1 ? "" : "s",
		    unknown_state == 1 ? "it" : "them",
		    unknown_state == 1 ? "its" : "their",
		    unknown_state == 1 ? " is" : "s are");
	if (unresolved > 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    ev, "%d SM%s whose port GUID no sm_guid line lists, on a "
		    "port discovery did not find: %s node GUID, which the "
		    "policy may list instead, is unknown", unresolved,
		    unresolved == 1 ? "" : "s", unresolved == 1 ? "its" :
		    "their");
	if (masters == 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    ev, "no SM found reports MASTER state: the master was not "
		    "identified");
	if (sa != NULL && sa->state == FA_OBS_INCOMPLETE)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    ev, "%s, but the SA's SMInfoRecord table was cut short "
		    "(%s): an SM it did not list may be unexpected", judged ?
		    "every SM found runs on a port the policy lists, with one "
		    "master" : "one master SM", fa_obs_reason(sa));
	/* An SM may sit behind a port discovery did not follow. */
	if (topo != NULL && (r = fa_ib_unexplored_gate(c, topo, out,
	    judged ? "every SM found runs on a port the policy lists, with "
	    "one master" : "one master SM")) != 0) {
		json_decref(ev);
		return r < 0 ? r : 0;
	}
	if (!judged)
		return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL, ev,
		    "one master SM; the policy names no sm_guid, so SM "
		    "placement was not judged");
	return fa_results_add(out, c, FA_ST_PASS, "fabric", NULL, ev,
	    "every SM found runs on a port the policy lists, with one master");
nomem:
	json_decref(list);
	json_decref(ev);
	json_decref(cmds);
	free(set.v);
	return FA_ERR_NOMEM;
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
	    "so that the 0 was not hidden, or bits 2 or 3 while that port "
	    "answered discovery's Get carrying M_Key 0 (its M_Key is then 0 "
	    "and hides nothing). Passes when the key read is "
	    "neither 0 nor 1. Not tested when the key reads 0 but the SM's "
	    "port is at M_Key protection level 1 (a hidden key cannot be "
	    "judged) or its "
	    "PortInfo is unknown, when SMInfo got no usable answer, when no "
	    "SM was found, and, as an extra result, when discovery did not "
	    "complete.",
	.eval = eval_smkey_default,
};

const struct fa_check fa_chk_ib_sm_unexpected = {
	.id = "IB-SM-UNEXPECTED",
	.family = FA_FAM_IB,
	.reads_sm_sa = 1,
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
	    "One result for the fabric, counting each SM once: its SMInfo "
	    "answer and the SA's SMInfoRecord with the same GUID (the SM's "
	    "port GUID) or the same LID are one SM, whose state is the one it "
	    "answers in SMInfo (the SA's record only when SMInfo went "
	    "unanswered). An SM runs on a CA port or on a switch's port 0, "
	    "and is listed when an sm_guid line names its port GUID or its "
	    "node's GUID. Fails when more than one SM is in MASTER state, or "
	    "when the policy lists sm_guid lines and an SM, one known only by "
	    "its port's IsSM bit included, runs on a port none of them names. "
	    "Passes with one master and every SM listed; without sm_guid "
	    "lines only the number of masters is judged. Not tested when no "
	    "SM answered SMInfo and the SA listed none; and, instead of "
	    "passing, when discovery did not complete, when a port "
	    "advertising an SM neither answered SMInfo nor is in the SA's "
	    "records, when the SA's SMInfoRecord table was cut short (the "
	    "records it did hold are judged), "
	    "when an SM whose port GUID is not listed is on a port "
	    "discovery did not find (its node GUID is unknown), when no "
	    "SM reports MASTER state, or when a port with a link up leads to "
	    "a node discovery did not reach or a port's PortInfo went "
	    "unanswered (an SM may run there or behind it; the reason names "
	    "the ports).",
	.eval = eval_sm_unexpected,
};
