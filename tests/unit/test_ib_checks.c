/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the InfiniBand checks (checks/ib_*.c), from hand-written
 * snapshot JSON loaded through fa_snapshot_from_json() and small policies
 * parsed with fa_policy_parse().  Every check in the registry, every status
 * it can give: pass, fail, each not_tested path, not_applicable where the
 * check has one, and error (family failed, malformed observation data).
 *
 * The observations are written the way fabric/ib_*.c writes them (kinds,
 * targets, ids and data members), over one realistic fabric: the tenant's
 * CA acme-gpu-01 (the scanning port), a second tenant CA, the provider's SM
 * host ufm-sm01, two foreign CAs of tenant "zeta", a leaf switch whose ports
 * 1-5 face those CAs and whose port 6 is an inter-switch link to a second
 * switch, and a down port 7.  `struct fab` varies the M_Key facts of every
 * port and the partition enforcement bits of every CA-facing switch port.
 *
 * The last test compares the checks this file exercised (and the statuses
 * they gave) with the registry: a new check without tests fails the suite.
 *
 * Tests named * assert the behaviour the check should have where the
 * current check gets it wrong; each says why.  They fail until the check
 * is fixed.
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
#include "../../checks/ib_topo.h"
#include "../../core/errors.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"
#include "ib_snap.h"
#include "ib_aggregate.h"

#define NOW	((time_t)1796205600)	/* 2026-12-02T10:00:00Z */

/* ---- the fabric ------------------------------------------------------- */

#define GUIDF	"0x%016llx"
#define G(x)	((unsigned long long)(x))

#define SW1_GUID	0x7cfe900300000a00ULL	/* leaf switch, LID 2 */
#define SW2_GUID	0x7cfe900300000b00ULL	/* second switch, LID 3 */
#define SW1_LID		2
#define SW2_LID		3
#define SELF_LID	4
#define SM_LID		1

/* The CA ports; P_GHOST answers PathRecords but is not in the topology. */
enum { P_SELF, P_SM, P_FOREIGN, P_TENANT2, P_FOREIGN2, P_GHOST, NCA };
/* M_Key facts are kept per CA port and for both switches' port 0. */
enum { P_SW1 = NCA, P_SW2, NPORT };

static const struct ca {
	const char	*desc;
	uint64_t	 node;
	uint64_t	 port;
	int		 lid;
	int		 swport;	/* the leaf switch port facing it */
} cas[NCA] = {
	[P_SELF] = { "acme-gpu-01 mlx5_0", 0x0002c90300000100ULL,
	    0x0002c90300000101ULL, SELF_LID, 1 },
	[P_SM] = { "ufm-sm01 mlx5_0", 0x0002c90300000200ULL,
	    0x0002c90300000201ULL, SM_LID, 2 },
	[P_FOREIGN] = { "zeta-gpu-01 mlx5_0", 0x0002c90300000300ULL,
	    0x0002c90300000301ULL, 7, 3 },
	[P_TENANT2] = { "acme-gpu-02 mlx5_0", 0x0002c90300000400ULL,
	    0x0002c90300000401ULL, 5, 4 },
	[P_FOREIGN2] = { "zeta-gpu-02 mlx5_0", 0x0002c90300000500ULL,
	    0x0002c90300000501ULL, 8, 5 },
	[P_GHOST] = { "ghost-01 mlx5_0", 0x0002c90300000600ULL,
	    0x0002c90300000601ULL, 9, 0 },
};

#define T_SELF		"H-0x0002c90300000100/1"
#define T_SM		"H-0x0002c90300000200/1"
#define T_FOREIGN	"H-0x0002c90300000300/1"
#define T_TENANT2	"H-0x0002c90300000400/1"
#define T_FOREIGN2	"H-0x0002c90300000500/1"
#define T_SW1		"S-0x7cfe900300000a00"
#define T_SW2		"S-0x7cfe900300000b00"

/* The tenant's policy: its nodes, the provider's, and where the SM runs. */
#define POLICY \
	"tenant_node acme-*\n" \
	"provider_node ufm-*\n" \
	"sm_guid 0x0002c90300000201\n"

/*
 * The M_Key facts of one port as discovery records them: the secret object
 * {"secret","value","zero"}, mkey_protect, mkey_lease, mkey_violations.
 * zero < 0 leaves the mkey member out; value NULL is "<redacted>".
 */
struct mk {
	int		 zero;
	int		 prot;
	int		 lease;
	int		 viol;
	const char	*value;
};

#define MK_UNSET	((struct mk){ 1, 0, 0, 0, NULL })  /* 0, level 0 */
#define MK_READABLE	((struct mk){ 0, 0, 0, 0, NULL })  /* key, level 0 */
#define MK_HIDDEN	((struct mk){ 1, 1, 60, 3, NULL }) /* level 1 */
/*
 * Level 2 with the key read as 0: a port at level 2 answers a Get only
 * with the right key, and we send 0, so its key is 0: unset.  A port
 * protected for real never appears in a tenant's discovery.
 */
#define MK_SECURE	((struct mk){ 1, 2, 60, 0, NULL }) /* level 2, key 0 */

struct fab {
	struct mk	 mk[NPORT];
	/* PartitionEnforcement of the leaf port facing each CA; -1 omits. */
	int		 enf_in[NCA];
	int		 enf_out[NCA];
	int		 foreign_is_sm;	/* zeta-gpu-01 has IsSM */
	int		 only_self;	/* only our node found */
	int		 self_dangling;	/* our port's link up, its peer never
					   answered (no remote_*) */
	int		 no_max_hops;
	const char	*state;		/* the topology's state */
	const char	*inject;	/* raw node before zeta-gpu-01 */
};

/* Every port at M_Key level 2, enforcement on both ways everywhere. */
static struct fab
fab_careful(void)
{
	struct fab f;
	int i;

	memset(&f, 0, sizeof(f));
	for (i = 0; i < NPORT; i++)
		f.mk[i] = MK_HIDDEN;	/* the best a visible port can do */
	for (i = 0; i < NCA; i++)
		f.enf_in[i] = f.enf_out[i] = 1;
	f.state = "complete";
	return f;
}

/* M_Key 0 at level 0 everywhere, no partition enforcement. */
static struct fab
fab_careless(void)
{
	struct fab f = fab_careful();
	int i;

	for (i = 0; i < NPORT; i++)
		f.mk[i] = MK_UNSET;
	for (i = 0; i < NCA; i++)
		f.enf_in[i] = f.enf_out[i] = 0;
	return f;
}

/* Append printf-style text to the string *sb (NULL: empty). */

static void
port_mk(char **sb, const struct mk *m)
{
	if (m->zero >= 0)
		sbf(sb, ",\"mkey\":{\"secret\":true,\"value\":\"%s\","
		    "\"zero\":%s}", m->value != NULL ? m->value : FA_REDACTED,
		    m->zero ? "true" : "false");
	sbf(sb, ",\"mkey_protect\":%d,\"mkey_lease\":%d,"
	    "\"mkey_violations\":%d", m->prot, m->lease, m->viol);
}

static void
ca_node(char **sb, const struct fab *f, int who)
{
	const struct ca *c = &cas[who];
	int issm = who == P_SM || (who == P_FOREIGN && f->foreign_is_sm);

	sbf(sb, "{\"type\":\"CA\",\"desc\":\"%s\",\"guid\":\"" GUIDF "\","
	    "\"num_ports\":1,\"partition_cap\":128,\"ports\":[{\"num\":1,"
	    "\"lid\":%d,\"capmask\":%u,\"is_sm\":%s,\"state\":4,"
	    "\"guid\":\"" GUIDF "\"", c->desc, G(c->node), c->lid,
	    issm ? 0x50c04au : 0x50c048u, issm ? "true" : "false", G(c->port));
	port_mk(sb, &f->mk[who]);
	if (who == P_SELF && f->self_dangling) {
		sbf(sb, ",\"phys_state\":5}]}");
		return;
	}
	sbf(sb, ",\"remote_node_guid\":\"" GUIDF "\",\"remote_port\":%d,"
	    "\"remote_type\":\"Switch\"}]}", G(SW1_GUID), c->swport);
}

/* A switch port; a negative in/out leaves that enforcement bit out. */
static void
sw_port(char **sb, uint64_t guid, int lid, int num, const struct mk *m,
    int in, int out, uint64_t rguid, int rport, const char *rtype)
{
	sbf(sb, "%s{\"num\":%d,\"lid\":%d,\"capmask\":%u,\"is_sm\":false,"
	    "\"state\":%d,\"guid\":\"" GUIDF "\"", num > 0 ? "," : "", num, lid,
	    num == 0 ? 0xc048u : 0u, rtype != NULL || num == 0 ? 4 : 1,
	    G(guid));
	port_mk(sb, m);
	if (num > 0 && in >= 0)
		sbf(sb, ",\"part_enf_in\":%d", in);
	if (num > 0 && out >= 0)
		sbf(sb, ",\"part_enf_out\":%d", out);
	if (rtype != NULL)
		sbf(sb, ",\"remote_node_guid\":\"" GUIDF "\","
		    "\"remote_port\":%d,\"remote_type\":\"%s\"", G(rguid),
		    rport, rtype);
	sbf(sb, "}");
}

/* The ib.topology observation (id "ib.topology", target "fabric"). */
static char *
topo(const struct fab *f)
{
	static const int order[] = { P_SELF, P_SM, P_FOREIGN, P_TENANT2,
	    P_FOREIGN2 };
	const struct mk ext = MK_UNSET;	/* external switch ports */
	char *sb = NULL;
	size_t i;
	int c;

	if (strcmp(f->state, "complete") != 0)
		return xfmt("{\"id\":\"ib.topology\",\"family\":\"ib\","
		    "\"kind\":\"ib.topology\",\"target\":\"fabric\","
		    "\"request\":\"libibnetdisc discovery from mlx5_0 port 1\","
		    "\"state\":\"%s\",\"reason\":\"ibnd_discover_fabric "
		    "failed\",\"data\":{}}", f->state);
	sbf(&sb, "{\"id\":\"ib.topology\",\"family\":\"ib\","
	    "\"kind\":\"ib.topology\",\"target\":\"fabric\","
	    "\"request\":\"libibnetdisc discovery from mlx5_0 port 1 (directed "
	    "route Gets; window 4, timeout 200 ms, retries 2)\","
	    "\"state\":\"complete\",\"reason\":null,\"data\":{");
	if (!f->no_max_hops)
		sbf(&sb, "\"max_hops\":2,");
	sbf(&sb, "\"nodes\":[");
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (f->only_self && order[i] != P_SELF)
			continue;
		if (order[i] == P_FOREIGN && f->inject != NULL)
			sbf(&sb, "%s,", f->inject);
		ca_node(&sb, f, order[i]);
		if (!f->only_self && order[i] != P_FOREIGN2)
			sbf(&sb, ",");
	}
	if (!f->only_self) {
		sbf(&sb, ",{\"type\":\"Switch\",\"desc\":\"MF0;leaf01:MQM8700/"
		    "U1\",\"guid\":\"" GUIDF "\",\"num_ports\":7,"
		    "\"partition_cap\":8,\"ports\":[", G(SW1_GUID));
		sw_port(&sb, SW1_GUID, SW1_LID, 0, &f->mk[P_SW1], -2, -2, 0,
		    0, NULL);
		for (c = P_SELF; c <= P_FOREIGN2; c++)
			sw_port(&sb, SW1_GUID, SW1_LID, cas[c].swport, &ext,
			    f->enf_in[c], f->enf_out[c], cas[c].node, 1, "CA");
		/* The link to the second switch and a down port: no CA. */
		sw_port(&sb, SW1_GUID, SW1_LID, 6, &ext, 0, 0, SW2_GUID, 1,
		    "Switch");
		sw_port(&sb, SW1_GUID, SW1_LID, 7, &ext, 0, 0, 0, 0, NULL);
		sbf(&sb, "]},{\"type\":\"Switch\",\"desc\":\"MF0;spine01:"
		    "MQM8700/U1\",\"guid\":\"" GUIDF "\",\"num_ports\":1,"
		    "\"partition_cap\":8,\"ports\":[", G(SW2_GUID));
		sw_port(&sb, SW2_GUID, SW2_LID, 0, &f->mk[P_SW2], -2, -2, 0,
		    0, NULL);
		sw_port(&sb, SW2_GUID, SW2_LID, 1, &ext, 0, 0, SW1_GUID, 6,
		    "Switch");
		sbf(&sb, "]}");
	}
	sbf(&sb, "]}}");
	return sb;
}

/* ---- observations as fabric/ib_*.c writes them ------------------------ */

/* The reason fabric/ib_smp.c gives an SMP observation in this state. */
static const char *
smp_reason(const char *state)
{
	if (strcmp(state, "complete") == 0)
		return NULL;
	if (strcmp(state, "rejected") == 0)
		return "answered with MAD status 0x000c";
	if (strcmp(state, "error") == 0)
		return "the request could not be sent";
	if (strcmp(state, "not_collected") == 0)
		return "not collected";
	return "no response (timed out after retries)";
}

/* ib.local_port, id "ib.local": the tenant port (fabric/ib_local.c). */
static char *
o_local_state(const char *state, int with_guid)
{
	char *d, *o;

	if (with_guid)
		d = xfmt("{\"ca\":\"mlx5_0\",\"port\":1,\"lid\":%d,"
		    "\"sm_lid\":%d,\"node_desc\":\"%s\",\"node_type\":"
		    "\"CA\",\"partition_cap\":128,\"port_guid\":\"" GUIDF
		    "\",\"node_guid\":\"" GUIDF "\"}", SELF_LID, SM_LID,
		    cas[P_SELF].desc, G(cas[P_SELF].port),
		    G(cas[P_SELF].node));
	else
		d = xfmt("{\"ca\":\"mlx5_0\",\"port\":1,\"lid\":%d,"
		    "\"sm_lid\":%d,\"node_desc\":\"%s\",\"node_type\":"
		    "\"CA\",\"partition_cap\":128,\"port_guid\":\"" GUIDF
		    "\"}", SELF_LID, SM_LID, cas[P_SELF].desc,
		    G(cas[P_SELF].port));
	o = obs("ib.local", "ib.local_port", T_SELF, "umad port attributes; "
	    "SubnGet(NodeInfo), SubnGet(NodeDescription) by directed route "
	    "to self", state, smp_reason(state), d);
	free(d);
	return o;
}

static char *
o_local(void)
{
	return o_local_state("complete", 1);
}

/* An SM_Key secret object; value NULL: redacted; wk < 0: no well_known. */
static char *
key(int zero, const char *value, int wk)
{
	char *w = wk < 0 ? xfmt("%s", "") : xfmt(",\"well_known\":%s",
	    wk ? "true" : "false");
	char *k = xfmt("{\"secret\":true,\"value\":\"%s\",\"zero\":%s%s}",
	    value != NULL ? value : FA_REDACTED, zero ? "true" : "false", w);

	free(w);
	return k;
}

#define KEY_DEFAULT()	key(0, NULL, 1)	/* 1, OpenSM's default */
#define KEY_RANDOM()	key(0, NULL, 0)
#define KEY_ZERO()	key(1, NULL, 1)

#define SM_MASTER	3
#define SM_STANDBY	2

/*
 * ib.smp.sminfo of the SM on CA `who` (fabric/ib_sminfo.c).  `k` (a key()
 * string, consumed; NULL leaves sm_key out) and the SM fields are written
 * when the state is "complete"; `extra` is raw text added to data.
 */
#define HIDDEN_SM	"(hidden)"	/* o_sminfo_x extra: port not discovered */

static char *
o_sminfo_x(int who, const char *state, char *k, int smstate, int prio,
    const char *extra)
{
	const struct ca *c = &cas[who];
	char *d, *o, *id, *target, *req;

	if (strcmp(state, "complete") == 0)
		d = xfmt("{\"lid\":%d,\"found_by\":[\"local PortInfo "
		    "MasterSMLID\",\"PortInfo CapabilityMask IsSM\"],"
		    "\"node_desc\":\"%s\",\"port_guid\":\"" GUIDF "\","
		    "\"mad_status\":0%s%s,\"guid\":\"" GUIDF "\","
		    "\"priority\":%d,\"state\":%d,\"act_count\":205%s}",
		    c->lid, c->desc, G(c->port),
		    k != NULL ? ",\"sm_key\":" : "",
		    k != NULL ? k : "", G(c->port), prio, smstate, extra);
	else if (strcmp(extra, HIDDEN_SM) == 0)
		/* Known only from our PortInfo: discovery never reached it. */
		d = xfmt("{\"lid\":%d,\"found_by\":[\"local PortInfo "
		    "MasterSMLID\"],\"mad_status\":0}", c->lid);
	else
		d = xfmt("{\"lid\":%d,\"found_by\":[\"PortInfo CapabilityMask "
		    "IsSM\"],\"node_desc\":\"%s\",\"port_guid\":\"" GUIDF "\","
		    "\"mad_status\":%d%s}", c->lid, c->desc, G(c->port),
		    strcmp(state, "rejected") == 0 ? 12 : 0, extra);
	id = xfmt("ib.smp.sminfo#%d", 10 + who);
	target = xfmt("H-" GUIDF "/1", G(c->node));
	req = xfmt("SubnGet(SMInfo) LID-routed to LID %d, M_Key 0", c->lid);
	o = obs(id, "ib.smp.sminfo", target, req, state, smp_reason(state), d);
	free(k);
	free(d);
	free(id);
	free(target);
	free(req);
	return o;
}

static char *
o_sminfo(int who, const char *state, char *k, int smstate, int prio)
{
	return o_sminfo_x(who, state, k, smstate, prio, "");
}

/*
 * ib.smp.pkey_table, role local (fabric/ib_pkeys.c); a negative block
 * count leaves that member out.
 */
static char *
o_pkeys(const char *state, int total, int got, const char *pkeys)
{
	char *d = NULL, *o;

	sbf(&d, "{\"role\":\"local\",\"lid\":%d,\"node_desc\":\"%s\","
	    "\"partition_cap\":128,\"port_guid\":\"" GUIDF "\"", SELF_LID,
	    cas[P_SELF].desc, G(cas[P_SELF].port));
	if (total >= 0)
		sbf(&d, ",\"blocks_total\":%d", total);
	if (got >= 0)
		sbf(&d, ",\"blocks_read\":%d", got);
	sbf(&d, ",\"pkeys\":[%s]}", pkeys);
	o = obs("ib.smp.pkey_table#4", "ib.smp.pkey_table", T_SELF,
	    "SubnGet(P_KeyTable) blocks 0-3 by directed route to self, M_Key 0",
	    state, strcmp(state, "incomplete") == 0 ?
	    "no response (timed out after retries)" : smp_reason(state), d);
	free(d);
	return o;
}

/* The reason fabric/ib_sa.c gives an SA observation in this state. */
static char *
sa_reason(const char *state, int mad_status)
{
	if (strcmp(state, "complete") == 0)
		return NULL;
	if (strcmp(state, "rejected") == 0)
		return xfmt("answered with MAD status 0x%04x", mad_status);
	if (strcmp(state, "no_response") == 0)
		return xfmt("no response after 3 sends");
	if (strcmp(state, "not_collected") == 0)
		return xfmt("no SM LID known: the SA cannot be addressed");
	return xfmt("the request could not be sent");
}

/*
 * ib.sa.pkey_table_record (fabric/ib_sa.c), target "sa/untrusted" (SM_Key
 * 0) or "sa/trusted-default-key" (SM_Key 1).  `records` is raw JSON (NULL
 * leaves the member out); `sends` and `single_shot` as the scan wrote them
 * (older scans sent the SM_Key 1 query once and said so).
 */
