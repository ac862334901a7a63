/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fabric-wide checks over discovery:
 *
 * IB-PKEY-ENFORCE-OFF   a switch port facing a CA or router does not enforce
 *                       partitions inbound and outbound (PortInfo byte 43
 *                       bits 3 and 2, IBA vol. 1 14.2.5; OpenSM sets them
 *                       only on such ports, osm_pkey_mgr.c).  ibsim stores
 *                       no enforcement bits, so on the simulator this fails,
 *                       correctly: nothing is enforced there.
 * IB-SMP-UNRESTRICTED   directed-route SMPs from the tenant port reached
 *                       other nodes' SMAs (SMPs are never P_Key-checked);
 *                       on an SR-IOV VF without SMI they are dropped.  Our
 *                       own SMA answering is the control that makes
 *                       silence from the others meaningful.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_checks.h"
#include "ib_topo.h"
#include "../core/obs_fields.h"

/*
 * IB-PKEY-ENFORCE-OFF's command: the PortInfo of switch port `num` at the
 * switch's LID `lid` (the first port listed, or with none listed the first
 * examined).  0 or FA_ERR_NOMEM.
 */
static int
enforce_repro(json_t *ev, long long lid, long long num, int listed)
{
	char cmd[64];

	if (lid <= 0)
		return fa_ib_repro(ev, NULL, "no command: the switch of the "
		    "first port examined has no LID");
	snprintf(cmd, sizeof(cmd), "smpquery portinfo %lld %lld", lid, num);
	return fa_ib_repro(ev, cmd, listed ? "for the first switch port "
	    "listed; for the others use their switch's LID and port number. "
	    "PartEnforceInb and PartEnforceOutb (PortInfo byte 43 bits 3 "
	    "and 2) read 0 where partitions are not enforced" : "for the "
	    "first switch port examined; PartEnforceInb and PartEnforceOutb "
	    "(PortInfo byte 43 bits 3 and 2) read 1 where partitions are "
	    "enforced");
}

static int
eval_enforce(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *topo;
	struct fa_ib_port_ref p;
	struct fa_ib_list l;
	const char *rt;
	size_t ni = 0, pi = 0, examined = 0, unknown = 0;
	long long in, outb, st, lid = -1, num = 0;
	json_t *item, *ev;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	if ((topo = fa_ib_topology(ctx->snap)) == NULL)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "discovery did not complete: no switch PortInfo");
	if (fa_ib_list_init(&l) != 0)
		return FA_ERR_NOMEM;
	while ((r = fa_ib_next_port(topo, &ni, &pi, &p)) == 1) {
		rt = fa_json_get_str(p.port, "remote_type");
		if (strcmp(p.type, "Switch") != 0 || p.num == 0)
			continue;
		/* Its PortInfo went unanswered: what it faces is unknown. */
		if (!p.info) {
			unknown++;
			continue;
		}
		/* Active (PortState 4) towards a node discovery never saw,
		 * e.g. a host at M_Key level 2: it may face an end node. */
		if (rt == NULL) {
			if (fa_json_get_int(p.port, "state", 0, 15, &st) == 0 &&
			    st == 4)
				unknown++;
			continue;
		}
		if (strcmp(rt, "Switch") == 0)
			continue;
		if (fa_json_get_int(p.port, "part_enf_in", 0, 1, &in) != 0 ||
		    fa_json_get_int(p.port, "part_enf_out", 0, 1, &outb) != 0) {
			r = FA_ERR_INPUT;
			break;
		}
		if (examined++ == 0 || (l.count == 0 && !(in && outb))) {
			lid = p.lid;	/* the port the command reads */
			num = p.num;
		}
		if (in && outb)
			continue;
		item = fa_ib_port_json(&p);
		if (item != NULL && (json_object_set_new(item, "inbound",
		    json_boolean(in)) != 0 || json_object_set_new(item,
		    "outbound", json_boolean(outb)) != 0)) {
			json_decref(item);	/* not yet in the list */
			item = NULL;
		}
		if (fa_ib_list_add(&l, item) != 0) {	/* NULL: NOMEM */
			json_decref(l.items);
			return FA_ERR_NOMEM;
		}
	}
	if (r < 0) {
		json_decref(l.items);
		return fa_results_add(out, c, FA_ST_ERROR, "fabric", NULL, NULL,
		    "observation %s holds a malformed port", topo->id);
	}
	if (examined == 0) {
		json_decref(l.items);
		if (unknown > 0)
			return fa_results_add(out, c, FA_ST_NOT_TESTED,
			    "fabric", NULL, NULL, "no switch port facing an "
			    "end node was examined, and %zu switch ports lead "
			    "to nodes discovery did not reach or did not "
			    "answer PortInfo", unknown);
		/* No switch at all may be a neighbour that never answered. */
		if ((r = fa_ib_unexplored_gate(c, topo, out, "no switch port "
		    "facing an end node was found")) != 0)
			return r < 0 ? r : 0;
		return fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "fabric",
		    NULL, NULL, "no switch port facing an end node was found");
	}
	if ((ev = fa_ib_list_evidence(&l, topo, "switch_ports")) == NULL ||
	    enforce_repro(ev, lid, num, l.count > 0) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (l.count == 0 && unknown > 0)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    ev, "the %zu switch ports facing end nodes enforce "
		    "partitions, but %zu active switch ports lead to nodes "
		    "discovery did not reach or did not answer PortInfo",
		    examined, unknown);
	if (l.count == 0) {
		char *seen = fa_strfmt("all %zu switch ports facing end nodes "
		    "enforce partitions both ways", examined);

		r = seen == NULL ? FA_ERR_NOMEM :
		    fa_ib_unexplored_gate(c, topo, out, seen);
		if (r == 0)
			r = fa_results_add(out, c, FA_ST_PASS, "fabric", NULL,
			    ev, "%s", seen);
		else
			json_decref(ev);
		free(seen);
		return r < 0 ? r : 0;
	}
	return fa_results_add(out, c, FA_ST_FAIL, "fabric", NULL, ev,
	    "%zu of %zu switch ports facing end nodes do not enforce "
	    "partitions inbound and outbound", l.count, examined);
}

