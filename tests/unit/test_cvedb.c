/*
 * Unit tests for the host CVE catalogue loader (core/cvedb.c): a valid
 * catalogue indexes and matches versions per line; every malformed member
 * is refused with its JSON path; the shipped data/host-cves.json (when the
 * test runs from the source tree) loads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/cvedb.h"
#include "../../core/errors.h"

#define HEAD \
	"{\"format\": 1, \"name\": \"test\", \"date\": \"2026-08-23\"," \
	" \"sources\": [{\"name\": \"runc advisories\"," \
	" \"url\": \"https://github.com/opencontainers/runc/security\"," \
	" \"date\": \"2026-08-20\"}], \"entries\": ["
#define RUNC \
	"{\"id\": \"CVE-2025-31133\", \"component\": \"runc\"," \
	" \"title\": \"maskedPaths /dev/null swap\", \"cvss\": 7.3," \
	" \"cvss_version\": \"4.0\"," \
	" \"advisory\": \"https://github.com/advisories/GHSA-9493-h29p-rfm2\"," \
	" \"affected\": [{\"introduced\": null, \"fixed\": \"1.2.8\"}," \
	" {\"introduced\": \"1.3.0-rc.1\", \"fixed\": \"1.3.3\"}," \
	" {\"introduced\": \"1.4.0-rc.1\", \"fixed\": \"1.4.0-rc.3\"," \
	" \"note\": \"release candidates\"}]," \
	" \"conditions\": [\"malicious-image\"], \"confidence\": \"verified\"}"
#define CTK \
	"{\"id\": \"CVE-2025-23359\", \"component\":" \
	" \"nvidia-container-toolkit\", \"title\": \"compat libs\"," \
	" \"cvss\": null, \"cvss_version\": null," \
	" \"advisory\": \"https://nvidia.custhelp.com/app/answers/detail/" \
	"a_id/5616\", \"affected\": [{\"introduced\": null," \
	" \"fixed\": \"1.17.4\"}], \"conditions\": [\"legacy-mode\"]," \
	" \"reopened_by\": \"allow-cuda-compat-libs-from-container\"," \
	" \"confidence\": \"secondary\", \"note\": \"CDI not affected\"}"

static struct fa_cvedb *
load(const char *text, char **why)
{
	struct fa_cvedb *db = NULL;
	int r;

	*why = NULL;
	r = fa_cvedb_parse(text, strlen(text), &db, why);
	if (r != 0)
		assert_null(db);
	return db;
}

static void
valid_catalogue(void **state)
{
	const struct fa_cve_range *hit;
	const char *err;
	struct fa_cvedb *db;
	char *why;

	(void)state;
	db = load(HEAD RUNC "," CTK "]}", &why);
	assert_null(why);
	assert_non_null(db);
	assert_int_equal(db->n, 2);
	assert_string_equal(db->date, "2026-08-23");
	assert_int_equal(db->entries[0].component, FA_COMP_RUNC);
	assert_int_equal(db->entries[0].nranges, 3);
	assert_true(db->entries[0].cvss > 7.2 && db->entries[0].cvss < 7.4);
	assert_int_equal(db->entries[0].verified, 1);
	assert_int_equal(db->entries[1].verified, 0);
	assert_true(db->entries[1].cvss < 0);
	assert_null(db->entries[1].cvss_version);
	assert_int_equal(db->entries[1].conditions,
	    1u << FA_COND_LEGACY_MODE);
	assert_string_equal(db->entries[1].reopened_by,
	    "allow-cuda-compat-libs-from-container");

	/* Per-line matching, pre-releases included. */
	assert_int_equal(fa_cve_match(&db->entries[0], "1.1.12", &hit, &err),
	    0);
	assert_ptr_equal(hit, &db->entries[0].ranges[0]);
	assert_int_equal(fa_cve_match(&db->entries[0], "1.2.8", &hit, &err), 0);
	assert_null(hit);
	assert_int_equal(fa_cve_match(&db->entries[0], "1.3.2", &hit, &err), 0);
	assert_ptr_equal(hit, &db->entries[0].ranges[1]);
	assert_int_equal(fa_cve_match(&db->entries[0], "1.3.0-rc.1", &hit,
	    &err), 0);
	assert_ptr_equal(hit, &db->entries[0].ranges[1]);
	assert_int_equal(fa_cve_match(&db->entries[0], "1.4.0-rc.2", &hit,
	    &err), 0);
	assert_string_equal(hit->note, "release candidates");
	assert_int_equal(fa_cve_match(&db->entries[0], "1.4.0", &hit, &err), 0);
	assert_null(hit);
	assert_int_equal(fa_cve_match(&db->entries[0], "garbage", &hit, &err),
	    FA_ERR_INPUT);

	/* Age: 101 days from 2026-08-23 to 2026-12-02. */
	assert_int_equal(fa_cvedb_age_days(db, (time_t)1796169600), 101);
	fa_cvedb_free(db);
}

