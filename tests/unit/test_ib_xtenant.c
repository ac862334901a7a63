/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for IB-XTENANT-REACHABLE and IB-PKEY-SHARED
 * (checks/ib_xtenant_checks.c) on fabrics shaped like rented clusters:
 * hundreds of foreign ports in one partition, a node whose
 * NodeDescription Get went unanswered, PathRecords whose P_Key names no
 * partition, and the policy's tenant_pkey.
 *
 * The snapshots are written the way fabric/ib_*.c writes them: the
 * topology (ib_discover.c; a NodeDescription left unanswered is the
 * zeroed libibnetdisc buffer, "desc": ""), the local port (ib_local.c),
 * the PathRecords per CA port (ib_sa.c: records, pkeys "0x%04x") and the
 * P_Key tables (ib_pkeys.c, ib_pkeys_remote.c: zero entries left out).
 *
 * The expected verdicts come from the IBA and infiniband-diags, not from
 * fabaudit's output: two ports share a partition when the base (low 15
 * bits) is in both tables, non-zero, with a full member on at least one
 * side (IBA vol. 1 10.9.1, 10.9.3); OpenSM returns a PathRecord only
 * between ports sharing one; saquery(8) takes a PathRecord's ends as
 * --slid and --dlid (positional LIDs are not a PathRecord query).
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
#include "ib_aggregate.h"

#define NOW	((time_t)1796205600)	/* 2026-12-02T10:00:00Z */
#define GUIDF	"0x%016llx"
#define G(x)	((unsigned long long)(x))

#define SELF_LID	4
#define SM_LID		1
#define SW_GUID		0x7cfe900300000a00ULL

#define POLICY \
	"tenant_node acme-*\n" \
	"provider_node ufm-* storage-*\n" \
	"sm_guid 0x0002c90300000201\n"

/*
 * One CA of the fabric: its NodeDescription ("" when the Get went
 * unanswered), GUIDs and LID, its PathRecord answer (pr NULL: none asked;
 * "": no path; else the pkeys JSON members) and its P_Key table read by
 * SMP (NULL: not read).
 */
struct ca {
	const char	*desc;
	uint64_t	 node, port;
	int		 lid;
	const char	*pr;
	const char	*table;
};

#define MAXCA	1024
struct fabric {
	struct ca	 ca[MAXCA];	/* ca[0] is the tenant's scanning port */
	size_t		 n;
	const char	*local_table;	/* the tenant port's P_Key table */
	char		 descbuf[MAXCA][32];
};

static void
fab_init(struct fabric *f)
{
	memset(f, 0, sizeof(*f));
	f->ca[0] = (struct ca){ "acme-gpu-01 mlx5_0", 0x0002c90300000100ULL,
	    0x0002c90300000101ULL, SELF_LID, NULL, NULL };
	/* The SM host, with a path: the SA hands out paths at all. */
	f->ca[1] = (struct ca){ "ufm-sm01 mlx5_0", 0x0002c90300000200ULL,
	    0x0002c90300000201ULL, SM_LID, "\"0xffff\"", NULL };
	f->n = 2;
}

/* Add a CA; returns its index. */
static size_t
fab_add(struct fabric *f, const char *desc, unsigned id, const char *pr,
    const char *table)
{
	size_t i = f->n++;

	assert_true(i < MAXCA);
	f->ca[i].desc = desc;
	f->ca[i].node = 0x0002c90300100000ULL + ((uint64_t)id << 8);
	f->ca[i].port = f->ca[i].node + 1;
	f->ca[i].lid = (int)(10 + id);
	f->ca[i].pr = pr;
	f->ca[i].table = table;
	return i;
}

/* n foreign CAs "zeta-NNNN mlx5_0" from id `first`. */
static void
fab_foreign(struct fabric *f, unsigned first, size_t n, const char *pr,
    const char *table)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		k = f->n;
		snprintf(f->descbuf[k], sizeof(f->descbuf[k]),
		    "zeta-%04u mlx5_0", first + (unsigned)i);
		fab_add(f, f->descbuf[k], first + (unsigned)i, pr, table);
	}
}

