/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.xml: report.json rendered as XML in the namespace
 * urn:fabaudit:report:1, valid against data/fabaudit-report.xsd whatever
 * the JSON holds.  The tables below follow the schema's sequences member
 * by member; a member they do not name, or whose value has the wrong type,
 * is kept as <other><key/><value type=""/></other> at the end of its
 * parent, so nothing of the report is lost and no bad value reaches a
 * typed element.  Written with libxml2's xmlTextWriter.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/model.h"
#include "../core/snapshot.h"
#include "../core/util.h"
#include "report.h"
#include "xml_util.h"

#define FA_XML_NS	"urn:fabaudit:report:1"
#define FA_XML_FORMAT	"2"	/* the root's format attribute */

enum ftype {
	F_TEXT,		/* any string, sanitised */
	F_ANY,		/* any JSON value, null included: <value type=""> */
	F_ENUM,		/* a string that ok() accepts */
	F_DATETIME,	/* xs:dateTime */
	F_DATE,		/* xs:date */
	F_SHA256,	/* 64 lower-case hex digits */
	F_COUNT,	/* integer >= 0 */
	F_INT,		/* integer */
	F_BOOL,
	F_OBJ,		/* object: members per sub[], valid per okobj() */
	F_LIST,		/* array: items per item */
	F_RESULTS,	/* the results: <checks>, then a F_LIST (below) */
	F_READ		/* an array read by another field's writer */
};

struct field {
	const char		*key;	/* JSON member = XML element */
	enum ftype		 t;
	int			(*ok)(const char *);
	const struct field	*sub;	/* F_OBJ: members, up to a NULL key */
	const struct field	*item;	/* F_LIST: one item's description */
	int			(*okobj)(const json_t *); /* F_OBJ, or NULL */
	int			 always; /* written, empty, when absent */
};

/* Enumerations: the model's own parsers, so the names cannot drift. */
static int
ok_family(const char *s)
{
	enum fa_family f;

	return fa_family_parse(s, &f) == 0;
}

static int
ok_status(const char *s)
{
	enum fa_status st;

	return fa_status_parse(s, &st) == 0;
}

static int
ok_severity(const char *s)
{
	enum fa_severity sev;

	return fa_severity_parse(s, &sev) == 0;
}

static int
ok_famstate(const char *s)
{
	enum fa_fam_state st;

	return fa_fam_state_parse(s, &st) == 0;
}

static int
ok_mode(const char *s)
{
	return strcmp(s, "scan") == 0 || strcmp(s, "offline") == 0 ||
	    strcmp(s, "merge") == 0;
}

static int
ok_node_state(const char *s)
{
	static const char *const v[] = { "scanned", "rejected", "failed",
	    "timed_out", "missing", NULL };
	size_t i;

	for (i = 0; v[i] != NULL; i++)
		if (strcmp(s, v[i]) == 0)
			return 1;
	return 0;
}

static int
ok_signature(const char *s)
{
	return strcmp(s, "good") == 0 || strcmp(s, "bad") == 0 ||
	    strcmp(s, "unsigned") == 0 || strcmp(s, "unchecked") == 0;
}

static int
ok_baseline(const char *s)
{
	return strcmp(s, "new") == 0 || strcmp(s, "unchanged") == 0 ||
	    strcmp(s, "changed") == 0;
}

static int
ok_sha256(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[64] == '\0';
}

/* A result must have these to be a <result> (the schema requires them). */
static int
ok_result(const json_t *r)
{
	const char *s;

	return fa_check_id_valid(fa_xml_jstr(json_object_get(r, "id"))) &&
	    (s = fa_xml_jstr(json_object_get(r, "family"))) != NULL &&
	    ok_family(s) &&
	    (s = fa_xml_jstr(json_object_get(r, "status"))) != NULL &&
	    ok_status(s) &&
	    (s = fa_xml_jstr(json_object_get(r, "severity"))) != NULL &&
	    ok_severity(s);
}

#define TEXT(k)		{ k, F_TEXT, NULL, NULL, NULL, NULL, 0 }
#define ANY(k)		{ k, F_ANY, NULL, NULL, NULL, NULL, 0 }
#define ENUM(k, fn)	{ k, F_ENUM, fn, NULL, NULL, NULL, 0 }
#define TYPED(k, t)	{ k, t, NULL, NULL, NULL, NULL, 0 }
#define OBJ(k, s)	{ k, F_OBJ, NULL, s, NULL, NULL, 0 }
#define OBJV(k, s, fn)	{ k, F_OBJ, NULL, s, NULL, fn, 0 }
#define LIST(k, it)	{ k, F_LIST, NULL, NULL, it, NULL, 0 }
#define LIST1(k, it)	{ k, F_LIST, NULL, NULL, it, NULL, 1 }
#define RESULTS(k, it)	{ k, F_RESULTS, NULL, NULL, it, NULL, 1 }
#define READ(k)		{ k, F_READ, NULL, NULL, NULL, NULL, 0 }
#define END		{ NULL, F_TEXT, NULL, NULL, NULL, NULL, 0 }

