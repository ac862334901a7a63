/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz seeds made from the observation schema (core/obs_schema.def), not
 * from a fixture: for each kind a snapshot with one complete observation
 * holding every declared field at a value of its type, one holding only
 * the required ones, and one of each state but complete; and one snapshot
 * of every kind at once.  So every kind and field reaches the fuzzers,
 * including those no fixture holds, and a field added to the schema
 * becomes a seed with no one writing it.  Built with the fuzz targets
 * (make fuzz-build), run by fuzz/seeds/check.sh and snapwire.sh.
 *
 * usage: schema_seeds OUTDIR   writes OUTDIR/schema-KIND, schema-all
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/obs_schema.h"
#include "../core/snapshot.h"

/* A value of type t for field name (GUIDs and keys as their strings). */
static json_t *
value_of(const struct fa_obs_field *f)
{
	switch (f->type) {
	case FA_FT_STR:
		return json_string(strstr(f->name, "guid") != NULL ||
		    strstr(f->name, "prefix") != NULL || strstr(f->name,
		    "key") != NULL || strncmp(f->name, "cap_", 4) == 0 ?
		    "0x0000000000000001" : "x");
	case FA_FT_INT:
		return json_integer(1);
	case FA_FT_NUM:
		return json_real(1.5);
	case FA_FT_BOOL:
		return json_true();
	case FA_FT_OBJ:
		return json_object();
	case FA_FT_ARR:
		return json_array();
	case FA_FT_SECRET:
		return fa_secret_new(1);
	case FA_FT_ANY:
	default:
		return json_string("x");
	}
}

/* The data of one observation of k: every field, or the required ones. */
static json_t *
data_of(const struct fa_obs_kind *k, int all)
{
	const struct fa_obs_field *f;
	json_t *d = json_object();

	for (f = k->fields; d != NULL && f->name != NULL; f++)
		if ((all || (f->flags & FA_FF_REQ)) &&
		    json_object_set_new(d, f->name, value_of(f)) != 0) {
			json_decref(d);
			return NULL;
		}
	return d;
}

/* Add k's observations to s: 0, or -1 (reported). */
static int
add_kind(struct fa_snapshot *s, const struct fa_obs_kind *k)
{
	static const enum fa_obs_state other[] = { FA_OBS_INCOMPLETE,
	    FA_OBS_NO_RESPONSE, FA_OBS_REJECTED, FA_OBS_ERROR,
	    FA_OBS_NOT_COLLECTED };
	enum fa_family fam = k->family >= 0 ? (enum fa_family)k->family :
	    FA_FAM_IB;
	size_t i;

	if (fa_snapshot_add(s, fam, NULL, k->name, "t", "seed",
	    FA_OBS_COMPLETE, NULL, data_of(k, 1), NULL) != 0 ||
	    fa_snapshot_add(s, fam, NULL, k->name, "t2", "seed",
	    FA_OBS_COMPLETE, NULL, data_of(k, 0), NULL) != 0)
		goto bad;
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (fa_snapshot_add(s, fam, NULL, k->name, "t3", "seed",
		    other[i], "seed", data_of(k, 0), NULL) != 0)
			goto bad;
	return 0;
bad:
	fprintf(stderr, "schema_seeds: %s: cannot add\n", k->name);
	return -1;
}

/* A snapshot with every family collected, or NULL. */
static struct fa_snapshot *
empty(void)
{
	struct fa_snapshot *s = fa_snapshot_new();
	int f;

	for (f = 0; s != NULL && f < FA_FAM_MAX; f++)
		if (fa_snapshot_set_family(s, (enum fa_family)f,
		    FA_FAMST_COLLECTED, NULL) != 0) {
			fa_snapshot_free(s);
			return NULL;
		}
	if (s != NULL && json_object_set_new(s->meta, "scan", json_pack(
	    "{s:s, s:s}", "started", "2026-12-01T00:00:00Z", "finished",
	    "2026-12-01T00:00:01Z")) != 0) {
		fa_snapshot_free(s);
		return NULL;
	}
	return s;
}

/* Write s to dir/name: 0, or -1 (reported). */
static int
write_snap(const struct fa_snapshot *s, const char *dir, const char *name)
{
	char path[4096];
	json_t *j = fa_snapshot_to_json(s, 1);
	int r;

	if (snprintf(path, sizeof(path), "%s/schema-%s", dir, name) >=
	    (int)sizeof(path) || j == NULL) {
		json_decref(j);
		fprintf(stderr, "schema_seeds: %s: cannot write\n", name);
		return -1;
	}
	r = json_dump_file(j, path, JSON_COMPACT);
	json_decref(j);
	if (r != 0)
		fprintf(stderr, "schema_seeds: %s: cannot write\n", path);
	return r == 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	const struct fa_obs_kind *k;
	struct fa_snapshot *all, *one;
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: schema_seeds OUTDIR\n");
		return 2;
	}
	if ((all = empty()) == NULL)
		return 1;
	for (k = fa_obs_kinds; k->name != NULL; k++) {
		if ((one = empty()) == NULL || add_kind(one, k) != 0 ||
		    add_kind(all, k) != 0 || write_snap(one, argv[1],
		    k->name) != 0)
			rc = 1;
		fa_snapshot_free(one);
	}
	if (write_snap(all, argv[1], "all") != 0)
		rc = 1;
	fa_snapshot_free(all);
	return rc;
}
