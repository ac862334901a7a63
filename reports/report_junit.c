/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * junit.xml: the results of report.json in the JUnit XML format that
 * Jenkins, GitLab and Surefire read (no official schema exists;
 * data/junit.xsd describes the subset written here).  One <testsuite> per
 * family, one <testcase> per result:
 *   pass                          plain <testcase>
 *   fail                          <failure message=reason type=severity>,
 *                                 whatever --fail-on says (the severity is
 *                                 the type, the threshold a property)
 *   fail with a waiver            <skipped message="waived until DATE:
 *                                 reason">: accepted by the policy, so it
 *                                 must not break a build, but stays visible
 *   error, or an unreadable entry <error message=reason>
 *   not_tested, not_applicable    <skipped message="not tested: reason">
 * Failures, errors and waived failures carry the evidence and the
 * remediation as text.  A merged cluster report with nodes whose results
 * it lacks (rejected, failed, timed out, missing: reports/merge.h) has
 * one more suite, fabaudit.nodes, an <error> per such node, so that a CI
 * job sees an incomplete cluster audit.  Written with libxml2's
 * xmlTextWriter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/errors.h"
#include "../core/model.h"
#include "../core/util.h"
#include "report.h"
#include "xml_util.h"

enum kind { K_PASS, K_FAIL, K_WAIVED, K_ERROR, K_SKIP, K_BAD };

struct suite {
	const char	*family;	/* the results' family string */
	size_t		 tests, failures, errors, skipped;
};

struct tally {
	struct suite	*v;
	size_t		 n, cap;
};

/* "unknown" stands for any family that is not a string. */
static const char *
family_of(const json_t *r)
{
	const char *s = fa_xml_jstr(json_object_get(r, "family"));

	return s != NULL ? s : "unknown";
}

static enum kind
kind_of(const json_t *r)
{
	const char *st = fa_xml_jstr(json_object_get(r, "status"));

	if (!json_is_object(r) || st == NULL)
		return K_BAD;
	if (strcmp(st, "pass") == 0)
		return K_PASS;
	if (strcmp(st, "fail") == 0)
		return json_is_object(json_object_get(r, "waived")) ?
		    K_WAIVED : K_FAIL;
	if (strcmp(st, "error") == 0)
		return K_ERROR;
	if (strcmp(st, "not_tested") == 0 ||
	    strcmp(st, "not_applicable") == 0)
		return K_SKIP;
	return K_BAD;
}

static void
count(struct suite *s, enum kind k)
{
	s->tests++;
	if (k == K_FAIL)
		s->failures++;
	else if (k == K_ERROR || k == K_BAD)
		s->errors++;
	else if (k == K_WAIVED || k == K_SKIP)
		s->skipped++;
}

/* The suite of family fam, added (in order of appearance) if new. */
static struct suite *
suite_for(struct tally *t, const char *fam)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->v[i].family, fam) == 0)
			return &t->v[i];
	if (fa_grow(&t->v, &t->cap, t->n + 1, sizeof(t->v[0])) != 0)
		return NULL;
	memset(&t->v[t->n], 0, sizeof(t->v[0]));
	t->v[t->n].family = fam;
	return &t->v[t->n++];
}

/* Count the results per suite, the known families first. */
static int
tally(const json_t *results, struct tally *t, struct suite *all)
{
	static const char *const known[] = { "ib", "eth", "host" };
	const json_t *r;
	struct suite *s;
	size_t i;

	memset(all, 0, sizeof(*all));
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (suite_for(t, known[i]) == NULL)
			return FA_ERR_NOMEM;
	if (!json_is_array(results)) {
		/* A single error: the report has no results to show. */
		if ((s = suite_for(t, "report")) == NULL)
			return FA_ERR_NOMEM;
		count(s, K_BAD);
		count(all, K_BAD);
		return 0;
	}
	json_array_foreach(results, i, r) {
		if ((s = suite_for(t, family_of(r))) == NULL)
			return FA_ERR_NOMEM;
		count(s, kind_of(r));
		count(all, kind_of(r));
	}
	return 0;
}

