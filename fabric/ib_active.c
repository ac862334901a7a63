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
 * that raised M_KeyViolations (readable at level 1) shows a key.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"

#define KIND_ACTIVE_MKEY	"ib.active.mkey_set"
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

static int
probe_one(struct fa_ib *ib, ibnd_node_t *n, ibnd_port_t *p)
{
	struct fa_mad_req set, get;
	ib_portid_t pid;
	unsigned lease, state, before;
	char *target, *desc, *req = NULL, *why = NULL;
	json_t *d;
	int rc = FA_ERR_NOMEM;

	lease = mad_get_field(p->info, 0, IB_PORT_MKEY_LEASE_F);
	state = mad_get_field(p->info, 0, IB_PORT_STATE_F);
	before = mad_get_field(p->info, 0, IB_PORT_MKEY_VIOL_F);
	target = fa_ib_target(n->type, n->guid, p->portnum);
	desc = fa_str_sanitize(n->nodedesc, sizeof(n->nodedesc));
	d = json_pack("{s:i, s:s, s:i, s:i}", "lid", p->base_lid, "node_desc",
	    desc != NULL ? desc : "", "violations_before", before,
	    "mkey_lease", lease);
	if (target == NULL || desc == NULL || d == NULL ||
	    fa_json_set_u64(d, "port_guid", p->guid) != 0)
		goto out;
	if (lease != 0 || state != PORT_ACTIVE) {
		why = lease != 0 ? fa_strfmt("not probed: its M_Key lease "
		    "period is %u s, and a violation would start the countdown "
		    "to unprotection", lease) : fa_strdup("not probed: the "
		    "port is not Active");
		if (why == NULL)
			goto out;
		rc = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL,
		    KIND_ACTIVE_MKEY, target, "none", FA_OBS_NOT_COLLECTED,
		    why, d, NULL);
		d = NULL;
		goto out;
	}
	memset(&pid, 0, sizeof(pid));
	ib_portid_set(&pid, p->base_lid, 0, 0);
	fa_ib_smp_req(&set, &pid, IB_ATTR_NODE_INFO, 0);
	set.method = IB_MAD_METHOD_SET;
	set.key = WRONG_MKEY;
	set.datalen = IB_SMP_DATA_SIZE;		/* all zero; read-only anyway */
	set.once = 1;
	(void)fa_mad_call(ib->mad, &set);
	/* The control: the port answers Gets at level 1; did it count? */
	fa_ib_smp_req(&get, &pid, IB_ATTR_PORT_INFO,
	    n->type == IB_NODE_SWITCH ? 0 : (unsigned)p->portnum);
	get.once = 1;
	(void)fa_mad_call(ib->mad, &get);
	if (get.outcome == FA_MAD_ANSWERED &&
	    json_object_set_new(d, "violations_after", json_integer(
	    mad_get_field((void *)fa_mad_data(&get), 0, IB_PORT_MKEY_VIOL_F)))
	    != 0)
		goto out;
	req = fa_strfmt("SubnSet(NodeInfo) LID-routed to LID %u with wrong "
	    "M_Key 0x%016llx, then SubnGet(PortInfo) for M_KeyViolations",
	    p->base_lid, WRONG_MKEY);
	if (req == NULL)
		goto out;
	rc = fa_ib_add_req_obs(ib, KIND_ACTIVE_MKEY, target, req, &set, d,
	    NULL, 0);
	d = NULL;
out:
	json_decref(d);
	free(target);
	free(desc);
	free(req);
	free(why);
	return rc;
}

int
fa_ib_active_mkey(struct fa_ib *ib)
{
	ibnd_node_t *n;
	int k, rc;

	if (!ib->opts->active || ib->fabric == NULL)
		return 0;
	/* CA ports, and switch port 0 (whose M_Key guards the switch). */
	for (n = ib->fabric->nodes; n != NULL; n = n->next) {
		if (n->ports == NULL)
			continue;
		for (k = n->type == IB_NODE_SWITCH ? 0 : 1; k <= n->numports &&
		    (n->type != IB_NODE_SWITCH || k == 0); k++)
			if (n->ports[k] != NULL && ambiguous(n->ports[k]) &&
			    (rc = probe_one(ib, n, n->ports[k])) != 0)
				return rc;
	}
	return 0;
}
