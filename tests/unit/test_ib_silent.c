/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for silent parts of the fabric (issue 21): a switch that
 * stops answering SMPs leaves the port that leads to it with a link up
 * (PortInfo PhysicalPortState 5 LinkUp, PortState 4 Active) and no peer
 * in libibnetdisc's topology.  That switch and every port behind it were
 * not observed, so a verdict that speaks for every port (no foreign port
 * reachable, no partition shared, no unprotected M_Key) cannot pass:
 * not_tested, naming the port that leads to the silent switch.  What was
 * seen still fails.
 *
 * The expected verdicts come from the IBA, written before fabaudit's
 * output was looked at: PortInfo 14.2.5.6 (PortState 1 Down .. 4 Active;
 * PortPhysicalState 2 Polling, 5 LinkUp); OpenSM returns a PathRecord
 * only between ports sharing a partition (IBA vol. 1 10.9.3); M_Key at
 * protection level 0 is returned by a Get, at level 1 it reads 0
 * (14.2.4).
 *
 * The fabric: leaf switch L (LID 2) with the tenant port (LID 4), the SM
 * host (LID 1) and one foreign CA; L's port 7 is cabled to a spine S that
 * never answered.  The snapshots are written as fabric/ib_discover.c
 * writes them, with and without the "unexplored" list (an older snapshot
 * has neither it nor phys_state: PortState then tells).
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
#define LEAF	"0x7cfe900300000a00"
#define SELF_N	"0x0002c90300000100"
#define SELF_P	"0x0002c90300000101"
#define SM_N	"0x0002c90300000200"
#define SM_P	"0x0002c90300000201"
#define ZETA_N	"0x0002c90300100000"
#define ZETA_P	"0x0002c90300100001"
#define SILENT	"S-" LEAF "/7"

#define POLICY \
	"tenant_node acme-*\n" \
	"provider_node ufm-*\n" \
	"sm_guid " SM_P "\n"

/* How leaf port 7 (the link to the spine) looks in the topology. */
enum link {
	L_SILENT,	/* LinkUp, Active, no peer: the spine never answered */
	L_OLD,		/* the same without phys_state (older snapshot) */
	L_DARK,		/* Polling, Down: no cable, nothing behind it */
	L_SEEN,		/* LinkUp to a spine that answered */
	L_NOINFO,	/* its PortInfo went unanswered */
};

struct fab {
	enum link	 link;
	int		 foreign;	/* the foreign CA is in the fabric */
	const char	*zeta_pr;	/* its PathRecord pkeys ("" none) */
	int		 keyed;		/* every M_Key set (level 0) */
	int		 zeta_noinfo;	/* the foreign CA's PortInfo went
					   unanswered (no LID, no path) */
};

static char *
ca_port(const char *desc, const char *node, const char *port, int lid,
    int sw_port, int keyed)
{
	return xfmt("{\"type\":\"CA\",\"desc\":\"%s\",\"guid\":\"%s\","
	    "\"num_ports\":1,\"partition_cap\":128,\"ports\":[{\"num\":1,"
	    "\"lid\":%d,\"state\":4,\"phys_state\":5,\"guid\":\"%s\","
	    "\"capmask\":0,\"is_sm\":false,\"mkey\":{\"secret\":true,"
	    "\"value\":\"%s\",\"zero\":%s},\"mkey_protect\":%d,"
	    "\"mkey_lease\":60,\"mkey_violations\":0,"
	    "\"remote_node_guid\":\"" LEAF "\",\"remote_port\":%d,"
	    "\"remote_type\":\"Switch\"}]}", desc, node, lid, port,
	    keyed ? "0x1234567890abcdef" : "0x0000000000000000",
	    keyed ? "false" : "true", 0, sw_port);
}

