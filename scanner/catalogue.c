/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Finding and loading the host CVE catalogue, and the summary of it that
 * every report carries (scan.catalogue).  The default is the first that
 * exists of: share/fabaudit/host-cves.json beside the executable's bin/
 * (where `make install PREFIX=...` put it, whatever PREFIX the build
 * used: a binary moved with its prefix still finds its own), the
 * compiled-in $(DATADIR)/host-cves.json, and data/host-cves.json beside
 * the build tree (make demo, make check).
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "../core/cvedb.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "../reports/sign.h"
#include "scanner.h"

#ifndef FA_DATADIR
#define FA_DATADIR "/usr/local/share/fabaudit"
#endif

/*
 * rel ("../share/fabaudit/host-cves.json") from the directory holding our
 * executable, resolved; NULL when it does not exist (or on ENOMEM).
 */
static char *
beside_exe(const char *rel)
{
	char exe[PATH_MAX], *dir, *p, *real;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	dir = dirname(exe);
	if ((p = fa_strfmt("%s/%s", dir, rel)) == NULL)
		return NULL;
	real = realpath(p, NULL);
	free(p);
	return real;
}

/*
 * Who vouches for the catalogue's bytes: PATH.sig (a detached signature,
 * as `catalogue build --sign` writes it) checked with the trusted public
 * key at keypath.  With a key, a missing or wrong signature refuses the
 * catalogue (FA_ERR_INPUT, *why); without one, the report says whether a
 * signature was there, unchecked.  *prov: {"sha256", "signature",
 * "signer"}.
 */
static int
provenance(const char *path, const char *buf, size_t len,
    const char *keypath, json_t **prov, char **why)
{
	char sha[65], *sigpath, *sig = NULL, *w = NULL, *desc = NULL;
	const char *state;
	EVP_PKEY *k = NULL;
	size_t sl = 0;
	int r, have;

	if (fa_sha256_hex(buf, len, sha) != 0 ||
	    (sigpath = fa_strfmt("%s.sig", path)) == NULL)
		return FA_ERR_NOMEM;
	have = fa_read_file(sigpath, FA_SIG_MAX_BYTES, &sig, &sl, &w) == 0;
	free(w);
	w = NULL;
	if (keypath == NULL) {
		state = have ? "signed, not verified (no --cve-key given)" :
		    "unsigned";
		r = 0;
	} else if ((r = fa_key_load_public(keypath, &k, &w)) != 0) {
		*why = fa_strfmt("--cve-key %s: %s", keypath, w != NULL ? w :
		    "cannot load the key");
		r = FA_ERR_INPUT;
	} else if (!have) {
		*why = fa_strfmt("%s: no signature (%s) to verify with the "
		    "trusted key %s: refused", path, sigpath, keypath);
		r = FA_ERR_INPUT;
	} else if (fa_verify_buf(k, buf, len, (unsigned char *)sig, sl) !=
	    1) {
		*why = fa_strfmt("%s: the signature %s does not verify with "
		    "the trusted key %s: the catalogue was changed after it "
		    "was signed, or signed by another key; refused", path,
		    sigpath, keypath);
		r = FA_ERR_INPUT;
	} else {
		state = "verified";
		desc = fa_key_describe(k);
	}
	if (r == 0 && (*prov = json_pack("{s:s, s:s, s:s?}", "sha256", sha,
	    "signature", state, "signer", desc)) == NULL)
		r = FA_ERR_NOMEM;
	if (r == FA_ERR_INPUT && *why == NULL)
		r = FA_ERR_NOMEM;
	EVP_PKEY_free(k);
	free(desc);
	free(w);
	free(sig);
	free(sigpath);
	return r;
}

static int
load(const char *path, const char *keypath, json_t **cat, json_t **prov,
    char **why)
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
	/* The signature first: a tampered file is not even parsed. */
	if ((r = provenance(path, buf, len, keypath, prov, why)) != 0) {
		free(buf);
		return r;
	}
	r = fa_cvedb_parse(buf, len, &db, &w);
	free(buf);
	if (r != 0) {
		*why = fa_strfmt("%s: %s", path, w != NULL ? w :
		    fa_strerror(r));
		free(w);
		json_decref(*prov);
		*prov = NULL;
		return r;
	}
	*cat = json_incref(db->json);
	fa_cvedb_free(db);
	return 0;
}

int
fa_load_catalogue(const char *explicit_path, const char *keypath,
    json_t **cat, char **path, json_t **prov, char **why)
{
	const char *def = FA_DATADIR "/host-cves.json";
	char *alt = NULL;

	*cat = NULL;
	*prov = NULL;
	*why = NULL;
	if (explicit_path != NULL) {
		if ((*path = fa_strdup(explicit_path)) == NULL)
			return FA_ERR_NOMEM;
		return load(explicit_path, keypath, cat, prov, why);
	}
	/* The executable's own prefix, then the compiled-in one, then the
	 * build tree; none there: the compiled-in path, to say it is not. */
	if ((alt = beside_exe("../share/fabaudit/host-cves.json")) == NULL &&
	    access(def, F_OK) != 0)
		alt = beside_exe("../data/host-cves.json");
	if (alt == NULL) {
		if ((*path = fa_strdup(def)) == NULL)
			return FA_ERR_NOMEM;
		return load(def, keypath, cat, prov, why);
	}
	*path = alt;
	return load(alt, keypath, cat, prov, why);
}

json_t *
fa_catalogue_meta(json_t *cat, const char *path, const char *why,
    time_t now, const json_t *prov)
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
	m = json_pack("{s:s, s:s, s:o, s:I, s:I, s:b, s:I, s:s?}", "path",
	    path, "date", db->date, "sources", src, "entries",
	    (json_int_t)db->n, "age_days", (json_int_t)age, "stale",
	    fa_cvedb_stale(db, now), "stale_after_days",
	    (json_int_t)FA_CVEDB_STALE_DAYS, "valid_until", db->valid_until);
	fa_cvedb_free(db);
	if (m != NULL && prov != NULL && json_object_update(m,
	    (json_t *)prov) != 0) {
		json_decref(m);
		return NULL;
	}
	return m;
}
