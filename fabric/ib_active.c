/*
 * --active probes: intrusive, and designed to change nothing.
 *
 * M_Key Set probe.  A port that reads M_Key 0 at protection level 1 may
 * hide a key or have none (level 1 zeroes the key for a wrong-key Get:
 * ib-security.md 1.2).  A Set tells them apart: an SMA checks the M_Key of
 * every Set before it looks at the attribute (IBA vol. 1 14.2.4; qib
 * process_subn() calls check_mkey() before dispatching), so we send
 * SubnSet(PortInfo) with a wrong M_Key and an attribute modifier naming a
 * port that cannot exist (255).  With a key set, the SMA drops it (and
 * counts a violation, which the man page says); with M_Key 0 it passes the
 * key check and then rejects the modifier as an invalid field.  Either way
 * no port is changed.  Only such ambiguous ports are probed, once each;
 * a port with M_Key 0 at level 0 is known unset and is never sent a Set.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"

#define KIND_ACTIVE_MKEY	"ib.active.mkey_set"
#define WRONG_MKEY		0x6661626175646974ull	/* "fabaudit" */
#define NO_SUCH_PORT		255

struct job {
	struct fa_mad_req	 r;
	struct fa_ib		*ib;
	char			*target;
	char			*desc;
	uint64_t		 guid;
	int			 err;
};

static void
job_done(struct fa_mad_req *r, void *arg)
{
	struct job *j = arg;
	char *req;
	json_t *d;

	d = json_pack("{s:i, s:s}", "lid", r->dest.lid, "node_desc", j->desc);
	req = fa_strfmt("SubnSet(PortInfo) LID-routed to LID %d, attribute "
	    "modifier %d (no such port), wrong M_Key 0x%016llx, data zero",
	    r->dest.lid, NO_SUCH_PORT, WRONG_MKEY);
	if (d == NULL || req == NULL || fa_json_set_u64(d, "port_guid",
	    j->guid) != 0) {
		json_decref(d);
		j->err = FA_ERR_NOMEM;
	} else if (fa_ib_add_req_obs(j->ib, KIND_ACTIVE_MKEY, j->target, req, r, d,
	    NULL, 0) != 0)
		j->err = FA_ERR_NOMEM;
	free(req);
}

/* A port whose M_Key reads 0 at protection level 1: hidden or unset. */
static int
ambiguous(ibnd_port_t *p)
{
	return mad_get_field64(p->info, 0, IB_PORT_MKEY_F) == 0 &&
	    mad_get_field(p->info, 0, IB_PORT_MKEY_PROT_BITS_F) == 1 &&
	    p->base_lid != 0;
}

int
fa_ib_active_mkey(struct fa_ib *ib)
{
	struct job *jobs = NULL;
	ibnd_node_t *n;
	ibnd_port_t *p;
	size_t cap = 0, nj = 0, i;
	int k, rc = 0;

	if (!ib->opts->active || ib->fabric == NULL)
		return 0;
	for (n = ib->fabric->nodes; n != NULL; n = n->next) {
		for (k = n->type == IB_NODE_SWITCH ? 0 : 1; k <= n->numports &&
		    (n->type != IB_NODE_SWITCH || k == 0); k++) {
			if ((p = n->ports[k]) == NULL || !ambiguous(p))
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
			jobs[nj].guid = p->guid;
			jobs[nj].target = fa_ib_target(n->type, n->guid, k);
			jobs[nj].desc = fa_str_sanitize(n->nodedesc,
			    sizeof(n->nodedesc));
			nj++;
			if (jobs[nj - 1].target == NULL ||
			    jobs[nj - 1].desc == NULL) {
				rc = FA_ERR_NOMEM;
				goto out;
			}
			ib_portid_set(&jobs[nj - 1].r.dest, p->base_lid, 0, 0);
		}
	}
	for (i = 0; i < nj; i++) {
		struct fa_mad_req *r = &jobs[i].r;
		ib_portid_t dest = r->dest;

		memset(r, 0, sizeof(*r));
		r->dest = dest;
		r->mgmt_class = IB_SMI_CLASS;
		r->method = IB_MAD_METHOD_SET;
		r->attr = IB_ATTR_PORT_INFO;
		r->mod = NO_SUCH_PORT;
		r->key = WRONG_MKEY;
		r->datalen = IB_SMP_DATA_SIZE;	/* all zero */
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