static struct fa_snapshot *
build(const struct fab *f)
{
	struct fa_snapshot *s = NULL;
	char *sb = NULL, *t, *why = NULL;
	json_error_t e;
	json_t *j;
	const char *p7;

	sbf(&sb, "{\"schema\":\"fabaudit-snapshot/1\",\"tool\":{\"name\":"
	    "\"fabaudit\"},\"families\":{\"ib\":{\"state\":\"collected\","
	    "\"reason\":null},\"eth\":{\"state\":\"not_requested\"}},"
	    "\"observations\":[");
	t = obs("ib.local", "ib.local_port", "H-" SELF_N "/1",
	    "umad port attributes", "complete", NULL, "{\"ca\":\"mlx5_0\","
	    "\"port\":1,\"lid\":4,\"sm_lid\":1,\"node_desc\":\"acme-gpu-01 "
	    "mlx5_0\",\"node_type\":\"CA\",\"partition_cap\":128,"
	    "\"port_guid\":\"" SELF_P "\",\"node_guid\":\"" SELF_N "\"}");
	sbf(&sb, "%s", t);
	free(t);
	/* The topology. */
	sbf(&sb, ",{\"id\":\"ib.topology\",\"family\":\"ib\",\"kind\":"
	    "\"ib.topology\",\"target\":\"fabric\",\"request\":\"libibnetdisc "
	    "discovery\",\"state\":\"%s\",\"reason\":%s,\"data\":{"
	    "\"max_hops\":1,\"nodes\":[", f->link == L_SILENT ? "incomplete" :
	    "complete", f->link == L_SILENT ? "\"1 port(s) with a link up "
	    "lead to a node that never answered discovery\"" : "null");
	t = ca_port("acme-gpu-01 mlx5_0", SELF_N, SELF_P, 4, 1, f->keyed);
	sbf(&sb, "%s", t);
	free(t);
	t = ca_port("ufm-sm01 mlx5_0", SM_N, SM_P, 1, 2, f->keyed);
	sbf(&sb, ",%s", t);
	free(t);
	if (f->foreign && f->zeta_noinfo)
		/* As fabric/ib_discover.c writes a zeroed PortInfo. */
		sbf(&sb, ",{\"type\":\"CA\",\"desc\":\"zeta-0001 mlx5_0\","
		    "\"guid\":\"" ZETA_N "\",\"num_ports\":1,"
		    "\"partition_cap\":128,\"ports\":[{\"num\":1,"
		    "\"portinfo\":\"unanswered\",\"guid\":\"" ZETA_P "\"}]}");
	else if (f->foreign) {
		t = ca_port("zeta-0001 mlx5_0", ZETA_N, ZETA_P, 11, 3,
		    f->keyed);
		sbf(&sb, ",%s", t);
		free(t);
	}
	switch (f->link) {
	case L_SILENT:
		p7 = "\"state\":4,\"phys_state\":5";
		break;
	case L_OLD:
		p7 = "\"state\":4";
		break;
	case L_DARK:
		p7 = "\"state\":1,\"phys_state\":2";
		break;
	case L_NOINFO:
		p7 = NULL;
		break;
	default:
		p7 = "\"state\":4,\"phys_state\":5,\"remote_node_guid\":"
		    "\"0x7cfe900300000b00\",\"remote_port\":1,\"remote_type\":"
		    "\"Switch\"";
		break;
	}
	sbf(&sb, ",{\"type\":\"Switch\",\"desc\":\"MF0;leaf01:MQM8700/U1\","
	    "\"guid\":\"" LEAF "\",\"num_ports\":40,\"partition_cap\":8,"
	    "\"ports\":[{\"num\":0,\"lid\":2,\"state\":4,\"phys_state\":5,"
	    "\"guid\":\"" LEAF "\",\"capmask\":0,\"is_sm\":false,\"mkey\":{"
	    "\"secret\":true,\"value\":\"%s\",\"zero\":%s},\"mkey_protect\":"
	    "%d,\"mkey_lease\":60,\"mkey_violations\":0},",
	    f->keyed ? "0x1234567890abcdef" : "0x0000000000000000",
	    f->keyed ? "false" : "true", 0);
	if (p7 != NULL)
		sbf(&sb, "{\"num\":7,\"lid\":2,%s,\"guid\":\"" LEAF "\","
		    "\"part_enf_in\":1,\"part_enf_out\":1}]}]", p7);
	else
		sbf(&sb, "{\"num\":7,\"portinfo\":\"unanswered\","
		    "\"guid\":\"" LEAF "\"}]}]");
	if (f->link == L_SILENT)
		sbf(&sb, ",\"unexplored\":[{\"type\":\"Switch\",\"desc\":"
		    "\"MF0;leaf01:MQM8700/U1\",\"port\":7,\"lid\":2,\"state\":"
		    "4,\"phys_state\":5,\"guid\":\"" LEAF "\"}],"
		    "\"unexplored_count\":1");
	sbf(&sb, "}}");
	/* PathRecords: the SM's (a control path), the foreign port's. */
	t = obs("ib.sa.path_record#1", "ib.sa.path_record", "H-" SM_N "/1",
	    "SubnAdmGetTable(PathRecord) SLID 4", "complete", NULL,
	    "{\"lid\":1,\"node_desc\":\"ufm-sm01 mlx5_0\",\"records\":1,"
	    "\"pkeys\":[\"0xffff\"],\"port_guid\":\"" SM_P "\"}");
	sbf(&sb, ",%s", t);
	free(t);
	if (f->foreign && !f->zeta_noinfo) {
		char *d = xfmt("{\"lid\":11,\"node_desc\":\"zeta-0001 mlx5_0\","
		    "\"records\":%d,\"pkeys\":[%s],\"port_guid\":\"" ZETA_P
		    "\"}", *f->zeta_pr != '\0', f->zeta_pr);

		t = obs("ib.sa.path_record#2", "ib.sa.path_record",
		    "H-" ZETA_N "/1", "SubnAdmGetTable(PathRecord) SLID 4",
		    "complete", NULL, d);
		sbf(&sb, ",%s", t);
		free(t);
		free(d);
	}
	sbf(&sb, "]}");
	j = json_loads(sb, 0, &e);
	if (j == NULL)
		fail_msg("bad test JSON: %s at %d", e.text, e.position);
	free(sb);
	if (fa_snapshot_from_json(j, &s, &why) != 0)
		fail_msg("snapshot rejected: %s", why != NULL ? why : "?");
	json_decref(j);
	return s;
}