static const struct field tool_f[] = { TEXT("name"), TEXT("version"), END };
static const struct field family_item = ENUM("family", ok_family);
static const struct field source_f[] = {
	TEXT("name"), TEXT("url"), TYPED("date", F_DATE), END
};
static const struct field source_item = OBJ("source", source_f);
static const struct field catalogue_f[] = {
	TEXT("path"), TYPED("date", F_DATE), TYPED("entries", F_COUNT),
	TYPED("age_days", F_INT), TYPED("stale", F_BOOL),
	TYPED("stale_after_days", F_COUNT), LIST("sources", &source_item), END
};
static const struct field scan_f[] = {
	TYPED("started", F_DATETIME), TYPED("finished", F_DATETIME),
	TEXT("host"), TEXT("node"), TEXT("id"), TEXT("run_by"),
	LIST("families", &family_item), TYPED("active", F_BOOL),
	OBJ("catalogue", catalogue_f), END
};
static const struct field scope_catalogue_f[] = {
	TYPED("date", F_DATE), TYPED("age_days", F_INT),
	TYPED("stale", F_BOOL), END
};
static const struct field guid_item = TEXT("guid");
static const struct field fabric_f[] = {
	TEXT("local_port_guid"), TEXT("local_node_desc"),
	TYPED("local_lid", F_COUNT), TEXT("subnet_prefix"), TEXT("ca"),
	LIST("sm_guids", &guid_item), END
};
static const struct field scope_f[] = {
	TEXT("tenant"), TEXT("provider"), TEXT("run_by"), TEXT("host"),
	TYPED("started", F_DATETIME), TYPED("finished", F_DATETIME),
	TEXT("tool_version"), TEXT("scanned_by_version"),
	OBJ("catalogue", scope_catalogue_f),
	TYPED("snapshot_sha256", F_SHA256), TEXT("policy"),
	OBJ("fabric", fabric_f), END
};
static const struct field evaluation_f[] = {
	ENUM("mode", ok_mode), TYPED("generated", F_DATETIME), END
};
static const struct field fileref_f[] = {
	TEXT("file"), TYPED("sha256", F_SHA256), END
};
static const struct field mads_f[] = {
	TYPED("sent", F_COUNT), TYPED("lost", F_COUNT),
	TYPED("retried", F_COUNT), TYPED("unanswered", F_COUNT),
	TYPED("malformed", F_COUNT), END
};
static const struct field famstate_f[] = {
	ENUM("state", ok_famstate), TEXT("reason"), OBJ("mads", mads_f), END
};
static const struct field families_f[] = {
	OBJ("ib", famstate_f), OBJ("eth", famstate_f), OBJ("host", famstate_f),
	END
};
static const struct field policy_f[] = { TEXT("name"), END };
static const struct field baseline_f[] = {
	TEXT("file"), TYPED("sha256", F_SHA256),
	TYPED("new_failures", F_COUNT), TYPED("resolved", F_COUNT),
	TYPED("changed", F_COUNT), TYPED("unchanged_failures", F_COUNT), END
};
static const struct field xwaiver_f[] = {
	ENUM("check_id", fa_check_id_valid), TEXT("target"),
	TYPED("expires", F_DATE), TEXT("reason"),
	TYPED("policy_line", F_COUNT), END
};
static const struct field xwaiver_item = OBJ("waiver", xwaiver_f);
static const struct field summary_f[] = {
	TYPED("pass", F_COUNT), TYPED("fail", F_COUNT),
	TYPED("not_tested", F_COUNT), TYPED("not_applicable", F_COUNT),
	TYPED("error", F_COUNT), ENUM("fail_on", ok_severity),
	TYPED("failing_at_or_above", F_COUNT), TYPED("waived", F_COUNT),
	TYPED("catalogue_stale", F_BOOL),
	TYPED("nodes_not_scanned", F_COUNT), TYPED("complete", F_BOOL), END
};
static const struct field node_f[] = {
	TEXT("node"), ENUM("state", ok_node_state),
	TYPED("expected", F_BOOL), TEXT("host"), TEXT("scheduler_node"),
	TEXT("scan_id"), TEXT("file"), TYPED("sha256", F_SHA256),
	ENUM("signature", ok_signature), TEXT("signature_detail"),
	TEXT("reason"), TYPED("started", F_DATETIME),
	LIST("families", &family_item), OBJ("summary", summary_f), END
};
static const struct field node_item = OBJ("node", node_f);
static const struct field signatures_f[] = {
	TYPED("good", F_COUNT), TYPED("bad", F_COUNT),
	TYPED("unsigned", F_COUNT), TYPED("unchecked", F_COUNT), END
};
static const struct field accounting_f[] = {
	TYPED("expected", F_COUNT), TYPED("scanned", F_COUNT),
	TYPED("rejected", F_COUNT), TYPED("failed", F_COUNT),
	TYPED("timed_out", F_COUNT), TYPED("missing", F_COUNT),
	TYPED("unexpected", F_COUNT), OBJ("signatures", signatures_f), END
};
static const struct field merged_f[] = {
	TYPED("reports", F_COUNT), OBJ("accounting", accounting_f),
	LIST("nodes", &node_item), END
};
static const struct field evidence_f[] = {
	TEXT("observation"), TEXT("field"), ANY("value"), END
};
static const struct field evidence_item = OBJ("item", evidence_f);
static const struct field reference_item = TEXT("reference");
static const struct field waiver_f[] = {
	TEXT("reason"), TYPED("expires", F_DATE),
	TYPED("policy_line", F_COUNT), END
};
static const struct field set_name_item = TEXT("node");
static const struct field node_set_f[] = {
	TYPED("count", F_COUNT), LIST("names", &set_name_item),
	LIST("all_scanned_but", &set_name_item), END
};
static const struct field target_f[] = {
	TEXT("node"), OBJ("node_set", node_set_f), TEXT("target"),
	TEXT("target_name"), END
};
static const struct field target_item = OBJ("entry", target_f);
static const struct field result_f[] = {
	ENUM("id", fa_check_id_valid), ENUM("family", ok_family),
	ENUM("status", ok_status), ENUM("severity", ok_severity),
	TEXT("title"), TEXT("target"), TEXT("target_name"), TEXT("reason"),
	LIST("evidence", &evidence_item), TEXT("rationale"),
	TEXT("remediation"), TEXT("msa_clause"),
	LIST("references", &reference_item), OBJ("waived", waiver_f),
	OBJ("waiver_expired", waiver_f), ENUM("baseline", ok_baseline),
	LIST("targets", &target_item), END
};
static const struct field result_item = OBJV("result", result_f, ok_result);
/*
 * A check's texts, stated once in <checks>: report.json's "checks" entry,
 * or else its first result's.  A result leaves out each text equal to its
 * check's (put_results()).
 */
