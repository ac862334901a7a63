/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --active M_Key probe: intrusive, and designed to change nothing.
 *
 * A port that reads M_Key 0 at protection level 1 may hide a key or have
 * none (level 1 zeroes the key for a wrong-key Get: ib-security.md 1.2).
 * A Set tells them apart: an SMA checks the M_Key of every Set before it
 * looks at the attribute (IBA vol. 1 14.2.4; qib process_subn() calls
 * check_mkey() before dispatching).  So we send SubnSet(NodeInfo), an
 * attribute no SMA can set, with a wrong M_Key: a keyed port drops it and
 * counts an M_Key violation; an unkeyed one passes the key check and
 * answers "unsupported".  Nothing is writable either way.
 *
 * A violation starts the port's M_Key lease countdown, after which its
 * protection drops to 0 unless the SM renews it (1.3): only ports whose
 * lease period is 0 (never expires) and that are Active are probed; the
 * others are recorded as not probed.  Each probe is sent once and
 * followed by a LID-routed SubnGet(PortInfo), the control: only a drop
 * that raised M_KeyViolations (readable at level 1) shows a key.  The
 * Get leaves only once the Set has finished; ports stream as a feed.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"
#include "../core/obs_kinds.h"

#define WRONG_MKEY		0x6661626175646974ull	/* "fabaudit" */
#define PORT_ACTIVE		4	/* PortInfo PortState */

/* A port whose M_Key reads 0 at protection level 1: hidden or unset. */
static int
ambiguous(ibnd_port_t *p)
{
	return mad_get_field64(p->info, 0, IB_PORT_MKEY_F) == 0 &&
	    mad_get_field(p->info, 0, IB_PORT_MKEY_PROT_BITS_F) == 1 &&
	    p->base_lid != 0;
}

struct job {
	struct fa_mad_req	 set, get;
	struct fa_ib_feed	*feed;
	ibnd_node_t		*n;
	ibnd_port_t		*p;
	struct fa_obs_build	 b;	/* the observation's data */
};

/* The next port to look at: switch port 0, or a CA's port. */
struct cursor {
	ibnd_node_t	*n;
	int		 k;
};

static int
next_port(struct cursor *c)
{
	ibnd_node_t *n;

	for (; (n = c->n) != NULL; c->n = n->next, c->k = -1) {
		if (n->ports == NULL)
			continue;
		/* CA ports, and switch port 0 (whose M_Key guards the
		 * switch). */
		while (++c->k <= n->numports) {
			if (n->type == IB_NODE_SWITCH && c->k != 0)
				break;
			if (n->type != IB_NODE_SWITCH && c->k == 0)
				continue;
			if (n->ports[c->k] != NULL && ambiguous(n->ports[c->k]))
				return 1;
		}
	}
	return 0;
}

static int
record(struct fa_ib *ib, struct job *j)
{
	char *target = NULL, *req = NULL;
	int rc = FA_ERR_NOMEM;

	/* The control: the port answers Gets at level 1; did it count? */
	if (j->get.outcome == FA_MAD_ANSWERED)
		fa_put_int(&j->b, FA_F(IB_ACTIVE_MKEY, violations_after),
		    mad_get_field((void *)fa_mad_data(&j->get), 0,
		    IB_PORT_MKEY_VIOL_F));
	target = fa_ib_target(j->n->type, j->n->guid, j->p->portnum);
	req = fa_strfmt("SubnSet(NodeInfo) LID-routed to LID %u with wrong "
	    "M_Key 0x%016llx, then SubnGet(PortInfo) for M_KeyViolations",
	    j->p->base_lid, WRONG_MKEY);
	if (target != NULL && req != NULL)
		rc = FA_IB_ADD_REQ_OBS(ib, IB_ACTIVE_MKEY, target, req,
		    &j->set, &j->b, NULL, 0);
	json_decref(fa_obs_built(&j->b));
	free(target);
	free(req);
	return rc;
}

static void
get_done(struct fa_mad_req *r, void *arg)
{
	struct job *j = arg;

	(void)r;
	fa_ib_feed_done(j->feed, j, record(j->feed->ib, j));
}

