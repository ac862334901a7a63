/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the cluster merge (reports/merge.c): grouping, fabric-wide
 * de-duplication, coverage, summary counts, duplicate and hostile input,
 * bounds, and the text rendering of odd JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "../../core/errors.h"
#include "../../reports/merge.h"
#include "../../reports/report.h"

#define NOW	((time_t)1796205600)	/* 2026-12-02T10:00:00Z */

/* A result as fabaudit writes it. */
static json_t *
res(const char *id, const char *fam, const char *st, const char *sev,
    const char *target, const char *reason)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:n, s:s, s:s, s:[], "
	    "s:s, s:s, s:s, s:[s]}", "id", id, "family", fam, "status", st,
	    "severity", sev, "target", target, "target_name", "reason",
	    reason, "title", "title", "evidence", "rationale", "why",
	    "remediation", "fix", "msa_clause", "clause", "references",
	    "ref");

	assert_non_null(r);
	return r;
}

/* A node report of host (NULL: none) started at `started`. */
static json_t *
report(const char *host, const char *started, json_t *results)
{
	json_t *j = json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:s}, "
	    "s:{s:s?, s:s, s:s, s:[s, s, s]}, s:{s:{s:s}, s:{s:s}, s:{s:s}}, "
	    "s:{s:s}, s:o}", "schema", FA_REPORT_SCHEMA,
	    "tool", "name", "fabaudit", "version", "0.1.0",
	    "scanned_by", "name", "fabaudit", "version", "0.1.0",
	    "scan", "host", host, "started", started, "finished", started,
	    "families", "ib", "eth", "host",
	    "families", "ib", "state", "collected", "eth", "state",
	    "collected", "host", "state", "collected",
	    "policy", "name", "p.conf", "results", results);

	assert_non_null(j);
	return j;
}

/* Fold report r (stolen) in as file; returns fa_merge_add's result. */
static int
add(struct fa_merge *m, json_t *r, const char *file, char **why)
{
	char sha[65];
	char *s = json_dumps(r, JSON_COMPACT | JSON_SORT_KEYS);
	int rc;

	assert_non_null(s);
	assert_int_equal(fa_sha256_hex(s, strlen(s), sha), 0);
	free(s);
	rc = fa_merge_add(m, r, file, sha, why);
	json_decref(r);
	return rc;
}

static void
add_ok(struct fa_merge *m, json_t *r, const char *file)
{
	char *why = NULL;
	int rc = add(m, r, file, &why);

	if (rc != 0)
		print_error("fa_merge_add: %s\n", why != NULL ? why : "?");
	assert_int_equal(rc, 0);
	assert_null(why);
}

static json_t *
finish(struct fa_merge *m)
{
	json_t *out = NULL;
	char *why = NULL;

	assert_int_equal(fa_merge_finish(m, NOW, &out, &why), 0);
	assert_null(why);
	assert_non_null(out);
	return out;
}

/* The merged result of id with status (and waived or not), or NULL. */
static json_t *
find(const json_t *mj, const char *id, const char *st, int waived)
{
	json_t *r;
	size_t i;

	json_array_foreach(json_object_get(mj, "results"), i, r)
		if (strcmp(json_string_value(json_object_get(r, "id")), id) ==
		    0 && strcmp(json_string_value(json_object_get(r,
		    "status")), st) == 0 && (json_object_get(r, "waived") !=
		    NULL) == waived)
			return r;
	return NULL;
}

static long long
inum(const json_t *o, const char *path1, const char *path2)
{
	const json_t *v = json_object_get(o, path1);

	if (path2 != NULL)
		v = json_object_get(v, path2);
	assert_true(json_is_integer(v));
	return (long long)json_integer_value(v);
}