static const char *const text_keys[] = { "rationale", "remediation",
    "msa_clause", "references" };
static const struct field check_f[] = {
	ENUM("id", fa_check_id_valid), TEXT("rationale"), TEXT("remediation"),
	TEXT("msa_clause"), LIST("references", &reference_item), END
};
static const struct field check_item = OBJ("check", check_f);
static const struct field report_f[] = {
	TEXT("schema"), OBJ("tool", tool_f), OBJ("scanned_by", tool_f),
	OBJ("scan", scan_f), OBJ("scope", scope_f),
	OBJ("evaluation", evaluation_f), OBJ("snapshot", fileref_f),
	OBJ("families", families_f), OBJ("policy", policy_f),
	OBJ("previous", fileref_f), OBJ("baseline", baseline_f),
	LIST("expired_waivers", &xwaiver_item), OBJ("merged", merged_f),
	OBJ("summary", summary_f),
	/* report.json's "checks" goes into <checks>, with the results. */
	READ("checks"),
	/* The schema requires <results>, even when there are none. */
	RESULTS("results", &result_item), END
};

/* Whether v can be written as the element f describes. */
static int
value_ok(const struct field *f, const json_t *v)
{
	const char *s;

	switch (f->t) {
	case F_ANY:
		return 1;
	case F_TEXT:
		return json_is_string(v);
	case F_COUNT:
		return json_is_integer(v) && json_integer_value(v) >= 0;
	case F_INT:
		return json_is_integer(v);
	case F_BOOL:
		return json_is_boolean(v);
	case F_OBJ:
		return json_is_object(v) && (f->okobj == NULL || f->okobj(v));
	case F_LIST:
	case F_RESULTS:
	case F_READ:
		return json_is_array(v);
	default:
		break;
	}
	if ((s = fa_xml_jstr(v)) == NULL)
		return 0;
	switch (f->t) {
	case F_ENUM:
		return f->ok(s);
	case F_DATETIME:
		return fa_xml_is_datetime(s);
	case F_DATE:
		return fa_xml_is_date(s);
	case F_SHA256:
		return ok_sha256(s);
	default:
		return 0;
	}
}