static void
run(const struct fa_check *c, const struct fab *f, struct fa_results *r)
{
	ib_eval(c, build(f), POLICY, NOW, r);
}

/* The only result is st on "fabric", its reason naming `name`. */
static void
expect_named(const struct fa_check *c, const struct fab *f,
    enum fa_status st, const char *name)
{
	struct fa_results r;

	run(c, f, &r);
	if (r.n != 1 || r.v[0].status != st)
		fail_msg("%s: %zu result(s), first %s (%s), wanted %s",
		    c->id, r.n, r.n > 0 ? fa_status_name(r.v[0].status) : "-",
		    r.n > 0 && r.v[0].reason != NULL ? r.v[0].reason : "",
		    fa_status_name(st));
	assert_string_equal(r.v[0].target, "fabric");
	if (strstr(r.v[0].reason, name) == NULL)
		fail_msg("%s: the reason does not name %s: %s", c->id, name,
		    r.v[0].reason);
	fa_results_free(&r);
}

/* The only result is st on "fabric"; with silent, it names the port. */
static void
expect_one(const struct fa_check *c, const struct fab *f, enum fa_status st,
    int silent)
{
	struct fa_results r;

	run(c, f, &r);
	if (r.n != 1 || r.v[0].status != st)
		fail_msg("%s: %zu result(s), first %s (%s), wanted %s",
		    c->id, r.n, r.n > 0 ? fa_status_name(r.v[0].status) : "-",
		    r.n > 0 && r.v[0].reason != NULL ? r.v[0].reason : "",
		    fa_status_name(st));
	assert_string_equal(r.v[0].target, "fabric");
	if (silent && strstr(r.v[0].reason, SILENT) == NULL)
		fail_msg("%s: the reason does not name " SILENT ": %s",
		    c->id, r.v[0].reason);
	fa_results_free(&r);
}

/* No path to the foreign port: passes only when every link was seen. */
static void
reachable_silent(void **state)
{
	struct fab f = { L_SILENT, 1, "", 0, 0 };

	(void)state;
	expect_one(&fa_chk_ib_xtenant_reachable, &f, FA_ST_NOT_TESTED, 1);
	f.link = L_OLD;
	expect_one(&fa_chk_ib_xtenant_reachable, &f, FA_ST_NOT_TESTED, 1);
	/* Controls: a port without a cable, a spine that answered. */
	f.link = L_DARK;
	expect_one(&fa_chk_ib_xtenant_reachable, &f, FA_ST_PASS, 0);
	f.link = L_SEEN;
	expect_one(&fa_chk_ib_xtenant_reachable, &f, FA_ST_PASS, 0);
}

static void
shared_silent(void **state)
{
	struct fab f = { L_SILENT, 1, "", 0, 0 };

	(void)state;
	expect_one(&fa_chk_ib_pkey_shared, &f, FA_ST_NOT_TESTED, 1);
	f.link = L_OLD;
	expect_one(&fa_chk_ib_pkey_shared, &f, FA_ST_NOT_TESTED, 1);
	f.link = L_DARK;
	expect_one(&fa_chk_ib_pkey_shared, &f, FA_ST_PASS, 0);
	f.link = L_SEEN;
	expect_one(&fa_chk_ib_pkey_shared, &f, FA_ST_PASS, 0);
}

/*
 * No foreign port among those seen: not "not applicable", since the
 * foreign ports may all sit behind the silent spine.
 */
