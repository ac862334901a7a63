/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SMInfo of every subnet manager found: the master SM LID from our own
 * PortInfo, and every port whose PortInfo CapabilityMask has IsSM (bit 1,
 * IBA vol. 1 14.2.5) in the discovered topology: CA ports and switch port
 * 0, where the SM of a managed switch runs (a switch's external ports
 * have no capability mask of their own).  Each gets one LID-routed
 * SubnGet(SMInfo) with M_Key 0.  The SM_Key (SMInfo bytes 8-15) is stored
 * as a secret with its facts (zero; well-known 0 or OpenSM's default 1).
 * When discovery found the port at that LID (libibnetdisc indexes a
 * switch's LID to its port 0 first: it reads port 0's PortInfo before the
 * others), its port GUID, node GUID, node type and port number are kept
 * beside the SMInfo's own GUID, so that the checks can match the SM
 * against the policy by port or node GUID.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"
#include "../core/obs_kinds.h"

#define MAX_SMS		64	/* more IsSM ports than this is absurd */

struct sm_cand {
	uint16_t	 lid;
	int		 by_master;	/* local PortInfo MasterSMLID */
	int		 by_capmask;	/* IsSM in the topology */
};

static int
cand_add(struct sm_cand *c, int *n, uint16_t lid, int master)
{
	int i;

	if (lid == 0 || lid >= 0xc000)	/* 0 and multicast are no SM */
		return 0;
	for (i = 0; i < *n; i++)
		if (c[i].lid == lid)
			break;
	if (i == *n) {
		if (*n == MAX_SMS)
			return 0;
		memset(&c[i], 0, sizeof(c[i]));
		c[i].lid = lid;
		(*n)++;
	}
	if (master)
		c[i].by_master = 1;
	else
		c[i].by_capmask = 1;
	return 0;
}

struct capwalk {
	struct sm_cand	*c;
	int		*n;
};

static void
port_cb(ibnd_port_t *p, void *arg)
{
	struct capwalk *w = arg;
	uint32_t cap;

	/* Switch external ports carry no SM; port 0 and CA ports may. */
	if (p->node->type == IB_NODE_SWITCH && p->portnum != 0)
		return;
	cap = mad_get_field(p->info, 0, IB_PORT_CAPMASK_F);
	if (cap & 0x2)
		cand_add(w->c, w->n, p->base_lid, 0);
}

static json_t *
found_by(const struct sm_cand *c)
{
	json_t *a = json_array();

	if (a == NULL)
		return NULL;
	if ((c->by_master && json_array_append_new(a,
	    json_string("local PortInfo MasterSMLID")) != 0) ||
	    (c->by_capmask && json_array_append_new(a,
	    json_string("PortInfo CapabilityMask IsSM")) != 0)) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* The candidates, and the next to ask. */
struct sm_list {
	struct sm_cand	 c[MAX_SMS];
	int		 n, next;
};

struct sm_job {
	struct fa_mad_req	 r;
	struct fa_ib_feed	*feed;
	struct sm_cand		 c;
	ibnd_port_t		*p;	/* the port, if discovered */
};

static int
record(struct fa_ib *ib, struct sm_job *j)
{
	const struct sm_cand *c = &j->c;
	ibnd_port_t *p = j->p;
	const uint8_t *data = fa_mad_data(&j->r);
	enum fa_obs_state st;
	unsigned status = j->r.status & 0x7fff;
	struct fa_obs_build b;
	struct fa_ib_sminfo smi;
	json_t *d = NULL, *key;
	char *target, *req, *reason = NULL, *desc = NULL;
	int r = FA_ERR_NOMEM;

	if (p != NULL)
		target = fa_ib_target(p->node->type, p->node->guid,
		    p->portnum);
	else
		target = fa_strfmt("lid-%u", c->lid);
	req = fa_strfmt("SubnGet(SMInfo) LID-routed to LID %u, M_Key 0",
	    c->lid);
	fa_obs_build(&b);
	fa_put_int(&b, FA_F(IB_SMINFO, lid), c->lid);
	fa_put_arr(&b, FA_F(IB_SMINFO, found_by), found_by(c));
	if (p != NULL) {
		/*
		 * The node too: a policy may name an SM by its node GUID,
		 * and on a managed switch the SM's port is port 0, whose
		 * GUID is not the switch's node GUID on every vendor.
		 */
		desc = fa_str_sanitize(p->node->nodedesc,
		    sizeof(p->node->nodedesc));
		if (desc == NULL)
			fa_obs_build_fail(&b);
		fa_put_str(&b, FA_F(IB_SMINFO, node_desc), desc);
		fa_put_u64(&b, FA_F(IB_SMINFO, port_guid), p->guid);
		fa_put_u64(&b, FA_F(IB_SMINFO, node_guid), p->node->guid);
		fa_put_str(&b, FA_F(IB_SMINFO, node_type),
		    p->node->type == IB_NODE_SWITCH ? "Switch" :
		    p->node->type == IB_NODE_ROUTER ? "Router" : "CA");
		fa_put_int(&b, FA_F(IB_SMINFO, port_num), p->portnum);
	}
	fa_put_int(&b, FA_F(IB_SMINFO, mad_status), status);
	if (j->r.outcome == FA_MAD_ANSWERED) {
		st = FA_OBS_COMPLETE;
		fa_ib_sminfo_decode(data, &smi);
		/* OpenSM's default SM_Key is 1; 0 is no key at all. */
		if ((key = fa_secret_new(smi.sm_key)) != NULL &&
		    json_object_set_new(key, "well_known", json_boolean(
		    smi.sm_key == 0 || smi.sm_key == 1)) != 0) {
			json_decref(key);
			key = NULL;
		}
		fa_put_secret(&b, FA_F(IB_SMINFO, sm_key), key);
		fa_put_u64(&b, FA_F(IB_SMINFO, guid), smi.guid);
		fa_put_int(&b, FA_F(IB_SMINFO, priority), smi.priority);
		fa_put_int(&b, FA_F(IB_SMINFO, state), smi.state);
		fa_put_int(&b, FA_F(IB_SMINFO, act_count), smi.act_count);
		explicit_bzero(&smi, sizeof(smi));
	} else {
		enum fa_smp_outcome oc = j->r.outcome == FA_MAD_STATUS ?
		    FA_SMP_STATUS : j->r.outcome == FA_MAD_NO_RESPONSE ?
		    FA_SMP_NO_RESPONSE : j->r.outcome == FA_MAD_DEADLINE ?
		    FA_SMP_CUT : FA_SMP_ERROR;

		st = FA_IB_SMP_STATE(oc);
		if ((reason = fa_ib_smp_reason(oc, status)) == NULL)
			goto out;
	}
	if (target == NULL || req == NULL ||
	    (d = fa_obs_built(&b)) == NULL)
		goto out;
	r = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL, FA_KIND_IB_SMINFO,
	    target, req, st, reason, d, NULL);
	d = NULL;
out:
	/* The answer held the SM_Key. */
	explicit_bzero(j->r.resp, sizeof(j->r.resp));
	json_decref(fa_obs_built(&b));
	json_decref(d);
	free(desc);
	free(target);
	free(req);
	free(reason);
	return r;
}

static void
sm_done(struct fa_mad_req *r, void *arg)
{
	struct sm_job *j = arg;

	(void)r;
	fa_ib_feed_done(j->feed, j, record(j->feed->ib, j));
}

static int
take(struct fa_ib_feed *f, void *job)
{
	struct sm_list *l = f->state;
	struct sm_job *j = job;
	ib_portid_t pid;

	if (l->next >= l->n)
		return 0;
	j->feed = f;
	j->c = l->c[l->next++];
	if (f->ib->fabric != NULL)
		j->p = ibnd_find_port_lid(f->ib->fabric, j->c.lid);
	memset(&pid, 0, sizeof(pid));
	ib_portid_set(&pid, j->c.lid, 0, 0);
	fa_ib_smp_req(&j->r, &pid, IB_ATTR_SMINFO, 0);
	/*
	 * An SM port that discovery did not reach may be at M_Key level 2,
	 * where every wrong-key Get is a violation: ask it once.
	 */
	j->r.once = j->p == NULL;
	j->r.done = sm_done;
	j->r.arg = j;
	if (fa_mad_submit(f->ib->mad, &j->r) != 0)
		sm_done(&j->r, j);
	return 1;
}

int
fa_ib_sminfo(struct fa_ib *ib)
{
	struct sm_list *l;
	struct capwalk w;
	int r;

	if ((l = calloc(1, sizeof(*l))) == NULL)
		return FA_ERR_NOMEM;
	w.c = l->c;
	w.n = &l->n;
	cand_add(l->c, &l->n, ib->sm_lid, 1);
	if (ib->fabric != NULL)
		ibnd_iter_ports(ib->fabric, port_cb, &w);
	if ((r = fa_ib_feed_start(ib, sizeof(struct sm_job),
	    (unsigned long)l->n, take, l, NULL)) != 0)
		free(l);
	return r;
}