static const char *
sget(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* The (node, target) pairs of a merged result: a node_set row counts. */
static size_t
pairs(const json_t *r)
{
	const json_t *t, *set;
	size_t i, n = 0;

	json_array_foreach(json_object_get(r, "targets"), i, t) {
		set = json_object_get(t, "node_set");
		n += set != NULL ? (size_t)json_integer_value(
		    json_object_get(set, "count")) : 1;
	}
	return n;
}

/* The same node-local finding on three nodes is one result. */
static void
test_group(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	const char *hosts[] = { "n1", "n2", "n3" };
	json_t *mj, *r, *t;
	size_t i;

	(void)state;
	assert_non_null(m);
	for (i = 0; i < 3; i++)
		add_ok(m, report(hosts[i], "2026-12-02T09:00:00Z",
		    json_pack("[o, o]", res("HOST-PRIVILEGED", "host", "fail",
		    "critical", "host", i == 2 ? "other" : "priv"),
		    res("HOST-SECCOMP-OFF", "host", "pass", "high", "host",
		    "ok"))), hosts[i]);
	/* Two targets on one node, one on another: 3 targets, 2 nodes. */
	add_ok(m, report("n4", "2026-12-02T09:00:00Z", json_pack("[o, o]",
	    res("HOST-DEVICE-EXPOSED", "host", "fail", "high", "/dev/mem",
	    "d"), res("HOST-DEVICE-EXPOSED", "host", "fail", "high",
	    "/dev/kmsg", "d"))), "n4");
	add_ok(m, report("n5", "2026-12-02T09:00:00Z", json_pack("[o]",
	    res("HOST-DEVICE-EXPOSED", "host", "fail", "high", "/dev/mem",
	    "d"))), "n5");
	mj = finish(m);
	r = find(mj, "HOST-DEVICE-EXPOSED", "fail", 0);
	assert_non_null(r);
	assert_string_equal(sget(r, "target"), "3 targets on 2 nodes");
	assert_int_equal(inum(r, "nodes", NULL), 2);
	assert_int_equal(inum(r, "coverage", "decided"), 2);
	assert_int_equal(inum(r, "coverage", "absent"), 3);
	assert_int_equal(json_array_size(json_object_get(mj, "results")), 3);
	r = find(mj, "HOST-PRIVILEGED", "fail", 0);
	assert_non_null(r);
	assert_string_equal(sget(r, "target"), "3 targets on 3 nodes");
	assert_true(json_is_null(json_object_get(r, "target_name")));
	assert_int_equal(inum(r, "nodes", NULL), 3);
	assert_int_equal(inum(r, "reasons", NULL), 2);
	assert_string_equal(sget(r, "reason"), "priv");
	assert_string_equal(sget(r, "title"), "title");
	assert_string_equal(sget(r, "family"), "host");
	assert_string_equal(sget(r, "msa_clause"), "clause");
	assert_int_equal(pairs(r), 3);
	/* n1 and n2 alike: one row naming both; n3's other reason apart. */
	assert_int_equal(json_array_size(json_object_get(r, "targets")), 2);
	t = json_array_get(json_object_get(r, "targets"), 0);
	assert_null(json_object_get(t, "node"));
	assert_int_equal(inum(json_object_get(t, "node_set"), "count", NULL),
	    2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
	    json_object_get(t, "node_set"), "names"), 1)), "n2");
	t = json_array_get(json_object_get(r, "targets"), 1);
	assert_string_equal(sget(t, "node"), "n3");
	assert_string_equal(sget(t, "target"), "host");
	assert_string_equal(sget(t, "reason"), "other");
	assert_null(json_object_get(t, "seen_by"));
	assert_int_equal(inum(r, "coverage", "decided"), 3);
	assert_int_equal(inum(r, "coverage", "nodes"), 5);
	assert_int_equal(inum(r, "coverage", "absent"), 2);
	/* Summary: two fail, one pass; every node fails at high. */
	assert_int_equal(inum(mj, "summary", "fail"), 2);
	assert_int_equal(inum(mj, "summary", "pass"), 1);
	assert_int_equal(inum(mj, "summary", "failing_at_or_above"), 2);
	assert_int_equal(inum(mj, "summary", "nodes"), 5);
	assert_int_equal(inum(mj, "summary", "nodes_failing"), 5);
	assert_int_equal(inum(mj, "summary", "fail_targets"), 6);
	assert_string_equal(sget(mj, "schema"), FA_REPORT_SCHEMA);
	assert_string_equal(sget(json_object_get(mj, "evaluation"), "mode"),
	    "merge");
	assert_int_equal(inum(mj, "merged", "reports"), 5);
	assert_int_equal(json_array_size(json_object_get(json_object_get(mj,
	    "merged"), "nodes")), 5);
	assert_string_equal(sget(json_object_get(mj, "policy"), "name"),
	    "p.conf");
	assert_int_equal(json_array_size(json_object_get(json_object_get(mj,
	    "merged"), "warnings")), 0);
	json_decref(mj);
	fa_merge_free(m);
}

/*
 * A port GUID, "sa" or "fabric" decided the same way from two nodes is
 * one target; "local", a not_tested "fabric", or another subnet are not.
 */
static void
test_dedupe(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	const char *g = "H-0x0002c90300c3d500/1";
	json_t *mj, *r, *rep;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		rep = report(i == 0 ? "a" : i == 1 ? "b" : "c",
		    "2026-12-02T09:00:00Z", json_pack("[o, o, o, o, o]",
		    res("IB-XTENANT-REACHABLE", "ib", "fail", "critical", g,
		    "path"), res("IB-SAKEY-DEFAULT", "ib", "fail", "critical",
		    "sa", "sa"), res("IB-SMP-UNRESTRICTED", "ib", "fail",
		    "high", "local", "smp"), res("IB-VSKEY-UNSET", "ib",
		    "not_tested", "high", "fabric", "no answer"),
		    res("IB-PKEY-DEFAULT-FULL", "ib", "fail", "high",
		    "S-0x0002c90300c3d50/1", "short guid")));
		/* Node c is on another subnet. */
		if (i == 2)
			assert_int_equal(json_object_set_new(rep, "scope",
			    json_pack("{s:{s:s}}", "fabric", "subnet_prefix",
			    "0xfe80000000000001")), 0);
		add_ok(m, rep, "f");
	}
	mj = finish(m);
	r = find(mj, "IB-XTENANT-REACHABLE", "fail", 0);
	assert_int_equal(pairs(r), 2);
	assert_int_equal(inum(json_array_get(json_object_get(r, "targets"), 0),
	    "seen_by", NULL), 2);
	assert_string_equal(sget(json_array_get(json_object_get(r, "targets"),
	    0), "node"), "a");
	assert_string_equal(sget(json_array_get(json_object_get(r, "targets"),
	    1), "node"), "c");
	assert_int_equal(inum(r, "nodes", NULL), 3);
	assert_string_equal(sget(r, "target"), "2 targets on 3 nodes");
	r = find(mj, "IB-SAKEY-DEFAULT", "fail", 0);
	assert_int_equal(pairs(r), 2);
	r = find(mj, "IB-SMP-UNRESTRICTED", "fail", 0);
	assert_int_equal(pairs(r), 3);
	r = find(mj, "IB-VSKEY-UNSET", "not_tested", 0);
	assert_int_equal(pairs(r), 3);
	assert_int_equal(inum(r, "coverage", "not_tested"), 3);
	assert_int_equal(inum(r, "coverage", "decided"), 0);
	/* Not the GUID form (15 hex digits): node-local, not folded. */
	r = find(mj, "IB-PKEY-DEFAULT-FULL", "fail", 0);
	assert_int_equal(pairs(r), 3);
	json_decref(mj);
	fa_merge_free(m);
}