/* <name [escaped="true"]>s</name> for an untrusted string. */
static void
put_text(struct fa_xw *x, const char *name, const char *s, size_t len)
{
	char *t;
	int esc;

	if ((t = fa_xml_safe(x, s, len, &esc)) == NULL)
		return;
	fa_xw_start(x, name);
	if (esc)
		fa_xw_attr(x, "escaped", "true");
	fa_xw_text(x, t);
	fa_xw_end(x);
	free(t);
}

static const char *
type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "object";
	case JSON_ARRAY:
		return "array";
	case JSON_STRING:
		return "string";
	case JSON_INTEGER:
		return "integer";
	case JSON_REAL:
		return "real";
	case JSON_TRUE:
	case JSON_FALSE:
		return "boolean";
	default:
		return "null";
	}
}

/* <name type="" [secret="true"] [escaped="true"]>any JSON value</name> */
static void
put_value(struct fa_xw *x, const char *name, const json_t *v)
{
	char *raw = NULL, *t;
	const char *s;
	size_t len;
	int esc;

	if (json_is_string(v)) {
		s = json_string_value(v);
		len = json_string_length(v);
	} else if (json_is_null(v)) {
		s = "";
		len = 0;
	} else {
		if ((raw = fa_xml_json_text(x, v)) == NULL)
			return;
		s = raw;
		len = strlen(raw);
	}
	t = fa_xml_safe(x, s, len, &esc);
	free(raw);
	if (t == NULL)
		return;
	fa_xw_start(x, name);
	fa_xw_attr(x, "type", type_name(v));
	if (json_is_object(v) && json_is_true(json_object_get(v, "secret")))
		fa_xw_attr(x, "secret", "true");
	if (esc)
		fa_xw_attr(x, "escaped", "true");
	fa_xw_text(x, t);
	fa_xw_end(x);
	free(t);
}

/* <other>[<key/>]<value/></other>: a member or item kept as it was. */
static void
put_other(struct fa_xw *x, const char *key, const json_t *v)
{
	fa_xw_start(x, "other");
	if (key != NULL)
		put_text(x, "key", key, strlen(key));
	put_value(x, "value", v);
	fa_xw_end(x);
}

static void put_members(struct fa_xw *, const json_t *, const struct field *);
static void put_field(struct fa_xw *, const struct field *, const json_t *);

/*
 * <checks> and <results>.  A large fabric fails one check for thousands
 * of ports, and schema 1 of report.json repeats its rationale,
 * remediation, clause and references in each result: here each check's
 * are stated once, as report.json's "checks" has them (schema 2) or else
 * as its first result has them, and a result keeps only those of its own
 * that differ (a merged or hand-edited report may).  The results are
 * written as any list is.  report.json's "checks" is read here, and only
 * the checks that have results are written.
 */
static void
put_results(struct fa_xw *x, const struct field *f, const json_t *res)
{
	const json_t *rep = x->user, *e, *listed;
	json_t *texts, *chk, *r, *c, *own;
	const char *id;
	size_t i, k;

	if (x->err != 0)
		return;
	if ((texts = json_object()) == NULL) {	/* ID -> its <check> */
		fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
		return;
	}
	fa_xw_start(x, "checks");
	json_array_foreach(res, i, e) {
		if (!value_ok(f->item, e) || json_object_get(texts, id =
		    json_string_value(json_object_get(e, "id"))) != NULL)
			continue;
		listed = fa_report_check(rep, id);
		if ((chk = json_pack("{s:s}", "id", id)) == NULL ||
		    json_object_set_new(texts, id, chk) != 0) {
			fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
			break;
		}
		for (k = 0; k < sizeof(text_keys) / sizeof(text_keys[0]); k++)
			if (((c = json_object_get(listed, text_keys[k])) !=
			    NULL || (c = json_object_get(e, text_keys[k])) !=
			    NULL) && json_object_set(chk, text_keys[k], c) != 0)
				fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
		put_field(x, &check_item, chk);
	}
	fa_xw_end(x);
	fa_xw_start(x, f->key);
	json_array_foreach(res, i, e) {
		if (x->err != 0)
			break;
		if (!value_ok(f->item, e)) {
			put_other(x, NULL, e);
			continue;
		}
		c = json_object_get(texts, json_string_value(json_object_get(e,
		    "id")));
		if ((r = json_copy((json_t *)e)) == NULL) {
			fa_xw_fail(x, FA_ERR_NOMEM, "out of memory");
			break;
		}
		for (k = 0; k < sizeof(text_keys) / sizeof(text_keys[0]); k++)
			if ((own = json_object_get(e, text_keys[k])) != NULL &&
			    json_equal(own, json_object_get(c, text_keys[k])))
				(void)json_object_del(r, text_keys[k]);
		put_field(x, f->item, r);
		json_decref(r);
	}
	fa_xw_end(x);
	json_decref(texts);
}

