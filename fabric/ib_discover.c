/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fabric discovery with libibnetdisc (directed-route NodeInfo, PortInfo,
 * SwitchInfo, NodeDescription Gets only).  The topology is recorded as one
 * observation: every node with its ports, LIDs, capability masks and links.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"
#include "ib_tap.h"
#include "../core/obs_kinds.h"

struct walk {
	json_t		*nodes;
	json_t		*unexplored;	/* ports whose peer never answered */
	unsigned long	 n_unexplored;
	char		*names;		/* the first few, for the reason */
	int		 err;
};

#define PHYS_LINKUP	5	/* PortPhysicalState LinkUp, 14.2.5.6 */
#define NAMES_MAX	8	/* unexplored ports named in the reason */

/*
 * A port with a link that discovery did not follow to a peer.
 * libibnetdisc sends NodeInfo through every port whose PhysicalPortState
 * is LinkUp (ibnetdisc.c, recv_port_info: switch ports and the port it
 * starts from); when no answer came back, remoteport stays NULL.  The
 * node at the far end (a switch that drops SMPs, one at M_Key protection
 * level 2 or more, or SMPs lost on the way) and everything behind it were
 * not observed.  Port 0 of a switch has no link.
 */
static int
unexplored(const ibnd_port_t *p)
{
	return p->portnum > 0 && (p->remoteport == NULL ||
	    p->remoteport->node == NULL) &&
	    mad_get_field((void *)p->info, 0, IB_PORT_PHYS_STATE_F) ==
	    PHYS_LINKUP;
}

/*
 * A port whose PortInfo never came back.  libibnetdisc creates a CA's
 * port when NodeInfo reached it through that port and fills port->info
 * only from a PortInfo answer (ibnetdisc.c, recv_port_info), so the block
 * stays zeroed when every send of the Get was lost.  PortState 0 ("no
 * state change", IBA vol. 1 14.2.5.6) is a value a Set carries, never
 * one a GetResp reports: a zero PortState is a PortInfo not answered.
 * A switch's ports are created by their PortInfo answers: a NULL port
 * 0..NumPorts of a switch is one whose PortInfo went unanswered.
 */
static int
info_lost(const ibnd_port_t *p)
{
	return mad_get_field((void *)p->info, 0, IB_PORT_STATE_F) == 0;
}

static const char *
type_name(int type)
{
	return type == IB_NODE_SWITCH ? "Switch" : type == IB_NODE_ROUTER ?
	    "Router" : "CA";
}

/*
 * Record an unexplored port `num` of node n (desc sanitised): p is NULL
 * or its PortInfo was lost when the port itself was not observed.  0 or
 * FA_ERR_NOMEM.
 */
static int
add_unexplored(struct walk *w, const ibnd_node_t *n, const ibnd_port_t *p,
    int num, const char *desc)
{
	int lost = p == NULL || info_lost(p);
	json_t *u;
	char *s;

	u = lost ? json_pack("{s:s, s:s, s:i, s:s}", "type",
	    type_name(n->type), "desc", desc, "port", num, "why",
	    "PortInfo unanswered") : json_pack("{s:s, s:s, s:i, s:i, s:i, "
	    "s:i, s:s}", "type", type_name(n->type), "desc", desc, "port",
	    num, "lid", p->base_lid, "state", mad_get_field((void *)p->info,
	    0, IB_PORT_STATE_F), "phys_state", mad_get_field((void *)p->info,
	    0, IB_PORT_PHYS_STATE_F), "why", "peer not reached");
	if (u != NULL && fa_json_set_u64(u, "guid", n->guid) != 0) {
		json_decref(u);
		u = NULL;
	}
	/* json_array_append_new() releases u when it fails. */
	if (u == NULL || json_array_append_new(w->unexplored, u) != 0)
		return FA_ERR_NOMEM;
	if (w->n_unexplored++ >= NAMES_MAX)
		return 0;
	s = lost ? fa_strfmt("%s%s%c-0x%016llx/%d (%s, PortInfo unanswered)",
	    w->names != NULL ? w->names : "", w->names != NULL ? ", " : "",
	    type_name(n->type)[0], (unsigned long long)n->guid, num,
	    desc[0] != '\0' ? desc : "NodeDescription unknown") :
	    fa_strfmt("%s%s%c-0x%016llx/%d (%s, LID %d)",
	    w->names != NULL ? w->names : "", w->names != NULL ? ", " : "",
	    type_name(n->type)[0], (unsigned long long)n->guid, num,
	    desc[0] != '\0' ? desc : "NodeDescription unknown", p->base_lid);
	if (s == NULL)
		return FA_ERR_NOMEM;
	free(w->names);
	w->names = s;
	return 0;
}

