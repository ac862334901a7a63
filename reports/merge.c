/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Cluster merge: many nodes' report.json folded into one report of the
 * same schema (its text: merge_txt.c).  See merge.h for the grouping,
 * fabric-wide de-duplication and coverage rules.  Every input member is
 * untrusted: types are checked, strings are bounded on the way in and
 * escaped on the way out (text); secrets in evidence are redacted again,
 * since a node report may have been written with --reveal.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/snapshot.h"
#include "../core/util.h"
#include "merge.h"
#include "report.h"

/* Bounds on what one input string may put in the merged report. */
#define MAX_NAME	256		/* node names, versions, dates */
#define MAX_LINE	1024		/* targets' names and reasons */
#define MAX_TEXT	16384		/* title, rationale, remediation... */
#define MAX_REFS	64		/* references per result */
#define MAX_EV_ITEMS	32		/* evidence items kept per result */
#define MAX_EV_BYTES	65536		/* their serialised size */
#define MAX_LISTED	10		/* values named in one warning */
#define ROW_LIST_MAX	100		/* nodes named in a target row */

#define NONE		SIZE_MAX

/*
 * A target row: one target entry (target, target_name, reason, waiver,
 * baseline) and the nodes that reported it alike, by index in merged.nodes
 * (ascending, as reports are folded in order).  A fabric-wide row keeps
 * its first node only and counts the others in its entry's seen_by.
 */
struct row {
	json_t		*entry;		/* {node (the first), target, ...} */
	uint32_t	*nodes;
	size_t		 n, cap;
	int		 fabric;
};

struct group {
	json_t	*result;	/* id, family, status, ... of the first */
	size_t	*rows;		/* indices in fa_merge.rows, first seen first */
	size_t	 nrows, rcap;
	size_t	 ntargets;	/* (node, target) pairs, seen_by aside */
	json_t	*reasons;	/* the distinct reasons, as keys */
	size_t	 check;		/* index in fa_merge.checks */
	size_t	 nodes;		/* distinct nodes that reported it */
	size_t	 last_node;
	int	 status;
	int	 severity;
	int	 waived;
};

/* Per check ID: on how many nodes it was decided (see merge.h). */
struct check {
	size_t	 last_node;
	unsigned mask;		/* statuses seen on last_node */
	size_t	 decided, not_applicable, not_tested;
};

struct fa_merge {
	enum fa_severity fail_on;
	struct group	*groups;
	size_t		 ngroups, gcap;
	struct row	*rows;
	size_t		 nrows, rowcap;
	struct check	*checks;
	size_t		 nchecks, ccap;
	json_t		*gindex;	/* "ID\tstatus\tseverity\tw" -> n */
	json_t		*cindex;	/* ID -> n */
	json_t		*seen;		/* target row key -> row index */
	json_t		*shas;		/* sha256 -> file */
	json_t		*hoststart;	/* "host\tstarted" -> file */
	json_t		*hosts;		/* host -> first node's name */
	json_t		*names;		/* node name -> file */
	json_t		*scanids;	/* scan.id -> file */
	json_t		*expected;	/* name -> {state?, reason?, found} */
	json_t		*nodes;		/* merged.nodes */
	json_t		*warnings;
	json_t		*versions;	/* scanned_by.version -> count */
	json_t		*tools;		/* tool.version -> count */
	json_t		*catdates;	/* scan.catalogue.date -> count */
	json_t		*policies;	/* policy.name -> count */
	json_t		*catalogue;	/* the oldest scan.catalogue */
	json_t		*expired;	/* expired_waivers, with their node */
	/* Per family, the rows (indices in rows) of the nodes without it,
	 * one per state and reason. */
	size_t		*famrows[FA_FAM_MAX];
	size_t		 nfamrows[FA_FAM_MAX], famcap[FA_FAM_MAX];
	size_t		 collected[FA_FAM_MAX];
	char		 started[32], finished[32];
	int		 active, stale;
	size_t		 ntargets, nodes_failing, nscanned;
	size_t		 samehost;	/* host-name warnings (MAX_LISTED) */
};