static struct fa_snapshot *
build(const struct fabric *f)
{
	struct fa_snapshot *s = NULL;
	json_error_t e;
	json_t *j;
	char *buf = NULL, *why = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	fprintf(m, "{\"schema\":\"fabaudit-snapshot/1\",\"tool\":{\"name\":"
	    "\"fabaudit\"},\"families\":{\"ib\":{\"state\":\"collected\","
	    "\"reason\":null},\"eth\":{\"state\":\"not_requested\"}},"
	    "\"observations\":[");
	/* ib.local (fabric/ib_local.c). */
	fprintf(m, "{\"id\":\"ib.local\",\"family\":\"ib\",\"kind\":"
	    "\"ib.local_port\",\"target\":\"H-" GUIDF "/1\",\"request\":"
	    "\"umad port attributes\",\"state\":\"complete\",\"reason\":null,"
	    "\"data\":{\"ca\":\"mlx5_0\",\"port\":1,\"lid\":%d,\"sm_lid\":%d,"
	    "\"node_desc\":\"%s\",\"node_type\":\"CA\",\"partition_cap\":128,"
	    "\"port_guid\":\"" GUIDF "\",\"node_guid\":\"" GUIDF "\"}}",
	    G(f->ca[0].node), SELF_LID, SM_LID, f->ca[0].desc,
	    G(f->ca[0].port), G(f->ca[0].node));
	/* ib.topology: every CA on one switch. */
	fprintf(m, ",{\"id\":\"ib.topology\",\"family\":\"ib\",\"kind\":"
	    "\"ib.topology\",\"target\":\"fabric\",\"request\":\"libibnetdisc "
	    "discovery\",\"state\":\"complete\",\"reason\":null,\"data\":{"
	    "\"max_hops\":1,\"nodes\":[");
	for (i = 0; i < f->n; i++)
		fprintf(m, "{\"type\":\"CA\",\"desc\":\"%s\",\"guid\":\"" GUIDF
		    "\",\"num_ports\":1,\"partition_cap\":128,\"ports\":[{"
		    "\"num\":1,\"lid\":%d,\"state\":4,\"guid\":\"" GUIDF "\","
		    "\"remote_node_guid\":\"" GUIDF "\",\"remote_port\":%zu,"
		    "\"remote_type\":\"Switch\"}]},", f->ca[i].desc,
		    G(f->ca[i].node), f->ca[i].lid, G(f->ca[i].port),
		    G(SW_GUID), i + 1);
	fprintf(m, "{\"type\":\"Switch\",\"desc\":\"MF0;leaf01:MQM8700/U1\","
	    "\"guid\":\"" GUIDF "\",\"num_ports\":%zu,\"partition_cap\":8,"
	    "\"ports\":[{\"num\":0,\"lid\":2,\"state\":4,\"guid\":\"" GUIDF
	    "\"}]}]}}", G(SW_GUID), f->n, G(SW_GUID));
	if (f->local_table != NULL)
		fprintf(m, ",{\"id\":\"ib.smp.pkey_table#local\",\"family\":"
		    "\"ib\",\"kind\":\"ib.smp.pkey_table\",\"target\":\"H-"
		    GUIDF "/1\",\"request\":\"SubnGet(P_KeyTable)\",\"state\":"
		    "\"complete\",\"reason\":null,\"data\":{\"role\":\"local\","
		    "\"lid\":%d,\"port_guid\":\"" GUIDF "\",\"blocks_total\":1,"
		    "\"blocks_read\":1,\"pkeys\":[%s]}}", G(f->ca[0].node),
		    SELF_LID, G(f->ca[0].port), f->local_table);
	for (i = 1; i < f->n; i++) {
		const struct ca *c = &f->ca[i];

		if (c->pr != NULL)
			fprintf(m, ",{\"id\":\"ib.sa.path_record#%zu\","
			    "\"family\":\"ib\",\"kind\":\"ib.sa.path_record\","
			    "\"target\":\"H-" GUIDF "/1\",\"request\":"
			    "\"SubnAdmGetTable(PathRecord) SLID %d\",\"state\":"
			    "\"complete\",\"reason\":null,\"data\":{\"lid\":%d,"
			    "\"node_desc\":\"%s\",\"records\":%d,\"pkeys\":[%s],"
			    "\"port_guid\":\"" GUIDF "\"}}", i, G(c->node),
			    SELF_LID, c->lid, c->desc, *c->pr != '\0',
			    c->pr, G(c->port));
		if (c->table != NULL)
			fprintf(m, ",{\"id\":\"ib.smp.pkey_table#%zu\","
			    "\"family\":\"ib\",\"kind\":\"ib.smp.pkey_table\","
			    "\"target\":\"H-" GUIDF "/1\",\"request\":"
			    "\"SubnGet(P_KeyTable)\",\"state\":\"complete\","
			    "\"reason\":null,\"data\":{\"role\":\"remote\","
			    "\"lid\":%d,\"node_desc\":\"%s\",\"port_guid\":\""
			    GUIDF "\",\"blocks_total\":1,\"blocks_read\":1,"
			    "\"pkeys\":[%s]}}", i, G(c->node), c->lid, c->desc,
			    G(c->port), c->table);
	}
	fprintf(m, "]}");
	assert_int_equal(fclose(m), 0);
	j = json_loads(buf, 0, &e);
	if (j == NULL)
		fail_msg("bad test JSON: %s at %d", e.text, e.position);
	free(buf);
	if (aggregated)
		ib_aggregate(j);
	if (fa_snapshot_from_json(j, &s, &why) != 0)
		fail_msg("snapshot rejected: %s", why != NULL ? why : "?");
	json_decref(j);
	return s;
}

