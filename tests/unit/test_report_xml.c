/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the XML renderings of report.json (reports/report_xml.c,
 * reports/report_junit.c): every output parses and validates against
 * data/fabaudit-report.xsd or data/junit.xsd (run from the source tree, as
 * tests/run.sh does), whatever the input; hostile strings come out escaped
 * and restorable; every result survives the trip; JUnit counts add up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/xmlschemas.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "../../core/errors.h"
#include "../../core/model.h"
#include "../../reports/report.h"
#include "emit_sink.h"
#include "report_schema2.h"

#define NS	"urn:fabaudit:report:1"

static xmlSchemaPtr report_xsd, junit_xsd;
static int xml_errors;

/* Count libxml2's complaints instead of printing them. */
static void
quiet(void *arg, xmlErrorPtr e)
{
	(void)arg;
	(void)e;
	xml_errors++;
}

static xmlSchemaPtr
load_schema(const char *path)
{
	xmlSchemaParserCtxtPtr pc;
	xmlSchemaPtr s;

	if ((pc = xmlSchemaNewParserCtxt(path)) == NULL)
		fail_msg("%s: cannot create a parser context", path);
	s = xmlSchemaParse(pc);
	xmlSchemaFreeParserCtxt(pc);
	if (s == NULL)
		fail_msg("%s: does not load (run from the source tree)", path);
	return s;
}

static int
setup(void **state)
{
	(void)state;
	xmlInitParser();
	report_xsd = load_schema("data/fabaudit-report.xsd");
	junit_xsd = load_schema("data/junit.xsd");
	xmlSetStructuredErrorFunc(NULL, quiet);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	xmlSchemaFree(report_xsd);
	xmlSchemaFree(junit_xsd);
	xmlCleanupParser();
	return 0;
}

/* buf must be well-formed; the document, or a test failure. */
static xmlDocPtr
parse(const char *buf, size_t len)
{
	xmlDocPtr d;

	xml_errors = 0;
	d = xmlReadMemory(buf, (int)len, "mem.xml", NULL, XML_PARSE_NONET);
	if (d == NULL || xml_errors != 0)
		fail_msg("not well-formed XML (%d errors):\n%.2000s",
		    xml_errors, buf);
	return d;
}

static int
valid(xmlSchemaPtr s, xmlDocPtr d)
{
	xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(s);
	int r;

	assert_non_null(vc);
	r = xmlSchemaValidateDoc(vc, d);
	xmlSchemaFreeValidCtxt(vc);
	return r == 0;
}

/* Render with fn; the output must parse and validate against s. */
static xmlDocPtr
render_with(int (*fn)(const json_t *, char **, size_t *, char **),
    xmlSchemaPtr s, const json_t *rep)
{
	char *buf = NULL, *why = NULL;
	size_t len = 0;
	xmlDocPtr d;
	int r;

	r = fn(rep, &buf, &len, &why);
	if (r != 0)
		fail_msg("render failed: %d %s", r, why ? why : "");
	assert_null(why);
	assert_non_null(buf);
	assert_int_equal(strlen(buf), len);
	d = parse(buf, len);
	if (!valid(s, d))
		fail_msg("output does not validate:\n%.4000s", buf);
	free(buf);
	return d;
}

static xmlDocPtr
render_xml(const json_t *rep)
{
	return render_with(fa_report_xml, report_xsd, rep);
}

static xmlDocPtr
render_junit(const json_t *rep)
{
	return render_with(fa_report_junit, junit_xsd, rep);
}

static xmlXPathObjectPtr
xpath(xmlDocPtr d, const char *expr)
{
	xmlXPathContextPtr c = xmlXPathNewContext(d);
	xmlXPathObjectPtr o;

	assert_non_null(c);
	assert_int_equal(xmlXPathRegisterNs(c, BAD_CAST "r", BAD_CAST NS), 0);
	o = xmlXPathEvalExpression(BAD_CAST expr, c);
	xmlXPathFreeContext(c);
	if (o == NULL)
		fail_msg("bad XPath %s", expr);
	return o;
}

/* The string value of an XPath expression, malloc'd. */
static char *
xstr(xmlDocPtr d, const char *expr)
{
	xmlXPathObjectPtr o = xpath(d, expr);
	xmlChar *s = xmlXPathCastToString(o);
	char *r = strdup((const char *)s);

	xmlFree(s);
	xmlXPathFreeObject(o);
	assert_non_null(r);
	return r;
}

static double
xnum(xmlDocPtr d, const char *expr)
{
	xmlXPathObjectPtr o = xpath(d, expr);
	double v = xmlXPathCastToNumber(o);

	xmlXPathFreeObject(o);
	return v;
}

static void
expect_str(xmlDocPtr d, const char *expr, const char *want)
{
	char *got = xstr(d, expr);

	if (strcmp(got, want) != 0)
		fail_msg("%s: got '%s', want '%s'", expr, got, want);
	free(got);
}

static void
expect_num(xmlDocPtr d, const char *expr, double want)
{
	double got = xnum(d, expr);

	if (got != want)
		fail_msg("%s: got %g, want %g", expr, got, want);
}

static json_t *
load(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	if (j == NULL)
		fail_msg("test JSON: %s at %d:%d", e.text, e.line, e.column);
	return j;
}

/*
 * A report with every member the schema names: a scan's, with scope,
 * previous, baseline, expired waivers and merged-report fields.
 */
