/* SPDX-License-Identifier: BSD-2-Clause */
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
		{ "{\"format\": 3, \"name\": \"t\", \"date\": \"2026-08-23\","
		  " \"sources\": [], \"entries\": []}", "format" },
		{ "{\"format\": 1, \"name\": \"t\", \"date\": \"2026-08-23\","
		  " \"valid_until\": \"2027-01-01\", \"sources\": [],"
		  " \"entries\": []}", "need format 2" },
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

/*
 * Format 2: a distribution's verdict per release, judged by Debian
 * ordering.  The facts are DSA-5615-1's: runc's fix for CVE-2024-21626
 * reached bookworm as 1.1.5+ds1-1+deb12u1 and bullseye as
 * 1.0.0~rc93+ds1-5+deb11u3, whose upstream parts (1.1.5, 1.0.0~rc93) are
 * below upstream's fixed 1.1.12.  The trixie and Ubuntu rows are made
 * up, to exercise "not-affected" and "open".
 */
#define HEAD2 \
	"{\"format\": 2, \"name\": \"test\", \"date\": \"2026-08-23\"," \
	" \"valid_until\": \"2026-11-21\", \"sources\": [{\"name\": \"x\"," \
	" \"url\": \"https://security-tracker.debian.org/\"," \
	" \"date\": \"2026-08-20\"}], \"inputs\": [{\"name\": \"t.json\"," \
	" \"kind\": \"debian\", \"sha256\": \"" \
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"," \
	" \"newest\": null}], \"built_by\": \"test\", \"entries\": ["
#define LEAKY \
	"{\"id\": \"CVE-2024-21626\", \"component\": \"runc\"," \
	" \"title\": \"leaky fd\", \"cvss\": 8.6, \"cvss_version\": \"3.1\"," \
	" \"advisory\": \"https://www.debian.org/security/2024/dsa-5615\"," \
	" \"affected\": [{\"introduced\": \"1.0.0-rc93\", \"fixed\":" \
	" \"1.1.12\"}], \"conditions\": [], \"confidence\": \"verified\"," \
	" \"kev\": {\"added\": \"2024-06-01\"}, \"distro\": [" \
	"{\"os\": \"debian\", \"release\": \"bookworm\", \"package\":" \
	" \"runc\", \"status\": \"fixed\", \"fixed\": \"1.1.5+ds1-1+deb12u1\"}," \
	"{\"os\": \"debian\", \"release\": \"bullseye\", \"package\":" \
	" \"runc\", \"status\": \"fixed\"," \
	" \"fixed\": \"1.0.0~rc93+ds1-5+deb11u3\"}," \
	"{\"os\": \"debian\", \"release\": \"trixie\", \"package\":" \
	" \"runc\", \"status\": \"not-affected\", \"fixed\": null}," \
	"{\"os\": \"ubuntu\", \"release\": \"noble\", \"package\":" \
	" \"runc\", \"status\": \"open\", \"fixed\": null}]}"

static void
distro_verdicts(void **state)
{
	static const struct {
		const char *os, *release, *pkg, *ver;
		int verdict;
	} t[] = {
		/* Below, at and above the bookworm fix. */
		{ "debian", "bookworm", "runc", "1.1.5+ds1-1", 1 },
		{ "debian", "bookworm", "runc", "1.1.5+ds1-1+deb12u1", 0 },
		{ "debian", "bookworm", "runc", "1.1.5+ds1-1+deb12u2", 0 },
		{ "debian", "bookworm", "runc", "1.1.5+ds1-1+b1", 1 },
		/* bullseye: a tilde sorts before anything. */
		{ "debian", "bullseye", "runc", "1.0.0~rc93+ds1-5+deb11u2", 1 },
		{ "debian", "bullseye", "runc", "1.0.0~rc93+ds1-5+deb11u3", 0 },
		{ "debian", "bullseye", "runc", "1.0.0+ds1-1", 0 },
		{ "debian", "trixie", "runc", "1.1.12+ds1-1", 0 },
		{ "ubuntu", "noble", "runc", "1.1.12-0ubuntu3", 1 },
		/* No data: unknown, never "not affected". */
		{ "debian", "sid", "runc", "1.1.5+ds1-1", -1 },
		{ "debian", "bookworm", "containerd", "1.6.20~ds1-1", -1 },
	};
	struct fa_cvedb *db;
	const struct fa_cve_distro *hit;
	const char *err;
	char *why;
	size_t i;
	int v;

	(void)state;
	db = load(HEAD2 LEAKY "]}", &why);
	if (db == NULL)
		fail_msg("refused: %s", why);
	assert_int_equal(db->format, 2);
	assert_string_equal(db->valid_until, "2026-11-21");
	assert_int_equal(db->entries[0].ndistro, 4);
	assert_string_equal(db->entries[0].kev_added, "2024-06-01");
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(fa_cve_distro_verdict(&db->entries[0],
		    t[i].os, t[i].release, t[i].pkg, t[i].ver, &v, &hit, &err),
		    0);
		if (v != t[i].verdict)
			fail_msg("%s %s %s %s: %d, wanted %d", t[i].os,
			    t[i].release, t[i].pkg, t[i].ver, v, t[i].verdict);
		assert_true((hit != NULL) == (t[i].verdict >= 0));
	}
	assert_int_equal(fa_cve_distro_verdict(&db->entries[0], "debian",
	    "bookworm", "runc", "not a version", &v, &hit, &err),
	    FA_ERR_INPUT);
	fa_cvedb_free(db);
}

