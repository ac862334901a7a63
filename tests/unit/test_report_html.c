/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for report.html (reports/report_html.c): hostile strings in
 * every field the page renders, wrong-typed and missing fields, the size
 * caps, and the wording of the verdict and the annex.  The page is parsed
 * back with libxml2's HTML parser to check its tree: no active element, no
 * event-handler attribute, no link but in-page anchors and http(s), the one
 * style element ours.  (tests/report/test_html.sh checks a browser's view.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "../../core/errors.h"
#include "../../reports/report.h"
#include "report_schema2.h"

#define XSS_SCRIPT	"<script>alert(1)</script>"
#define XSS_ATTR	"\"><img src=x onerror=alert(1)>"
#define XSS_STYLE	"</style><script>alert(2)</script>"
#define XSS_QUOTE	"'\"&amp;<b>&"
#define CTRL		"ctl\x01\x1b[2J\x7f\xc2\x85" "end"
#define BIDI		"abc\xe2\x80\xae" "cba"	/* U+202E RLO */

static const char *const hostile[] = {
	XSS_SCRIPT, XSS_ATTR, XSS_STYLE, XSS_QUOTE, CTRL, BIDI,
};

/* --- rendering and parsing back --- */

struct page {
	char		*buf;
	size_t		 len;
	htmlDocPtr	 doc;
	char		*text;	/* the body's text content */
};

static void
render(const json_t *rep, struct page *pg)
{
	char *why = NULL;
	xmlNodePtr root;
	xmlChar *t;

	memset(pg, 0, sizeof(*pg));
	assert_int_equal(fa_report_html(rep, &pg->buf, &pg->len, &why), 0);
	assert_null(why);
	assert_non_null(pg->buf);
	assert_int_equal(strlen(pg->buf), pg->len);
	pg->doc = htmlReadMemory(pg->buf, (int)pg->len, NULL, "UTF-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	assert_non_null(pg->doc);
	root = xmlDocGetRootElement(pg->doc);
	assert_non_null(root);
	t = xmlNodeGetContent(root);
	assert_non_null(t);
	pg->text = strdup((const char *)t);
	xmlFree(t);
	assert_non_null(pg->text);
}

static void
page_free(struct page *pg)
{
	free(pg->buf);
	free(pg->text);
	xmlFreeDoc(pg->doc);
}

/* Strict UTF-8 (RFC 3629) with no control byte but newline. */
static void
assert_clean_bytes(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n, k;
	uint32_t c;

	while (i < len) {
		if (p[i] < 0x80) {
			assert_true(p[i] == '\n' || (p[i] >= 0x20 &&
			    p[i] < 0x7f));
			i++;
			continue;
		}
		if (p[i] >= 0xc2 && p[i] <= 0xdf)
			n = 1, c = p[i] & 0x1f;
		else if (p[i] >= 0xe0 && p[i] <= 0xef)
			n = 2, c = p[i] & 0x0f;
		else {
			assert_true(p[i] >= 0xf0 && p[i] <= 0xf4);
			n = 3, c = p[i] & 0x07;
		}
		assert_true(i + n < len);
		for (k = 1; k <= n; k++) {
			assert_int_equal(p[i + k] & 0xc0, 0x80);
			c = c << 6 | (p[i + k] & 0x3f);
		}
		assert_false(c >= 0xd800 && c <= 0xdfff);
		assert_true(c <= 0x10ffff);
		assert_false(c >= 0x80 && c <= 0x9f);
		i += n + 1;
	}
}

static int
prefixed(const xmlChar *s, const char *pre)
{
	return strncasecmp((const char *)s, pre, strlen(pre)) == 0;
}

/* Walk the tree: nothing active, nothing fetched, the one style ours. */
static void
assert_inert(xmlNodePtr n, int *styles)
{
	static const char *const banned[] = { "script", "img", "iframe",
	    "frame", "frameset", "object", "embed", "link", "base", "form",
	    "input", "button", "svg", "math", "audio", "video", "source",
	    "applet", "noscript", "template", NULL };
	const char *const *b;
	xmlAttrPtr a;
	xmlChar *v;

	for (; n != NULL; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (b = banned; *b != NULL; b++)
			if (xmlStrcasecmp(n->name, BAD_CAST *b) == 0)
				fail_msg("element <%s> in the page", *b);
		if (xmlStrcasecmp(n->name, BAD_CAST "style") == 0) {
			(*styles)++;
			v = xmlNodeGetContent(n);
			assert_non_null(v);
			assert_true(prefixed(v, ":root{color-scheme:light}"));
			assert_null(strstr((const char *)v, "alert"));
			xmlFree(v);
		}
		for (a = n->properties; a != NULL; a = a->next) {
			if (prefixed(a->name, "on") ||
			    xmlStrcasecmp(a->name, BAD_CAST "src") == 0 ||
			    xmlStrcasecmp(a->name, BAD_CAST "style") == 0)
				fail_msg("attribute %s on <%s>", a->name,
				    n->name);
			if (xmlStrcasecmp(a->name, BAD_CAST "href") != 0)
				continue;
			v = xmlNodeListGetString(n->doc, a->children, 1);
			assert_non_null(v);
			if (!prefixed(v, "#") && !prefixed(v, "https://") &&
			    !prefixed(v, "http://"))
				fail_msg("href '%s'", v);
			xmlFree(v);
		}
		assert_inert(n->children, styles);
	}
}

/* The checks every rendered page must pass. */
static void
assert_safe_page(const struct page *pg)
{
	int styles = 0;

	assert_clean_bytes(pg->buf, pg->len);
	assert_true(strncmp(pg->buf, "<!DOCTYPE html>", 15) == 0);
	assert_null(strcasestr(pg->buf, "<script"));
	assert_null(strcasestr(pg->buf, "<img"));
	assert_null(strcasestr(pg->buf, "href=\"javascript"));
	assert_non_null(strstr(pg->buf, "Content-Security-Policy"));
	assert_inert(xmlDocGetRootElement(pg->doc), &styles);
	assert_int_equal(styles, 1);
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* --- reports to render --- */

static json_t *
result(const char *id, const char *status, const char *sev, const char *s)
{
	json_t *r;

	r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, "
	    "s:[{s:s, s:s, s:s}, {s:s, s:{s:b, s:s, s:b}, s:n}, "
	    "{s:s, s:s, s:n}], s:s, s:s, s:s, s:[s, s, s, s]}",
	    "id", id, "family", "ib", "status", status, "severity", sev,
	    "title", s, "target", s, "target_name", s, "reason", s,
	    "evidence", "field", s, "value", s, "observation", s,
	    "field", "sm_key", "value", "secret", 1, "value", "<redacted>",
	    "zero", 0, "observation",
	    "field", "reproduce", "value", s, "observation",
	    "rationale", s, "remediation", s, "msa_clause", s,
	    "references", s, "javascript:alert(1)", "JaVaScRiPt:alert(2)",
	    "https://example.org/ref");
	assert_non_null(r);
	return r;
}

/* A full report with s in every string the page shows. */
static json_t *
hostile_report(const char *s)
{
	json_t *rep, *res, *r;

	res = json_array();
	assert_non_null(res);
	assert_int_equal(json_array_append_new(res, result("IB-A", "fail",
	    "critical", s)), 0);
	assert_int_equal(json_array_append_new(res, result("IB-A", "fail",
	    "critical", s)), 0);
	r = result("IB-B", "fail", "high", s);
	assert_int_equal(json_object_set_new(r, "waived", json_pack(
	    "{s:s, s:s, s:i}", "reason", s, "expires", s, "policy_line", 3)),
	    0);
	assert_int_equal(json_array_append_new(res, r), 0);
	r = result("IB-C", "fail", "medium", s);
	assert_int_equal(json_object_set_new(r, "waiver_expired", json_pack(
	    "{s:s, s:s, s:i}", "reason", s, "expires", s, "policy_line", 4)),
	    0);
	assert_int_equal(json_object_set_new(r, "baseline",
	    json_string("new")), 0);
	assert_int_equal(json_object_set_new(r, "targets", json_pack(
	    "[{s:s, s:s, s:s}]", "node", s, "target", s, "target_name", s)),
	    0);
	assert_int_equal(json_array_append_new(res, r), 0);
	assert_int_equal(json_array_append_new(res, result("IB-D",
	    "not_tested", "high", s)), 0);
	assert_int_equal(json_array_append_new(res, result("IB-E", "error",
	    "low", s)), 0);
	assert_int_equal(json_array_append_new(res, result("IB-F",
	    "not_applicable", "info", s)), 0);
	assert_int_equal(json_array_append_new(res, result("IB-G", "pass",
	    "high", s)), 0);
	assert_int_equal(json_array_append_new(res, result(s, s, s, s)), 0);
	rep = json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:s}, "
	    "s:{s:s, s:s, s:s, s:[s, s], s:b, "
	    "  s:{s:s, s:s, s:i, s:b, s:[{s:s, s:s, s:s}]}}, "
	    "s:{s:s, s:s}, s:{s:s, s:s}, "
	    "s:{s:{s:s, s:s}, s:{s:s, s:n}, s:{s:s, s:s}}, s:{s:s}, "
	    "s:{s:i, s:i, s:i, s:i, s:i, s:s, s:i, s:i, s:b}, s:o, "
	    "s:{s:s, s:s, s:s, s:s, s:s, s:s, s:{s:s, s:i, s:b}, s:s, s:s, "
	    "  s:{s:s, s:s, s:i, s:s, s:[s]}}, "
	    "s:{s:s, s:s}, s:{s:s, s:s, s:i, s:i, s:i, s:i}, "
	    "s:[{s:s, s:s, s:s, s:s, s:i}], "
	    "s:{s:i, s:[{s:s, s:s, s:s, s:s, s:[s], s:{s:i}}]}}",
	    "schema", "fabaudit-report/1",
	    "tool", "name", "fabaudit", "version", s,
	    "scanned_by", "name", s, "version", s,
	    "scan", "started", s, "finished", s, "host", s, "families", s,
	    "ib", "active", 1,
	    "catalogue", "path", s, "date", s, "age_days", 400, "stale", 1,
	    "sources", "name", s, "url", "javascript:alert(3)", "date", s,
	    "evaluation", "mode", s, "generated", s,
	    "snapshot", "file", s, "sha256", s,
	    "families", "ib", "state", "collected", "reason", s,
	    "eth", "state", "not_requested", "reason",
	    s, "state", s, "reason", s,
	    "policy", "name", s,
	    "summary", "pass", 1, "fail", 4, "not_tested", 1,
	    "not_applicable", 1, "error", 1, "fail_on", "high",
	    "failing_at_or_above", 2, "waived", 1, "catalogue_stale", 1,
	    "results", res,
	    "scope", "tenant", s, "provider", s, "run_by", s, "host", s,
	    "started", s, "finished", s,
	    "catalogue", "date", s, "age_days", 400, "stale", 1,
	    "snapshot_sha256", s, "policy", s,
	    "fabric", "local_port_guid", s, "local_node_desc", s,
	    "local_lid", 8, "subnet_prefix", s, "sm_guids", s,
	    "previous", "file", s, "sha256", s,
	    "baseline", "file", s, "sha256", s, "new_failures", 1,
	    "resolved", 0, "changed", 0, "unchanged_failures", 1,
	    "expired_waivers", "check_id", s, "target", s, "expires", s,
	    "reason", s, "policy_line", 9,
	    "merged", "reports", 1, "nodes", "host", s, "file", s,
	    "sha256", s, "started", s, "families", s, "summary", "fail", 4);
	assert_non_null(rep);
	return rep;
}