/* A waiver splits the group; only unwaived failures count. */
static void
test_waived(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	json_t *mj, *r, *w;

	(void)state;
	add_ok(m, report("a", "2026-12-02T09:00:00Z", json_pack("[o]",
	    res("HOST-LSM-OFF", "host", "fail", "high", "host", "x"))), "a");
	w = res("HOST-LSM-OFF", "host", "fail", "high", "host", "x");
	assert_int_equal(json_object_set_new(w, "waived", json_pack(
	    "{s:s, s:s, s:i}", "reason", "ticket 7", "expires", "2027-01-01",
	    "policy_line", 4)), 0);
	add_ok(m, report("b", "2026-12-02T09:00:00Z", json_pack("[o, o]", w,
	    res("HOST-NNP-OFF", "host", "fail", "medium", "host", "m"))), "b");
	mj = finish(m);
	r = find(mj, "HOST-LSM-OFF", "fail", 0);
	assert_non_null(r);
	assert_int_equal(pairs(r), 1);
	assert_string_equal(sget(r, "target"), "host");
	r = find(mj, "HOST-LSM-OFF", "fail", 1);
	assert_non_null(r);
	assert_string_equal(sget(json_object_get(r, "waived"), "reason"),
	    "ticket 7");
	assert_string_equal(sget(json_object_get(json_array_get(
	    json_object_get(r, "targets"), 0), "waived"), "expires"),
	    "2027-01-01");
	assert_int_equal(inum(mj, "summary", "fail"), 3);
	assert_int_equal(inum(mj, "summary", "waived"), 1);
	/* The medium failure is below --fail-on high. */
	assert_int_equal(inum(mj, "summary", "failing_at_or_above"), 1);
	assert_int_equal(inum(mj, "summary", "nodes_failing"), 1);
	json_decref(mj);
	fa_merge_free(m);

	/* --fail-on medium counts it, and node b now fails. */
	m = fa_merge_new(FA_SEV_MEDIUM);
	add_ok(m, report("b", "2026-12-02T09:00:00Z", json_pack("[o]",
	    res("HOST-NNP-OFF", "host", "fail", "medium", "host", "m"))), "b");
	mj = finish(m);
	assert_int_equal(inum(mj, "summary", "failing_at_or_above"), 1);
	assert_string_equal(sget(json_object_get(mj, "summary"), "fail_on"),
	    "medium");
	json_decref(mj);
	fa_merge_free(m);
}

/* Coverage per check and per family; results keep the check order. */
static void
test_coverage(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	json_t *mj, *r, *rep, *fam;

	(void)state;
	add_ok(m, report("a", "2026-12-02T09:00:00Z", json_pack("[o, o, o]",
	    res("IB-MKEY-UNSET", "ib", "fail", "high", "fabric", "x"),
	    res("HOST-TENANCY", "host", "not_applicable", "high", "host",
	    "n/a"), res("HOST-KERNEL-VULN", "host", "pass", "high", "kernel",
	    "ok"))), "a");
	/* b: no IB family at all, its IB check not tested. */
	rep = report("b", "2026-12-02T08:00:00Z", json_pack("[o, o]",
	    res("IB-MKEY-UNSET", "ib", "not_tested", "high", "ib", "no ib"),
	    res("HOST-KERNEL-VULN", "host", "error", "high", "kernel",
	    "bad")));
	assert_int_equal(json_object_set_new(json_object_get(json_object_get(
	    rep, "families"), "ib"), "state", json_string("not_requested")),
	    0);
	add_ok(m, rep, "b");
	/* c: an old report without HOST-TENANCY, two IB targets. */
	add_ok(m, report("c", "2026-12-02T11:00:00Z", json_pack("[o, o]",
	    res("IB-MKEY-UNSET", "ib", "fail", "high", "fabric", "x"),
	    res("IB-MKEY-UNSET", "ib", "not_tested", "high", "local", "y"))),
	    "c");
	mj = finish(m);
	r = find(mj, "IB-MKEY-UNSET", "fail", 0);
	assert_int_equal(pairs(r), 1);
	assert_int_equal(inum(r, "coverage", "decided"), 2);
	assert_int_equal(inum(r, "coverage", "not_tested"), 1);
	assert_int_equal(inum(r, "coverage", "absent"), 0);
	r = find(mj, "HOST-TENANCY", "not_applicable", 0);
	assert_int_equal(inum(r, "coverage", "not_applicable"), 1);
	assert_int_equal(inum(r, "coverage", "absent"), 2);
	r = find(mj, "HOST-KERNEL-VULN", "error", 0);
	assert_int_equal(inum(r, "coverage", "decided"), 1);
	assert_int_equal(inum(r, "coverage", "not_tested"), 1);
	/* Same check ID together, first-seen order: IB, IB, TENANCY... */
	r = json_object_get(mj, "results");
	assert_string_equal(sget(json_array_get(r, 0), "id"), "IB-MKEY-UNSET");
	assert_string_equal(sget(json_array_get(r, 1), "id"), "IB-MKEY-UNSET");
	assert_string_equal(sget(json_array_get(r, 2), "id"), "HOST-TENANCY");
	fam = json_object_get(json_object_get(json_object_get(mj, "merged"),
	    "families"), "ib");
	assert_int_equal(inum(fam, "collected", NULL), 2);
	assert_int_equal(json_array_size(json_object_get(fam,
	    "not_collected")), 1);
	assert_string_equal(sget(json_array_get(json_object_get(fam,
	    "not_collected"), 0), "node"), "b");
	assert_string_equal(sget(json_array_get(json_object_get(fam,
	    "not_collected"), 0), "state"), "not_requested");
	r = json_array_get(json_object_get(json_object_get(mj, "merged"),
	    "nodes"), 1);
	assert_int_equal(json_array_size(json_object_get(r, "families")), 2);
	assert_int_equal(inum(r, "summary", "error"), 1);
	assert_string_equal(sget(json_object_get(mj, "scan"), "started"),
	    "2026-12-02T08:00:00Z");
	assert_string_equal(sget(json_object_get(mj, "scan"), "finished"),
	    "2026-12-02T11:00:00Z");
	assert_int_equal(inum(mj, "summary", "not_applicable"), 1);
	assert_int_equal(inum(mj, "summary", "error"), 1);
	assert_int_equal(inum(mj, "summary", "not_tested"), 1);
	json_decref(mj);
	fa_merge_free(m);
}

