/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where a result's check texts are in a report.json.  Schema 1 gave each
 * result its check's rationale, remediation, msa_clause and references;
 * schema 2 states them once per check, in the top-level "checks" array,
 * and a result carries only those of its own (a merge writes them in its
 * results).  A reader asks here, and reads both.
 */
#include <string.h>

#include "report.h"

int
fa_report_schema_ok(const char *schema)
{
	return schema != NULL && (strcmp(schema, FA_REPORT_SCHEMA) == 0 ||
	    strcmp(schema, FA_REPORT_SCHEMA_1) == 0);
}

const json_t *
fa_report_check(const json_t *report, const char *id)
{
	const json_t *c;
	const char *cid;
	size_t i;

	if (id == NULL)
		return NULL;
	/* A few dozen checks: a walk, not an index. */
	json_array_foreach(json_object_get(report, "checks"), i, c) {
		cid = json_string_value(json_object_get(c, "id"));
		if (cid != NULL && strcmp(cid, id) == 0)
			return c;
	}
	return NULL;
}

const json_t *
fa_report_text(const json_t *report, const json_t *result, const char *key)
{
	const json_t *v = json_object_get(result, key);

	if (v != NULL)
		return v;
	return json_object_get(fa_report_check(report,
	    json_string_value(json_object_get(result, "id"))), key);
}