/* Evaluate c on f under the policy text; results in r (caller frees). */
static void
run(const struct fa_check *c, const struct fabric *f, const char *ptext,
    struct fa_results *r)
{
	ib_eval(c, build(f), ptext, NOW, r);
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

/* The result for target, or NULL. */
static const struct fa_result *
res_for(const struct fa_results *r, const char *target)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->v[i].target, target) == 0)
			return &r->v[i];
	return NULL;
}

/* The evidence value of field, or NULL. */
static const json_t *
evv(const struct fa_result *res, const char *field)
{
	const json_t *e;
	const char *f;
	size_t i;

	json_array_foreach(res->evidence, i, e) {
		f = json_string_value(json_object_get(e, "field"));
		if (f != NULL && strcmp(f, field) == 0)
			return json_object_get(e, "value");
	}
	return NULL;
}

/* Every result's status, "t1=fail t2=pass ...", for messages. */
static void
describe(const struct fa_results *r, char *buf, size_t sz)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < r->n && o + 1 < sz; i++)
		o += (size_t)snprintf(buf + o, sz - o, "%s=%s(%s) ",
		    r->v[i].target, fa_status_name(r->v[i].status),
		    r->v[i].reason);
}

/*
 * Assert cond; on failure print every result, free them (so that ASan
 * sees no leak) and fail with the message, formatted before the free.
 */
#define EXPECT(cond, r, ...) do {					\
	if (!(cond)) {							\
		char d_[4096], m_[512];					\
		snprintf(m_, sizeof(m_), __VA_ARGS__);			\
		describe((r), d_, sizeof(d_));				\
		fa_results_free(r);					\
		print_error("results: %s\n", d_);			\
		fail_msg("%s", m_);					\
	}								\
} while (0)

/* ---- counts are exact --------------------------------------------------- */

/*
 * 730 foreign ports share the full default partition with the tenant
 * port (their PathRecords carry 0xffff, their tables hold 0xffff): 730
 * is the count, in the reason and the evidence; the list may be cut, and
 * says how much of it is shown.
 */