static void
no_foreign_seen(void **state)
{
	struct fab f = { L_SILENT, 0, "", 0, 0 };

	(void)state;
	expect_one(&fa_chk_ib_xtenant_reachable, &f, FA_ST_NOT_TESTED, 1);
	expect_one(&fa_chk_ib_pkey_shared, &f, FA_ST_NOT_TESTED, 1);
	f.link = L_DARK;
	expect_one(&fa_chk_ib_xtenant_reachable, &f, FA_ST_NOT_APPLICABLE, 0);
	expect_one(&fa_chk_ib_pkey_shared, &f, FA_ST_NOT_APPLICABLE, 0);
}

/* What was seen proves a fail: it stays one, silent spine or not. */
static void
fail_stays(void **state)
{
	struct fab f = { L_SILENT, 1, "\"0x8001\"", 0, 0 };
	struct fa_results r;
	size_t i;

	(void)state;
	run(&fa_chk_ib_xtenant_reachable, &f, &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, "H-" ZETA_N "/1");
	fa_results_free(&r);
	run(&fa_chk_ib_pkey_shared, &f, &r);
	assert_true(r.n >= 1);
	for (i = 0; i < r.n; i++)
		assert_int_not_equal(r.v[i].status, FA_ST_PASS);
	assert_int_equal(r.v[0].status, FA_ST_FAIL);
	assert_string_equal(r.v[0].target, "pkey-0x8001");
	fa_results_free(&r);
}

/*
 * Every port seen has a non-zero M_Key (at level 0, so it reads back):
 * IB-MKEY-UNSET would pass on them, but the spine's ports were not seen.
 * The key read back is a fail of IB-MKEY-READABLE and -PROTECT-LOW
 * whatever was not seen.
 */
static void
mkey_silent(void **state)
{
	struct fab f = { L_SILENT, 1, "", 1, 0 };

	(void)state;
	expect_one(&fa_chk_ib_mkey_unset, &f, FA_ST_NOT_TESTED, 1);
	expect_one(&fa_chk_ib_mkey_readable, &f, FA_ST_FAIL, 0);
	expect_one(&fa_chk_ib_mkey_protect_low, &f, FA_ST_FAIL, 0);
	f.link = L_DARK;
	expect_one(&fa_chk_ib_mkey_unset, &f, FA_ST_PASS, 0);
	/* M_Key 0 seen: a fail whatever was not seen. */
	f.link = L_SILENT;
	f.keyed = 0;
	expect_one(&fa_chk_ib_mkey_unset, &f, FA_ST_FAIL, 0);
	expect_one(&fa_chk_ib_mkey_protect_low, &f, FA_ST_FAIL, 0);
	/* No port has a key: not applicable only if all were seen. */
	expect_one(&fa_chk_ib_mkey_readable, &f, FA_ST_NOT_TESTED, 1);
	f.link = L_DARK;
	expect_one(&fa_chk_ib_mkey_readable, &f, FA_ST_NOT_APPLICABLE, 0);
}

/*
 * A PortInfo that went unanswered (libibnetdisc's zeroed block: PortState
 * 0, which no GetResp carries, IBA vol. 1 14.2.5.6) tells nothing about
 * the port: not its LID, its M_Key or what it is cabled to.  A switch
 * port so recorded may lead to a spine nobody saw; a foreign CA port so
 * recorded has no LID to ask the SA about.  Neither may back a pass.
 */
static void
portinfo_unanswered(void **state)
{
	struct fab f = { L_NOINFO, 1, "", 0, 0 };

	(void)state;
	expect_named(&fa_chk_ib_xtenant_reachable, &f, FA_ST_NOT_TESTED,
	    SILENT " (MF0;leaf01:MQM8700/U1, PortInfo unanswered)");
	expect_named(&fa_chk_ib_pkey_shared, &f, FA_ST_NOT_TESTED, SILENT);
	expect_named(&fa_chk_ib_mkey_readable, &f, FA_ST_NOT_TESTED, SILENT);
	/* Enforcement on the ports seen is fine; port 7's is unknown. */
	expect_one(&fa_chk_ib_pkey_enforce_off, &f, FA_ST_NOT_TESTED, 0);
	/* The foreign CA's PortInfo lost, every switch port seen. */
	f.link = L_DARK;
	f.zeta_noinfo = 1;
	expect_named(&fa_chk_ib_xtenant_reachable, &f, FA_ST_NOT_TESTED,
	    "H-" ZETA_N "/1 (zeta-0001 mlx5_0, PortInfo unanswered)");
	expect_named(&fa_chk_ib_pkey_shared, &f, FA_ST_NOT_TESTED,
	    "H-" ZETA_N "/1");
	/* Its zeroed M_Key is not counted: keyed ports seen pass not. */
	f.keyed = 1;
	expect_named(&fa_chk_ib_mkey_unset, &f, FA_ST_NOT_TESTED,
	    "H-" ZETA_N "/1");
	/* Unkeyed ports seen: a fail, naming 3 ports examined, not 4. */
	f.keyed = 0;
	expect_named(&fa_chk_ib_mkey_unset, &f, FA_ST_FAIL, "3 of 3 ports");
	/* Control: the same port answered. */
	f.zeta_noinfo = 0;
	expect_one(&fa_chk_ib_xtenant_reachable, &f, FA_ST_PASS, 0);
	expect_named(&fa_chk_ib_mkey_unset, &f, FA_ST_FAIL, "4 of 4 ports");
}