static const char full_report[] =
"{\"schema\":\"fabaudit-report/1\","
" \"tool\":{\"name\":\"fabaudit\",\"version\":\"0.1.0\"},"
" \"scanned_by\":{\"name\":\"fabaudit\",\"version\":\"0.0.9\"},"
" \"scan\":{\"started\":\"2026-12-02T10:00:00Z\","
"  \"finished\":\"2026-12-02T10:02:05Z\",\"host\":\"gpu-01\","
"  \"families\":[\"ib\",\"host\"],\"active\":false,"
"  \"catalogue\":{\"path\":\"/usr/share/fabaudit/host-cves.json\","
"   \"date\":\"2026-08-23\",\"entries\":55,\"age_days\":101,\"stale\":true,"
"   \"stale_after_days\":90,\"sources\":[{\"name\":\"runc advisories\","
"   \"url\":\"https://example.org/a\",\"date\":\"2026-08-23\"}]},"
"  \"ib_options\":{\"retries\":2}},"
" \"scope\":{\"tenant\":\"acme\",\"provider\":\"gpucloud\","
"  \"run_by\":\"ops@acme\",\"host\":\"gpu-01\","
"  \"started\":\"2026-12-02T10:00:00Z\",\"finished\":null,"
"  \"tool_version\":\"0.1.0\",\"catalogue\":{\"date\":\"2026-08-23\","
"  \"age_days\":101,\"stale\":true},\"snapshot_sha256\":"
"  \"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\","
"  \"policy\":\"acme.conf\",\"fabric\":{\"local_port_guid\":"
"  \"0x0002c90300a1b2c1\",\"local_node_desc\":\"acme-gpu-01 mlx5_0\","
"  \"local_lid\":8,\"subnet_prefix\":\"0xfe80000000000000\","
"  \"sm_guids\":[\"0x0002c90300f1e001\"]}},"
" \"evaluation\":{\"mode\":\"scan\",\"generated\":\"2026-12-02T10:02:06Z\"},"
" \"snapshot\":{\"file\":\"snapshot.json\",\"sha256\":"
"  \"fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210\"},"
" \"families\":{\"ib\":{\"state\":\"collected\",\"reason\":null},"
"  \"eth\":{\"state\":\"not_requested\",\"reason\":null},"
"  \"host\":{\"state\":\"unavailable\",\"reason\":\"no /proc\"}},"
" \"policy\":{\"name\":\"acme.conf\"},"
" \"previous\":{\"file\":\"old/report.json\",\"sha256\":"
"  \"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"},"
" \"baseline\":{\"file\":\"base.json\",\"sha256\":null,\"new_failures\":1,"
"  \"resolved\":0,\"changed\":2,\"unchanged_failures\":3},"
" \"expired_waivers\":[{\"check_id\":\"IB-MKEY-UNSET\",\"target\":\"*\","
"  \"expires\":\"2026-11-30\",\"reason\":\"UFM upgrade\","
"  \"policy_line\":12}],"
" \"merged\":{\"reports\":2,\"nodes\":[{\"host\":\"gpu-01\","
"  \"file\":\"a/report.json\",\"sha256\":"
"  \"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\","
"  \"started\":\"2026-12-02T10:00:00Z\",\"families\":[\"ib\"],"
"  \"summary\":{\"pass\":1,\"fail\":2}}]},"
" \"summary\":{\"pass\":1,\"fail\":3,\"not_tested\":1,\"not_applicable\":1,"
"  \"error\":1,\"fail_on\":\"high\",\"failing_at_or_above\":1,"
"  \"waived\":1,\"catalogue_stale\":true},"
" \"results\":["
"  {\"id\":\"IB-SMP-UNRESTRICTED\",\"family\":\"ib\",\"status\":\"fail\","
"   \"severity\":\"high\",\"title\":\"SMPs reach other nodes\","
"   \"target\":\"local\",\"target_name\":null,\"reason\":\"12 answered\","
"   \"evidence\":[{\"observation\":\"ib.topology\",\"field\":\"n\","
"    \"value\":12},{\"observation\":null,\"field\":\"reproduce\","
"    \"value\":\"smpquery -D nodeinfo 0,1\"},{\"observation\":\"o\","
"    \"field\":\"sm_key\",\"value\":{\"secret\":true,"
"    \"value\":\"<redacted>\",\"zero\":false}},{\"observation\":\"o\","
"    \"field\":\"ratio\",\"value\":0.5},{\"observation\":\"o\","
"    \"field\":\"none\",\"value\":null},{\"observation\":\"o\","
"    \"field\":\"flag\",\"value\":true},{\"observation\":\"o\","
"    \"field\":\"list\",\"value\":[1,\"two\"]}],"
"   \"rationale\":\"impact\",\"remediation\":\"fix it\","
"   \"msa_clause\":\"Provider shall\",\"references\":[\"IBTA 14.2.2\"],"
"   \"waiver_expired\":{\"reason\":\"old\",\"expires\":\"2026-11-30\","
"    \"policy_line\":12},\"baseline\":\"new\","
"   \"targets\":[{\"node\":\"gpu-01\",\"target\":\"local\","
"    \"target_name\":null}]},"
"  {\"id\":\"IB-SMKEY-DEFAULT\",\"family\":\"ib\",\"status\":\"fail\","
"   \"severity\":\"critical\",\"title\":\"t\",\"target\":\"H-0x1/1\","
"   \"target_name\":\"ufm-sm01 mlx5_0\",\"reason\":\"r\",\"evidence\":[],"
"   \"waived\":{\"reason\":\"ticket 42\",\"expires\":\"2027-01-31\","
"    \"policy_line\":7},\"baseline\":\"unchanged\"},"
"  {\"id\":\"IB-MKEY-PROTECT-LOW\",\"family\":\"ib\",\"status\":\"fail\","
"   \"severity\":\"low\",\"title\":\"t\",\"target\":\"fabric\","
"   \"reason\":\"below level 2\",\"evidence\":[],\"baseline\":\"changed\"},"
"  {\"id\":\"HOST-RUNC-VULN\",\"family\":\"host\",\"status\":\"pass\","
"   \"severity\":\"high\",\"title\":\"t\",\"target\":\"host\","
"   \"reason\":\"r\",\"evidence\":[]},"
"  {\"id\":\"HOST-CTK-VULN\",\"family\":\"host\",\"status\":\"error\","
"   \"severity\":\"high\",\"title\":\"t\",\"target\":\"host\","
"   \"reason\":\"dpkg status unreadable\",\"evidence\":[]},"
"  {\"id\":\"ETH-VLAN-HOP\",\"family\":\"eth\",\"status\":\"not_tested\","
"   \"severity\":\"medium\",\"title\":\"t\",\"target\":\"eth\","
"   \"reason\":\"not requested\",\"evidence\":[]},"
"  {\"id\":\"ETH-LLDP-LEAK\",\"family\":\"eth\","
"   \"status\":\"not_applicable\",\"severity\":\"info\",\"title\":\"t\","
"   \"target\":\"eth\",\"reason\":\"no LLDP\",\"evidence\":[]}]}";

