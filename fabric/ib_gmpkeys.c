/* SPDX-License-Identifier: BSD-2-Clause */
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
 * The probes stream as a feed (ib_feed.c), node by node.  What each node
 * did is one entry of its class's observation, not an observation of its
 * own: 34,000 probes at 10,000 HCAs were a third of a snapshot's JSON
 * values.  A node that answered is an entry of nodes[]: its target, LID,
 * description and type, and for CC the CongestionKeyInfo fields.  The
 * others, most of a fabric (no agent of the class), are only counted by
 * the checks: they are in quiet[], grouped by the state their probe ended
 * in (rejected, no_response, not_collected, error) and the MAD status of
 * a rejection, as targets.  Both lists are in target order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"
#include "../core/obs_kinds.h"

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

/* The feed's state: its cursor, and each probed class's node entries. */
struct probing {
	struct cursor	 c;
	json_t		*nodes[NPROBES];	/* NULL: class left out */
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
	struct probing *ps = j->feed->state;
	enum fa_obs_state st = fa_ib_req_state(r);
	char *target = NULL, *desc = NULL;
	json_t *e = NULL;
	int rc = FA_ERR_NOMEM;

	if (fa_ib_port_names(j->n, j->port, &target, &desc) != 0 ||
	    (e = json_pack("{s:s, s:i, s:s, s:s, s:s}", "target", target,
	    "lid", j->lid, "node_desc", desc, "node_type", type_name(j->n),
	    "state", fa_obs_state_name(st))) == NULL)
		goto out;
	if (st == FA_OBS_REJECTED && json_object_set_new(e, "mad_status",
	    json_integer(r->status)) != 0)
		goto out;
	/* CongestionKeyInfo (Annex A10.4.3): the key and its protection. */
	if (st == FA_OBS_COMPLETE &&
	    probes[j->probe].mgmt_class == IB_CC_CLASS) {
		struct fa_ib_cc_keyinfo k;

		fa_ib_cc_keyinfo_decode(fa_mad_data(r), &k);
		rc = json_object_set_new(e, "cc_key",
		    fa_secret_new(k.cc_key)) != 0 ||
		    json_object_set_new(e, "protect",
		    json_integer(k.protect)) != 0 ||
		    json_object_set_new(e, "lease",
		    json_integer(k.lease)) != 0 ||
		    json_object_set_new(e, "violations",
		    json_integer(k.violations)) != 0 ? FA_ERR_NOMEM : 0;
		/* The answer and its copy held the CC_Key. */
		explicit_bzero(&k, sizeof(k));
		explicit_bzero(r->resp, sizeof(r->resp));
		if (rc != 0)
			goto out;
	}
	rc = json_array_append_new(ps->nodes[j->probe], e) != 0 ?
	    FA_ERR_NOMEM : 0;
	e = NULL;
out:
	json_decref(e);
	free(target);
	free(desc);
	fa_ib_feed_done(j->feed, j, rc);
}

static int
target_cmp(const void *a, const void *b)
{
	const char *x = json_string_value(json_object_get(*(json_t *const *)a,
	    "target"));
	const char *y = json_string_value(json_object_get(*(json_t *const *)b,
	    "target"));

	return strcmp(x != NULL ? x : "", y != NULL ? y : "");
}

/*
 * Move the entries of nodes whose probe was not answered with data into
 * groups by how it ended (state, and the MAD status of a rejection), each
 * group's targets in the order they come: most nodes of a fabric end the
 * same way (no agent: silence, or "unsupported"), and what the checks
 * need of them is that count.  Their LIDs and descriptions are the
 * topology's.  nodes keeps the answers.  0 or FA_ERR_NOMEM.
 */
static int
split_quiet(json_t *sorted, json_t *answered, json_t *quiet)
{
	json_t *by = json_object(), *e, *g, *at;
	const char *st;
	char key[48];
	size_t i;
	int r = FA_ERR_NOMEM;

	if (by == NULL)
		return r;
	json_array_foreach(sorted, i, e) {
		st = json_string_value(json_object_get(e, "state"));
		if (st != NULL && strcmp(st, "complete") == 0) {
			if (json_array_append(answered, e) != 0)
				goto out;
			continue;
		}
		snprintf(key, sizeof(key), "%.24s/%lld", st != NULL ? st : "",
		    (long long)json_integer_value(json_object_get(e,
		    "mad_status")));
		if ((g = json_object_get(by, key)) == NULL) {
			if ((g = json_pack("{s:O, s:[]}", "state",
			    json_object_get(e, "state"), "targets")) == NULL ||
			    ((at = json_object_get(e, "mad_status")) != NULL &&
			    json_object_set(g, "mad_status", at) != 0) ||
			    json_array_append_new(quiet, g) != 0 ||
			    json_object_set(by, key, g) != 0)
				goto out;
		}
		if (json_array_append(json_object_get(g, "targets"),
		    json_object_get(e, "target")) != 0)
			goto out;
	}
	r = 0;
out:
	json_decref(by);
	return r;
}

