/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for subnet manager identity in the SM checks
 * (checks/ib_sm_checks.c): who an SM is, how often it is counted, and
 * whether the policy names it.  The rules, from the specification and
 * OpenSM, written before looking at what the checks print:
 *
 *  - SMInfo's GUID is the GUID of the SM's port (IBA vol. 1 14.2.5.13);
 *    an SMInfoRecord is that port's LID and the SM's SMInfo (15.2.5.5).
 *    The SMInfo an SM port answers and the SA's record of it are one SM:
 *    same GUID, same LID.  Counted once.
 *  - An SM's state is what the SM answers in SMInfo (14.4.1); the SA's
 *    record of another SM is what the master last polled (OpenSM fills
 *    remote SMInfoRecords from its SM table, osm_sa_sminfo_record.c), so
 *    when both are there the SM's own answer counts.
 *  - An SM runs on a CA port or on a managed switch's port 0 (the
 *    switch's management port, IBA vol. 1 17.2.1.1 / 14.2.5.6: switch
 *    external ports carry no CapabilityMask).  Its port GUID is then the
 *    switch's port-0 GUID, its node GUID the switch's.
 *  - fabaudit.conf(5): sm_guid lines hold node or port GUIDs; either names
 *    the SM (node GUIDs already classify ports as the provider's).
 *  - A port whose PortInfo CapabilityMask has IsSM hosts an SM (the Linux
 *    umad issm device sets the bit while OpenSM holds it open): an SM the
 *    policy does not name is unexpected whether or not it answers SMInfo.
 *  - "One master" is a claim about the master: with no SM reporting
 *    MASTER state, the master was not seen.
 *
 * The observations are written the way fabric/ib_sminfo.c, fabric/ib_sa.c
 * and fabric/ib_discover.c write them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../../checks/check.h"
#include "../../checks/ib_checks.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"
#include "ib_snap.h"

#define NOW	((time_t)1796205600)	/* 2026-12-02T10:00:00Z */

#define GUIDF	"0x%016llx"
#define G(x)	((unsigned long long)(x))

/*
 * The fabric: the tenant's CA, the provider's SM host ufm-sm01, a foreign
 * CA that may run an SM, a managed leaf switch whose port-0 GUID differs
 * from its node GUID (as on switches that number their GUIDs), and a
 * spine whose port-0 GUID equals its node GUID (the common case).
 */
enum { N_SELF, N_UFM, N_ZETA, N_LEAF, N_SPINE, NNODE };

static const struct node {
	const char	*type;
	const char	*desc;
	uint64_t	 node;
	uint64_t	 port;	/* the CA port, or switch port 0 */
	int		 lid;
	int		 num;	/* port number: 1 on CAs, 0 on switches */
} nodes[NNODE] = {
	[N_SELF] = { "CA", "acme-gpu-01 mlx5_0", 0x0002c90300000100ULL,
	    0x0002c90300000101ULL, 4, 1 },
	[N_UFM] = { "CA", "ufm-sm01 mlx5_0", 0x0002c90300000200ULL,
	    0x0002c90300000201ULL, 1, 1 },
	[N_ZETA] = { "CA", "zeta-gpu-01 mlx5_0", 0x0002c90300000300ULL,
	    0x0002c90300000301ULL, 7, 1 },
	[N_LEAF] = { "Switch", "MF0;leaf01:MQM8700/U1", 0x7cfe900300000a00ULL,
	    0x7cfe900300000a01ULL, 2, 0 },
	[N_SPINE] = { "Switch", "MF0;spine01:MQM8700/U1",
	    0x7cfe900300000b00ULL, 0x7cfe900300000b00ULL, 3, 0 },
};

#define SM_STANDBY	2
#define SM_MASTER	3

/* The tenant names its own nodes and the provider's by pattern only. */
#define BASE	"tenant_node acme-*\nprovider_node ufm-*\n"

/* A policy with BASE and sm_guid lines for these GUIDs (0-terminated). */
static char *
pol_sm(uint64_t g, ...)
{
	va_list ap;
	char *sb = NULL;

	sbf(&sb, "%s", BASE);
	va_start(ap, g);
	for (; g != 0; g = va_arg(ap, uint64_t))
		sbf(&sb, "sm_guid " GUIDF "\n", G(g));
	va_end(ap);
	return sb;
}

/*
 * The topology; `issm` is a bit per node whose CA port or switch port 0
 * advertises IsSM, `prot` the M_Key protection bits of every port.  Each
 * port with a link is cabled to the first switch (its peer answered
 * discovery: nothing lies unexplored).
 */
static char *
topo(unsigned issm, int prot)
{
	char *sb = NULL, *peer = NULL;
	int i, sm;

	for (i = 0; i < NNODE && peer == NULL; i++)
		if (nodes[i].num == 0)
			peer = xfmt(",\"remote_node_guid\":\"" GUIDF "\","
			    "\"remote_port\":1", G(nodes[i].node));
	assert_non_null(peer);

	sbf(&sb, "{\"id\":\"ib.topology\",\"family\":\"ib\",\"kind\":"
	    "\"ib.topology\",\"target\":\"fabric\",\"request\":\"libibnetdisc "
	    "discovery from mlx5_0 port 1\",\"state\":\"complete\",\"reason\":"
	    "null,\"data\":{\"max_hops\":2,\"nodes\":[");
	for (i = 0; i < NNODE; i++) {
		const struct node *n = &nodes[i];

		sm = (issm >> i) & 1;
		sbf(&sb, "%s{\"type\":\"%s\",\"desc\":\"%s\",\"guid\":\""
		    GUIDF "\",\"num_ports\":%d,\"partition_cap\":%d,"
		    "\"ports\":[{\"num\":%d,\"lid\":%d,\"capmask\":%u,"
		    "\"is_sm\":%s,\"state\":4,\"guid\":\"" GUIDF "\","
		    "\"mkey\":{\"secret\":true,\"value\":\"" FA_REDACTED "\","
		    "\"zero\":true},\"mkey_protect\":%d,\"mkey_lease\":0,"
		    "\"mkey_violations\":0%s}", i > 0 ? "," : "", n->type,
		    n->desc, G(n->node), n->num == 0 ? 8 : 1,
		    n->num == 0 ? 8 : 128, n->num, n->lid,
		    (n->num == 0 ? 0xc048u : 0x50c048u) | (sm ? 2u : 0u),
		    sm ? "true" : "false", G(n->port), prot,
		    n->num == 0 ? "" : peer);
		if (n->num == 0)
			/* One external port: same LID and GUID, no capmask. */
			sbf(&sb, ",{\"num\":1,\"lid\":%d,\"state\":4,\"guid\":\""
			    GUIDF "\",\"part_enf_in\":1,\"part_enf_out\":1%s}",
			    n->lid, G(n->port), peer);
		sbf(&sb, "]}");
	}
	sbf(&sb, "]}}");
	free(peer);
	return sb;
}

/* How fabric/ib_sminfo.c records an SM port. */
enum smform {
	SF_FULL,	/* port found by discovery: port and node facts */
	SF_OLD,		/* port found, written before node facts existed */
	SF_HIDDEN,	/* port not found: the LID alone */
};

/*
 * ib.smp.sminfo of the SM on node `who`: "complete" (SMInfo answered with
 * this SMState and priority, key 0) or "no_response".
 */
static char *
o_sminfo(int who, const char *state, int smstate, int prio,
    enum smform form)
{
	const struct node *n = &nodes[who];
	char *d = NULL, *o, *id, *target, *req;
	int ok = strcmp(state, "complete") == 0;

	sbf(&d, "{\"lid\":%d,\"found_by\":[\"PortInfo CapabilityMask IsSM\"]",
	    n->lid);
	if (form != SF_HIDDEN)
		sbf(&d, ",\"node_desc\":\"%s\",\"port_guid\":\"" GUIDF "\"",
		    n->desc, G(n->port));
	if (form == SF_FULL)
		sbf(&d, ",\"node_guid\":\"" GUIDF "\",\"node_type\":\"%s\","
		    "\"port_num\":%d", G(n->node), n->type, n->num);
	sbf(&d, ",\"mad_status\":0");
	if (ok)
		sbf(&d, ",\"sm_key\":{\"secret\":true,\"value\":\""
		    FA_REDACTED "\",\"zero\":true,\"well_known\":true},"
		    "\"guid\":\"" GUIDF "\",\"priority\":%d,\"state\":%d,"
		    "\"act_count\":205", G(n->port), prio, smstate);
	sbf(&d, "}");
	id = xfmt("ib.smp.sminfo#%d", 10 + who);
	target = form == SF_HIDDEN ? xfmt("lid-%d", n->lid) :
	    xfmt("%c-" GUIDF "/%d", n->num == 0 ? 'S' : 'H', G(n->node),
	    n->num);
	req = xfmt("SubnGet(SMInfo) LID-routed to LID %d, M_Key 0", n->lid);
	o = obs(id, "ib.smp.sminfo", target, req, state, ok ? NULL :
	    "no response (timed out after retries)", d);
	free(d);
	free(id);
	free(target);
	free(req);
	return o;
}

/* One SMInfoRecord as ib_sa_decode.c writes it. */
static char *
smir(uint64_t guid, int lid, int smstate, int prio)
{
	return xfmt("{\"lid\":%d,\"priority\":%d,\"state\":%d,\"guid\":\""
	    GUIDF "\"}", lid, prio, smstate, G(guid));
}

#define SMIR_OF(who, st, pr)	smir(nodes[who].port, nodes[who].lid, st, pr)

/* ib.sa.sminfo_records holding these records (consumed, NULL-ended). */
static char *
o_smir(char *rec, ...)
{
	va_list ap;
	char *sb = NULL, *d, *o;
	int first = 1;

	va_start(ap, rec);
	for (; rec != NULL; rec = va_arg(ap, char *)) {
		sbf(&sb, "%s%s", first ? "" : ",", rec);
		first = 0;
		free(rec);
	}
	va_end(ap);
	d = xfmt("{\"sms\":[%s],\"mad_status\":0,\"sends\":1}",
	    sb != NULL ? sb : "");
	o = obs("ib.sa.sminfo_records#8", "ib.sa.sminfo_records", "sa",
	    "SubnAdmGetTable(SMInfoRecord) to the SA at LID 1, SM_Key 0",
	    "complete", NULL, d);
	free(sb);
	free(d);
	return o;
}

/* A snapshot from observations (consumed, NULL-terminated). */
static struct fa_snapshot *
snap(char *first, ...)
{
	struct fa_snapshot *s = NULL;
	json_error_t e;
	va_list ap;
	json_t *j;
	char *sb = NULL, *o, *why = NULL;
	int n = 0;

	sbf(&sb, "{\"schema\":\"fabaudit-snapshot/1\",\"tool\":{\"name\":"
	    "\"fabaudit\"},\"families\":{\"ib\":{\"state\":\"collected\","
	    "\"reason\":null},\"eth\":{\"state\":\"not_requested\"}},"
	    "\"observations\":[");
	va_start(ap, first);
	for (o = first; o != NULL; o = va_arg(ap, char *)) {
		sbf(&sb, "%s%s", n++ > 0 ? "," : "", o);
		free(o);
	}
	va_end(ap);
	sbf(&sb, "]}");
	j = json_loads(sb, 0, &e);
	if (j == NULL)
		fail_msg("bad test JSON: %s at %d: %s", e.text, e.position, sb);
	free(sb);
	if (fa_snapshot_from_json(j, &s, &why) != 0)
		fail_msg("snapshot rejected: %s", why != NULL ? why : "?");
	json_decref(j);
	return s;
}

/* What a check gave: status, reason, and the SM evidence list. */
struct got {
	size_t		 n;
	enum fa_status	 st;
	char		 reason[512];
	json_t		*sms;	/* the "sms" evidence (a copy), or NULL */
};

/* Evaluate check c on s (consumed) under policy text pt (freed). */
static struct got
eval(const struct fa_check *c, struct fa_snapshot *s, char *pt)
{
	struct fa_policy *p = NULL;
	struct fa_eval_ctx ctx;
	struct fa_results r;
	struct got g;
	const json_t *e;
	const char *f;
	char *errs = NULL;
	size_t i;
	int rc;

	if (fa_policy_parse("t.conf", pt, strlen(pt), NOW, &p, &errs) != 0)
		fail_msg("policy rejected: %s", errs != NULL ? errs : "?");
	free(pt);
	ctx.snap = s;
	ctx.policy = p;
	memset(&r, 0, sizeof(r));
	memset(&g, 0, sizeof(g));
	rc = c->eval(c, &ctx, &r);
	g.n = r.n;
	g.st = r.n > 0 ? r.v[0].status : FA_ST_MAX;
	snprintf(g.reason, sizeof(g.reason), "%s", r.n > 0 ? r.v[0].reason :
	    "");
	if (r.n > 0)
		json_array_foreach(r.v[0].evidence, i, e) {
			f = json_string_value(json_object_get(e, "field"));
			if (f != NULL && strcmp(f, "sms") == 0)
				g.sms = json_deep_copy(json_object_get(e,
				    "value"));
		}
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
	assert_int_equal(rc, 0);
	return g;
}

static void
got_free(struct got *g)
{
	json_decref(g->sms);
	g->sms = NULL;
}

/* One result of this status whose reason holds `needle`. */
static void
expect(struct got *g, enum fa_status st, const char *needle)
{
	char msg[700];

	snprintf(msg, sizeof(msg), "%zu results, status %d, reason \"%s\"",
	    g->n, (int)g->st, g->reason);
	if (g->n != 1 || g->st != st ||
	    (needle != NULL && strstr(g->reason, needle) == NULL)) {
		got_free(g);
		fail_msg("expected status %d with \"%s\": %s", (int)st,
		    needle != NULL ? needle : "", msg);
	}
}

/* The SM entries in the evidence with this GUID. */
static size_t
sms_with(const struct got *g, uint64_t guid)
{
	char hex[19];
	const json_t *e;
	const char *v;
	size_t i, n = 0;

	snprintf(hex, sizeof(hex), GUIDF, G(guid));
	json_array_foreach(g->sms, i, e)
		if ((v = json_string_value(json_object_get(e, "guid"))) !=
		    NULL && strcmp(v, hex) == 0)
			n++;
	return n;
}

#define UNEXP	(&fa_chk_ib_sm_unexpected)

/* ---- SMs named by node GUID ------------------------------------------- */

static void
smid_named_by_node_guid(void **state)
{
	enum smform form;
	struct got g;

	(void)state;
	/* The master on ufm-sm01, named by its port GUID: the old way. */
	g = eval(UNEXP, snap(topo(1u << N_UFM, 1), o_sminfo(N_UFM, "complete",
	    SM_MASTER, 15, SF_FULL), NULL), pol_sm(nodes[N_UFM].port, 0ULL));
	expect(&g, FA_ST_PASS, "every SM found");
	got_free(&g);
	/*
	 * Named by its node GUID: the same SM, not a rogue one; whether the
	 * SMInfo observation carries the node or only the topology does.
	 */
	for (form = SF_FULL; form <= SF_OLD; form++) {
		g = eval(UNEXP, snap(topo(1u << N_UFM, 1), o_sminfo(N_UFM,
		    "complete", SM_MASTER, 15, form), NULL),
		    pol_sm(nodes[N_UFM].node, 0ULL));
		expect(&g, FA_ST_PASS, "every SM found");
		got_free(&g);
	}
	/* Known only from the SA: the topology gives its node. */
	g = eval(UNEXP, snap(topo(1u << N_UFM, 1), o_smir(SMIR_OF(N_UFM,
	    SM_MASTER, 15), NULL), NULL), pol_sm(nodes[N_UFM].node, 0ULL));
	expect(&g, FA_ST_PASS, "every SM found");
	got_free(&g);
	/* A node GUID of another node names nobody here: still unexpected. */
	g = eval(UNEXP, snap(topo(1u << N_UFM, 1), o_sminfo(N_UFM, "complete",
	    SM_MASTER, 15, SF_FULL), NULL), pol_sm(nodes[N_ZETA].node, 0ULL));
	expect(&g, FA_ST_FAIL, "1 SM report");
	got_free(&g);
}

/* ---- one SM, two reports ---------------------------------------------- */

static void
smid_counted_once(void **state)
{
	const json_t *e;
	struct got g;

	(void)state;
	/* SMInfo and the SA describe the one master: one SM in evidence. */
	g = eval(UNEXP, snap(topo(1u << N_UFM, 1), o_sminfo(N_UFM, "complete",
	    SM_MASTER, 15, SF_FULL), o_smir(SMIR_OF(N_UFM, SM_MASTER, 15),
	    NULL), NULL), pol_sm(nodes[N_UFM].port, 0ULL));
	expect(&g, FA_ST_PASS, NULL);
	assert_int_equal(json_array_size(g.sms), 1);
	e = json_array_get(g.sms, 0);
	assert_string_equal(json_string_value(json_object_get(e, "state")),
	    "Master");
	assert_true(json_is_true(json_object_get(e, "sa_record")));
	got_free(&g);
	/*
	 * An unlisted standby reported by both: one unexpected SM, listed
	 * once, not two.
	 */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_ZETA, 1),
	    o_sminfo(N_UFM, "complete", SM_MASTER, 15, SF_FULL),
	    o_sminfo(N_ZETA, "complete", SM_STANDBY, 0, SF_FULL),
	    o_smir(SMIR_OF(N_UFM, SM_MASTER, 15), SMIR_OF(N_ZETA, SM_STANDBY,
	    0), NULL), NULL), pol_sm(nodes[N_UFM].port, 0ULL));
	expect(&g, FA_ST_FAIL, "1 SM in MASTER state, 1 SM report ");
	assert_int_equal(json_array_size(g.sms), 2);
	assert_int_equal(sms_with(&g, nodes[N_ZETA].port), 1);
	got_free(&g);
	/*
	 * A record with the SM's LID but another GUID than its SMInfo (an
	 * SM reporting its node GUID) is still that SM: one master.
	 */
	g = eval(UNEXP, snap(topo(1u << N_UFM, 1), o_sminfo(N_UFM, "complete",
	    SM_MASTER, 15, SF_FULL), o_smir(smir(nodes[N_UFM].node,
	    nodes[N_UFM].lid, SM_MASTER, 15), NULL), NULL),
	    pol_sm(nodes[N_UFM].port, 0ULL));
	expect(&g, FA_ST_PASS, NULL);
	assert_int_equal(json_array_size(g.sms), 1);
	got_free(&g);
	/*
	 * The SA still has a standby as MASTER (its poll lags a handover)
	 * while the SM itself answers STANDBY: one master, not two.
	 */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_ZETA, 1),
	    o_sminfo(N_UFM, "complete", SM_MASTER, 15, SF_FULL),
	    o_sminfo(N_ZETA, "complete", SM_STANDBY, 0, SF_FULL),
	    o_smir(SMIR_OF(N_UFM, SM_MASTER, 15), SMIR_OF(N_ZETA, SM_MASTER,
	    0), NULL), NULL), pol_sm(nodes[N_UFM].port, nodes[N_ZETA].node,
	    0ULL));
	expect(&g, FA_ST_PASS, "with one master");
	got_free(&g);
}

