/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the NVIDIA CSAF 2.0 parser (core/cvefeed_csaf.c): whole
 * advisories from fixtures/cve/csaf/ (read from the source tree, as
 * test_cvedb.c reads data/): a driver bulletin with several Linux
 * branches, vGPU guest rows, a hypervisor and a Windows-only product; a
 * toolkit bulletin; malformed ones, each refused naming the advisory,
 * the CVE and the JSON path.  Small inline advisories test the choice of
 * row per branch and the other refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/cvefeed.h"
#include "../../core/errors.h"

#define DIR	"fixtures/cve/csaf/"
#define CUST	"https://nvidia.custhelp.com/app/answers/detail/a_id/"

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		fail_msg("%s: run from the source tree", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	assert_true((n = ftell(f)) > 0);
	rewind(f);
	assert_non_null(buf = malloc((size_t)n + 1));
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int
parse_file(const char *file, struct fa_feed **f, char **why)
{
	char path[256];
	size_t len;
	char *buf;
	int r;

	snprintf(path, sizeof(path), DIR "%s", file);
	buf = slurp(path, &len);
	*why = NULL;
	r = fa_feed_parse_csaf(buf, len, file, f, why);
	free(buf);
	if (r != 0)
		assert_null(*f);
	return r;
}

static int
parse_text(const char *text, struct fa_feed **f, char **why)
{
	int r;

	*why = NULL;
	r = fa_feed_parse_csaf(text, strlen(text), "inline.json", f, why);
	if (r != 0)
		assert_null(*f);
	return r;
}

/* The record for (cve, branch), or NULL. */
static const struct fa_feed_rec *
find(const struct fa_feed *f, const char *cve, const char *branch)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->v[i].id, cve) == 0 && (branch == NULL ?
		    f->v[i].branch == NULL : f->v[i].branch != NULL &&
		    strcmp(f->v[i].branch, branch) == 0))
			return &f->v[i];
	return NULL;
}

static void
one_range(const struct fa_feed_rec *r, const char *introduced,
    const char *fixed)
{
	assert_non_null(r);
	assert_int_equal(r->nranges, 1);
	if (introduced == NULL)
		assert_null(r->ranges[0].introduced);
	else
		assert_string_equal(r->ranges[0].introduced, introduced);
	if (fixed == NULL)
		assert_null(r->ranges[0].fixed);
	else
		assert_string_equal(r->ranges[0].fixed, fixed);
}

static void
driver_bulletin(void **state)
{
	struct fa_feed *f = NULL;
	const struct fa_feed_rec *r;
	char *why;
	size_t i;

	(void)state;
	if (parse_file("driver-2025-10.json", &f, &why) != 0)
		fail_msg("%s", why);
	assert_int_equal(f->kind, FA_FEED_CSAF);
	assert_string_equal(f->newest, "2025-10-16");
	assert_int_equal(strlen(f->sha256), 64);
	/* 23280: R580, R570, R535; 23282: R570, R580; 23309: Windows */
	assert_int_equal(f->n, 5);
	assert_int_equal(f->skipped, 1);
	one_range(find(f, "CVE-2025-23280", "R580"), "580.0", "580.95.05");
	one_range(find(f, "CVE-2025-23280", "R570"), "570.0", "570.195.03");
	/* the Tesla row wins over the guest row's off-branch 575.274.02 */
	one_range(find(f, "CVE-2025-23280", "R535"), "535.0", "535.274.02");
	one_range(find(f, "CVE-2025-23282", "R570"), "570.0", "570.195.03");
	/* last affected 580.82.07 + fixed 580.95.05 (vGPU 19.2) */
	one_range(find(f, "CVE-2025-23282", "R580"), "580.0", "580.95.05");
	assert_null(find(f, "CVE-2025-23309", NULL));
	for (i = 0; i < f->n; i++) {
		r = &f->v[i];
		assert_int_equal(r->component, FA_COMP_DRIVER);
		assert_int_equal(r->trust, FA_TRUST_VENDOR);
		assert_null(r->alias);
		assert_true(r->cvss == 7.0);
		assert_string_equal(r->cvss_version, "3.1");
		assert_string_equal(r->advisory, CUST "5703");
		assert_string_equal(r->published, "2025-10-09");
		assert_string_equal(r->modified, "2025-10-16");
		assert_non_null(r->title);
		assert_int_equal(r->ndistro, 0);
	}
	fa_feed_free(f);
}