/* The element for v, which value_ok(f, v) accepted. */
static void
put_field(struct fa_xw *x, const struct field *f, const json_t *v)
{
	char num[32];
	const json_t *e;
	size_t i;

	switch (f->t) {
	case F_TEXT:
		put_text(x, f->key, json_string_value(v),
		    json_string_length(v));
		break;
	case F_ANY:
		put_value(x, f->key, v);
		break;
	case F_COUNT:
	case F_INT:
		snprintf(num, sizeof(num), "%lld",
		    (long long)json_integer_value(v));
		fa_xw_start(x, f->key);
		fa_xw_text(x, num);
		fa_xw_end(x);
		break;
	case F_BOOL:
		fa_xw_start(x, f->key);
		fa_xw_text(x, json_is_true(v) ? "true" : "false");
		fa_xw_end(x);
		break;
	case F_OBJ:
		fa_xw_start(x, f->key);
		put_members(x, v, f->sub);
		fa_xw_end(x);
		break;
	case F_LIST:
		fa_xw_start(x, f->key);
		json_array_foreach(v, i, e) {
			if (value_ok(f->item, e))
				put_field(x, f->item, e);
			else
				put_other(x, NULL, e);
		}
		fa_xw_end(x);
		break;
	case F_RESULTS:
		put_results(x, f, v);
		break;
	case F_READ:
		break;
	default:
		/* Checked ASCII (an enumeration, a date, a digest). */
		fa_xw_start(x, f->key);
		fa_xw_text(x, json_string_value(v));
		fa_xw_end(x);
		break;
	}
}

static const struct field *
find(const struct field *fs, const char *key)
{
	for (; fs->key != NULL; fs++)
		if (strcmp(fs->key, key) == 0)
			return fs;
	return NULL;
}

/*
 * The members of obj (NULL or not an object: none) in the order of fs,
 * then <other> for each member fs does not name or could not take.  A
 * null member is left out, unless it is a F_ANY value; an absent one too,
 * unless the schema requires its element (always: written empty).
 */
static void
put_members(struct fa_xw *x, const json_t *obj, const struct field *fs)
{
	const struct field *f;
	const char *key;
	json_t *v;

	for (f = fs; f->key != NULL; f++) {
		v = json_object_get(obj, f->key);
		if (v != NULL && (!json_is_null(v) || f->t == F_ANY) &&
		    value_ok(f, v))
			put_field(x, f, v);
		else if (f->always) {
			fa_xw_start(x, f->key);
			fa_xw_end(x);
		}
	}
	if (!json_is_object(obj))
		return;
	json_object_foreach((json_t *)obj, key, v) {
		f = find(fs, key);
		if (f == NULL || (!value_ok(f, v) &&
		    (!json_is_null(v) || f->t == F_ANY)))
			put_other(x, key, v);
	}
}

/* The document into memory (emit NULL: *buf, *len) or through emit. */
static int
render(const json_t *report, fa_emit_fn emit, void *arg, char **buf,
    size_t *len, char **why)
{
	struct fa_xw x;

	if (why != NULL)
		*why = NULL;
	if (fa_xw_begin_to(&x, emit, arg) == 0) {
		x.user = report;
		fa_xw_start_ns(&x, "report", FA_XML_NS);
		fa_xw_attr(&x, "format", FA_XML_FORMAT);
		put_members(&x, report, report_f);
		/* Not an object at all: keep it whole. */
		if (report != NULL && !json_is_object(report))
			put_other(&x, NULL, report);
		fa_xw_end(&x);
	}
	return fa_xw_finish(&x, buf, len, why);
}

int
fa_report_xml(const json_t *report, char **buf, size_t *len, char **why)
{
	*buf = NULL;
	*len = 0;
	return render(report, NULL, NULL, buf, len, why);
}

int
fa_report_xml_emit(const json_t *report, fa_emit_fn emit, void *arg,
    char **why)
{
	return render(report, emit, arg, NULL, NULL, why);
}
