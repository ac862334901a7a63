/*
 * SMInfo of every subnet manager found: the master SM LID from our own
 * PortInfo, and every port whose PortInfo CapabilityMask has IsSM (bit 1,
 * IBA vol. 1 14.2.5) in the discovered topology.  Each gets one LID-routed
 * SubnGet(SMInfo) with M_Key 0.  The SM_Key (SMInfo bytes 8-15) is stored
 * as a secret with its facts (zero; well-known 0 or OpenSM's default 1).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"

#define KIND_SMINFO	"ib.smp.sminfo"
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

static int
query_one(struct fa_ib *ib, const struct sm_cand *c)
{
	uint8_t data[IB_SMP_DATA_SIZE];
	ib_portid_t pid;
	ibnd_port_t *p = NULL;
	enum fa_smp_outcome oc;
	enum fa_obs_state st;
	unsigned status;
	uint64_t guid, key = 0;
	json_t *d, *secret;
	char *target, *req, *reason = NULL;
	int r = FA_ERR_NOMEM;

	if (ib->fabric != NULL)
		p = ibnd_find_port_lid(ib->fabric, c->lid);
	if (p != NULL)
		target = fa_ib_target(p->node->type, p->node->guid,
		    p->portnum);
	else
		target = fa_strfmt("lid-%u", c->lid);
	req = fa_strfmt("SubnGet(SMInfo) LID-routed to LID %u, M_Key 0",
	    c->lid);
	d = json_pack("{s:i, s:o}", "lid", c->lid, "found_by", found_by(c));
	if (target == NULL || req == NULL || d == NULL)
		goto out;
	if (p != NULL) {
		char *desc = fa_str_sanitize(p->node->nodedesc,
		    sizeof(p->node->nodedesc));

		if (desc == NULL || json_object_set_new(d, "node_desc",
		    json_string(desc)) != 0 ||
		    fa_json_set_u64(d, "port_guid", p->guid) != 0) {
			free(desc);
			goto out;
		}
		free(desc);
	}
	memset(&pid, 0, sizeof(pid));
	ib_portid_set(&pid, c->lid, 0, 0);
	/*
	 * An SM port that discovery did not reach may be at M_Key level 2,
	 * where every wrong-key Get is a violation: ask it once.
	 */
	oc = fa_ib_smp_get(ib, &pid, IB_ATTR_SMINFO, 0, data, &status,
	    p == NULL);
	if (json_object_set_new(d, "mad_status", json_integer(status)) != 0)
		goto out;
	if (oc == FA_SMP_ANSWERED) {
		st = FA_OBS_COMPLETE;
		mad_decode_field(data, IB_SMINFO_GUID_F, &guid);
		mad_decode_field(data, IB_SMINFO_KEY_F, &key);
		/* set_new steals secret even when it fails. */
		if ((secret = fa_secret_new(key)) == NULL ||
		    json_object_set_new(d, "sm_key", secret) != 0 ||
		    json_object_set_new(secret, "well_known",
		    json_boolean(key == 0 || key == 1)) != 0 ||
		    fa_json_set_u64(d, "guid", guid) != 0 ||
		    json_object_set_new(d, "priority", json_integer(
		    mad_get_field(data, 0, IB_SMINFO_PRIO_F))) != 0 ||
		    json_object_set_new(d, "state", json_integer(
		    mad_get_field(data, 0, IB_SMINFO_STATE_F))) != 0 ||
		    json_object_set_new(d, "act_count", json_integer(
		    mad_get_field(data, 0, IB_SMINFO_ACT_F))) != 0)
			goto out;
	} else {
		st = oc == FA_SMP_STATUS ? FA_OBS_REJECTED :
		    oc == FA_SMP_ERROR ? FA_OBS_ERROR : FA_OBS_NO_RESPONSE;
		if ((reason = fa_ib_smp_reason(oc, status)) == NULL)
			goto out;
	}
	r = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL, KIND_SMINFO, target,
	    req, st, reason, d, NULL);
	d = NULL;
out:
	key = 0;
	explicit_bzero(data, sizeof(data));
	json_decref(d);
	free(target);
	free(req);
	free(reason);
	return r;
}

int
fa_ib_sminfo(struct fa_ib *ib)
{
	struct sm_cand c[MAX_SMS];
	struct capwalk w = { c, NULL };
	int n = 0, i, r;

	w.n = &n;
	cand_add(c, &n, ib->sm_lid, 1);
	if (ib->fabric != NULL)
		ibnd_iter_ports(ib->fabric, port_cb, &w);
	for (i = 0; i < n; i++)
		if ((r = query_one(ib, &c[i])) != 0)
			return r;
	return 0;
}