static void
toolkit_bulletin(void **state)
{
	struct fa_feed *f = NULL;
	const struct fa_feed_rec *r;
	char *why;

	(void)state;
	if (parse_file("toolkit-2025-07.json", &f, &why) != 0)
		fail_msg("%s", why);
	assert_string_equal(f->newest, "2025-08-12");
	/* the GPU Operator-only CVE is about another product */
	assert_int_equal(f->n, 2);
	assert_int_equal(f->skipped, 1);
	/* "up to and including 1.17.7" + fixed 1.17.8, and libnvidia-
	 * container's vers:generic/<1.17.8: one range, not two */
	r = find(f, "CVE-2025-23266", NULL);
	one_range(r, NULL, "1.17.8");
	assert_int_equal(r->component, FA_COMP_TOOLKIT);
	assert_int_equal(r->trust, FA_TRUST_VENDOR);
	assert_true(r->cvss == 9.0);
	assert_string_equal(r->advisory, CUST "5659");
	assert_string_equal(r->published, "2025-07-15");
	assert_string_equal(r->modified, "2025-08-12");
	/* first_fixed, and no release_date: the advisory's first date */
	r = find(f, "CVE-2025-23267", NULL);
	one_range(r, NULL, "1.17.8");
	assert_true(r->cvss == 8.5);
	assert_string_equal(r->published, "2025-07-15");
	assert_null(find(f, "CVE-2025-99999", NULL));
	fa_feed_free(f);
}

struct bad {
	const char	*file, *cve, *path, *says;
};

static const struct bad bad_files[] = {
	{ "bad-no-product-tree.json", "-", ": product_tree:", "missing" },
	{ "bad-unresolved-id.json", "CVE-2025-23282",
	  "vulnerabilities[1].product_status.known_affected[2]",
	  "resolves to nothing" },
	{ "bad-phrase.json", "CVE-2025-23266",
	  "product_tree.branches[0].branches[0].branches[0].product.name",
	  "\"Versions 1.17.0 through 1.17.7\"" },
	{ "bad-last-affected-no-fix.json", "CVE-2025-23266",
	  "product_tree.branches[0].branches[0].branches[0].product.name",
	  "cannot state it" },
	{ "bad-off-branch.json", "CVE-2025-23280",
	  "product_tree.branches[0].branches[4].branches[0].product.name",
	  "not on the branch" },
};

static void
malformed_files(void **state)
{
	struct fa_feed *f = NULL;
	char *why, want[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		if (parse_file(bad_files[i].file, &f, &why) != FA_ERR_INPUT)
			fail_msg("%s: accepted", bad_files[i].file);
		assert_non_null(why);
		snprintf(want, sizeof(want), "%s: advisory 5",
		    bad_files[i].file);
		if (strstr(why, want) == NULL ||
		    strstr(why, bad_files[i].cve) == NULL ||
		    strstr(why, bad_files[i].path) == NULL ||
		    strstr(why, bad_files[i].says) == NULL)
			fail_msg("%s: %s", bad_files[i].file, why);
		free(why);
	}
}

/* ---- inline advisories ------------------------------------------------ */

#define DOC(id) \
	"{\"document\": {\"category\": \"csaf_security_advisory\"," \
	" \"csaf_version\": \"2.0\", \"title\": \"t\", \"tracking\":" \
	" {\"id\": \"" id "\", \"current_release_date\": \"2025-01-28\"," \
	" \"initial_release_date\": \"2025-01-16T00:00:00Z\"}},"
#define TREE(kids) \
	" \"product_tree\": {\"branches\": [{\"category\": \"vendor\"," \
	" \"name\": \"NVIDIA\", \"branches\": [" kids "]}]},"
#define ARCH(name, kids) \
	"{\"category\": \"architecture\", \"name\": \"" name "\"," \
	" \"branches\": [" kids "]}"
#define PV(name, phrase, id) \
	"{\"category\": \"product_version\", \"name\": \"" name "\"," \
	" \"product\": {\"name\": \"" phrase "\", \"product_id\": \"" id \
	"\"}}"
#define VULN(cve, aff, fix) \
	"{\"cve\": \"" cve "\", \"product_status\": {\"known_affected\":" \
	" [" aff "], \"fixed\": [" fix "]}}"
#define VULNS(v) " \"vulnerabilities\": [" v "]}"