/* A CA name safe to paste into a shell command: [A-Za-z0-9_.-]+. */
static int
ca_name_ok(const char *ca)
{
	size_t i;

	if (ca == NULL || ca[0] == '\0' || strlen(ca) > 32)
		return 0;
	for (i = 0; ca[i] != '\0'; i++)
		if (!isalnum((unsigned char)ca[i]) &&
		    strchr("_.-", ca[i]) == NULL)
			return 0;
	return 1;
}

/*
 * IB-SMP-UNRESTRICTED's command: a directed-route NodeInfo Get one hop out
 * of the tenant port, through the adapter and port the scan used.  0 or
 * FA_ERR_NOMEM.
 */
static int
smp_repro(json_t *ev, const struct fa_obs *local)
{
	const char *ca = fa_obs_str(local, FA_F(IB_LOCAL, ca));
	long long port = 1;
	char cmd[96];

	(void)fa_obs_int(local, FA_F(IB_LOCAL, port), 1, 254, &port);
	if (ca_name_ok(ca))
		snprintf(cmd, sizeof(cmd), "smpquery -C %s -P %lld -D nodeinfo "
		    "0,%lld", ca, port, port);
	else
		snprintf(cmd, sizeof(cmd), "smpquery -P %lld -D nodeinfo "
		    "0,%lld", port, port);
	return fa_ib_repro(ev, cmd, "run on the tenant node: directed route "
	    "0,N leaves the tenant port N and reaches the node at its other "
	    "end, whose SMA answers with its NodeInfo (NodeType, Guid)");
}

/* The first SA query of this run that got an answer (any status). */
static const struct fa_obs *
sa_answered(const struct fa_eval_ctx *ctx)
{
	const struct fa_obs *o;
	size_t it = 0;

	while ((o = fa_snapshot_next(ctx->snap, NULL, &it)) != NULL)
		if (strncmp(o->kind, "ib.sa.", 6) == 0 &&
		    (o->state == FA_OBS_COMPLETE || o->state == FA_OBS_REJECTED))
			return o;
	return NULL;
}

static const struct fa_obs *
first_of(const struct fa_eval_ctx *ctx, const char *kind)
{
	size_t it = 0;

	return fa_snapshot_next(ctx->snap, kind, &it);
}

