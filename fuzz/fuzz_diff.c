/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: two report.json files as `fabaudit diff OLD NEW`
 * (scanner/cmd_diff.c) and `check --baseline OLD` read them: jansson's
 * parser (duplicate keys refused), reports/diff.c fa_diff_index of each,
 * fa_diff_compute of the two and fa_diff_annotate of NEW with OLD as its
 * baseline.  The entries of the comparison must have what cmd_diff.c
 * prints (a string id and target, a severity or was_severity).
 *
 * Input: OLD, a NUL byte, NEW (no NUL byte: NEW is OLD again).  The
 * --fail-on severity is the input's length modulo the number of
 * severities.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/errors.h"
#include "../core/model.h"
#include "../core/snapshot.h"
#include "../reports/diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static json_t *
load(const uint8_t *b, size_t len, json_t **map)
{
	json_error_t je;
	json_t *j;
	char *why = NULL;
	int r;

	*map = NULL;
	if ((j = json_loadb((const char *)b, len, JSON_REJECT_DUPLICATES,
	    &je)) == NULL)
		return NULL;
	r = fa_diff_index(j, map, &why);
	if (r != 0) {
		if ((r != FA_ERR_INPUT && r != FA_ERR_NOMEM) || *map != NULL)
			abort();
		free(why);
		json_decref(j);
		return NULL;
	}
	if (why != NULL)
		abort();
	return j;
}

/* What cmd_diff.c's print_entries dereferences. */
static void
check_entries(const json_t *a)
{
	const json_t *e;
	size_t i;

	if (!json_is_array(a))
		abort();
	json_array_foreach(a, i, e)
		if (fa_json_get_str(e, "id") == NULL ||
		    fa_json_get_str(e, "target") == NULL ||
		    (fa_json_get_str(e, "severity") == NULL &&
		    fa_json_get_str(e, "was_severity") == NULL))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	enum fa_severity fail_on = (enum fa_severity)(size % FA_SEV_MAX);
	json_t *old, *new, *om, *nm, *d, *copy;
	char *why = NULL, *s;
	size_t olen = nul != NULL ? (size_t)(nul - data) : size, newf;

	if ((old = load(data, olen, &om)) == NULL)
		return 0;
	new = nul != NULL ? load(nul + 1, size - olen - 1, &nm) :
	    load(data, size, &nm);
	if (new == NULL) {
		json_decref(old);
		json_decref(om);
		return 0;
	}
	if ((d = fa_diff_compute(om, nm, fail_on)) == NULL)
		abort();
	check_entries(json_object_get(d, "new_failures"));
	check_entries(json_object_get(d, "resolved"));
	check_entries(json_object_get(d, "changed"));
	if (nul == NULL && (json_array_size(json_object_get(d,
	    "new_failures")) != 0 || json_array_size(json_object_get(d,
	    "resolved")) != 0 || json_array_size(json_object_get(d,
	    "changed")) != 0))
		abort();	/* a report is the same as itself */
	if ((s = json_dumps(d, JSON_INDENT(2) | JSON_SORT_KEYS)) == NULL)
		abort();
	free(s);
	json_decref(d);
	/* check --baseline OLD on a report like NEW. */
	if ((copy = json_deep_copy(new)) == NULL)
		abort();
	if (fa_diff_annotate(copy, old, "old.json", "00", fail_on, &newf,
	    &why) != 0)
		abort();	/* both were indexed above */
	if ((s = json_dumps(copy, JSON_COMPACT)) == NULL)
		abort();
	free(s);
	free(why);
	json_decref(copy);
	json_decref(om);
	json_decref(nm);
	json_decref(old);
	json_decref(new);
	return 0;
}