static char *
o_pktr_sent(int trusted, const char *state, int mad_status,
    const char *records, int sends, int single_shot)
{
	char *d = NULL, *o, *req, *why = sa_reason(state, mad_status);

	if (strcmp(state, "not_collected") == 0)
		d = xfmt("{}");
	else {
		sbf(&d, "{\"sm_key_sent\":\"%s\",\"trusted_query\":%s",
		    trusted ? "1 (OpenSM default)" : "0",
		    trusted ? "true" : "false");
		if (records != NULL)
			sbf(&d, ",\"records\":%s", records);
		sbf(&d, ",\"mad_status\":%d,\"sends\":%d%s}", mad_status,
		    sends, single_shot ? ",\"single_shot\":true" : "");
	}
	req = strcmp(state, "not_collected") == 0 ? xfmt("none") :
	    xfmt("SubnAdmGet(PKeyTableRecord) LID %d to the SA at LID %d, "
	    "SM_Key %s", SELF_LID, SM_LID, trusted ? "1 (OpenSM default)" :
	    "0");
	o = obs(trusted ? "ib.sa.pkey_table_record#7" :
	    "ib.sa.pkey_table_record#6", "ib.sa.pkey_table_record",
	    trusted ? "sa/trusted-default-key" : "sa/untrusted", req, state,
	    why, d);
	free(d);
	free(req);
	free(why);
	return o;
}

/*
 * The same as a scan with the default retries writes it: unanswered, both
 * queries were sent 3 times (ib_sa.c retries the SM_Key 1 one too).
 */
static char *
o_pktr(int trusted, const char *state, int mad_status, const char *records)
{
	return o_pktr_sent(trusted, state, mad_status, records,
	    strcmp(state, "no_response") == 0 ? 3 : 1, 0);
}

/* SMInfoRecords as ib_sa.c decodes them. */
#define SMIR_UFM	"{\"lid\":1,\"priority\":15,\"state\":3," \
			"\"guid\":\"0x0002c90300000201\"}"
#define SMIR_ZETA_M	"{\"lid\":7,\"priority\":14,\"state\":3," \
			"\"guid\":\"0x0002c90300000301\"}"
#define SMIR_ZETA_S	"{\"lid\":7,\"priority\":0,\"state\":2," \
			"\"guid\":\"0x0002c90300000301\"}"

/* ib.sa.sminfo_records, target "sa". */
static char *
o_smir(const char *state, const char *sms)
{
	char *d = xfmt("{\"sms\":[%s],\"mad_status\":0,\"sends\":1}", sms);
	char *why = sa_reason(state, 0x000c);
	char *req = xfmt("SubnAdmGetTable(SMInfoRecord) to the SA at LID %d, "
	    "SM_Key 0", SM_LID);
	char *o = obs("ib.sa.sminfo_records#8", "ib.sa.sminfo_records", "sa",
	    req, state, why, d);

	free(d);
	free(why);
	free(req);
	return o;
}

/*
 * ib.sa.path_record from the tenant port to CA `who` (fabric/ib_sa.c);
 * `records` and `pkeys` are raw JSON, NULL leaves the member out.
 */
static char *
o_pr(int who, const char *state, const char *records, const char *pkeys)
{
	const struct ca *c = &cas[who];
	char *d = NULL, *o, *id, *target, *req, *why = sa_reason(state, 0x0c);

	sbf(&d, "{\"lid\":%d,\"node_desc\":\"%s\"", c->lid, c->desc);
	if (records != NULL)
		sbf(&d, ",\"records\":%s", records);
	if (pkeys != NULL)
		sbf(&d, ",\"pkeys\":[%s]", pkeys);
	sbf(&d, ",\"port_guid\":\"" GUIDF "\",\"mad_status\":0,\"sends\":1}",
	    G(c->port));
	id = xfmt("ib.sa.path_record#%d", 20 + who);
	target = xfmt("H-" GUIDF "/1", G(c->node));
	req = xfmt("SubnAdmGetTable(PathRecord) SLID %d DLID %d to the SA at "
	    "LID %d, SM_Key 0", SELF_LID, c->lid, SM_LID);
	o = obs(id, "ib.sa.path_record", target, req, state, why, d);
	free(d);
	free(id);
	free(target);
	free(req);
	free(why);
	return o;
}

/* PathRecord answers: no path, or paths carrying these P_Keys. */
#define PR_NONE(who)		o_pr(who, "complete", "0", "")
#define PR_PATH(who, pk)	o_pr(who, "complete", "1", pk)

/*
 * A snapshot with the IB family in `ib_state` and the observations that
 * follow (malloc'd JSON texts, consumed), NULL-terminated.
 */
static char *
vsnap_text(const char *ib_state, va_list ap)
{
	char *sb = NULL, *o;
	int first = 1;

	sbf(&sb, "{\"schema\":\"fabaudit-snapshot/1\",\"tool\":{\"name\":"
	    "\"fabaudit\"},\"families\":{\"ib\":{\"state\":\"%s\","
	    "\"reason\":%s},\"eth\":{\"state\":\"not_requested\"}},"
	    "\"observations\":[", ib_state, strcmp(ib_state, "collected") == 0 ?
	    "null" : "\"test reason\"");
	while ((o = va_arg(ap, char *)) != NULL) {
		sbf(&sb, "%s%s", first ? "" : ",", o);
		first = 0;
		free(o);
	}
	sbf(&sb, "]}");
	return sb;
}

/* Load text as fabaudit check does: 0 and *s, or the reader's error. */
static int
load(char *sb, struct fa_snapshot **s, char **why)
{
	json_error_t e;
	json_t *j;
	int r;

	j = json_loads(sb, 0, &e);
	if (j == NULL)
		fail_msg("bad test JSON: %s at %d: %s", e.text, e.position, sb);
	free(sb);
	if (aggregated)
		ib_aggregate(j);
	r = fa_snapshot_from_json(j, s, why);
	json_decref(j);
	return r;
}

static struct fa_snapshot *
snap(const char *ib_state, ...)
{
	struct fa_snapshot *s = NULL;
	va_list ap;
	char *sb, *why = NULL;

	va_start(ap, ib_state);
	sb = vsnap_text(ib_state, ap);
	va_end(ap);
	if (load(sb, &s, &why) != 0)
		fail_msg("snapshot rejected: %s", why != NULL ? why : "?");
	return s;
}

static int eval_raw(const struct fa_check *c, struct fa_snapshot *s,
    const char *ptext, struct fa_results *out);

/*
 * The snapshot reader refuses it (observation data the schema does not
 * declare, core/obs_schema.h), saying `needle`: such data never reaches
 * a check.  In the grouped form the malformed value is a group's member,
 * which the reader does not look into (the schema declares top-level
 * fields): the snapshot is read, and both cross-tenant checks must then
 * give one error each.
 */
static void
refused(const char *needle, ...)
{
	const struct fa_check *xc[] = { &fa_chk_ib_xtenant_reachable,
	    &fa_chk_ib_pkey_shared };
	struct fa_snapshot *s = NULL;
	struct fa_results res;
	va_list ap;
	char *sb, *again, *why = NULL;
	size_t i;
	int r;

	va_start(ap, needle);
	sb = vsnap_text("collected", ap);
	va_end(ap);
	assert_non_null(again = strdup(sb));
	r = load(sb, &s, &why);
	if (r == 0 && aggregated) {
		for (i = 0; i < 2; i++) {
			if (i > 0) {	/* eval_raw() frees the snapshot */
				assert_int_equal(load(again, &s, &why), 0);
				again = NULL;
			}
			assert_int_equal(eval_raw(xc[i], s, POLICY, &res), 0);
			if (res.n != 1 || res.v[0].status != FA_ST_ERROR)
				fail_msg("grouped %s: %s gives %zu result(s), "
				    "the first %s (expected one error)",
				    needle, xc[i]->id, res.n, res.n > 0 ?
				    fa_status_name(res.v[0].status) : "-");
			fa_results_free(&res);
		}
		return;
	}
	free(again);
	if (r != FA_ERR_INPUT)
		fail_msg("a snapshot with %s was read", needle);
	if (why == NULL || strstr(why, needle) == NULL)
		fail_msg("refused, but not for %s: %s", needle,
		    why != NULL ? why : "?");
	free(why);
}

/* ---- running checks --------------------------------------------------- */

/* (check, status) pairs seen by run(), by registry index. */
#define MAX_CHECKS	64
static unsigned seen[MAX_CHECKS][FA_ST_MAX];

static void
record(const struct fa_results *r)
{
	size_t i, k;

	for (i = 0; i < r->n; i++)
		for (k = 0; fa_checks[k] != NULL && k < MAX_CHECKS; k++)
			if (fa_checks[k] == r->v[i].check)
				seen[k][r->v[i].status]++;
}

/* A policy from text; NULL: the empty policy. */
static struct fa_policy *
pol(const char *text)
{
	struct fa_policy *p = NULL;
	char *errs = NULL;

	if (text == NULL) {
		p = fa_policy_new_empty();
		assert_non_null(p);
		return p;
	}
	if (fa_policy_parse("t.conf", text, strlen(text), NOW, &p, &errs) != 0)
		fail_msg("policy rejected: %s", errs != NULL ? errs : "?");
	return p;
}

/*
 * Evaluate check c on snapshot s (consumed) under the policy text, without
 * asserting anything; returns eval's return code.
 */
static int
eval_raw(const struct fa_check *c, struct fa_snapshot *s, const char *ptext,
    struct fa_results *r)
{
	struct fa_policy *p = pol(ptext);
	struct fa_eval_ctx ctx;
	int rc;

	ctx.snap = s;
	ctx.policy = p;
	memset(r, 0, sizeof(*r));
	rc = c->eval(c, &ctx, r);
	fa_policy_free(p);
	fa_snapshot_free(s);
	return rc;
}

/* Evaluate; the check must succeed.  Records what it gave. */
static void
run(const struct fa_check *c, struct fa_snapshot *s, const char *ptext,
    struct fa_results *r)
{
	int rc = eval_raw(c, s, ptext, r);

	assert_int_equal(rc, 0);
	record(r);
}

/*
 * Run a check that must give exactly one result, whose reason contains
 * `needle` (if not NULL); return its status.
 */
static enum fa_status
one(const struct fa_check *c, struct fa_snapshot *s, const char *ptext,
    const char *needle)
{
	struct fa_results r;
	enum fa_status st;
	char reason[512];
	size_t n;
	int ok;

	run(c, s, ptext, &r);
	/* Free before asserting, so a failure leaks nothing under ASan. */
	n = r.n;
	st = n > 0 ? r.v[0].status : FA_ST_MAX;
	snprintf(reason, sizeof(reason), "%s", n > 0 ? r.v[0].reason : "");
	ok = n == 1 && r.v[0].check == c;
	fa_results_free(&r);
	if (!ok)
		fail_msg("%s: %zu results (expected 1)", c->id, n);
	if (needle != NULL && strstr(reason, needle) == NULL)
		fail_msg("%s: reason \"%s\" lacks \"%s\"", c->id, reason,
		    needle);
	return st;
}

/* What a check gave, for the * tests: nothing asserted, all freed. */
struct outcome {
	int		 rc;
	size_t		 n;
	enum fa_status	 st[8];
};

static struct outcome
probe(const struct fa_check *c, struct fa_snapshot *s, const char *ptext)
{
	struct fa_results r;
	struct outcome oc;
	size_t i;

	memset(&oc, 0, sizeof(oc));
	oc.rc = eval_raw(c, s, ptext, &r);
	oc.n = r.n;
	for (i = 0; i < r.n && i < 8; i++)
		oc.st[i] = r.v[i].status;
	fa_results_free(&r);
	return oc;
}

static const struct fa_result *
res_for(const struct fa_results *r, const char *target)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->v[i].target, target) == 0)
			return &r->v[i];
	fail_msg("no result for target %s", target);
	return NULL;
}

static size_t
count_status(const struct fa_results *r, enum fa_status st)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		if (r->v[i].status == st)
			n++;
	return n;
}

/* The evidence item for `field`: its value, and its observation id. */
static const json_t *
evv_obs(const struct fa_result *res, const char *field, const char **obsid)
{
	const json_t *e;
	const char *f;
	size_t i;

	json_array_foreach(res->evidence, i, e) {
		f = json_string_value(json_object_get(e, "field"));
		if (f != NULL && strcmp(f, field) == 0) {
			if (obsid != NULL)
				*obsid = json_string_value(json_object_get(e,
				    "observation"));
			return json_object_get(e, "value");
		}
	}
	fail_msg("%s: no evidence field %s", res->check->id, field);
	return NULL;
}

static const json_t *
evv(const struct fa_result *res, const char *field)
{
	return evv_obs(res, field, NULL);
}

