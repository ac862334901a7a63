/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A schema 1 report.json rewritten the way schema 2 states it, written
 * from the schema, not from fabaudit's writer: each check's rationale,
 * remediation, msa_clause and references, as its first result has them,
 * go into the top-level "checks" array (in the order of the first
 * results), and each result loses those equal to its check's.  Renderings
 * of both forms must be the same bytes.
 */
#ifndef FA_TEST_REPORT_SCHEMA2_H
#define FA_TEST_REPORT_SCHEMA2_H

#include <string.h>

#include <jansson.h>

/* A new report (the caller's reference), or NULL. */
static json_t *
report_to_schema2(const json_t *rep1)
{
	static const char *const keys[] = { "rationale", "remediation",
	    "msa_clause", "references" };
	json_t *rep = json_deep_copy(rep1), *checks = json_array(), *r, *c = NULL,
	    *v;
	const char *id;
	size_t i, j, k;

	if (rep == NULL || checks == NULL)
		goto fail;
	json_array_foreach(json_object_get(rep, "results"), i, r) {
		if ((id = json_string_value(json_object_get(r, "id"))) ==
		    NULL)
			continue;
		json_array_foreach(checks, j, c)
			if (strcmp(json_string_value(json_object_get(c, "id")),
			    id) == 0)
				break;
		if (j == json_array_size(checks)) {
			if ((c = json_pack("{s:s}", "id", id)) == NULL ||
			    json_array_append_new(checks, c) != 0)
				goto fail;
			for (k = 0; k < 4; k++)
				if ((v = json_object_get(r, keys[k])) != NULL &&
				    json_object_set(c, keys[k], v) != 0)
					goto fail;
		}
		for (k = 0; k < 4; k++)
			if ((v = json_object_get(r, keys[k])) != NULL &&
			    json_equal(v, json_object_get(c, keys[k])))
				(void)json_object_del(r, keys[k]);
	}
	if (json_object_set_new(rep, "checks", checks) != 0 ||
	    json_object_set_new(rep, "schema",
	    json_string("fabaudit-report/2")) != 0) {
		json_decref(rep);
		return NULL;
	}
	return rep;
fail:
	json_decref(checks);
	json_decref(rep);
	return NULL;
}

#endif
