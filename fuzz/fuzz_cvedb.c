/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the host CVE catalogue (data/host-cves.json, or
 * --cve-db FILE) and the version strings it is matched with.
 *
 * Input: a selector byte, then
 *   0 (and 4-255)  the catalogue text: core/cvedb.c fa_cvedb_parse, then
 *                  for every entry fa_cve_match with each range's own
 *                  bounds (an "introduced" below its "fixed" lies in
 *                  the entry) and fa_cvedb_age_days;
 *   1, 2, 3        up to three NUL-separated version strings compared
 *                  under the scheme debian, upstream or kernel
 *                  (core/version.c fa_version_cmp, fa_version_valid,
 *                  fa_version_in_range), which must be an order:
 *                  reflexive, antisymmetric, transitive.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/cvedb.h"
#include "../core/errors.h"
#include "../core/version.h"

#define NVER	3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
sign(int v)
{
	return (v > 0) - (v < 0);
}

static void
catalogue(const uint8_t *data, size_t size)
{
	const struct fa_cve_range *hit;
	const struct fa_cve *e;
	struct fa_cvedb *db = NULL;
	const char *err;
	char *why = NULL;
	size_t i, k;
	int r, c;

	r = fa_cvedb_parse((const char *)data, size, &db, &why);
	if (r != 0) {
		if (db != NULL || (r != FA_ERR_NOMEM && why == NULL))
			abort();
		free(why);
		return;
	}
	if (why != NULL || db == NULL)
		abort();
	(void)fa_cvedb_age_days(db, (time_t)1796200000);
	for (i = 0; i < db->n; i++) {
		e = &db->entries[i];
		(void)fa_component_name(e->component);
		for (k = 0; k < e->nranges; k++) {
			const char *in = e->ranges[k].introduced;
			const char *fx = e->ranges[k].fixed;

			if (fx != NULL && fa_cve_match(e, fx, &hit, &err) !=
			    0)
				abort();	/* validated on load */
			if (in == NULL)
				continue;
			if (fa_cve_match(e, in, &hit, &err) != 0)
				abort();
			if (hit == NULL && (fx == NULL || (fa_version_cmp(
			    fa_component_scheme(e->component), in, fx, &c,
			    NULL) == 0 && c < 0)))
				abort();
		}
	}
	fa_cvedb_free(db);
}

static void
versions(enum fa_ver_scheme sch, const uint8_t *data, size_t size)
{
	char *buf, *v[NVER];
	const char *err;
	int ok[NVER], c[NVER][NVER], in;
	size_t n = 0, i, j, k;

	if ((buf = malloc(size + 1)) == NULL)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	v[n++] = buf;
	for (i = 0; i < size && n < NVER; i++)
		if (buf[i] == '\0')
			v[n++] = buf + i + 1;
	for (i = 0; i < n; i++)
		ok[i] = fa_version_valid(sch, v[i], &err) == 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			if (fa_version_cmp(sch, v[i], v[j], &c[i][j], &err) !=
			    0) {
				if (ok[i] && ok[j])
					abort();
				c[i][j] = 2;	/* not comparable */
				continue;
			}
			if (!ok[i] || !ok[j])
				abort();
			c[i][j] = sign(c[i][j]);
		}
	for (i = 0; i < n; i++) {
		if (ok[i] && c[i][i] != 0)
			abort();
		for (j = 0; j < n; j++) {
			if (!ok[i] || !ok[j])
				continue;
			if (c[i][j] != -c[j][i])
				abort();
			for (k = 0; k < n; k++)
				if (ok[k] && c[i][j] <= 0 && c[j][k] <= 0 &&
				    c[i][k] > 0)
					abort();
		}
	}
	if (n == NVER && fa_version_in_range(sch, v[0], v[1], v[2], &in,
	    &err) == 0 && in != (c[1][0] <= 0 && c[0][2] < 0))
		abort();
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0]) {
	case 1:
		versions(FA_VER_DEBIAN, data + 1, size - 1);
		break;
	case 2:
		versions(FA_VER_UPSTREAM, data + 1, size - 1);
		break;
	case 3:
		versions(FA_VER_KERNEL, data + 1, size - 1);
		break;
	default:
		catalogue(data + 1, size - 1);
		break;
	}
	return 0;
}