static long long
evint(const struct fa_result *res, const char *field)
{
	const json_t *v = evv(res, field);

	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

/* How many evidence entries of res have this field. */
static size_t
evcount(const struct fa_result *res, const char *field)
{
	const json_t *e;
	const char *f;
	size_t i, n = 0;

	json_array_foreach(res->evidence, i, e) {
		f = json_string_value(json_object_get(e, "field"));
		if (f != NULL && strcmp(f, field) == 0)
			n++;
	}
	return n;
}

/*
 * The result's one "reproduce" command is cmd (NULL: it has none), and its
 * "reproduce_note" holds note (NULL: not checked).
 */
static void
assert_repro(const struct fa_result *res, const char *cmd, const char *note)
{
	if (cmd != NULL) {
		assert_int_equal(evcount(res, "reproduce"), 1);
		assert_string_equal(json_string_value(evv(res, "reproduce")),
		    cmd);
	} else
		assert_int_equal(evcount(res, "reproduce"), 0);
	if (note != NULL)
		assert_non_null(strstr(json_string_value(evv(res,
		    "reproduce_note")), note));
}

/* The command is `cmd` LID, at the LID of the first port in `field`. */
static void
assert_repro_first(const struct fa_result *res, const char *field,
    const char *cmd)
{
	char want[64];

	snprintf(want, sizeof(want), "%s %lld", cmd, (long long)
	    json_integer_value(json_object_get(json_array_get(evv(res, field),
	    0), "lid")));
	assert_repro(res, want, "for the first ");
}

static void
assert_reason(const struct fa_result *res, const char *needle)
{
	if (strstr(res->reason, needle) == NULL)
		fail_msg("%s: reason \"%s\" lacks \"%s\"", res->check->id,
		    res->reason, needle);
}

/* ---- the family gate, every check ------------------------------------- */

static void
family_gate_every_check(void **state)
{
	static const struct {
		const char	*fam;
		enum fa_status	 st;
		const char	*reason;
	} cases[] = {
		{ "not_requested", FA_ST_NOT_TESTED,
		    "ib family not in the scope of this scan" },
		{ "unavailable", FA_ST_NOT_TESTED,
		    "ib family unavailable: test reason" },
		{ "failed", FA_ST_ERROR, "ib acquisition failed: test reason" },
	};
	const struct fa_check *const *c;
	struct fa_results r;
	struct fab f = fab_careless();
	size_t i;

	(void)state;
	for (c = fa_checks; *c != NULL; c++)
		for (i = 0; (*c)->family == FA_FAM_IB &&
		    i < sizeof(cases) / sizeof(cases[0]); i++) {
			/* Whatever was observed, the family state decides. */
			run(*c, snap(cases[i].fam, o_local(), topo(&f),
			    o_sminfo(P_SM, "complete", KEY_DEFAULT(),
			    SM_MASTER, 15), o_pkeys("complete", 4, 4,
			    "\"0xffff\""), o_pktr(1, "complete", 0, "1"),
			    PR_PATH(P_FOREIGN, "\"0xffff\""), NULL), POLICY,
			    &r);
			assert_int_equal(r.n, 1);
			assert_int_equal(r.v[0].status, cases[i].st);
			assert_string_equal(r.v[0].target, "ib");
			assert_null(r.v[0].target_name);
			assert_string_equal(r.v[0].reason, cases[i].reason);
			fa_results_free(&r);
		}
}

/* ---- IB-SMP-UNRESTRICTED ---------------------------------------------- */

static void
smp_unrestricted_fail(void **state)
{
	struct fab f = fab_careless();
	struct fa_results r;
	const char *oid = NULL;

	(void)state;
	run(&fa_chk_ib_smp_unrestricted, snap("collected", o_local(), topo(&f),
	    NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, "local");
	/* 4 other CAs and 2 switches answered; our own node is not counted. */
	assert_reason(&r.v[0], "answered by 6 other nodes' SMAs");
	assert_int_equal(json_integer_value(evv_obs(&r.v[0],
	    "nodes_answering_smps", &oid)), 6);
	assert_string_equal(oid, "ib.topology");
	assert_int_equal(evint(&r.v[0], "max_hops"), 2);
	/* One hop out of the tenant port the scan used, run there. */
	assert_repro(&r.v[0], "smpquery -C mlx5_0 -P 1 -D nodeinfo 0,1",
	    "run on the tenant node");
	fa_results_free(&r);
}

static void
smp_unrestricted_pass_only_own_sma(void **state)
{
	struct fab f = fab_careless();
	struct fa_results r;

	(void)state;
	f.only_self = 1;
	run(&fa_chk_ib_smp_unrestricted, snap("collected", o_local(), topo(&f),
	    NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_PASS);
	assert_int_equal(evint(&r.v[0], "nodes_answering_smps"), 0);
	fa_results_free(&r);
	/*
	 * Our port's link is up but its peer never answered: the silence of
	 * everything past it may be loss, or a switch at M_Key level 2 that
	 * still forwards directed-route SMPs.  Not a pass; and no switch
	 * port found is not "no switch port", for enforcement either.
	 */
	f.self_dangling = 1;
	assert_int_equal(one(&fa_chk_ib_smp_unrestricted, snap("collected",
	    o_local(), topo(&f), NULL), POLICY, "H-0x0002c90300000100/1"),
	    FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_pkey_enforce_off, snap("collected",
	    o_local(), topo(&f), NULL), POLICY, "were not observed"),
	    FA_ST_NOT_TESTED);
	f.self_dangling = 0;
	assert_int_equal(one(&fa_chk_ib_pkey_enforce_off, snap("collected",
	    o_local(), topo(&f), NULL), POLICY, "no switch port"),
	    FA_ST_NOT_APPLICABLE);
}

/*
 * An SR-IOV VF without SMI: no SMP is answered, not even by our own SMA,
 * while the SA answers GMPs in the same run (the control).
 */
static void
smp_unrestricted_pass_smps_filtered(void **state)
{
	const struct fa_check *c = &fa_chk_ib_smp_unrestricted;
	struct fab bad = fab_careless();

	(void)state;
	bad.state = "error";
	assert_int_equal(one(c, snap("collected", o_local_state("no_response",
	    1), topo(&bad), o_pktr(0, "rejected", 0x0200, "0"), o_pktr(1,
	    "no_response", 0, "0"), NULL), POLICY, "SMPs are filtered at the "
	    "tenant port"), FA_ST_PASS);
	/* Without our own SMA's observation there is no control: unknown. */
	assert_int_equal(one(c, snap("collected", o_pr(P_FOREIGN, "complete",
	    "1", "\"0xffff\""), NULL), POLICY, "nothing can be concluded"),
	    FA_ST_NOT_TESTED);
}

static void
smp_unrestricted_not_tested(void **state)
{
	const struct fa_check *c = &fa_chk_ib_smp_unrestricted;
	struct fab f = fab_careless(), bad = fab_careless();
	const char *none = "our own SMA did not answer and no GMP control";

	(void)state;
	bad.state = "error";
	/* Our own SMA silent, and no answered SA request as control. */
	assert_int_equal(one(c, snap("collected", topo(&bad), NULL), POLICY,
	    none), FA_ST_NOT_TESTED);
	assert_int_equal(one(c, snap("collected", o_local_state("no_response",
	    1), o_pktr(0, "no_response", 0, "0"), o_pr(P_FOREIGN, "error",
	    "0", ""), NULL), POLICY, none), FA_ST_NOT_TESTED);
	/* The SA answered, but other SMAs did: not a filtered port. */
	assert_int_equal(one(c, snap("collected", o_local_state("no_response",
	    1), topo(&f), o_pktr(0, "rejected", 0x0200, "0"), NULL), POLICY,
	    none), FA_ST_NOT_TESTED);
	/* Control present, discovery missing or failed. */
	assert_int_equal(one(c, snap("collected", o_local(), NULL), POLICY,
	    "discovery did not complete (not run)"), FA_ST_NOT_TESTED);
	assert_int_equal(one(c, snap("collected", o_local(), topo(&bad), NULL),
	    POLICY, "(ibnd_discover_fabric failed)"), FA_ST_NOT_TESTED);
}

static void
smp_unrestricted_error(void **state)
{
	struct fab f = fab_careless();

	(void)state;
	/* Our own SMA answered but its NodeInfo lacks the node GUID. */
	assert_int_equal(one(&fa_chk_ib_smp_unrestricted, snap("collected",
	    o_local_state("complete", 0), topo(&f), NULL), POLICY,
	    "observation ib.local has no node_guid"), FA_ST_ERROR);
}

/* ---- the M_Key checks ------------------------------------------------- */

/* 5 CA ports and both switches' port 0; switch external ports not. */
#define PORTS_EXAMINED	7

static void
mkey_unset_fail(void **state)
{
	struct fab f = fab_careless(), g = fab_careful();
	struct fa_results r;
	const json_t *ports, *p;

	(void)state;
	run(&fa_chk_ib_mkey_unset, snap("collected", o_local(), topo(&f),
	    NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, "fabric");
	assert_reason(&r.v[0], "7 of 7 ports examined have M_Key 0");
	assert_int_equal(evint(&r.v[0], "count"), 7);
	assert_int_equal(json_array_size(evv(&r.v[0], "ports")), 7);
	assert_int_equal(evint(&r.v[0], "ports_examined"), PORTS_EXAMINED);
	assert_repro_first(&r.v[0], "ports", "smpquery -K portinfo");
	assert_non_null(strstr(json_string_value(evv(&r.v[0],
	    "reproduce_note")), "Mkey reads 0x0000000000000000"));
	fa_results_free(&r);

	/* One unprotected port among protected ones: it alone is listed. */
	g.mk[P_FOREIGN2] = MK_UNSET;
	run(&fa_chk_ib_mkey_unset, snap("collected", topo(&g), NULL), POLICY,
	    &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_reason(&r.v[0], "1 of 7 ports");
	ports = evv(&r.v[0], "ports");
	assert_int_equal(json_array_size(ports), 1);
	p = json_array_get(ports, 0);
	assert_string_equal(fa_json_get_str(p, "target"), T_FOREIGN2);
	assert_string_equal(fa_json_get_str(p, "port_guid"),
	    "0x0002c90300000501");
	assert_string_equal(fa_json_get_str(p, "node_desc"),
	    "zeta-gpu-02 mlx5_0");
	assert_int_equal(json_integer_value(json_object_get(p, "lid")), 8);
	assert_int_equal(json_integer_value(json_object_get(p,
	    "mkey_protect")), 0);
	/* UNSET does not quote the key itself. */
	assert_null(json_object_get(p, "mkey"));
	assert_repro(&r.v[0], "smpquery -K portinfo 8", "use their LID");
	fa_results_free(&r);

	/* A switch is guarded by its port 0's M_Key. */
	g = fab_careful();
	g.mk[P_SW2] = MK_UNSET;
	run(&fa_chk_ib_mkey_unset, snap("collected", topo(&g), NULL), POLICY,
	    &r);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(fa_json_get_str(json_array_get(evv(&r.v[0],
	    "ports"), 0), "target"), T_SW2 "/0");
	assert_repro(&r.v[0], "smpquery -K portinfo 3", NULL);
	fa_results_free(&r);
}

static void
mkey_unset_pass(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;
	int i;

	(void)state;
	/* Every port visible holds a key (read back: level 0). */
	for (i = 0; i < NPORT; i++)
		f.mk[i] = MK_READABLE;
	/*
	 * Every CA port and switch port 0 keyed; the external switch ports
	 * of the fixture read M_Key 0 at level 0, and do not count.
	 */
	run(&fa_chk_ib_mkey_unset, snap("collected", o_local(), topo(&f),
	    NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_PASS);
	assert_reason(&r.v[0], "none of the 7 ports examined");
	assert_int_equal(evint(&r.v[0], "ports_examined"), PORTS_EXAMINED);
	assert_int_equal(evint(&r.v[0], "count"), 0);
	fa_results_free(&r);
	/* Read as 0 at level 1: hidden or unset, unknown, never a pass. */
	for (i = 0; i < NPORT; i++)
		f.mk[i] = MK_HIDDEN;
	assert_int_equal(one(&fa_chk_ib_mkey_unset, snap("collected", topo(&f),
	    NULL), POLICY, "hidden or unset cannot be told"),
	    FA_ST_NOT_TESTED);
	/* --active: the wrong-key Set to the level-1 port was dropped and
	 * the control Get shows the violation it caused. */
	for (i = 0; i < NPORT; i++)
		f.mk[i] = MK_READABLE;
	f.mk[P_SW1] = MK_HIDDEN;
	assert_int_equal(one(&fa_chk_ib_mkey_unset, snap("collected", topo(&f),
	    obs("a1", "ib.active.mkey_set", T_SW1 "/0", "SubnSet",
	    "no_response", "dropped", "{\"violations_before\":3,"
	    "\"violations_after\":4}"), NULL), POLICY,
	    "none of the 7 ports"), FA_ST_PASS);
	/* Dropped, but no control (or no new violation): a lost packet. */
	assert_int_equal(one(&fa_chk_ib_mkey_unset, snap("collected", topo(&f),
	    obs("a1", "ib.active.mkey_set", T_SW1 "/0", "SubnSet",
	    "no_response", "dropped", "{\"violations_before\":3}"), NULL),
	    POLICY, "cannot be told"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_mkey_unset, snap("collected", topo(&f),
	    obs("a1", "ib.active.mkey_set", T_SW1 "/0", "SubnSet",
	    "no_response", "dropped", "{\"violations_before\":3,"
	    "\"violations_after\":3}"), NULL), POLICY, "cannot be told"),
	    FA_ST_NOT_TESTED);
	/* ... or answered (the key check let it through): M_Key 0. */
	assert_int_equal(one(&fa_chk_ib_mkey_unset, snap("collected", topo(&f),
	    obs("a1", "ib.active.mkey_set", T_SW1 "/0", "SubnSet",
	    "rejected", "answered with MAD status 0x001c", "{}"), NULL),
	    POLICY, "1 of 7"), FA_ST_FAIL);
	/* Level 2 yet answered with key 0: the key is 0, unset. */
	for (i = 0; i < NPORT; i++)
		f.mk[i] = MK_SECURE;
	assert_int_equal(one(&fa_chk_ib_mkey_unset, snap("collected", topo(&f),
	    NULL), POLICY, "7 of 7"), FA_ST_FAIL);
}

static void
mkey_readable_fail(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;
	const json_t *p, *k;

	(void)state;
	f.mk[P_SM] = MK_READABLE;
	run(&fa_chk_ib_mkey_readable, snap("collected", topo(&f), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_reason(&r.v[0], "1 of 7 ports examined returned their non-zero "
	    "M_Key");
	p = json_array_get(evv(&r.v[0], "ports"), 0);
	assert_string_equal(fa_json_get_str(p, "target"), T_SM);
	/* The key is quoted as the secret object, still redacted. */
	k = json_object_get(p, "mkey");
	assert_true(json_is_object(k));
	assert_string_equal(fa_json_get_str(k, "value"), FA_REDACTED);
	assert_true(json_is_false(json_object_get(k, "zero")));
	/* The readable port's LID, with -K so smpquery shows the key. */
	assert_repro(&r.v[0], "smpquery -K portinfo 1", "non-zero M_Key");
	fa_results_free(&r);
}

static void
mkey_readable_pass_and_na(void **state)
{
	struct fab f = fab_careful(), g = fab_careless();
	int i;

	(void)state;
	for (i = 0; i < NPORT; i++)
		f.mk[i] = MK_HIDDEN;
	assert_int_equal(one(&fa_chk_ib_mkey_readable, snap("collected",
	    topo(&f), NULL), POLICY, "none of the 7 ports examined returned"),
	    FA_ST_PASS);
	/* No port has a key at all: nothing to read back. */
	assert_int_equal(one(&fa_chk_ib_mkey_readable, snap("collected",
	    topo(&g), NULL), POLICY, "none of the 7 ports examined has an "
	    "M_Key"), FA_ST_NOT_APPLICABLE);
}

static void
mkey_protect_low_fail(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;
	const json_t *p;
	int i;

	(void)state;
	/* Hidden keys at level 1 everywhere: every port is low. */
	f.mk[P_SW1] = MK_HIDDEN;
	run(&fa_chk_ib_mkey_protect_low, snap("collected", topo(&f), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_reason(&r.v[0], "7 of 7 ports examined are below M_Key "
	    "protection level 2");
	p = NULL;
	for (i = 0; i < (int)json_array_size(evv(&r.v[0], "ports")); i++)
		if (strcmp(fa_json_get_str(json_array_get(evv(&r.v[0], "ports"),
		    (size_t)i), "target"), T_SW1 "/0") == 0)
			p = json_array_get(evv(&r.v[0], "ports"), (size_t)i);
	assert_non_null(p);
	assert_int_equal(json_integer_value(json_object_get(p,
	    "mkey_protect")), 1);
	assert_int_equal(json_integer_value(json_object_get(p, "mkey_lease")),
	    60);
	assert_repro_first(&r.v[0], "ports", "smpquery -K portinfo");
	assert_non_null(strstr(json_string_value(evv(&r.v[0],
	    "reproduce_note")), "ProtectBits reads below 2"));
	fa_results_free(&r);
	/* A readable key is below level 2 too. */
	f = fab_careful();
	f.mk[P_SELF] = MK_READABLE;
	assert_int_equal(one(&fa_chk_ib_mkey_protect_low, snap("collected",
	    topo(&f), NULL), POLICY, "7 of 7"), FA_ST_FAIL);
	for (i = 0; i < NPORT; i++)
		f.mk[i] = MK_HIDDEN;
	assert_int_equal(one(&fa_chk_ib_mkey_protect_low, snap("collected",
	    topo(&f), NULL), POLICY, "7 of 7"), FA_ST_FAIL);
}

/*
 * A visible port is never at an effective level of 2: one that answered
 * our key-0 Get at level 2 holds key 0.  So this check cannot pass on
 * what discovery sees.
 */
static void
mkey_protect_low_pass(void **state)
{
	struct fab f = fab_careful(), g = fab_careless();
	int i;

	(void)state;
	for (i = 0; i < NPORT; i++)
		f.mk[i] = MK_SECURE;
	assert_int_equal(one(&fa_chk_ib_mkey_protect_low, snap("collected",
	    topo(&f), NULL), POLICY, "7 of 7 ports examined are below"),
	    FA_ST_FAIL);
	/* No key anywhere is level 0 everywhere: low, as well as unset. */
	assert_int_equal(one(&fa_chk_ib_mkey_protect_low, snap("collected",
	    topo(&g), NULL), POLICY, "7 of 7 ports examined are below"),
	    FA_ST_FAIL);
}

static const struct fa_check *const mkey_checks[] = {
	&fa_chk_ib_mkey_unset, &fa_chk_ib_mkey_readable,
	&fa_chk_ib_mkey_protect_low,
};

static void
mkey_not_tested_without_discovery(void **state)
{
	struct fab f = fab_careless();
	size_t i;

	(void)state;
	f.state = "no_response";
	for (i = 0; i < 3; i++) {
		assert_int_equal(one(mkey_checks[i], snap("collected",
		    o_local(), NULL), POLICY, "discovery did not complete"),
		    FA_ST_NOT_TESTED);
		assert_int_equal(one(mkey_checks[i], snap("collected",
		    o_local(), topo(&f), NULL), POLICY, "no PortInfo"),
		    FA_ST_NOT_TESTED);
	}
}

static void
mkey_malformed_port_is_error(void **state)
{
	struct fab f;
	size_t i;
	int v;

	(void)state;
	for (i = 0; i < 3; i++)
		for (v = 0; v < 5; v++) {
			f = fab_careful();
			switch (v) {
			case 0:
				f.mk[P_FOREIGN].prot = 4;	/* 2 bits */
				break;
			case 1:
				f.mk[P_FOREIGN].zero = -1;	/* no mkey */
				break;
			case 2:
				f.mk[P_SW1].lease = 65536;
				break;
			case 3:	/* a node whose ports are not an array */
				f.inject = "{\"type\":\"CA\",\"desc\":\"x\","
				    "\"guid\":\"0x0000000000000009\","
				    "\"ports\":{}}";
				break;
			default: /* a port without its LID */
				f.inject = "{\"type\":\"CA\",\"desc\":\"x\","
				    "\"guid\":\"0x0000000000000009\","
				    "\"ports\":[{\"num\":1,\"guid\":"
				    "\"0x000000000000000a\"}]}";
				break;
			}
			assert_int_equal(one(mkey_checks[i], snap("collected",
			    topo(&f), NULL), POLICY, "observation ib.topology "
			    "holds a malformed port"), FA_ST_ERROR);
		}
}

/* ---- IB-SMKEY-DISCLOSED ----------------------------------------------- */

static void
smkey_disclosed_fail(void **state)
{
	struct fab f = fab_careless();
	struct fa_results r;
	const char *oid = NULL;

	(void)state;
	run(&fa_chk_ib_smkey_disclosed, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_DEFAULT(), SM_MASTER, 15), NULL),
	    POLICY, &r);
	/* With discovery complete: one result per SM, no enumeration row. */
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, T_SM);
	assert_string_equal(r.v[0].target_name, "ufm-sm01 mlx5_0");
	assert_reason(&r.v[0], "non-zero SM_Key");
	assert_string_equal(fa_json_get_str(evv_obs(&r.v[0], "sm_key", &oid),
	    "value"), FA_REDACTED);
	assert_string_equal(oid, "ib.smp.sminfo#11");
	assert_int_equal(evint(&r.v[0], "state"), SM_MASTER);
	assert_int_equal(evint(&r.v[0], "priority"), 15);
	/* At the SM's LID, the MAD dumped: the key is bytes 72-79. */
	assert_repro(&r.v[0], "sminfo -d -d 1", "MAD bytes 72-79");
	fa_results_free(&r);
}

static void
smkey_disclosed_pass(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;

	(void)state;
	/* Redacted or not, a zero key discloses nothing. */
	assert_int_equal(one(&fa_chk_ib_smkey_disclosed, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    NULL), POLICY, "SM_Key 0"), FA_ST_PASS);
	assert_int_equal(one(&fa_chk_ib_smkey_disclosed, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", key(1, "0x0000000000000000",
	    1), SM_MASTER, 15), NULL), POLICY, NULL), FA_ST_PASS);
	/* Two SMs: one result each. */
	f.foreign_is_sm = 1;
	run(&fa_chk_ib_smkey_disclosed, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_sminfo(P_FOREIGN, "complete", key(0, "0x00000000deadbeef", 0),
	    SM_STANDBY, 0), NULL), POLICY, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(res_for(&r, T_SM)->status, FA_ST_PASS);
	assert_int_equal(res_for(&r, T_FOREIGN)->status, FA_ST_FAIL);
	fa_results_free(&r);
}

/*
 * The master SM's port drops our SMInfo Get while the SA at the same LID
 * answers: M_Key level >= 2, nothing disclosed.  Without that control,
 * silence is not a verdict.
 */
static void
smkey_disclosed_silent_sm_with_sa_control(void **state)
{
	const struct fa_check *c = &fa_chk_ib_smkey_disclosed;
	struct fab f = fab_careful();
	struct fa_results r;
	const char *nt = "whether the SM_Key is disclosed is unknown";

	(void)state;
	run(c, snap("collected", o_local(), topo(&f), o_sminfo_x(P_SM,
	    "no_response", NULL, 0, 0, HIDDEN_SM), o_pktr(0, "rejected",
	    0x0200, "0"), NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_PASS);
	assert_string_equal(r.v[0].target, T_SM);
	assert_reason(&r.v[0], "while the SA at the same LID answered");
	fa_results_free(&r);
	/* MADs lost in the run: the single Get may have been one of them. */
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f),
	    o_sminfo_x(P_SM, "no_response", NULL, 0, 0, HIDDEN_SM), o_pktr(0,
	    "rejected", 0x0200, "0"), obs("ib.engine#1", "ib.engine", "local",
	    "MAD engine counters", "complete", NULL, "{\"lost_sends\":2,"
	    "\"discovery\":{\"lost_sends\":0}}"), NULL), POLICY,
	    "the silence may be loss"), FA_ST_NOT_TESTED);
	/* Discovery reached the SM port: protection cannot explain it. */
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f),
	    o_sminfo(P_SM, "no_response", NULL, 0, 0), o_pktr(0, "rejected",
	    0x0200, "0"), NULL), POLICY, nt), FA_ST_NOT_TESTED);
	/* The SA was silent too. */
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f),
	    o_sminfo(P_SM, "no_response", NULL, 0, 0), o_pktr(0,
	    "no_response", 0, "0"), o_pktr(1, "error", 0, "0"), NULL), POLICY,
	    nt), FA_ST_NOT_TESTED);
	/* No local port: the master SM's LID is unknown. */
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "no_response", NULL, 0, 0), o_pktr(0, "rejected", 0x0200, "0"),
	    NULL), POLICY, nt), FA_ST_NOT_TESTED);
	/* A silent SM at another LID than the SA's: no control. */
	f.foreign_is_sm = 1;
	run(c, snap("collected", o_local(), topo(&f), o_sminfo(P_SM,
	    "complete", KEY_ZERO(), SM_MASTER, 15), o_sminfo(P_FOREIGN,
	    "no_response", NULL, 0, 0), o_pktr(0, "rejected", 0x0200, "0"),
	    NULL), POLICY, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(res_for(&r, T_FOREIGN)->status, FA_ST_NOT_TESTED);
	fa_results_free(&r);
	/* A rejection is an answer, not a silence. */
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f),
	    o_sminfo(P_SM, "rejected", NULL, 0, 0), o_pktr(0, "rejected",
	    0x0200, "0"), NULL), POLICY, nt), FA_ST_NOT_TESTED);
}