/* The same bytes twice, or the same host and start: refused, unchanged. */
static void
test_duplicates(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	json_t *mj, *rep;
	char *why = NULL;

	(void)state;
	add_ok(m, report("a", "2026-12-02T09:00:00Z", json_pack("[o]",
	    res("HOST-LSM-OFF", "host", "fail", "high", "host", "x"))),
	    "first.json");
	assert_int_equal(add(m, report("a", "2026-12-02T09:00:00Z",
	    json_pack("[o]", res("HOST-LSM-OFF", "host", "fail", "high",
	    "host", "x"))), "second.json", &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "same report as first.json"));
	free(why);
	why = NULL;
	rep = report("a", "2026-12-02T09:00:00Z", json_pack("[o]",
	    res("HOST-LSM-OFF", "host", "pass", "high", "host", "y")));
	assert_int_equal(add(m, rep, "third.json", &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "same scan as first.json"));
	assert_non_null(strstr(why, "host a"));
	free(why);
	/* Same host, other start time: two nodes and a warning. */
	add_ok(m, report("a", "2026-12-02T10:00:00Z", json_pack("[o]",
	    res("HOST-LSM-OFF", "host", "fail", "high", "host", "x"))),
	    "fourth.json");
	/* No host: the file names the node, no host/start check. */
	add_ok(m, report(NULL, "2026-12-02T09:00:00Z", json_pack("[o]",
	    res("HOST-LSM-OFF", "host", "fail", "high", "host", "z"))),
	    "nohost.json");
	mj = finish(m);
	assert_int_equal(inum(mj, "merged", "reports"), 3);
	assert_non_null(find(mj, "HOST-LSM-OFF", "fail", 0));
	assert_int_equal(pairs(find(mj, "HOST-LSM-OFF", "fail", 0)), 3);
	assert_null(find(mj, "HOST-LSM-OFF", "pass", 0));
	assert_string_equal(sget(json_array_get(json_object_get(
	    json_object_get(mj, "merged"), "nodes"), 2), "node"),
	    "nohost.json");
	/* Named a#2: no scan id to tell it by. */
	assert_string_equal(sget(json_array_get(json_object_get(
	    json_object_get(mj, "merged"), "nodes"), 1), "node"), "a#2");
	assert_non_null(strstr(json_string_value(json_array_get(
	    json_object_get(json_object_get(mj, "merged"), "warnings"), 0)),
	    "node a has two reports (first.json and fourth.json): they are "
	    "two nodes, both listed; the second is named a#2"));
	json_decref(mj);
	fa_merge_free(m);
}

/* report() with scan.node and scan.id set. */
static json_t *
sched_report(const char *node, const char *host, const char *id,
    const char *started, json_t *results)
{
	json_t *r = report(host, started, results);
	json_t *scan = json_object_get(r, "scan");

	if (node != NULL)
		assert_int_equal(json_object_set_new(scan, "node",
		    json_string(node)), 0);
	if (id != NULL)
		assert_int_equal(json_object_set_new(scan, "id",
		    json_string(id)), 0);
	return r;
}

#define ID1	"0123456789abcdef0123456789abcdef"
#define ID2	"fedcba9876543210fedcba9876543210"
#define ID3	"00000000111111112222222233333333"

/*
 * Identity (issue: duplicate host names abort the merge): two scheduler
 * nodes with one host name and one start second are two nodes; the same
 * scan id twice is one scan; a scheduler name given twice is two nodes
 * told apart by their scan ids.
 */
