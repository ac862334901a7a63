/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The merge of advisory feeds into a catalogue (core/cvebuild.c): the
 * trust order and its conflicts, distribution rows, KEV marks, the
 * overlay, the computed date, and a result the loader accepts.  The
 * feeds are built here record by record, as the parsers fill them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/cvebuild.h"
#include "../../core/cvedb.h"
#include "../../core/errors.h"
#include "../../core/util.h"

static struct fa_feed *
feed(enum fa_feed_kind k, const char *name, const char *newest)
{
	struct fa_feed *f = fa_feed_new(k, name, name, strlen(name));

	assert_non_null(f);
	if (newest != NULL)
		assert_int_equal(fa_feed_saw_date(f, newest), 0);
	return f;
}

static struct fa_feed_rec *
rec(struct fa_feed *f, const char *id, enum fa_component c,
    enum fa_feed_trust t)
{
	struct fa_feed_rec *r = fa_feed_add(f);

	assert_non_null(r);
	r->id = fa_strdup(id);
	r->component = c;
	r->trust = t;
	return r;
}

static json_t *
entry(json_t *cat, const char *id)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(cat, "entries"), i, e)
		if (strcmp(json_string_value(json_object_get(e, "id")), id) ==
		    0)
			return e;
	return NULL;
}

static int
run(struct fa_feed **f, size_t n, json_t *overlay, json_t **cat,
    json_t **rep, char **why)
{
	struct fa_cvebuild_in in;

	memset(&in, 0, sizeof(in));
	in.feeds = f;
	in.nfeeds = n;
	in.overlay = overlay;
	in.overlay_name = overlay != NULL ? "overlay.json" : NULL;
	in.overlay_sha256 = overlay != NULL ?
	    "0000000000000000000000000000000000000000000000000000000000000000" :
	    NULL;
	in.valid_days = 90;
	in.built_by = "test";
	*why = NULL;
	return fa_cvebuild(&in, cat, rep, why);
}

/*
 * The vendor's ranges are kept over a reviewed database's and an
 * unreviewed one's that differ, and both differences are reported; the
 * date is the newest input's, never typed.
 */
static void
trust_order(void **state)
{
	struct fa_feed *f[3];
	struct fa_feed_rec *r;
	json_t *cat, *rep, *e;
	char *why;

	(void)state;
	f[0] = feed(FA_FEED_OSV, "vulndb.json", "2026-03-01");
	r = rec(f[0], "CVE-2026-0001", FA_COMP_RUNC, FA_TRUST_UNREVIEWED);
	assert_int_equal(fa_feed_add_range(r, NULL, "1.4.9"), 0);
	f[1] = feed(FA_FEED_OSV, "ghsa.json", "2026-02-01");
	r = rec(f[1], "CVE-2026-0001", FA_COMP_RUNC, FA_TRUST_REVIEWED);
	assert_int_equal(fa_feed_add_range(r, NULL, "1.4.8"), 0);
	r->title = fa_strdup("reviewed title");
	f[2] = feed(FA_FEED_CVE5, "vendor.json", "2026-01-15");
	r = rec(f[2], "CVE-2026-0001", FA_COMP_RUNC, FA_TRUST_VENDOR);
	assert_int_equal(fa_feed_add_range(r, "1.4.0", "1.4.7"), 0);
	assert_int_equal(run(f, 3, NULL, &cat, &rep, &why), 0);
	e = entry(cat, "CVE-2026-0001");
	assert_non_null(e);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(e, "affected"), 0), "fixed")), "1.4.7");
	assert_string_equal(json_string_value(json_object_get(e, "title")),
	    "reviewed title");
	assert_string_equal(json_string_value(json_object_get(e,
	    "confidence")), "verified");
	assert_int_equal(json_array_size(json_object_get(rep, "conflicts")),
	    2);
	assert_string_equal(json_string_value(json_object_get(cat, "date")),
	    "2026-03-01");
	assert_string_equal(json_string_value(json_object_get(cat,
	    "valid_until")), "2026-05-30");
	json_decref(cat);
	json_decref(rep);
	fa_feed_free(f[0]);
	fa_feed_free(f[1]);
	fa_feed_free(f[2]);
}

/*
 * Distribution rows kept per release; two feeds that disagree on one:
 * reported, and neither kept.  A KEV record marks the CVE.  Only an
 * unreviewed source: "secondary".
 */