static void
smkey_disclosed_no_topology_adds_enumeration_row(void **state)
{
	struct fa_results r;
	const struct fa_result *row;

	(void)state;
	run(&fa_chk_ib_smkey_disclosed, snap("collected", o_local(),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(res_for(&r, T_SM)->status, FA_ST_PASS);
	row = res_for(&r, "fabric");
	assert_int_equal(row->status, FA_ST_NOT_TESTED);
	assert_reason(row, "SMs other than the master named by the tenant "
	    "port's PortInfo were not looked for");
	fa_results_free(&r);
	/* A failure stays a failure, with the same extra row. */
	run(&fa_chk_ib_smkey_disclosed, snap("collected", o_sminfo(P_SM,
	    "complete", KEY_RANDOM(), SM_MASTER, 15), NULL), POLICY, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(res_for(&r, T_SM)->status, FA_ST_FAIL);
	assert_int_equal(res_for(&r, "fabric")->status, FA_ST_NOT_TESTED);
	fa_results_free(&r);
}

static void
smkey_disclosed_not_tested(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;

	(void)state;
	assert_int_equal(one(&fa_chk_ib_smkey_disclosed, snap("collected",
	    topo(&f), o_sminfo(P_SM, "no_response", NULL, 0, 0), NULL),
	    POLICY, "(no response (timed out after retries))"),
	    FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_smkey_disclosed, snap("collected",
	    topo(&f), o_sminfo(P_SM, "rejected", NULL, 0, 0), NULL),
	    POLICY, "0x000c"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_smkey_disclosed, snap("collected",
	    topo(&f), NULL), POLICY, "no subnet manager was found"),
	    FA_ST_NOT_TESTED);
	/* One SM answered, one timed out. */
	f.foreign_is_sm = 1;
	run(&fa_chk_ib_smkey_disclosed, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_sminfo(P_FOREIGN, "no_response", NULL, 0, 0), NULL), POLICY, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(res_for(&r, T_SM)->status, FA_ST_PASS);
	assert_int_equal(res_for(&r, T_FOREIGN)->status, FA_ST_NOT_TESTED);
	assert_string_equal(res_for(&r, T_FOREIGN)->target_name,
	    "zeta-gpu-01 mlx5_0");
	fa_results_free(&r);
}

static void
smkey_disclosed_error(void **state)
{
	const struct fa_check *c = &fa_chk_ib_smkey_disclosed;
	struct fab f = fab_careful();
	const char *bad = "lacks a consistent sm_key, state or priority";

	(void)state;
	/* Our own failure to ask. */
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "error", NULL, 0, 0), NULL), POLICY, "could not be sent"),
	    FA_ST_ERROR);
	/* Complete but no key, or a key object that contradicts itself. */
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", NULL, SM_MASTER, 15), NULL), POLICY, bad), FA_ST_ERROR);
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", key(1, "0x0000000000000001", 1), SM_MASTER, 15),
	    NULL), POLICY, bad), FA_ST_ERROR);
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", key(0, "0x0000000000000000", 1), SM_MASTER, 15),
	    NULL), POLICY, bad), FA_ST_ERROR);
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", key(0, "one", 1), SM_MASTER, 15), NULL), POLICY, bad),
	    FA_ST_ERROR);
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", xfmt("{\"secret\":true,\"value\":\"<redacted>\"}"),
	    SM_MASTER, 15), NULL), POLICY, bad), FA_ST_ERROR);
	/* SMState and priority are 4-bit fields. */
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", KEY_ZERO(), 16, 15), NULL), POLICY, bad), FA_ST_ERROR);
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", KEY_ZERO(), SM_MASTER, -1), NULL), POLICY, bad),
	    FA_ST_ERROR);
}

/* ---- IB-SMKEY-DEFAULT ------------------------------------------------- */

static void
smkey_default_fail(void **state)
{
	struct fab f = fab_careless();
	struct fa_results r;

	(void)state;
	run(&fa_chk_ib_smkey_default, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_DEFAULT(), SM_MASTER, 15), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, T_SM);
	assert_reason(&r.v[0], "the SM_Key is 1, OpenSM's well-known default");
	assert_true(json_is_true(json_object_get(evv(&r.v[0], "sm_key"),
	    "well_known")));
	assert_repro(&r.v[0], "sminfo -d -d 1", "SMInfo bytes 8-15");
	fa_results_free(&r);
	/* 0 from an SM whose port has no M_Key protection: really 0. */
	run(&fa_chk_ib_smkey_default, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_reason(&r.v[0], "the SM_Key is really 0");
	assert_int_equal(evint(&r.v[0], "sm_port_mkey_protect"), 0);
	fa_results_free(&r);
}

static void
smkey_default_pass(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;

	(void)state;
	run(&fa_chk_ib_smkey_default, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_RANDOM(), SM_MASTER, 15), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_PASS);
	assert_reason(&r.v[0], "neither 0 nor OpenSM's default 1");
	assert_int_equal(evint(&r.v[0], "sm_port_mkey_protect"), 1);
	fa_results_free(&r);
	/* An unredacted random key says the same. */
	assert_int_equal(one(&fa_chk_ib_smkey_default, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", key(0, "0x5eed5eed5eed5eed",
	    0), SM_MASTER, 15), NULL), POLICY, NULL), FA_ST_PASS);
}

static void
smkey_default_zero_unresolved_not_tested(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;
	const json_t *v;

	(void)state;
	/* The SM port is at M_Key level 1: the 0 may be the hidden key. */
	f.mk[P_SM] = MK_HIDDEN;
	assert_int_equal(one(&fa_chk_ib_smkey_default, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    NULL), POLICY, "hidden by the SM port's M_Key protection level 1"),
	    FA_ST_NOT_TESTED);
	/*
	 * At level 2 the port answered discovery's M_Key 0 Get, so its
	 * M_Key is 0 and hides nothing: the 0 read is the SM_Key (IBA vol.
	 * 1 14.2.4).
	 */
	f.mk[P_SM] = MK_SECURE;
	assert_int_equal(one(&fa_chk_ib_smkey_default, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    NULL), POLICY, "at M_Key protection level 2"), FA_ST_FAIL);
	/* The SM port is not in the topology (PortInfo unknown). */
	f.only_self = 1;
	run(&fa_chk_ib_smkey_default, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_NOT_TESTED);
	assert_reason(&r.v[0], "PortInfo is unknown");
	v = evv(&r.v[0], "sm_port_mkey_protect");
	assert_string_equal(json_string_value(v), "unknown");
	fa_results_free(&r);
	/* No topology at all: the same, plus the enumeration row. */
	run(&fa_chk_ib_smkey_default, snap("collected", o_sminfo(P_SM,
	    "complete", KEY_ZERO(), SM_MASTER, 15), NULL), POLICY, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(res_for(&r, T_SM)->status, FA_ST_NOT_TESTED);
	assert_reason(res_for(&r, T_SM), "hidden or unset cannot be told "
	    "apart");
	assert_int_equal(res_for(&r, "fabric")->status, FA_ST_NOT_TESTED);
	fa_results_free(&r);
	/* A non-zero key is judged without the topology (plus the row). */
	run(&fa_chk_ib_smkey_default, snap("collected", o_sminfo(P_SM,
	    "complete", KEY_DEFAULT(), SM_MASTER, 15), NULL), POLICY, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(res_for(&r, T_SM)->status, FA_ST_FAIL);
	assert_int_equal(res_for(&r, "fabric")->status, FA_ST_NOT_TESTED);
	fa_results_free(&r);
}

static void
smkey_default_not_tested(void **state)
{
	struct fab f = fab_careful();

	(void)state;
	assert_int_equal(one(&fa_chk_ib_smkey_default, snap("collected",
	    topo(&f), o_sminfo(P_SM, "no_response", NULL, 0, 0), NULL),
	    POLICY, "no usable answer (no response"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_smkey_default, snap("collected",
	    topo(&f), NULL), POLICY, "no subnet manager was found"),
	    FA_ST_NOT_TESTED);
}

static void
smkey_default_error(void **state)
{
	const struct fa_check *c = &fa_chk_ib_smkey_default;
	struct fab f = fab_careful();

	(void)state;
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "error", NULL, 0, 0), NULL), POLICY, "could not be sent"),
	    FA_ST_ERROR);
	/* No well_known fact; no key; a zero fact the value denies. */
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", key(0, NULL, -1), SM_MASTER, 15), NULL), POLICY,
	    "has no decodable sm_key"), FA_ST_ERROR);
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", NULL, SM_MASTER, 15), NULL), POLICY,
	    "has no decodable sm_key"), FA_ST_ERROR);
	assert_int_equal(one(c, snap("collected", topo(&f), o_sminfo(P_SM,
	    "complete", key(1, "0x0000000000000001", 1), SM_MASTER, 15),
	    NULL), POLICY, "has no decodable sm_key"), FA_ST_ERROR);
}

/* ---- IB-SM-UNEXPECTED ------------------------------------------------- */

static void
sm_unexpected_pass(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;
	const json_t *sms, *e;

	(void)state;
	/* The listed SM, seen by SMInfo and by the SA. */
	run(&fa_chk_ib_sm_unexpected, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_smir("complete", SMIR_UFM), NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_PASS);
	assert_string_equal(r.v[0].target, "fabric");
	assert_reason(&r.v[0], "every SM found runs on a port the policy "
	    "lists, with one master");
	sms = evv(&r.v[0], "sms");
	/* SMInfo and the SA's SMInfoRecord describe one SM: counted once. */
	assert_int_equal(json_array_size(sms), 1);
	e = json_array_get(sms, 0);
	assert_string_equal(fa_json_get_str(e, "guid"), "0x0002c90300000201");
	assert_string_equal(fa_json_get_str(e, "state"), "Master");
	assert_string_equal(fa_json_get_str(e, "source"), "SubnGet(SMInfo)");
	assert_true(json_is_true(json_object_get(e, "listed_in_policy")));
	assert_true(json_is_true(json_object_get(e, "sa_record")));
	/* None offends: the command shows every SM, here the one master. */
	assert_repro(&r.v[0], "sminfo 1", "every SM when none is");
	fa_results_free(&r);
	/* A policy without sm_guid: one master passes, placement unjudged. */
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    NULL), "tenant_node acme-*\n", "the policy names no sm_guid"),
	    FA_ST_PASS);
	/* A listed standby next to the master. */
	f.foreign_is_sm = 1;
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_sminfo(P_FOREIGN, "complete", KEY_ZERO(), SM_STANDBY, 0), NULL),
	    POLICY "sm_guid 0x0002c90300000301\n", "every SM found"),
	    FA_ST_PASS);
}

static void
sm_unexpected_fail(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;
	const json_t *e;

	(void)state;
	f.foreign_is_sm = 1;
	/* An SM on a foreign tenant's node, standby: unlisted. */
	run(&fa_chk_ib_sm_unexpected, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_sminfo(P_FOREIGN, "complete", KEY_ZERO(), SM_STANDBY, 0), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_reason(&r.v[0], "1 SM in MASTER state, 1 SM report from ports "
	    "the policy does not list");
	e = json_array_get(evv(&r.v[0], "sms"), 1);
	assert_string_equal(fa_json_get_str(e, "guid"), "0x0002c90300000301");
	assert_string_equal(fa_json_get_str(e, "state"), "Standby");
	assert_int_equal(json_integer_value(json_object_get(e, "lid")), 7);
	assert_true(json_is_false(json_object_get(e, "listed_in_policy")));
	/* sminfo at the unlisted SM's LID only. */
	assert_repro(&r.v[0], "sminfo 7", "sm_guid lines");
	fa_results_free(&r);
	/* Two masters: a command for each. */
	run(&fa_chk_ib_sm_unexpected, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_sminfo(P_FOREIGN, "complete", KEY_ZERO(), SM_MASTER, 14), NULL),
	    NULL, &r);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_int_equal(evcount(&r.v[0], "reproduce"), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    r.v[0].evidence, json_array_size(r.v[0].evidence) - 3), "value")),
	    "sminfo 1");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    r.v[0].evidence, json_array_size(r.v[0].evidence) - 2), "value")),
	    "sminfo 7");
	fa_results_free(&r);
	/* Two masters, even with no sm_guid in the policy. */
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_sminfo(P_FOREIGN, "complete", KEY_ZERO(), SM_MASTER, 14), NULL),
	    NULL, "2 SMs in MASTER state, 0 SM reports"), FA_ST_FAIL);
	/* An unlisted SM only the SA knows about. */
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_smir("complete", SMIR_UFM "," SMIR_ZETA_S), NULL), POLICY,
	    "1 SM report from ports"), FA_ST_FAIL);
	/* Two masters fail even when discovery did not complete. */
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    o_smir("complete", SMIR_UFM "," SMIR_ZETA_M), NULL), NULL,
	    "2 SMs in MASTER state"), FA_ST_FAIL);
	/* A table cut short still lists the SMs it read: judged. */
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_smir("incomplete", SMIR_UFM "," SMIR_ZETA_S), NULL), POLICY,
	    "1 SM report from ports"), FA_ST_FAIL);
	/* ... and what it may not have listed keeps it from passing. */
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    topo(&f), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_smir("incomplete", SMIR_UFM), NULL), POLICY, "cut short"),
	    FA_ST_NOT_TESTED);
}

static void
sm_unexpected_not_tested(void **state)
{
	struct fab f = fab_careful();

	(void)state;
	/* No SM answered and the SA listed none (or was not answered). */
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    topo(&f), o_sminfo(P_SM, "no_response", NULL, 0, 0),
	    o_smir("no_response", SMIR_UFM), NULL), POLICY, "and the SA listed "
	    "none"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    topo(&f), NULL), POLICY, "the SA listed none"), FA_ST_NOT_TESTED);
	/* One listed master but no discovery: others were not looked for. */
	assert_int_equal(one(&fa_chk_ib_sm_unexpected, snap("collected",
	    o_local(), o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_smir("complete", SMIR_UFM), NULL), POLICY, "discovery did not "
	    "complete"), FA_ST_NOT_TESTED);
}

/* ---- IB-SAKEY-DEFAULT ------------------------------------------------- */

static void
sakey_default_fail(void **state)
{
	struct fa_results r;
	const char *oid = NULL;

	(void)state;
	run(&fa_chk_ib_sakey_default, snap("collected", o_pktr(0, "rejected",
	    0x0200, "0"), o_pktr(1, "complete", 0, "1"), NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, "sa");
	assert_reason(&r.v[0], "(records returned)");
	assert_int_equal(json_integer_value(evv_obs(&r.v[0], "records",
	    &oid)), 1);
	assert_string_equal(oid, "ib.sa.pkey_table_record#7");
	assert_non_null(strstr(json_string_value(evv(&r.v[0], "request")),
	    "SM_Key 1 (OpenSM default)"));
	assert_string_equal(json_string_value(evv(&r.v[0], "reproduce")),
	    "saquery --smkey 1 PKTR <own-lid>");
	fa_results_free(&r);
	/* NO_RECORDS: the SA looked the records up for a trusted requester. */
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(0, "rejected", 0x0200, "0"), o_pktr(1, "rejected", 0x0300,
	    "0"), NULL), POLICY, "answered with MAD status 0x0300"),
	    FA_ST_FAIL);
}

static void
sakey_default_pass(void **state)
{
	(void)state;
	/* Refused outright: REQ_INVALID or DENIED. */
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(0, "rejected", 0x0200, "0"), o_pktr(1, "rejected", 0x0200,
	    "0"), NULL), POLICY, "refused the request carrying SM_Key 1"),
	    FA_ST_PASS);
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(1, "rejected", 0x0700, "0"), NULL), POLICY,
	    "0x0700"), FA_ST_PASS);
	/* Dropped (OpenSM, wrong key) while the control was answered. */
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(0, "rejected", 0x0200, "0"), o_pktr(1, "no_response", 0,
	    "0"), NULL), POLICY, "1 is not its SA_Key"), FA_ST_PASS);
	/* An SA that gives records to the untrusted key 0 trusts it. */
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(0, "complete", 0, "1"), o_pktr(1, "no_response", 0, "0"),
	    NULL), POLICY, "SM_Key 0"), FA_ST_FAIL);
}

static void
sakey_default_not_tested(void **state)
{
	(void)state;
	/*
	 * One silent send, as older scans sent the SM_Key 1 query, may be
	 * one lost send, even with the control refused.
	 */
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(0, "rejected", 0x0200, "0"), o_pktr_sent(1, "no_response",
	    0, "0", 1, 1), NULL), POLICY, "the request was sent only once: "
	    "its silence may be loss"), FA_ST_NOT_TESTED);
	/* Silence without an answered control is not a verdict. */
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(0, "no_response", 0, "0"), o_pktr(1, "no_response", 0, "0"),
	    NULL), POLICY, "no answered control request"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(1, "no_response", 0, "0"), NULL), POLICY,
	    "(no response after 3 sends)"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(0, "error", 0, "0"), o_pktr(1, "no_response", 0, "0"),
	    NULL), POLICY, "no answered control"), FA_ST_NOT_TESTED);
	/* Not asked: no SM LID, so the SA could not be addressed. */
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(0, "not_collected", 0, NULL), NULL), POLICY,
	    "not queried with the default SA_Key: no SM LID known"),
	    FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    NULL), POLICY, "was not queried"), FA_ST_NOT_TESTED);
}

static void
sakey_default_error(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_ib_sakey_default, snap("collected",
	    o_pktr(0, "rejected", 0x0200, "0"), o_pktr(1, "error", 0, "0"),
	    NULL), POLICY, "the request could not be sent"), FA_ST_ERROR);
}

/* ---- IB-SA-DISCLOSURE ------------------------------------------------- */

static void
sa_disclosure_fail(void **state)
{
	struct fa_results r;

	(void)state;
	run(&fa_chk_ib_sa_disclosure, snap("collected", o_pktr(0, "complete",
	    0, "1"), o_pktr(1, "no_response", 0, "0"), NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, "sa");
	assert_reason(&r.v[0], "untrusted requester (SM_Key 0)");
	assert_int_equal(evint(&r.v[0], "records"), 1);
	assert_string_equal(json_string_value(evv(&r.v[0], "outcome")),
	    "answered");
	assert_string_equal(json_string_value(evv(&r.v[0], "reproduce")),
	    "saquery PKTR <own-lid>");
	fa_results_free(&r);
}

static void
sa_disclosure_pass(void **state)
{
	struct fa_results r;

	(void)state;
	/* OpenSM's answer to an untrusted PKeyTableRecord query. */
	run(&fa_chk_ib_sa_disclosure, snap("collected", o_pktr(0, "rejected",
	    0x0200, "0"), o_pktr(1, "complete", 0, "1"), NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_PASS);
	assert_reason(&r.v[0], "(answered with MAD status 0x0200)");
	assert_string_equal(json_string_value(evv(&r.v[0], "outcome")),
	    "answered with MAD status 0x0200");
	fa_results_free(&r);
	/* "Answered, but with no record": no refusal either, so unknown. */
	assert_int_equal(one(&fa_chk_ib_sa_disclosure, snap("collected",
	    o_pktr(0, "complete", 0, "0"), NULL), POLICY, "neither records"),
	    FA_ST_NOT_TESTED);
}

static void
sa_disclosure_not_tested(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_ib_sa_disclosure, snap("collected",
	    o_pktr(0, "no_response", 0, "0"), o_pktr(1, "complete", 0, "1"),
	    NULL), POLICY, "got no answer (no response after 3 sends)"),
	    FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_sa_disclosure, snap("collected",
	    o_pktr(0, "not_collected", 0, NULL), NULL), POLICY,
	    "(no SM LID known"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_sa_disclosure, snap("collected",
	    o_pktr(1, "complete", 0, "1"), NULL), POLICY, "(not sent)"),
	    FA_ST_NOT_TESTED);
}

static void
sa_disclosure_error(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_ib_sa_disclosure, snap("collected",
	    o_pktr(0, "error", 0, "0"), NULL), POLICY, "could not be sent"),
	    FA_ST_ERROR);
}

/* ---- IB-PKEY-DEFAULT-FULL --------------------------------------------- */

static enum fa_status
pkey_status(struct fa_snapshot *s, const char *needle)
{
	return one(&fa_chk_ib_pkey_default_full, s, POLICY, needle);
}