static void
test_identity(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	const json_t *nodes, *w;
	json_t *mj;
	char *why = NULL;

	(void)state;
	add_ok(m, sched_report("gpu1", "localhost", ID1,
	    "2026-12-02T09:00:00Z", json_pack("[o]", res("HOST-LSM-OFF",
	    "host", "fail", "high", "host", "x"))), "n1.json");
	add_ok(m, sched_report("gpu2", "localhost", ID2,
	    "2026-12-02T09:00:00Z", json_pack("[o]", res("HOST-LSM-OFF",
	    "host", "fail", "high", "host", "x"))), "n2.json");
	/* The same scan id, other bytes: the same scan. */
	assert_int_equal(add(m, sched_report("gpu3", "other", ID2,
	    "2026-12-02T09:05:00Z", json_pack("[]")), "n3.json", &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, "same scan as n2.json (scan id " ID2));
	free(why);
	why = NULL;
	/* gpu1 again, another scan: a second node named by its id. */
	add_ok(m, sched_report("gpu1", "h9", ID3, "2026-12-02T09:07:00Z",
	    json_pack("[]")), "n4.json");
	mj = finish(m);
	nodes = json_object_get(json_object_get(mj, "merged"), "nodes");
	assert_int_equal(json_array_size(nodes), 3);
	assert_string_equal(sget(json_array_get(nodes, 0), "node"), "gpu1");
	assert_string_equal(sget(json_array_get(nodes, 1), "node"), "gpu2");
	assert_string_equal(sget(json_array_get(nodes, 2), "node"),
	    "gpu1#00000000");
	assert_string_equal(sget(json_array_get(nodes, 1), "scan_id"), ID2);
	assert_string_equal(sget(json_array_get(nodes, 1), "scheduler_node"),
	    "gpu2");
	assert_string_equal(sget(json_array_get(nodes, 1), "signature"),
	    "unchecked");
	/* Both localhost failures are kept, one per node. */
	assert_int_equal(pairs(find(mj, "HOST-LSM-OFF", "fail", 0)), 2);
	w = json_object_get(json_object_get(mj, "merged"), "warnings");
	assert_int_equal(json_array_size(w), 2);
	assert_non_null(strstr(json_string_value(json_array_get(w, 0)),
	    "host name localhost is reported by two nodes (gpu1 and gpu2)"));
	assert_non_null(strstr(json_string_value(json_array_get(w, 1)),
	    "node gpu1 has two reports (n1.json and n4.json)"));
	json_decref(mj);
	fa_merge_free(m);
}

static const json_t *
node_entry(const json_t *mj, const char *name)
{
	const json_t *n;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(mj, "merged"),
	    "nodes"), i, n)
		if (strcmp(sget(n, "node"), name) == 0)
			return n;
	return NULL;
}

/*
 * Accounting: expected nodes with a report (by scheduler name, by host,
 * by the host's first label), failed, timed out, missing, rejected and
 * unexpected ones; a report with nothing wrong but unscanned nodes is not
 * complete.
 */