/*
 * A switch's external ports (1..N) share port 0's GUID and LID
 * (libibnetdisc gives each the switch's; IBA vol. 1 14.2.5.6: the LID of
 * an external port is not its own): p0 is port 0's PortInfo, for
 * port_json() to leave them out where they are port 0's.  On a large
 * fabric most ports are switch ports.  NULL: a CA, or port 0 unknown.
 */
static json_t *
port_json(ibnd_port_t *p, const ibnd_port_t *p0)
{
	int same_guid = p0 != NULL && p->portnum > 0 && p->guid == p0->guid;
	int same_lid = p0 != NULL && p->portnum > 0 && !info_lost(p0) &&
	    p->base_lid == p0->base_lid;
	json_t *o;

	/*
	 * PortInfo as libibnetdisc read it (IBA vol. 1 14.2.5.6): capability
	 * mask (bit 1 IsSM), the M_Key with its protection bits, lease and
	 * violation count, and for switch ports the partition enforcement
	 * bits.  The M_Key is a secret: the writers redact it.  A switch's
	 * external ports (1..N) have no M_Key and no capability mask of
	 * their own (those components apply to CA ports and switch port 0):
	 * they are left out there, which on a large fabric is most ports.
	 */
	if (info_lost(p)) {
		/* Nothing PortInfo holds is known, not even the LID. */
		o = json_pack("{s:i, s:s}", "num", p->portnum, "portinfo",
		    "unanswered");
		if (o == NULL || (!same_guid &&
		    fa_json_set_u64(o, "guid", p->guid) != 0))
			goto fail;
		return o;
	}
	o = json_pack("{s:i, s:i, s:i}", "num", p->portnum,
	    "state", mad_get_field(p->info, 0, IB_PORT_STATE_F),
	    "phys_state", mad_get_field(p->info, 0, IB_PORT_PHYS_STATE_F));
	if (o == NULL || (!same_guid &&
	    fa_json_set_u64(o, "guid", p->guid) != 0) || (!same_lid &&
	    json_object_set_new(o, "lid", json_integer(p->base_lid)) != 0))
		goto fail;
	if (fa_ib_portinfo_json(o, p->info, p->node->type == IB_NODE_SWITCH &&
	    p->portnum > 0) != 0)
		goto fail;
	if (p->remoteport != NULL && p->remoteport->node != NULL) {
		if (fa_json_set_u64(o, "remote_node_guid",
		    p->remoteport->node->guid) != 0 ||
		    json_object_set_new(o, "remote_port",
		    json_integer(p->remoteport->portnum)) != 0 ||
		    json_object_set_new(o, "remote_type", json_string(
		    type_name(p->remoteport->node->type))) != 0)
			goto fail;
	}
	return o;
fail:
	json_decref(o);
	return NULL;
}