static void
pkey_full_default_fails(void **state)
{
	struct fa_results r;
	const json_t *pk;
	const char *oid = NULL;

	(void)state;
	run(&fa_chk_ib_pkey_default_full, snap("collected", o_local(),
	    o_pkeys("complete", 4, 4, "\"0x8001\",\"0xffff\""), NULL), POLICY,
	    &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, T_SELF);
	assert_string_equal(r.v[0].target_name, "acme-gpu-01 mlx5_0");
	assert_reason(&r.v[0], "full member of the default partition");
	pk = evv_obs(&r.v[0], "pkeys", &oid);
	assert_string_equal(oid, "ib.smp.pkey_table#4");
	assert_int_equal(json_array_size(pk), 2);
	assert_string_equal(json_string_value(json_array_get(pk, 1)),
	    "0xffff");
	/* LID-routed to the tenant port's LID. */
	assert_repro(&r.v[0], "smpquery pkeys 4", "0xffff is full membership");
	fa_results_free(&r);
	/* Found in a partial read: still a failure. */
	assert_int_equal(pkey_status(snap("collected", o_pkeys("incomplete", 4,
	    1, "\"0xffff\""), NULL), "0xffff"), FA_ST_FAIL);
}

static void
pkey_limited_default_passes(void **state)
{
	(void)state;
	assert_int_equal(pkey_status(snap("collected", o_pkeys("complete", 4,
	    4, "\"0x7fff\",\"0x8001\""), NULL), "no 0xffff among the 2 P_Keys "
	    "of the tenant port (4 of 4 blocks read)"), FA_ST_PASS);
	/* Not in the default partition at all. */
	assert_int_equal(pkey_status(snap("collected", o_pkeys("complete", 1,
	    1, "\"0x8001\""), NULL), "1 of 1 blocks"), FA_ST_PASS);
}

static void
pkey_default_not_tested(void **state)
{
	(void)state;
	assert_int_equal(pkey_status(snap("collected", o_pkeys("incomplete", 4,
	    1, "\"0x7fff\""), NULL), "only 1 of 4 P_Key blocks could be read"),
	    FA_ST_NOT_TESTED);
	assert_int_equal(pkey_status(snap("collected", o_pkeys("no_response", 4,
	    0, ""), NULL), "could not be read (no response"), FA_ST_NOT_TESTED);
	assert_int_equal(pkey_status(snap("collected", o_pkeys("rejected", 4,
	    0, ""), NULL), "(answered with MAD status 0x000c)"),
	    FA_ST_NOT_TESTED);
	assert_int_equal(pkey_status(snap("collected", o_pkeys("not_collected",
	    4, 0, ""), NULL), "could not be read"), FA_ST_NOT_TESTED);
	assert_int_equal(pkey_status(snap("collected", o_local(), NULL),
	    "was not read"), FA_ST_NOT_TESTED);
	/* Another role's table is not the tenant port's. */
	assert_int_equal(pkey_status(snap("collected", obs("pk9",
	    "ib.smp.pkey_table", T_SW1 "/1", "x", "complete", NULL,
	    "{\"role\":\"switch\",\"blocks_total\":1,\"blocks_read\":1,"
	    "\"pkeys\":[\"0xffff\"]}"), NULL), "was not read"),
	    FA_ST_NOT_TESTED);
}

static void
pkey_default_malformed_is_error(void **state)
{
	const char *blocks = "inconsistent block counts";

	(void)state;
	/* P_Keys that are not 16-bit, non-zero hex strings. */
	assert_int_equal(pkey_status(snap("collected", o_pkeys("complete", 4,
	    4, "\"0x7fff\",\"0x10000\""), NULL), "malformed P_Key list"),
	    FA_ST_ERROR);
	assert_int_equal(pkey_status(snap("collected", o_pkeys("complete", 4,
	    4, "\"0x7fff\",7"), NULL), "malformed P_Key list"), FA_ST_ERROR);
	assert_int_equal(pkey_status(snap("collected", o_pkeys("complete", 4,
	    4, "\"0x0000\""), NULL), "malformed P_Key list"), FA_ST_ERROR);
	/* "complete" with nothing read is not a pass. */
	assert_int_equal(pkey_status(snap("collected", o_pkeys("complete", 0,
	    0, ""), NULL), blocks), FA_ST_ERROR);
	assert_int_equal(pkey_status(snap("collected", o_pkeys("complete", 4,
	    2, "\"0x7fff\""), NULL), blocks), FA_ST_ERROR);
	assert_int_equal(pkey_status(snap("collected", o_pkeys("incomplete", 1,
	    2, "\"0x7fff\""), NULL), blocks), FA_ST_ERROR);
	assert_int_equal(pkey_status(snap("collected", o_pkeys("complete", 4,
	    -1, "\"0x7fff\""), NULL), blocks), FA_ST_ERROR);
	assert_int_equal(pkey_status(snap("collected", o_pkeys("complete", -1,
	    4, "\"0x7fff\""), NULL), blocks), FA_ST_ERROR);
	/* Our own probe failed. */
	assert_int_equal(pkey_status(snap("collected", o_pkeys("error", 0, 0,
	    ""), NULL), "could not be read"), FA_ST_ERROR);
}

/* ---- IB-XTENANT-REACHABLE and IB-PKEY-SHARED -------------------------- */

/* A PathRecord answer to CA `who`: no path when `pk` is empty. */
static char *
pr(int who, const char *pk)
{
	return *pk == '\0' ? PR_NONE(who) : PR_PATH(who, pk);
}

/*
 * The tenant port, the fabric, and PathRecords to every other CA, each
 * carrying these P_Keys ("": no path).
 */
static struct fa_snapshot *
paths(const char *sm, const char *foreign, const char *tenant2,
    const char *foreign2)
{
	struct fab f = fab_careful();

	return snap("collected", o_local(), topo(&f), pr(P_SM, sm),
	    pr(P_FOREIGN, foreign), pr(P_TENANT2, tenant2),
	    pr(P_FOREIGN2, foreign2), NULL);
}

static void
xtenant_one_result_per_foreign_port(void **state)
{
	struct fa_results r;
	const struct fa_result *x;
	const json_t *p;
	const char *oid = NULL;

	(void)state;
	/* Everyone shares the default partition with a full member. */
	run(&fa_chk_ib_xtenant_reachable, paths("\"0xffff\"", "\"0xffff\"",
	    "\"0xffff\"", "\"0xffff\""), POLICY, &r);
	/* The SM (provider) and acme-gpu-02 (tenant) are not foreign. */
	assert_int_equal(r.n, 2);
	assert_int_equal(count_status(&r, FA_ST_FAIL), 2);
	x = res_for(&r, T_FOREIGN);
	assert_string_equal(x->target_name, "zeta-gpu-01 mlx5_0");
	assert_reason(x, "share a partition");
	p = evv_obs(x, "port", &oid);
	assert_string_equal(oid, aggregated ? "ib.sa.path_table#agg" :
	    "ib.sa.path_record#22");
	assert_string_equal(fa_json_get_str(p, "target"), T_FOREIGN);
	assert_string_equal(fa_json_get_str(p, "port_guid"),
	    "0x0002c90300000301");
	assert_int_equal(json_integer_value(json_object_get(p, "lid")), 7);
	assert_string_equal(fa_json_get_str(p, "node_desc"),
	    "zeta-gpu-01 mlx5_0");
	assert_string_equal(json_string_value(evv(x, "how")),
	    "SA PathRecord returned");
	assert_string_equal(json_string_value(json_array_get(evv(x,
	    "path_pkeys"), 0)), "0xffff");
	/* SMP visibility is not reachability: the evidence says so. */
	assert_non_null(strstr(json_string_value(evv(x, "note")),
	    "SMP discovery sees every port regardless of partitions"));
	assert_non_null(strstr(json_string_value(evv(x, "reproduce")),
	    "saquery PR"));
	assert_non_null(strstr(json_string_value(evv(x, "reproduce")), " 7"));
	x = res_for(&r, T_FOREIGN2);
	assert_int_equal(x->status, FA_ST_FAIL);
	assert_non_null(strstr(json_string_value(evv(x, "reproduce")), " 8"));
	fa_results_free(&r);
	/* Only one foreign port reachable: one result. */
	run(&fa_chk_ib_xtenant_reachable, paths("\"0xffff\"", "", "\"0x8001\"",
	    "\"0x8002\""), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].target, T_FOREIGN2);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	fa_results_free(&r);
}

static void
xtenant_policy_classification(void **state)
{
	struct fa_results r;

	(void)state;
	/* Without a policy every other CA is foreign, the SM's included. */
	run(&fa_chk_ib_xtenant_reachable, paths("\"0xffff\"", "\"0xffff\"",
	    "\"0xffff\"", "\"0xffff\""), NULL, &r);
	assert_int_equal(r.n, 4);
	assert_int_equal(res_for(&r, T_SM)->status, FA_ST_FAIL);
	assert_int_equal(res_for(&r, T_TENANT2)->status, FA_ST_FAIL);
	fa_results_free(&r);
	/* tenant_node makes acme-gpu-02 ours; sm_guid alone makes the SM
	 * host the provider's; tenant_guid (a port GUID) claims zeta-gpu-02. */
	run(&fa_chk_ib_xtenant_reachable, paths("\"0xffff\"", "\"0xffff\"",
	    "\"0xffff\"", "\"0xffff\""), "tenant_node acme-*\n"
	    "sm_guid 0x0002c90300000201\ntenant_guid 0x0002c90300000501\n",
	    &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.v[0].target, T_FOREIGN);
	fa_results_free(&r);
	/* provider_node by NodeDescription glob. */
	run(&fa_chk_ib_xtenant_reachable, paths("\"0xffff\"", "\"0xffff\"",
	    "\"0xffff\"", "\"0xffff\""), "provider_node ufm-*\n", &r);
	assert_int_equal(r.n, 3);
	assert_int_equal(res_for(&r, T_TENANT2)->status, FA_ST_FAIL);
	fa_results_free(&r);
}

static void
xtenant_pass(void **state)
{
	(void)state;
	/* The SA gave paths to our own and the provider's ports only. */
	assert_int_equal(one(&fa_chk_ib_xtenant_reachable, paths("\"0x7fff\"",
	    "", "\"0x8001\"", ""), POLICY, "no path to any of the 2 foreign "
	    "ports"), FA_ST_PASS);
}

static void
xtenant_not_applicable(void **state)
{
	struct fab f = fab_careful();

	(void)state;
	/* The policy claims everyone else. */
	assert_int_equal(one(&fa_chk_ib_xtenant_reachable, paths("\"0xffff\"",
	    "\"0xffff\"", "\"0xffff\"", "\"0xffff\""), POLICY
	    "tenant_node zeta-*\n", "no foreign CA port was found"),
	    FA_ST_NOT_APPLICABLE);
	/* Paths only to a port discovery never saw. */
	assert_int_equal(one(&fa_chk_ib_xtenant_reachable, snap("collected",
	    o_local(), topo(&f), PR_PATH(P_GHOST, "\"0xffff\""), NULL), POLICY,
	    "no foreign CA port"), FA_ST_NOT_APPLICABLE);
}

/* ib.smp.pkey_table, role remote, of CA `who` (fabric/ib_pkeys_remote.c). */
static char *
o_rpkeys(int who, const char *pkeys)
{
	char *d, *o, *t;

	d = xfmt("{\"role\":\"remote\",\"lid\":%d,\"node_desc\":\"%s\","
	    "\"partition_cap\":32,\"port_guid\":\"" GUIDF "\","
	    "\"blocks_total\":1,\"blocks_read\":1,\"pkeys\":[%s]}",
	    cas[who].lid, cas[who].desc, G(cas[who].port), pkeys);
	t = xfmt("H-" GUIDF "/1", G(cas[who].node));
	o = obs("rp", "ib.smp.pkey_table", t, "SubnGet(P_KeyTable)",
	    "complete", NULL, d);
	free(d);
	free(t);
	return o;
}

/* The P_Key tables alone show a shared partition the SA did not. */
static void
xtenant_from_pkey_tables(void **state)
{
	struct fab f = fab_careful();

	(void)state;
	/* Ours 0x7fff+0x8001; theirs limited 0x0001: shared, we are full. */
	assert_int_equal(one(&fa_chk_ib_xtenant_reachable, snap("collected",
	    o_local(), topo(&f), o_pkeys("complete", 1, 1,
	    "\"0x7fff\",\"0x8001\""), PR_PATH(P_SM, "\"0x7fff\""),
	    PR_NONE(P_FOREIGN), o_rpkeys(P_FOREIGN, "\"0x7fff\",\"0x0001\""),
	    NULL), POLICY, "P_Key table shares a partition"), FA_ST_FAIL);
	assert_int_equal(one(&fa_chk_ib_pkey_shared, snap("collected",
	    o_local(), topo(&f), o_pkeys("complete", 1, 1,
	    "\"0x7fff\",\"0x8001\""), PR_PATH(P_SM, "\"0x7fff\""),
	    PR_NONE(P_FOREIGN), o_rpkeys(P_FOREIGN, "\"0x7fff\",\"0x0001\""),
	    NULL), POLICY, "shares partition 0x8001"), FA_ST_FAIL);
	/* The same table read through the SA (default SA_Key) counts too:
	 * its observation as fabric/ib_sa.c pkey_record_of() writes it. */
	{
		char *d, *o, *t;

		d = xfmt("{\"sm_key_sent\":\"1 (OpenSM default)\","
		    "\"trusted_query\":true,\"records\":1,\"role\":\"remote\","
		    "\"node_desc\":\"%s\",\"port_guid\":\"" GUIDF "\","
		    "\"blocks_total\":1,\"blocks_read\":1,\"pkeys\":["
		    "\"0x7fff\",\"0x0001\"],\"mad_status\":0,\"sends\":1}",
		    cas[P_FOREIGN].desc, G(cas[P_FOREIGN].port));
		t = xfmt("H-" GUIDF "/1", G(cas[P_FOREIGN].node));
		o = obs("rp", "ib.sa.pkey_table_record", t,
		    "SubnAdmGet(PKeyTableRecord)", "complete", NULL, d);
		free(d);
		free(t);
		assert_int_equal(one(&fa_chk_ib_xtenant_reachable, snap(
		    "collected", o_local(), topo(&f), o_pkeys("complete", 1,
		    1, "\"0x7fff\",\"0x8001\""), PR_PATH(P_SM,
		    "\"0x7fff\""), PR_NONE(P_FOREIGN), o, NULL), POLICY,
		    "P_Key table shares a partition"), FA_ST_FAIL);
	}
	/* Limited on both sides (0x7fff / 0x7fff) shares nothing. */
	assert_int_equal(one(&fa_chk_ib_xtenant_reachable, snap("collected",
	    o_local(), topo(&f), o_pkeys("complete", 1, 1,
	    "\"0x7fff\",\"0x8001\""), PR_PATH(P_SM, "\"0x7fff\""),
	    PR_NONE(P_FOREIGN), o_rpkeys(P_FOREIGN, "\"0x7fff\",\"0x8002\""),
	    NULL), POLICY, "no path"), FA_ST_PASS);
}

static void
xtenant_not_tested(void **state)
{
	const struct fa_check *c = &fa_chk_ib_xtenant_reachable;
	struct fab f = fab_careful(), bad = fab_careful();
	struct fa_results r;

	(void)state;
	/* No path to anyone, the SM included: the SA gives no paths at all. */
	assert_int_equal(one(&fa_chk_ib_xtenant_reachable, snap("collected",
	    o_local(), topo(&f), PR_NONE(P_SM), PR_NONE(P_FOREIGN),
	    NULL), POLICY, "proves nothing"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_pkey_shared, snap("collected",
	    o_local(), topo(&f), PR_NONE(P_SM), PR_NONE(P_FOREIGN),
	    NULL), POLICY, "proves nothing"), FA_ST_NOT_TESTED);
	bad.state = "error";
	assert_int_equal(one(c, snap("collected", topo(&f),
	    PR_PATH(P_FOREIGN, "\"0xffff\""), NULL), POLICY, "foreign ports "
	    "unknown"), FA_ST_NOT_TESTED);
	assert_int_equal(one(c, snap("collected", o_local(), topo(&bad),
	    PR_PATH(P_FOREIGN, "\"0xffff\""), NULL), POLICY, "foreign ports "
	    "unknown"), FA_ST_NOT_TESTED);
	assert_int_equal(one(c, snap("collected", o_local(),
	    PR_PATH(P_FOREIGN, "\"0xffff\""), NULL), POLICY, "foreign ports "
	    "unknown"), FA_ST_NOT_TESTED);
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f), NULL),
	    POLICY, "no PathRecord was asked of the SA"), FA_ST_NOT_TESTED);
	/* One foreign port without a path, the other not answered for. */
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f),
	    PR_NONE(P_FOREIGN), o_pr(P_FOREIGN2, "no_response", "0", ""),
	    NULL), POLICY, "no path to the 1 foreign ports answered for, but "
	    "1 PathRecord queries"), FA_ST_NOT_TESTED);
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f),
	    o_pr(P_FOREIGN, "rejected", "0", ""), o_pr(P_FOREIGN2, "error",
	    "0", ""), NULL), POLICY, "2 PathRecord queries got no usable "
	    "answer"), FA_ST_NOT_TESTED);
	/* A path found stands even when another query went unanswered. */
	run(c, snap("collected", o_local(), topo(&f), PR_PATH(P_FOREIGN,
	    "\"0xffff\""), o_pr(P_FOREIGN2, "no_response", "0", ""), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(res_for(&r, T_FOREIGN)->status, FA_ST_FAIL);
	fa_results_free(&r);
	/*
	 * An answer cut after its first records (no RMPP, more paths than
	 * one MAD holds) still read them: each is a path, a shared
	 * partition, whatever the rest held.  Cut before any record, it is
	 * lost like an unanswered one.
	 */
	run(c, snap("collected", o_local(), topo(&f), o_pr(P_FOREIGN,
	    "incomplete", "1", "\"0xffff\""), PR_NONE(P_FOREIGN2), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(res_for(&r, T_FOREIGN)->status, FA_ST_FAIL);
	fa_results_free(&r);
	assert_int_equal(one(&fa_chk_ib_pkey_shared, snap("collected",
	    o_local(), topo(&f), o_pr(P_FOREIGN, "incomplete", "1",
	    "\"0xffff\""), PR_NONE(P_FOREIGN2), NULL), POLICY, "0xffff"),
	    FA_ST_FAIL);
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f),
	    o_pr(P_FOREIGN, "incomplete", "0", ""), PR_NONE(P_FOREIGN2),
	    NULL), POLICY, "1 PathRecord queries got no usable answer"),
	    FA_ST_NOT_TESTED);
}

static void
xtenant_and_shared_malformed_path_is_error(void **state)
{
	struct fab f = fab_careful();

	(void)state;
	/* A port GUID that is not a string is refused by the reader. */
	refused("kind ib.sa.path_record: field port_guid is an integer",
	    o_local(), topo(&f), obs("ib.sa.path_record#30",
	    "ib.sa.path_record", T_FOREIGN, "x", "complete", NULL,
	    "{\"lid\":7,\"records\":1,\"pkeys\":[\"0xffff\"],"
	    "\"port_guid\":7}"), NULL);
}

static void
pkey_shared_one_result_per_pkey(void **state)
{
	struct fa_results r;
	const struct fa_result *x;
	const json_t *ports;

	(void)state;
	/*
	 * zeta-gpu-01 shares the default partition and 0x8001 with us,
	 * zeta-gpu-02 shares 0x8001; the SM's and acme-gpu-02's P_Keys do
	 * not count.
	 */
	run(&fa_chk_ib_pkey_shared, paths("\"0x7fff\"", "\"0xffff\","
	    "\"0x8001\"", "\"0x8001\",\"0x8005\"", "\"0x8001\""), POLICY, &r);
	assert_int_equal(r.n, 2);
	assert_int_equal(count_status(&r, FA_ST_FAIL), 2);
	x = res_for(&r, "pkey-0x8001");
	assert_null(x->target_name);
	assert_reason(x, "shares partition 0x8001 with 2 foreign port(s)");
	ports = evv(x, "foreign_ports");
	assert_int_equal(json_array_size(ports), 2);
	assert_string_equal(fa_json_get_str(json_array_get(ports, 0),
	    "target"), T_FOREIGN);
	assert_string_equal(fa_json_get_str(json_array_get(ports, 1),
	    "target"), T_FOREIGN2);
	assert_non_null(strstr(json_string_value(evv(x, "how")),
	    "full member"));
	x = res_for(&r, "pkey-0xffff");
	assert_reason(x, "with 1 foreign port(s)");
	assert_int_equal(json_array_size(evv(x, "foreign_ports")), 1);
	fa_results_free(&r);
}