/* --- tests --- */

/* Each hostile string, everywhere: the page stays inert and shows it. */
static void
test_hostile_everywhere(void **state)
{
	struct page pg;
	json_t *rep;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		rep = hostile_report(hostile[i]);
		render(rep, &pg);
		assert_safe_page(&pg);
		json_decref(rep);
		if (i == 4 || i == 5) {
			page_free(&pg);
			continue;
		}
		/* shown literally, many times (one per rendered field) */
		if (count(pg.text, hostile[i]) < 40)
			fail_msg("'%s' shown %zu times", hostile[i],
			    count(pg.text, hostile[i]));
		page_free(&pg);
	}
}

static void
test_escaped_text(void **state)
{
	struct page pg;
	json_t *rep;

	(void)state;
	rep = hostile_report(XSS_SCRIPT);
	render(rep, &pg);
	assert_non_null(strstr(pg.buf,
	    "&lt;script&gt;alert(1)&lt;/script&gt;"));
	page_free(&pg);
	json_decref(rep);
	rep = hostile_report(XSS_ATTR);
	render(rep, &pg);
	/* libxml2's writer escapes the quote in text too (xmlTextWriter
	 * WriteString): the payload is text either way. */
	assert_non_null(strstr(pg.buf,
	    "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
	assert_null(strstr(pg.buf, "<img"));
	page_free(&pg);
	json_decref(rep);
}

/* Controls, C1, DEL and U+202E become \xNN; the rest of the text stays. */
static void
test_control_and_bidi(void **state)
{
	struct page pg;
	json_t *rep;

	(void)state;
	rep = hostile_report(CTRL);
	render(rep, &pg);
	assert_true(count(pg.text, "ctl\\x01\\x1b[2J\\x7f\\xc2\\x85end") > 40);
	assert_null(strchr(pg.text, '\x1b'));
	page_free(&pg);
	json_decref(rep);
	rep = hostile_report(BIDI);
	render(rep, &pg);
	assert_true(count(pg.text, "abc\\xe2\\x80\\xaecba") > 40);
	assert_null(strstr(pg.buf, "\xe2\x80\xae"));
	assert_null(strstr(pg.buf, "&#8238;"));
	page_free(&pg);
	json_decref(rep);
}

/* Invalid UTF-8 (a string jansson would refuse, made without its check). */
static void
test_invalid_utf8(void **state)
{
	static const char bad[] = "a\xff" "b\xc0\xaf" "c\xed\xa0\x80"
	    "d\xf4\x90\x80\x80" "e\xe2\x82" "f\xbf\x80" "g\xc3\xa9h";
	struct page pg;
	json_t *rep, *r;

	(void)state;
	rep = hostile_report("x");
	r = json_array_get(json_object_get(rep, "results"), 0);
	assert_int_equal(json_object_set_new(r, "reason",
	    json_stringn_nocheck(bad, sizeof(bad) - 1)), 0);
	assert_int_equal(json_object_set_new(json_object_get(rep, "scope"),
	    "tenant", json_stringn_nocheck(bad, sizeof(bad) - 1)), 0);
	render(rep, &pg);
	assert_safe_page(&pg);
	/* each bad byte escaped on its own; the valid e-acute kept */
	assert_true(count(pg.text, "a\\xffb\\xc0\\xafc\\xed\\xa0\\x80"
	    "d\\xf4\\x90\\x80\\x80e\\xe2\\x82f\\xbf\\x80g\xc3\xa9h") >= 2);
	page_free(&pg);
	json_decref(rep);
}

/* Valid UTF-8 beyond ASCII is shown as itself, not escaped. */
static void
test_unicode_kept(void **state)
{
	static const char name[] = "Z\xc3\xbcrich \xe6\x9d\xb1\xe4\xba\xac "
	    "\xf0\x9f\x98\x80 \xce\xa9 AT&T";
	struct page pg;
	json_t *rep;

	(void)state;
	rep = hostile_report(name);
	render(rep, &pg);
	assert_safe_page(&pg);
	assert_true(count(pg.text, name) >= 40);
	assert_null(strstr(pg.text, "\\xc3"));
	page_free(&pg);
	json_decref(rep);
}

/* A NUL inside a JSON string is shown, not a place where text ends. */
static void
test_embedded_nul(void **state)
{
	struct page pg;
	json_t *rep, *r;

	(void)state;
	rep = hostile_report("x");
	r = json_array_get(json_object_get(rep, "results"), 0);
	assert_int_equal(json_object_set_new(r, "reason",
	    json_stringn("acme\0<script>hidden", 19)), 0);
	render(rep, &pg);
	assert_safe_page(&pg);
	assert_non_null(strstr(pg.text, "acme\\x00<script>hidden"));
	page_free(&pg);
	json_decref(rep);
}

/* A 1 MB string is cut, with a note, and the page stays small. */
static void
test_megabyte_string(void **state)
{
	size_t big = 1024 * 1024;
	struct page pg;
	json_t *rep, *r, *ev;
	char *s;

	(void)state;
	assert_non_null(s = malloc(big + 1));
	memset(s, 'A', big);
	memcpy(s + big - 9, "<script>", 8);
	s[big] = '\0';
	rep = hostile_report(s);
	/* and 500 evidence items on one result */
	r = json_array_get(json_object_get(rep, "results"), 0);
	ev = json_object_get(r, "evidence");
	while (json_array_size(ev) < 500)
		assert_int_equal(json_array_append_new(ev, json_pack(
		    "{s:s, s:i}", "field", "n", "value", 1)), 0);
	free(s);
	render(rep, &pg);
	assert_safe_page(&pg);
	assert_true(pg.len < 4 * 1024 * 1024);
	assert_non_null(strstr(pg.text, "cut here: the full text is in "
	    "report.json"));
	assert_non_null(strstr(pg.text, "more evidence items not shown"));
	assert_null(strstr(pg.text, "<script>"));
	page_free(&pg);
	json_decref(rep);
}

/*
 * Every list past FA_HTML_ROWS_MAX rows (1000): each section cut with its
 * note, after its table.  The page is written as it is made, so a note
 * added to an element already closed would fail the page: this renders
 * all of them at once.
 */
static void
test_every_list_cut(void **state)
{
	/* Failures: 1005 plain and 1005 with an expired waiver; one
	 * expired policy waiver and one node were there already. */
	static const char *const notes[] = { "1010 more findings not shown",
	    "5 more waived findings not shown",
	    "5 more findings with an expired waiver not shown",
	    "5 more undecided results not shown",
	    "5 more not applicable results not shown",
	    "5 more passed results not shown", "6 more waivers not shown",
	    "6 more nodes not shown" };
	struct page pg;
	json_t *rep, *res, *ew, *nodes, *r;
	size_t i, k;

	(void)state;
	rep = hostile_report("x");
	res = json_object_get(rep, "results");
	ew = json_object_get(rep, "expired_waivers");
	nodes = json_object_get(json_object_get(rep, "merged"), "nodes");
	assert_int_equal(json_array_clear(res), 0);
	for (i = 0; i < 1005; i++) {
		assert_int_equal(json_array_append_new(res, result("IB-F",
		    "fail", "high", "x")), 0);
		r = result("IB-W", "fail", "high", "x");
		assert_int_equal(json_object_set_new(r, "waived", json_pack(
		    "{s:s, s:s, s:i}", "reason", "r", "expires", "2027-01-01",
		    "policy_line", 3)), 0);
		assert_int_equal(json_array_append_new(res, r), 0);
		r = result("IB-X", "fail", "low", "x");
		assert_int_equal(json_object_set_new(r, "waiver_expired",
		    json_pack("{s:s, s:s, s:i}", "reason", "r", "expires",
		    "2026-01-01", "policy_line", 4)), 0);
		assert_int_equal(json_array_append_new(res, r), 0);
		assert_int_equal(json_array_append_new(res, result("IB-U",
		    "not_tested", "high", "x")), 0);
		assert_int_equal(json_array_append_new(res, result("IB-N",
		    "not_applicable", "info", "x")), 0);
		assert_int_equal(json_array_append_new(res, result("IB-P",
		    "pass", "high", "x")), 0);
		assert_int_equal(json_array_append(ew, json_array_get(ew, 0)),
		    0);
		assert_int_equal(json_array_append(nodes,
		    json_array_get(nodes, 0)), 0);
	}
	render(rep, &pg);
	assert_safe_page(&pg);
	for (k = 0; k < sizeof(notes) / sizeof(notes[0]); k++)
		if (strstr(pg.text, notes[k]) == NULL)
			fail_msg("no note \"%s\"", notes[k]);
	page_free(&pg);
	json_decref(rep);
}

/*
 * A schema 2 report (each check's texts once, in "checks") gives the page
 * of the same report in schema 1, byte for byte: with every result
 * sharing its check's texts, and with one whose remediation is its own.
 */
static void
test_schema2_same_page(void **state)
{
	json_t *rep1, *rep2, *r;
	char *b1, *b2, *why = NULL;
	size_t l1, l2, k;

	(void)state;
	for (k = 0; k < 2; k++) {
		rep1 = hostile_report("x");
		if (k == 1) {
			r = json_array_get(json_object_get(rep1, "results"),
			    1);
			assert_int_equal(json_object_set_new(r, "remediation",
			    json_string("its own")), 0);
		}
		assert_non_null(rep2 = report_to_schema2(rep1));
		assert_non_null(json_object_get(rep2, "checks"));
		assert_int_equal(fa_report_html(rep1, &b1, &l1, &why), 0);
		assert_int_equal(fa_report_html(rep2, &b2, &l2, &why), 0);
		assert_int_equal(l1, l2);
		assert_memory_equal(b1, b2, l1);
		assert_true(k == 0 || strstr(b2, "its own") != NULL);
		free(b1);
		free(b2);
		json_decref(rep1);
		json_decref(rep2);
	}
}

/* javascript: references stay text; http(s) ones are links. */
static void
test_reference_links(void **state)
{
	struct page pg;
	json_t *rep;

	(void)state;
	rep = hostile_report("x");
	render(rep, &pg);
	assert_non_null(strstr(pg.text, "javascript:alert(1)"));
	assert_non_null(strstr(pg.text, "JaVaScRiPt:alert(2)"));
	assert_non_null(strstr(pg.text, "javascript:alert(3)"));
	assert_null(strcasestr(pg.buf, "href=\"javascript"));
	assert_null(strcasestr(pg.buf, "href='javascript"));
	assert_non_null(strstr(pg.buf,
	    "<a href=\"https://example.org/ref\""));
	page_free(&pg);
	json_decref(rep);
}

/* Empty, wrong-typed and missing: still a whole page, never a crash. */
static void
test_wrong_types(void **state)
{
	static const char *const docs[] = {
		"{}",
		"[]",
		"null",
		"42",
		"{\"results\": \"not an array\"}",
		"{\"results\": {\"id\": 1}}",
		"{\"results\": [1, \"x\", null, [], {}]}",
		"{\"results\": [{\"id\": 7, \"status\": 1, \"severity\": [],"
		" \"title\": {\"a\": [1, 2.5, true, null]}, \"target\": 3,"
		" \"target_name\": false, \"reason\": [\"r\"], \"evidence\":"
		" \"e\", \"references\": 5, \"msa_clause\": 9, \"waived\":"
		" \"w\", \"waiver_expired\": 1, \"targets\": 2}]}",
		"{\"results\": [{\"status\": \"fail\", \"severity\": \"high\","
		" \"evidence\": [1, {\"field\": 2, \"value\": {\"secret\":"
		" true}}, {\"field\": \"reproduce\", \"value\": 3}],"
		" \"references\": [1, null, {\"u\": \"javascript:x\"}],"
		" \"targets\": [1, {\"node\": 2}]}]}",
		"{\"scope\": 1, \"scan\": [], \"summary\": \"s\", \"families\":"
		" [1], \"snapshot\": 3, \"previous\": \"p\", \"baseline\": 4,"
		" \"expired_waivers\": {}, \"merged\": {\"nodes\": 5},"
		" \"evaluation\": 1, \"tool\": 2, \"scanned_by\": 3}",
		"{\"scope\": {\"tenant\": 1, \"fabric\": {\"sm_guids\":"
		" [1, [2, [3, [4, [5, [6, [7, [8]]]]]]]]}, \"catalogue\": 2},"
		" \"scan\": {\"catalogue\": {\"sources\": [1, {\"url\": 2}]}},"
		" \"families\": {\"ib\": 1, \"eth\": {\"state\": 2}},"
		" \"summary\": {\"fail_on\": \"bogus\","
		" \"failing_at_or_above\": \"x\"}}",
	};
	struct page pg;
	json_error_t err;
	json_t *rep;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		rep = json_loads(docs[i], JSON_DECODE_ANY, &err);
		if (rep == NULL)
			fail_msg("test input %zu: %s", i, err.text);
		render(rep, &pg);
		assert_safe_page(&pg);
		assert_non_null(strstr(pg.text, "1. Executive summary"));
		assert_non_null(strstr(pg.text,
		    "Annex A. Proposed security annex"));
		page_free(&pg);
		json_decref(rep);
	}
	render(NULL, &pg);
	assert_safe_page(&pg);
	assert_non_null(strstr(pg.text, "No conclusion is possible"));
	page_free(&pg);
}

/* why may be NULL; a result entry that is no object is counted. */
static void
test_null_why_and_malformed(void **state)
{
	json_t *rep = json_loads("{\"results\": [1, 2]}", 0, NULL);
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	assert_non_null(rep);
	assert_int_equal(fa_report_html(rep, &buf, &len, NULL), 0);
	assert_non_null(strstr(buf, "2 entries of the results list are not "
	    "an object and are not shown"));
	free(buf);
	json_decref(rep);
}

static json_t *
plain_result(const char *id, const char *status, const char *sev,
    const char *target)
{
	json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, "
	    "s:[{s:s, s:s, s:n}], s:[s]}",
	    "id", id, "status", status, "severity", sev, "title", id,
	    "target", target, "reason", "because", "msa_clause",
	    "Provider shall fix it.", "remediation", "Fix it.",
	    "evidence", "field", "reproduce", "value", "saquery PR 8 3",
	    "observation", "references", "IBTA 10.9");

	assert_non_null(r);
	return r;
}