static int
eval_smp(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	const struct fa_obs *topo, *local, *disc, *ctl, *self_obs;
	const json_t *nodes;
	uint64_t self = 0;
	size_t i, others = 0;
	json_t *ev;
	int r;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_IB, out)) != 0)
		return r < 0 ? r : 0;
	local = fa_ib_local_obs(ctx->snap);
	topo = fa_ib_topology(ctx->snap);
	disc = fa_snapshot_find(ctx->snap, FA_KIND_IB_TOPOLOGY, "fabric");
	if (local == NULL) {
		/*
		 * Our own SMA did not answer either.  If the SA answered GMPs
		 * in the same run, the port works and SMPs are filtered at
		 * it (an SR-IOV VF without SMI); otherwise we know nothing.
		 */
		self_obs = first_of(ctx, FA_KIND_IB_LOCAL);
		if (topo == NULL && self_obs != NULL &&
		    (ctl = sa_answered(ctx)) != NULL) {
			if ((ev = json_array()) == NULL || fa_evidence_add(ev,
			    fa_evidence(self_obs, "unanswered", json_string(
			    self_obs->request))) != 0 || fa_evidence_add(ev,
			    fa_evidence(ctl, "answered_control", json_string(
			    ctl->request))) != 0) {
				json_decref(ev);
				return FA_ERR_NOMEM;
			}
			return fa_results_add(out, c, FA_ST_PASS, "local", NULL,
			    ev, "no SMP from the tenant port was answered, "
			    "not even by its own SMA, while the SA answered "
			    "GMPs: SMPs are filtered at the tenant port");
		}
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "local", NULL,
		    NULL, "our own SMA did not answer and no GMP control was "
		    "answered: nothing can be concluded");
	}
	if (fa_obs_u64(local, FA_F(IB_LOCAL, node_guid), &self) != 0)
		return fa_results_add(out, c, FA_ST_ERROR, "local", NULL, NULL,
		    "observation %s has no node_guid", local->id);
	if (topo == NULL)
		return fa_results_add(out, c, FA_ST_NOT_TESTED, "fabric", NULL,
		    NULL, "discovery did not complete (%s)", disc != NULL ?
		    fa_obs_reason(disc) : "not run");
	nodes = fa_obs_arr(topo, FA_F(IB_TOPOLOGY, nodes));
	for (i = 0; i < json_array_size(nodes); i++) {
		uint64_t g;

		if (fa_json_get_u64(json_array_get(nodes, i), "guid", &g) != 0)
			return fa_results_add(out, c, FA_ST_ERROR, "local", NULL,
			    NULL, "observation %s holds a node without a GUID",
			    topo->id);
		if (g != self)
			others++;
	}
	if ((ev = json_array()) == NULL || fa_evidence_add(ev, fa_evidence(
	    topo, "nodes_answering_smps", json_integer((json_int_t)others)))
	    != 0 || fa_evidence_add(ev, fa_evidence(topo, "max_hops",
	    fa_obs_jint(topo, FA_F(IB_TOPOLOGY, max_hops)) != NULL ?
	    json_deep_copy(
	    fa_obs_jint(topo, FA_F(IB_TOPOLOGY, max_hops))) :
	    json_null())) != 0 ||
	    smp_repro(ev, local) != 0) {
		json_decref(ev);
		return FA_ERR_NOMEM;
	}
	if (others > 0)
		return fa_results_add(out, c, FA_ST_FAIL, "local", NULL, ev,
		    "directed-route SMPs from the tenant port were answered by "
		    "%zu other nodes' SMAs", others);
	/* Silence past a link whose peer never answered may be loss. */
	if ((r = fa_ib_unexplored_gate(c, topo, out, "our own SMA answered "
	    "but no other node's SMA did")) != 0) {
		json_decref(ev);
		return r < 0 ? r : 0;
	}
	return fa_results_add(out, c, FA_ST_PASS, "local", NULL, ev,
	    "our own SMA answered but no other node's SMA did");
}