static void
pkey_shared_pass_na_not_tested(void **state)
{
	const struct fa_check *c = &fa_chk_ib_pkey_shared;
	struct fab f = fab_careful();

	(void)state;
	assert_int_equal(one(c, paths("\"0x7fff\"", "", "\"0x8001\"", ""),
	    POLICY, "no partition is shared with any of the 2 foreign ports"),
	    FA_ST_PASS);
	assert_int_equal(one(c, paths("\"0x7fff\"", "", "\"0x8001\"", ""),
	    POLICY "tenant_node zeta-*\n", "no foreign CA port was found"),
	    FA_ST_NOT_APPLICABLE);
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f),
	    PR_NONE(P_FOREIGN), o_pr(P_FOREIGN2, "no_response", "0", ""),
	    NULL), POLICY, "1 of 2 PathRecord queries to foreign ports got no "
	    "usable answer"), FA_ST_NOT_TESTED);
	assert_int_equal(one(c, snap("collected", o_local(), topo(&f), NULL),
	    POLICY, "no PathRecord was asked"), FA_ST_NOT_TESTED);
	assert_int_equal(one(c, snap("collected", topo(&f), PR_NONE(P_FOREIGN),
	    NULL), POLICY, "foreign ports unknown"), FA_ST_NOT_TESTED);
	assert_int_equal(one(c, snap("collected", o_local(), PR_NONE(P_FOREIGN),
	    NULL), POLICY, "foreign ports unknown"), FA_ST_NOT_TESTED);
}

/* ---- IB-PKEY-ENFORCE-OFF ---------------------------------------------- */

static void
enforce_off_fail(void **state)
{
	struct fab f = fab_careful();
	struct fa_results r;
	const json_t *p;

	(void)state;
	f.enf_out[P_FOREIGN] = 0;
	run(&fa_chk_ib_pkey_enforce_off, snap("collected", topo(&f), NULL),
	    POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, "fabric");
	assert_reason(&r.v[0], "1 of 5 switch ports facing end nodes");
	p = json_array_get(evv(&r.v[0], "switch_ports"), 0);
	assert_string_equal(fa_json_get_str(p, "target"), T_SW1 "/3");
	assert_true(json_is_true(json_object_get(p, "inbound")));
	assert_true(json_is_false(json_object_get(p, "outbound")));
	assert_int_equal(evint(&r.v[0], "count"), 1);
	/* The listed port: leaf switch LID 2, port 3. */
	assert_repro(&r.v[0], "smpquery portinfo 2 3", "PartEnforceInb and "
	    "PartEnforceOutb");
	fa_results_free(&r);
	f = fab_careless();
	assert_int_equal(one(&fa_chk_ib_pkey_enforce_off, snap("collected",
	    topo(&f), NULL), POLICY, "5 of 5"), FA_ST_FAIL);
}

static void
enforce_off_pass_and_na(void **state)
{
	struct fab f = fab_careful();

	(void)state;
	/* The inter-switch link and the down port enforce nothing: ignored. */
	assert_int_equal(one(&fa_chk_ib_pkey_enforce_off, snap("collected",
	    topo(&f), NULL), POLICY, "all 5 switch ports facing end nodes "
	    "enforce"), FA_ST_PASS);
	f.only_self = 1;
	assert_int_equal(one(&fa_chk_ib_pkey_enforce_off, snap("collected",
	    topo(&f), NULL), POLICY, "no switch port facing an end node"),
	    FA_ST_NOT_APPLICABLE);
}

static void
enforce_off_not_tested_and_error(void **state)
{
	struct fab f = fab_careful();

	(void)state;
	assert_int_equal(one(&fa_chk_ib_pkey_enforce_off, snap("collected",
	    o_local(), NULL), POLICY, "no switch PortInfo"), FA_ST_NOT_TESTED);
	f.enf_in[P_TENANT2] = -1;
	assert_int_equal(one(&fa_chk_ib_pkey_enforce_off, snap("collected",
	    topo(&f), NULL), POLICY, "holds a malformed port"), FA_ST_ERROR);
	f = fab_careful();
	f.enf_out[P_SELF] = 2;
	assert_int_equal(one(&fa_chk_ib_pkey_enforce_off, snap("collected",
	    topo(&f), NULL), POLICY, "holds a malformed port"), FA_ST_ERROR);
}

/* ---- the whole registry over two providers ---------------------------- */

struct want {
	const char	*id;
	enum fa_status	 st;
	size_t		 n;
};

static void
evaluate_and_compare(struct fa_snapshot *s, const struct want *w, size_t nw)
{
	struct fa_policy *p = pol(POLICY);
	struct fa_eval_ctx ctx;
	struct fa_results r = { NULL, 0, 0 };
	size_t i, k, n;

	ctx.snap = s;
	ctx.policy = p;
	assert_int_equal(fa_evaluate(&ctx, &r), 0);
	record(&r);
	for (k = 0; k < nw; k++) {
		n = 0;
		for (i = 0; i < r.n; i++) {
			if (strcmp(r.v[i].check->id, w[k].id) != 0)
				continue;
			n++;
			if (r.v[i].status != w[k].st)
				fail_msg("%s %s: %s, expected %s (%s)",
				    w[k].id, r.v[i].target,
				    fa_status_name(r.v[i].status),
				    fa_status_name(w[k].st), r.v[i].reason);
		}
		if (n != w[k].n)
			fail_msg("%s: %zu results, expected %zu", w[k].id, n,
			    w[k].n);
	}
	/* Every IB result belongs to a check listed above (the host checks
	 * say their family was not scanned: test_host_checks.c). */
	for (i = 0; i < r.n; i++) {
		if (r.v[i].check->family != FA_FAM_IB) {
			assert_int_equal(r.v[i].status, FA_ST_NOT_TESTED);
			continue;
		}
		for (k = 0; k < nw; k++)
			if (strcmp(r.v[i].check->id, w[k].id) == 0)
				break;
		assert_true(k < nw);
	}
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

/* What a default OpenSM with no M_Key and ALL=full gives a tenant. */
static struct fa_snapshot *
careless_snapshot(void)
{
	struct fab f = fab_careless();

	return snap("collected", topo(&f), o_local(),
	    o_sminfo(P_SM, "complete", KEY_DEFAULT(), SM_MASTER, 15),
	    o_pkeys("complete", 4, 4, "\"0xffff\""),
	    o_pktr(0, "rejected", 0x0200, "0"), o_pktr(1, "complete", 0, "1"),
	    o_smir("complete", SMIR_UFM),
	    PR_PATH(P_SM, "\"0xffff\""), PR_PATH(P_FOREIGN, "\"0xffff\""),
	    PR_PATH(P_TENANT2, "\"0xffff\""), PR_PATH(P_FOREIGN2, "\"0xffff\""),
	    NULL);
}

/* ---- the GMP key classes (CC, VS, AM) ---------------------------------- */

/* ib.gmp.key_probe as fabric/ib_gmpkeys.c writes it. */
static char *
o_kp(const char *target, const char *cls, const char *state, int status,
    const char *extra)
{
	char *d, *o;

	d = xfmt("{\"class\":\"%s\",\"attribute\":\"x\",\"lid\":2,"
	    "\"node_desc\":\"leaf\",\"node_type\":\"Switch\","
	    "\"mad_status\":%d,\"sends\":1%s}", cls, status, extra);
	o = obs("kp", "ib.gmp.key_probe", target, "Get", state,
	    strcmp(state, "complete") == 0 ? NULL : "r", d);
	free(d);
	return o;
}

#define CCK(zero, val) \
	",\"cc_key\":{\"secret\":true,\"value\":\"" val "\",\"zero\":" \
	zero "},\"protect\":0,\"lease\":0,\"violations\":0"

static void
gmpkey_fail(void **state)
{
	(void)state;
	/* CC: key 0 returned, and a non-zero key returned (protect bit 0). */
	assert_int_equal(one(&fa_chk_ib_cckey_unset, snap("collected",
	    o_kp("S-0x1/0", "cc", "complete", 0, CCK("true", "<redacted>")),
	    o_kp("S-0x2/0", "cc", "no_response", 0, ""), NULL), POLICY,
	    "1 of 2 nodes answered"), FA_ST_FAIL);
	assert_int_equal(one(&fa_chk_ib_cckey_unset, snap("collected",
	    o_kp("S-0x1/0", "cc", "complete", 0, CCK("false",
	    "0x0000000000001234")), NULL), POLICY, "CC_Key 0"), FA_ST_FAIL);
	/* VS and AM: any answer to key 0. */
	assert_int_equal(one(&fa_chk_ib_vskey_unset, snap("collected",
	    o_kp("S-0x1/0", "vs", "complete", 0, ""), NULL), POLICY,
	    "VS_Key 0"), FA_ST_FAIL);
	assert_int_equal(one(&fa_chk_ib_amkey_unset, snap("collected",
	    o_kp("S-0x1/0", "am", "complete", 0, ""), NULL), POLICY,
	    "AM_Key 0"), FA_ST_FAIL);
}

static void
gmpkey_never_passes_on_silence(void **state)
{
	(void)state;
	/* Silent and unsupported agents: unknown, never a pass. */
	assert_int_equal(one(&fa_chk_ib_cckey_unset, snap("collected",
	    o_kp("S-0x1/0", "cc", "no_response", 0, ""),
	    o_kp("H-0x2/1", "cc", "rejected", 0x000c, ""), NULL), POLICY,
	    "(1 silent, 1 unsupported, 0 other)"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_vskey_unset, snap("collected",
	    o_kp("S-0x1/0", "cc", "complete", 0, CCK("true", "<redacted>")),
	    NULL), POLICY, "no node was probed"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_amkey_unset, snap("not_requested",
	    NULL), POLICY, NULL), FA_ST_NOT_TESTED);
	/* Another status than unsupported counts as other. */
	assert_int_equal(one(&fa_chk_ib_amkey_unset, snap("collected",
	    o_kp("S-0x1/0", "am", "rejected", 0x0100, ""), NULL), POLICY,
	    "(0 silent, 0 unsupported, 1 other)"), FA_ST_NOT_TESTED);
}

/* ib.gmp.key_probes, one per class, as fabric/ib_gmpkeys.c writes it. */
static char *
o_kps(const char *cls, const char *nodes)
{
	char *d, *o;

	d = xfmt("{\"class\":\"%s\",\"attribute\":\"x\",\"nodes\":%s}",
	    cls, nodes);
	o = obs("kps", "ib.gmp.key_probes", "fabric", "Get", "complete", NULL,
	    d);
	free(d);
	return o;
}

/* A node entry of o_kps: target, state, then more members. */
#define KPN(target, state, more) \
	"{\"target\":\"" target "\",\"lid\":2,\"node_desc\":\"leaf\"," \
	"\"node_type\":\"Switch\",\"state\":\"" state "\"" more "}"

static void
gmpkeys_nodes_judged(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_ib_cckey_unset, snap("collected",
	    o_kps("cc", "[" KPN("S-0x1/0", "complete", CCK("true",
	    "<redacted>")) "," KPN("S-0x2/0", "no_response", "") "]"), NULL),
	    POLICY, "1 of 2 nodes answered"), FA_ST_FAIL);
	assert_int_equal(one(&fa_chk_ib_vskey_unset, snap("collected",
	    o_kps("vs", "[" KPN("S-0x1/0", "complete", "") "]"), NULL),
	    POLICY, "VS_Key 0"), FA_ST_FAIL);
	/* Silent, unsupported and other nodes: unknown, never a pass. */
	assert_int_equal(one(&fa_chk_ib_amkey_unset, snap("collected",
	    o_kps("am", "[" KPN("S-0x1/0", "no_response", "") ","
	    KPN("H-0x2/1", "rejected", ",\"mad_status\":12") ","
	    KPN("H-0x3/1", "not_collected", "") "]"), NULL), POLICY,
	    "(1 silent, 1 unsupported, 1 other)"), FA_ST_NOT_TESTED);
	/* Another class's observation is not this one's. */
	assert_int_equal(one(&fa_chk_ib_amkey_unset, snap("collected",
	    o_kps("vs", "[" KPN("S-0x1/0", "complete", "") "]"), NULL),
	    POLICY, "no node was probed"), FA_ST_NOT_TESTED);
}

/* The reproduce command of a GMP key check on the node entries given. */
static void
gmpkey_repro_is(const struct fa_check *c, const char *cls,
    const char *nodes, const char *cmd, const char *note)
{
	struct fa_results r;

	run(c, snap("collected", o_kps(cls, nodes), NULL), POLICY, &r);
	assert_int_equal(r.n, 1);
	assert_repro(&r.v[0], cmd, note);
	fa_results_free(&r);
}

static void
gmpkeys_repro(void **state)
{
	(void)state;
	/* The first node that answered, at its LID (KPN: LID 2). */
	gmpkey_repro_is(&fa_chk_ib_cckey_unset, "cc", "[" KPN("S-0x1/0",
	    "complete", CCK("true", "<redacted>")) "]",
	    "ibccquery CongestionKeyInfo 2", "CC_Key reads 0x0000000000000000");
	gmpkey_repro_is(&fa_chk_ib_vskey_unset, "vs", "[" KPN("S-0x2/0",
	    "no_response", "") "," KPN("S-0x1/0", "complete", "") "]",
	    "vendstat -N 2", "for the first node listed");
	/* No tool sends class 0x0B: a note, no fake command. */
	gmpkey_repro_is(&fa_chk_ib_amkey_unset, "am", "[" KPN("S-0x1/0",
	    "complete", "") "]", NULL, "no command: no infiniband-diags tool");
	/* Nothing answered: nothing to reproduce. */
	gmpkey_repro_is(&fa_chk_ib_cckey_unset, "cc", "[" KPN("S-0x1/0",
	    "no_response", "") "]", NULL, "no command");
	/* A node entry without its LID: no command either. */
	gmpkey_repro_is(&fa_chk_ib_vskey_unset, "vs", "[{\"target\":"
	    "\"S-0x1/0\",\"state\":\"complete\"}]", NULL, "no LID recorded");
}

static void
gmpkeys_malformed_is_error(void **state)
{
	(void)state;
	/* A node list that is no list: refused by the reader. */
	refused("kind ib.gmp.key_probes: field nodes is an object",
	    o_kps("vs", "{}"), NULL);
	assert_int_equal(one(&fa_chk_ib_vskey_unset, snap("collected",
	    o_kps("vs", "[" KPN("S-0x1/0", "answered", "") "]"), NULL),
	    POLICY, "without a target or a state"), FA_ST_ERROR);
	assert_int_equal(one(&fa_chk_ib_vskey_unset, snap("collected",
	    o_kps("vs", "[{\"state\":\"complete\"}]"), NULL), POLICY,
	    "without a target or a state"), FA_ST_ERROR);
	assert_int_equal(one(&fa_chk_ib_cckey_unset, snap("collected",
	    o_kps("cc", "[" KPN("S-0x1/0", "complete", "") "]"), NULL),
	    POLICY, "no consistent cc_key"), FA_ST_ERROR);
	/* A quiet group that claims answers, or has no target list. */
	assert_int_equal(one(&fa_chk_ib_vskey_unset, snap("collected",
	    o_kps("vs", "[],\"quiet\":[{\"state\":\"complete\","
	    "\"targets\":[\"S-0x1/0\"]}]"), NULL), POLICY,
	    "with state complete"), FA_ST_ERROR);
	assert_int_equal(one(&fa_chk_ib_vskey_unset, snap("collected",
	    o_kps("vs", "[],\"quiet\":[{\"state\":\"no_response\","
	    "\"targets\":\"S-0x1/0\"}]"), NULL), POLICY,
	    "without a target or a state"), FA_ST_ERROR);
}

/* A snapshot of a scan whose --key-probes listed only `probed`. */
static struct fa_snapshot *
snap_probing(const char *probed, char *o1)
{
	struct fa_snapshot *s = snap("collected", o1, NULL);

	assert_int_equal(json_object_set_new(s->meta, "scan", json_pack(
	    "{s:{s:[s]}}", "ib_options", "key_probes", probed)), 0);
	return s;
}

static void
gmpkey_left_out(void **state)
{
	(void)state;
	/* --key-probes cc: VS left out, CC not (discovery found nothing). */
	assert_int_equal(one(&fa_chk_ib_vskey_unset, snap_probing("cc", NULL),
	    POLICY, "told not to probe for the VS_Key (--key-probes without "
	    "vs)"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_ib_cckey_unset, snap_probing("cc", NULL),
	    POLICY, "no node was probed for the CC_Key"), FA_ST_NOT_TESTED);
	/* Probes of a class said to be left out are still judged. */
	assert_int_equal(one(&fa_chk_ib_amkey_unset, snap_probing("cc",
	    o_kp("S-0x1/0", "am", "complete", 0, "")), POLICY, "AM_Key 0"),
	    FA_ST_FAIL);
}

static void
gmpkey_inconsistent_key_is_error(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_ib_cckey_unset, snap("collected",
	    o_kp("S-0x1/0", "cc", "complete", 0, CCK("true",
	    "0x0000000000001234")), NULL), POLICY, "no consistent cc_key"),
	    FA_ST_ERROR);
	assert_int_equal(one(&fa_chk_ib_cckey_unset, snap("collected",
	    o_kp("S-0x1/0", "cc", "complete", 0, ""), NULL), POLICY,
	    "no consistent cc_key"), FA_ST_ERROR);
}

static void
evaluate_careless_provider(void **state)
{
	static const struct want w[] = {
		{ "IB-SMP-UNRESTRICTED", FA_ST_FAIL, 1 },
		{ "IB-MKEY-UNSET", FA_ST_FAIL, 1 },
		{ "IB-MKEY-READABLE", FA_ST_NOT_APPLICABLE, 1 },
		{ "IB-MKEY-PROTECT-LOW", FA_ST_FAIL, 1 },
		{ "IB-SMKEY-DISCLOSED", FA_ST_FAIL, 1 },
		{ "IB-SMKEY-DEFAULT", FA_ST_FAIL, 1 },
		{ "IB-SM-UNEXPECTED", FA_ST_PASS, 1 },
		{ "IB-SAKEY-DEFAULT", FA_ST_FAIL, 1 },
		{ "IB-SA-DISCLOSURE", FA_ST_PASS, 1 },
		{ "IB-PKEY-DEFAULT-FULL", FA_ST_FAIL, 1 },
		{ "IB-PKEY-SHARED", FA_ST_FAIL, 1 },
		{ "IB-XTENANT-REACHABLE", FA_ST_FAIL, 2 },
		{ "IB-PKEY-ENFORCE-OFF", FA_ST_FAIL, 1 },
		{ "IB-CCKEY-UNSET", FA_ST_NOT_TESTED, 1 },
		{ "IB-VSKEY-UNSET", FA_ST_NOT_TESTED, 1 },
		{ "IB-AMKEY-UNSET", FA_ST_NOT_TESTED, 1 },
	};

	(void)state;
	evaluate_and_compare(careless_snapshot(), w, sizeof(w) / sizeof(w[0]));
}

