/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the observation schema (core/obs_schema.h): the table is
 * well formed (sorted for bsearch, every field named once, a doc for
 * each); the validator refuses an unknown kind, a kind of another family,
 * an undeclared field, a field of another type and a null where none is
 * allowed, and, asked to, a complete observation without a required
 * field, each naming the kind and the field; what was not seen is not
 * typed.  A writer's observation that breaks the schema becomes an error
 * observation saying "fabaudit bug"; the reader refuses it, naming the
 * observation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../core/obs_schema.h"
#include "../../core/snapshot.h"

static void
table_well_formed(void **state)
{
	const struct fa_obs_kind *k;
	const struct fa_obs_field *f, *g;
	size_t n = 0;

	(void)state;
	for (k = fa_obs_kinds; k->name != NULL; k++, n++) {
		if (k != fa_obs_kinds && strcmp(k[-1].name, k->name) >= 0)
			fail_msg("%s is not after %s: the table must be "
			    "sorted", k->name, k[-1].name);
		assert_ptr_equal(fa_obs_kind_find(k->name), k);
		assert_true(k->family >= -1 && k->family < FA_FAM_MAX);
		assert_non_null(k->doc);
		assert_non_null(k->fields);
		for (f = k->fields; f->name != NULL; f++) {
			if (f->doc == NULL || f->doc[0] == '\0')
				fail_msg("%s.%s has no doc", k->name, f->name);
			for (g = k->fields; g != f; g++)
				if (strcmp(g->name, f->name) == 0)
					fail_msg("%s.%s declared twice", k->name,
					    f->name);
		}
	}
	assert_true(n >= 30);
	assert_null(fa_obs_kind_find("ib.nothing"));
	assert_null(fa_obs_kind_find(NULL));
}

/* fa_obs_validate of the JSON text data; its error contains needle. */
static void
expect(const char *kind, enum fa_family fam, enum fa_obs_state st,
    const char *data, unsigned flags, const char *needle)
{
	json_error_t e;
	json_t *d = json_loads(data, 0, &e);
	char *why = NULL;
	int r;

	if (d == NULL)
		fail_msg("bad test JSON %s: %s", data, e.text);
	r = fa_obs_validate(kind, fam, st, d, flags, &why);
	json_decref(d);
	if (needle == NULL) {
		if (r != 0)
			fail_msg("%s %s refused: %s", kind, data,
			    why != NULL ? why : "?");
		return;
	}
	if (r != FA_ERR_INPUT || why == NULL || strstr(why, needle) == NULL)
		fail_msg("%s %s: wanted an error with '%s', got %d (%s)", kind,
		    data, needle, r, why != NULL ? why : "no message");
	free(why);
}

/* ib.local_port: fabric/ib_local.c. */
#define LOCAL	"{\"ca\":\"mlx5_0\",\"port\":1,\"lid\":4,\"sm_lid\":1," \
		"\"node_desc\":\"n\",\"node_type\":\"CA\","		\
		"\"partition_cap\":128,\"port_guid\":\"0x1\","		\
		"\"node_guid\":\"0x2\",\"subnet_prefix\":"			\
		"\"0xfe80000000000000\",\"node_info_answered\":true}"

static void
validate(void **state)
{
	(void)state;
	expect("ib.local_port", FA_FAM_IB, FA_OBS_COMPLETE, LOCAL,
	    FA_VAL_REQUIRED, NULL);
	expect("ib.nothing", FA_FAM_IB, FA_OBS_COMPLETE, "{}", 0,
	    "kind 'ib.nothing' is not one fabaudit declares");
	expect("ib.local_port", FA_FAM_ETH, FA_OBS_COMPLETE, LOCAL, 0,
	    "is of the ib family, not eth");
	expect("ib.local_port", FA_FAM_IB, FA_OBS_COMPLETE,
	    "{\"lid\":4,\"colour\":1}", 0, "field 'colour' is not declared");
	expect("ib.local_port", FA_FAM_IB, FA_OBS_COMPLETE, "{\"lid\":\"4\"}",
	    0, "field lid is a string, not integer");
	expect("ib.local_port", FA_FAM_IB, FA_OBS_COMPLETE, "{\"lid\":null}",
	    0, "field lid is null, not integer");
	/* Required fields: only when asked (a scan's own snapshot). */
	expect("ib.local_port", FA_FAM_IB, FA_OBS_COMPLETE, "{\"lid\":4}", 0,
	    NULL);
	expect("ib.local_port", FA_FAM_IB, FA_OBS_COMPLETE, "{\"lid\":4}",
	    FA_VAL_REQUIRED, "required field");
	expect("ib.local_port", FA_FAM_IB, FA_OBS_INCOMPLETE, "{\"lid\":4}",
	    FA_VAL_REQUIRED, NULL);
	/* Not seen: its data is not typed (a reason says why). */
	expect("ib.local_port", FA_FAM_IB, FA_OBS_NO_RESPONSE,
	    "{\"anything\":[]}", FA_VAL_REQUIRED, NULL);
	expect("ib.nothing", FA_FAM_IB, FA_OBS_NO_RESPONSE, "{}", 0,
	    "not one fabaudit declares");
}

static void
writer_and_reader(void **state)
{
	struct fa_snapshot *s = fa_snapshot_new(), *t = NULL;
	const struct fa_obs *o;
	char *why = NULL;
	json_t *j;

	(void)state;
	assert_non_null(s);
	/* A writer's undeclared field: fabaudit's bug, an error. */
	assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, "x", "ib.local_port",
	    "local", "r", FA_OBS_COMPLETE, NULL, json_pack("{s:i, s:i}",
	    "lid", 4, "colour", 1), &o), 0);
	assert_int_equal(o->state, FA_OBS_ERROR);
	assert_non_null(strstr(o->reason, "fabaudit bug"));
	assert_non_null(strstr(o->reason, "colour"));
	/* Declared: stored as given. */
	assert_int_equal(fa_snapshot_add(s, FA_FAM_IB, "y", "ib.local_port",
	    "local", "r", FA_OBS_COMPLETE, NULL, json_pack("{s:i}", "lid", 4),
	    &o), 0);
	assert_int_equal(o->state, FA_OBS_COMPLETE);
	/* Its snapshot reads back (the error's data is not typed). */
	j = fa_snapshot_to_json(s, 0);
	assert_non_null(j);
	assert_int_equal(fa_snapshot_from_json(j, &t, &why), 0);
	fa_snapshot_free(t);
	/* The same data marked complete is refused, naming it. */
	json_object_set_new(json_array_get(json_object_get(j,
	    "observations"), 0), "state", json_string("complete"));
	assert_int_equal(fa_snapshot_from_json(j, &t, &why), FA_ERR_INPUT);
	assert_non_null(why);
	assert_non_null(strstr(why, "observations[0] (id x): kind "
	    "ib.local_port: field 'colour' is not declared"));
	free(why);
	json_decref(j);
	/* A scan's own check: a complete observation lacking a required
	 * field becomes an error. */
	{
		size_t n = 0;

		assert_int_equal(fa_snapshot_check_required(s, &n), 0);
		assert_int_equal(n, 1);
		assert_int_equal(s->obs[1].state, FA_OBS_ERROR);
		assert_non_null(strstr(s->obs[1].reason, "required field"));
	}
	fa_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_well_formed),
		cmocka_unit_test(validate),
		cmocka_unit_test(writer_and_reader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
