/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The P_Key tables of every other CA port discovered, LID-routed SubnGet
 * (P_KeyTable) block by block (IBA vol. 1 14.2.5; blocks from the node's
 * NodeInfo.PartitionCap), streamed through the engine port by port (a
 * feed, ib_feed.c): only the ports in its job pool exist as requests at
 * any time, whatever the size of the fabric.  SMPs are
 * never partition-checked, so these Gets reach other tenants' ports; they
 * are Gets with M_Key 0 like every other, and a port at protection level 2
 * has already stayed out of discovery.  The tables read whole are kept
 * grouped by content (most ports of a fabric hold the same few tables)
 * and written once the audit is over as one "ib.smp.pkey_tables"; a
 * table not read whole is an "ib.smp.pkey_table" of its own with role
 * "remote", the shape of the local table, and the reason.  The LIDs of
 * the tables read whole are noted, so that the SA is asked only for the
 * others (ib_sa.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"
#include "../core/obs_kinds.h"

#define PKEYS_PER_BLOCK	32
#define MAX_BLOCKS	64	/* 2048 entries per port is plenty to judge */

struct port_job {
	struct fa_ib_feed	*feed;
	ibnd_node_t		*node;
	ibnd_port_t		*port;
	struct fa_mad_req	*blocks;	/* one request per block */
	unsigned		 nblocks;
	unsigned		 needed;	/* blocks PartitionCap asks for */
	unsigned		 pending;	/* blocks not finished yet */
	uint64_t		 order;		/* the port's, in discovery
						   order */
};

/* Where the feed is: the next CA node and port to look at. */
struct cursor {
	ibnd_node_t	*n;
	int		 p;
	uint64_t	 taken;		/* ports taken so far */
};

/*
 * A table read whole, into its group: the key is everything the group's
 * value holds (PartitionCap, blocks, the P_Keys in order).  0 or
 * FA_ERR_NOMEM.
 */
static int
keep_whole(struct fa_ib *ib, const struct port_job *j, json_t *pk)
{
	unsigned cap = (unsigned)mad_get_field(j->node->info, 0,
	    IB_NODE_PARTITION_CAP_F);
	size_t i, len, size = 24 + 8 * json_array_size(pk);
	char *key = malloc(size);
	const json_t *v;
	json_t *value = NULL;
	int r;

	if (key == NULL)
		return FA_ERR_NOMEM;
	len = (size_t)snprintf(key, size, "%u/%u", cap, j->nblocks);
	json_array_foreach(pk, i, v)	/* "0x%04x" each (ib_pkeys.c) */
		len += (size_t)snprintf(key + len, size - len, ",%.6s",
		    json_string_value(v));
	if (!fa_ib_groups_has(&ib->smp_tables, key) &&
	    (value = json_pack("{s:O, s:I, s:I}", "pkeys", pk,
	    "partition_cap", (json_int_t)cap, "blocks",
	    (json_int_t)j->nblocks)) == NULL) {
		free(key);
		return FA_ERR_NOMEM;
	}
	r = fa_ib_groups_add(&ib->smp_tables, key, value, j->order,
	    j->port->guid);
	free(key);
	return r;
}

static int
record(struct fa_ib *ib, struct port_job *j)
{
	enum fa_obs_state st;
	unsigned b, got = 0, status = 0;
	enum fa_mad_outcome last = FA_MAD_ANSWERED;
	struct fa_obs_build ob;
	json_t *d = NULL, *pk;
	char *target, *desc, *req, *reason = NULL;
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
		if (fa_ib_pkeys_json(pk, fa_mad_data(&j->blocks[b]),
		    PKEYS_PER_BLOCK, NULL, 0) != 0)
			goto out;
	}
	if (got == j->nblocks && j->needed <= j->nblocks) {
		/* Read whole: into its group. */
		if (ib->smp_table_read != NULL &&
		    j->port->base_lid < FA_IB_UNICAST_LIDS)
			ib->smp_table_read[j->port->base_lid] = 1;
		r = keep_whole(ib, j, pk);
		goto out;
	}
	fa_obs_build(&ob);
	fa_put_str(&ob, FA_F(IB_PKEYS, role), "remote");
	fa_put_int(&ob, FA_F(IB_PKEYS, lid), j->port->base_lid);
	fa_put_str(&ob, FA_F(IB_PKEYS, node_desc), desc);
	fa_put_int(&ob, FA_F(IB_PKEYS, partition_cap),
	    (int)mad_get_field(j->node->info, 0, IB_NODE_PARTITION_CAP_F));
	fa_put_int(&ob, FA_F(IB_PKEYS, blocks_total), j->nblocks);
	fa_put_int(&ob, FA_F(IB_PKEYS, blocks_read), got);
	fa_put_arr(&ob, FA_F(IB_PKEYS, pkeys), pk);
	pk = NULL;
	fa_put_u64(&ob, FA_F(IB_PKEYS, port_guid), j->port->guid);
	if ((d = fa_obs_built(&ob)) == NULL)
		goto out;
	if (got == j->nblocks && j->needed > j->nblocks) {
		st = FA_OBS_INCOMPLETE;
		reason = fa_strfmt("only the first %u of %u blocks were read "
		    "(the scan's ceiling)", j->nblocks, j->needed);
		if (reason == NULL)
			goto out;
	} else {
		st = got > 0 ? FA_OBS_INCOMPLETE :
		    last == FA_MAD_STATUS ? FA_OBS_REJECTED :
		    last == FA_MAD_NO_RESPONSE ? FA_OBS_NO_RESPONSE :
		    last == FA_MAD_DEADLINE ? FA_OBS_NOT_COLLECTED :
		    FA_OBS_ERROR;
		reason = got == 0 && last == FA_MAD_DEADLINE ?
		    fa_ib_cut_reason() : last == FA_MAD_STATUS ?
		    fa_strfmt("a block was answered with MAD status 0x%04x",
		    status) : fa_strfmt("%u of %u blocks got no usable answer",
		    j->nblocks - got, j->nblocks);
		if (reason == NULL)
			goto out;
	}
	r = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL, FA_KIND_IB_PKEYS, target,
	    req, st, reason, d, NULL);
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