static void
test_accounting(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	const struct fa_merge_src bad = { "n5.json", "00", "bad",
	    "bad signature" };
	const json_t *a, *sum;
	json_t *mj, *r;
	char *why = NULL;
	static const char *const exp[] = { "gpu1", "gpu2", "gpu3", "gpu4",
	    "gpu5", "gpu6", "gpu7" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(exp) / sizeof(exp[0]); i++)
		assert_int_equal(fa_merge_expect(m, exp[i], &why), 0);
	assert_int_equal(fa_merge_expect(m, "gpu1", &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "expected twice"));
	free(why);
	why = NULL;
	assert_int_equal(fa_merge_expect(m, "a b", &why), FA_ERR_INPUT);
	free(why);
	why = NULL;
	assert_int_equal(fa_merge_unscanned(m, "gpu3", "failed",
	    "exit status 2", &why), 0);
	assert_int_equal(fa_merge_unscanned(m, "gpu4", "timed_out",
	    "killed after 600 s", &why), 0);
	assert_int_equal(fa_merge_unscanned(m, "gpu4", "failed", "x", &why),
	    FA_ERR_INPUT);
	free(why);
	why = NULL;
	assert_int_equal(fa_merge_unscanned(m, "gpu9", "lost", "x", &why),
	    FA_ERR_INPUT);
	free(why);
	why = NULL;
	add_ok(m, sched_report("gpu1", "h1", ID1, "2026-12-02T09:00:00Z",
	    json_pack("[o]", res("HOST-LSM-OFF", "host", "pass", "high",
	    "host", "x"))), "n1.json");
	/* No scheduler name: matched by host, then by its first label. */
	add_ok(m, sched_report(NULL, "gpu2", ID2, "2026-12-02T09:00:00Z",
	    json_pack("[]")), "n2.json");
	add_ok(m, sched_report(NULL, "gpu6.cluster.example", ID3,
	    "2026-12-02T09:00:00Z", json_pack("[]")), "n6.json");
	add_ok(m, sched_report("login1", "login1", NULL,
	    "2026-12-02T09:00:00Z", json_pack("[]")), "x.json");
	r = sched_report("gpu5", "h5", NULL, "2026-12-02T09:00:00Z",
	    json_pack("[]"));
	assert_int_equal(fa_merge_reject(m, r, &bad, &why), 0);
	json_decref(r);
	mj = finish(m);
	a = json_object_get(json_object_get(mj, "merged"), "accounting");
	sum = json_object_get(mj, "summary");
	assert_int_equal(inum(a, "expected", NULL), 7);
	assert_int_equal(inum(a, "scanned", NULL), 4);
	assert_int_equal(inum(a, "rejected", NULL), 1);
	assert_int_equal(inum(a, "failed", NULL), 1);
	assert_int_equal(inum(a, "timed_out", NULL), 1);
	assert_int_equal(inum(a, "missing", NULL), 1);
	assert_int_equal(inum(a, "unexpected", NULL), 1);
	assert_int_equal(inum(json_object_get(a, "signatures"), "bad", NULL),
	    1);
	assert_int_equal(inum(json_object_get(a, "signatures"), "unchecked",
	    NULL), 4);
	assert_int_equal(inum(sum, "nodes_not_scanned", NULL), 4);
	assert_true(json_is_false(json_object_get(sum, "complete")));
	assert_int_equal(inum(sum, "nodes", NULL), 4);
	assert_int_equal(inum(mj, "merged", "reports"), 4);
	assert_int_equal(inum(sum, "failing_at_or_above", NULL), 0);
	assert_string_equal(sget(node_entry(mj, "gpu3"), "state"), "failed");
	assert_string_equal(sget(node_entry(mj, "gpu3"), "reason"),
	    "exit status 2");
	assert_string_equal(sget(node_entry(mj, "gpu4"), "state"),
	    "timed_out");
	assert_string_equal(sget(node_entry(mj, "gpu7"), "state"), "missing");
	assert_string_equal(sget(node_entry(mj, "gpu5"), "state"),
	    "rejected");
	assert_true(json_is_true(json_object_get(node_entry(mj,
	    "gpu6.cluster.example"), "expected")));
	assert_true(json_is_false(json_object_get(node_entry(mj, "login1"),
	    "expected")));
	/* The rejected report's results are not merged. */
	assert_int_equal(json_array_size(json_object_get(mj, "results")), 1);
	/* The one-line summary and the text say so. */
	why = fa_merge_summary(mj);
	assert_non_null(strstr(why, "INCOMPLETE: 4 nodes not in this report "
	    "(1 failed, 1 timed out, 1 missing, 1 rejected)"));
	free(why);
	why = fa_merge_txt(mj, 5);
	assert_non_null(strstr(why, "Accounted: 7 expected; 4 scanned, 1 "
	    "rejected, 1 failed, 1 timed out, 1 missing"));
	assert_non_null(strstr(why, "gpu4                     timed_out"));
	free(why);
	json_decref(mj);
	fa_merge_free(m);
}

/* Nothing merged but every node accounted for: still a report. */
static void
test_nothing_scanned(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	json_t *mj;
	char *why = NULL;

	(void)state;
	assert_int_equal(fa_merge_unscanned(m, "gpu1", "timed_out", "hung",
	    &why), 0);
	assert_int_equal(fa_merge_expect(m, "gpu2", &why), 0);
	mj = finish(m);
	assert_int_equal(inum(mj, "merged", "reports"), 0);
	assert_int_equal(inum(json_object_get(mj, "summary"),
	    "nodes_not_scanned", NULL), 2);
	assert_string_equal(sget(json_object_get(json_object_get(mj,
	    "families"), "host"), "state"), "unavailable");
	json_decref(mj);
	fa_merge_free(m);
	/* And with nothing at all, no report. */
	m = fa_merge_new(FA_SEV_HIGH);
	assert_int_equal(fa_merge_finish(m, NOW, &mj, &why), FA_ERR_INPUT);
	free(why);
	fa_merge_free(m);
}