static void
test_full_report_xml(void **state)
{
	json_t *rep = load(full_report), *r;
	xmlDocPtr d;
	size_t i;
	char expr[256];

	(void)state;
	d = render_xml(rep);
	expect_str(d, "/r:report/@format", "2");
	/* The first result's texts are its check's, stated once. */
	expect_str(d, "/r:report/r:checks/r:check[1]/r:id",
	    "IB-SMP-UNRESTRICTED");
	expect_str(d, "/r:report/r:checks/r:check[1]/r:rationale", "impact");
	expect_str(d, "/r:report/r:checks/r:check[1]/r:references/"
	    "r:reference", "IBTA 14.2.2");
	expect_num(d, "count(/r:report/r:results/r:result[1]/r:rationale)",
	    0);
	expect_num(d, "count(/r:report/r:results/r:result[1]/r:references)",
	    0);
	expect_str(d, "/r:report/r:scan/r:started", "2026-12-02T10:00:00Z");
	expect_num(d, "count(/r:report/r:scan/r:families/r:family)", 2);
	expect_str(d, "/r:report/r:scan/r:catalogue/r:sources/r:source/r:url",
	    "https://example.org/a");
	/* An unknown member is kept as <other>, losslessly. */
	expect_str(d, "/r:report/r:scan/r:other/r:key", "ib_options");
	expect_str(d, "/r:report/r:scan/r:other/r:value/@type", "object");
	expect_str(d, "/r:report/r:scan/r:other/r:value", "{\"retries\":2}");
	expect_str(d, "/r:report/r:scope/r:tenant", "acme");
	expect_num(d, "count(/r:report/r:scope/r:finished)", 0);
	expect_str(d, "/r:report/r:scope/r:fabric/r:sm_guids/r:guid",
	    "0x0002c90300f1e001");
	expect_str(d, "/r:report/r:scope/r:fabric/r:local_lid", "8");
	expect_str(d, "/r:report/r:previous/r:file", "old/report.json");
	expect_str(d, "/r:report/r:baseline/r:changed", "2");
	expect_num(d, "count(/r:report/r:baseline/r:sha256)", 0);
	expect_str(d, "/r:report/r:expired_waivers/r:waiver/r:check_id",
	    "IB-MKEY-UNSET");
	expect_str(d, "/r:report/r:merged/r:nodes/r:node/r:summary/r:fail",
	    "2");
	expect_str(d, "/r:report/r:families/r:host/r:reason", "no /proc");
	expect_num(d, "count(/r:report/r:families/r:ib/r:reason)", 0);
	expect_str(d, "/r:report/r:summary/r:fail_on", "high");
	expect_num(d, "count(//r:other)", 1);

	/* Round trip: every result, in order, with its ID and status. */
	r = json_object_get(rep, "results");
	expect_num(d, "count(/r:report/r:results/r:result)",
	    (double)json_array_size(r));
	for (i = 0; i < json_array_size(r); i++) {
		snprintf(expr, sizeof(expr),
		    "/r:report/r:results/r:result[%zu]/r:id", i + 1);
		expect_str(d, expr, json_string_value(json_object_get(
		    json_array_get(r, i), "id")));
		snprintf(expr, sizeof(expr),
		    "/r:report/r:results/r:result[%zu]/r:status", i + 1);
		expect_str(d, expr, json_string_value(json_object_get(
		    json_array_get(r, i), "status")));
	}

	/* Evidence values of every JSON type. */
#define EV "/r:report/r:results/r:result[1]/r:evidence/r:item"
	expect_num(d, "count(" EV ")", 7);
	expect_str(d, EV "[1]/r:value/@type", "integer");
	expect_str(d, EV "[1]/r:value", "12");
	expect_num(d, "count(" EV "[2]/r:observation)", 0);
	expect_str(d, EV "[2]/r:field", "reproduce");
	expect_str(d, EV "[2]/r:value", "smpquery -D nodeinfo 0,1");
	expect_str(d, EV "[3]/r:value/@secret", "true");
	expect_str(d, EV "[3]/r:value",
	    "{\"secret\":true,\"value\":\"<redacted>\",\"zero\":false}");
	expect_str(d, EV "[4]/r:value/@type", "real");
	expect_str(d, EV "[4]/r:value", "0.5");
	expect_str(d, EV "[5]/r:value/@type", "null");
	expect_str(d, EV "[5]/r:value", "");
	expect_str(d, EV "[6]/r:value/@type", "boolean");
	expect_str(d, EV "[6]/r:value", "true");
	expect_str(d, EV "[7]/r:value/@type", "array");
	expect_str(d, EV "[7]/r:value", "[1,\"two\"]");
#undef EV
	expect_str(d, "/r:report/r:results/r:result[1]/r:waiver_expired/"
	    "r:policy_line", "12");
	expect_str(d, "/r:report/r:results/r:result[1]/r:targets/r:entry/"
	    "r:node", "gpu-01");
	expect_str(d, "/r:report/r:results/r:result[2]/r:waived/r:expires",
	    "2027-01-31");
	expect_str(d, "/r:report/r:results/r:result[2]/r:target_name",
	    "ufm-sm01 mlx5_0");
	expect_num(d, "count(/r:report/r:results/r:result[1]/r:target_name)",
	    0);
	xmlFreeDoc(d);
	json_decref(rep);
}


