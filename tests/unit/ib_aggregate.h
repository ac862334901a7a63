/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * For the IB check tests: rewrite a snapshot's per-port answers in the
 * grouped form a scan now writes (fabric/ib_sa.c, ib_pkeys_remote.c), so
 * that every test of a check runs on both forms and must give the same
 * verdicts.  Written here from the schema (core/obs_schema.def), not with
 * the writers' code: the complete ib.sa.path_record observations become
 * the destinations of one complete ib.sa.path_table (the existing one,
 * or one made for them), and the remote ib.smp.pkey_table observations
 * read whole become one ib.smp.pkey_tables; in ib.gmp.key_probes, the
 * nodes that did not answer move from nodes[] to quiet[] groups; in
 * ib.topology, a switch's ports 1..N lose the guid and lid that equal
 * its port 0's.  Ports are grouped by equal value (json_equal), in the
 * order they come.
 */
#ifndef FA_TEST_IB_AGGREGATE_H
#define FA_TEST_IB_AGGREGATE_H

#include <jansson.h>
#include <string.h>

/* Set for the second run: every snapshot in the grouped form. */
static int aggregated;

/* Run the tests on per-port snapshots, then on grouped ones (the comma
 * operator orders the runs and the switch; + would not). */
static int ib_failed;
#define IB_RUN_BOTH_FORMS(tests)					\
	(aggregated = 0, ib_failed = cmocka_run_group_tests_name(	\
	"per-port observations", tests, NULL, NULL), aggregated = 1,	\
	ib_failed + cmocka_run_group_tests_name("grouped observations",	\
	tests, NULL, NULL))

/* Add port guid (a string) to the group of groups whose value is v. */
static void
agg_add(json_t *groups, json_t *v, const json_t *guid)
{
	json_t *g, *cmp;
	size_t i;

	json_array_foreach(groups, i, g) {
		cmp = json_deep_copy(g);
		json_object_del(cmp, "port_guids");
		if (json_equal(cmp, v)) {
			json_decref(cmp);
			json_decref(v);
			json_array_append(json_object_get(g, "port_guids"),
			    (json_t *)guid);
			return;
		}
		json_decref(cmp);
	}
	json_object_set_new(v, "port_guids", json_pack("[O]", guid));
	json_array_append_new(groups, v);
}

static int
agg_str_is(const json_t *o, const char *k, const char *v)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s != NULL && strcmp(s, v) == 0;
}

/* ib.gmp.key_probes data d: its unanswered nodes into quiet[]. */
static void
agg_quiet(json_t *d)
{
	json_t *nodes = json_object_get(d, "nodes"), *keep = json_array();
	json_t *quiet, *e, *v;
	const char *st;
	size_t i;

	/* A test's own quiet groups stay, ahead of those made here. */
	quiet = json_is_array(json_object_get(d, "quiet")) ?
	    json_deep_copy(json_object_get(d, "quiet")) : json_array();
	json_array_foreach(nodes, i, e) {
		st = json_string_value(json_object_get(e, "state"));
		if (st == NULL || strcmp(st, "complete") == 0 ||
		    !json_is_string(json_object_get(e, "target"))) {
			json_array_append(keep, e);
			continue;
		}
		v = json_pack("{s:s}", "state", st);
		if (json_object_get(e, "mad_status") != NULL)
			json_object_set(v, "mad_status",
			    json_object_get(e, "mad_status"));
		agg_add(quiet, v, json_object_get(e, "target"));
	}
	/* agg_add() names a group's list port_guids: here, targets. */
	json_array_foreach(quiet, i, e) {
		if (json_object_get(e, "port_guids") == NULL)
			continue;
		json_object_set(e, "targets", json_object_get(e,
		    "port_guids"));
		json_object_del(e, "port_guids");
	}
	if (json_is_array(nodes)) {
		json_object_set_new(d, "nodes", keep);
		json_object_set_new(d, "quiet", quiet);
	} else {
		json_decref(keep);
		json_decref(quiet);
	}
}