static void
attr_count(struct fa_xw *x, const char *name, size_t n)
{
	char num[32];

	snprintf(num, sizeof(num), "%zu", n);
	fa_xw_attr(x, name, num);
}

static void
attr_counts(struct fa_xw *x, const struct suite *s)
{
	attr_count(x, "tests", s->tests);
	attr_count(x, "failures", s->failures);
	attr_count(x, "errors", s->errors);
	attr_count(x, "skipped", s->skipped);
}

/* Seconds from started to finished, both "YYYY-MM-DDThh:mm:ssZ"; 0 when
 * either is missing or malformed. */
static long
duration(const json_t *scan)
{
	const char *t[2];
	time_t v[2];
	struct tm tm;
	char *end;
	int i;

	t[0] = fa_xml_jstr(json_object_get(scan, "started"));
	t[1] = fa_xml_jstr(json_object_get(scan, "finished"));
	for (i = 0; i < 2; i++) {
		memset(&tm, 0, sizeof(tm));
		if (t[i] == NULL || (end = strptime(t[i],
		    "%Y-%m-%dT%H:%M:%SZ", &tm)) == NULL || *end != '\0' ||
		    (v[i] = timegm(&tm)) == (time_t)-1)
			return 0;
	}
	return v[1] > v[0] && v[1] - v[0] < 366L * 86400 ?
	    (long)(v[1] - v[0]) : 0;
}

/* <property name="fabaudit.NAME" value=""/> for a string or integer. */
static void
property(struct fa_xw *x, const char *name, const json_t *v)
{
	char num[32];

	if (!json_is_string(v) && !json_is_integer(v))
		return;
	fa_xw_start(x, "property");
	fa_xw_attr(x, "name", name);
	if (json_is_integer(v)) {
		snprintf(num, sizeof(num), "%lld",
		    (long long)json_integer_value(v));
		fa_xw_attr(x, "value", num);
	} else
		fa_xw_uattr(x, "value", json_string_value(v),
		    json_string_length(v));
	fa_xw_end(x);
}

static void
properties(struct fa_xw *x, const json_t *rep)
{
	const json_t *sum = json_object_get(rep, "summary");

	fa_xw_start(x, "properties");
	property(x, "fabaudit.version", json_object_get(
	    json_object_get(rep, "tool"), "version"));
	property(x, "fabaudit.mode", json_object_get(
	    json_object_get(rep, "evaluation"), "mode"));
	property(x, "fabaudit.snapshot_sha256", json_object_get(
	    json_object_get(rep, "snapshot"), "sha256"));
	property(x, "fabaudit.fail_on", json_object_get(sum, "fail_on"));
	property(x, "fabaudit.failing_at_or_above",
	    json_object_get(sum, "failing_at_or_above"));
	fa_xw_end(x);
}

/* The bytes of a string member, or of dflt. */
static void
put_str(FILE *f, const json_t *v, const char *dflt)
{
	if (json_is_string(v))
		fwrite(json_string_value(v), 1, json_string_length(v), f);
	else if (dflt != NULL)
		fputs(dflt, f);
}

/* A string as itself, anything else as compact JSON. */
static void
put_any(FILE *f, const json_t *v)
{
	char *s;

	if (json_is_string(v)) {
		put_str(f, v, NULL);
		return;
	}
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	fputs(s != NULL ? s : "?", f);
	free(s);
}

/* Why a result with status v is none: v shown as JSON ("maybe"). */
static void
bad_status(FILE *f, const json_t *v)
{
	char *s;

	if (v == NULL) {
		fputs("not a result: no status", f);
		return;
	}
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	fprintf(f, "not a result: invalid status %s", s != NULL ? s : "?");
	free(s);
}

