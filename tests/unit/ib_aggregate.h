/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * For the IB check tests: rewrite a snapshot's per-port answers in the
 * grouped form a scan now writes (fabric/ib_sa.c, ib_pkeys_remote.c), so
 * that every test of a check runs on both forms and must give the same
 * verdicts.  Written here from the schema (core/obs_schema.def), not with
 * the writers' code: the complete ib.sa.path_record observations become
 * the destinations of one complete ib.sa.path_table (the existing one,
 * or one made for them), and the remote ib.smp.pkey_table observations
 * read whole become one ib.smp.pkey_tables.  Ports are grouped by equal
 * value (json_equal), in the order they come.
 */
#ifndef FA_TEST_IB_AGGREGATE_H
#define FA_TEST_IB_AGGREGATE_H

#include <jansson.h>
#include <string.h>

/* Set for the second run: every snapshot in the grouped form. */
static int aggregated;

/* Run the tests on per-port snapshots, then on grouped ones. */
#define IB_RUN_BOTH_FORMS(tests)					\
	(cmocka_run_group_tests_name("per-port observations", tests,	\
	NULL, NULL) + (aggregated = 1,					\
	cmocka_run_group_tests_name("grouped observations", tests, NULL, \
	NULL)))

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