/* Each malformed report is refused with a reason naming the member. */
static void
test_hostile(void **state)
{
	static const struct {
		const char	*json;
		const char	*why;
	} bad[] = {
		{ "[]", "schema" },
		{ "{\"schema\": \"fabaudit-report/3\", \"results\": []}",
		  "schema" },
		{ "{\"schema\": 7, \"results\": []}", "schema" },
		{ "{\"schema\": \"fabaudit-report/1\"}", "no results array" },
		{ "{\"schema\": \"fabaudit-report/1\", \"results\": {}}",
		  "no results array" },
		{ "{\"schema\": \"fabaudit-report/1\", \"evaluation\": "
		  "{\"mode\": \"merge\"}, \"results\": []}",
		  "already a merged" },
		{ "{\"schema\": \"fabaudit-report/1\", \"merged\": 1, "
		  "\"results\": []}", "already a merged" },
		{ "{\"schema\": \"fabaudit-report/1\", \"results\": [7]}",
		  "results[0]: id" },
		{ "{\"schema\": \"fabaudit-report/1\", \"results\": [{\"id\": "
		  "\"HOST-X\", \"family\": \"host\", \"status\": \"fail\", "
		  "\"severity\": \"high\", \"target\": \"t\"}, {\"id\": "
		  "\"host-x\", \"family\": \"host\", \"status\": \"fail\", "
		  "\"severity\": \"high\", \"target\": \"t\"}]}",
		  "results[1]: id" },
		{ "{\"schema\": \"fabaudit-report/1\", \"results\": [{\"id\": "
		  "\"HOST-X\", \"family\": \"host\", \"status\": \"FAIL\", "
		  "\"severity\": \"high\", \"target\": \"t\"}]}",
		  "results[0]: id, family, status" },
		{ "{\"schema\": \"fabaudit-report/1\", \"results\": [{\"id\": "
		  "\"HOST-X\", \"family\": \"host\", \"status\": \"fail\", "
		  "\"severity\": \"urgent\", \"target\": \"t\"}]}",
		  "results[0]" },
		{ "{\"schema\": \"fabaudit-report/1\", \"results\": [{\"id\": "
		  "\"HOST-X\", \"family\": \"disk\", \"status\": \"fail\", "
		  "\"severity\": \"high\", \"target\": \"t\"}]}",
		  "results[0]" },
		{ "{\"schema\": \"fabaudit-report/1\", \"results\": [{\"id\": "
		  "\"HOST-X\", \"family\": \"host\", \"status\": \"fail\", "
		  "\"severity\": \"high\", \"target\": 5}]}", "results[0]" },
		{ "{\"schema\": \"fabaudit-report/1\", \"results\": [{\"id\": "
		  "\"HOST-X\", \"family\": \"host\", \"status\": \"fail\", "
		  "\"severity\": \"high\", \"target\": \"t\", \"target_name\": "
		  "[1]}]}", "results[0]: target_name or reason" },
		{ "{\"schema\": \"fabaudit-report/1\", \"results\": [{\"id\": "
		  "\"HOST-X\", \"family\": \"host\", \"status\": \"fail\", "
		  "\"severity\": \"high\", \"target\": \"t\\u001b[2J\"}, "
		  "{\"id\": \"HOST-X\", \"family\": \"host\", \"status\": "
		  "\"pass\", \"severity\": \"high\", \"target\": "
		  "\"t\\u001b[2J\"}]}",
		  "results[1]: HOST-X on t\\x1b[2J twice" },
	};
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	json_error_t je;
	json_t *j, *out = NULL;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = json_loads(bad[i].json, 0, &je);
		assert_non_null(j);
		why = NULL;
		assert_int_equal(fa_merge_check_report(j, &why), FA_ERR_INPUT);
		if (strstr(why, bad[i].why) == NULL)
			print_error("case %zu: %s\n", i, why);
		assert_non_null(strstr(why, bad[i].why));
		free(why);
		why = NULL;
		assert_int_equal(add(m, j, "bad.json", &why), FA_ERR_INPUT);
		assert_non_null(why);
		free(why);
	}
	/* Nothing was folded in. */
	why = NULL;
	assert_int_equal(fa_merge_finish(m, NOW, &out, &why), FA_ERR_INPUT);
	assert_null(out);
	assert_non_null(strstr(why, "no report"));
	free(why);
	fa_merge_free(m);
	fa_merge_free(NULL);
}