/* "label: text\n" when member key of r is a string. */
/* "label: value" for a string value; nothing for anything else. */
static void
text_line(FILE *f, const char *label, const json_t *v)
{
	if (!json_is_string(v))
		return;
	fprintf(f, "%s: ", label);
	put_str(f, v, NULL);
	fputc('\n', f);
}

static void
line(FILE *f, const char *label, const json_t *r, const char *key)
{
	text_line(f, label, json_object_get(r, key));
}

static void
waiver_line(FILE *f, const char *what, const json_t *w)
{
	if (!json_is_object(w))
		return;
	fprintf(f, "%s ", what);
	put_str(f, json_object_get(w, "expires"), "?");
	if (json_is_integer(json_object_get(w, "policy_line")))
		fprintf(f, " (policy line %lld)", (long long)json_integer_value(
		    json_object_get(w, "policy_line")));
	fputs(": ", f);
	put_str(f, json_object_get(w, "reason"), "");
	fputc('\n', f);
}

/* The text of a failure, error or waived failure: what a reader of the CI
 * page needs to judge it without report.json. */
static void
body(FILE *f, const json_t *rep, const json_t *r)
{
	const json_t *ev, *e, *refs;
	size_t i;

	put_str(f, json_object_get(r, "id"), "?");
	fputs(": ", f);
	put_str(f, json_object_get(r, "title"), "");
	fputc('\n', f);
	line(f, "severity", r, "severity");
	line(f, "target", r, "target");
	line(f, "target name", r, "target_name");
	line(f, "reason", r, "reason");
	if (json_is_array(ev = json_object_get(r, "evidence")) &&
	    json_array_size(ev) > 0) {
		fputs("evidence:\n", f);
		json_array_foreach(ev, i, e) {
			fputs("  ", f);
			if (json_is_string(json_object_get(e, "observation"))) {
				put_str(f, json_object_get(e, "observation"),
				    NULL);
				fputc(' ', f);
			}
			put_str(f, json_object_get(e, "field"), "?");
			fputs(": ", f);
			put_any(f, json_object_get(e, "value"));
			fputc('\n', f);
		}
	}
	/* The check's texts: the result's own, or its check's. */
	text_line(f, "impact", fa_report_text(rep, r, "rationale"));
	text_line(f, "remediation", fa_report_text(rep, r, "remediation"));
	text_line(f, "contract clause", fa_report_text(rep, r, "msa_clause"));
	if (json_is_array(refs = fa_report_text(rep, r, "references")) &&
	    json_array_size(refs) > 0) {
		fputs("references:\n", f);
		json_array_foreach(refs, i, e) {
			fputs("  ", f);
			put_any(f, e);
			fputc('\n', f);
		}
	}
	waiver_line(f, "waived until", json_object_get(r, "waived"));
	waiver_line(f, "waiver expired on", json_object_get(r,
	    "waiver_expired"));
	line(f, "baseline", r, "baseline");
}

/*
 * Text assembled with stdio in memory (the writer's scratch stream), then
 * written (sanitised) as an attribute (attr not NULL) or as the element's
 * content.
 */
struct text {
	FILE	*f;
};

static FILE *
text_open(struct fa_xw *x, struct text *t)
{
	return t->f = fa_xw_scratch(x);
}

static void
text_put(struct fa_xw *x, struct text *t, const char *attr)
{
	if (t->f == NULL || fa_xw_scratch_done(x) != 0)
		return;
	if (attr != NULL)
		fa_xw_uattr(x, attr, x->sbuf, x->slen);
	else
		fa_xw_utext(x, x->sbuf, x->slen);
	t->f = NULL;
}