/* Format 2 members refused with their path. */
static void
distro_refused(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ HEAD "{\"id\": \"CVE-2024-21626\", \"component\": \"runc\","
		  " \"title\": \"t\", \"cvss\": null, \"cvss_version\": null,"
		  " \"advisory\": \"https://example.org/a\", \"affected\":"
		  " [{\"introduced\": null, \"fixed\": \"1.1.12\"}],"
		  " \"conditions\": [], \"confidence\": \"verified\","
		  " \"kev\": {\"added\": \"2024-06-01\"}}]}", "need format 2" },
		{ HEAD2 "{\"id\": \"CVE-2024-21626\", \"component\": \"runc\","
		  " \"title\": \"t\", \"cvss\": null, \"cvss_version\": null,"
		  " \"advisory\": \"https://example.org/a\", \"affected\": [],"
		  " \"conditions\": [], \"confidence\": \"verified\","
		  " \"distro\": [{\"os\": \"debian\", \"release\": \"bookworm\","
		  " \"package\": \"runc\", \"status\": \"fixed\","
		  " \"fixed\": null}]}]}", "distro[0].fixed" },
		{ HEAD2 "{\"id\": \"CVE-2025-23266\", \"component\":"
		  " \"nvidia-container-toolkit\", \"title\": \"t\","
		  " \"cvss\": null, \"cvss_version\": null, \"advisory\":"
		  " \"https://example.org/a\", \"affected\": [{\"introduced\":"
		  " null, \"fixed\": \"1.17.5\", \"when\": [\"userns\"]}],"
		  " \"conditions\": [], \"confidence\": \"verified\"}]}",
		  "affected[0].when[0]: not cdi-mode or legacy-mode" },
		{ HEAD2 "{\"id\": \"CVE-2025-23266\", \"component\":"
		  " \"nvidia-container-toolkit\", \"title\": \"t\","
		  " \"cvss\": null, \"cvss_version\": null, \"advisory\":"
		  " \"https://example.org/a\", \"affected\": [{\"introduced\":"
		  " null, \"fixed\": \"1.17.5\", \"when\": \"cdi-mode\"}],"
		  " \"conditions\": [], \"confidence\": \"verified\"}]}",
		  "affected[0].when: not an array of one mode" },
		{ HEAD2 "{\"id\": \"CVE-2024-21626\", \"component\": \"runc\","
		  " \"title\": \"t\", \"cvss\": null, \"cvss_version\": null,"
		  " \"advisory\": \"https://example.org/a\", \"affected\":"
		  " [{\"introduced\": null, \"fixed\": \"1.1.12\","
		  " \"mainline_only\": true}], \"conditions\": [],"
		  " \"confidence\": \"verified\"}]}",
		  "affected[0].mainline_only: a boolean, on kernel entries "
		  "only" },
		{ HEAD2 "{\"id\": \"CVE-2024-21626\", \"component\": \"runc\","
		  " \"title\": \"t\", \"cvss\": null, \"cvss_version\": null,"
		  " \"advisory\": \"https://example.org/a\", \"affected\": [],"
		  " \"conditions\": [], \"confidence\": \"verified\","
		  " \"distro\": [{\"os\": \"Debian\", \"release\": \"bookworm\","
		  " \"package\": \"runc\", \"status\": \"open\","
		  " \"fixed\": null}]}]}", "lower-case" },
		{ HEAD2 "{\"id\": \"CVE-2024-21626\", \"component\": \"runc\","
		  " \"title\": \"t\", \"cvss\": null, \"cvss_version\": null,"
		  " \"advisory\": \"https://example.org/a\", \"affected\": [],"
		  " \"conditions\": [], \"confidence\": \"verified\"}]}",
		  "affected" },
		{ HEAD2 "{\"id\": \"CVE-2024-21626\", \"component\": \"runc\","
		  " \"title\": \"t\", \"cvss\": null, \"cvss_version\": null,"
		  " \"advisory\": \"https://example.org/a\", \"affected\":"
		  " [{\"introduced\": null, \"fixed\": \"1.1.12\"}],"
		  " \"conditions\": [], \"confidence\": \"verified\","
		  " \"kev\": {\"added\": \"2024-13-01\"}}]}", "kev.added" },
	};
	struct fa_cvedb *db;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		db = load(bad[i].text, &why);
		if (db != NULL)
			fail_msg("accepted case %zu", i);
		if (why == NULL || strstr(why, bad[i].why) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i,
			    why != NULL ? why : "(null)", bad[i].why);
		free(why);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_catalogue),
		cmocka_unit_test(refused),
		cmocka_unit_test(bad_members),
		cmocka_unit_test(shipped_catalogue),
		cmocka_unit_test(distro_verdicts),
		cmocka_unit_test(distro_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