/*
 * Streamed through emit, report.xml, junit.xml and report.html are the
 * bytes the in-memory renderings give, and a sink that stops makes the
 * rendering fail with FA_ERR_IO, never a short document called written.
 */
static void
test_streamed_same_bytes(void **state)
{
	static int (*const mem[])(const json_t *, char **, size_t *,
	    char **) = { fa_report_xml, fa_report_junit, fa_report_html };
	static int (*const str[])(const json_t *, fa_emit_fn, void *,
	    char **) = { fa_report_xml_emit, fa_report_junit_emit,
	    fa_report_html_emit };
	json_t *rep = load(full_report);
	struct sink s;
	char *buf, *why;
	size_t len, k;
	int r;

	(void)state;
	for (k = 0; k < 3; k++) {
		memset(&s, 0, sizeof(s));
		why = NULL;
		assert_int_equal(mem[k](rep, &buf, &len, &why), 0);
		r = str[k](rep, sink_emit, &s, &why);
		assert_int_equal(r, 0);
		assert_null(why);
		assert_int_equal(s.n, len);
		assert_memory_equal(s.p, buf, len);
		free(s.p);
		/* Stopped half-way: an error, with a reason. */
		memset(&s, 0, sizeof(s));
		s.stop = len / 2;
		r = str[k](rep, sink_emit, &s, &why);
		assert_int_equal(r, FA_ERR_IO);
		assert_non_null(why);
		assert_true(s.n <= len / 2);
		free(why);
		free(s.p);
		free(buf);
	}
	json_decref(rep);
}

static void
test_full_report_junit(void **state)
{
	json_t *rep = load(full_report);
	xmlDocPtr d;

	(void)state;
	d = render_junit(rep);
	/* 7 results: 2 failures (one below fail_on), 1 waived, 1 error,
	 * 2 skipped, 1 pass. */
	expect_str(d, "/testsuites/@tests", "7");
	expect_str(d, "/testsuites/@failures", "2");
	expect_str(d, "/testsuites/@errors", "1");
	expect_str(d, "/testsuites/@skipped", "3");
	expect_str(d, "/testsuites/@time", "125");
	expect_num(d, "count(/testsuites/testsuite)", 3);
	expect_str(d, "/testsuites/testsuite[1]/@name", "fabaudit.ib");
	expect_str(d, "/testsuites/testsuite[2]/@name", "fabaudit.eth");
	expect_str(d, "/testsuites/testsuite[3]/@name", "fabaudit.host");
	expect_str(d, "/testsuites/testsuite[1]/@tests", "3");
	expect_str(d, "/testsuites/testsuite[1]/@timestamp",
	    "2026-12-02T10:00:00Z");
	expect_str(d, "/testsuites/testsuite[1]/@hostname", "gpu-01");
	expect_str(d, "/testsuites/testsuite[1]/properties/"
	    "property[@name='fabaudit.fail_on']/@value", "high");
	expect_num(d, "count(//testcase)", 7);
	expect_num(d, "sum(/testsuites/testsuite/@tests)", 7);
	expect_num(d, "sum(/testsuites/testsuite/@failures)", 2);
	expect_num(d, "count(//testcase/failure)", 2);
	expect_num(d, "count(//testcase/error)", 1);
	expect_num(d, "count(//testcase/skipped)", 3);
#define TC "/testsuites/testsuite[1]/testcase"
	expect_str(d, TC "[1]/@classname", "fabaudit.ib");
	expect_str(d, TC "[1]/@name", "IB-SMP-UNRESTRICTED local");
	expect_str(d, TC "[1]/failure/@message", "12 answered");
	expect_str(d, TC "[1]/failure/@type", "high");
	expect_num(d, "contains(" TC "[1]/failure, 'reproduce: smpquery "
	    "-D nodeinfo 0,1')", 1);
	expect_num(d, "contains(" TC "[1]/failure, 'remediation: fix it')",
	    1);
	expect_num(d, "contains(" TC "[1]/failure, 'waiver expired on "
	    "2026-11-30 (policy line 12): old')", 1);
	/* A secret stays redacted in the body too. */
	expect_num(d, "contains(" TC "[1]/failure, '<redacted>')", 1);
	expect_str(d, TC "[2]/skipped/@message",
	    "waived until 2027-01-31: ticket 42");
	expect_num(d, "contains(" TC "[2]/skipped, 'reason: r')", 1);
	/* Below --fail-on (high) it is still a failure, typed low. */
	expect_str(d, TC "[3]/failure/@type", "low");
#undef TC
	expect_num(d, "count(/testsuites/testsuite[3]/testcase[1]/*)", 0);
	expect_str(d, "/testsuites/testsuite[3]/testcase[2]/error/@message",
	    "dpkg status unreadable");
	expect_str(d, "/testsuites/testsuite[2]/testcase[1]/skipped/@message",
	    "not tested: not requested");
	expect_str(d, "/testsuites/testsuite[2]/testcase[2]/skipped/@message",
	    "not applicable: no LLDP");
	xmlFreeDoc(d);
	json_decref(rep);
}