static void
node_cb(ibnd_node_t *n, void *arg)
{
	struct walk *w = arg;
	json_t *o = NULL, *ports = NULL, *pj;
	const ibnd_port_t *p0 = n->type == IB_NODE_SWITCH && n->ports != NULL ?
	    n->ports[0] : NULL;
	char *desc = NULL;
	int i;

	if (w->err)
		return;
	desc = fa_str_sanitize(n->nodedesc, sizeof(n->nodedesc));
	ports = json_array();
	if (desc == NULL || ports == NULL)
		goto fail;
	for (i = 0; i <= n->numports; i++) {
		if (n->ports == NULL || n->ports[i] == NULL) {
			/* A switch port that never answered PortInfo. */
			if (n->type != IB_NODE_SWITCH)
				continue;
			if ((pj = json_pack("{s:i, s:s}", "num", i, "portinfo",
			    "unanswered")) == NULL ||
			    json_array_append_new(ports, pj) != 0 ||
			    ((i == 0 || p0 == NULL || p0->guid != n->guid) &&
			    fa_json_set_u64(pj, "guid", n->guid) != 0) ||
			    add_unexplored(w, n, NULL, i, desc) != 0)
				goto fail;
			continue;
		}
		if ((pj = port_json(n->ports[i], p0)) == NULL ||
		    json_array_append_new(ports, pj) != 0)
			goto fail;
		if ((info_lost(n->ports[i]) || unexplored(n->ports[i])) &&
		    add_unexplored(w, n, n->ports[i], i, desc) != 0)
			goto fail;
	}
	o = json_pack("{s:s, s:s, s:i, s:i, s:o}", "type",
	    type_name(n->type), "desc", desc,
	    "num_ports", n->numports, "partition_cap",
	    mad_get_field(n->info, 0, IB_NODE_PARTITION_CAP_F), "ports", ports);
	ports = NULL;
	if (o == NULL || fa_json_set_u64(o, "guid", n->guid) != 0 ||
	    json_array_append_new(w->nodes, o) != 0)
		goto fail;
	free(desc);
	return;
fail:
	w->err = 1;
	json_decref(o);
	json_decref(ports);
	free(desc);
}

static unsigned long
count_nodes(const ibnd_fabric_t *f)
{
	const ibnd_node_t *n;
	unsigned long c = 0;

	for (n = f->nodes; n != NULL; n = n->next)
		c++;
	return c;
}

/*
 * Switch ports with a link (PortState Init or beyond) but no peer found,
 * when discovery went as deep as directed routes go: 64 hops, the
 * InitialPath of a DR SMP (IBA vol. 1 14.2.2, IB_SUBNET_PATH_HOPS_MAX).
 * What lies beyond was not reached.
 */
static unsigned long
beyond_reach(const ibnd_fabric_t *f)
{
	const ibnd_node_t *n;
	const ibnd_port_t *p;
	unsigned long c = 0;
	int i;

	if (f->maxhops_discovered + 1 < IB_SUBNET_PATH_HOPS_MAX)
		return 0;
	for (n = f->nodes; n != NULL; n = n->next) {
		if (n->type != IB_NODE_SWITCH || n->ports == NULL)
			continue;
		for (i = 1; i <= n->numports; i++)
			if ((p = n->ports[i]) != NULL && p->remoteport == NULL &&
			    mad_get_field((void *)p->info, 0,
			    IB_PORT_STATE_F) >= 2)
				c++;
	}
	return c;
}

/* One libibnetdisc discovery through the tap; the MADs it captured. */
static unsigned long
discover_once(struct fa_ib *ib, struct ibnd_config *cfg,
    struct fa_ib_tap_stats *st)
{
	uint64_t t0;

	fa_ib_tap_open(ib->pcap, ib->lid, ib->opts->reveal, FA_IB_PER_DEST,
	    ib->opts->retries, fa_ib_tick, ib);
	t0 = fa_ib_now_ms();
	ib->fabric = ibnd_discover_fabric(ib->ca, ib->portnum, NULL, cfg);
	ib->walk_ms += fa_ib_now_ms() - t0;
	fa_ib_tap_stats(st);
	/*
	 * A fabric found without one SMP through the tap: libibnetdisc's
	 * calls did not bind to this program's umad_send (a static link, or
	 * a libibumad that calls itself directly).  Discovery then ran
	 * unpaced and is missing from mads.pcap: said, not hidden.
	 */
	if (ib->fabric != NULL && st->sent == 0)
		ib->disc_untapped = 1;
	return fa_ib_tap_close();
}

/* Both discoveries' counts in a; the highest of the maxima. */
static void
add_stats(struct fa_ib_tap_stats *a, const struct fa_ib_tap_stats *b)
{
	a->sent += b->sent;
	a->answered += b->answered;
	a->lost += b->lost;
	a->failed += b->failed;
	a->recovered += b->recovered;
	a->held += b->held;
	a->malformed += b->malformed;
	a->cut |= b->cut;
	a->nodes += b->nodes;
	a->ports += b->ports;
	if (b->max_inflight > a->max_inflight)
		a->max_inflight = b->max_inflight;
	if (b->max_per_dest > a->max_per_dest)
		a->max_per_dest = b->max_per_dest;
}