/* The one-line message of an outcome other than pass. */
static void
message(FILE *f, const json_t *r, enum kind k)
{
	const json_t *w = json_object_get(r, "waived");
	const char *st = fa_xml_jstr(json_object_get(r, "status"));

	if (!json_is_object(r))
		fputs("not a result: an entry of results that is not an object",
		    f);
	else if (k == K_BAD)
		bad_status(f, json_object_get(r, "status"));
	else if (k == K_WAIVED) {
		fputs("waived until ", f);
		put_str(f, json_object_get(w, "expires"), "?");
		fputs(": ", f);
		put_str(f, json_object_get(w, "reason"), "");
	} else {
		if (k == K_SKIP)
			fputs(strcmp(st, "not_tested") == 0 ? "not tested: " :
			    "not applicable: ", f);
		put_str(f, json_object_get(r, "reason"), "");
	}
}

static void
testcase(struct fa_xw *x, const json_t *rep, const json_t *r, size_t idx,
    const char *cls)
{
	static const char *const elem[] = {
		[K_FAIL] = "failure", [K_WAIVED] = "skipped",
		[K_ERROR] = "error", [K_SKIP] = "skipped", [K_BAD] = "error",
	};
	enum kind k = kind_of(r);
	enum fa_severity s;
	const char *sev;
	struct text t;

	fa_xw_start(x, "testcase");
	fa_xw_uattr(x, "classname", cls, strlen(cls));
	if (text_open(x, &t) != NULL) {
		if (json_is_object(r)) {
			put_str(t.f, json_object_get(r, "id"), "?");
			if (json_is_string(json_object_get(r, "target"))) {
				fputc(' ', t.f);
				put_str(t.f, json_object_get(r, "target"),
				    NULL);
			}
		} else
			fprintf(t.f, "results[%zu]", idx);
		text_put(x, &t, "name");
	}
	fa_xw_attr(x, "time", "0");
	if (k == K_PASS) {
		fa_xw_end(x);
		return;
	}
	fa_xw_start(x, elem[k]);
	if (text_open(x, &t) != NULL) {
		message(t.f, r, k);
		text_put(x, &t, "message");
	}
	if (k == K_FAIL) {
		sev = fa_xml_jstr(json_object_get(r, "severity"));
		fa_xw_attr(x, "type", sev != NULL &&
		    fa_severity_parse(sev, &s) == 0 ? sev : "unknown");
	}
	if (k != K_SKIP && json_is_object(r) && text_open(x, &t) != NULL) {
		body(t.f, rep, r);
		text_put(x, &t, NULL);
	}
	fa_xw_end(x);
	fa_xw_end(x);
}

static void
testsuite(struct fa_xw *x, const json_t *rep, const struct suite *s,
    const char *stamp)
{
	const json_t *results = json_object_get(rep, "results"), *r;
	const json_t *host = json_object_get(json_object_get(rep, "scan"),
	    "host");
	char *cls;
	size_t i;

	if ((cls = fa_strfmt("fabaudit.%s", s->family)) == NULL) {
		fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
		return;
	}
	fa_xw_start(x, "testsuite");
	fa_xw_uattr(x, "name", cls, strlen(cls));
	attr_counts(x, s);
	fa_xw_attr(x, "time", "0");
	if (stamp != NULL)
		fa_xw_attr(x, "timestamp", stamp);
	if (json_is_string(host))
		fa_xw_uattr(x, "hostname", json_string_value(host),
		    json_string_length(host));
	properties(x, rep);
	if (!json_is_array(results)) {
		fa_xw_start(x, "testcase");
		fa_xw_attr(x, "classname", "fabaudit.report");
		fa_xw_attr(x, "name", "results");
		fa_xw_attr(x, "time", "0");
		fa_xw_start(x, "error");
		fa_xw_attr(x, "message", "report.json has no results array");
		fa_xw_end(x);
		fa_xw_end(x);
	} else
		json_array_foreach(results, i, r)
			if (strcmp(family_of(r), s->family) == 0)
				testcase(x, rep, r, i, cls);
	fa_xw_end(x);
	free(cls);
}