/*
 * Probe p's observation: its node entries (stolen), in target order, so
 * that the snapshot does not depend on the order answers came in.
 */
static int
add_class(struct fa_ib *ib, size_t p, json_t *nodes)
{
	size_t i, n = json_array_size(nodes);
	struct fa_obs_build b;
	json_t **v, *sorted, *d, *answered, *quiet;
	char *req;
	int r;

	if ((v = calloc(n > 0 ? n : 1, sizeof(*v))) == NULL ||
	    (sorted = json_array()) == NULL) {
		free(v);
		json_decref(nodes);
		return FA_ERR_NOMEM;
	}
	for (i = 0; i < n; i++)
		v[i] = json_array_get(nodes, i);
	qsort(v, n, sizeof(*v), target_cmp);
	for (i = 0; i < n; i++)
		if (json_array_append(sorted, v[i]) != 0)
			break;
	free(v);
	json_decref(nodes);
	fa_obs_build(&b);
	answered = json_array();
	quiet = json_array();
	if (i < n || answered == NULL || quiet == NULL ||
	    split_quiet(sorted, answered, quiet) != 0)
		fa_obs_build_fail(&b);
	json_decref(sorted);
	fa_put_str(&b, FA_F(IB_KEYPROBES, class), probes[p].name);
	fa_put_str(&b, FA_F(IB_KEYPROBES, attribute), probes[p].attr_name);
	fa_put_arr(&b, FA_F(IB_KEYPROBES, nodes), answered);
	fa_put_arr(&b, FA_F(IB_KEYPROBES, quiet), quiet);
	if ((d = fa_obs_built(&b)) == NULL)
		return FA_ERR_NOMEM;
	req = fa_strfmt("Get(%s) class 0x%02x with key 0, LID-routed to each "
	    "node's LID (its port's in ib.topology), sent once",
	    probes[p].attr_name, probes[p].mgmt_class);
	if (req == NULL) {
		json_decref(d);
		return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL, FA_KIND_IB_KEYPROBES,
	    "fabric", req, FA_OBS_COMPLETE, NULL, d, NULL);
	free(req);
	return r;
}

/* Every probe has finished: an observation per class with nodes probed. */
static void
all_probed(struct fa_ib_feed *f)
{
	struct probing *ps = f->state;
	size_t p;
	int r;

	for (p = 0; p < NPROBES; p++) {
		if (ps->nodes[p] == NULL)
			continue;
		if (json_array_size(ps->nodes[p]) == 0) {
			json_decref(ps->nodes[p]);
			r = 0;
		} else
			r = add_class(f->ib, p, ps->nodes[p]);
		ps->nodes[p] = NULL;
		if (r != 0 && f->err == 0)
			f->err = r;
	}
}

static void
probing_free(struct probing *ps)
{
	size_t p;

	for (p = 0; p < NPROBES; p++)
		json_decref(ps->nodes[p]);
	free(ps);
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

	if (!next_probe(f->ib, &((struct probing *)f->state)->c, &at))
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
	struct fa_ib_feed *f;
	struct probing *ps;
	struct cursor count, at;
	unsigned long n = 0;
	size_t p;
	int rc;

	if (ib->fabric == NULL || wanted(ib, 0) == NPROBES)
		return 0;	/* nothing to probe; the checks say why */
	if ((ps = calloc(1, sizeof(*ps))) == NULL)
		return FA_ERR_NOMEM;
	for (p = wanted(ib, 0); p < NPROBES; p = wanted(ib, p + 1))
		if ((ps->nodes[p] = json_array()) == NULL) {
			probing_free(ps);
			return FA_ERR_NOMEM;
		}
	ps->c.n = ib->fabric->nodes;
	seek(ib, &ps->c);
	count = ps->c;
	while (next_probe(ib, &count, &at))
		n++;
	if ((rc = fa_ib_feed_start(ib, sizeof(struct job), n, take, ps,
	    &f)) != 0) {
		probing_free(ps);
		return rc;
	}
	/* The feed owns ps now; its entries become observations at the end. */
	fa_ib_feed_on_end(f, all_probed);
	return 0;
}