/* ---- masters on switches ---------------------------------------------- */

static void
smid_master_on_switch(void **state)
{
	const json_t *e;
	struct got g;
	enum smform form;

	(void)state;
	/* The SM on leaf01's port 0, by its port-0 GUID or its node GUID. */
	for (form = SF_FULL; form <= SF_OLD; form++) {
		g = eval(UNEXP, snap(topo(1u << N_LEAF, 1), o_sminfo(N_LEAF,
		    "complete", SM_MASTER, 15, form), o_smir(SMIR_OF(N_LEAF,
		    SM_MASTER, 15), NULL), NULL),
		    pol_sm(nodes[N_LEAF].port, 0ULL));
		expect(&g, FA_ST_PASS, "every SM found");
		assert_int_equal(json_array_size(g.sms), 1);
		got_free(&g);
		g = eval(UNEXP, snap(topo(1u << N_LEAF, 1), o_sminfo(N_LEAF,
		    "complete", SM_MASTER, 15, form), o_smir(SMIR_OF(N_LEAF,
		    SM_MASTER, 15), NULL), NULL),
		    pol_sm(nodes[N_LEAF].node, 0ULL));
		expect(&g, FA_ST_PASS, "every SM found");
		e = json_array_get(g.sms, 0);
		assert_string_equal(json_string_value(json_object_get(e,
		    "node_type")), "Switch");
		got_free(&g);
	}
	/* Known from the SA alone (SMInfo to it unanswered, or not sent). */
	g = eval(UNEXP, snap(topo(1u << N_LEAF, 1), o_smir(SMIR_OF(N_LEAF,
	    SM_MASTER, 15), NULL), NULL), pol_sm(nodes[N_LEAF].node, 0ULL));
	expect(&g, FA_ST_PASS, "every SM found");
	got_free(&g);
	/* The spine, whose port-0 GUID is its node GUID. */
	g = eval(UNEXP, snap(topo(1u << N_SPINE, 1), o_sminfo(N_SPINE,
	    "complete", SM_MASTER, 15, SF_FULL), NULL),
	    pol_sm(nodes[N_SPINE].node, 0ULL));
	expect(&g, FA_ST_PASS, "every SM found");
	got_free(&g);
	/* A switch SM the policy does not name is unexpected like any. */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_LEAF, 1),
	    o_sminfo(N_UFM, "complete", SM_MASTER, 15, SF_FULL),
	    o_sminfo(N_LEAF, "complete", SM_STANDBY, 1, SF_FULL), NULL),
	    pol_sm(nodes[N_UFM].node, 0ULL));
	expect(&g, FA_ST_FAIL, "1 SM in MASTER state, 1 SM report ");
	got_free(&g);
	/* Two masters, one on a switch: fails. */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_LEAF, 1),
	    o_sminfo(N_UFM, "complete", SM_MASTER, 15, SF_FULL),
	    o_sminfo(N_LEAF, "complete", SM_MASTER, 1, SF_FULL), NULL),
	    pol_sm(nodes[N_UFM].node, nodes[N_LEAF].node, 0ULL));
	expect(&g, FA_ST_FAIL, "2 SMs in MASTER state, 0 SM reports");
	got_free(&g);
}

