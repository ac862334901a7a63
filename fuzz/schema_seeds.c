/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz seeds made from the observation schema (core/obs_schema.def), not
 * from a fixture: for each kind a snapshot whose complete observation
 * holds every declared field at a value of its type (schema-KIND), one
 * whose complete observation holds only the required ones
 * (schema-KIND-req), each with one observation of every other state; and
 * one snapshot of every kind at once.  The complete observation's target
 * is the one the kind's documentation names (target "fabric"), which the
 * checks look it up by.  So every kind and field reaches the fuzzers,
 * including those no fixture holds, and a field added to the schema
 * becomes a seed with no one writing it.  Built with the fuzz targets
 * (make fuzz-build), run by fuzz/seeds/check.sh and snapwire.sh.  With
 * --wire it writes snapshot files as the acquisition child sends them
 * (core/snapwire.h), for fuzz_snapwire.
 *
 * usage: schema_seeds OUTDIR          writes OUTDIR/schema-KIND, schema-all
 *        schema_seeds --wire OUTDIR SNAPSHOT...   OUTDIR/BASENAME each
 */
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "../core/obs_schema.h"
#include "../core/snapshot.h"
#include "../core/snapwire.h"

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

/* The target k's documentation names (target "X"), else "t". */
static void
target_of(const struct fa_obs_kind *k, char *buf, size_t len)
{
	const char *p = strstr(k->doc, "target \""), *q;

	snprintf(buf, len, "t");
	if (p == NULL || (q = strchr(p + 8, '"')) == NULL ||
	    (size_t)(q - (p + 8)) >= len || memmem(p + 8, (size_t)(q -
	    (p + 8)), "...", 3) != NULL)
		return;
	snprintf(buf, len, "%.*s", (int)(q - (p + 8)), p + 8);
}

/* Add k's observations to s (every field, or the required): 0, or -1. */
static int
add_kind(struct fa_snapshot *s, const struct fa_obs_kind *k, int all)
{
	char target[128];

	static const enum fa_obs_state other[] = { FA_OBS_INCOMPLETE,
	    FA_OBS_NO_RESPONSE, FA_OBS_REJECTED, FA_OBS_ERROR,
	    FA_OBS_NOT_COLLECTED };
	enum fa_family fam = k->family >= 0 ? (enum fa_family)k->family :
	    FA_FAM_IB;
	size_t i;

	target_of(k, target, sizeof(target));
	if (fa_snapshot_add(s, fam, NULL, k->name, target, "seed",
	    FA_OBS_COMPLETE, NULL, data_of(k, all), NULL) != 0 ||
	    fa_snapshot_add(s, fam, NULL, k->name, "t2", "seed",
	    FA_OBS_COMPLETE, NULL, data_of(k, !all), NULL) != 0)
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

/* The snapshot file in as the child's answer, to dir/BASENAME: 0 or -1. */
static int
wire(const char *dir, char *in)
{
	struct fa_snapwire_out w;
	struct fa_snapshot *s = NULL;
	char path[4096], *why = NULL;
	json_error_t e;
	json_t *j;
	int fd, r = -1;

	if ((j = json_load_file(in, 0, &e)) == NULL ||
	    fa_snapshot_from_json(j, &s, &why) != 0 ||
	    snprintf(path, sizeof(path), "%s/%s", dir, basename(in)) >=
	    (int)sizeof(path) ||
	    (fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		goto out;
	if (fa_snapwire_open(&w, fd) != 0) {
		close(fd);
		goto out;
	}
	r = fa_snapwire_end(&w, s, 1, 1) != 0 ? -1 : 0;
out:
	if (r != 0)
		fprintf(stderr, "schema_seeds: %s: %s\n", in, why != NULL ?
		    why : "cannot convert");
	free(why);
	json_decref(j);
	fa_snapshot_free(s);
	return r;
}

int
main(int argc, char **argv)
{
	const struct fa_obs_kind *k;
	struct fa_snapshot *all, *one;
	int rc = 0, i;

	if (argc >= 3 && strcmp(argv[1], "--wire") == 0) {
		for (i = 3; i < argc; i++)
			if (wire(argv[2], argv[i]) != 0)
				rc = 1;
		return rc;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: schema_seeds OUTDIR\n"
		    "       schema_seeds --wire OUTDIR SNAPSHOT...\n");
		return 2;
	}
	if ((all = empty()) == NULL)
		return 1;
	for (k = fa_obs_kinds; k->name != NULL; k++) {
		char name[160];

		if ((one = empty()) == NULL || add_kind(one, k, 1) != 0 ||
		    add_kind(all, k, 1) != 0 || write_snap(one, argv[1],
		    k->name) != 0)
			rc = 1;
		fa_snapshot_free(one);
		snprintf(name, sizeof(name), "%s-req", k->name);
		if ((one = empty()) == NULL || add_kind(one, k, 0) != 0 ||
		    write_snap(one, argv[1], name) != 0)
			rc = 1;
		fa_snapshot_free(one);
	}
	if (write_snap(all, argv[1], "all") != 0)
		rc = 1;
	fa_snapshot_free(all);
	return rc;
}