/* Every status, severity and family of the model validates. */
static void
test_model_enums(void **state)
{
	json_t *rep, *res;
	xmlDocPtr d;
	int s, v, f;
	char expr[128];

	(void)state;
	for (s = 0; s < FA_ST_MAX; s++)
		for (v = 0; v < FA_SEV_MAX; v++)
			for (f = 0; f < FA_FAM_MAX; f++) {
				res = json_pack("[{s:s, s:s, s:s, s:s}]",
				    "id", "IB-X", "family",
				    fa_family_name((enum fa_family)f),
				    "status", fa_status_name(
				    (enum fa_status)s), "severity",
				    fa_severity_name((enum fa_severity)v));
				rep = json_pack("{s:o, s:{s:s}}", "results",
				    res, "summary", "fail_on",
				    fa_severity_name((enum fa_severity)v));
				assert_non_null(rep);
				d = render_xml(rep);
				snprintf(expr, sizeof(expr), "string(//r:result"
				    "/r:status) = '%s'", fa_status_name(
				    (enum fa_status)s));
				expect_num(d, expr, 1);
				xmlFreeDoc(d);
				xmlFreeDoc(render_junit(rep));
				json_decref(rep);
			}
}

/* Undo the \xNN escaping of an escaped="true" string. */
static size_t
unescape(const char *s, unsigned char *out)
{
	size_t n = 0;
	unsigned v;

	while (*s != '\0') {
		if (s[0] == '\\') {
			assert_int_equal(s[1], 'x');
			assert_int_equal(sscanf(s + 2, "%2x", &v), 1);
			out[n++] = (unsigned char)v;
			s += 4;
		} else
			out[n++] = (unsigned char)*s++;
	}
	return n;
}

/* A report whose first result's reason is the len bytes at s. */
static json_t *
with_reason(const char *s, size_t len)
{
	json_t *rep = json_pack("{s:[{s:s, s:s, s:s, s:s, s:s}]}", "results",
	    "id", "IB-SMP-UNRESTRICTED", "family", "ib", "status", "fail",
	    "severity", "high", "target", "local");

	assert_non_null(rep);
	/* _nocheck: jansson would refuse invalid UTF-8 from a file. */
	assert_int_equal(json_object_set_new(json_array_get(json_object_get(
	    rep, "results"), 0), "reason", json_stringn_nocheck(s, len)), 0);
	return rep;
}

#define REASON	"/r:report/r:results/r:result/r:reason"

static void
test_hostile_strings(void **state)
{
	static const char bad[] = "a<b & c]]>d\"'\x01\x1b[31m\x7f"
	    "\xc2\x85 caf\xc3\xa9 \\ \xff\xfe \xc0\x80 \xed\xa0\x80 "
	    "\xef\xbf\xbe \xf4\x90\x80\x80 \xbf\xbe\t\r\n\0end";
	static const char want[] = "a<b & c]]>d\"'\\x01\\x1b[31m\\x7f"
	    "\\xc2\\x85 caf\xc3\xa9 \\x5c \\xff\\xfe \\xc0\\x80 "
	    "\\xed\\xa0\\x80 \\xef\\xbf\\xbe \\xf4\\x90\\x80\\x80 "
	    "\\xbf\\xbe\t\r\n\\x00end";
	static const char clean[] = "keep <this> & \"that\" \\ caf\xc3\xa9 "
	    "\xf0\x9f\x98\x80 ]]> \r\n";
	unsigned char back[sizeof(bad)];
	json_t *rep;
	xmlDocPtr d;
	char *got;

	(void)state;
	rep = with_reason(bad, sizeof(bad) - 1);
	d = render_xml(rep);
	expect_str(d, REASON, want);
	expect_str(d, REASON "/@escaped", "true");
	got = xstr(d, REASON);
	assert_int_equal(unescape(got, back), sizeof(bad) - 1);
	assert_memory_equal(back, bad, sizeof(bad) - 1);
	free(got);
	xmlFreeDoc(d);
	/* The same in attributes and text of junit.xml. */
	d = render_junit(rep);
	expect_str(d, "//failure/@message", want);
	expect_num(d, "contains(//failure, 'reason: a<b & c]]>d')", 1);
	xmlFreeDoc(d);
	json_decref(rep);

	/* Nothing to escape: unchanged, backslash included, no flag. */
	rep = with_reason(clean, sizeof(clean) - 1);
	d = render_xml(rep);
	expect_str(d, REASON, clean);
	expect_num(d, "count(" REASON "/@escaped)", 0);
	xmlFreeDoc(d);
	json_decref(rep);
}