static void
counts_exact_730(void **state)
{
	static struct fabric f;
	struct fa_results r;
	const struct fa_result *x;
	char want[128];

	(void)state;
	fab_init(&f);
	f.local_table = "\"0xffff\"";
	fab_foreign(&f, 1, 730, "\"0xffff\"", "\"0xffff\"");
	run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
	x = res_for(&r, "pkey-0xffff");
	EXPECT(r.n == 1 && x != NULL && x->status == FA_ST_FAIL, &r,
	    "one fail for 0xffff expected");
	EXPECT(strstr(x->reason, "with 730 foreign port(s)") != NULL, &r,
	    "reason \"%s\" does not count 730 ports", x->reason);
	EXPECT(json_integer_value(evv(x, "foreign_port_count")) == 730, &r,
	    "foreign_port_count is not 730");
	EXPECT(json_array_size(evv(x, "foreign_ports")) <= 730, &r,
	    "more ports listed than exist");
	snprintf(want, sizeof(want), "first %zu of 730",
	    json_array_size(evv(x, "foreign_ports")));
	EXPECT(json_array_size(evv(x, "foreign_ports")) == 730 ||
	    (json_is_string(evv(x, "foreign_ports_shown")) &&
	    strcmp(json_string_value(evv(x, "foreign_ports_shown")), want) ==
	    0), &r, "a cut list does not say \"%s\"", want);
	fa_results_free(&r);
	/* One result per foreign port, all 730 of them. */
	run(&fa_chk_ib_xtenant_reachable, &f, POLICY, &r);
	EXPECT(r.n == 730 && count_status(&r, FA_ST_FAIL) == 730, &r,
	    "%zu results, %zu fail (expected 730 fail)", r.n,
	    count_status(&r, FA_ST_FAIL));
	fa_results_free(&r);
	/* Found by tables only: the same 730, counted once each. */
	fab_init(&f);
	f.local_table = "\"0xffff\"";
	fab_foreign(&f, 1, 730, "", "\"0x7fff\",\"0x8005\"");
	fab_foreign(&f, 1001, 3, "", "\"0x8005\"");
	f.local_table = "\"0x8005\"";
	run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
	x = res_for(&r, "pkey-0x8005");
	EXPECT(r.n == 1 && x != NULL && strstr(x->reason,
	    "with 733 foreign port(s)") != NULL, &r,
	    "tables: 733 ports share 0x8005");
	fa_results_free(&r);
}

/* ---- reproduce commands ------------------------------------------------- */

/* Whether every reproduce command of r has no placeholder left. */
static int
filled(const struct fa_results *r)
{
	const json_t *v;
	size_t i;

	for (i = 0; i < r->n; i++)
		if ((v = evv(&r->v[i], "reproduce")) != NULL &&
		    (!json_is_string(v) || strchr(json_string_value(v), '<') !=
		    NULL))
			return 0;
	return 1;
}

/*
 * saquery(8): "--slid <lid> Source LID (PathRecord)", "--dlid <lid>
 * Destination LID (PathRecord)"; `saquery PR 4 7` dumps every path.
 */