/* Long strings are cut, evidence bounded, secrets redacted. */
static void
test_bounds(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	json_t *mj, *r, *ev, *e;
	char *big = malloc(5000);
	size_t i;

	(void)state;
	assert_non_null(big);
	memset(big, 'a', 4999);
	big[4999] = '\0';
	/* A two-byte character straddles the cut at 1024 bytes. */
	memcpy(big + 1023, "\xc3\xa9", 2);
	r = res("HOST-K8S-TOKEN", "host", "fail", "medium", "tok", big);
	ev = json_object_get(r, "evidence");
	assert_int_equal(json_array_append_new(ev, json_pack("{s:s, s:s, "
	    "s:{s:b, s:s}}", "observation", "o", "field", "token", "value",
	    "secret", 1, "value", "0xdeadbeef")), 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(json_array_append_new(ev, json_pack(
		    "{s:s, s:s, s:I}", "observation", "o", "field", "n",
		    "value", (json_int_t)i)), 0);
	assert_int_equal(json_array_append_new(ev, json_pack("{s:s, s:s, "
	    "s:s}", "observation", "o", "field", "reproduce", "value",
	    "cat /x")), 0);
	assert_int_equal(json_object_set_new(r, "references",
	    json_pack("[s, i, {}, s]", "one", 2, "four")), 0);
	add_ok(m, report(big, "2026-12-02T09:00:00Z", json_pack("[o]", r)),
	    "f");
	/* A reason that differs only past the bound is not another one. */
	big[4000] = 'b';
	add_ok(m, report("other", "2026-12-02T09:00:00Z", json_pack("[o]",
	    res("HOST-K8S-TOKEN", "host", "fail", "medium", "tok", big))),
	    "g");
	free(big);
	mj = finish(m);
	r = json_array_get(json_object_get(mj, "results"), 0);
	assert_int_equal(strlen(sget(r, "reason")), 1023 + 3);
	assert_int_equal(inum(r, "reasons", NULL), 1);
	assert_int_equal(pairs(r), 2);
	assert_string_equal(sget(r, "reason") + 1023, "...");
	/* Alike as bounded: one row of both nodes, the long name cut. */
	assert_int_equal(strlen(json_string_value(json_array_get(
	    json_object_get(json_object_get(json_array_get(json_object_get(r,
	    "targets"), 0), "node_set"), "names"), 0))), 256 + 3);
	ev = json_object_get(r, "evidence");
	/* 32 kept (the reproduce item among them) and a note. */
	assert_int_equal(json_array_size(ev), 33);
	assert_string_equal(sget(json_object_get(json_array_get(ev, 0),
	    "value"), "value"), "<redacted>");
	assert_string_equal(sget(json_array_get(ev, 31), "field"),
	    "reproduce");
	e = json_array_get(ev, 32);
	assert_string_equal(sget(e, "field"), "omitted");
	assert_non_null(strstr(sget(e, "value"), "70 more"));
	assert_int_equal(json_array_size(json_object_get(r, "references")),
	    2);
	/* The secret's value is nowhere in the merged report. */
	big = json_dumps(mj, 0);
	assert_non_null(big);
	assert_null(strstr(big, "deadbeef"));
	free(big);
	json_decref(mj);
	fa_merge_free(m);
}

/* Warnings for mixed versions, catalogues and policies. */
static void
test_warnings(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	json_t *mj, *rep, *w;
	char buf[32];
	int i;

	(void)state;
	for (i = 0; i < 14; i++) {
		snprintf(buf, sizeof(buf), "h%d", i);
		rep = report(buf, "2026-12-02T09:00:00Z", json_pack("[o]",
		    res("HOST-LSM-OFF", "host", "pass", "high", "host", "x")));
		snprintf(buf, sizeof(buf), "0.%d.0", i);
		assert_int_equal(json_object_set_new(json_object_get(rep,
		    "scanned_by"), "version", json_string(i == 0 ? "9.9.9" :
		    buf)), 0);
		assert_int_equal(json_object_set_new(json_object_get(rep,
		    "scan"), "catalogue", json_pack("{s:s, s:b}", "date",
		    i == 1 ? "2026-01-01" : "2026-08-23", "stale", i == 1)),
		    0);
		add_ok(m, rep, "f");
	}
	mj = finish(m);
	w = json_object_get(json_object_get(mj, "merged"), "warnings");
	assert_int_equal(json_array_size(w), 2);
	assert_non_null(strstr(json_string_value(json_array_get(w, 0)),
	    "different fabaudit versions: 9.9.9 (1 report), 0.1.0"));
	assert_non_null(strstr(json_string_value(json_array_get(w, 0)),
	    "... and 4 more"));
	assert_non_null(strstr(json_string_value(json_array_get(w, 1)),
	    "2026-08-23 (13 reports), 2026-01-01 (1 report)"));
	assert_string_equal(sget(json_object_get(json_object_get(mj, "scan"),
	    "catalogue"), "date"), "2026-01-01");
	assert_true(json_is_true(json_object_get(json_object_get(mj,
	    "summary"), "catalogue_stale")));
	json_decref(mj);
	fa_merge_free(m);
}

/* report.txt: bounded target lists, escaping, odd JSON. */
static void
test_txt(void **state)
{
	struct fa_merge *m = fa_merge_new(FA_SEV_HIGH);
	const char *odd[] = { "null", "[]", "{}", "{\"merged\": [], "
	    "\"results\": {}, \"summary\": 3}", "{\"results\": [1, {\"status\":"
	    " 2}, {\"status\": \"fail\", \"severity\": \"weird\", \"targets\": "
	    "[{}, 3], \"coverage\": []}], \"merged\": {\"nodes\": [{}, 1, "
	    "{\"families\": 2, \"summary\": []}], \"families\": {\"ib\": "
	    "{\"not_collected\": [1, {}]}}, \"warnings\": [1]}}" };
	json_error_t je;
	json_t *mj, *j;
	char *txt, name[32];
	size_t i;

	(void)state;
	for (i = 0; i < 30; i++) {
		snprintf(name, sizeof(name), "node\x1b[31m%02zu", i);
		add_ok(m, report(name, "2026-12-02T09:00:00Z", json_pack("[o]",
		    res("HOST-SECCOMP-OFF", "host", "fail", "high", "host",
		    "x"))), name);
	}
	mj = finish(m);
	txt = fa_merge_txt(mj, 20);
	assert_non_null(txt);
	assert_null(strchr(txt, '\x1b'));
	assert_non_null(strstr(txt, "node\\x1b[31m00"));
	assert_non_null(strstr(txt, "30 targets on 30 of 30 nodes"));
	/* One row for the 30 alike, 20 of its nodes named: 00 to 19. */
	assert_non_null(strstr(txt, "\n      30 nodes                 host\n"
	    "        on: node\\x1b[31m00, "));
	assert_non_null(strstr(txt, "node\\x1b[31m19, ... and 10 more\n"));
	assert_non_null(strstr(txt, "Merged 30 nodes: 1 fail (1 at or above "
	    "high and not waived, on 30 nodes; 0 waived)"));
	assert_non_null(strstr(txt, "\n  node\\x1b[31m29 "));
	/* Every node collected every family: no such line. */
	assert_null(strstr(txt, "not collected on"));
	free(txt);
	json_decref(mj);
	fa_merge_free(m);
	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		j = json_loads(odd[i], JSON_DECODE_ANY, &je);
		assert_non_null(j);
		txt = fa_merge_txt(j, 2);
		assert_non_null(txt);
		assert_non_null(strstr(txt, "Merged 0 nodes"));
		free(txt);
		txt = fa_merge_summary(j);
		assert_non_null(txt);
		free(txt);
		json_decref(j);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_dedupe),
		cmocka_unit_test(test_waived),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_accounting),
		cmocka_unit_test(test_nothing_scanned),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_txt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