/*
 * A careful provider as a tenant sees it: M_Keys hidden at level 1 (a port
 * at level 2 would not be seen at all), a random SM_Key hidden as 0,
 * a secret SA_Key (the default-key query is dropped), ALL=limited, a
 * tenant partition, enforcement on.  SMP discovery still worked (bare
 * metal), and the hidden SM_Key cannot be judged.
 */
static void
evaluate_careful_provider(void **state)
{
	static const struct want w[] = {
		{ "IB-SMP-UNRESTRICTED", FA_ST_FAIL, 1 },
		{ "IB-MKEY-UNSET", FA_ST_NOT_TESTED, 1 },
		{ "IB-MKEY-READABLE", FA_ST_PASS, 1 },
		{ "IB-MKEY-PROTECT-LOW", FA_ST_FAIL, 1 },
		{ "IB-SMKEY-DISCLOSED", FA_ST_PASS, 1 },
		{ "IB-SMKEY-DEFAULT", FA_ST_NOT_TESTED, 1 },
		{ "IB-SM-UNEXPECTED", FA_ST_PASS, 1 },
		{ "IB-SAKEY-DEFAULT", FA_ST_PASS, 1 },
		{ "IB-SA-DISCLOSURE", FA_ST_PASS, 1 },
		{ "IB-PKEY-DEFAULT-FULL", FA_ST_PASS, 1 },
		{ "IB-PKEY-SHARED", FA_ST_PASS, 1 },
		{ "IB-XTENANT-REACHABLE", FA_ST_PASS, 1 },
		{ "IB-PKEY-ENFORCE-OFF", FA_ST_PASS, 1 },
		{ "IB-CCKEY-UNSET", FA_ST_NOT_TESTED, 1 },
		{ "IB-VSKEY-UNSET", FA_ST_NOT_TESTED, 1 },
		{ "IB-AMKEY-UNSET", FA_ST_NOT_TESTED, 1 },
	};
	struct fab f = fab_careful();

	(void)state;
	evaluate_and_compare(snap("collected", topo(&f), o_local(),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_pkeys("complete", 4, 4, "\"0x7fff\",\"0x8001\""),
	    o_pktr(0, "rejected", 0x0200, "0"),
	    o_pktr(1, "no_response", 0, "0"),
	    o_smir("complete", SMIR_UFM),
	    PR_PATH(P_SM, "\"0x7fff\""), PR_NONE(P_FOREIGN),
	    PR_PATH(P_TENANT2, "\"0x8001\""), PR_NONE(P_FOREIGN2), NULL),
	    w, sizeof(w) / sizeof(w[0]));
}

static void
evaluate_applies_severity_override(void **state)
{
	struct fa_snapshot *s = careless_snapshot();
	struct fa_policy *p;
	struct fa_eval_ctx ctx;
	struct fa_results r = { NULL, 0, 0 };
	size_t i, low = 0;

	(void)state;
	p = pol(POLICY "severity IB-XTENANT-REACHABLE low\n"
	    "severity IB-MKEY-UNSET info\n");
	ctx.snap = s;
	ctx.policy = p;
	assert_int_equal(fa_evaluate(&ctx, &r), 0);
	for (i = 0; i < r.n; i++)
		if (strcmp(r.v[i].check->id, "IB-XTENANT-REACHABLE") == 0) {
			assert_int_equal(r.v[i].severity, FA_SEV_LOW);
			low++;
		} else if (strcmp(r.v[i].check->id, "IB-MKEY-UNSET") == 0)
			assert_int_equal(r.v[i].severity, FA_SEV_INFO);
		else
			assert_int_equal(r.v[i].severity,
			    r.v[i].check->severity);
	/* Every result of the check is overridden, not only the first. */
	assert_int_equal(low, 2);
	assert_int_equal(fa_chk_ib_xtenant_reachable.severity,
	    FA_SEV_CRITICAL);
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

static void
evaluate_marks_waived_failures(void **state)
{
	struct fa_snapshot *s = careless_snapshot();
	struct fa_policy *p;
	struct fa_eval_ctx ctx;
	struct fa_results r = { NULL, 0, 0 };
	size_t i, waived = 0;

	(void)state;
	p = pol(POLICY
	    "waive IB-PKEY-DEFAULT-FULL H-0x0002c90300000100/* 2099-01-31 "
	    "\"fixed in Q1\"\n"
	    "waive IB-XTENANT-REACHABLE " T_FOREIGN " 2099-02-28 "
	    "\"zeta is our sister company\"\n"
	    /* Matches a result that passes: nothing to waive. */
	    "waive IB-SM-UNEXPECTED * 2099-01-31 \"not a failure\"\n"
	    /* Matches no result. */
	    "waive IB-SMKEY-DISCLOSED H-0x9* 2099-01-31 \"other target\"\n");
	ctx.snap = s;
	ctx.policy = p;
	assert_int_equal(fa_evaluate(&ctx, &r), 0);
	for (i = 0; i < r.n; i++) {
		if (r.v[i].waiver_reason == NULL)
			continue;
		waived++;
		/* The finding stays a failure, only marked. */
		assert_int_equal(r.v[i].status, FA_ST_FAIL);
		if (strcmp(r.v[i].check->id, "IB-PKEY-DEFAULT-FULL") == 0) {
			assert_string_equal(r.v[i].target, T_SELF);
			assert_string_equal(r.v[i].waiver_reason,
			    "fixed in Q1");
			assert_string_equal(r.v[i].waiver_expires,
			    "2099-01-31");
			assert_int_equal(r.v[i].waiver_line, 4);
		} else {
			assert_string_equal(r.v[i].check->id,
			    "IB-XTENANT-REACHABLE");
			/* Only the waived foreign port, not zeta-gpu-02. */
			assert_string_equal(r.v[i].target, T_FOREIGN);
			assert_string_equal(r.v[i].waiver_expires,
			    "2099-02-28");
			assert_int_equal(r.v[i].waiver_line, 5);
		}
	}
	assert_int_equal(waived, 2);
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

static void
evaluate_unrequested_family(void **state)
{
	struct fa_policy *p = pol(NULL);
	struct fa_snapshot *s = snap("not_requested", NULL);
	struct fa_eval_ctx ctx;
	struct fa_results r = { NULL, 0, 0 };
	size_t i, n = 0;

	(void)state;
	ctx.snap = s;
	ctx.policy = p;
	assert_int_equal(fa_evaluate(&ctx, &r), 0);
	while (fa_checks[n] != NULL)
		n++;
	/* One not_tested row per check, in registry order. */
	assert_int_equal(r.n, n);
	for (i = 0; i < r.n; i++) {
		assert_ptr_equal(r.v[i].check, fa_checks[i]);
		assert_int_equal(r.v[i].status, FA_ST_NOT_TESTED);
	}
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
}

static void
registry_ids_are_published(void **state)
{
	const struct fa_check *const *c, *const *d;

	(void)state;
	for (c = fa_checks; *c != NULL; c++) {
		assert_true(fa_check_id_valid((*c)->id));
		assert_true(fa_check_id_known((*c)->id));
		assert_ptr_equal(fa_check_find((*c)->id), *c);
		/* The ID's prefix names the family. */
		assert_int_equal((*c)->family, strncmp((*c)->id, "IB-", 3) ==
		    0 ? FA_FAM_IB : strncmp((*c)->id, "HOST-", 5) == 0 ?
		    FA_FAM_HOST : FA_FAM_ETH);
		assert_true((unsigned)(*c)->severity < FA_SEV_MAX);
		assert_non_null((*c)->title);
		assert_non_null((*c)->rationale);
		assert_non_null((*c)->remediation);
		assert_non_null((*c)->msa_clause);
		assert_non_null((*c)->refs);
		assert_non_null((*c)->refs[0]);
		assert_non_null((*c)->eval);
		for (d = fa_checks; d != c; d++)
			assert_string_not_equal((*d)->id, (*c)->id);
	}
	assert_null(fa_check_find("IB-NO-SUCH-CHECK"));
}

/*
 * ---- regressions ---------------------------------------------------------
 * Each comment below describes, in the present tense of when it was found,
 * a bug a review found in a check; the test asserts the fixed behaviour.
 */

/*
 * IB-SMP-UNRESTRICTED copies the topology's max_hops into the
 * evidence without checking it; when it is absent, json_deep_copy(NULL)
 * makes the check return FA_ERR_NOMEM and fa_evaluate() abort.  Fixed by
 * showing it as null: max_hops is informative, the verdict stands.
 */
static void
smp_unrestricted_no_max_hops(void **state)
{
	struct fab f = fab_careless();
	struct outcome oc;

	(void)state;
	f.no_max_hops = 1;
	oc = probe(&fa_chk_ib_smp_unrestricted, snap("collected", o_local(),
	    topo(&f), NULL), POLICY);
	/* max_hops is informative: its absence is shown, not fatal. */
	if (oc.rc != 0 || oc.n != 1 || oc.st[0] != FA_ST_FAIL)
		fail_msg("topology without max_hops gives rc %d and %zu "
		    "results (expected one fail result)", oc.rc, oc.n);
}

/*
 * IB-SMP-UNRESTRICTED skips topology nodes whose GUID it cannot
 * read, so a malformed node is silently "not another SMA" and the check
 * can pass on it.
 */
static void
smp_unrestricted_malformed_node(void **state)
{
	struct outcome oc;

	(void)state;
	/* Our node, and a switch whose GUID is a number, not a string. */
	oc = probe(&fa_chk_ib_smp_unrestricted, snap("collected", o_local(),
	    obs("ib.topology", "ib.topology", "fabric", "x", "complete", NULL,
	    "{\"max_hops\":1,\"nodes\":[{\"type\":\"CA\",\"desc\":\"acme\","
	    "\"guid\":\"0x0002c90300000100\",\"ports\":[]},{\"type\":"
	    "\"Switch\",\"desc\":\"x\",\"guid\":7,\"ports\":[]}]}"), NULL),
	    POLICY);
	if (oc.rc != 0 || oc.n != 1 || oc.st[0] != FA_ST_ERROR)
		fail_msg("a node without a readable GUID gives %s "
		    "(expected error)", oc.n > 0 ? fa_status_name(oc.st[0]) :
		    "nothing");
}

/* The evidence items of the first result (which must be a pass). */
static size_t
pass_evidence(const struct fa_check *c, struct fa_snapshot *s)
{
	struct fa_results r;
	size_t n, nev;
	enum fa_status st;

	(void)eval_raw(c, s, POLICY, &r);
	n = r.n;
	st = n > 0 ? r.v[0].status : FA_ST_MAX;
	nev = n > 0 ? json_array_size(r.v[0].evidence) : 0;
	fa_results_free(&r);
	assert_int_equal(n, 1);
	assert_int_equal(st, FA_ST_PASS);
	return nev;
}

/*
 * the two passes that rest on a silence plus an SA control carry no
 * evidence at all (empty array): the SR-IOV pass of IB-SMP-UNRESTRICTED
 * and the silent-SM pass of IB-SMKEY-DISCLOSED.  Each should cite the SA
 * observation that answered (the control) and the one that did not.
 */
static void
silence_passes_have_no_evidence(void **state)
{
	struct fab f = fab_careful();
	size_t a, b;

	(void)state;
	a = pass_evidence(&fa_chk_ib_smp_unrestricted, snap("collected",
	    o_local_state("no_response", 1), o_pktr(0, "rejected", 0x0200,
	    "0"), NULL));
	b = pass_evidence(&fa_chk_ib_smkey_disclosed, snap("collected",
	    o_local(), topo(&f), o_sminfo_x(P_SM, "no_response", NULL, 0, 0,
	    HIDDEN_SM), o_pktr(0, "rejected", 0x0200, "0"), NULL));
	if (a == 0 || b == 0)
		fail_msg("passes with no evidence: IB-SMP-UNRESTRICTED "
		    "%zu items, IB-SMKEY-DISCLOSED %zu items", a, b);
}

/*
 * IB-MKEY-UNSET passes ("none of the 0 ports examined ...") when
 * discovery examined no port at all: a pass without evidence.  READABLE and
 * PROTECT-LOW give not_applicable there.
 */
static void
mkey_unset_nothing_examined(void **state)
{
	struct outcome oc;

	(void)state;
	oc = probe(&fa_chk_ib_mkey_unset, snap("collected", obs("ib.topology",
	    "ib.topology", "fabric", "x", "complete", NULL,
	    "{\"max_hops\":0,\"nodes\":[]}"), NULL), POLICY);
	assert_int_equal(oc.rc, 0);
	assert_int_equal(oc.n, 1);
	if (oc.st[0] == FA_ST_PASS)
		fail_msg("IB-MKEY-UNSET passes with 0 ports examined");
}

/*
 * the M_Key checks read only the "zero" fact of a port's mkey and
 * never compare it with an unredacted value (fa_ib_secret_zero(), which
 * the SM_Key checks use).  A key object saying zero:true with value
 * 0x...1234 makes IB-MKEY-READABLE pass; it must be an error.
 */
static void
mkey_zero_contradicts_value(void **state)
{
	struct fab f = fab_careful();
	struct outcome a, b;

	(void)state;
	f.mk[P_SM] = MK_READABLE;
	f.mk[P_SM].zero = 1;
	f.mk[P_SM].value = "0x0000000000001234";
	a = probe(&fa_chk_ib_mkey_readable, snap("collected", topo(&f), NULL),
	    POLICY);
	f.mk[P_SM].zero = 0;
	f.mk[P_SM].value = "0x0000000000000000";
	b = probe(&fa_chk_ib_mkey_readable, snap("collected", topo(&f), NULL),
	    POLICY);
	if (a.n != 1 || a.st[0] != FA_ST_ERROR || b.n != 1 ||
	    b.st[0] != FA_ST_ERROR)
		fail_msg("inconsistent M_Key objects give %s and %s "
		    "(expected error, error)", fa_status_name(a.st[0]),
		    fa_status_name(b.st[0]));
}

/*
 * IB-MKEY-PROTECT-LOW passes "none of the 7 ports examined is below
 * M_Key protection level 2" when 6 of them have no M_Key at all (level 0)
 * and one is at level 2.  Its MSA clause asks for level 2 on every port;
 * a port without a key is at level 0 and now counts as low.
 */
static void
mkey_protect_low_mixed_unset(void **state)
{
	struct fab f = fab_careless();
	struct outcome oc;

	(void)state;
	f.mk[P_SM] = MK_SECURE;
	oc = probe(&fa_chk_ib_mkey_protect_low, snap("collected", topo(&f),
	    NULL), POLICY);
	assert_int_equal(oc.n, 1);
	if (oc.st[0] == FA_ST_PASS)
		fail_msg("IB-MKEY-PROTECT-LOW passes while 6 of 7 "
		    "ports are at level 0");
}

/*
 * IB-SMKEY-DEFAULT checks "zero" against an unredacted value but
 * not "well_known": a key object with value 0x...01 and well_known false
 * passes as "neither 0 nor OpenSM's default 1".  Must be an error.
 */
static void
smkey_default_well_known_contradicts_value(void **state)
{
	struct fab f = fab_careful();
	struct outcome oc;

	(void)state;
	oc = probe(&fa_chk_ib_smkey_default, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", key(0, "0x0000000000000001", 0),
	    SM_MASTER, 15), NULL), POLICY);
	assert_int_equal(oc.n, 1);
	if (oc.st[0] != FA_ST_ERROR)
		fail_msg("SM_Key value 1 with well_known false gives %s "
		    "(expected error)", fa_status_name(oc.st[0]));
}

/*
 * IB-SM-UNEXPECTED ignores SMInfo observations that are not
 * complete.  zeta-gpu-01 advertises IsSM, its SMInfo timed out, and the
 * check passes "every SM found runs on a port the policy lists": an SM
 * candidate that was never judged.  Expected: not pass (not_tested).
 */
static void
sm_unexpected_ignores_unanswered_sm(void **state)
{
	struct fab f = fab_careful();
	struct outcome oc;

	(void)state;
	f.foreign_is_sm = 1;
	oc = probe(&fa_chk_ib_sm_unexpected, snap("collected", topo(&f),
	    o_sminfo(P_SM, "complete", KEY_ZERO(), SM_MASTER, 15),
	    o_sminfo(P_FOREIGN, "no_response", NULL, 0, 0),
	    o_smir("complete", SMIR_UFM), NULL), POLICY);
	assert_int_equal(oc.n, 1);
	if (oc.st[0] == FA_ST_PASS)
		fail_msg("IB-SM-UNEXPECTED passes with an unanswered, "
		    "unlisted SM candidate");
}

/*
 * IB-SAKEY-DEFAULT fails ("treated as trusted") on any rejection
 * other than 0x0200/0x0700, including 0x000C (method/attribute
 * unsupported) and 0x0004 (bad class version): the SA never processed
 * the request.  Issue 3: class unsupported is not_tested, never a verdict.
 */
static void
sakey_default_unsupported_is_not_tested(void **state)
{
	struct outcome a, b;

	(void)state;
	a = probe(&fa_chk_ib_sakey_default, snap("collected", o_pktr(0,
	    "rejected", 0x000c, "0"), o_pktr(1, "rejected", 0x000c, "0"),
	    NULL), POLICY);
	b = probe(&fa_chk_ib_sakey_default, snap("collected", o_pktr(0,
	    "rejected", 0x0200, "0"), o_pktr(1, "rejected", 0x0004, "0"),
	    NULL), POLICY);
	if (a.n != 1 || a.st[0] != FA_ST_NOT_TESTED || b.n != 1 ||
	    b.st[0] != FA_ST_NOT_TESTED)
		fail_msg("SM_Key 1 request answered 0x000c / 0x0004 "
		    "gives %s / %s (expected not_tested)",
		    fa_status_name(a.st[0]), fa_status_name(b.st[0]));
}

/*
 * IB-SA-DISCLOSURE passes ("refused") on any rejection, 0x000C
 * (method/attribute unsupported) included; per issue 3 that is
 * not_tested, never pass.
 */
static void
sa_disclosure_unsupported_is_not_tested(void **state)
{
	struct outcome oc;

	(void)state;
	oc = probe(&fa_chk_ib_sa_disclosure, snap("collected", o_pktr(0,
	    "rejected", 0x000c, "0"), NULL), POLICY);
	assert_int_equal(oc.n, 1);
	if (oc.st[0] != FA_ST_NOT_TESTED)
		fail_msg("untrusted query answered 0x000c gives %s "
		    "(expected not_tested)", fa_status_name(oc.st[0]));
}

/*
 * the SA checks read "records" with the result ignored: a complete
 * answer whose record count is not an integer counts as 0 records and
 * IB-SA-DISCLOSURE passes.  And ev_of() deep-copies a missing "records"
 * (NULL), so both SA checks return FA_ERR_NOMEM instead of a result.
 * Expected: one error result each.
 */
static void
sa_malformed_records(void **state)
{
	struct outcome b, c;

	(void)state;
	/* A count that is a string never reaches a check: refused. */
	refused("kind ib.sa.pkey_table_record: field records is a string",
	    o_pktr(0, "complete", 0, "\"2\""), NULL);
	b = probe(&fa_chk_ib_sa_disclosure, snap("collected", o_pktr(0,
	    "complete", 0, NULL), NULL), POLICY);
	c = probe(&fa_chk_ib_sakey_default, snap("collected", o_pktr(0,
	    "rejected", 0x0200, "0"), o_pktr(1, "complete", 0, NULL), NULL),
	    POLICY);
	if (b.rc != 0 || b.n != 1 || b.st[0] != FA_ST_ERROR ||
	    c.rc != 0 || c.n != 1 || c.st[0] != FA_ST_ERROR)
		fail_msg("no records member: rc %d / %d (expected one "
		    "error result each)", b.rc, c.rc);
}