static void
reproduce_pr_form(void **state)
{
	static struct fabric f;
	struct fa_results r;
	const struct fa_result *x;
	const json_t *v;
	char t[64];

	(void)state;
	fab_init(&f);
	fab_foreign(&f, 1, 1, "\"0xffff\"", NULL);	/* LID 11 */
	snprintf(t, sizeof(t), "H-" GUIDF "/1", G(f.ca[2].node));
	run(&fa_chk_ib_xtenant_reachable, &f, POLICY, &r);
	x = res_for(&r, t);
	EXPECT(x != NULL && x->status == FA_ST_FAIL, &r, "no fail for %s", t);
	v = evv(x, "reproduce");
	EXPECT(json_is_string(v) && strcmp(json_string_value(v),
	    "saquery PR --slid 4 --dlid 11") == 0, &r,
	    "reproduce \"%s\" is not \"saquery PR --slid 4 --dlid 11\"",
	    json_string_value(v));
	fa_results_free(&r);
	run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
	x = res_for(&r, "pkey-0xffff");
	EXPECT(x != NULL && x->status == FA_ST_FAIL, &r, "no fail for 0xffff");
	v = evv(x, "reproduce");
	EXPECT(json_is_string(v) && strncmp(json_string_value(v),
	    "saquery PR --slid 4 --dlid 11", 29) == 0, &r,
	    "reproduce \"%s\" is not a PathRecord from LID 4 to LID 11",
	    json_string_value(v));
	EXPECT(filled(&r), &r, "a placeholder is left in a reproduce command");
	fa_results_free(&r);
	/* From the tables: smpquery(8) "PKeyTable (PKeys) <addr>". */
	fab_init(&f);
	f.local_table = "\"0x8005\"";
	fab_foreign(&f, 1, 1, "", "\"0x8005\"");
	run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
	x = res_for(&r, "pkey-0x8005");
	EXPECT(x != NULL && x->status == FA_ST_FAIL, &r, "no fail for 0x8005");
	v = evv(x, "reproduce");
	EXPECT(json_is_string(v) && strcmp(json_string_value(v),
	    "smpquery pkeys 11") == 0, &r, "table reproduce \"%s\"",
	    json_string_value(v));
	fa_results_free(&r);
}

/* ---- a lost answer is not evidence -------------------------------------- */

/*
 * acme-gpu-02 (the tenant's) and storage-01 (the provider's) did not
 * answer their NodeDescription Get: "desc": "".  An empty description
 * matches no pattern, but it is no evidence of a foreign owner: those
 * ports are not foreign.  A foreign port (zeta) with no path: nothing
 * foreign is reachable, so nothing fails; the unknown ones the SA gave a
 * path to make the result not_tested, naming them.
 */
static void
unanswered_desc_not_foreign(void **state)
{
	static struct fabric f;
	struct fa_results r;
	char t2[64], st[64];
	size_t i2, is;

	(void)state;
	fab_init(&f);
	i2 = fab_add(&f, "", 500, "\"0xffff\"", NULL);	/* acme-gpu-02 */
	is = fab_add(&f, "", 501, "\"0xffff\"", NULL);	/* storage-01 */
	fab_foreign(&f, 1, 1, "", NULL);
	snprintf(t2, sizeof(t2), "H-" GUIDF "/1", G(f.ca[i2].node));
	snprintf(st, sizeof(st), "H-" GUIDF "/1", G(f.ca[is].node));
	run(&fa_chk_ib_xtenant_reachable, &f, POLICY, &r);
	EXPECT(count_status(&r, FA_ST_FAIL) == 0, &r,
	    "a node whose NodeDescription went unanswered is called foreign");
	EXPECT(count_status(&r, FA_ST_PASS) == 0, &r,
	    "passes though two ports of unknown owner are reachable");
	EXPECT(res_for(&r, t2) != NULL && res_for(&r, st) != NULL &&
	    res_for(&r, t2)->status == FA_ST_NOT_TESTED &&
	    res_for(&r, st)->status == FA_ST_NOT_TESTED, &r,
	    "the unknown ports are not named not_tested");
	fa_results_free(&r);
	run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
	EXPECT(count_status(&r, FA_ST_FAIL) == 0 &&
	    count_status(&r, FA_ST_PASS) == 0, &r,
	    "IB-PKEY-SHARED judges ports of unknown owner");
	EXPECT(res_for(&r, "pkey-0xffff") != NULL &&
	    res_for(&r, "pkey-0xffff")->status == FA_ST_NOT_TESTED &&
	    json_integer_value(evv(res_for(&r, "pkey-0xffff"),
	    "unknown_owner_port_count")) == 2, &r,
	    "0xffff is not not_tested naming the 2 unknown ports");
	fa_results_free(&r);
	/* A foreign port reachable too: it fails, counted alone. */
	f.ca[f.n - 1].pr = "\"0xffff\"";
	run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
	EXPECT(r.n == 1 && r.v[0].status == FA_ST_FAIL && strstr(
	    r.v[0].reason, "with 1 foreign port(s)") != NULL, &r,
	    "the unknown ports are counted as foreign");
	fa_results_free(&r);
	/* Named by GUID, an unanswered node is the tenant's: pass. */
	f.ca[f.n - 1].pr = "";
	{
		char pol[512];

		snprintf(pol, sizeof(pol), POLICY "tenant_guid " GUIDF "\n"
		    "provider_guid " GUIDF "\n", G(f.ca[i2].node),
		    G(f.ca[is].port));
		run(&fa_chk_ib_xtenant_reachable, &f, pol, &r);
		EXPECT(r.n == 1 && r.v[0].status == FA_ST_PASS, &r,
		    "GUID-named nodes with no description do not pass");
		fa_results_free(&r);
	}
	/* Unknown ports the SA gave no path to decide nothing: pass. */
	f.ca[i2].pr = "";
	f.ca[is].pr = "";
	run(&fa_chk_ib_xtenant_reachable, &f, POLICY, &r);
	EXPECT(r.n == 1 && r.v[0].status == FA_ST_PASS, &r,
	    "no path to anyone foreign or unknown should pass");
	fa_results_free(&r);
}