static void
distro_and_kev(void **state)
{
	struct fa_feed *f[3];
	struct fa_feed_rec *r;
	json_t *cat, *rep, *e;
	char *why;

	(void)state;
	f[0] = feed(FA_FEED_OSV, "vulndb.json", "2024-02-01");
	r = rec(f[0], "CVE-2024-21626", FA_COMP_RUNC, FA_TRUST_UNREVIEWED);
	assert_int_equal(fa_feed_add_range(r, "1.0.0-rc93", "1.1.12"), 0);
	f[1] = feed(FA_FEED_DEBIAN, "tracker.json", NULL);
	r = rec(f[1], "CVE-2024-21626", FA_COMP_RUNC, FA_TRUST_DISTRO);
	assert_int_equal(fa_feed_add_distro(r, "debian", "bookworm", "runc",
	    "1.1.5+ds1-1+deb12u1", "resolved"), 0);
	assert_int_equal(fa_feed_add_distro(r, "debian", "sid", "runc",
	    "1.1.12+ds1-1", "resolved"), 0);
	r = rec(f[1], "CVE-2024-21626", FA_COMP_RUNC, FA_TRUST_DISTRO);
	assert_int_equal(fa_feed_add_distro(r, "debian", "sid", "runc",
	    "1.1.11+ds1-1", "resolved"), 0);
	f[2] = feed(FA_FEED_KEV, "kev.json", "2024-06-01");
	r = rec(f[2], "CVE-2024-21626", FA_COMP_RUNC, FA_TRUST_VENDOR);
	r->kev = 1;
	r->kev_added = fa_strdup("2024-06-01");
	assert_int_equal(run(f, 3, NULL, &cat, &rep, &why), 0);
	e = entry(cat, "CVE-2024-21626");
	assert_non_null(e);
	assert_int_equal(json_array_size(json_object_get(e, "distro")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(e, "distro"), 0), "fixed")),
	    "1.1.5+ds1-1+deb12u1");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    e, "kev"), "added")), "2024-06-01");
	assert_string_equal(json_string_value(json_object_get(e,
	    "confidence")), "secondary");
	assert_int_equal(json_array_size(json_object_get(rep, "conflicts")),
	    1);
	json_decref(cat);
	json_decref(rep);
	fa_feed_free(f[0]);
	fa_feed_free(f[1]);
	fa_feed_free(f[2]);
}

/*
 * The overlay adds conditions to a fed entry, fills ranges no feed gave,
 * makes a whole entry, and is reported; its ranges never replace a
 * feed's.  A CVE no source gave ranges or rows is left out.
 */
static void
overlay(void **state)
{
	struct fa_feed *f[1];
	struct fa_feed_rec *r;
	json_t *cat, *rep, *e, *ov;
	json_error_t je;
	char *why;

	(void)state;
	f[0] = feed(FA_FEED_OSV, "vulndb.json", "2026-03-01");
	r = rec(f[0], "CVE-2026-0001", FA_COMP_RUNC, FA_TRUST_REVIEWED);
	assert_int_equal(fa_feed_add_range(r, NULL, "1.4.7"), 0);
	rec(f[0], "CVE-2026-0002", FA_COMP_RUNC, FA_TRUST_REVIEWED);
	rec(f[0], "CVE-2026-0003", FA_COMP_RUNC, FA_TRUST_REVIEWED);
	ov = json_loads("[{\"id\": \"CVE-2026-0001\", \"component\": \"runc\","
	    " \"conditions\": [\"malicious-image\"], \"affected\":"
	    " [{\"introduced\": null, \"fixed\": \"1.4.9\"}], \"source_url\":"
	    " \"https://example.org/a\"},"
	    " {\"id\": \"CVE-2026-0002\", \"component\": \"runc\","
	    " \"affected\": [{\"introduced\": null, \"fixed\": \"1.4.8\"}],"
	    " \"source_url\": \"https://example.org/b\"},"
	    " {\"id\": \"CVE-2026-0009\", \"component\": \"runc\", \"title\":"
	    " \"t\", \"cvss\": null, \"cvss_version\": null, \"advisory\":"
	    " \"https://example.org/c\", \"affected\": [{\"introduced\": null,"
	    " \"fixed\": \"1.0.0\"}], \"conditions\": [], \"confidence\":"
	    " \"secondary\", \"source_url\": \"https://example.org/c\"}]", 0,
	    &je);
	assert_non_null(ov);
	assert_int_equal(run(f, 1, ov, &cat, &rep, &why), 0);
	e = entry(cat, "CVE-2026-0001");
	assert_string_equal(json_string_value(json_array_get(json_object_get(e,
	    "conditions"), 0)), "malicious-image");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(e, "affected"), 0), "fixed")), "1.4.7");
	assert_non_null(strstr(json_string_value(json_object_get(e, "note")),
	    "https://example.org/a"));
	e = entry(cat, "CVE-2026-0002");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(e, "affected"), 0), "fixed")), "1.4.8");
	assert_non_null(entry(cat, "CVE-2026-0009"));
	assert_null(entry(cat, "CVE-2026-0003"));
	assert_int_equal(json_array_size(json_object_get(rep, "left_out")), 1);
	assert_int_equal(json_array_size(json_object_get(rep,
	    "overlay_used")), 3);
	assert_int_equal(json_array_size(json_object_get(rep, "conflicts")),
	    1);
	json_decref(cat);
	json_decref(rep);
	/* An overlay entry without its source is refused. */
	json_decref(ov);
	ov = json_loads("[{\"id\": \"CVE-2026-0001\", \"component\": \"runc\","
	    " \"conditions\": []}]", 0, &je);
	assert_int_equal(run(f, 1, ov, &cat, &rep, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "source_url"));
	free(why);
	/* ... and so is one the loader refuses (a bad condition). */
	json_decref(ov);
	ov = json_loads("[{\"id\": \"CVE-2026-0001\", \"component\": \"runc\","
	    " \"conditions\": [\"no-such\"], \"source_url\":"
	    " \"https://example.org/a\"}]", 0, &je);
	assert_int_equal(run(f, 1, ov, &cat, &rep, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "conditions"));
	free(why);
	json_decref(ov);
	fa_feed_free(f[0]);
}