/* Random bytes: always well-formed and valid, always restorable. */
static void
test_random_bytes(void **state)
{
	unsigned char s[64], back[64];
	json_t *rep;
	xmlDocPtr d;
	char *got, *esc;
	size_t len, i, n;
	int k;

	(void)state;
	srand(20261202);
	for (k = 0; k < 500; k++) {
		len = (size_t)(rand() % (int)sizeof(s));
		for (i = 0; i < len; i++)
			/* Bias towards the bytes of UTF-8 sequences. */
			s[i] = (unsigned char)(rand() % 3 == 0 ?
			    0x80 + rand() % 0x80 : rand() % 0x100);
		rep = with_reason((const char *)s, len);
		d = render_xml(rep);
		got = xstr(d, REASON);
		esc = xstr(d, REASON "/@escaped");
		if (strcmp(esc, "true") == 0)
			n = unescape(got, back);
		else {
			n = strlen(got);
			memcpy(back, got, n);
		}
		assert_int_equal(n, len);
		assert_memory_equal(back, s, len);
		free(got);
		free(esc);
		xmlFreeDoc(d);
		xmlFreeDoc(render_junit(rep));
		json_decref(rep);
	}
}

/* Input of any shape renders and validates. */
static void
test_garbage(void **state)
{
	static const char *const inputs[] = {
		"{}",
		"[]",
		"42",
		"\"report\"",
		"null",
		"{\"results\":{}}",
		"{\"results\":\"none\"}",
		"{\"results\":[1, null, \"x\", [], {}]}",
		"{\"results\":[{\"id\":\"IB-X\",\"family\":\"ib\","
		    "\"status\":\"maybe\",\"severity\":\"high\"}]}",
		"{\"results\":[{\"id\":\"ib-lower\",\"family\":\"ib\","
		    "\"status\":\"fail\",\"severity\":\"high\"}]}",
		"{\"results\":[{\"id\":\"IB-X\",\"family\":\"nvlink\","
		    "\"status\":\"fail\",\"severity\":\"urgent\"}]}",
		"{\"results\":[{\"id\":7,\"family\":[],\"status\":{},"
		    "\"severity\":null,\"title\":1,\"target\":2.5,"
		    "\"evidence\":\"none\",\"references\":[1,\"r\"],"
		    "\"waived\":\"yes\",\"baseline\":\"old\"}]}",
		"{\"results\":[{\"id\":\"IB-X\",\"family\":\"ib\","
		    "\"status\":\"fail\",\"severity\":\"high\","
		    "\"title\":1,\"target\":[],\"reason\":{},"
		    "\"evidence\":[3,{\"value\":{\"secret\":true}},"
		    "{\"field\":5}],\"waived\":{\"expires\":\"someday\","
		    "\"policy_line\":-1,\"reason\":false},"
		    "\"targets\":[\"x\",{\"node\":1}]}]}",
		"{\"schema\":5,\"tool\":\"fabaudit\",\"scan\":{\"started\":"
		    "\"2026-02-30T10:00:00Z\",\"finished\":\" 2026-12-02T10:00"
		    ":00Z\",\"families\":[\"ib\",\"x\",3],\"active\":\"no\","
		    "\"catalogue\":{\"date\":\"2026-13-01\",\"age_days\":1.5,"
		    "\"sources\":{}}},\"scope\":[],\"evaluation\":{\"mode\":"
		    "\"dream\",\"generated\":0},\"snapshot\":{\"sha256\":"
		    "\"ABC\"},\"families\":{\"ib\":{\"state\":\"gone\"},"
		    "\"x\":1},\"summary\":{\"pass\":-1,\"fail\":\"3\","
		    "\"fail_on\":\"all\",\"catalogue_stale\":1},"
		    "\"expired_waivers\":[{\"check_id\":\"nope\"}],"
		    "\"merged\":{\"reports\":-2,\"nodes\":[1]},"
		    "\"baseline\":{\"new_failures\":[\"IB-X\"]},"
		    "\"results\":[]}",
		"{\"summary\":{\"pass\":9223372036854775807},"
		    "\"results\":[{\"id\":\"IB-X\",\"family\":\"ib\","
		    "\"status\":\"pass\",\"severity\":\"info\",\"evidence\":"
		    "[{\"value\":[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}]}]}",
	};
	json_error_t e;
	json_t *j;
	xmlDocPtr d;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		j = json_loads(inputs[i], JSON_DECODE_ANY, &e);
		if (j == NULL)
			fail_msg("input %zu: %s", i, e.text);
		d = render_xml(j);
		expect_num(d, "count(/r:report/r:results)", 1);
		xmlFreeDoc(d);
		xmlFreeDoc(render_junit(j));
		json_decref(j);
	}
	/* No report at all. */
	xmlFreeDoc(render_xml(NULL));
	xmlFreeDoc(render_junit(NULL));
}

