/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Comparing two reports finding by finding (fabaudit diff, scan
 * --baseline): results are matched by check ID and target; in a cluster
 * report (evaluation.mode "merge", reports/merge.h) each merged result is
 * taken apart into its (node, target) pairs and matched by check ID, node
 * and target, so a check that passes on one node and fails on another is
 * two findings, and the diff names the node that changed.  A new failure
 * is a failing result whose match was not failing (or absent); resolved is
 * a failure that no longer fails (or is no longer reported); changed is any
 * other difference of status or severity.  Pure: JSON in, JSON out.
 */
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "diff.h"
#include "report.h"

#define DIFF_MAX_RESULTS	1000000

/* One finding of a merged result: map["ID\tNODE\tTARGET"]; 0 or FA_ERR. */
static int
cluster_pair(json_t *map, const json_t *r, size_t i, const char *node,
    const char *target, char **why)
{
	const char *id = fa_json_get_str(r, "id");
	json_t *f;
	char *key;

	if ((key = fa_strfmt("%s\t%s\t%s", id, node, target)) == NULL)
		return FA_ERR_NOMEM;
	if (json_object_get(map, key) != NULL) {
		free(key);
		*why = fa_strfmt("results[%zu]: %s on node %.64s and one "
		    "target twice", i, id, node);
		return *why != NULL ? FA_ERR_INPUT : FA_ERR_NOMEM;
	}
	f = json_pack("{s:s, s:s++, s:s, s:s, s:s}", "id", id, "target", node,
	    ": ", target, "node", node, "status", fa_json_get_str(r,
	    "status"), "severity", fa_json_get_str(r, "severity"));
	if (f != NULL && json_object_get(r, "waived") != NULL &&
	    json_object_set(f, "waived", json_object_get(r, "waived")) != 0) {
		json_decref(f);
		f = NULL;
	}
	if (f == NULL || json_object_set_new(map, key, f) != 0) {
		free(key);
		return FA_ERR_NOMEM;
	}
	free(key);
	return 0;
}

/*
 * The nodes of a target row with a "node_set" (reports/merge.c): its
 * "names", or the scanned nodes (scanned: name -> true) less its
 * "all_scanned_but"; a new object name -> true, NULL on ENOMEM or when
 * the set is malformed (*bad set).
 */
static json_t *
row_nodes(const json_t *set, const json_t *scanned, int *bad)
{
	const json_t *v, *e;
	json_t *out;
	size_t k;

	*bad = 0;
	if ((out = json_object()) == NULL)
		return NULL;
	if ((v = json_object_get(set, "names")) != NULL) {
		json_array_foreach(v, k, e)
			if (!json_is_string(e) || json_object_set_new(out,
			    json_string_value(e), json_true()) != 0)
				goto bad;
	} else if (json_is_array(v = json_object_get(set,
	    "all_scanned_but"))) {
		if (json_object_update(out, (json_t *)scanned) != 0)
			goto bad;
		json_array_foreach(v, k, e)
			if (!json_is_string(e) || json_object_del(out,
			    json_string_value(e)) != 0)
				goto bad;
	} else
		goto bad;
	if (!json_is_array(v) || (json_int_t)json_object_size(out) !=
	    json_integer_value(json_object_get(set, "count")))
		goto bad;
	return out;
bad:
	*bad = 1;
	json_decref(out);
	return NULL;
}

/*
 * One merged result of a cluster report into map: a finding per (node,
 * target) of its "targets", a row with a node_set standing for each of
 * its nodes (scanned: the report's scanned nodes, name -> true), keyed
 * "ID\tNODE\tTARGET", shown as "NODE: TARGET" with the group's status,
 * severity and waiver.  0, FA_ERR_INPUT (*why) or FA_ERR_NOMEM.
 */
static int
cluster_result(json_t *map, const json_t *r, size_t i,
    const json_t *scanned, char **why)
{
	const char *id = fa_json_get_str(r, "id");
	const char *st = fa_json_get_str(r, "status");
	const char *sev = fa_json_get_str(r, "severity");
	const char *node, *target;
	const json_t *ts = json_object_get(r, "targets"), *t, *set;
	enum fa_status s;
	enum fa_severity v;
	json_t *nodes, *tv;
	size_t k;
	int e, bad;

	if (id == NULL || st == NULL || sev == NULL || !json_is_array(ts) ||
	    !fa_check_id_valid(id) || fa_status_parse(st, &s) != 0 ||
	    fa_severity_parse(sev, &v) != 0)
		return (*why = fa_strfmt("results[%zu]: id, status, severity "
		    "or targets of a merged result missing or invalid", i)) !=
		    NULL ? FA_ERR_INPUT : FA_ERR_NOMEM;
	json_array_foreach(ts, k, t) {
		node = fa_json_get_str(t, "node");
		target = fa_json_get_str(t, "target");
		set = json_object_get(t, "node_set");
		if ((node == NULL && set == NULL) || target == NULL)
			return (*why = fa_strfmt("results[%zu].targets[%zu]: "
			    "node or target missing", i, k)) != NULL ?
			    FA_ERR_INPUT : FA_ERR_NOMEM;
		if (set == NULL) {
			if ((e = cluster_pair(map, r, i, node, target,
			    why)) != 0)
				return e;
			continue;
		}
		if ((nodes = row_nodes(set, scanned, &bad)) == NULL)
			return bad && (*why = fa_strfmt("results[%zu]."
			    "targets[%zu].node_set: malformed, or not the "
			    "report's scanned nodes", i, k)) != NULL ?
			    FA_ERR_INPUT : FA_ERR_NOMEM;
		json_object_foreach(nodes, node, tv)
			if ((e = cluster_pair(map, r, i, node, target,
			    why)) != 0) {
				json_decref(nodes);
				return e;
			}
		json_decref(nodes);
	}
	return 0;
}