/* ib.topology data d: switch ports 1..N without port 0's guid and lid. */
static void
agg_topology(json_t *d)
{
	json_t *n, *p, *p0;
	size_t i, k;
	const char *type;

	json_array_foreach(json_object_get(d, "nodes"), i, n) {
		type = json_string_value(json_object_get(n, "type"));
		if (type == NULL || strcmp(type, "Switch") != 0)
			continue;
		/* Port 0 lends its values only as the first entry. */
		p0 = json_array_get(json_object_get(n, "ports"), 0);
		if (!json_is_integer(json_object_get(p0, "num")) ||
		    json_integer_value(json_object_get(p0, "num")) != 0)
			continue;
		json_array_foreach(json_object_get(n, "ports"), k, p) {
			if (p == p0)
				continue;
			if (json_object_get(p0, "guid") != NULL &&
			    json_equal(json_object_get(p, "guid"),
			    json_object_get(p0, "guid")))
				json_object_del(p, "guid");
			if (json_object_get(p0, "lid") != NULL &&
			    json_equal(json_object_get(p, "lid"),
			    json_object_get(p0, "lid")))
				json_object_del(p, "lid");
		}
	}
}

static void
ib_aggregate(json_t *snap)
{
	json_t *obs = json_object_get(snap, "observations"), *keep, *o, *d;
	json_t *dest = json_array(), *tables = json_array(), *table = NULL;
	json_int_t nd = 0, nt = 0;
	size_t i;

	keep = json_array();
	json_array_foreach(obs, i, o) {
		d = json_object_get(o, "data");
		if (agg_str_is(o, "kind", "ib.gmp.key_probes"))
			agg_quiet(d);
		if (agg_str_is(o, "kind", "ib.topology"))
			agg_topology(d);
		if (agg_str_is(o, "kind", "ib.sa.path_table") &&
		    agg_str_is(o, "state", "complete"))
			table = o;
		if (agg_str_is(o, "kind", "ib.sa.path_record") &&
		    agg_str_is(o, "state", "complete") &&
		    json_object_get(d, "pkeys") != NULL) {
			agg_add(dest, json_pack("{s:O, s:O}", "records",
			    json_object_get(d, "records"), "pkeys",
			    json_object_get(d, "pkeys")),
			    json_object_get(d, "port_guid"));
			nd++;
			continue;
		}
		if (agg_str_is(o, "kind", "ib.smp.pkey_table") &&
		    agg_str_is(o, "state", "complete") &&
		    agg_str_is(d, "role", "remote") &&
		    json_equal(json_object_get(d, "blocks_read"),
		    json_object_get(d, "blocks_total"))) {
			agg_add(tables, json_pack("{s:O, s:I, s:O}", "pkeys",
			    json_object_get(d, "pkeys"), "partition_cap",
			    json_integer_value(json_object_get(d,
			    "partition_cap")), "blocks",
			    json_object_get(d, "blocks_total")),
			    json_object_get(d, "port_guid"));
			nt++;
			continue;
		}
		json_array_append(keep, o);
	}
	if (nd > 0 && table == NULL) {
		table = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:n, s:{s:i, "
		    "s:i, s:b, s:b, s:n, s:i, s:i}}", "id",
		    "ib.sa.path_table#agg", "family", "ib", "kind",
		    "ib.sa.path_table", "target", "sa", "request",
		    "SubnAdmGetTable(PathRecord)", "state", "complete",
		    "reason", "data", "bytes", 0, "records", 0, "complete", 1,
		    "per_port", 0, "why_per_port", "mad_status", 0, "sends", 1);
		json_array_append_new(keep, table);
	}
	if (nd > 0) {
		d = json_object_get(table, "data");
		json_object_set_new(d, "ports", json_integer(nd));
		json_object_set(d, "destinations", dest);
	}
	if (nt > 0)
		json_array_append_new(keep, json_pack("{s:s, s:s, s:s, s:s, "
		    "s:s, s:s, s:n, s:{s:I, s:O}}", "id",
		    "ib.smp.pkey_tables#agg", "family", "ib", "kind",
		    "ib.smp.pkey_tables", "target", "fabric", "request",
		    "SubnGet(P_KeyTable)", "state", "complete", "reason",
		    "data", "ports", nt, "tables", tables));
	json_object_set_new(snap, "observations", keep);
	json_decref(dest);
	json_decref(tables);
}

#endif