static void
refused(void **state)
{
	static const struct {
		const char *text;
		const char *why;
	} bad[] = {
		{ "[]", "" },
		{ "{\"format\": 1", "line" },
		{ HEAD "]}\n", NULL },	/* valid, empty: checked below */
		{ "{\"format\": 2, \"name\": \"t\", \"date\": \"2026-08-23\","
		  " \"sources\": [], \"entries\": []}", "format" },
		{ "{\"format\": 1, \"name\": \"t\", \"date\": \"2026-02-30\","
		  " \"sources\": [], \"entries\": []}", "date" },
		{ "{\"format\": 1, \"name\": \"t\", \"date\": \"2026-08-23\","
		  " \"sources\": [], \"entries\": [], \"extra\": 1}", "extra" },
		{ "{\"format\": 1, \"name\": \"t\", \"date\": \"2026-08-23\","
		  " \"sources\": [], \"entries\": []}", "sources" },
		{ "{\"format\": 1, \"format\": 1}", "duplicate" },
		{ HEAD "{\"id\": \"CVE-25-1\"}]}", "entries[0]" },
		{ HEAD RUNC "," "{\"id\": \"CVE-2025-1\", \"component\":"
		  " \"runc\"}]}", "entries[1]" },
	};
	struct fa_cvedb *db;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		db = load(bad[i].text, &why);
		if (bad[i].why == NULL) {
			assert_non_null(db);
			assert_int_equal(db->n, 0);
			fa_cvedb_free(db);
			continue;
		}
		if (db != NULL)
			fail_msg("accepted case %zu", i);
		assert_non_null(why);
		if (strstr(why, bad[i].why) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, why,
			    bad[i].why);
		free(why);
	}
}

/* One member of a valid entry replaced: the reason names its path. */
static void
bad_members(void **state)
{
	static const struct {
		const char *from, *to, *why;
	} sub[] = {
		{ "\"CVE-2025-31133\"", "\"GHSA-x\"", "entries[0].id" },
		{ "\"runc\"", "\"crun\"", "entries[0].component" },
		{ "\"1.2.8\"", "\"1.2.8<b>\"", "entries[0].affected[0].fixed" },
		{ "\"1.3.0-rc.1\"", "\"1.3.4\"",
		  "entries[0].affected[1]: introduced" },
		{ "\"4.0\"", "\"2.0\"", "entries[0].cvss" },
		{ "7.3", "11", "entries[0].cvss" },
		{ "\"malicious-image\"", "\"sometimes\"",
		  "entries[0].conditions[0]" },
		{ "\"https://github.com/advisories/GHSA-9493-h29p-rfm2\"",
		  "\"http://example.com\"", "entries[0].advisory" },
		{ "\"verified\"", "\"maybe\"", "entries[0].confidence" },
		{ "maskedPaths", "mask\\u00e9dPaths", "entries[0].title" },
		{ "\"release candidates\"", "\"line\\nbreak\"",
		  "entries[0].affected[2].note" },
		{ "\"conditions\"", "\"condition\"", "entries[0]" },
		{ "\"confidence\": \"verified\"",
		  "\"confidence\": \"verified\", \"mitigated_by\": \"x\"",
		  "feature flags" },
	};
	char text[4096], *p, *why;
	struct fa_cvedb *db;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(text, sizeof(text), "%s", HEAD RUNC "]}");
		assert_non_null(p = strstr(text, sub[i].from));
		n = strlen(sub[i].from);
		memmove(p + strlen(sub[i].to), p + n, strlen(p + n) + 1);
		memcpy(p, sub[i].to, strlen(sub[i].to));
		db = load(text, &why);
		if (db != NULL)
			fail_msg("accepted %s", sub[i].to);
		assert_non_null(why);
		if (strstr(why, sub[i].why) == NULL)
			fail_msg("\"%s\" lacks \"%s\"", why, sub[i].why);
		free(why);
	}
}

/* The catalogue that ships: loads, and says when it was made. */
static void
shipped_catalogue(void **state)
{
	struct fa_cvedb *db = NULL;
	char *buf, *why = NULL;
	size_t len, i;
	FILE *f;
	int comp[FA_COMP_MAX] = { 0 };

	(void)state;
	f = fopen("data/host-cves.json", "r");
	if (f == NULL)
		fail_msg("data/host-cves.json: run from the source tree");
	assert_non_null(buf = malloc(FA_CVEDB_MAX_BYTES));
	len = fread(buf, 1, FA_CVEDB_MAX_BYTES, f);
	fclose(f);
	if (fa_cvedb_parse(buf, len, &db, &why) != 0)
		fail_msg("data/host-cves.json: %s", why);
	free(buf);
	assert_true(db->n >= 20);
	for (i = 0; i < db->n; i++)
		comp[db->entries[i].component]++;
	for (i = 0; i < FA_COMP_MAX; i++)
		if (comp[i] == 0)
			fail_msg("no entry for %s",
			    fa_component_name((enum fa_component)i));
	fa_cvedb_free(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_catalogue),
		cmocka_unit_test(refused),
		cmocka_unit_test(bad_members),
		cmocka_unit_test(shipped_catalogue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
