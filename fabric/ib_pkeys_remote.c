/*
 * The P_Key tables of every other CA port discovered, LID-routed SubnGet
 * (P_KeyTable) block by block (IBA vol. 1 14.2.5; blocks from the node's
 * NodeInfo.PartitionCap), all pipelined through the engine.  SMPs are
 * never partition-checked, so these Gets reach other tenants' ports; they
 * are Gets with M_Key 0 like every other, and a port at protection level 2
 * has already stayed out of discovery.  Written as "ib.smp.pkey_table"
 * with role "remote", the shape of the local table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"

#define KIND_PKEYS	"ib.smp.pkey_table"
#define PKEYS_PER_BLOCK	32
#define MAX_BLOCKS	64	/* 2048 entries per port is plenty to judge */

struct port_job {
	ibnd_node_t		*node;
	ibnd_port_t		*port;
	struct fa_mad_req	*blocks;	/* one request per block */
	unsigned		 nblocks;
	unsigned		 needed;	/* blocks PartitionCap asks for */
};

static int
record(struct fa_ib *ib, struct port_job *j)
{
	enum fa_obs_state st;
	unsigned b, i, got = 0, status = 0;
	enum fa_mad_outcome last = FA_MAD_ANSWERED;
	json_t *d = NULL, *pk;
	char *target, *desc, *req, *reason = NULL, hex[8];
	const uint8_t *data;
	uint16_t v;
	int r = FA_ERR_NOMEM;

	target = fa_ib_target(j->node->type, j->node->guid, j->port->portnum);
	desc = fa_str_sanitize(j->node->nodedesc, sizeof(j->node->nodedesc));
	req = fa_strfmt("SubnGet(P_KeyTable) blocks 0-%u LID-routed to LID "
	    "%u, M_Key 0", j->nblocks - 1, j->port->base_lid);
	pk = json_array();
	if (target == NULL || desc == NULL || req == NULL || pk == NULL)
		goto out;
	for (b = 0; b < j->nblocks; b++) {
		if (j->blocks[b].outcome != FA_MAD_ANSWERED) {
			last = j->blocks[b].outcome;
			status = j->blocks[b].status;
			continue;
		}
		got++;
		data = fa_mad_data(&j->blocks[b]);
		for (i = 0; i < PKEYS_PER_BLOCK; i++) {
			v = (uint16_t)(data[2 * i] << 8 | data[2 * i + 1]);
			if (v == 0)
				continue;
			snprintf(hex, sizeof(hex), "0x%04x", v);
			if (json_array_append_new(pk, json_string(hex)) != 0)
				goto out;
		}
	}
	d = json_pack("{s:s, s:i, s:s, s:i, s:i, s:i, s:O}", "role", "remote",
	    "lid", j->port->base_lid, "node_desc", desc, "partition_cap",
	    (int)mad_get_field(j->node->info, 0, IB_NODE_PARTITION_CAP_F),
	    "blocks_total", j->nblocks, "blocks_read", got, "pkeys", pk);
	if (d == NULL || fa_json_set_u64(d, "port_guid", j->port->guid) != 0)
		goto out;
	if (got == j->nblocks && j->needed > j->nblocks) {
		st = FA_OBS_INCOMPLETE;
		reason = fa_strfmt("only the first %u of %u blocks were read "
		    "(the scan's ceiling)", j->nblocks, j->needed);
		if (reason == NULL)
			goto out;
	} else if (got == j->nblocks)
		st = FA_OBS_COMPLETE;
	else {
		st = got > 0 ? FA_OBS_INCOMPLETE :
		    last == FA_MAD_STATUS ? FA_OBS_REJECTED :
		    last == FA_MAD_NO_RESPONSE ? FA_OBS_NO_RESPONSE :
		    FA_OBS_ERROR;
		reason = last == FA_MAD_STATUS ?
		    fa_strfmt("a block was answered with MAD status 0x%04x",
		    status) : fa_strfmt("%u of %u blocks got no usable answer",
		    j->nblocks - got, j->nblocks);
		if (reason == NULL)
			goto out;
	}
	r = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL, KIND_PKEYS, target, req,
	    st, reason, d, NULL);
	d = NULL;
out:
	json_decref(d);
	json_decref(pk);
	free(target);
	free(desc);
	free(req);
	free(reason);
	return r;
}

int
fa_ib_pkeys_remote(struct fa_ib *ib)
{
	struct port_job *jobs = NULL;
	ibnd_node_t *n;
	size_t nj = 0, cap = 0, i;
	unsigned b, cap_entries;
	int p, r = 0;

	if (ib->fabric == NULL)
		return 0;
	for (n = ib->fabric->nodes; n != NULL; n = n->next) {
		if (n->type != IB_NODE_CA || n->guid == ib->node_guid ||
		    n->ports == NULL)
			continue;
		cap_entries = mad_get_field(n->info, 0, IB_NODE_PARTITION_CAP_F);
		for (p = 1; p <= n->numports; p++) {
			if (n->ports[p] == NULL || n->ports[p]->base_lid == 0)
				continue;
			/* The engine holds pointers into jobs: grow before
			 * anything is submitted. */
			if (fa_grow(&jobs, &cap, nj + 1,
			    sizeof(*jobs)) != 0) {
				r = FA_ERR_NOMEM;
				goto out;
			}
			jobs[nj].node = n;
			jobs[nj].port = n->ports[p];
			jobs[nj].nblocks = (cap_entries + PKEYS_PER_BLOCK - 1) /
			    PKEYS_PER_BLOCK;
			jobs[nj].needed = jobs[nj].nblocks;
			if (jobs[nj].nblocks == 0)
				jobs[nj].nblocks = 1;
			if (jobs[nj].nblocks > MAX_BLOCKS)
				jobs[nj].nblocks = MAX_BLOCKS;
			jobs[nj].blocks = calloc(jobs[nj].nblocks,
			    sizeof(struct fa_mad_req));
			nj++;
			if (jobs[nj - 1].blocks == NULL) {
				r = FA_ERR_NOMEM;
				goto out;
			}
		}
	}
	for (i = 0; i < nj; i++)
		for (b = 0; b < jobs[i].nblocks; b++) {
			ib_portid_t pid;

			memset(&pid, 0, sizeof(pid));
			ib_portid_set(&pid, jobs[i].port->base_lid, 0, 0);
			fa_ib_smp_req(&jobs[i].blocks[b], &pid,
			    IB_ATTR_PKEY_TBL, b);
			if (fa_mad_submit(ib->mad, &jobs[i].blocks[b]) != 0)
				jobs[i].blocks[b].outcome = FA_MAD_SEND_ERROR;
		}
	if ((r = fa_mad_run(ib->mad)) != 0)
		goto out;
	for (i = 0; i < nj && r == 0; i++)
		r = record(ib, &jobs[i]);
out:
	for (i = 0; i < nj; i++)
		free(jobs[i].blocks);
	free(jobs);
	return r;
}
