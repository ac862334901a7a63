/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The local (tenant) port: which CA and port the scan runs from, its LID,
 * GUIDs, master SM LID, and its node's NodeInfo and NodeDescription: as
 * discovery read them (its first node is ours), or, when discovery found
 * nothing, read with directed-route SMPs to ourselves (hop count 0).
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"
#include "../core/obs_kinds.h"

static const char *
node_type_name(int t)
{
	switch (t) {
	case IB_NODE_CA:
		return "CA";
	case IB_NODE_SWITCH:
		return "Switch";
	case IB_NODE_ROUTER:
		return "Router";
	}
	return "Unknown";
}

/*
 * Which port we run from, from umad's sysfs view; sends nothing.  Kept
 * apart from fa_ib_local() because libibnetdisc opens and closes its own
 * umad port, and umad2sim (the simulator shim) cannot have that happen
 * while another port of the same process is open: discovery runs between
 * the two.
 */
int
fa_ib_port_attrs(struct fa_ib *ib)
{
	umad_port_t up;

	memset(&up, 0, sizeof(up));
	if (umad_get_port(ib->opts->ca, ib->opts->port, &up) < 0)
		return FA_ERR_UNAVAIL;
	snprintf(ib->ca, sizeof(ib->ca), "%s", up.ca_name);
	ib->portnum = up.portnum;
	ib->lid = (uint16_t)up.base_lid;
	ib->sm_lid = (uint16_t)up.sm_lid;
	ib->port_guid = be64toh(up.port_guid);
	ib->gid_prefix = be64toh(up.gid_prefix);
	umad_release_port(&up);
	return 0;
}

int
fa_ib_local(struct fa_ib *ib)
{
	uint8_t data[IB_SMP_DATA_SIZE];
	ib_portid_t self;
	enum fa_smp_outcome oc;
	unsigned status;
	ibnd_node_t *me;
	const char *how;
	struct fa_obs_build b;
	json_t *d;
	char *why = NULL, *target = NULL;
	struct fa_mad_opts mo;
	struct fa_ib_nodeinfo ni;
	int r;

	memset(&mo, 0, sizeof(mo));
	mo.timeout_ms = ib->opts->timeout_ms;
	mo.retries = ib->opts->retries;
	mo.window = ib->opts->max_outstanding;
	mo.per_dest = FA_IB_PER_DEST;
	mo.sa_per_dest = FA_IB_SA_PER_DEST;
	mo.allow_set = ib->opts->active;	/* only ib_active.c sends Sets */
	mo.reveal = ib->opts->reveal;
	mo.tick = fa_ib_tick;
	mo.tick_arg = ib;
	if (fa_mad_open(ib->ca, ib->portnum, ib->lid, &mo, ib->pcap,
	    &ib->mad) != 0)
		return fa_snapshot_set_family(ib->snap, FA_FAM_IB,
		    FA_FAMST_UNAVAILABLE, "cannot open the SMI of the "
		    "InfiniBand port (umad device permission?)");

	/* Our node is discovery's first: no SMP asks again. */
	me = ib->fabric != NULL ? ib->fabric->from_node : NULL;
	how = "umad port attributes; SubnGet(NodeInfo), "
	    "SubnGet(NodeDescription) by directed route to self";
	status = 0;
	if (me != NULL) {
		how = "umad port attributes; NodeInfo and NodeDescription as "
		    "discovery read them (directed route to self)";
		ib->node_info_ok = 1;
		ib->node_guid = me->guid;
		ib->node_type = me->type;
		ib->partition_cap = (uint16_t)mad_get_field(me->info, 0,
		    IB_NODE_PARTITION_CAP_F);
		memset(data, 0, sizeof(data));
		memcpy(data, me->nodedesc, sizeof(data) <
		    sizeof(me->nodedesc) ? sizeof(data) : sizeof(me->nodedesc));
		oc = FA_SMP_ANSWERED;
	} else {
		/* NodeInfo and NodeDescription, DR with no hops.
		 * Unanswered, this is not a failure of the scan: an SR-IOV
		 * virtual function without SMI drops every SMP, its own
		 * included, while GMPs (the SA) still work.  The observation
		 * records it and the rest of the scan goes on with what umad
		 * told us. */
		memset(&self, 0, sizeof(self));
		oc = fa_ib_smp_get(ib, &self, IB_ATTR_NODE_INFO, 0, data,
		    &status, 0);
		if (oc == FA_SMP_ANSWERED) {
			ib->node_info_ok = 1;
			fa_ib_nodeinfo_decode(data, &ni);
			ib->node_guid = ni.node_guid;
			ib->node_type = ni.node_type;
			ib->partition_cap = ni.partition_cap;
			oc = fa_ib_smp_get(ib, &self, IB_ATTR_NODE_DESC, 0,
			    data, &status, 0);
		} else {
			/* The port GUID of a CA's port N is not its node
			 * GUID; we name the node by the port GUID, and say
			 * so. */
			ib->node_guid = ib->port_guid;
			ib->node_type = IB_NODE_CA;
			if ((why = fa_ib_smp_reason(oc, status)) == NULL)
				return FA_ERR_NOMEM;
		}
	}
	ib->node_desc = oc == FA_SMP_ANSWERED ?
	    fa_str_sanitize(data, IB_SMP_DATA_SIZE) : fa_strdup("");
	if (ib->node_desc == NULL) {
		free(why);
		return FA_ERR_NOMEM;
	}

	if ((target = fa_ib_target(ib->node_type, ib->node_guid,
	    ib->portnum)) == NULL) {
		free(why);
		return FA_ERR_NOMEM;
	}
	fa_obs_build(&b);
	fa_put_str(&b, FA_F(IB_LOCAL, ca), ib->ca);
	fa_put_int(&b, FA_F(IB_LOCAL, port), ib->portnum);
	fa_put_int(&b, FA_F(IB_LOCAL, lid), ib->lid);
	fa_put_int(&b, FA_F(IB_LOCAL, sm_lid), ib->sm_lid);
	fa_put_str(&b, FA_F(IB_LOCAL, node_desc), ib->node_desc);
	fa_put_str(&b, FA_F(IB_LOCAL, node_type),
	    node_type_name(ib->node_type));
	fa_put_int(&b, FA_F(IB_LOCAL, partition_cap), ib->partition_cap);
	fa_put_u64(&b, FA_F(IB_LOCAL, port_guid), ib->port_guid);
	fa_put_u64(&b, FA_F(IB_LOCAL, subnet_prefix), ib->gid_prefix);
	fa_put_u64(&b, FA_F(IB_LOCAL, node_guid), ib->node_guid);
	fa_put_bool(&b, FA_F(IB_LOCAL, node_info_answered), ib->node_info_ok);
	if ((d = fa_obs_built(&b)) == NULL) {
		free(target);
		free(why);
		return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(ib->snap, FA_FAM_IB, "ib.local", FA_KIND_IB_LOCAL,
	    target, how, ib->node_info_ok ? FA_OBS_COMPLETE :
	    FA_OBS_INCOMPLETE, why, d, NULL);
	free(target);
	free(why);
	return r;
}