/* The SM_Key of a switch SM is judged from the switch's port 0. */
static void
smid_switch_sm_key(void **state)
{
	struct got g;

	(void)state;
	g = eval(&fa_chk_ib_smkey_default, snap(topo(1u << N_LEAF, 0),
	    o_sminfo(N_LEAF, "complete", SM_MASTER, 15, SF_FULL), NULL),
	    pol_sm(nodes[N_LEAF].node, 0ULL));
	expect(&g, FA_ST_FAIL, "really 0");
	got_free(&g);
	g = eval(&fa_chk_ib_smkey_default, snap(topo(1u << N_LEAF, 1),
	    o_sminfo(N_LEAF, "complete", SM_MASTER, 15, SF_FULL), NULL),
	    pol_sm(nodes[N_LEAF].node, 0ULL));
	expect(&g, FA_ST_NOT_TESTED, "protection level 1");
	got_free(&g);
}

/* ---- a standby SM on a foreign node ----------------------------------- */

static void
smid_foreign_standby(void **state)
{
	const json_t *e;
	struct got g;

	(void)state;
	/* Only the SA knows it: counted, judged, its node found. */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_ZETA, 1),
	    o_sminfo(N_UFM, "complete", SM_MASTER, 15, SF_FULL),
	    o_smir(SMIR_OF(N_UFM, SM_MASTER, 15), SMIR_OF(N_ZETA, SM_STANDBY,
	    0), NULL), NULL), pol_sm(nodes[N_UFM].node, 0ULL));
	expect(&g, FA_ST_FAIL, "1 SM in MASTER state, 1 SM report ");
	assert_int_equal(json_array_size(g.sms), 2);
	assert_int_equal(sms_with(&g, nodes[N_ZETA].port), 1);
	e = json_array_get(g.sms, 1);
	assert_string_equal(json_string_value(json_object_get(e,
	    "node_guid")), "0x0002c90300000300");
	assert_true(json_is_false(json_object_get(e, "listed_in_policy")));
	got_free(&g);
	/* Named by its node GUID, it is expected. */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_ZETA, 1),
	    o_sminfo(N_UFM, "complete", SM_MASTER, 15, SF_FULL),
	    o_sminfo(N_ZETA, "complete", SM_STANDBY, 0, SF_OLD),
	    o_smir(SMIR_OF(N_UFM, SM_MASTER, 15), SMIR_OF(N_ZETA, SM_STANDBY,
	    0), NULL), NULL), pol_sm(nodes[N_UFM].node, nodes[N_ZETA].node,
	    0ULL));
	expect(&g, FA_ST_PASS, "every SM found");
	assert_int_equal(json_array_size(g.sms), 2);
	got_free(&g);
	/*
	 * Its port advertises IsSM but its SMInfo went unanswered and the
	 * SA does not list it: an SM the policy does not name is there.
	 */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_ZETA, 1),
	    o_sminfo(N_UFM, "complete", SM_MASTER, 15, SF_FULL),
	    o_sminfo(N_ZETA, "no_response", 0, 0, SF_FULL),
	    o_smir(SMIR_OF(N_UFM, SM_MASTER, 15), NULL), NULL),
	    pol_sm(nodes[N_UFM].node, 0ULL));
	expect(&g, FA_ST_FAIL, "1 SM report ");
	got_free(&g);
	/* Unanswered but listed: its state is unknown, not a pass. */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_ZETA, 1),
	    o_sminfo(N_UFM, "complete", SM_MASTER, 15, SF_FULL),
	    o_sminfo(N_ZETA, "no_response", 0, 0, SF_FULL),
	    o_smir(SMIR_OF(N_UFM, SM_MASTER, 15), NULL), NULL),
	    pol_sm(nodes[N_UFM].node, nodes[N_ZETA].node, 0ULL));
	expect(&g, FA_ST_NOT_TESTED, "did not answer SMInfo");
	got_free(&g);
	/* Unanswered, but the SA's record gives its state: judged. */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_ZETA, 1),
	    o_sminfo(N_UFM, "complete", SM_MASTER, 15, SF_FULL),
	    o_sminfo(N_ZETA, "no_response", 0, 0, SF_FULL),
	    o_smir(SMIR_OF(N_UFM, SM_MASTER, 15), SMIR_OF(N_ZETA, SM_STANDBY,
	    0), NULL), NULL), pol_sm(nodes[N_UFM].node, nodes[N_ZETA].node,
	    0ULL));
	expect(&g, FA_ST_PASS, "every SM found");
	assert_int_equal(json_array_size(g.sms), 2);
	got_free(&g);
}