/*
 * An overlay entry checked against the vendor's advisory ("verified")
 * is kept over a database's ranges (golang/vulndb maps a CVE to Go
 * modules, not to the product's release lines), never over the vendor's
 * own; both cases are reported.  Its distribution rows and KEV date are
 * added where the feeds had none.
 */
static void
overlay_verified(void **state)
{
	struct fa_feed *f[2];
	struct fa_feed_rec *r;
	json_t *cat, *rep, *ov, *e;
	json_error_t je;
	char *why;

	(void)state;
	f[0] = feed(FA_FEED_OSV, "vulndb.json", "2026-03-01");
	r = rec(f[0], "CVE-2026-0001", FA_COMP_DOCKER, FA_TRUST_REVIEWED);
	assert_int_equal(fa_feed_add_range(r, NULL, NULL), 0);
	f[1] = feed(FA_FEED_CSAF, "nvidia.json", "2026-03-02");
	r = rec(f[1], "CVE-2026-0002", FA_COMP_TOOLKIT, FA_TRUST_VENDOR);
	assert_int_equal(fa_feed_add_range(r, NULL, "1.17.1"), 0);
	ov = json_loads("[{\"id\": \"CVE-2026-0001\", \"component\":"
	    " \"docker\", \"confidence\": \"verified\", \"affected\":"
	    " [{\"introduced\": null, \"fixed\": \"29.3.1\"}],"
	    " \"conditions\": [], \"kev\": {\"added\": \"2026-04-01\"},"
	    " \"source_url\": \"https://example.org/moby\"},"
	    " {\"id\": \"CVE-2026-0002\", \"component\":"
	    " \"nvidia-container-toolkit\", \"confidence\": \"verified\","
	    " \"affected\": [{\"introduced\": null, \"fixed\": \"1.17.3\"}],"
	    " \"conditions\": [], \"source_url\": \"https://example.org/nv\"}]",
	    0, &je);
	assert_non_null(ov);
	assert_int_equal(run(f, 2, ov, &cat, &rep, &why), 0);
	e = entry(cat, "CVE-2026-0001");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(e, "affected"), 0), "fixed")), "29.3.1");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    e, "kev"), "added")), "2026-04-01");
	assert_null(json_object_get(e, "_ranges_trust"));
	e = entry(cat, "CVE-2026-0002");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(e, "affected"), 0), "fixed")), "1.17.1");
	/* The overlay's note argued for 1.17.3: not kept beside 1.17.1. */
	assert_non_null(strstr(json_string_value(json_object_get(e, "note")),
	    "the feeds' affected ranges are kept over the overlay's"));
	assert_int_equal(json_array_size(json_object_get(rep, "conflicts")),
	    2);
	json_decref(cat);
	json_decref(rep);
	json_decref(ov);
	fa_feed_free(f[0]);
	fa_feed_free(f[1]);
}

/*
 * A verified overlay against the vendor's own lines: lines that cut the
 * vendor's at the point its prose names (NVIDIA: "CDI mode only" below
 * 1.17.5) replace them with the mode kept; a branch the vendor's data
 * leaves out (past its end of life) is added; a line that overlaps the
 * vendor's and disagrees is not (the vendor's stands).
 */
