/*
 * Finding and loading the host CVE catalogue, and the summary of it that
 * every report carries (scan.catalogue).  The default is the installed
 * $(DATADIR)/host-cves.json; a binary run from its build tree (make demo,
 * make check) falls back to data/host-cves.json beside that tree.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/cvedb.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "scanner.h"

#ifndef FA_DATADIR
#define FA_DATADIR "/usr/local/share/fabaudit"
#endif

/* data/host-cves.json next to the build tree holding our executable. */
static char *
build_tree_copy(void)
{
	char exe[PATH_MAX], *dir, *p, *real;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	dir = dirname(exe);
	if ((p = fa_strfmt("%s/../data/host-cves.json", dir)) == NULL ||
	    (real = realpath(p, NULL)) == NULL)
		return p;	/* missing: the caller's access() says so */
	free(p);
	return real;
}

static int
load(const char *path, json_t **cat, char **why)
{
	struct fa_cvedb *db = NULL;
	char *buf = NULL, *w = NULL;
	size_t len;
	int r;

	if ((r = fa_read_file(path, FA_CVEDB_MAX_BYTES, &buf, &len, &w)) != 0) {
		*why = fa_strfmt("%s: %s", path, w != NULL ? w :
		    fa_strerror(r));
		free(w);
		return r;
	}
	r = fa_cvedb_parse(buf, len, &db, &w);
	free(buf);
	if (r != 0) {
		*why = fa_strfmt("%s: %s", path, w != NULL ? w :
		    fa_strerror(r));
		free(w);
		return r;
	}
	*cat = json_incref(db->json);
	fa_cvedb_free(db);
	return 0;
}

int
fa_load_catalogue(const char *explicit_path, json_t **cat, char **path,
    char **why)
{
	const char *def = FA_DATADIR "/host-cves.json";
	char *alt = NULL;

	*cat = NULL;
	*why = NULL;
	if (explicit_path != NULL) {
		if ((*path = fa_strdup(explicit_path)) == NULL)
			return FA_ERR_NOMEM;
		return load(explicit_path, cat, why);
	}
	if (access(def, F_OK) == 0 || (alt = build_tree_copy()) == NULL ||
	    access(alt, F_OK) != 0) {
		free(alt);	/* no build tree next to the executable */
		if ((*path = fa_strdup(def)) == NULL)
			return FA_ERR_NOMEM;
		return load(def, cat, why);
	}
	*path = alt;
	return load(alt, cat, why);
}

json_t *
fa_catalogue_meta(json_t *cat, const char *path, const char *why,
    time_t now)
{
	struct fa_cvedb *db = NULL;
	json_t *m, *src, *s;
	long age;
	size_t i;

	if (cat == NULL)
		return json_pack("{s:s?, s:s}", "path", path, "error",
		    why != NULL ? why : "not loaded");
	/* Validated already; indexed again for the date arithmetic. */
	if (fa_cvedb_from_json(cat, &db, NULL) != 0)
		return NULL;
	age = fa_cvedb_age_days(db, now);
	src = json_array();
	json_array_foreach(json_object_get(cat, "sources"), i, s)
		if (src != NULL && json_array_append_new(src, json_pack(
		    "{s:O?, s:O?, s:O?}", "name", json_object_get(s, "name"),
		    "url", json_object_get(s, "url"), "date",
		    json_object_get(s, "date"))) != 0) {
			json_decref(src);
			src = NULL;
		}
	m = json_pack("{s:s, s:s, s:o, s:I, s:I, s:b, s:I}", "path", path,
	    "date", db->date, "sources", src, "entries", (json_int_t)db->n,
	    "age_days", (json_int_t)age, "stale", age > FA_CVEDB_STALE_DAYS,
	    "stale_after_days", (json_int_t)FA_CVEDB_STALE_DAYS);
	fa_cvedb_free(db);
	return m;
}