static const char *const refs_enf[] = {
	"InfiniBand Architecture Specification Vol. 1, 10.9.4 and 14.2.5: "
	    "switch partition enforcement (PortInfo PartitionEnforcement)",
	"OpenSM osm_pkey_mgr.c: enforcement on CA-facing switch ports",
	FA_CMAX_PKEYS,
	NULL
};

static const char *const refs_smp[] = {
	"InfiniBand Architecture Specification Vol. 1, 14.2.2: directed-route "
	    "SMPs; SMPs are not subject to partitioning",
	"Linux mlx4 SR-IOV: SMPs from VFs without SMI are dropped",
	FA_CMAX_SRIOV,
	FA_CMAX_UFM_KEY("MKEY"),
	NULL
};

const struct fa_check fa_chk_ib_pkey_enforce_off = {
	.id = "IB-PKEY-ENFORCE-OFF",
	.family = FA_FAM_IB,
	.severity = FA_SEV_HIGH,
	.title = "Switch ports facing end nodes do not enforce partitions",
	.rationale =
	    "Without switch partition enforcement a node that forges its "
	    "P_Key (or whose P_Key table it controls, e.g. a bare-metal tenant "
	    "with M_Key 0) can send into any partition: isolation rests on "
	    "every host behaving.",
	.remediation =
	    "Enable partition enforcement inbound and outbound on every switch "
	    "port facing an end node (OpenSM part_enforce both; make sure the "
	    "switch port P_Key tables are large enough, or OpenSM turns "
	    "enforcement off).",
	.msa_clause =
	    "Provider shall enable inbound and outbound partition enforcement "
	    "on every switch port connected to a host channel adapter.",
	.refs = refs_enf,
	.sends =
	    "Nothing beyond discovery, which sends " FA_IB_SENDS_DISCOVERY
	    ": reads the PortInfo (PartitionEnforcement bits) it returned for "
	    "every switch port facing a CA or router (read-only).",
	.outcomes =
	    "Fails when a switch port facing an end node does not enforce "
	    "partitions both inbound and outbound. Passes when every such "
	    "port does. Not applicable when discovery found no switch port "
	    "facing an end node and every port it found was observed. Not "
	    "tested when discovery did not complete, or when every examined "
	    "port enforces (or none was found) but ports lead to nodes "
	    "discovery did not reach (the tenant port's own neighbour "
	    "included), or switch ports did not answer PortInfo.",
	.eval = eval_enforce,
};

const struct fa_check fa_chk_ib_smp_unrestricted = {
	.id = "IB-SMP-UNRESTRICTED",
	.family = FA_FAM_IB,
	.reads_sm_sa = 1,
	.severity = FA_SEV_HIGH,
	.title = "The tenant port can reach other nodes' SMAs with SMPs",
	.rationale =
	    "Subnet management packets reach every SMA regardless of "
	    "partitions. A tenant that can send them can map the whole fabric "
	    "and, wherever M_Keys are weak, reconfigure it.",
	.remediation =
	    "Give tenants SR-IOV virtual functions with QP0/SMI disabled, or "
	    "filter SMPs at the host; on bare metal, protect every port with "
	    "M_Key level 2.",
	.msa_clause =
	    "Provider shall prevent Customer nodes from sending subnet "
	    "management packets to any node other than themselves, or shall "
	    "protect every port with M_Key protection level 2 or higher.",
	.refs = refs_smp,
	.sends =
	    "Nothing beyond discovery: " FA_IB_SENDS_DISCOVERY ", and the "
	    "directed-route Gets with hop count 0 to the tenant port's own "
	    "SMA (read-only). When not even the tenant's own SMA answers, "
	    "the SA queries of the same scan are the control.",
	.outcomes =
	    "Fails when any node other than the tenant's own answered a "
	    "directed-route SMP from the tenant port. Passes when the "
	    "tenant's own SMA answered and no other did, or when not even "
	    "the tenant's own SMA answered while the SA answered GMPs in the "
	    "same run (SMPs are filtered at the tenant port, as on an SR-IOV "
	    "virtual function without QP0). Not tested when neither "
	    "answered, when discovery did not complete, or when the "
	    "tenant's own SMA answered but a port with a link up leads to a "
	    "node that did not (silence past it may be loss).",
	.eval = eval_smp,
};