int
fa_ib_discover(struct fa_ib *ib)
{
	struct ibnd_config cfg;
	struct walk w = { NULL, NULL, 0, NULL, 0 };
	struct fa_ib_tap_stats first;
	unsigned long captured, edge;
	char *req, *unsteady = NULL;
	struct fa_obs_build b;
	json_t *d;
	int r;

	memset(&cfg, 0, sizeof(cfg));
	cfg.max_smps = ib->opts->max_outstanding;
	cfg.timeout_ms = ib->opts->timeout_ms;
	cfg.retries = ib->opts->retries;	/* kernel retries; 0 = its default */
	cfg.mkey = 0;
	req = fa_strfmt("libibnetdisc discovery from %s port %d (directed "
	    "route Gets; window %u, at most %u per destination, timeout %u "
	    "ms, retries %u)", ib->ca, ib->portnum, cfg.max_smps,
	    FA_IB_PER_DEST, cfg.timeout_ms, cfg.retries);
	if (req == NULL)
		return FA_ERR_NOMEM;
	ib->phase = "discovery";
	captured = discover_once(ib, &cfg, &first);
	/*
	 * Sends that stayed unanswered through their retries (ib_tap.c) are
	 * either a port that refuses them (M_Key protection level 2, a VF)
	 * or loss.  A second discovery tells them apart: refusal is the same
	 * again, loss is not.  When
	 * the two differ, the topology kept (the one with more nodes) is
	 * marked incomplete, and no check passes on it (checks/evaluate.c).
	 */
	if (ib->fabric != NULL && first.failed > 0 && !first.cut) {
		ibnd_fabric_t *f1 = ib->fabric;
		unsigned long n1 = count_nodes(f1);
		struct fa_ib_tap_stats second;

		ib->fabric = NULL;
		captured += discover_once(ib, &cfg, &second);
		if (ib->fabric == NULL || second.failed != first.failed ||
		    count_nodes(ib->fabric) != n1) {
			unsteady = fa_strfmt("%lu discovery SMPs stayed "
			    "unanswered after their retries and a second "
			    "discovery differed (%lu nodes, %lu unanswered; "
			    "then %lu nodes, %lu): nodes neither reached may "
			    "be missing", first.failed, n1, first.failed,
			    ib->fabric != NULL ? count_nodes(ib->fabric) : 0,
			    second.failed);
			if (unsteady == NULL) {
				ibnd_destroy_fabric(f1);
				free(req);
				return FA_ERR_NOMEM;
			}
		}
		if (ib->fabric == NULL ||
		    count_nodes(ib->fabric) < n1) {
			if (ib->fabric != NULL)
				ibnd_destroy_fabric(ib->fabric);
			ib->fabric = f1;
		} else
			ibnd_destroy_fabric(f1);
		add_stats(&first, &second);
	}
	ib->disc = first;
	if (ib->fabric == NULL && ib->disc.cut) {
		/* Stopped by --max-time: not seen, rather than failed. */
		char *why = fa_strfmt("--max-time %u s reached during "
		    "discovery (%lu nodes and %lu ports answered so far; "
		    "libibnetdisc returns no partial fabric)",
		    fa_deadline_seconds(), ib->disc.nodes, ib->disc.ports);

		r = why == NULL ? FA_ERR_NOMEM : fa_snapshot_add(ib->snap,
		    FA_FAM_IB, FA_KIND_IB_TOPOLOGY, FA_KIND_IB_TOPOLOGY,
		    "fabric", req,
		    FA_OBS_NOT_COLLECTED, why, NULL, NULL);
		fa_deadline_cut(FA_FAM_IB, "during discovery");
		free(why);
		free(req);
		return r;
	}
	if (ib->fabric != NULL && unsteady == NULL &&
	    (edge = beyond_reach(ib->fabric)) > 0 &&
	    (unsteady = fa_strfmt("discovery reached the directed-route "
	    "limit of %d hops (IBA vol. 1 14.2.2) and %lu switch port(s) "
	    "with a link lead further: the nodes beyond were not reached",
	    IB_SUBNET_PATH_HOPS_MAX, edge)) == NULL) {
		free(req);
		return FA_ERR_NOMEM;
	}
	if (ib->fabric == NULL) {
		r = fa_snapshot_add(ib->snap, FA_FAM_IB, FA_KIND_IB_TOPOLOGY,
		    FA_KIND_IB_TOPOLOGY, "fabric", req, FA_OBS_ERROR,
		    "ibnd_discover_fabric failed", NULL, NULL);
		free(req);
		return r;
	}
	if ((w.nodes = json_array()) == NULL ||
	    (w.unexplored = json_array()) == NULL) {
		json_decref(w.nodes);
		free(req);
		free(unsteady);
		return FA_ERR_NOMEM;
	}
	ibnd_iter_nodes(ib->fabric, node_cb, &w);
	fa_obs_build(&b);
	fa_put_arr(&b, FA_F(IB_TOPOLOGY, nodes), w.nodes);
	fa_put_int(&b, FA_F(IB_TOPOLOGY, max_hops),
	    ib->fabric->maxhops_discovered);
	fa_put_int(&b, FA_F(IB_TOPOLOGY, smps_used),
	    ib->fabric->total_mads_used);
	fa_put_int(&b, FA_F(IB_TOPOLOGY, captured), (long long)captured);
	fa_put_arr(&b, FA_F(IB_TOPOLOGY, unexplored), w.unexplored);
	fa_put_int(&b, FA_F(IB_TOPOLOGY, unexplored_count),
	    (long long)w.n_unexplored);
	/*
	 * Ports with a link whose peer never answered: the topology is
	 * incomplete, whatever else went well, and the reason names them.
	 */
	if (!w.err && w.n_unexplored > 0) {
		char *u;

		/* Only these: each check that needs every port says so
		 * (checks/ib_topo.h fa_ib_unexplored_gate); the others,
		 * which read what was seen, are not downgraded. */
		if (unsteady == NULL)
			fa_put_bool(&b, FA_F(IB_TOPOLOGY, unexplored_only), 1);
		u = fa_strfmt("%s%s%lu port(s) were not observed (a link "
		    "up to a node discovery did not reach, or a PortInfo "
		    "that went unanswered), nor what lies behind them: %s%s",
		    unsteady != NULL ? unsteady : "", unsteady != NULL ?
		    "; " : "", w.n_unexplored, w.names != NULL ? w.names : "",
		    w.n_unexplored > NAMES_MAX ? " and more (see unexplored)" :
		    "");

		free(unsteady);
		if ((unsteady = u) == NULL)
			w.err = 1;
	}
	free(w.names);
	d = fa_obs_built(&b);
	if (w.err || d == NULL) {
		json_decref(d);
		free(req);
		free(unsteady);
		return FA_ERR_NOMEM;
	}
	if (ib->disc.cut) {
		/* What was found before --max-time; the rest was not seen. */
		char *why = fa_strfmt("--max-time %u s reached during "
		    "discovery: the fabric beyond what answered until then "
		    "was not seen", fa_deadline_seconds());

		fa_deadline_cut(FA_FAM_IB, "during discovery");
		r = why == NULL ? FA_ERR_NOMEM : fa_snapshot_add(ib->snap,
		    FA_FAM_IB, FA_KIND_IB_TOPOLOGY, FA_KIND_IB_TOPOLOGY,
		    "fabric", req,
		    FA_OBS_INCOMPLETE, why, d, NULL);
		if (why == NULL)
			json_decref(d);
		free(why);
		free(req);
		free(unsteady);
		return r;
	}
	r = fa_snapshot_add(ib->snap, FA_FAM_IB, FA_KIND_IB_TOPOLOGY,
	    FA_KIND_IB_TOPOLOGY,
	    "fabric", req, unsteady != NULL ? FA_OBS_INCOMPLETE :
	    FA_OBS_COMPLETE, unsteady, d, NULL);
	free(req);
	free(unsteady);
	return r;
}