static json_t *
report_of(json_t *results, const char *fail_on)
{
	json_t *rep = json_pack("{s:o, s:{s:s}}", "results", results,
	    "summary", "fail_on", fail_on);

	assert_non_null(rep);
	return rep;
}

/* The verdict never says "secure"; it says what could not be decided. */
static void
test_verdicts(void **state)
{
	struct page pg;
	json_t *rep;

	(void)state;
	rep = report_of(json_pack("[o, o, o]",
	    plain_result("IB-A", "fail", "critical", "t1"),
	    plain_result("IB-A", "fail", "critical", "t2"),
	    plain_result("IB-B", "fail", "low", "t3")), "high");
	render(rep, &pg);
	assert_non_null(strstr(pg.text, "Not acceptable as is: 2 failures at "
	    "or above high severity."));
	assert_non_null(strstr(pg.text, "1 further failure is below the high "
	    "threshold"));
	page_free(&pg);
	json_decref(rep);

	rep = report_of(json_pack("[o, o, o]",
	    plain_result("IB-A", "pass", "critical", "t1"),
	    plain_result("IB-B", "not_tested", "high", "t2"),
	    plain_result("IB-C", "fail", "low", "t3")), "high");
	render(rep, &pg);
	assert_non_null(strstr(pg.text, "No failure at or above high severity "
	    "was found, but 1 check could not be decided."));
	assert_null(strstr(pg.text, "Not acceptable"));
	page_free(&pg);
	json_decref(rep);

	rep = report_of(json_pack("[o]",
	    plain_result("IB-A", "pass", "critical", "t1")), "low");
	render(rep, &pg);
	assert_non_null(strstr(pg.text, "No failure at or above low severity "
	    "was found."));
	assert_non_null(strstr(pg.text, "not a certification that the service "
	    "is secure"));
	assert_non_null(strstr(pg.text, "No clause is proposed"));
	page_free(&pg);
	json_decref(rep);

	/* an unrated failure counts (fail closed) */
	rep = report_of(json_pack("[o]",
	    plain_result("IB-A", "fail", "severe", "t1")), "critical");
	render(rep, &pg);
	assert_non_null(strstr(pg.text, "Not acceptable as is: 1 failure at "
	    "or above critical severity."));
	page_free(&pg);
	json_decref(rep);
}

