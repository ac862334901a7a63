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
 * --key-probes leaves classes out (fa_ib_opts.key_probes_off); the
 * checks then read the scan's options to say so.
 *
 * Nodes whose port advertises IsSM are not probed: there the CC class is
 * the SM's own congestion-control manager, not an agent it manages, and
 * OpenSM 3.3.23 was seen to crash on receiving an unsolicited CC Get
 * (under the simulator).  Do no harm comes first.
 *
 * The probes stream as a feed (ib_feed.c), node by node.
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
	unsigned	 bit;		/* --key-probes */
	int		 mgmt_class;
	unsigned	 attr;
	const char	*attr_name;
} probes[] = {
	{ "cc", FA_IB_KEYPROBE_CC, IB_CC_CLASS,
	    IB_CC_ATTR_CONGESTION_KEY_INFO, "CongestionKeyInfo" },
	{ "vs", FA_IB_KEYPROBE_VS, 0x0a, 0x17, "GeneralInfo" },
	{ "am", FA_IB_KEYPROBE_AM, 0x0b, 0x01, "ClassPortInfo" },
};
#define NPROBES	(sizeof(probes) / sizeof(probes[0]))

struct job {
	struct fa_mad_req	 r;
	struct fa_ib_feed	*feed;
	ibnd_node_t		*n;
	int			 port;	/* the port whose LID it is */
	size_t			 probe;
	uint16_t		 lid;
};

/* The next node and probe to send. */
struct cursor {
	ibnd_node_t	*n;
	size_t		 probe;	/* NPROBES: move to the next node */
	uint16_t	 lid;
	int		 port;
};

static const char *
type_name(const ibnd_node_t *n)
{
	return n->type == IB_NODE_SWITCH ? "Switch" :
	    n->type == IB_NODE_ROUTER ? "Router" : "CA";
}

static void
job_done(struct fa_mad_req *r, void *arg)
{
	struct job *j = arg;
	const uint8_t *d = fa_mad_data(r);
	char *req = NULL, *target = NULL, *desc = NULL;
	json_t *o = NULL;
	int rc = FA_ERR_NOMEM;

	if (fa_ib_port_names(j->n, j->port, &target, &desc) != 0)
		goto out;
	o = json_pack("{s:s, s:s, s:i, s:s, s:s}", "class",
	    probes[j->probe].name, "attribute", probes[j->probe].attr_name,
	    "lid", j->lid, "node_desc", desc, "node_type", type_name(j->n));
	req = fa_strfmt("Get(%s) class 0x%02x LID-routed to LID %u, key 0",
	    probes[j->probe].attr_name, probes[j->probe].mgmt_class, j->lid);
	if (o == NULL || req == NULL)
		goto out;
	/* CongestionKeyInfo (Annex A10.4.3): the key and its protection. */
	if (r->outcome == FA_MAD_ANSWERED &&
	    probes[j->probe].mgmt_class == IB_CC_CLASS &&
	    fa_ib_cc_keyinfo_json(o, d) != 0)
		goto out;
	rc = fa_ib_add_req_obs(j->feed->ib, KIND_KEYPROBE, target, req, r, o,
	    NULL, 0);
	o = NULL;
out:
	json_decref(o);
	free(req);
	free(target);
	free(desc);
	fa_ib_feed_done(j->feed, j, rc);
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

/* The first probe from p on that the scan was not told to leave out. */
static size_t
wanted(const struct fa_ib *ib, size_t p)
{
	while (p < NPROBES && (ib->opts->key_probes_off & probes[p].bit))
		p++;
	return p;
}

/* Move c from its node on to the first node to probe (its first probe). */
static void
seek(const struct fa_ib *ib, struct cursor *c)
{
	for (; c->n != NULL; c->n = c->n->next)
		if (c->n->guid != ib->node_guid && c->n->ports != NULL &&
		    !hosts_sm(c->n) && (c->lid = node_lid(c->n, &c->port)) != 0)
			break;
	c->probe = wanted(ib, 0);
}

/* The probe c is at, and move c past it; 0 when none is left. */
static int
next_probe(const struct fa_ib *ib, struct cursor *c, struct cursor *at)
{
	if (c->n == NULL)
		return 0;
	*at = *c;
	if ((c->probe = wanted(ib, c->probe + 1)) == NPROBES) {
		c->n = c->n->next;
		seek(ib, c);
	}
	return 1;
}

static int
take(struct fa_ib_feed *f, void *job)
{
	struct job *j = job;
	struct cursor at;
	struct fa_mad_req *r = &j->r;

	if (!next_probe(f->ib, f->state, &at))
		return 0;
	j->feed = f;
	j->n = at.n;
	j->port = at.port;
	j->probe = at.probe;
	j->lid = at.lid;
	ib_portid_set(&r->dest, j->lid, 1, QP1_QKEY);
	r->mgmt_class = probes[j->probe].mgmt_class;
	r->method = IB_MAD_METHOD_GET;
	r->attr = probes[j->probe].attr;
	r->key = 0;
	r->once = 1;
	r->done = job_done;
	r->arg = j;
	if (fa_mad_submit(f->ib->mad, r) != 0)
		job_done(r, j);		/* recorded as not collected */
	return 1;
}

int
fa_ib_gmp_keys(struct fa_ib *ib)
{
	struct cursor *c, count, at;
	unsigned long n = 0;
	int rc;

	if (ib->fabric == NULL || wanted(ib, 0) == NPROBES)
		return 0;	/* nothing to probe; the checks say why */
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return FA_ERR_NOMEM;
	c->n = ib->fabric->nodes;
	seek(ib, c);
	count = *c;
	while (next_probe(ib, &count, &at))
		n++;
	if ((rc = fa_ib_feed_start(ib, sizeof(struct job), n, take, c,
	    NULL)) != 0)
		free(c);
	return rc;
}