/* merged.nodes' scanned ones (no state: an older report), name -> true. */
static json_t *
scanned_nodes(const json_t *report)
{
	const json_t *n;
	const char *st;
	json_t *o = json_object();
	size_t i;

	json_array_foreach(json_object_get(json_object_get(report, "merged"),
	    "nodes"), i, n) {
		st = fa_json_get_str(n, "state");
		if (o == NULL || fa_json_get_str(n, "node") == NULL ||
		    (st != NULL && strcmp(st, "scanned") != 0))
			continue;
		if (json_object_set_new(o, fa_json_get_str(n, "node"),
		    json_true()) != 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

int
fa_diff_index(const json_t *report, json_t **out, char **why)
{
	const char *schema, *id, *target, *st, *sev;
	const json_t *res, *r;
	enum fa_status s;
	enum fa_severity v;
	json_t *map, *scanned = NULL;
	char *key;
	size_t i;
	int cluster, e;

	*out = NULL;
	*why = NULL;
	schema = fa_json_get_str(report, "schema");
	res = json_object_get(report, "results");
	if (!fa_report_schema_ok(schema) ||
	    !json_is_array(res) || json_array_size(res) > DIFF_MAX_RESULTS) {
		*why = fa_strfmt("not a %s or %s report (schema, results)",
		    FA_REPORT_SCHEMA, FA_REPORT_SCHEMA_1);
		return FA_ERR_INPUT;
	}
	if ((map = json_object()) == NULL)
		return FA_ERR_NOMEM;
	cluster = json_is_string(json_object_get(json_object_get(report,
	    "evaluation"), "mode")) && strcmp(fa_json_get_str(json_object_get(
	    report, "evaluation"), "mode"), "merge") == 0;
	if (cluster && (scanned = scanned_nodes(report)) == NULL) {
		json_decref(map);
		return FA_ERR_NOMEM;
	}
	json_array_foreach(res, i, r) {
		if (cluster) {
			if ((e = cluster_result(map, r, i, scanned,
			    why)) != 0) {
				json_decref(scanned);
				json_decref(map);
				return e;
			}
			continue;
		}
		id = fa_json_get_str(r, "id");
		target = fa_json_get_str(r, "target");
		st = fa_json_get_str(r, "status");
		sev = fa_json_get_str(r, "severity");
		if (id == NULL || target == NULL || st == NULL || sev == NULL ||
		    !fa_check_id_valid(id) || fa_status_parse(st, &s) != 0 ||
		    fa_severity_parse(sev, &v) != 0) {
			*why = fa_strfmt("results[%zu]: id, target, status or "
			    "severity missing or invalid", i);
			goto bad;
		}
		if ((key = fa_strfmt("%s\t%s", id, target)) == NULL)
			goto nomem;
		if (json_object_get(map, key) != NULL) {
			free(key);
			*why = fa_strfmt("results[%zu]: %s on one target twice",
			    i, id);
			goto bad;
		}
		if (json_object_set(map, key, (json_t *)r) != 0) {
			free(key);
			goto nomem;
		}
		free(key);
	}
	json_decref(scanned);
	*out = map;
	return 0;
nomem:
	json_decref(map);
	return FA_ERR_NOMEM;
bad:
	json_decref(map);
	return *why != NULL ? FA_ERR_INPUT : FA_ERR_NOMEM;
}

static int
is_fail(const json_t *r)
{
	const char *s = fa_json_get_str(r, "status");

	return s != NULL && strcmp(s, "fail") == 0;
}

static int
same(const json_t *a, const json_t *b)
{
	return json_equal(json_object_get(a, "status"),
	    json_object_get(b, "status")) &&
	    json_equal(json_object_get(a, "severity"),
	    json_object_get(b, "severity"));
}

/*
 * {id, target, [node], status, severity, [was_status, was_severity],
 * waived}; node for a cluster report's finding.
 */
static json_t *
entry(const json_t *n, const json_t *o)
{
	const json_t *r = n != NULL ? n : o;

	return json_pack("{s:O, s:O, s:O?, s:O?, s:O?, s:O?, s:O?, s:b}",
	    "id", json_object_get(r, "id"), "target", json_object_get(r,
	    "target"), "node", json_object_get(r, "node"),
	    "status", n != NULL ? json_object_get(n, "status") : NULL,
	    "severity", n != NULL ? json_object_get(n, "severity") : NULL,
	    "was_status", o != NULL ? json_object_get(o, "status") : NULL,
	    "was_severity", o != NULL ? json_object_get(o, "severity") : NULL,
	    "waived", n != NULL && json_object_get(n, "waived") != NULL);
}

/* Append entry(n, o) to a; 0 or FA_ERR_NOMEM. */
static int
add(json_t *a, const json_t *n, const json_t *o)
{
	return json_array_append_new(a, entry(n, o)) != 0 ? FA_ERR_NOMEM : 0;
}

const char *
fa_diff_class(const json_t *o, const json_t *n)
{
	if (is_fail(n) && !is_fail(o))
		return "new";
	if (o != NULL && !same(o, n))
		return is_fail(o) && !is_fail(n) ? "resolved" : "changed";
	return o != NULL ? "unchanged" : "added";
}

json_t *
fa_diff_compute(const json_t *old, const json_t *new,
    enum fa_severity fail_on)
{
	json_t *nw, *rs, *ch, *out;
	const json_t *o, *n, *e;
	enum fa_severity sv;
	const char *key, *cls;
	size_t unchanged = 0, failing = 0, i;

	nw = json_array();
	rs = json_array();
	ch = json_array();
	out = json_pack("{s:o, s:o, s:o, s:s}", "new_failures", nw,
	    "resolved", rs, "changed", ch, "fail_on",
	    fa_severity_name(fail_on));
	if (out == NULL)
		return NULL;
	json_object_foreach((json_t *)new, key, n) {
		o = json_object_get(old, key);
		cls = fa_diff_class(o, n);
		if ((strcmp(cls, "new") == 0 && add(nw, n, o) != 0) ||
		    (strcmp(cls, "resolved") == 0 && add(rs, n, o) != 0) ||
		    (strcmp(cls, "changed") == 0 && add(ch, n, o) != 0))
			goto nomem;
		if (strcmp(cls, "unchanged") == 0 && is_fail(n))
			unchanged++;
	}
	json_object_foreach((json_t *)old, key, o)
		if (json_object_get(new, key) == NULL && is_fail(o) &&
		    add(rs, NULL, o) != 0)
			goto nomem;
	json_array_foreach(nw, i, e)
		if (!json_is_true(json_object_get(e, "waived")) &&
		    fa_severity_parse(fa_json_get_str(e, "severity"), &sv) ==
		    0 && sv <= fail_on)
			failing++;
	if (json_object_set_new(out, "unchanged_failures",
	    json_integer((json_int_t)unchanged)) != 0 ||
	    json_object_set_new(out, "failing_at_or_above",
	    json_integer((json_int_t)failing)) != 0)
		goto nomem;
	return out;
nomem:
	json_decref(out);
	return NULL;
}

int
fa_diff_annotate(json_t *report, const json_t *old_report, const char *file,
    const char *sha256, enum fa_severity fail_on, size_t *new_failing,
    char **why)
{
	json_t *om = NULL, *nm = NULL, *d = NULL, *r, *base;
	const char *key;
	size_t i;
	int rc;

	*new_failing = 0;
	if ((rc = fa_diff_index(old_report, &om, why)) != 0)
		return rc;
	if ((rc = fa_diff_index(report, &nm, why)) != 0)
		goto out;
	rc = FA_ERR_NOMEM;
	if ((d = fa_diff_compute(om, nm, fail_on)) == NULL)
		goto out;
	json_array_foreach(json_object_get(report, "results"), i, r) {
		char *k = fa_strfmt("%s\t%s", fa_json_get_str(r, "id"),
		    fa_json_get_str(r, "target"));

		if (k == NULL)
			goto out;
		key = fa_diff_class(json_object_get(om, k), r);
		free(k);
		if (json_object_set_new(r, "baseline", json_string(key)) != 0)
			goto out;
	}
	base = json_pack("{s:s, s:s?, s:O, s:O, s:O, s:O, s:O, s:O}",
	    "file", file, "sha256", sha256,
	    "new_failures", json_object_get(d, "new_failures"),
	    "resolved", json_object_get(d, "resolved"),
	    "changed", json_object_get(d, "changed"),
	    "unchanged_failures", json_object_get(d, "unchanged_failures"),
	    "failing_at_or_above", json_object_get(d, "failing_at_or_above"),
	    "fail_on", json_object_get(d, "fail_on"));
	if (base == NULL || json_object_set_new(report, "baseline", base) != 0)
		goto out;
	if (sha256 != NULL && json_object_set_new(report, "previous",
	    json_pack("{s:s, s:s}", "file", file, "sha256", sha256)) != 0)
		goto out;
	*new_failing = (size_t)json_integer_value(json_object_get(d,
	    "failing_at_or_above"));
	rc = 0;
out:
	json_decref(om);
	json_decref(nm);
	json_decref(d);
	return rc;
}