/*
 * IB-XTENANT-REACHABLE and IB-PKEY-SHARED skip a PathRecord whose
 * port they cannot find, and fa_ib_find_port() stops at the first
 * malformed topology port; so one malformed node hides every later port
 * and the checks say not_applicable ("no foreign CA port was found")
 * although the SA returned a path to zeta-gpu-01.  Expected: error.
 */
static void
xtenant_malformed_topology_hides_ports(void **state)
{
	struct fab f = fab_careful();
	struct outcome a, b;

	(void)state;
	f.inject = "{\"type\":\"CA\",\"desc\":\"x\",\"guid\":"
	    "\"0x0000000000000009\",\"ports\":[{\"num\":1,\"guid\":"
	    "\"0x000000000000000a\"}]}";
	a = probe(&fa_chk_ib_xtenant_reachable, snap("collected", o_local(),
	    topo(&f), PR_PATH(P_FOREIGN, "\"0xffff\""), NULL), POLICY);
	b = probe(&fa_chk_ib_pkey_shared, snap("collected", o_local(),
	    topo(&f), PR_PATH(P_FOREIGN, "\"0xffff\""), NULL), POLICY);
	if (a.n != 1 || a.st[0] != FA_ST_ERROR || b.n != 1 ||
	    b.st[0] != FA_ST_ERROR)
		fail_msg("malformed topology gives %s / %s (expected "
		    "error, error)", fa_status_name(a.st[0]),
		    fa_status_name(b.st[0]));
}

/*
 * a complete PathRecord observation whose "records" is not an
 * integer counts as "no path" (IB-XTENANT-REACHABLE passes); one with
 * records 1 but no "pkeys" makes IB-PKEY-SHARED pass ("no partition is
 * shared") and IB-XTENANT-REACHABLE return FA_ERR_NOMEM.  Expected: error.
 */
static void
xtenant_malformed_path_data(void **state)
{
	struct fab f = fab_careful();
	struct outcome b, c;

	(void)state;
	/* A count that is a string never reaches a check: refused. */
	refused("kind ib.sa.path_record: field records is a string",
	    o_local(), topo(&f), o_pr(P_FOREIGN, "complete", "\"1\"",
	    "\"0xffff\""), NULL);
	b = probe(&fa_chk_ib_pkey_shared, snap("collected", o_local(),
	    topo(&f), o_pr(P_FOREIGN, "complete", "1", NULL), NULL), POLICY);
	c = probe(&fa_chk_ib_xtenant_reachable, snap("collected", o_local(),
	    topo(&f), o_pr(P_FOREIGN, "complete", "1", NULL), NULL), POLICY);
	if (b.n != 1 || b.st[0] != FA_ST_ERROR)
		fail_msg("IB-PKEY-SHARED without pkeys gives %s "
		    "(expected error)", b.n > 0 ? fa_status_name(b.st[0]) :
		    "no result");
	if (c.rc != 0 || c.n != 1 || c.st[0] != FA_ST_ERROR)
		fail_msg("IB-XTENANT-REACHABLE without pkeys: rc %d "
		    "(expected one error result)", c.rc);
}

/* ---- every check has tests -------------------------------------------- */

#define S(x)	(1u << FA_ST_##x)

/*
 * The checks this file tests, with every status its tests obtain (the
 * family gate gives every check not_tested and error).  An IB check added
 * to the registry without tests, or a status listed here that no test
 * obtained, fails the last test.  The host checks have the same guard in
 * test_host_checks.c.
 */
static const struct {
	const char	*id;
	unsigned	 statuses;
} tested[] = {
	{ "IB-SMP-UNRESTRICTED", S(PASS) | S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-MKEY-UNSET", S(PASS) | S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-MKEY-READABLE", S(PASS) | S(FAIL) | S(NOT_TESTED) |
	    S(NOT_APPLICABLE) | S(ERROR) },
	{ "IB-MKEY-PROTECT-LOW", S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-SMKEY-DISCLOSED", S(PASS) | S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-SMKEY-DEFAULT", S(PASS) | S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-SM-UNEXPECTED", S(PASS) | S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-SAKEY-DEFAULT", S(PASS) | S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-SA-DISCLOSURE", S(PASS) | S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-PKEY-DEFAULT-FULL", S(PASS) | S(FAIL) | S(NOT_TESTED) |
	    S(ERROR) },
	{ "IB-PKEY-SHARED", S(PASS) | S(FAIL) | S(NOT_TESTED) |
	    S(NOT_APPLICABLE) | S(ERROR) },
	{ "IB-XTENANT-REACHABLE", S(PASS) | S(FAIL) | S(NOT_TESTED) |
	    S(NOT_APPLICABLE) | S(ERROR) },
	{ "IB-PKEY-ENFORCE-OFF", S(PASS) | S(FAIL) | S(NOT_TESTED) |
	    S(NOT_APPLICABLE) | S(ERROR) },
	{ "IB-CCKEY-UNSET", S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-VSKEY-UNSET", S(FAIL) | S(NOT_TESTED) | S(ERROR) },
	{ "IB-AMKEY-UNSET", S(FAIL) | S(NOT_TESTED) | S(ERROR) },
};

#define NTESTED	(sizeof(tested) / sizeof(tested[0]))

/* Must run last: it reads what the tests before it recorded. */
static void
every_registered_check_is_tested(void **state)
{
	size_t k, t, nib = 0;
	unsigned st;

	(void)state;
	for (k = 0; fa_checks[k] != NULL; k++) {
		assert_true(k < MAX_CHECKS);
		if (fa_checks[k]->family != FA_FAM_IB)
			continue;
		nib++;
		for (t = 0; t < NTESTED; t++)
			if (strcmp(tested[t].id, fa_checks[k]->id) == 0)
				break;
		if (t == NTESTED)
			fail_msg("check %s has no tests in test_ib_checks.c",
			    fa_checks[k]->id);
		/*
		 * A check passes and fails somewhere in this file; the GMP
		 * key checks can never pass (see checks/ib_gmpkey_checks.c),
		 * and are listed here so that no other check joins them
		 * unnoticed.
		 */
		if ((tested[t].statuses & S(FAIL)) == 0 ||
		    ((tested[t].statuses & S(PASS)) == 0 &&
		    strcmp(tested[t].id, "IB-CCKEY-UNSET") != 0 &&
		    strcmp(tested[t].id, "IB-MKEY-PROTECT-LOW") != 0 &&
		    strcmp(tested[t].id, "IB-VSKEY-UNSET") != 0 &&
		    strcmp(tested[t].id, "IB-AMKEY-UNSET") != 0))
			fail_msg("%s: no pass or no fail test", tested[t].id);
		for (st = 0; st < FA_ST_MAX; st++) {
			if ((tested[t].statuses & (1u << st)) &&
			    seen[k][st] == 0)
				fail_msg("%s: no test obtained %s",
				    tested[t].id, fa_status_name(st));
			if (!(tested[t].statuses & (1u << st)) &&
			    seen[k][st] != 0)
				fail_msg("%s gave %s: list it in tested[]",
				    tested[t].id, fa_status_name(st));
		}
	}
	/* No stale entry: each names a registered check. */
	for (t = 0; t < NTESTED; t++)
		assert_non_null(fa_check_find(tested[t].id));
	assert_int_equal(NTESTED, nib);
}

/*
 * The port index finds what the linear search finds, for every port GUID of
 * the topology (CA ports, switch ports 0, and switch ports > 0 that neither
 * may return) and for a GUID that is absent.
 */
static void
port_index_agrees(void **state)
{
	struct fab f = fab_careless();
	struct fa_snapshot *s;
	const struct fa_obs *t;
	struct fa_ib_port_index ix;
	struct fa_ib_port_ref p, a, b;
	size_t ni = 0, pi = 0, found = 0;
	int ra, rb;

	(void)state;
	s = snap("collected", topo(&f), NULL);
	assert_non_null(t = fa_ib_topology(s));
	assert_int_equal(fa_ib_index_build(t, &ix), 0);
	while (fa_ib_next_port(t, &ni, &pi, &p) == 1) {
		ra = fa_ib_find_port(t, NULL, p.port_guid, &a);
		rb = fa_ib_find_port(t, &ix, p.port_guid, &b);
		assert_int_equal(ra, rb);
		if (ra == 1) {
			assert_ptr_equal(a.port, b.port);
			found++;
		}
	}
	assert_true(found >= 5);
	assert_int_equal(fa_ib_find_port(t, &ix, 0x1234, &b), 0);
	fa_ib_index_free(&ix);
	fa_snapshot_free(s);
}

/*
 * The walk over the topology is decoded once and kept with the
 * observation (checks/ib_topo.c); every later walk must give what the
 * first gave, and, with a malformed node in the middle, yield exactly the
 * ports before it (counted here from the JSON itself) and then fail, each
 * time.
 */
static void
topology_walk_repeats(void **state)
{
	static const char *bad[] = {
		"{\"type\":\"CA\",\"desc\":\"x\",\"guid\":"
		"\"0x0000000000000009\",\"ports\":{}}",
		"{\"type\":\"CA\",\"desc\":\"x\",\"guid\":"
		"\"0x0000000000000009\",\"ports\":[{\"num\":1,\"guid\":"
		"\"0x000000000000000a\",\"lid\":5},{\"num\":2,\"guid\":"
		"\"0x000000000000000b\"}]}",
	};
	struct fab f;
	struct fa_snapshot *s;
	const struct fa_obs *t;
	const json_t *nodes, *node;
	struct fa_ib_port_ref p;
	uint64_t first[64];
	size_t ni, pi, n, want, k, v, walk;
	int r;

	(void)state;
	for (v = 0; v <= 2; v++) {
		f = fab_careless();
		f.inject = v < 2 ? bad[v] : NULL;
		s = snap("collected", topo(&f), NULL);
		assert_non_null(t = fa_ib_topology(s));
		/* The ports before the malformed member, from the JSON. */
		nodes = json_object_get(t->data, "nodes");
		want = 0;
		for (k = 0; k < json_array_size(nodes); k++) {
			node = json_array_get(nodes, k);
			if (v < 2 && strcmp(json_string_value(json_object_get(
			    node, "desc")), "x") == 0) {
				want += v;	/* case 1: its good port */
				break;
			}
			want += json_array_size(json_object_get(node,
			    "ports"));
		}
		assert_true(want >= 2 && want < 64);
		for (walk = 0; walk < 3; walk++) {
			ni = pi = n = 0;
			while ((r = fa_ib_next_port(t, &ni, &pi, &p)) == 1) {
				assert_true(n < want);
				if (walk == 0)
					first[n] = p.port_guid;
				else
					assert_true(first[n] == p.port_guid);
				n++;
			}
			assert_int_equal(n, want);
			assert_int_equal(r, v < 2 ? FA_ERR_INPUT : 0);
		}
		fa_snapshot_free(s);
	}
}

/* A complete ib.topology observation of one node (its JSON text). */
static char *
one_node_topology(const char *node)
{
	return xfmt("{\"id\":\"ib.topology\",\"family\":\"ib\",\"kind\":"
	    "\"ib.topology\",\"target\":\"fabric\",\"request\":\"x\","
	    "\"state\":\"complete\",\"reason\":null,\"data\":{"
	    "\"max_hops\":1,\"smps_used\":1,\"captured\":0,"
	    "\"unexplored\":[],\"unexplored_count\":0,\"nodes\":[%s]}}",
	    node);
}

/*
 * A switch's ports 1..N hold guid and lid only where they differ from
 * port 0's (fabric/ib_discover.c): the walk gives port 0's where they are
 * left out and the port's own where written, and a switch port without a
 * LID whose port 0 has none either (its PortInfo unanswered) is
 * malformed.
 */
static void
switch_ports_take_port0(void **state)
{
	static const char *sw =
	    "{\"type\":\"Switch\",\"desc\":\"leaf\",\"guid\":"
	    "\"0x00000000000000a0\",\"num_ports\":3,\"ports\":["
	    "{\"num\":0,\"guid\":\"0x00000000000000a1\",\"lid\":9,"
	    "\"state\":4},"
	    "{\"num\":1,\"state\":4},"
	    "{\"num\":2,\"guid\":\"0x00000000000000b2\",\"lid\":11,"
	    "\"state\":4},"
	    "{\"num\":3,\"portinfo\":\"unanswered\"}]}";
	static const char *bad =
	    "{\"type\":\"Switch\",\"desc\":\"leaf\",\"guid\":"
	    "\"0x00000000000000a0\",\"num_ports\":1,\"ports\":["
	    "{\"num\":0,\"guid\":\"0x00000000000000a1\",\"portinfo\":"
	    "\"unanswered\"},{\"num\":1,\"state\":4}]}";
	static const struct { uint64_t guid; long long lid; int info; } want[] =
	    { { 0xa1, 9, 1 }, { 0xa1, 9, 1 }, { 0xb2, 11, 1 }, { 0xa1, 0, 0 } };
	struct fa_snapshot *s;
	const struct fa_obs *t;
	struct fa_ib_port_ref p;
	size_t ni = 0, pi = 0, n = 0;
	char *o;
	int r;

	(void)state;
	o = one_node_topology(sw);
	s = snap("collected", o, NULL);
	assert_non_null(t = fa_ib_topology(s));
	while ((r = fa_ib_next_port(t, &ni, &pi, &p)) == 1) {
		assert_true(n < 4);
		assert_true(p.port_guid == want[n].guid);
		assert_int_equal(p.lid, want[n].lid);
		assert_int_equal(p.info, want[n].info);
		n++;
	}
	assert_int_equal(r, 0);
	assert_int_equal(n, 4);
	fa_snapshot_free(s);
	o = one_node_topology(bad);
	s = snap("collected", o, NULL);
	assert_non_null(t = fa_ib_topology(s));
	ni = pi = n = 0;
	while ((r = fa_ib_next_port(t, &ni, &pi, &p)) == 1)
		n++;
	/* Port 0 is read; port 1 has no LID, and port 0 none to give. */
	assert_int_equal(r, FA_ERR_INPUT);
	assert_int_equal(n, 1);
	fa_snapshot_free(s);
	/* Port 0 lends its GUID only as the node's first entry. */
	s = snap("collected", one_node_topology("{\"type\":\"Switch\","
	    "\"desc\":\"leaf\",\"guid\":\"0x00000000000000a0\","
	    "\"num_ports\":1,\"ports\":[{\"num\":1,\"lid\":9,"
	    "\"state\":4},{\"num\":0,\"guid\":\"0x00000000000000a1\","
	    "\"lid\":9,\"state\":4}]}"), NULL);
	assert_non_null(t = fa_ib_topology(s));
	ni = pi = 0;
	assert_int_equal(fa_ib_next_port(t, &ni, &pi, &p), FA_ERR_INPUT);
	fa_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(family_gate_every_check),
		cmocka_unit_test(port_index_agrees),
		cmocka_unit_test(topology_walk_repeats),
		cmocka_unit_test(switch_ports_take_port0),
		cmocka_unit_test(smp_unrestricted_fail),
		cmocka_unit_test(smp_unrestricted_pass_only_own_sma),
		cmocka_unit_test(xtenant_from_pkey_tables),
		cmocka_unit_test(gmpkey_fail),
		cmocka_unit_test(gmpkey_never_passes_on_silence),
		cmocka_unit_test(gmpkey_left_out),
		cmocka_unit_test(gmpkeys_nodes_judged),
		cmocka_unit_test(gmpkeys_repro),
		cmocka_unit_test(gmpkeys_malformed_is_error),
		cmocka_unit_test(gmpkey_inconsistent_key_is_error),
		cmocka_unit_test(smp_unrestricted_pass_smps_filtered),
		cmocka_unit_test(smp_unrestricted_not_tested),
		cmocka_unit_test(smp_unrestricted_error),
		cmocka_unit_test(mkey_unset_fail),
		cmocka_unit_test(mkey_unset_pass),
		cmocka_unit_test(mkey_readable_fail),
		cmocka_unit_test(mkey_readable_pass_and_na),
		cmocka_unit_test(mkey_protect_low_fail),
		cmocka_unit_test(mkey_protect_low_pass),
		cmocka_unit_test(mkey_not_tested_without_discovery),
		cmocka_unit_test(mkey_malformed_port_is_error),
		cmocka_unit_test(smkey_disclosed_fail),
		cmocka_unit_test(smkey_disclosed_pass),
		cmocka_unit_test(smkey_disclosed_silent_sm_with_sa_control),
		cmocka_unit_test(
		    smkey_disclosed_no_topology_adds_enumeration_row),
		cmocka_unit_test(smkey_disclosed_not_tested),
		cmocka_unit_test(smkey_disclosed_error),
		cmocka_unit_test(smkey_default_fail),
		cmocka_unit_test(smkey_default_pass),
		cmocka_unit_test(smkey_default_zero_unresolved_not_tested),
		cmocka_unit_test(smkey_default_not_tested),
		cmocka_unit_test(smkey_default_error),
		cmocka_unit_test(sm_unexpected_pass),
		cmocka_unit_test(sm_unexpected_fail),
		cmocka_unit_test(sm_unexpected_not_tested),
		cmocka_unit_test(sakey_default_fail),
		cmocka_unit_test(sakey_default_pass),
		cmocka_unit_test(sakey_default_not_tested),
		cmocka_unit_test(sakey_default_error),
		cmocka_unit_test(sa_disclosure_fail),
		cmocka_unit_test(sa_disclosure_pass),
		cmocka_unit_test(sa_disclosure_not_tested),
		cmocka_unit_test(sa_disclosure_error),
		cmocka_unit_test(pkey_full_default_fails),
		cmocka_unit_test(pkey_limited_default_passes),
		cmocka_unit_test(pkey_default_not_tested),
		cmocka_unit_test(pkey_default_malformed_is_error),
		cmocka_unit_test(xtenant_one_result_per_foreign_port),
		cmocka_unit_test(xtenant_policy_classification),
		cmocka_unit_test(xtenant_pass),
		cmocka_unit_test(xtenant_not_applicable),
		cmocka_unit_test(xtenant_not_tested),
		cmocka_unit_test(xtenant_and_shared_malformed_path_is_error),
		cmocka_unit_test(pkey_shared_one_result_per_pkey),
		cmocka_unit_test(pkey_shared_pass_na_not_tested),
		cmocka_unit_test(enforce_off_fail),
		cmocka_unit_test(enforce_off_pass_and_na),
		cmocka_unit_test(enforce_off_not_tested_and_error),
		cmocka_unit_test(evaluate_careless_provider),
		cmocka_unit_test(evaluate_careful_provider),
		cmocka_unit_test(evaluate_applies_severity_override),
		cmocka_unit_test(evaluate_marks_waived_failures),
		cmocka_unit_test(evaluate_unrequested_family),
		cmocka_unit_test(registry_ids_are_published),
		cmocka_unit_test(smp_unrestricted_no_max_hops),
		cmocka_unit_test(smp_unrestricted_malformed_node),
		cmocka_unit_test(silence_passes_have_no_evidence),
		cmocka_unit_test(mkey_unset_nothing_examined),
		cmocka_unit_test(mkey_zero_contradicts_value),
		cmocka_unit_test(mkey_protect_low_mixed_unset),
		cmocka_unit_test(
		    smkey_default_well_known_contradicts_value),
		cmocka_unit_test(sm_unexpected_ignores_unanswered_sm),
		cmocka_unit_test(sakey_default_unsupported_is_not_tested),
		cmocka_unit_test(sa_disclosure_unsupported_is_not_tested),
		cmocka_unit_test(sa_malformed_records),
		cmocka_unit_test(xtenant_malformed_topology_hides_ports),
		cmocka_unit_test(xtenant_malformed_path_data),
		cmocka_unit_test(every_registered_check_is_tested),
	};

	return IB_RUN_BOTH_FORMS(tests);
}