/* ---- fail-closed partition judgement ------------------------------------ */

/*
 * A PathRecord to a foreign port is a shared partition (OpenSM returns
 * one only then), whatever its P_Key field says: a P_Key of base 0
 * (0x0000, 0x8000) names no partition (IBA 10.9.1), a path with no P_Key
 * names none, and an unparsable one is a malformed observation.  None of
 * them may let IB-PKEY-SHARED pass.
 */
static void
pkey_zero_or_unparsable_not_pass(void **state)
{
	static const char *const bad[] = {
		"\"0x0000\"", "\"0x8000\"", "\"zz\"", "\"0x10000\"", "7",
	};
	static struct fabric f;
	struct fa_results r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fab_init(&f);
		fab_foreign(&f, 1, 1, bad[i], NULL);
		run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
		EXPECT(r.n >= 1 && count_status(&r, FA_ST_PASS) == 0, &r,
		    "PathRecord P_Key %s: IB-PKEY-SHARED passes", bad[i]);
		/* Base 0 still proves a shared partition: fail. */
		EXPECT(i >= 2 || count_status(&r, FA_ST_FAIL) == 1, &r,
		    "PathRecord P_Key %s: not a fail", bad[i]);
		EXPECT(i < 2 || count_status(&r, FA_ST_ERROR) == 1, &r,
		    "PathRecord P_Key %s: not an error", bad[i]);
		fa_results_free(&r);
	}
	/* records 1 with no P_Key at all. */
	fab_init(&f);
	fab_foreign(&f, 1, 1, "\"0xffff\"", NULL);
	f.ca[2].pr = " ";	/* records 1, pkeys [ ] */
	run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
	EXPECT(count_status(&r, FA_ST_PASS) == 0 &&
	    count_status(&r, FA_ST_FAIL) == 1, &r,
	    "a path without a P_Key lets IB-PKEY-SHARED pass");
	fa_results_free(&r);
	/*
	 * A table entry 0x8000 (full bit, base 0) names no partition: in
	 * both tables it shares nothing, and it is no malformed table.
	 */
	fab_init(&f);
	f.local_table = "\"0x8000\",\"0x8001\"";
	fab_foreign(&f, 1, 1, "", "\"0x8000\",\"0x8002\"");
	run(&fa_chk_ib_xtenant_reachable, &f, POLICY, &r);
	EXPECT(r.n == 1 && r.v[0].status == FA_ST_PASS, &r,
	    "base-0 entries: expected pass");
	fa_results_free(&r);
	run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
	EXPECT(r.n == 1 && r.v[0].status == FA_ST_PASS, &r,
	    "base-0 entries: expected pass");
	fa_results_free(&r);
}

/* ---- tenant_pkey -------------------------------------------------------- */