/* One clause per failed check, citing every finding it rests on. */
static void
test_annex(void **state)
{
	struct page pg;
	json_t *rep;

	(void)state;
	rep = report_of(json_pack("[o, o, o, o]",
	    plain_result("IB-LOW", "fail", "low", "t0"),
	    plain_result("IB-A", "fail", "critical", "t1"),
	    plain_result("IB-A", "fail", "critical", "t2"),
	    plain_result("IB-P", "pass", "critical", "t3")), "high");
	render(rep, &pg);
	assert_non_null(strstr(pg.text, "A.1 Provider shall fix it."));
	assert_non_null(strstr(pg.text, "A.2 Provider shall fix it."));
	assert_null(strstr(pg.text, "A.3 "));
	assert_non_null(strstr(pg.text, "Rests on check IB-A (critical): IB-A. "
	    "Findings: F-1 (t1); F-2 (t2)."));
	assert_non_null(strstr(pg.text, "Rests on check IB-LOW (low): IB-LOW. "
	    "Findings: F-3 (t0)."));
	assert_non_null(strstr(pg.buf, "<a href=\"#F-2\">F-2</a>"));
	assert_non_null(strstr(pg.buf, "id=\"F-2\""));
	/* the second finding of IB-A gives its texts by reference */
	assert_non_null(strstr(pg.text, "As for F-1 (Annex A.1)."));
	assert_int_equal(count(pg.text, "saquery PR 8 3"), 3);
	page_free(&pg);
	json_decref(rep);
}

