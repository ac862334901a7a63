/*
 * Key probes of the GMP classes that carry a management key in bytes
 * 24-31 of the MAD: Congestion Control (CC_Key, Annex A10.4.1), the
 * Mellanox vendor class 0x0A (VS_Key, first 8 bytes of the vendor data,
 * as MFT sends it) and SHARP Aggregation Management 0x0B (AM_Key; its
 * position is an assumption, see ib-security.md 6.2).  Every node but our
 * own gets one LID-routed Get per class with key 0, sent once: to an agent
 * whose key is set and protected, a wrong key is a violation that it
 * counts and may report, so it is never repeated.
 *
 *   CC   Get(CongestionKeyInfo): CC_Key, protect bit, lease, violations
 *   VS   Get(GeneralInfo)
 *   AM   Get(ClassPortInfo)
 *
 * Nodes whose port advertises IsSM are not probed: there the CC class is
 * the SM's own congestion-control manager, not an agent it manages, and
 * OpenSM 3.3.23 was seen to crash on receiving an unsolicited CC Get
 * (under the simulator).  Do no harm comes first.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"

#define KIND_KEYPROBE	"ib.gmp.key_probe"
#define QP1_QKEY	0x80010000u

static const struct {
	const char	*name;
	int		 mgmt_class;
	unsigned	 attr;
	const char	*attr_name;
} probes[] = {
	{ "cc", IB_CC_CLASS, IB_CC_ATTR_CONGESTION_KEY_INFO,
	    "CongestionKeyInfo" },
	{ "vs", 0x0a, 0x17, "GeneralInfo" },
	{ "am", 0x0b, 0x01, "ClassPortInfo" },
};
#define NPROBES	(sizeof(probes) / sizeof(probes[0]))

struct job {
	struct fa_mad_req	 r;
	struct fa_ib		*ib;
	size_t			 probe;
	char			*target;
	char			*desc;
	const char		*type;
	uint16_t		 lid;
	int			 err;
};

static void
job_done(struct fa_mad_req *r, void *arg)
{
	struct job *j = arg;
	const uint8_t *d = fa_mad_data(r);
	char *req;
	json_t *o;

	o = json_pack("{s:s, s:s, s:i, s:s, s:s}", "class",
	    probes[j->probe].name, "attribute", probes[j->probe].attr_name,
	    "lid", j->lid, "node_desc", j->desc, "node_type", j->type);
	req = fa_strfmt("Get(%s) class 0x%02x LID-routed to LID %u, key 0",
	    probes[j->probe].attr_name, probes[j->probe].mgmt_class, j->lid);
	if (o == NULL || req == NULL)
		goto nomem;
	/* CongestionKeyInfo (Annex A10.4.3): the key and its protection. */
	if (r->outcome == FA_MAD_ANSWERED &&
	    probes[j->probe].mgmt_class == IB_CC_CLASS &&
	    (json_object_set_new(o, "cc_key", fa_secret_new(mad_get_field64(
	    (void *)d, 0, IB_CC_CONGESTION_KEY_INFO_CC_KEY_F))) != 0 ||
	    json_object_set_new(o, "protect", json_integer(mad_get_field(
	    (void *)d, 0, IB_CC_CONGESTION_KEY_INFO_CC_KEY_PROTECT_BIT_F)))
	    != 0 || json_object_set_new(o, "lease", json_integer(mad_get_field(
	    (void *)d, 0, IB_CC_CONGESTION_KEY_INFO_CC_KEY_LEASE_PERIOD_F)))
	    != 0 || json_object_set_new(o, "violations", json_integer(
	    mad_get_field((void *)d, 0,
	    IB_CC_CONGESTION_KEY_INFO_CC_KEY_VIOLATIONS_F))) != 0))
		goto nomem;
	if (fa_ib_add_req_obs(j->ib, KIND_KEYPROBE, j->target, req, r, o,
	    NULL, 0) != 0)
		j->err = FA_ERR_NOMEM;
	free(req);
	return;
nomem:
	json_decref(o);
	free(req);
	j->err = FA_ERR_NOMEM;
}

/* Whether any port of n advertises IsSM (PortInfo CapabilityMask bit 1). */
static int
hosts_sm(ibnd_node_t *n)
{
	int p;

	for (p = 0; p <= n->numports; p++)
		if (n->ports[p] != NULL && (mad_get_field(n->ports[p]->info, 0,
		    IB_PORT_CAPMASK_F) & 0x2))
			return 1;
	return 0;
}

/* The LID a node answers GMPs on: switch port 0, or a CA's first port. */
static uint16_t
node_lid(ibnd_node_t *n, int *port)
{
	int p;

	for (p = n->type == IB_NODE_SWITCH ? 0 : 1; p <= n->numports; p++)
		if (n->ports[p] != NULL && n->ports[p]->base_lid != 0) {
			*port = p;
			return n->ports[p]->base_lid;
		}
	return 0;
}

int
fa_ib_gmp_keys(struct fa_ib *ib)
{
	struct job *jobs = NULL;
	ibnd_node_t *n;
	size_t cap = 0, nj = 0, i, k;
	uint16_t lid;
	int port = 0, rc = 0;

	if (ib->fabric == NULL)
		return 0;	/* no nodes to probe; the checks say why */
	for (n = ib->fabric->nodes; n != NULL; n = n->next) {
		if (n->guid == ib->node_guid || n->ports == NULL ||
		    hosts_sm(n) || (lid = node_lid(n, &port)) == 0)
			continue;
		for (k = 0; k < NPROBES; k++) {
			/* The engine holds pointers into jobs: grow before
			 * anything is submitted. */
			if (fa_grow(&jobs, &cap, nj + 1,
			    sizeof(*jobs)) != 0) {
				rc = FA_ERR_NOMEM;
				goto out;
			}
			memset(&jobs[nj], 0, sizeof(jobs[nj]));
			jobs[nj].ib = ib;
			jobs[nj].probe = k;
			jobs[nj].lid = lid;
			jobs[nj].type = n->type == IB_NODE_SWITCH ? "Switch" :
			    n->type == IB_NODE_ROUTER ? "Router" : "CA";
			if ((rc = fa_ib_port_names(n, port, &jobs[nj].target,
			    &jobs[nj].desc)) != 0)
				goto out;
			nj++;
		}
	}
	for (i = 0; i < nj; i++) {
		struct fa_mad_req *r = &jobs[i].r;

		memset(r, 0, sizeof(*r));
		ib_portid_set(&r->dest, jobs[i].lid, 1, QP1_QKEY);
		r->mgmt_class = probes[jobs[i].probe].mgmt_class;
		r->method = IB_MAD_METHOD_GET;
		r->attr = probes[jobs[i].probe].attr;
		r->key = 0;
		r->once = 1;
		r->done = job_done;
		r->arg = &jobs[i];
		if (fa_mad_submit(ib->mad, r) != 0)
			job_done(r, &jobs[i]);	/* recorded as not collected */
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