static const char *
jstr(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static json_int_t
jint(const json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

/* The length of s cut to at most max bytes at a UTF-8 boundary. */
static size_t
cutlen(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max)
		return n;
	/* jansson strings and object keys must be valid UTF-8. */
	for (n = max; n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80; n--)
		;
	return n;
}

/* A JSON string of at most max bytes of s ("..." when cut); null for NULL. */
static json_t *
bstr(const char *s, size_t max)
{
	size_t n;
	char *t;
	json_t *j;

	if (s == NULL)
		return json_null();
	if ((n = cutlen(s, max)) == strlen(s))
		return json_string(s);
	if ((t = fa_strfmt("%.*s...", (int)n, s)) == NULL)
		return NULL;
	j = json_string(t);
	free(t);
	return j;
}

/* A bounded copy of the string member k of o, or null. */
static json_t *
bmember(const json_t *o, const char *k, size_t max)
{
	return bstr(jstr(o, k), max);
}

/*
 * Set o[k] = v (stolen); 0 or FA_ERR_NOMEM (v NULL means allocation
 * failed).
 */
static int
put_new(json_t *o, const char *k, json_t *v)
{
	return v == NULL || json_object_set_new(o, k, v) != 0 ?
	    FA_ERR_NOMEM : 0;
}

/* counts[key]++ (key bounded); 0 or FA_ERR_NOMEM. */
static int
count_value(json_t *counts, const char *key)
{
	char *k = NULL;
	json_t *c;
	int r;

	if (key == NULL)
		key = "unknown";
	if (strlen(key) > MAX_NAME) {
		json_t *b = bstr(key, MAX_NAME);

		if (b == NULL || (k = fa_strdup(json_string_value(b))) ==
		    NULL) {
			json_decref(b);
			return FA_ERR_NOMEM;
		}
		json_decref(b);
		key = k;
	}
	c = json_object_get(counts, key);
	r = json_object_set_new(counts, key,
	    json_integer(json_integer_value(c) + 1)) != 0 ? FA_ERR_NOMEM : 0;
	free(k);
	return r;
}

/* "2026-12-02T10:00:00Z", the form fabaudit writes, compares as text. */
static int
is_stamp(const char *s)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";
	size_t i;

	if (s == NULL || strlen(s) != sizeof(pat) - 1)
		return 0;
	for (i = 0; pat[i] != '\0'; i++)
		if (pat[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != pat[i])
			return 0;
	return 1;
}

/*
 * An InfiniBand target about the shared fabric rather than the node that
 * looked: "H-0x<16 hex>/<port>" (S- switch, R- router, checks/ib_topo.c),
 * "fabric", "sa", "pkey-<P_Key>" (checks/ib_checks.h).  "local" and the
 * family gate's "ib" are the node's own.
 */
static int
fabric_wide(const char *family, const char *t)
{
	size_t i;

	if (strcmp(family, "ib") != 0)
		return 0;
	if (strcmp(t, "fabric") == 0 || strcmp(t, "sa") == 0 ||
	    (strncmp(t, "pkey-", 5) == 0 && strlen(t) <= 32))
		return 1;
	if (strchr("HSR", t[0]) == NULL || t[0] == '\0' ||
	    strncmp(t + 1, "-0x", 3) != 0)
		return 0;
	for (i = 4; i < 20; i++)
		if (strchr("0123456789abcdefABCDEF", t[i]) == NULL ||
		    t[i] == '\0')
			return 0;
	if (t[20] != '/' || t[21] == '\0')
		return 0;
	for (i = 21; t[i] != '\0'; i++)
		if (t[i] < '0' || t[i] > '9')
			return 0;
	return 1;
}

int
fa_merge_check_report(const json_t *report, char **why)
{
	const json_t *res, *r, *v;
	const char *id, *fam, *st, *sev, *target, *mode;
	enum fa_family f;
	enum fa_status s;
	enum fa_severity sv;
	json_t *keys;
	char *key, *t;
	size_t i;
	int rc = FA_ERR_INPUT;

	if (why != NULL)
		*why = NULL;
	if (!json_is_object(report) ||
	    !fa_report_schema_ok(jstr(report, "schema")))
		return fa_why(why, "not a %s or %s report (schema)",
		    FA_REPORT_SCHEMA, FA_REPORT_SCHEMA_1);
	mode = jstr(json_object_get(report, "evaluation"), "mode");
	if ((mode != NULL && strcmp(mode, "merge") == 0) ||
	    json_object_get(report, "merged") != NULL)
		return fa_why(why, "already a merged report: merge the "
		    "nodes' own reports");
	res = json_object_get(report, "results");
	if (!json_is_array(res))
		return fa_why(why, "no results array");
	if (json_array_size(res) > FA_MERGE_MAX_RESULTS)
		return fa_why(why, "more than %d results",
		    FA_MERGE_MAX_RESULTS);
	if ((keys = json_object()) == NULL)
		return FA_ERR_NOMEM;
	json_array_foreach(res, i, r) {
		id = jstr(r, "id");
		fam = jstr(r, "family");
		st = jstr(r, "status");
		sev = jstr(r, "severity");
		target = jstr(r, "target");
		if (id == NULL || !fa_check_id_valid(id) || fam == NULL ||
		    fa_family_parse(fam, &f) != 0 || st == NULL ||
		    fa_status_parse(st, &s) != 0 || sev == NULL ||
		    fa_severity_parse(sev, &sv) != 0 || target == NULL) {
			fa_why(why, "results[%zu]: id, family, status, "
			    "severity or target missing or invalid", i);
			goto out;
		}
		if (((v = json_object_get(r, "target_name")) != NULL &&
		    !json_is_string(v) && !json_is_null(v)) ||
		    ((v = json_object_get(r, "reason")) != NULL &&
		    !json_is_string(v) && !json_is_null(v))) {
			fa_why(why, "results[%zu]: target_name or reason is "
			    "not a string", i);
			goto out;
		}
		if ((key = fa_strfmt("%s\t%s", id, target)) == NULL) {
			rc = FA_ERR_NOMEM;
			goto out;
		}
		if (json_object_get(keys, key) != NULL) {
			t = fa_str_sanitize(target, MAX_NAME);
			fa_why(why, "results[%zu]: %s on %s twice", i, id,
			    t != NULL ? t : "?");
			free(t);
			free(key);
			goto out;
		}
		if (json_object_set_new(keys, key, json_true()) != 0) {
			free(key);
			rc = FA_ERR_NOMEM;
			goto out;
		}
		free(key);
	}
	rc = 0;
out:
	json_decref(keys);
	return rc;
}

/* The JSON containers of struct fa_merge, made and freed together. */
static const struct {
	size_t	off;
	int	array;
} containers[] = {
	{ offsetof(struct fa_merge, gindex), 0 },
	{ offsetof(struct fa_merge, cindex), 0 },
	{ offsetof(struct fa_merge, seen), 0 },
	{ offsetof(struct fa_merge, shas), 0 },
	{ offsetof(struct fa_merge, hoststart), 0 },
	{ offsetof(struct fa_merge, hosts), 0 },
	{ offsetof(struct fa_merge, names), 0 },
	{ offsetof(struct fa_merge, scanids), 0 },
	{ offsetof(struct fa_merge, expected), 0 },
	{ offsetof(struct fa_merge, nodes), 1 },
	{ offsetof(struct fa_merge, warnings), 1 },
	{ offsetof(struct fa_merge, versions), 0 },
	{ offsetof(struct fa_merge, tools), 0 },
	{ offsetof(struct fa_merge, catdates), 0 },
	{ offsetof(struct fa_merge, policies), 0 },
	{ offsetof(struct fa_merge, expired), 1 },
};

static json_t **
container(struct fa_merge *m, size_t i)
{
	return (json_t **)(void *)((char *)m + containers[i].off);
}

struct fa_merge *
fa_merge_new(enum fa_severity fail_on)
{
	struct fa_merge *m;
	size_t i;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		return NULL;
	m->fail_on = fail_on;
	for (i = 0; i < sizeof(containers) / sizeof(containers[0]); i++)
		if ((*container(m, i) = containers[i].array ? json_array() :
		    json_object()) == NULL)
			goto fail;
	return m;
fail:
	fa_merge_free(m);
	return NULL;
}

void
fa_merge_free(struct fa_merge *m)
{
	size_t i;
	int f;

	if (m == NULL)
		return;
	for (i = 0; i < m->ngroups; i++) {
		json_decref(m->groups[i].result);
		free(m->groups[i].rows);
		json_decref(m->groups[i].reasons);
	}
	free(m->groups);
	for (i = 0; i < m->nrows; i++) {
		json_decref(m->rows[i].entry);
		free(m->rows[i].nodes);
	}
	free(m->rows);
	free(m->checks);
	for (i = 0; i < sizeof(containers) / sizeof(containers[0]); i++)
		json_decref(*container(m, i));
	json_decref(m->catalogue);
	for (f = 0; f < FA_FAM_MAX; f++)
		free(m->famrows[f]);
	free(m);
}

/* Add the statuses last_node saw to the check's counters. */
static void
check_flush(struct check *c)
{
	if (c->last_node == NONE)
		return;
	if (c->mask & (1u << FA_ST_PASS | 1u << FA_ST_FAIL))
		c->decided++;
	else if (c->mask & 1u << FA_ST_NOT_APPLICABLE)
		c->not_applicable++;
	else
		c->not_tested++;
	c->last_node = NONE;
	c->mask = 0;
}

/* The check index of id, created on first sight; NONE on ENOMEM. */
static size_t
check_of(struct fa_merge *m, const char *id)
{
	const json_t *j = json_object_get(m->cindex, id);

	if (j != NULL)
		return (size_t)json_integer_value(j);
	if (fa_grow(&m->checks, &m->ccap, m->nchecks + 1,
	    sizeof(*m->checks)) != 0 || json_object_set_new(m->cindex, id,
	    json_integer((json_int_t)m->nchecks)) != 0)
		return NONE;
	memset(&m->checks[m->nchecks], 0, sizeof(*m->checks));
	m->checks[m->nchecks].last_node = NONE;
	return m->nchecks++;
}

/*
 * At most MAX_EV_ITEMS items of an evidence array and MAX_EV_BYTES of
 * JSON, secrets redacted, the "reproduce" commands and their
 * "reproduce_note" kept first if they fit, and a note saying how many
 * were left out.  NULL on ENOMEM.
 */
static json_t *
evidence_bounded(const json_t *ev)
{
	json_t *out, *e, *red;
	size_t i, n, used = 0, kept = 0, omitted = 0;
	char *keep;
	int pass;

	if ((out = json_array()) == NULL)
		return NULL;
	if (!json_is_array(ev) || json_array_size(ev) == 0)
		return out;
	if ((keep = calloc(json_array_size(ev), 1)) == NULL)
		goto fail;
	for (pass = 0; pass < 2; pass++)
		json_array_foreach(ev, i, e) {
			const char *fld = jstr(e, "field");
			int repro = fld != NULL &&
			    (strcmp(fld, "reproduce") == 0 ||
			    strcmp(fld, "reproduce_note") == 0);

			if (repro != (pass == 0) || kept == MAX_EV_ITEMS)
				continue;
			n = json_dumpb(e, NULL, 0, JSON_COMPACT);
			if (n > 0 && n <= MAX_EV_BYTES - used) {
				keep[i] = 1;
				used += n;
				kept++;
			}
		}
	json_array_foreach(ev, i, e) {
		if (!keep[i]) {
			omitted++;
			continue;
		}
		if ((red = fa_json_redact(e)) == NULL ||
		    json_array_append_new(out, red) != 0)
			goto fail;
	}
	if (omitted > 0 && json_array_append_new(out, json_pack("{s:s, s:s, "
	    "s:o}", "observation", "merge", "field", "omitted", "value",
	    fa_json_stringf("%zu more evidence items of this node's report "
	    "are not kept in the merged report", omitted))) != 0)
		goto fail;
	free(keep);
	return out;
fail:
	free(keep);
	json_decref(out);
	return NULL;
}

/* The references array: its strings only, bounded. */
static json_t *
refs_bounded(const json_t *refs)
{
	json_t *out = json_array(), *e;
	size_t i;

	json_array_foreach(refs, i, e) {
		if (out == NULL || i == MAX_REFS)
			break;
		if (json_is_string(e) && json_array_append_new(out,
		    bstr(json_string_value(e), MAX_LINE)) != 0) {
			json_decref(out);
			return NULL;
		}
	}
	return out;
}

/* A waiver object {reason, expires, policy_line}, bounded; or NULL. */
static json_t *
waiver_bounded(const json_t *w)
{
	json_t *o;

	if (!json_is_object(w) || (o = json_object()) == NULL)
		return NULL;
	if (put_new(o, "reason", bmember(w, "reason", MAX_LINE)) != 0 ||
	    put_new(o, "expires", bmember(w, "expires", MAX_NAME)) != 0 ||
	    put_new(o, "policy_line", json_integer(jint(w,
	    "policy_line"))) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * The result object of a new group, from its first result r of report
 * rep: its check's texts go into it (schema 2 states them in the node
 * report's "checks", schema 1 in r), so the merged report carries them
 * per group, which a reader of either schema finds.
 */
static json_t *
group_result(const json_t *rep, const json_t *r)
{
	static const char *const text[] = { "rationale", "remediation",
	    "msa_clause" };
	json_t *o;
	size_t i;

	if ((o = json_object()) == NULL)
		return NULL;
	if (put_new(o, "id", json_string(jstr(r, "id"))) != 0 ||
	    put_new(o, "family", json_string(jstr(r, "family"))) != 0 ||
	    put_new(o, "status", json_string(jstr(r, "status"))) != 0 ||
	    put_new(o, "severity", json_string(jstr(r, "severity"))) != 0 ||
	    put_new(o, "reason", bmember(r, "reason", MAX_LINE)) != 0 ||
	    put_new(o, "evidence", evidence_bounded(json_object_get(r,
	    "evidence"))) != 0 ||
	    put_new(o, "references", refs_bounded(fa_report_text(rep, r,
	    "references"))) != 0 ||
	    put_new(o, "title", bmember(r, "title", MAX_TEXT)) != 0)
		goto fail;
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		if (put_new(o, text[i], bstr(json_string_value(
		    fa_report_text(rep, r, text[i])), MAX_TEXT)) != 0)
			goto fail;
	if (json_is_object(json_object_get(r, "waived")) && put_new(o,
	    "waived", waiver_bounded(json_object_get(r, "waived"))) != 0)
		goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

/* The group of r, created on first sight; NONE on ENOMEM. */
static size_t
group_of(struct fa_merge *m, const json_t *rep, const json_t *r,
    size_t check)
{
	struct group *g;
	enum fa_status st = FA_ST_ERROR;
	enum fa_severity sv = FA_SEV_CRITICAL;
	int waived = json_is_object(json_object_get(r, "waived"));
	const json_t *j;
	char *key;
	size_t n = NONE;

	if ((key = fa_strfmt("%s\t%s\t%s\t%d", jstr(r, "id"), jstr(r,
	    "status"), jstr(r, "severity"), waived)) == NULL)
		return NONE;
	if ((j = json_object_get(m->gindex, key)) != NULL) {
		n = (size_t)json_integer_value(j);
		goto out;
	}
	if (fa_grow(&m->groups, &m->gcap, m->ngroups + 1,
	    sizeof(*m->groups)) != 0)
		goto out;
	g = &m->groups[m->ngroups];
	memset(g, 0, sizeof(*g));
	g->check = check;
	g->last_node = NONE;
	g->waived = waived;
	(void)fa_status_parse(jstr(r, "status"), &st);
	(void)fa_severity_parse(jstr(r, "severity"), &sv);
	g->status = (int)st;
	g->severity = (int)sv;
	g->result = group_result(rep, r);
	g->reasons = json_object();
	if (g->result == NULL || g->reasons == NULL ||
	    json_object_set_new(m->gindex, key,
	    json_integer((json_int_t)m->ngroups)) != 0) {
		json_decref(g->result);
		json_decref(g->reasons);
		goto out;
	}
	n = m->ngroups++;
out:
	free(key);
	return n;
}

/* {node, target, target_name, reason[, waived, waiver_expired, baseline]}. */
static json_t *
target_entry(const json_t *r, const char *node)
{
	const char *bl = jstr(r, "baseline");
	json_t *t, *w;

	if ((t = json_object()) == NULL)
		return NULL;
	if (put_new(t, "node", json_string(node)) != 0 ||
	    put_new(t, "target", bmember(r, "target", MAX_LINE)) != 0 ||
	    put_new(t, "target_name", bmember(r, "target_name",
	    MAX_LINE)) != 0 ||
	    put_new(t, "reason", bmember(r, "reason", MAX_LINE)) != 0 ||
	    (bl != NULL && put_new(t, "baseline", bstr(bl, MAX_NAME)) != 0))
		goto fail;
	if ((w = waiver_bounded(json_object_get(r, "waived"))) != NULL &&
	    json_object_set_new(t, "waived", w) != 0)
		goto fail;
	if ((w = waiver_bounded(json_object_get(r, "waiver_expired"))) !=
	    NULL && json_object_set_new(t, "waiver_expired", w) != 0)
		goto fail;
	return t;
fail:
	json_decref(t);
	return NULL;
}

/*
 * The key of r's target row in group gi: a fabric-wide result (merge.h)
 * by subnet and target, so that one row stands for every node that saw
 * it; any other by everything its target entry holds but the node.  Each
 * string is prefixed by its length, so that no two splits of one key
 * collide.  NULL on ENOMEM.
 */
static char *
row_key(const json_t *r, size_t gi, enum fa_status st, const char *subnet)
{
	const char *part[4];
	char *w = NULL, *e = NULL, *key;
	size_t i;
	int len[4];

	if (st != FA_ST_NOT_TESTED && st != FA_ST_ERROR &&
	    fabric_wide(jstr(r, "family"), jstr(r, "target"))) {
		part[0] = subnet != NULL ? subnet : "";
		part[1] = jstr(r, "target");
		return fa_strfmt("F%zu\t%zu:%.*s\t%s", gi, cutlen(part[0],
		    MAX_NAME), (int)cutlen(part[0], MAX_NAME), part[0],
		    part[1]);
	}
	part[0] = jstr(r, "target");
	part[1] = jstr(r, "target_name") != NULL ? jstr(r, "target_name") :
	    "\x01";
	part[2] = jstr(r, "reason") != NULL ? jstr(r, "reason") : "\x01";
	part[3] = jstr(r, "baseline") != NULL ? jstr(r, "baseline") : "";
	if (json_is_object(json_object_get(r, "waived")) &&
	    (w = json_dumps(json_object_get(r, "waived"), JSON_COMPACT |
	    JSON_SORT_KEYS)) == NULL)
		return NULL;
	if (json_is_object(json_object_get(r, "waiver_expired")) &&
	    (e = json_dumps(json_object_get(r, "waiver_expired"),
	    JSON_COMPACT | JSON_SORT_KEYS)) == NULL) {
		free(w);
		return NULL;
	}
	/* As the entry holds them: cut at MAX_LINE (target_entry()). */
	for (i = 0; i < 4; i++)
		len[i] = (int)cutlen(part[i], MAX_LINE);
	key = fa_strfmt("T%zu\t%d:%.*s%d:%.*s%d:%.*s%d:%.*s%s\t%s", gi,
	    len[0], len[0], part[0], len[1], len[1], part[1],
	    len[2], len[2], part[2], len[3], len[3], part[3],
	    w != NULL ? w : "", e != NULL ? e : "");
	free(w);
	free(e);
	return key;
}

/* Add node ni's result r to the row of key in group gi; 0 or ENOMEM. */
static int
row_add(struct fa_merge *m, const char *key, const json_t *r, size_t gi,
    size_t ni, const char *node)
{
	struct group *g = &m->groups[gi];
	const json_t *j = json_object_get(m->seen, key);
	struct row *w;
	json_t *seen;

	if (j != NULL) {
		w = &m->rows[json_integer_value(j)];
		if (w->fabric) {
			seen = json_object_get(w->entry, "seen_by");
			return json_object_set_new(w->entry, "seen_by",
			    json_integer(json_integer_value(seen) + 1)) != 0 ?
			    FA_ERR_NOMEM : 0;
		}
	} else {
		if (fa_grow(&m->rows, &m->rowcap, m->nrows + 1,
		    sizeof(*m->rows)) != 0 || fa_grow(&g->rows, &g->rcap,
		    g->nrows + 1, sizeof(*g->rows)) != 0)
			return FA_ERR_NOMEM;
		w = &m->rows[m->nrows];
		memset(w, 0, sizeof(*w));
		w->fabric = key[0] == 'F';
		if ((w->entry = target_entry(r, node)) == NULL ||
		    (w->fabric && json_object_set_new(w->entry, "seen_by",
		    json_integer(1)) != 0) ||
		    json_object_set_new(m->seen, key,
		    json_integer((json_int_t)m->nrows)) != 0) {
			json_decref(w->entry);
			return FA_ERR_NOMEM;
		}
		g->rows[g->nrows++] = m->nrows++;
	}
	if (fa_grow(&w->nodes, &w->cap, w->n + 1, sizeof(*w->nodes)) != 0)
		return FA_ERR_NOMEM;
	w->nodes[w->n++] = (uint32_t)ni;
	g->ntargets++;
	m->ntargets++;
	return 0;
}

/* Fold one result of node `node` (index ni) in; 0 or FA_ERR_NOMEM. */
static int
fold_result(struct fa_merge *m, const json_t *rep, const json_t *r,
    size_t ni, const char *node, const char *subnet)
{
	struct check *c;
	struct group *g;
	enum fa_status st = FA_ST_ERROR;
	const char *reason = jstr(r, "reason");
	char *key = NULL;
	size_t ci, gi;
	int rc;

	(void)fa_status_parse(jstr(r, "status"), &st);
	if ((ci = check_of(m, jstr(r, "id"))) == NONE ||
	    (gi = group_of(m, rep, r, ci)) == NONE)
		return FA_ERR_NOMEM;
	c = &m->checks[ci];
	if (c->last_node != ni) {
		check_flush(c);
		c->last_node = ni;
	}
	c->mask |= 1u << st;
	g = &m->groups[gi];
	if (g->last_node != ni) {
		g->last_node = ni;
		g->nodes++;
	}
	if (reason != NULL) {
		key = fa_strfmt("%.*s", (int)cutlen(reason, MAX_LINE), reason);
		if (key == NULL || json_object_set_new(g->reasons, key,
		    json_true()) != 0) {
			free(key);
			return FA_ERR_NOMEM;
		}
		free(key);
		key = NULL;
	}
	if ((key = row_key(r, gi, st, subnet)) == NULL)
		return FA_ERR_NOMEM;
	rc = row_add(m, key, r, gi, ni, node);
	free(key);
	return rc;
}

/* The families member: the node's families[f].state, or scan.families. */
static const char *
node_family_state(const json_t *report, enum fa_family f)
{
	const json_t *e;
	const char *s = jstr(json_object_get(json_object_get(report,
	    "families"), fa_family_name(f)), "state");
	enum fa_fam_state fs;
	size_t i;

	if (s != NULL && fa_fam_state_parse(s, &fs) == 0)
		return fa_fam_state_name(fs);
	json_array_foreach(json_object_get(json_object_get(report, "scan"),
	    "families"), i, e)
		if (json_is_string(e) &&
		    strcmp(json_string_value(e), fa_family_name(f)) == 0)
			return fa_fam_state_name(FA_FAMST_COLLECTED);
	return fa_fam_state_name(FA_FAMST_NOT_REQUESTED);
}

/* A scan.id as scan writes it: 32 lower-case hex digits. */
static int
scan_id_ok(const char *s)
{
	return s != NULL && strlen(s) == 32 &&
	    strspn(s, "0123456789abcdef") == 32;
}

/*
 * The identity members of a merged.nodes entry: node, state, host,
 * scheduler_node, scan_id, file, sha256, signature (and
 * signature_detail).  0 or FA_ERR_NOMEM.
 */
static int
put_identity(json_t *n, const json_t *report, const char *node,
    const char *state, const char *file, const struct fa_merge_src *src)
{
	const json_t *scan = json_object_get(report, "scan");
	const char *id = jstr(scan, "id");

	if (put_new(n, "node", json_string(node)) != 0 ||
	    put_new(n, "state", json_string(state)) != 0 ||
	    put_new(n, "host", bmember(scan, "host", MAX_NAME)) != 0 ||
	    put_new(n, "scheduler_node", bmember(scan, "node",
	    MAX_NAME)) != 0 ||
	    put_new(n, "scan_id", scan_id_ok(id) ? json_string(id) :
	    json_null()) != 0 ||
	    put_new(n, "file", json_string(file)) != 0 ||
	    put_new(n, "sha256", json_string(src->sha256)) != 0 ||
	    put_new(n, "signature", json_string(src->signature != NULL ?
	    src->signature : "unchecked")) != 0)
		return FA_ERR_NOMEM;
	if (src->sig_detail != NULL && put_new(n, "signature_detail",
	    bstr(src->sig_detail, MAX_LINE)) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

/*
 * Node ni (named node) did not collect family f (state st, reason: a
 * string or null, stolen): into the row of f's nodes alike; 0 or ENOMEM.
 */
static int
fam_add(struct fa_merge *m, int f, size_t ni, const char *node,
    const char *st, json_t *reason)
{
	const char *rs = json_string_value(reason);
	const json_t *j;
	struct row *w;
	char *key;
	int r = FA_ERR_NOMEM;

	if (reason == NULL || (key = fa_strfmt("N%d\t%s\t%s", f, st,
	    rs != NULL ? rs : "\x01")) == NULL) {
		json_decref(reason);
		return FA_ERR_NOMEM;
	}
	if ((j = json_object_get(m->seen, key)) != NULL)
		w = &m->rows[json_integer_value(j)];
	else {
		if (fa_grow(&m->rows, &m->rowcap, m->nrows + 1,
		    sizeof(*m->rows)) != 0 || fa_grow(&m->famrows[f],
		    &m->famcap[f], m->nfamrows[f] + 1, sizeof(size_t)) != 0)
			goto out;
		w = &m->rows[m->nrows];
		memset(w, 0, sizeof(*w));
		w->entry = json_pack("{s:s, s:s, s:O}", "node", node, "state",
		    st, "reason", reason);
		if (w->entry == NULL || json_object_set_new(m->seen, key,
		    json_integer((json_int_t)m->nrows)) != 0) {
			json_decref(w->entry);
			goto out;
		}
		m->famrows[f][m->nfamrows[f]++] = m->nrows++;
	}
	if (fa_grow(&w->nodes, &w->cap, w->n + 1, sizeof(*w->nodes)) == 0) {
		w->nodes[w->n++] = (uint32_t)ni;
		r = 0;
	}
out:
	free(key);
	json_decref(reason);
	return r;
}

/* merged.nodes[i] and the per-family coverage; 0 or FA_ERR_NOMEM. */
static int
fold_node(struct fa_merge *m, const json_t *report, const char *file,
    const struct fa_merge_src *src, const char *node,
    const size_t *by_status, size_t failing, size_t waived)
{
	const json_t *scan = json_object_get(report, "scan");
	json_t *n, *fams, *sum;
	const char *st;
	int f;

	fams = json_array();
	sum = json_pack("{s:I, s:I, s:I, s:I, s:I, s:s, s:I, s:I}",
	    "pass", (json_int_t)by_status[FA_ST_PASS],
	    "fail", (json_int_t)by_status[FA_ST_FAIL],
	    "not_tested", (json_int_t)by_status[FA_ST_NOT_TESTED],
	    "not_applicable", (json_int_t)by_status[FA_ST_NOT_APPLICABLE],
	    "error", (json_int_t)by_status[FA_ST_ERROR],
	    "fail_on", fa_severity_name(m->fail_on),
	    "failing_at_or_above", (json_int_t)failing,
	    "waived", (json_int_t)waived);
	if ((n = json_object()) == NULL) {
		json_decref(fams);
		json_decref(sum);
		return FA_ERR_NOMEM;
	}
	/* put_new() steals its value even when it fails. */
	f = put_new(n, "families", fams);
	if (put_new(n, "summary", sum) != 0 || f != 0)
		goto fail;
	for (f = 0; f < FA_FAM_MAX; f++) {
		st = node_family_state(report, (enum fa_family)f);
		if (strcmp(st, fa_fam_state_name(FA_FAMST_COLLECTED)) == 0) {
			m->collected[f]++;
			if (json_array_append_new(fams, json_string(
			    fa_family_name((enum fa_family)f))) != 0)
				goto fail;
		} else if (fam_add(m, f, json_array_size(m->nodes), node, st,
		    bmember(json_object_get(json_object_get(report,
		    "families"), fa_family_name((enum fa_family)f)),
		    "reason", MAX_LINE)) != 0)
			goto fail;
	}
	if (put_identity(n, report, node, "scanned", file, src) != 0 ||
	    put_new(n, "started", bmember(scan, "started", MAX_NAME)) != 0 ||
	    put_new(n, "finished", bmember(scan, "finished", MAX_NAME)) != 0 ||
	    put_new(n, "version", bmember(json_object_get(report,
	    "scanned_by"), "version", MAX_NAME)) != 0)
		goto fail;
	return json_array_append_new(m->nodes, n) != 0 ? FA_ERR_NOMEM : 0;
fail:
	json_decref(n);
	return FA_ERR_NOMEM;
}

/* Versions, catalogue, policy, times, expired waivers; 0 or ENOMEM. */
static int
fold_meta(struct fa_merge *m, const json_t *report, const char *node)
{
	const json_t *scan = json_object_get(report, "scan"), *cat, *e;
	const char *s, *date, *old;
	json_t *x;
	size_t i;

	if (count_value(m->versions, jstr(json_object_get(report,
	    "scanned_by"), "version")) != 0 ||
	    count_value(m->tools, jstr(json_object_get(report, "tool"),
	    "version")) != 0 ||
	    count_value(m->policies, jstr(json_object_get(report, "policy"),
	    "name")) != 0)
		return FA_ERR_NOMEM;
	cat = json_object_get(scan, "catalogue");
	if (json_is_object(cat)) {
		date = jstr(cat, "date");
		if (count_value(m->catdates, date) != 0)
			return FA_ERR_NOMEM;
		old = jstr(m->catalogue, "date");
		/* Keep the oldest catalogue: the most conservative. */
		if (m->catalogue == NULL || (date != NULL && (old == NULL ||
		    strcmp(date, old) < 0))) {
			json_decref(m->catalogue);
			if ((m->catalogue = json_deep_copy(cat)) == NULL)
				return FA_ERR_NOMEM;
		}
		if (json_is_true(json_object_get(cat, "stale")))
			m->stale = 1;
	}
	if (json_is_true(json_object_get(json_object_get(report, "summary"),
	    "catalogue_stale")))
		m->stale = 1;
	if (json_is_true(json_object_get(scan, "active")))
		m->active = 1;
	if (is_stamp(s = jstr(scan, "started")) && (m->started[0] == '\0' ||
	    strcmp(s, m->started) < 0))
		snprintf(m->started, sizeof(m->started), "%s", s);
	if (is_stamp(s = jstr(scan, "finished")) && strcmp(s,
	    m->finished) > 0)
		snprintf(m->finished, sizeof(m->finished), "%s", s);
	json_array_foreach(json_object_get(report, "expired_waivers"), i, e) {
		if (!json_is_object(e))
			continue;
		x = json_object();
		if (put_new(x, "node", json_string(node)) != 0 ||
		    put_new(x, "check_id", bmember(e, "check_id",
		    MAX_NAME)) != 0 ||
		    put_new(x, "target", bmember(e, "target", MAX_LINE)) != 0 ||
		    put_new(x, "expires", bmember(e, "expires",
		    MAX_NAME)) != 0 ||
		    put_new(x, "reason", bmember(e, "reason", MAX_LINE)) != 0 ||
		    put_new(x, "policy_line", json_integer(jint(e,
		    "policy_line"))) != 0 ||
		    json_array_append_new(m->expired, x) != 0) {
			json_decref(x);
			return FA_ERR_NOMEM;
		}
		m->ntargets++;
	}
	return 0;
}

/* "<host>\t<started>", or NULL when the report names no host. */
static char *
host_start_key(const json_t *report)
{
	const json_t *scan = json_object_get(report, "scan");
	const char *h = jstr(scan, "host"), *s = jstr(scan, "started");

	if (h == NULL || *h == '\0')
		return NULL;
	if (s == NULL)
		s = "";
	return fa_strfmt("%.*s\t%.*s", (int)cutlen(h, MAX_NAME), h,
	    (int)cutlen(s, MAX_NAME), s);
}

/*
 * Refuse a report merged already: the same bytes, the same scan.id, or
 * (a report without one) the same host and start; 0, FA_ERR_INPUT or
 * FA_ERR_NOMEM.
 */
static int
check_duplicate(struct fa_merge *m, const json_t *report,
    const char *sha256, char **why)
{
	const json_t *scan = json_object_get(report, "scan");
	const char *prev, *id = jstr(scan, "id");
	char *key, *h, *s;
	int r = 0;

	if ((prev = jstr(m->shas, sha256)) != NULL)
		return fa_why(why, "the same report as %s (SHA-256 %s)", prev,
		    sha256);
	if (scan_id_ok(id)) {
		if ((prev = jstr(m->scanids, id)) != NULL)
			return fa_why(why, "the same scan as %s (scan id %s)",
			    prev, id);
		return 0;
	}
	if ((key = host_start_key(report)) == NULL)
		return 0;
	if ((prev = jstr(m->hoststart, key)) != NULL) {
		h = fa_str_sanitize(jstr(scan, "host"), MAX_NAME);
		s = fa_str_sanitize(jstr(scan, "started") != NULL ?
		    jstr(scan, "started") : "?", MAX_NAME);
		r = fa_why(why, "the same scan as %s (host %s, started %s; "
		    "the report has no scan id)", prev, h != NULL ? h : "?",
		    s != NULL ? s : "?");
		free(h);
		free(s);
	}
	free(key);
	return r;
}

/* A warning, from a format; 0 or FA_ERR_NOMEM. */
static int
warn(struct fa_merge *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
warn(struct fa_merge *m, const char *fmt, ...)
{
	va_list ap;
	char *w = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&w, fmt, ap);
	va_end(ap);
	if (r < 0)
		return FA_ERR_NOMEM;
	r = json_array_append_new(m->warnings, json_string(w)) != 0 ?
	    FA_ERR_NOMEM : 0;
	free(w);
	return r;
}

/*
 * The report's node name, unique in this merge (merge.h: node identity);
 * a new string, NULL on ENOMEM.  *base: the name it would have had, when
 * that was taken (a new string), else NULL.  Nothing is recorded: see
 * remember().
 */
static json_t *
node_name(const struct fa_merge *m, const json_t *report, const char *fname,
    json_t **base)
{
	const json_t *scan = json_object_get(report, "scan");
	const char *b = jstr(scan, "node"), *id = jstr(scan, "id");
	json_t *bj, *alt;
	unsigned k;

	*base = NULL;
	if (b == NULL || *b == '\0')
		b = jstr(scan, "host");
	if (b == NULL || *b == '\0')
		b = fname;
	if ((bj = bstr(b, MAX_NAME)) == NULL ||
	    json_object_get(m->names, json_string_value(bj)) == NULL)
		return bj;
	b = json_string_value(bj);
	alt = scan_id_ok(id) ? fa_json_stringf("%s#%.8s", b, id) : NULL;
	for (k = 2; alt == NULL || json_object_get(m->names,
	    json_string_value(alt)) != NULL; k++) {
		json_decref(alt);
		if ((alt = fa_json_stringf("%s#%u", b, k)) == NULL)
			break;
	}
	if (alt == NULL)
		json_decref(bj);
	else
		*base = bj;
	return alt;
}

/*
 * Record the report's identity for check_duplicate() and node_name(), and
 * warn when its name (base: see node_name) or its host name was another
 * node's; 0 or ENOMEM.
 */
static int
remember(struct fa_merge *m, const json_t *report, const char *file,
    const char *sha256, const char *node, const char *base)
{
	const json_t *scan = json_object_get(report, "scan");
	const char *prev, *host = jstr(scan, "host"), *id = jstr(scan, "id");
	char *key;
	json_t *h;
	int r = 0;

	if (base != NULL && (r = warn(m, "node %s has two reports (%s and "
	    "%s): they are two nodes, both listed; the second is named %s",
	    base, jstr(m->names, base), file, node)) != 0)
		return r;
	if (json_object_set_new(m->shas, sha256, json_string(file)) != 0 ||
	    json_object_set_new(m->names, node, json_string(file)) != 0 ||
	    (scan_id_ok(id) && json_object_set_new(m->scanids, id,
	    json_string(file)) != 0))
		return FA_ERR_NOMEM;
	if ((key = host_start_key(report)) != NULL) {
		r = json_object_set_new(m->hoststart, key, json_string(file)) !=
		    0 ? FA_ERR_NOMEM : 0;
		free(key);
		if (r != 0)
			return r;
	}
	if (host == NULL || *host == '\0')
		return 0;
	if ((h = bstr(host, MAX_NAME)) == NULL)
		return FA_ERR_NOMEM;
	if ((prev = jstr(m->hosts, json_string_value(h))) == NULL)
		r = json_object_set_new(m->hosts, json_string_value(h),
		    json_string(node)) != 0 ? FA_ERR_NOMEM : 0;
	else if ((base == NULL || strcmp(base, prev) != 0) &&
	    m->samehost++ < MAX_LISTED)
		r = warn(m, "host name %s is reported by two nodes (%s and "
		    "%s): both are listed, as two nodes",
		    json_string_value(h), prev, node);
	json_decref(h);
	return r;
}

int
fa_merge_add(struct fa_merge *m, const json_t *report, const char *file,
    const char *sha256, char **why)
{
	const struct fa_merge_src src = { file, sha256, NULL, NULL };

	return fa_merge_add_src(m, report, &src, why);
}

int
fa_merge_add_src(struct fa_merge *m, const json_t *report,
    const struct fa_merge_src *src, char **why)
{
	const json_t *res, *r;
	size_t by_status[FA_ST_MAX] = { 0 }, failing = 0, waived = 0, i, ni;
	enum fa_status st = FA_ST_ERROR;
	enum fa_severity sv = FA_SEV_CRITICAL;
	json_t *nodename = NULL, *base = NULL;
	const char *node, *subnet;
	char *fname = NULL;
	int rc;

	if (why != NULL)
		*why = NULL;
	if ((rc = fa_merge_check_report(report, why)) != 0)
		return rc;
	if (json_array_size(m->nodes) >= FA_MERGE_MAX_REPORTS) {
		fa_why(why, "more than %d reports", FA_MERGE_MAX_REPORTS);
		return FA_ERR_TOOBIG;
	}
	res = json_object_get(report, "results");
	if (json_array_size(res) + json_array_size(json_object_get(report,
	    "expired_waivers")) > FA_MERGE_MAX_TARGETS - m->ntargets) {
		fa_why(why, "more than %d targets in all reports",
		    FA_MERGE_MAX_TARGETS);
		return FA_ERR_TOOBIG;
	}
	if ((rc = check_duplicate(m, report, src->sha256, why)) != 0)
		return rc;
	/* A file name is bytes, not necessarily UTF-8 as JSON wants. */
	if ((fname = fa_str_sanitize(src->file, strlen(src->file))) == NULL)
		return FA_ERR_NOMEM;
	rc = FA_ERR_NOMEM;
	if ((nodename = node_name(m, report, fname, &base)) == NULL)
		goto out;
	node = json_string_value(nodename);
	subnet = jstr(json_object_get(json_object_get(report, "scope"),
	    "fabric"), "subnet_prefix");
	ni = json_array_size(m->nodes);
	json_array_foreach(res, i, r) {
		if (fold_result(m, report, r, ni, node, subnet) != 0)
			goto out;
		(void)fa_status_parse(jstr(r, "status"), &st);
		(void)fa_severity_parse(jstr(r, "severity"), &sv);
		by_status[st]++;
		if (json_is_object(json_object_get(r, "waived")))
			waived++;
		else if (st == FA_ST_FAIL && sv <= m->fail_on)
			failing++;
	}
	if (failing > 0)
		m->nodes_failing++;
	if (fold_node(m, report, fname, src, node, by_status, failing,
	    waived) != 0 || fold_meta(m, report, node) != 0 ||
	    remember(m, report, fname, src->sha256, node,
	    json_string_value(base)) != 0)
		goto out;
	if (src->signature != NULL && strcmp(src->signature, "bad") == 0 &&
	    warn(m, "node %s: the signature of %s is bad (%s); it is merged "
	    "all the same (no --require-signature)", node, fname,
	    src->sig_detail != NULL ? src->sig_detail : "?") != 0)
		goto out;
	m->nscanned++;
	rc = 0;
out:
	free(fname);
	json_decref(nodename);
	json_decref(base);
	return rc;
}

int
fa_merge_reject(struct fa_merge *m, const json_t *report,
    const struct fa_merge_src *src, char **why)
{
	json_t *nodename, *base = NULL, *n = NULL;
	char *fname;
	int rc = FA_ERR_NOMEM;

	if (why != NULL)
		*why = NULL;
	if (json_array_size(m->nodes) >= FA_MERGE_MAX_REPORTS) {
		fa_why(why, "more than %d reports", FA_MERGE_MAX_REPORTS);
		return FA_ERR_TOOBIG;
	}
	if ((fname = fa_str_sanitize(src->file, strlen(src->file))) == NULL)
		return FA_ERR_NOMEM;
	if ((nodename = node_name(m, report, fname, &base)) != NULL &&
	    (n = json_object()) != NULL &&
	    put_identity(n, report, json_string_value(nodename), "rejected",
	    fname, src) == 0 &&
	    json_object_set_new(m->names, json_string_value(nodename),
	    json_string(fname)) == 0 &&
	    json_array_append(m->nodes, n) == 0)
		rc = 0;
	json_decref(n);
	json_decref(nodename);
	json_decref(base);
	free(fname);
	return rc;
}

/* A name for --expect and --failed: 1 to MAX_NAME bytes, no control. */
static int
expect_name_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > MAX_NAME)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x21 || s[i] == 0x7f)
			return 0;
	return 1;
}

int
fa_merge_expect(struct fa_merge *m, const char *node, char **why)
{
	json_t *t;
	int utf8;

	if (why != NULL)
		*why = NULL;
	t = json_string(node);	/* NULL: not UTF-8 (or ENOMEM) */
	utf8 = t != NULL;
	json_decref(t);
	if (!expect_name_ok(node) || !utf8)
		return fa_why(why, "not a node name (1 to %d printable "
		    "UTF-8 bytes, no space)", MAX_NAME);
	if (json_object_get(m->expected, node) != NULL)
		return fa_why(why, "node %s is expected twice", node);
	if (json_object_size(m->expected) >= FA_MERGE_MAX_REPORTS)
		return fa_why(why, "more than %d expected nodes",
		    FA_MERGE_MAX_REPORTS);
	return json_object_set_new(m->expected, node, json_pack("{s:i}",
	    "found", 0)) != 0 ? FA_ERR_NOMEM : 0;
}

int
fa_merge_unscanned(struct fa_merge *m, const char *node, const char *state,
    const char *reason, char **why)
{
	json_t *e;
	char *safe;
	int r;

	if (why != NULL)
		*why = NULL;
	if (strcmp(state, "failed") != 0 && strcmp(state, "timed_out") != 0) {
		safe = fa_str_sanitize(state, strlen(state) < 32 ?
		    strlen(state) : 32);
		r = fa_why(why, "state must be failed or timed_out, not "
		    "\"%s\"", safe != NULL ? safe : "?");
		free(safe);
		return r;
	}
	if ((e = json_object_get(m->expected, node)) == NULL) {
		if ((r = fa_merge_expect(m, node, why)) != 0)
			return r;
		e = json_object_get(m->expected, node);
	} else if (json_object_get(e, "state") != NULL)
		return fa_why(why, "node %s is listed twice", node);
	/* The reason is bytes from a file: escaped, as any such string. */
	if (reason == NULL || *reason == '\0')
		reason = "no reason given";
	if ((safe = fa_str_sanitize(reason, strlen(reason))) == NULL)
		return FA_ERR_NOMEM;
	r = put_new(e, "state", json_string(state)) != 0 ||
	    put_new(e, "reason", bstr(safe, MAX_LINE)) != 0 ? FA_ERR_NOMEM : 0;
	free(safe);
	return r;
}

/* "a (3 reports), b (1 report), ... and K more" of a value->count map. */
static char *
list_counts(const json_t *counts)
{
	const char *k;
	json_t *v;
	char *s = fa_strdup(""), *t;
	size_t n = 0;

	json_object_foreach((json_t *)counts, k, v) {
		if (s == NULL)
			return NULL;
		if (n++ == MAX_LISTED) {
			t = fa_strfmt("%s, ... and %zu more", s,
			    json_object_size(counts) - MAX_LISTED);
			free(s);
			return t;
		}
		t = fa_strfmt("%s%s%s (%lld report%s)", s, n > 1 ? ", " : "",
		    k, (long long)json_integer_value(v),
		    json_integer_value(v) == 1 ? "" : "s");
		free(s);
		s = t;
	}
	return s;
}

/*
 * A warning when a value->count map holds more than one value; 0 or
 * FA_ERR_NOMEM.
 */
static int
warn_if_mixed(json_t *warnings, const json_t *counts, const char *what)
{
	char *l, *w;
	int r;

	if (json_object_size(counts) < 2)
		return 0;
	if ((l = list_counts(counts)) == NULL)
		return FA_ERR_NOMEM;
	w = fa_strfmt("%s: %s", what, l);
	free(l);
	r = w == NULL || json_array_append_new(warnings, json_string(w)) != 0 ?
	    FA_ERR_NOMEM : 0;
	free(w);
	return r;
}

/* Top-level families{}: collected if any node collected it, and where. */
static json_t *
families_json(const struct fa_merge *m, size_t nn)
{
	json_t *o = json_object(), *e, *fam;
	char *reason;
	int f;

	for (f = 0; o != NULL && f < FA_FAM_MAX; f++) {
		if (nn == 0)
			reason = fa_strfmt("no node report was merged");
		else if (m->collected[f] == nn)
			reason = fa_strfmt("collected on all %zu nodes", nn);
		else
			reason = fa_strfmt("collected on %zu of %zu nodes; "
			    "merged.families.%s lists the others",
			    m->collected[f], nn,
			    fa_family_name((enum fa_family)f));
		e = m->nfamrows[f] == 0 ? NULL : json_object_get(
		    m->rows[m->famrows[f][0]].entry, "state");
		fam = json_pack("{s:s, s:s?}", "state", nn == 0 ?
		    fa_fam_state_name(FA_FAMST_UNAVAILABLE) :
		    m->collected[f] > 0 || e == NULL ?
		    fa_fam_state_name(FA_FAMST_COLLECTED) :
		    json_string_value(e), "reason", reason);
		free(reason);
		if (fam == NULL || json_object_set_new(o,
		    fa_family_name((enum fa_family)f), fam) != 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *row_json(const struct fa_merge *m, const struct row *w,
    const uint32_t *scanned, size_t ns);

/*
 * merged.families: per family, how many collected it and who did not, a
 * row per state and reason ({node, ...} or {node_set, ...}: row_json()).
 */
static json_t *
family_coverage(const struct fa_merge *m, const uint32_t *scanned,
    size_t ns)
{
	json_t *o = json_object(), *nc;
	size_t i;
	int f;

	for (f = 0; o != NULL && f < FA_FAM_MAX; f++) {
		nc = json_array();
		for (i = 0; nc != NULL && i < m->nfamrows[f]; i++)
			if (json_array_append_new(nc, row_json(m,
			    &m->rows[m->famrows[f][i]], scanned, ns)) != 0) {
				json_decref(nc);
				nc = NULL;
			}
		if (nc == NULL || json_object_set_new(o, fa_family_name(
		    (enum fa_family)f), json_pack("{s:I, s:o}", "collected",
		    (json_int_t)m->collected[f], "not_collected", nc)) != 0) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

struct order {
	size_t	check, group;
};

static int
order_cmp(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	if (x->check != y->check)
		return x->check < y->check ? -1 : 1;
	return x->group < y->group ? -1 : x->group > y->group;
}

/* The finished result of group g; NULL on ENOMEM. */
/* A JSON array of the names of the nodes at v[0..n) (merged.nodes). */
static json_t *
node_names(const struct fa_merge *m, const uint32_t *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a != NULL && i < n; i++)
		if (json_array_append(a, json_object_get(json_array_get(
		    m->nodes, v[i]), "node")) != 0) {
			json_decref(a);
			a = NULL;
		}
	return a;
}

/*
 * The target entry of row w: its entry as is for one node (or a
 * fabric-wide row); for several, "node" gives way to "node_set":
 * {count, names} when it names at most ROW_LIST_MAX nodes or more than
 * that many scanned nodes lack it, else {count, all_scanned_but}: the
 * scanned nodes (scanned[0..ns), ascending) without it.
 */
static json_t *
row_json(const struct fa_merge *m, const struct row *w,
    const uint32_t *scanned, size_t ns)
{
	uint32_t *but;
	size_t i, j, nb = 0;
	json_t *e, *set;

	if (w->fabric || w->n == 1)
		return json_incref(w->entry);
	if ((e = json_copy(w->entry)) == NULL)
		return NULL;
	(void)json_object_del(e, "node");
	set = NULL;
	if (w->n <= ROW_LIST_MAX || ns - w->n > ROW_LIST_MAX)
		set = json_pack("{s:I, s:o}", "count", (json_int_t)w->n,
		    "names", node_names(m, w->nodes, w->n));
	else if ((but = malloc((ns - w->n + 1) * sizeof(*but))) != NULL) {
		/* Both ascending: a merge walk. */
		for (i = j = 0; i < ns; i++) {
			while (j < w->n && w->nodes[j] < scanned[i])
				j++;
			if ((j == w->n || w->nodes[j] != scanned[i]) &&
			    nb < ns - w->n)
				but[nb++] = scanned[i];
		}
		set = json_pack("{s:I, s:o}", "count", (json_int_t)w->n,
		    "all_scanned_but", node_names(m, but, nb));
		free(but);
	}
	if (set == NULL || json_object_set_new(e, "node_set", set) != 0) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* The finished result of group g; NULL on ENOMEM. */
static json_t *
finish_group(const struct fa_merge *m, const struct group *g, size_t nn,
    const uint32_t *scanned, size_t ns)
{
	const struct check *c = &m->checks[g->check];
	const json_t *t0 = m->rows[g->rows[0]].entry;
	size_t nt = g->ntargets, i;
	json_t *r, *ts;

	if ((r = json_copy(g->result)) == NULL)
		return NULL;
	if ((ts = json_array()) == NULL)
		goto fail;
	for (i = 0; i < g->nrows; i++)
		if (json_array_append_new(ts, row_json(m, &m->rows[g->rows[i]],
		    scanned, ns)) != 0) {
			json_decref(ts);
			goto fail;
		}
	if (put_new(r, "target", nt == 1 ? json_incref(json_object_get(t0,
	    "target")) : fa_json_stringf("%zu targets on %zu nodes", nt,
	    g->nodes)) != 0 ||
	    put_new(r, "target_name", nt == 1 ? json_incref(json_object_get(
	    t0, "target_name")) : json_null()) != 0 ||
	    put_new(r, "nodes", json_integer((json_int_t)g->nodes)) != 0 ||
	    put_new(r, "reasons", json_integer((json_int_t)json_object_size(
	    g->reasons))) != 0 ||
	    put_new(r, "coverage", json_pack("{s:I, s:I, s:I, s:I, s:I}",
	    "nodes", (json_int_t)nn, "decided", (json_int_t)c->decided,
	    "not_applicable", (json_int_t)c->not_applicable, "not_tested",
	    (json_int_t)c->not_tested, "absent", (json_int_t)(nn -
	    c->decided - c->not_applicable - c->not_tested))) != 0 ||
	    put_new(r, "targets", ts) != 0)
		goto fail;
	return r;
fail:
	json_decref(r);
	return NULL;
}

/* results[] in check order, and the summary counts; 0 or ENOMEM. */
static int
finish_results(struct fa_merge *m, size_t nn, json_t *results, json_t *sum,
    const uint32_t *scanned, size_t ns)
{
	struct order *ord;
	const struct group *g;
	size_t by_status[FA_ST_MAX] = { 0 }, failing = 0, waived = 0;
	size_t fail_targets = 0, i;
	int r = FA_ERR_NOMEM;

	for (i = 0; i < m->nchecks; i++)
		check_flush(&m->checks[i]);
	if ((ord = calloc(m->ngroups + 1, sizeof(*ord))) == NULL)
		return FA_ERR_NOMEM;
	for (i = 0; i < m->ngroups; i++) {
		ord[i].check = m->groups[i].check;
		ord[i].group = i;
	}
	qsort(ord, m->ngroups, sizeof(*ord), order_cmp);
	for (i = 0; i < m->ngroups; i++) {
		g = &m->groups[ord[i].group];
		if (json_array_append_new(results, finish_group(m, g, nn,
		    scanned, ns)) != 0)
			goto out;
		by_status[g->status]++;
		if (g->status == FA_ST_FAIL)
			fail_targets += g->ntargets;
		if (g->waived)
			waived++;
		else if (g->status == FA_ST_FAIL &&
		    g->severity <= (int)m->fail_on)
			failing++;
	}
	if (json_object_update_new(sum, json_pack("{s:I, s:I, s:I, s:I, s:I, "
	    "s:s, s:I, s:I, s:b, s:I, s:I, s:I}",
	    "pass", (json_int_t)by_status[FA_ST_PASS],
	    "fail", (json_int_t)by_status[FA_ST_FAIL],
	    "not_tested", (json_int_t)by_status[FA_ST_NOT_TESTED],
	    "not_applicable", (json_int_t)by_status[FA_ST_NOT_APPLICABLE],
	    "error", (json_int_t)by_status[FA_ST_ERROR],
	    "fail_on", fa_severity_name(m->fail_on),
	    "failing_at_or_above", (json_int_t)failing,
	    "waived", (json_int_t)waived,
	    "catalogue_stale", m->stale,
	    "nodes", (json_int_t)nn,
	    "nodes_failing", (json_int_t)m->nodes_failing,
	    "fail_targets", (json_int_t)fail_targets)) != 0)
		goto out;
	r = 0;
out:
	free(ord);
	return r;
}

/* The single policy name all reports share, or NULL. */
static const char *
common_policy(const struct fa_merge *m)
{
	void *it = json_object_iter(m->policies);

	if (json_object_size(m->policies) != 1 ||
	    strcmp(json_object_iter_key(it), "unknown") == 0)
		return NULL;
	return json_object_iter_key(it);
}

/* The expected entry that accounts for node entry n, or NULL. */
static json_t *
expected_for(const struct fa_merge *m, const json_t *n)
{
	const char *k = jstr(n, "scheduler_node"), *dot;
	json_t *e;
	char *first;

	if (k != NULL)
		return json_object_get(m->expected, k);
	if ((k = jstr(n, "host")) == NULL)
		return NULL;
	if ((e = json_object_get(m->expected, k)) != NULL ||
	    (dot = strchr(k, '.')) == NULL)
		return e;
	/* A host's first label: gpu01.cluster.example is node gpu01. */
	if ((first = fa_strfmt("%.*s", (int)(dot - k), k)) == NULL)
		return NULL;
	e = json_object_get(m->expected, first);
	free(first);
	return e;
}

/*
 * Match the reports against the expected nodes, add an entry for each
 * expected node without one, and count: merged.accounting, and
 * summary.nodes_not_scanned / summary.complete.  0 or FA_ERR_NOMEM.
 */
static int
finish_accounting(struct fa_merge *m, json_t *sum, json_t **acct)
{
	size_t c[5] = { 0 }, sig[4] = { 0 }, unexpected = 0, i;
	static const char *const states[] = { "scanned", "rejected",
	    "failed", "timed_out", "missing" };
	static const char *const sigs[] = { "good", "bad", "unsigned",
	    "unchecked" };
	const char *k, *st, *un = NULL;
	json_t *n, *e;
	size_t j, nent = json_array_size(m->nodes);

	*acct = NULL;
	for (i = 0; i < nent; i++) {
		n = json_array_get(m->nodes, i);
		if ((e = expected_for(m, n)) == NULL) {
			if (json_object_size(m->expected) > 0) {
				if (unexpected++ == 0)
					un = jstr(n, "node");
				if (put_new(n, "expected", json_false()) != 0)
					return FA_ERR_NOMEM;
			}
			continue;
		}
		if (put_new(n, "expected", json_true()) != 0 ||
		    put_new(e, "found", json_integer(jint(e, "found") + 1)) !=
		    0)
			return FA_ERR_NOMEM;
		if (jstr(e, "state") != NULL && warn(m, "node %s is listed as "
		    "%s (%s), but a report of it was given: the report is "
		    "used", jstr(n, "node"), jstr(e, "state"),
		    jstr(e, "reason")) != 0)
			return FA_ERR_NOMEM;
	}
	if (m->samehost > MAX_LISTED && warn(m, "... and %zu more nodes "
	    "report a host name another node reported", m->samehost -
	    MAX_LISTED) != 0)
		return FA_ERR_NOMEM;
	if (unexpected > 0 && warn(m, "%zu report%s from nodes not in the "
	    "expected list (the first: %s): merged, and marked "
	    "\"expected\": false", unexpected, unexpected == 1 ? " is" :
	    "s are", un) != 0)
		return FA_ERR_NOMEM;
	json_object_foreach(m->expected, k, e) {
		if (jint(e, "found") > 1 && warn(m, "expected node %s has "
		    "%lld reports", k, (long long)jint(e, "found")) != 0)
			return FA_ERR_NOMEM;
		if (jint(e, "found") > 0)
			continue;
		st = jstr(e, "state") != NULL ? jstr(e, "state") : "missing";
		n = json_pack("{s:s, s:s, s:O?, s:b}", "node", k, "state", st,
		    "reason", jstr(e, "reason") != NULL ?
		    json_object_get(e, "reason") : NULL, "expected", 1);
		if (n != NULL && jstr(e, "reason") == NULL &&
		    put_new(n, "reason", json_string("no report from this "
		    "node, and no failure recorded for it")) != 0) {
			json_decref(n);
			n = NULL;
		}
		if (json_array_append_new(m->nodes, n) != 0)
			return FA_ERR_NOMEM;
	}
	json_array_foreach(m->nodes, i, n) {
		for (j = 0; j < 5; j++)
			if ((st = jstr(n, "state")) != NULL &&
			    strcmp(st, states[j]) == 0)
				c[j]++;
		for (j = 0; j < 4; j++)
			if ((st = jstr(n, "signature")) != NULL &&
			    strcmp(st, sigs[j]) == 0)
				sig[j]++;
	}
	*acct = json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:I, "
	    "s:{s:I, s:I, s:I, s:I}}", "expected",
	    json_object_size(m->expected) > 0 ? json_integer((json_int_t)
	    json_object_size(m->expected)) : json_null(),
	    "scanned", (json_int_t)c[0], "rejected", (json_int_t)c[1],
	    "failed", (json_int_t)c[2], "timed_out", (json_int_t)c[3],
	    "missing", (json_int_t)c[4], "unexpected", (json_int_t)unexpected,
	    "signatures", "good", (json_int_t)sig[0], "bad",
	    (json_int_t)sig[1], "unsigned", (json_int_t)sig[2], "unchecked",
	    (json_int_t)sig[3]);
	if (*acct == NULL || json_object_update_new(sum, json_pack("{s:I, "
	    "s:b}", "nodes_not_scanned", (json_int_t)(c[1] + c[2] + c[3] +
	    c[4]), "complete", c[1] + c[2] + c[3] + c[4] == 0)) != 0)
		return FA_ERR_NOMEM;
	return 0;
}

int
fa_merge_finish(struct fa_merge *m, time_t generated, json_t **out,
    char **why)
{
	json_t *root = NULL, *results, *sum, *fams, *scan, *acct = NULL;
	const json_t *n;
	uint32_t *scanned = NULL;
	size_t nn = m->nscanned, ns = 0, i;
	char when[32];
	int f;

	*out = NULL;
	if (why != NULL)
		*why = NULL;
	/* With nodes accounted for, a report with no result says so. */
	if (json_array_size(m->nodes) == 0 &&
	    json_object_size(m->expected) == 0)
		return fa_why(why, "no report to merge");
	fa_time_rfc3339(generated, when, sizeof(when));
	results = json_array();
	sum = json_object();
	fams = json_array();
	/* The scanned nodes' indices, for the rows' complements. */
	if ((scanned = calloc(json_array_size(m->nodes) + 1,
	    sizeof(*scanned))) == NULL)
		goto nomem;
	json_array_foreach(m->nodes, i, n)
		if (strcmp(jstr(n, "state"), "scanned") == 0)
			scanned[ns++] = (uint32_t)i;
	if (results == NULL || sum == NULL || fams == NULL ||
	    finish_results(m, nn, results, sum, scanned, ns) != 0 ||
	    finish_accounting(m, sum, &acct) != 0)
		goto nomem;
	for (f = 0; f < FA_FAM_MAX; f++)
		if (m->collected[f] > 0 && json_array_append_new(fams,
		    json_string(fa_family_name((enum fa_family)f))) != 0)
			goto nomem;
	if (warn_if_mixed(m->warnings, m->versions, "the nodes were "
	    "scanned by different fabaudit versions") != 0 ||
	    warn_if_mixed(m->warnings, m->tools, "the reports were "
	    "evaluated by different fabaudit versions") != 0 ||
	    warn_if_mixed(m->warnings, m->catdates, "the nodes used host "
	    "CVE catalogues of different dates (scan.catalogue is the "
	    "oldest)") != 0 ||
	    warn_if_mixed(m->warnings, m->policies, "the reports were "
	    "evaluated against different policies") != 0)
		goto nomem;
	scan = json_pack("{s:s?, s:s?, s:o, s:I, s:b, s:O?}",
	    "started", m->started[0] != '\0' ? m->started : NULL,
	    "finished", m->finished[0] != '\0' ? m->finished : NULL,
	    "families", fams, "nodes", (json_int_t)nn, "active", m->active,
	    "catalogue", m->catalogue);
	fams = NULL;
	root = json_pack("{s:s, s:{s:s, s:s}, s:{s:s, s:s}, s:o, "
	    "s:{s:s, s:s}, s:o, s:{s:s?}, s:o, s:o, s:{s:I, s:O, s:o, s:O}}",
	    "schema", FA_REPORT_SCHEMA,
	    "tool", "name", "fabaudit", "version", FA_VERSION,
	    "scanned_by", "name", "fabaudit", "version", FA_VERSION,
	    "scan", scan,
	    "evaluation", "mode", "merge", "generated", when,
	    "families", families_json(m, nn),
	    "policy", "name", common_policy(m),
	    "summary", sum, "results", results,
	    "merged", "reports", (json_int_t)nn, "nodes", m->nodes,
	    "families", family_coverage(m, scanned, ns), "warnings",
	    m->warnings);
	sum = results = NULL;
	if (root == NULL)
		goto nomem;
	f = json_object_set_new(json_object_get(root, "merged"),
	    "accounting", acct);
	acct = NULL;	/* stolen, even on failure */
	if (f != 0)
		goto nomem;
	if (root == NULL || (json_array_size(m->expired) > 0 &&
	    json_object_set(root, "expired_waivers", m->expired) != 0))
		goto nomem;
	free(scanned);
	*out = root;
	return 0;
nomem:
	free(scanned);
	json_decref(root);
	json_decref(results);
	json_decref(sum);
	json_decref(fams);
	json_decref(acct);
	return FA_ERR_NOMEM;
}
