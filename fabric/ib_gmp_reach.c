/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --active GMP reachability: one PerfMgt Get(ClassPortInfo) to every other
 * CA port for each partition (P_Key base) in our own table, sent with the
 * index of its full entry if we have one, else of its limited one.  A GMP
 * is delivered only when the P_Keys of both ends match, at least one full
 * (IBA vol. 1 10.9.3); a mismatch is dropped and raises trap 257 at the
 * receiver, so the probe count is bounded: ports times our partitions,
 * each sent once.  An answer shows that partition really carries traffic
 * between us, whatever the SA or the P_Key tables say.  A Get of
 * ClassPortInfo changes nothing; it is intrusive because it reaches other
 * tenants' hosts.  The probes stream as a feed (ib_feed.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"
#include "../core/obs_kinds.h"

#define QP1_QKEY	0x80010000u

struct job {
	struct fa_mad_req	 r;
	struct fa_ib_feed	*feed;
	ibnd_node_t		*n;
	int			 p;
	uint16_t		 pkey;
};

/* The next CA port and index of our P_Key table to probe it with. */
struct cursor {
	ibnd_node_t	*n;
	int		 p;
	unsigned	 k;	/* FA_IB_PKEYS_KEPT: move to the next port */
};

static void
job_done(struct fa_mad_req *r, void *arg)
{
	struct job *j = arg;
	char *req = NULL, *target = NULL, *desc = NULL, pk[8];
	struct fa_obs_build b;
	int rc = FA_ERR_NOMEM;

	snprintf(pk, sizeof(pk), "0x%04x", j->pkey);
	if (fa_ib_port_names(j->n, j->p, &target, &desc) != 0)
		goto out;
	req = fa_strfmt("PerfMgt Get(ClassPortInfo) LID-routed to LID %d with "
	    "P_Key %s (index %u)", r->dest.lid, pk, r->dest.pkey_idx);
	if (req == NULL)
		goto out;
	fa_obs_build(&b);
	fa_put_int(&b, FA_F(IB_GMP_REACH, lid), r->dest.lid);
	fa_put_str(&b, FA_F(IB_GMP_REACH, node_desc), desc);
	fa_put_int(&b, FA_F(IB_GMP_REACH, pkey_index), r->dest.pkey_idx);
	fa_put_str(&b, FA_F(IB_GMP_REACH, pkey), pk);
	fa_put_u64(&b, FA_F(IB_GMP_REACH, port_guid), j->n->ports[j->p]->guid);
	rc = FA_IB_ADD_REQ_OBS(j->feed->ib, IB_GMP_REACH, target, req, r, &b,
	    NULL, 0);
out:
	free(req);
	free(target);
	free(desc);
	fa_ib_feed_done(j->feed, j, rc);
}

/*
 * Whether index k is the one to probe its partition with: the first full
 * entry of its base, or, with none full, the first entry.
 */
static int
best_index(const struct fa_ib *ib, unsigned k)
{
	uint16_t base = ib->pkey_at[k] & 0x7fff;
	unsigned i, first = k, full = FA_IB_PKEYS_KEPT;

	for (i = 0; i < FA_IB_PKEYS_KEPT; i++) {
		if ((ib->pkey_at[i] & 0x7fff) != base)
			continue;
		if (i < first)
			first = i;
		if ((ib->pkey_at[i] & 0x8000) && full == FA_IB_PKEYS_KEPT)
			full = i;
	}
	return k == (full != FA_IB_PKEYS_KEPT ? full : first);
}

/* Move c to the next (port, index) to probe; 0 when none is left. */
static int
next_probe(const struct fa_ib *ib, struct cursor *c)
{
	ibnd_node_t *n;

	for (; (n = c->n) != NULL; c->n = n->next, c->p = 0) {
		if (n->type != IB_NODE_CA || n->guid == ib->node_guid ||
		    n->ports == NULL)
			continue;
		for (; c->p <= n->numports; c->p++, c->k = 0) {
			if (c->p == 0 || n->ports[c->p] == NULL ||
			    n->ports[c->p]->base_lid == 0)
				continue;
			for (; c->k < FA_IB_PKEYS_KEPT; c->k++)
				if ((ib->pkey_at[c->k] & 0x7fff) != 0 &&
				    best_index(ib, c->k))
					return 1;
		}
	}
	return 0;
}

static int
take(struct fa_ib_feed *f, void *job)
{
	struct job *j = job;
	struct cursor *c = f->state;
	struct fa_ib *ib = f->ib;
	struct fa_mad_req *r = &j->r;

	if (!next_probe(ib, c))
		return 0;
	j->feed = f;
	j->n = c->n;
	j->p = c->p;
	j->pkey = ib->pkey_at[c->k];
	ib_portid_set(&r->dest, c->n->ports[c->p]->base_lid, 1, QP1_QKEY);
	r->dest.pkey_idx = c->k;
	c->k++;		/* past this one */
	r->mgmt_class = IB_PERFORMANCE_CLASS;
	r->method = IB_MAD_METHOD_GET;
	r->attr = 0x0001;	/* ClassPortInfo */
	r->once = 1;
	r->done = job_done;
	r->arg = j;
	if (fa_mad_submit(ib->mad, r) != 0)
		job_done(r, j);
	return 1;
}

int
fa_ib_active_gmp(struct fa_ib *ib)
{
	struct cursor *c, count;
	unsigned long n = 0;
	unsigned k;
	int rc;

	if (!ib->opts->active || ib->fabric == NULL)
		return 0;
	for (k = 0; k < FA_IB_PKEYS_KEPT && (ib->pkey_at[k] & 0x7fff) == 0;
	    k++)
		;
	if (k == FA_IB_PKEYS_KEPT)
		return fa_snapshot_add(ib->snap, FA_FAM_IB, NULL,
		    FA_KIND_IB_GMP_REACH, "local", "none",
		    FA_OBS_NOT_COLLECTED, "our own P_Key table was not read: "
		    "no P_Key to send GMPs with", NULL, NULL);
	memset(&count, 0, sizeof(count));
	count.n = ib->fabric->nodes;
	while (next_probe(ib, &count)) {
		n++;
		count.k++;
	}
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return FA_ERR_NOMEM;
	c->n = ib->fabric->nodes;
	if ((rc = fa_ib_feed_start(ib, sizeof(struct job), n, take, c,
	    NULL)) != 0)
		free(c);
	return rc;
}