/*
 * Move c to the next port to read: a port with a LID on a CA other than
 * ours.  0 when there is none left.
 */
static int
next_port(const struct fa_ib *ib, struct cursor *c)
{
	for (; c->n != NULL; c->n = c->n->next, c->p = 0) {
		if (c->n->type != IB_NODE_CA || c->n->guid == ib->node_guid ||
		    c->n->ports == NULL)
			continue;
		while (++c->p <= c->n->numports)
			if (c->n->ports[c->p] != NULL &&
			    c->n->ports[c->p]->base_lid != 0)
				return 1;
	}
	return 0;
}

static void
block_done(struct fa_mad_req *r, void *arg)
{
	struct port_job *j = arg;
	int rc;

	(void)r;
	if (--j->pending > 0)
		return;
	rc = record(j->feed->ib, j);
	free(j->blocks);
	j->blocks = NULL;
	fa_ib_feed_done(j->feed, j, rc);
}

static int
take(struct fa_ib_feed *f, void *job)
{
	struct port_job *j = job;
	struct cursor *c = f->state;
	ib_portid_t pid;
	unsigned b, cap_entries;

	if (!next_port(f->ib, c))
		return 0;
	j->feed = f;
	j->node = c->n;
	j->port = c->n->ports[c->p];
	j->order = c->taken++;
	cap_entries = mad_get_field(c->n->info, 0, IB_NODE_PARTITION_CAP_F);
	j->nblocks = (cap_entries + PKEYS_PER_BLOCK - 1) / PKEYS_PER_BLOCK;
	j->needed = j->nblocks;
	if (j->nblocks == 0)
		j->nblocks = 1;
	if (j->nblocks > MAX_BLOCKS)
		j->nblocks = MAX_BLOCKS;
	if ((j->blocks = calloc(j->nblocks, sizeof(*j->blocks))) == NULL)
		return FA_ERR_NOMEM;
	/* Every block is counted before any is submitted: one may finish
	 * (and be counted down) at once. */
	j->pending = j->nblocks + 1;
	memset(&pid, 0, sizeof(pid));
	ib_portid_set(&pid, j->port->base_lid, 0, 0);
	for (b = 0; b < j->nblocks; b++) {
		fa_ib_smp_req(&j->blocks[b], &pid, IB_ATTR_PKEY_TBL, b);
		j->blocks[b].done = block_done;
		j->blocks[b].arg = j;
		if (fa_mad_submit(f->ib->mad, &j->blocks[b]) != 0)
			block_done(&j->blocks[b], j);	/* SEND_ERROR */
	}
	block_done(NULL, j);	/* the count's extra one */
	return 1;
}

/*
 * Every table has been tried: if the SA took OpenSM's default SA_Key, read
 * through it the tables SMP could not (not a second pass over the rest).
 */
static void
all_read(struct fa_ib_feed *f)
{
	int r;

	f->ib->smp_pkeys_done = 1;
	if (f->ib->sa_trusted_wanted &&
	    (r = fa_ib_sa_trusted_tables(f->ib)) != 0 && f->err == 0)
		f->err = r;
}

int
fa_ib_pkeys_remote(struct fa_ib *ib)
{
	struct fa_ib_feed *f;
	struct cursor *c, count;
	unsigned long n = 0;
	int r;

	if (ib->fabric == NULL) {
		ib->smp_pkeys_done = 1;
		return 0;
	}
	count.n = ib->fabric->nodes;
	count.p = 0;
	while (next_port(ib, &count))
		n++;
	ib->smp_table_read = calloc(FA_IB_UNICAST_LIDS, 1);
	if (ib->smp_table_read == NULL || (c = calloc(1, sizeof(*c))) == NULL)
		return FA_ERR_NOMEM;
	c->n = ib->fabric->nodes;
	if ((r = fa_ib_feed_start(ib, sizeof(struct port_job), n, take, c,
	    &f)) != 0) {
		free(c);
		return r;
	}
	fa_ib_feed_on_end(f, all_read);
	return 0;
}

int
fa_ib_pkeys_remote_end(struct fa_ib *ib)
{
	struct fa_ib_groups *g = &ib->smp_tables;
	struct fa_obs_build ob;
	json_t *d;
	int r = 0;

	if (g->ports > 0) {
		fa_obs_build(&ob);
		fa_put_int(&ob, FA_F(IB_PKEY_TABLES, ports),
		    (long long)g->ports);
		fa_put_arr(&ob, FA_F(IB_PKEY_TABLES, tables),
		    fa_ib_groups_json(g));
		r = FA_ERR_NOMEM;
		if ((d = fa_obs_built(&ob)) != NULL)
			r = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL,
			    FA_KIND_IB_PKEY_TABLES, "fabric", "SubnGet("
			    "P_KeyTable), every block NodeInfo PartitionCap "
			    "gives, LID-routed to each other CA port's LID "
			    "(ib.topology), M_Key 0: the tables read whole",
			    FA_OBS_COMPLETE, NULL, d, NULL);
	}
	fa_ib_groups_free(g);
	return r;
}
