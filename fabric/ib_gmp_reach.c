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
 * tenants' hosts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"

#define KIND_GMP_REACH	"ib.active.gmp_reach"
#define QP1_QKEY	0x80010000u

struct job {
	struct fa_mad_req	 r;
	struct fa_ib		*ib;
	char			*target;
	char			*desc;
	uint64_t		 guid;
	uint16_t		 pkey;
	int			 err;
};

static void
job_done(struct fa_mad_req *r, void *arg)
{
	struct job *j = arg;
	char *req, pk[8];
	json_t *d;

	snprintf(pk, sizeof(pk), "0x%04x", j->pkey);
	d = json_pack("{s:i, s:s, s:i, s:s}", "lid", r->dest.lid,
	    "node_desc", j->desc, "pkey_index", r->dest.pkey_idx, "pkey", pk);
	req = fa_strfmt("PerfMgt Get(ClassPortInfo) LID-routed to LID %d with "
	    "P_Key %s (index %u)", r->dest.lid, pk, r->dest.pkey_idx);
	if (d == NULL || req == NULL || fa_json_set_u64(d, "port_guid",
	    j->guid) != 0) {
		json_decref(d);
		j->err = FA_ERR_NOMEM;
	} else if (fa_ib_add_req_obs(j->ib, KIND_GMP_REACH, j->target, req, r, d,
	    NULL, 0) != 0)
		j->err = FA_ERR_NOMEM;
	free(req);
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

int
fa_ib_active_gmp(struct fa_ib *ib)
{
	struct job *jobs = NULL;
	ibnd_node_t *n;
	size_t cap = 0, nj = 0, i;
	unsigned k;
	int p, rc = 0;

	if (!ib->opts->active || ib->fabric == NULL)
		return 0;
	for (k = 0; k < FA_IB_PKEYS_KEPT && (ib->pkey_at[k] & 0x7fff) == 0;
	    k++)
		;
	if (k == FA_IB_PKEYS_KEPT)
		return fa_snapshot_add(ib->snap, FA_FAM_IB, NULL,
		    "ib.active.gmp_reach", "local", "none",
		    FA_OBS_NOT_COLLECTED, "our own P_Key table was not read: "
		    "no P_Key to send GMPs with", NULL, NULL);
	for (n = ib->fabric->nodes; n != NULL; n = n->next) {
		if (n->type != IB_NODE_CA || n->guid == ib->node_guid ||
		    n->ports == NULL)
			continue;
		for (p = 1; p <= n->numports; p++) {
			if (n->ports[p] == NULL || n->ports[p]->base_lid == 0)
				continue;
			for (k = 0; k < FA_IB_PKEYS_KEPT; k++) {
				if ((ib->pkey_at[k] & 0x7fff) == 0 ||
				    !best_index(ib, k))
					continue;
				/* The engine holds pointers into jobs: grow before
				 * anything is submitted. */
				if (fa_grow(&jobs, &cap, nj + 1,
				    sizeof(*jobs)) != 0) {
					rc = FA_ERR_NOMEM;
					goto out;
				}
				memset(&jobs[nj], 0, sizeof(jobs[nj]));
				jobs[nj].ib = ib;
				jobs[nj].guid = n->ports[p]->guid;
				jobs[nj].pkey = ib->pkey_at[k];
				if ((rc = fa_ib_port_names(n, p,
				    &jobs[nj].target, &jobs[nj].desc)) != 0)
					goto out;
				ib_portid_set(&jobs[nj].r.dest,
				    n->ports[p]->base_lid, 1, QP1_QKEY);
				jobs[nj].r.dest.pkey_idx = k;
				nj++;
			}
		}
	}
	for (i = 0; i < nj; i++) {
		struct fa_mad_req *r = &jobs[i].r;
		ib_portid_t dest = r->dest;

		memset(r, 0, sizeof(*r));
		r->dest = dest;
		r->mgmt_class = IB_PERFORMANCE_CLASS;
		r->method = IB_MAD_METHOD_GET;
		r->attr = 0x0001;	/* ClassPortInfo */
		r->once = 1;
		r->done = job_done;
		r->arg = &jobs[i];
		if (fa_mad_submit(ib->mad, r) != 0)
			job_done(r, &jobs[i]);
	}
	rc = fa_mad_run(ib->mad);
	for (i = 0; rc == 0 && i < nj; i++)
		if (jobs[i].err != 0)
			rc = jobs[i].err;
out:
	for (i = 0; i < nj; i++) {
		free(jobs[i].target);
		free(jobs[i].desc);
	}
	free(jobs);
	return rc;
}