/*
 * Discovery lost so many MADs that nothing was left to examine: no CA
 * port and no switch port 0 in the topology (only a switch's external
 * port, seen dark).  The M_Key checks cannot decide, and the reason says
 * that discovery's MADs were lost (ib.engine discovery.lost_sends), so
 * the reader knows the cause was loss, not an empty fabric.
 */
static struct fa_snapshot *
bare(long long lost)
{
	struct fa_snapshot *s = NULL;
	char *t, *eng, *why = NULL;
	json_error_t e;
	json_t *j;

	eng = xfmt(",{\"id\":\"ib.engine\",\"family\":\"ib\",\"kind\":"
	    "\"ib.engine\",\"target\":\"fabric\",\"request\":\"MAD engine "
	    "counters\",\"state\":\"complete\",\"reason\":null,\"data\":{"
	    "\"lost_sends\":0,\"discovery\":{\"lost_sends\":%lld}}}", lost);
	t = xfmt("{\"schema\":\"fabaudit-snapshot/1\",\"tool\":{\"name\":"
	    "\"fabaudit\"},\"families\":{\"ib\":{\"state\":\"collected\","
	    "\"reason\":null}},\"observations\":[{\"id\":\"ib.topology\","
	    "\"family\":\"ib\",\"kind\":\"ib.topology\",\"target\":"
	    "\"fabric\",\"request\":\"libibnetdisc discovery\",\"state\":"
	    "\"complete\",\"reason\":null,\"data\":{\"max_hops\":0,"
	    "\"nodes\":[{\"type\":\"Switch\",\"desc\":\"leaf01\",\"guid\":"
	    "\"" LEAF "\",\"num_ports\":40,\"partition_cap\":8,\"ports\":"
	    "[{\"num\":7,\"lid\":2,\"state\":1,\"phys_state\":2,\"guid\":"
	    "\"" LEAF "\"}]}]}}%s]}", lost < 0 ? "" : eng);
	free(eng);
	j = json_loads(t, 0, &e);
	if (j == NULL)
		fail_msg("bad test JSON: %s at %d", e.text, e.position);
	free(t);
	if (fa_snapshot_from_json(j, &s, &why) != 0)
		fail_msg("snapshot rejected: %s", why != NULL ? why : "?");
	json_decref(j);
	return s;
}

static void
nothing_to_examine(void **state)
{
	const struct fa_check *cs[] = { &fa_chk_ib_mkey_unset,
	    &fa_chk_ib_mkey_readable, &fa_chk_ib_mkey_protect_low };
	struct fa_results r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		ib_eval(cs[i], bare(37), POLICY, NOW, &r);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.v[0].status, FA_ST_NOT_TESTED);
		if (strstr(r.v[0].reason, "37 of its MADs were lost") == NULL)
			fail_msg("%s: the loss is not named: %s", cs[i]->id,
			    r.v[0].reason);
		fa_results_free(&r);
		/* Nothing lost, or not recorded: no loss claimed. */
		ib_eval(cs[i], bare(0), POLICY, NOW, &r);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.v[0].status, FA_ST_NOT_TESTED);
		assert_null(strstr(r.v[0].reason, "lost"));
		fa_results_free(&r);
		ib_eval(cs[i], bare(-1), POLICY, NOW, &r);
		assert_int_equal(r.n, 1);
		assert_int_equal(r.v[0].status, FA_ST_NOT_TESTED);
		assert_null(strstr(r.v[0].reason, "lost"));
		fa_results_free(&r);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reachable_silent),
		cmocka_unit_test(shared_silent),
		cmocka_unit_test(no_foreign_seen),
		cmocka_unit_test(fail_stays),
		cmocka_unit_test(mkey_silent),
		cmocka_unit_test(portinfo_unanswered),
		cmocka_unit_test(nothing_to_examine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