static void
set_done(struct fa_mad_req *r, void *arg)
{
	struct job *j = arg;
	ib_portid_t pid;

	(void)r;
	memset(&pid, 0, sizeof(pid));
	ib_portid_set(&pid, j->p->base_lid, 0, 0);
	fa_ib_smp_req(&j->get, &pid, IB_ATTR_PORT_INFO,
	    j->n->type == IB_NODE_SWITCH ? 0 : (unsigned)j->p->portnum);
	j->get.once = 1;
	j->get.done = get_done;
	j->get.arg = j;
	if (fa_mad_submit(j->feed->ib->mad, &j->get) != 0)
		get_done(&j->get, j);
}

/* Record a port not probed, and why; no MAD is sent. */
static int
not_probed(struct fa_ib *ib, struct job *j, unsigned lease)
{
	char *target, *why;
	json_t *d;
	int rc = FA_ERR_NOMEM;

	target = fa_ib_target(j->n->type, j->n->guid, j->p->portnum);
	why = lease != 0 ? fa_strfmt("not probed: its M_Key lease period is "
	    "%u s, and a violation would start the countdown to "
	    "unprotection", lease) : fa_strdup("not probed: the port is not "
	    "Active");
	if ((d = fa_obs_built(&j->b)) != NULL && target != NULL &&
	    why != NULL) {
		rc = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL,
		    FA_KIND_IB_ACTIVE_MKEY, target, "none",
		    FA_OBS_NOT_COLLECTED, why, d, NULL);
		d = NULL;
	}
	json_decref(d);
	free(target);
	free(why);
	return rc;
}

static int
take(struct fa_ib_feed *f, void *job)
{
	struct job *j = job;
	struct cursor *c = f->state;
	ib_portid_t pid;
	unsigned lease, state, before;
	char *desc;

	if (!next_port(c))
		return 0;
	j->feed = f;
	j->n = c->n;
	j->p = c->n->ports[c->k];
	lease = mad_get_field(j->p->info, 0, IB_PORT_MKEY_LEASE_F);
	state = mad_get_field(j->p->info, 0, IB_PORT_STATE_F);
	before = mad_get_field(j->p->info, 0, IB_PORT_MKEY_VIOL_F);
	if ((desc = fa_str_sanitize(j->n->nodedesc,
	    sizeof(j->n->nodedesc))) == NULL)
		return FA_ERR_NOMEM;
	fa_obs_build(&j->b);
	fa_put_int(&j->b, FA_F(IB_ACTIVE_MKEY, lid), j->p->base_lid);
	fa_put_str(&j->b, FA_F(IB_ACTIVE_MKEY, node_desc), desc);
	fa_put_int(&j->b, FA_F(IB_ACTIVE_MKEY, violations_before), before);
	fa_put_int(&j->b, FA_F(IB_ACTIVE_MKEY, mkey_lease), lease);
	fa_put_u64(&j->b, FA_F(IB_ACTIVE_MKEY, port_guid), j->p->guid);
	free(desc);
	if (j->b.failed) {
		/* Not a probe whose result could not be kept. */
		json_decref(fa_obs_built(&j->b));
		return FA_ERR_NOMEM;
	}
	if (lease != 0 || state != PORT_ACTIVE) {
		fa_ib_feed_done(f, j, not_probed(f->ib, j, lease));
		return 1;
	}
	memset(&pid, 0, sizeof(pid));
	ib_portid_set(&pid, j->p->base_lid, 0, 0);
	fa_ib_smp_req(&j->set, &pid, IB_ATTR_NODE_INFO, 0);
	j->set.method = IB_MAD_METHOD_SET;
	j->set.key = WRONG_MKEY;
	j->set.datalen = IB_SMP_DATA_SIZE;	/* all zero; read-only anyway */
	j->set.once = 1;
	j->set.done = set_done;
	j->set.arg = j;
	if (fa_mad_submit(f->ib->mad, &j->set) != 0)
		set_done(&j->set, j);
	return 1;
}

int
fa_ib_active_mkey(struct fa_ib *ib)
{
	struct cursor *c, count;
	unsigned long n = 0;
	int rc;

	if (!ib->opts->active || ib->fabric == NULL)
		return 0;
	count.n = ib->fabric->nodes;
	count.k = -1;
	while (next_port(&count))
		n++;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return FA_ERR_NOMEM;
	c->n = ib->fabric->nodes;
	c->k = -1;
	if ((rc = fa_ib_feed_start(ib, sizeof(struct job), n, take, c,
	    NULL)) != 0)
		free(c);
	return rc;
}