/* merged.nodes entries whose state is not "scanned" (0 without any). */
static size_t
unscanned(const json_t *rep)
{
	const json_t *n, *st;
	size_t i, k = 0;

	json_array_foreach(json_object_get(json_object_get(rep, "merged"),
	    "nodes"), i, n)
		if (json_is_string(st = json_object_get(n, "state")) &&
		    strcmp(json_string_value(st), "scanned") != 0)
			k++;
	return k;
}

/* The fabaudit.nodes suite of a merged report (s: its counts). */
static void
nodes_suite(struct fa_xw *x, const json_t *rep, const struct suite *s)
{
	const json_t *n, *st;
	struct text t;
	size_t i;

	fa_xw_start(x, "testsuite");
	fa_xw_attr(x, "name", "fabaudit.nodes");
	attr_counts(x, s);
	fa_xw_attr(x, "time", "0");
	json_array_foreach(json_object_get(json_object_get(rep, "merged"),
	    "nodes"), i, n) {
		if (!json_is_string(st = json_object_get(n, "state")) ||
		    strcmp(json_string_value(st), "scanned") == 0)
			continue;
		fa_xw_start(x, "testcase");
		fa_xw_attr(x, "classname", "fabaudit.nodes");
		if (text_open(x, &t) != NULL) {
			put_str(t.f, json_object_get(n, "node"), "?");
			text_put(x, &t, "name");
		}
		fa_xw_attr(x, "time", "0");
		fa_xw_start(x, "error");
		if (text_open(x, &t) != NULL) {
			put_str(t.f, st, "?");
			fputs(": ", t.f);
			put_str(t.f, json_object_get(n, strcmp(
			    json_string_value(st), "rejected") == 0 ?
			    "signature_detail" : "reason"), "");
			text_put(x, &t, "message");
		}
		fa_xw_end(x);
		fa_xw_end(x);
	}
	fa_xw_end(x);
}

/* The document into memory (emit NULL: *buf, *len) or through emit. */
static int
render(const json_t *report, fa_emit_fn emit, void *arg, char **buf,
    size_t *len, char **why)
{
	struct tally t = { NULL, 0, 0 };
	struct suite all, nodes = { "nodes", 0, 0, 0, 0 };
	struct fa_xw x;
	size_t left = unscanned(report);
	const json_t *scan = json_object_get(report, "scan");
	const char *stamp;
	char secs[32];
	size_t i;
	int r;

	if (why != NULL)
		*why = NULL;
	if ((r = tally(json_object_get(report, "results"), &t, &all)) != 0) {
		free(t.v);
		if (why != NULL)
			*why = fa_strdup("out of memory");
		return r;
	}
	if (left > 0) {
		nodes.tests = nodes.errors = left;
		all.tests += left;
		all.errors += left;
	}
	stamp = fa_xml_jstr(json_object_get(scan, "started"));
	if (!fa_xml_is_datetime(stamp))
		stamp = NULL;
	snprintf(secs, sizeof(secs), "%ld", duration(scan));
	if (fa_xw_begin_to(&x, emit, arg) == 0) {
		fa_xw_start(&x, "testsuites");
		fa_xw_attr(&x, "name", "fabaudit");
		attr_counts(&x, &all);
		fa_xw_attr(&x, "time", secs);
		for (i = 0; i < t.n; i++)
			if (t.v[i].tests > 0)
				testsuite(&x, report, &t.v[i], stamp);
		if (left > 0)
			nodes_suite(&x, report, &nodes);
		fa_xw_end(&x);
	}
	free(t.v);
	return fa_xw_finish(&x, buf, len, why);
}

int
fa_report_junit(const json_t *report, char **buf, size_t *len, char **why)
{
	*buf = NULL;
	*len = 0;
	return render(report, NULL, NULL, buf, len, why);
}

int
fa_report_junit_emit(const json_t *report, fa_emit_fn emit, void *arg,
    char **why)
{
	return render(report, emit, arg, NULL, NULL, why);
}
