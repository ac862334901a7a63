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

#define KIND_TOPOLOGY	"ib.topology"

struct walk {
	json_t	*nodes;
	int	 err;
};

static json_t *
port_json(ibnd_port_t *p)
{
	json_t *o;
	uint32_t cap;

	/*
	 * PortInfo as libibnetdisc read it (IBA vol. 1 14.2.5.6): capability
	 * mask (bit 1 IsSM), the M_Key with its protection bits, lease and
	 * violation count, and for switch ports the partition enforcement
	 * bits.  The M_Key is a secret: the writers redact it.  A switch's
	 * external ports (1..N) have no M_Key and no capability mask of
	 * their own (those components apply to CA ports and switch port 0):
	 * they are left out there, which on a large fabric is most ports.
	 */
	o = json_pack("{s:i, s:i, s:i}", "num", p->portnum, "lid",
	    p->base_lid, "state", mad_get_field(p->info, 0, IB_PORT_STATE_F));
	if (o == NULL || fa_json_set_u64(o, "guid", p->guid) != 0)
		goto fail;
	if (p->node->type == IB_NODE_SWITCH && p->portnum > 0) {
		if (json_object_set_new(o, "part_enf_in", json_integer(
		    mad_get_field(p->info, 0, IB_PORT_PART_EN_INB_F))) != 0 ||
		    json_object_set_new(o, "part_enf_out", json_integer(
		    mad_get_field(p->info, 0, IB_PORT_PART_EN_OUTB_F))) != 0)
			goto fail;
	} else {
		cap = mad_get_field(p->info, 0, IB_PORT_CAPMASK_F);
		if (json_object_update_new(o, json_pack("{s:I, s:b, s:o, s:i, "
		    "s:i, s:i}", "capmask", (json_int_t)cap,
		    "is_sm", (cap & 0x2) != 0,
		    "mkey", fa_secret_new(mad_get_field64(p->info, 0,
		    IB_PORT_MKEY_F)),
		    "mkey_protect", mad_get_field(p->info, 0,
		    IB_PORT_MKEY_PROT_BITS_F),
		    "mkey_lease", mad_get_field(p->info, 0,
		    IB_PORT_MKEY_LEASE_F),
		    "mkey_violations", mad_get_field(p->info, 0,
		    IB_PORT_MKEY_VIOL_F))) != 0)
			goto fail;
	}
	if (p->remoteport != NULL && p->remoteport->node != NULL) {
		if (fa_json_set_u64(o, "remote_node_guid",
		    p->remoteport->node->guid) != 0 ||
		    json_object_set_new(o, "remote_port",
		    json_integer(p->remoteport->portnum)) != 0 ||
		    json_object_set_new(o, "remote_type", json_string(
		    p->remoteport->node->type == IB_NODE_SWITCH ? "Switch" :
		    p->remoteport->node->type == IB_NODE_ROUTER ? "Router" :
		    "CA")) != 0)
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
	char *desc = NULL;
	int i;

	if (w->err)
		return;
	desc = fa_str_sanitize(n->nodedesc, sizeof(n->nodedesc));
	ports = json_array();
	if (desc == NULL || ports == NULL)
		goto fail;
	for (i = 0; i <= n->numports && n->ports != NULL; i++) {
		if (n->ports[i] == NULL)
			continue;
		if ((pj = port_json(n->ports[i])) == NULL ||
		    json_array_append_new(ports, pj) != 0)
			goto fail;
	}
	o = json_pack("{s:s, s:s, s:i, s:i, s:o}", "type",
	    n->type == IB_NODE_SWITCH ? "Switch" :
	    n->type == IB_NODE_ROUTER ? "Router" : "CA", "desc", desc,
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

int
fa_ib_discover(struct fa_ib *ib)
{
	struct ibnd_config cfg;
	struct walk w = { NULL, 0 };
	unsigned long captured;
	json_t *d;
	char *req;
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
	fa_ib_tap_open(ib->pcap, ib->lid, ib->opts->reveal, FA_IB_PER_DEST,
	    fa_ib_tick, ib);
	ib->fabric = ibnd_discover_fabric(ib->ca, ib->portnum, NULL, &cfg);
	fa_ib_tap_stats(&ib->disc);
	captured = fa_ib_tap_close();
	if (ib->fabric == NULL && ib->disc.cut) {
		/* Stopped by --max-time: not seen, rather than failed. */
		char *why = fa_strfmt("--max-time %u s reached during "
		    "discovery (%lu nodes and %lu ports answered so far; libibnetdisc "
		    "returns no partial fabric)", fa_deadline_seconds(),
		    ib->disc.nodes, ib->disc.ports);

		r = why == NULL ? FA_ERR_NOMEM : fa_snapshot_add(ib->snap,
		    FA_FAM_IB, "ib.topology", KIND_TOPOLOGY, "fabric", req,
		    FA_OBS_NOT_COLLECTED, why, NULL, NULL);
		fa_deadline_cut(FA_FAM_IB, "during discovery");
		free(why);
		free(req);
		return r;
	}
	if (ib->fabric == NULL) {
		r = fa_snapshot_add(ib->snap, FA_FAM_IB, "ib.topology",
		    KIND_TOPOLOGY, "fabric", req, FA_OBS_ERROR,
		    "ibnd_discover_fabric failed", NULL, NULL);
		free(req);
		return r;
	}
	if ((w.nodes = json_array()) == NULL) {
		free(req);
		return FA_ERR_NOMEM;
	}
	ibnd_iter_nodes(ib->fabric, node_cb, &w);
	d = json_pack("{s:o, s:i, s:i, s:I}", "nodes", w.nodes, "max_hops",
	    ib->fabric->maxhops_discovered, "smps_used",
	    ib->fabric->total_mads_used, "captured", (json_int_t)captured);
	if (w.err || d == NULL) {
		json_decref(d);
		free(req);
		return FA_ERR_NOMEM;
	}
	if (ib->disc.cut) {
		/* What was found before --max-time; the rest was not seen. */
		char *why = fa_strfmt("--max-time %u s reached during "
		    "discovery: the fabric beyond what answered until then was not seen",
		    fa_deadline_seconds());

		fa_deadline_cut(FA_FAM_IB, "during discovery");
		r = why == NULL ? FA_ERR_NOMEM : fa_snapshot_add(ib->snap,
		    FA_FAM_IB, "ib.topology", KIND_TOPOLOGY, "fabric", req,
		    FA_OBS_INCOMPLETE, why, d, NULL);
		if (why == NULL)
			json_decref(d);
		free(why);
		free(req);
		return r;
	}
	r = fa_snapshot_add(ib->snap, FA_FAM_IB, "ib.topology", KIND_TOPOLOGY,
	    "fabric", req, FA_OBS_COMPLETE, NULL, d, NULL);
	free(req);
	return r;
}