static void
overlay_refines_vendor(void **state)
{
	struct fa_feed *f[1];
	struct fa_feed_rec *r;
	json_t *cat, *rep, *ov, *a;
	json_error_t je;
	char *why;

	(void)state;
	f[0] = feed(FA_FEED_CSAF, "nvidia.json", "2026-03-02");
	r = rec(f[0], "CVE-2026-0003", FA_COMP_TOOLKIT, FA_TRUST_VENDOR);
	assert_int_equal(fa_feed_add_range(r, NULL, "1.17.8"), 0);
	r = rec(f[0], "CVE-2026-0004", FA_COMP_DRIVER, FA_TRUST_VENDOR);
	assert_int_equal(fa_feed_add_range(r, "580.0", "580.95.05"), 0);
	r = rec(f[0], "CVE-2026-0005", FA_COMP_TOOLKIT, FA_TRUST_VENDOR);
	assert_int_equal(fa_feed_add_range(r, NULL, "1.17.8"), 0);
	ov = json_loads("[{\"id\": \"CVE-2026-0003\", \"component\":"
	    " \"nvidia-container-toolkit\", \"confidence\": \"verified\","
	    " \"affected\": [{\"introduced\": null, \"fixed\": \"1.17.5\","
	    " \"when\": [\"cdi-mode\"]}, {\"introduced\": \"1.17.5\","
	    " \"fixed\": \"1.17.8\"}], \"conditions\": [],"
	    " \"source_url\": \"https://example.org/a\"},"
	    " {\"id\": \"CVE-2026-0004\", \"component\": \"nvidia-driver\","
	    " \"confidence\": \"verified\", \"affected\": ["
	    " {\"introduced\": \"580\", \"fixed\": \"580.95.05\"},"
	    " {\"introduced\": \"470\", \"fixed\": \"471\"},"
	    " {\"introduced\": \"580.90\", \"fixed\": \"580.99\"}],"
	    " \"conditions\": [], \"source_url\": \"https://example.org/b\"},"
	    " {\"id\": \"CVE-2026-0005\", \"component\":"
	    " \"nvidia-container-toolkit\", \"confidence\": \"verified\","
	    " \"affected\": [{\"introduced\": null, \"fixed\": \"1.17.5\"},"
	    " {\"introduced\": \"1.17.6\", \"fixed\": \"1.17.8\"}],"
	    " \"conditions\": [], \"source_url\": \"https://example.org/c\"}]",
	    0, &je);
	assert_non_null(ov);
	assert_int_equal(run(f, 1, ov, &cat, &rep, &why), 0);
	a = json_object_get(entry(cat, "CVE-2026-0003"), "affected");
	assert_int_equal(json_array_size(a), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
	    json_array_get(a, 0), "when"), 0)), "cdi-mode");
	/* 580: the vendor's line; 470: added; 580.90-580.99: overlaps. */
	a = json_object_get(entry(cat, "CVE-2026-0004"), "affected");
	assert_int_equal(json_array_size(a), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    a, 1), "introduced")), "470.0");
	/* A gap at 1.17.5: not the vendor's versions, the vendor's kept. */
	a = json_object_get(entry(cat, "CVE-2026-0005"), "affected");
	assert_int_equal(json_array_size(a), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    a, 0), "fixed")), "1.17.8");
	assert_int_equal(json_array_size(json_object_get(rep, "conflicts")),
	    2);
	json_decref(cat);
	json_decref(rep);
	json_decref(ov);
	fa_feed_free(f[0]);
}

/* No input with a date: the catalogue's date cannot be known. */
static void
undated(void **state)
{
	struct fa_feed *f[1];
	struct fa_feed_rec *r;
	json_t *cat, *rep;
	char *why;

	(void)state;
	f[0] = feed(FA_FEED_DEBIAN, "tracker.json", NULL);
	r = rec(f[0], "CVE-2024-21626", FA_COMP_RUNC, FA_TRUST_DISTRO);
	assert_int_equal(fa_feed_add_distro(r, "debian", "bookworm", "runc",
	    "1.1.5+ds1-1+deb12u1", "resolved"), 0);
	assert_int_equal(run(f, 1, NULL, &cat, &rep, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "date"));
	free(why);
	fa_feed_free(f[0]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trust_order),
		cmocka_unit_test(distro_and_kev),
		cmocka_unit_test(overlay),
		cmocka_unit_test(overlay_verified),
		cmocka_unit_test(overlay_refines_vendor),
		cmocka_unit_test(undated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