/* A wrong value is kept as <other>, never in the typed element. */
static void
test_wrong_types_kept(void **state)
{
	json_t *j = load("{\"scan\":{\"started\":\"yesterday\","
	    "\"host\":42},\"summary\":{\"pass\":-1,\"fail\":2},\"results\":"
	    "[{\"id\":\"IB-X\",\"family\":\"ib\",\"status\":\"maybe\","
	    "\"severity\":\"high\"},{\"id\":\"IB-Y\",\"family\":\"ib\","
	    "\"status\":\"pass\",\"severity\":\"low\",\"baseline\":\"gone\"}],"
	    "\"extra\":[true]}");
	xmlDocPtr d;

	(void)state;
	d = render_xml(j);
	expect_num(d, "count(/r:report/r:scan/r:started)", 0);
	expect_str(d, "/r:report/r:scan/r:other[1]/r:key", "started");
	expect_str(d, "/r:report/r:scan/r:other[1]/r:value", "yesterday");
	expect_str(d, "/r:report/r:scan/r:other[2]/r:key", "host");
	expect_str(d, "/r:report/r:scan/r:other[2]/r:value/@type",
	    "integer");
	expect_num(d, "count(/r:report/r:summary/r:pass)", 0);
	expect_str(d, "/r:report/r:summary/r:fail", "2");
	expect_str(d, "/r:report/r:summary/r:other/r:value", "-1");
	/* The result with status "maybe" is kept whole, not as a result. */
	expect_num(d, "count(/r:report/r:results/r:result)", 1);
	expect_num(d, "count(/r:report/r:results/r:other)", 1);
	expect_num(d, "contains(/r:report/r:results/r:other/r:value, "
	    "'\"status\":\"maybe\"')", 1);
	expect_str(d, "/r:report/r:results/r:result/r:other/r:key",
	    "baseline");
	expect_str(d, "/r:report/r:other/r:key", "extra");
	expect_str(d, "/r:report/r:other/r:value", "[true]");
	xmlFreeDoc(d);

	/* junit: the unreadable result is an error, not a pass. */
	d = render_junit(j);
	expect_str(d, "/testsuites/@tests", "2");
	expect_str(d, "/testsuites/@errors", "1");
	expect_num(d, "contains(//error/@message, 'invalid status "
	    "\"maybe\"')", 1);
	xmlFreeDoc(d);
	json_decref(j);
}

static void
test_junit_no_results(void **state)
{
	json_t *j = load("{}");
	xmlDocPtr d;

	(void)state;
	d = render_junit(j);
	expect_str(d, "/testsuites/@tests", "1");
	expect_str(d, "/testsuites/@errors", "1");
	expect_str(d, "//testcase/@classname", "fabaudit.report");
	xmlFreeDoc(d);
	json_decref(j);
	/* An empty list is no error: nothing ran. */
	j = load("{\"results\":[]}");
	d = render_junit(j);
	expect_str(d, "/testsuites/@tests", "0");
	expect_num(d, "count(//testsuite)", 0);
	xmlFreeDoc(d);
	json_decref(j);
}

static void
test_huge_strings(void **state)
{
	size_t big = 1024 * 1024;
	char *s = malloc(big), *buf = (char *)1, *why = NULL;
	size_t len = 1, i, want = 0;
	json_t *rep;
	xmlDocPtr d;

	(void)state;
	assert_non_null(s);
	/* Nine bytes, the NUL included: four of them become \xNN. */
	for (i = 0; i < big; i++) {
		s[i] = "<&\x01\xff]>a\\"[i % 9];
		want += strchr("<&]>a", s[i]) != NULL && s[i] != '\0' ? 1 : 4;
	}
	rep = with_reason(s, big);
	d = render_xml(rep);
	expect_num(d, "string-length(" REASON ")", (double)want);
	xmlFreeDoc(d);
	xmlFreeDoc(render_junit(rep));
	json_decref(rep);
	free(s);

	/* Beyond the ceiling: an error, not a crash or a half file. */
	big = 64 * 1024 * 1024 + 1;
	assert_non_null(s = calloc(1, big));
	memset(s, 'a', big);
	rep = with_reason(s, big);
	free(s);
	assert_int_equal(fa_report_xml(rep, &buf, &len, &why), FA_ERR_TOOBIG);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_non_null(why);
	assert_non_null(strstr(why, "too long"));
	free(why);
	why = NULL;
	buf = (char *)1;
	assert_int_equal(fa_report_junit(rep, &buf, &len, &why),
	    FA_ERR_TOOBIG);
	assert_null(buf);
	assert_non_null(why);
	free(why);
	json_decref(rep);
}

/*
 * A check's texts once: the three results of IB-A share their first's
 * texts, but the third has a remediation of its own, which it keeps (and
 * only that); IB-B's result gives IB-B's.  Nothing of report.json is lost:
 * each result's texts are its own elements or else its check's.
 */
static void
test_texts_once(void **state)
{
#define R(id, rem)							\
	"{\"id\":\"" id "\",\"family\":\"ib\",\"status\":\"fail\","	\
	"\"severity\":\"high\",\"rationale\":\"why " id "\","		\
	"\"remediation\":\"" rem "\",\"msa_clause\":\"clause\","	\
	"\"references\":[\"ref\"]}"
	static const char rep_text[] = "{\"results\":[" R("IB-A", "fix")
	    "," R("IB-A", "fix") "," R("IB-B", "mend") "," R("IB-A", "other")
	    "]}";
#undef R
	json_t *rep = load(rep_text);
	xmlDocPtr d;

	(void)state;
	d = render_xml(rep);
	expect_num(d, "count(/r:report/r:checks/r:check)", 2);
	expect_str(d, "/r:report/r:checks/r:check[1]/r:id", "IB-A");
	expect_str(d, "/r:report/r:checks/r:check[1]/r:remediation", "fix");
	expect_str(d, "/r:report/r:checks/r:check[2]/r:id", "IB-B");
	expect_str(d, "/r:report/r:checks/r:check[2]/r:rationale",
	    "why IB-B");
	expect_str(d, "/r:report/r:checks/r:check[2]/r:msa_clause", "clause");
	expect_num(d, "count(/r:report/r:results/r:result)", 4);
	expect_num(d, "count(/r:report/r:results/r:result[1]/*)", 4);
	expect_num(d, "count(/r:report/r:results/r:result[2]/*)", 4);
	expect_num(d, "count(/r:report/r:results/r:result[3]/*)", 4);
	expect_num(d, "count(/r:report/r:results/r:result[4]/*)", 5);
	expect_str(d, "/r:report/r:results/r:result[4]/r:remediation",
	    "other");
	xmlFreeDoc(d);
	json_decref(rep);
}