/* ---- identity that cannot be settled ---------------------------------- */

static void
smid_unknown_identity_is_not_rogue(void **state)
{
	struct got g;

	(void)state;
	/*
	 * The SA lists an SM at a LID discovery did not find, whose port
	 * GUID no sm_guid line lists: the policy may name its node, which
	 * is unknown.  Not a rogue SM, and not a pass.
	 */
	g = eval(UNEXP, snap(topo(1u << N_UFM, 1), o_sminfo(N_UFM, "complete",
	    SM_MASTER, 15, SF_FULL), o_smir(SMIR_OF(N_UFM, SM_MASTER, 15),
	    smir(0x0002c90300000901ULL, 9, SM_STANDBY, 0), NULL), NULL),
	    pol_sm(nodes[N_UFM].node, 0x0002c90300000900ULL, 0ULL));
	expect(&g, FA_ST_NOT_TESTED, "node GUID");
	got_free(&g);
	/* Its port GUID listed: settled. */
	g = eval(UNEXP, snap(topo(1u << N_UFM, 1), o_sminfo(N_UFM, "complete",
	    SM_MASTER, 15, SF_FULL), o_smir(SMIR_OF(N_UFM, SM_MASTER, 15),
	    smir(0x0002c90300000901ULL, 9, SM_STANDBY, 0), NULL), NULL),
	    pol_sm(nodes[N_UFM].node, 0x0002c90300000901ULL, 0ULL));
	expect(&g, FA_ST_PASS, "every SM found");
	got_free(&g);
	/* No SM reports MASTER: the master was not seen, no pass. */
	g = eval(UNEXP, snap(topo(1u << N_UFM | 1u << N_ZETA, 1),
	    o_sminfo(N_ZETA, "complete", SM_STANDBY, 0, SF_FULL), NULL),
	    pol_sm(nodes[N_ZETA].node, 0ULL));
	expect(&g, FA_ST_NOT_TESTED, "MASTER");
	got_free(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(smid_named_by_node_guid),
		cmocka_unit_test(smid_counted_once),
		cmocka_unit_test(smid_master_on_switch),
		cmocka_unit_test(smid_switch_sm_key),
		cmocka_unit_test(smid_foreign_standby),
		cmocka_unit_test(smid_unknown_identity_is_not_rogue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