/*
 * tenant_pkey 0x8001 names the tenant's own partition.  A foreign port
 * in it meets every full member of it (the tenant's other ports), even
 * where this port and it are both limited (IBA 10.9.3 is pairwise): the
 * foreign membership is the finding.  In a partition not the tenant's,
 * such as the storage partition 0x0010 where every client is limited,
 * limited meets limited: nothing is shared.
 */
static void
tenant_pkey_distinguishes(void **state)
{
	static struct fabric f;
	struct fa_results r;
	const struct fa_result *x;
	const json_t *v;

	(void)state;
	fab_init(&f);
	f.ca[1].table = "\"0x8010\"";		/* no matter: provider */
	f.local_table = "\"0x7fff\",\"0x0001\",\"0x0010\"";
	fab_foreign(&f, 1, 2, "", "\"0x7fff\",\"0x0001\",\"0x0010\"");
	fab_foreign(&f, 3, 998, "", "\"0x7fff\",\"0x0010\"");
	/* Without tenant_pkey: limited everywhere, nothing shared. */
	run(&fa_chk_ib_pkey_shared, &f, POLICY, &r);
	EXPECT(r.n == 1 && r.v[0].status == FA_ST_PASS, &r,
	    "all limited and no tenant_pkey: expected pass");
	fa_results_free(&r);
	run(&fa_chk_ib_pkey_shared, &f, POLICY "tenant_pkey 0x8001\n", &r);
	x = res_for(&r, "pkey-0x8001");
	EXPECT(r.n == 1 && x != NULL && x->status == FA_ST_FAIL, &r,
	    "foreign members of tenant_pkey 0x8001 do not fail");
	EXPECT(strstr(x->reason, "2 foreign port(s)") != NULL, &r,
	    "reason \"%s\" does not count 2", x->reason);
	v = evv(x, "partition");
	EXPECT(json_is_string(v) && strstr(json_string_value(v),
	    "tenant_pkey") != NULL, &r, "the partition is not called the "
	    "tenant's");
	fa_results_free(&r);
	/* Limited meets limited: this port reaches none of them. */
	run(&fa_chk_ib_xtenant_reachable, &f, POLICY "tenant_pkey 0x8001\n",
	    &r);
	EXPECT(r.n == 1 && r.v[0].status == FA_ST_PASS, &r,
	    "XTENANT (pairwise from this port) should pass");
	fa_results_free(&r);
	/*
	 * A foreign full member of the tenant's partition, while this port
	 * is not in it at all (another tenant node is): fail, naming it.
	 */
	fab_init(&f);
	f.local_table = "\"0x7fff\"";
	fab_foreign(&f, 1, 1, "", "\"0x7fff\",\"0x8001\"");
	run(&fa_chk_ib_pkey_shared, &f, POLICY "tenant_pkey 0x0001\n", &r);
	x = res_for(&r, "pkey-0x8001");
	EXPECT(r.n == 1 && x != NULL && x->status == FA_ST_FAIL, &r,
	    "a foreign full member of the tenant's partition passes");
	fa_results_free(&r);
	/* A partition not the tenant's, full on our side: fail, not ours. */
	fab_init(&f);
	f.local_table = "\"0x8005\"";
	fab_foreign(&f, 1, 1, "", "\"0x0005\"");
	run(&fa_chk_ib_pkey_shared, &f, POLICY "tenant_pkey 0x8001\n", &r);
	x = res_for(&r, "pkey-0x8005");
	EXPECT(r.n == 1 && x != NULL && x->status == FA_ST_FAIL, &r,
	    "0x8005 full/limited: expected fail");
	v = evv(x, "partition");
	EXPECT(json_is_string(v) && strstr(json_string_value(v),
	    "not in tenant_pkey") != NULL, &r, "0x8005 called the tenant's");
	fa_results_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_exact_730),
		cmocka_unit_test(reproduce_pr_form),
		cmocka_unit_test(unanswered_desc_not_foreign),
		cmocka_unit_test(pkey_zero_or_unparsable_not_pass),
		cmocka_unit_test(tenant_pkey_distinguishes),
	};

	return IB_RUN_BOTH_FORMS(tests);
}