/* Waived failures leave the verdict and are listed with their waiver. */
static void
test_waivers(void **state)
{
	struct page pg;
	json_t *rep, *r;

	(void)state;
	r = plain_result("IB-W", "fail", "critical", "t1");
	assert_int_equal(json_object_set_new(r, "waived", json_pack(
	    "{s:s, s:s, s:i}", "reason", "storage migration",
	    "expires", "2027-03-31", "policy_line", 12)), 0);
	rep = report_of(json_pack("[o, o]", r,
	    plain_result("IB-N", "not_applicable", "high", "t2")), "high");
	assert_int_equal(json_object_set_new(rep, "expired_waivers",
	    json_pack("[{s:s, s:s, s:s, s:s, s:i}]", "check_id", "IB-X",
	    "target", "t9", "expires", "2026-01-01", "reason", "old trial",
	    "policy_line", 7)), 0);
	render(rep, &pg);
	assert_non_null(strstr(pg.text, "No failure at or above high severity "
	    "was found."));
	assert_non_null(strstr(pg.text, "1 failure was waived"));
	assert_non_null(strstr(pg.text, "storage migration"));
	assert_non_null(strstr(pg.text, "2027-03-31"));
	assert_non_null(strstr(pg.text, "old trial"));
	assert_non_null(strstr(pg.buf, "id=\"W-1\""));
	assert_non_null(strstr(pg.text, "W-1 (t1; waived)"));
	page_free(&pg);
	json_decref(rep);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile_everywhere),
		cmocka_unit_test(test_escaped_text),
		cmocka_unit_test(test_control_and_bidi),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_unicode_kept),
		cmocka_unit_test(test_embedded_nul),
		cmocka_unit_test(test_megabyte_string),
		cmocka_unit_test(test_every_list_cut),
		cmocka_unit_test(test_schema2_same_page),
		cmocka_unit_test(test_reference_links),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_null_why_and_malformed),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_annex),
		cmocka_unit_test(test_waivers),
	};
	int r;

	r = cmocka_run_group_tests(tests, NULL, NULL);
	xmlCleanupParser();
	return r;
}