/* CVE-2024-0150's R570 rows: Tesla 570.86.15, RTX 570.86.16. */
static const char pick_dc[] = DOC("5614") TREE(ARCH("Linux(R570)",
    PV("NVIDIA RTX, Quadro, NVS", "All driver versions prior to 570.86.16",
    "rtx_a") "," PV("NVIDIA RTX, Quadro, NVS", "570.86.16", "rtx_f") ","
    PV("Tesla", "All driver versions prior to 570.86.15", "t_a") ","
    PV("Tesla", "570.86.15", "t_f")))
    VULNS(VULN("CVE-2024-0150", "\"rtx_a\", \"t_a\"",
    "\"rtx_f\", \"t_f\"") "," VULN("CVE-2024-53869", "\"rtx_a\"",
    "\"rtx_f\""));

/* Without a data-center row the highest fix is kept; no fix is highest. */
static const char pick_max[] = DOC("5614") TREE(ARCH("Linux(R570)",
    PV("GeForce", "All driver versions prior to 570.86.15", "g_a") ","
    PV("NVIDIA RTX, Quadro, NVS", "All driver versions prior to 570.86.16",
    "rtx_a") "," PV("Guest driver", "All driver versions", "gd_a")))
    VULNS(VULN("CVE-2024-0150", "\"g_a\", \"rtx_a\"", "") ","
    VULN("CVE-2024-53869", "\"g_a\", \"gd_a\", \"rtx_a\"", ""));

/* CSAF's last_affected status: one version, the last affected. */
static const char last[] = DOC("5582") TREE(ARCH("All",
    PV("NVIDIA Container Toolkit", "v1.16.1", "l") ","
    PV("NVIDIA Container Toolkit", "v1.16.2", "f")))
    VULNS("{\"cve\": \"CVE-2024-0132\", \"product_status\": {"
    "\"last_affected\": [\"l\"], \"fixed\": [\"f\"]}}");

static void
last_affected(void **state)
{
	struct fa_feed *f = NULL;
	char *why;

	(void)state;
	if (parse_text(last, &f, &why) != 0)
		fail_msg("%s", why);
	assert_int_equal(f->n, 1);
	one_range(find(f, "CVE-2024-0132", NULL), NULL, "1.16.2");
	assert_int_equal(f->v[0].component, FA_COMP_TOOLKIT);
	fa_feed_free(f);
}

static void
row_choice(void **state)
{
	struct fa_feed *f = NULL;
	char *why;

	(void)state;
	if (parse_text(pick_dc, &f, &why) != 0)
		fail_msg("%s", why);
	assert_int_equal(f->n, 2);
	one_range(find(f, "CVE-2024-0150", "R570"), "570.0", "570.86.15");
	one_range(find(f, "CVE-2024-53869", "R570"), "570.0", "570.86.16");
	assert_string_equal(f->v[0].advisory, CUST "5614");
	assert_true(f->v[0].cvss < 0);
	assert_null(f->v[0].cvss_version);
	assert_null(f->v[0].title);
	assert_string_equal(f->v[0].published, "2025-01-16");
	fa_feed_free(f);
	f = NULL;
	if (parse_text(pick_max, &f, &why) != 0)
		fail_msg("%s", why);
	assert_int_equal(f->n, 2);
	one_range(find(f, "CVE-2024-0150", "R570"), "570.0", "570.86.16");
	one_range(find(f, "CVE-2024-53869", "R570"), "570.0", NULL);
	fa_feed_free(f);
}

struct badtext {
	const char	*text, *says;
};