/*
 * report.xml and junit.xml of a schema 2 report (texts once, in "checks")
 * are the bytes of the same report in schema 1.
 */
static void
test_schema2_same_bytes(void **state)
{
	static int (*const fn[])(const json_t *, char **, size_t *,
	    char **) = { fa_report_xml, fa_report_junit };
	json_t *rep1 = load(full_report), *rep2;
	char *b1, *b2, *why = NULL;
	size_t l1, l2, k;

	(void)state;
	assert_non_null(rep2 = report_to_schema2(rep1));
	/* The schema string is the one difference: make it the same. */
	assert_int_equal(json_object_set_new(rep2, "schema",
	    json_string("fabaudit-report/1")), 0);
	for (k = 0; k < 2; k++) {
		assert_int_equal(fn[k](rep1, &b1, &l1, &why), 0);
		assert_int_equal(fn[k](rep2, &b2, &l2, &why), 0);
		assert_int_equal(l1, l2);
		assert_memory_equal(b1, b2, l1);
		free(b1);
		free(b2);
	}
	json_decref(rep1);
	json_decref(rep2);
}

/* The schema is not vacuous: a broken document is refused. */
static void
test_schema_rejects(void **state)
{
	static const struct {
		const char *from, *to;
	} breaks[] = {
		{ "<status>fail</status>", "<status>maybe</status>" },
		{ "<severity>high</severity>", "<severity>urgent</severity>" },
		{ "<family>ib</family>", "<family>nvlink</family>" },
		{ "<started>2026-12-02T10:00:00Z</started>",
		  "<started>yesterday</started>" },
		{ "<pass>1</pass>", "<pass>-1</pass>" },
		{ "<id>IB-SMP-UNRESTRICTED</id>", "" },
		{ "<title>SMPs reach other nodes</title>",
		  "<bogus>x</bogus>" },
		{ "<mode>scan</mode>", "<mode>dream</mode>" },
		{ "format=\"2\"", "format=\"3\"" },
		{ "<catalogue_stale>true</catalogue_stale>",
		  "<catalogue_stale>maybe</catalogue_stale>" },
	};
	json_t *rep = load(full_report);
	char *buf, *why = NULL, *p, *doc;
	size_t len, i, n;
	xmlDocPtr d;

	(void)state;
	assert_int_equal(fa_report_xml(rep, &buf, &len, &why), 0);
	for (i = 0; i < sizeof(breaks) / sizeof(breaks[0]); i++) {
		p = strstr(buf, breaks[i].from);
		if (p == NULL)
			fail_msg("'%s' not in the output", breaks[i].from);
		n = (size_t)(p - buf);
		assert_non_null(doc = malloc(len + strlen(breaks[i].to) + 1));
		memcpy(doc, buf, n);
		snprintf(doc + n, len + strlen(breaks[i].to) + 1 - n, "%s%s",
		    breaks[i].to, p + strlen(breaks[i].from));
		d = parse(doc, strlen(doc));
		if (valid(report_xsd, d))
			fail_msg("accepted with %s", breaks[i].to);
		xmlFreeDoc(d);
		free(doc);
	}
	free(buf);
	json_decref(rep);
}

/*
 * `test_report_xml render xml|junit report.json`: print the rendering of a
 * report file, for tests/report/test_xml.sh (which edits reports that no
 * command would write).  Exit 1 with the error on failure.
 */
static int
render_file(const char *fmt, const char *path)
{
	json_error_t e;
	json_t *j;
	char *buf = NULL, *why = NULL;
	size_t len = 0;
	int r;

	if ((j = json_load_file(path, 0, &e)) == NULL) {
		fprintf(stderr, "%s:%d: %s\n", path, e.line, e.text);
		return 1;
	}
	r = strcmp(fmt, "junit") == 0 ? fa_report_junit(j, &buf, &len, &why) :
	    fa_report_xml(j, &buf, &len, &why);
	json_decref(j);
	if (r != 0) {
		fprintf(stderr, "%s: %s\n", path, why != NULL ? why : "?");
		free(why);
		return 1;
	}
	r = fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0;
	free(buf);
	return r;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_report_xml),
		cmocka_unit_test(test_texts_once),
		cmocka_unit_test(test_schema2_same_bytes),
		cmocka_unit_test(test_full_report_junit),
		cmocka_unit_test(test_streamed_same_bytes),
		cmocka_unit_test(test_model_enums),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_wrong_types_kept),
		cmocka_unit_test(test_junit_no_results),
		cmocka_unit_test(test_huge_strings),
		cmocka_unit_test(test_schema_rejects),
	};

	if (argc == 4 && strcmp(argv[1], "render") == 0)
		return render_file(argv[2], argv[3]);
	return cmocka_run_group_tests(tests, setup, teardown);
}