static const struct badtext bad_texts[] = {
	{ "{\"document\": ", "inline.json:" },
	{ "[]", "(root): not a JSON object" },
	{ "{\"document\": {\"csaf_version\": \"1.2\"}}", "csaf_version" },
	{ DOC("5614") " \"vulnerabilities\": []}", "product_tree" },
	{ DOC("5614") " \"product_tree\": {}, \"vulnerabilities\": []}",
	  "neither branches" },
	{ DOC("5614") TREE(ARCH("Linux(R570)", PV("Tesla", "1.0", "a")))
	  "\"x\": 1}", "vulnerabilities: missing" },
	{ DOC("5614") TREE(ARCH("Linux(R570)", PV("Tesla", "1.0", "a") ","
	  PV("Tesla", "1.1", "a"))) VULNS(""), "product_id given twice" },
	{ DOC("5614") TREE(ARCH("FreeBSD(R570)",
	  PV("Tesla", "Versions prior to 570.86.15", "a")))
	  VULNS(VULN("CVE-2024-0150", "\"a\"", "")),
	  "branch name \"FreeBSD(R570)\"" },
	{ DOC("5614") TREE(ARCH("Linux",
	  PV("Tesla", "Versions prior to 570.86.15", "a")))
	  VULNS(VULN("CVE-2024-0150", "\"a\"", "")), "names no branch" },
	{ DOC("5614") TREE(ARCH("Linux(R570)",
	  PV("Tesla", "Versions prior to 570.86.15", "a")))
	  VULNS(VULN("CVE-24-0150", "\"a\"", "")), "not a CVE ID" },
	{ DOC("5614") TREE(ARCH("Linux(R570)",
	  PV("Tesla", "Versions prior to 570.86.15", "a")))
	  VULNS(VULN("CVE-2024-0150", "\"a\"", "\"zz\"")),
	  "product_status.fixed[0]: product_id resolves to nothing" },
	{ DOC("5614") TREE(ARCH("Linux(R570)",
	  PV("Tesla", "Versions prior to 570.86.15", "a") ","
	  PV("Tesla", "570.86.15", "b") "," PV("Tesla", "570.86.16", "c")))
	  VULNS(VULN("CVE-2024-0150", "\"a\"", "\"b\", \"c\"")),
	  "several fixed products" },
	{ DOC("5614") " \"product_tree\": {\"full_product_names\": [{"
	  "\"name\": \"NVIDIA Container Toolkit 1.17.3\", \"product_id\":"
	  " \"a\"}]}," VULNS(VULN("CVE-2024-0132", "\"a\"", "")),
	  "full_product_names[0]: a covered product named without" },
	{ DOC("5582") TREE(ARCH("All",
	  PV("NVIDIA Container Toolkit", "v1.16.1", "l")))
	  VULNS("{\"cve\": \"CVE-2024-0132\", \"product_status\": {"
	  "\"first_affected\": [\"l\"]}}"),
	  "product_status.first_affected[0]: first_affected is not read" },
	{ DOC("5582") TREE(ARCH("All",
	  PV("NVIDIA Container Toolkit", "v1.16.1", "l")))
	  VULNS("{\"cve\": \"CVE-2024-0132\", \"product_status\": {"
	  "\"last_affected\": [\"l\"]}}"), "cannot state it" },
	{ DOC("5614") TREE(ARCH("Linux(R570)",
	  PV("Tesla", "Versions prior to 570.86.15", "a")))
	  VULNS(VULN("CVE-2024-0150", "7", "")),
	  "known_affected[0]: not a string" },
};

static void
malformed_texts(void **state)
{
	struct fa_feed *f = NULL;
	char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_texts) / sizeof(bad_texts[0]); i++) {
		if (parse_text(bad_texts[i].text, &f, &why) != FA_ERR_INPUT)
			fail_msg("%zu: accepted", i);
		if (why == NULL || strstr(why, bad_texts[i].says) == NULL)
			fail_msg("%zu: %s", i, why);
		free(why);
	}
}

/* A hypervisor's or Windows' rows, and other products, are counted. */
static const char others[] = DOC("ABC-1") " \"product_tree\":"
    " {\"full_product_names\": [{\"name\": \"NVIDIA GPU Operator 24.6.1\","
    " \"product_id\": \"op\"}], \"branches\": [{\"category\": \"vendor\","
    " \"name\": \"NVIDIA\", \"branches\": ["
    ARCH("Windows(R570)", PV("Tesla", "Versions prior to 572.13", "w")) ","
    ARCH("XenServer, VMware vSphere(R570 vGPU 18)",
    PV("Virtual GPU Manager", "anything at all", "h"))
    "]}]}," VULNS(VULN("CVE-2025-0001", "\"w\", \"h\"", "") ","
    "{\"product_status\": {\"known_affected\": [\"op\"]}}");

static void
other_products(void **state)
{
	struct fa_feed *f = NULL;
	char *why;

	(void)state;
	if (parse_text(others, &f, &why) != 0)
		fail_msg("%s", why);
	assert_int_equal(f->n, 0);
	assert_int_equal(f->skipped, 2);
	fa_feed_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(driver_bulletin),
		cmocka_unit_test(toolkit_bulletin),
		cmocka_unit_test(malformed_files),
		cmocka_unit_test(last_affected),
		cmocka_unit_test(row_choice),
		cmocka_unit_test(malformed_texts),
		cmocka_unit_test(other_products),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
