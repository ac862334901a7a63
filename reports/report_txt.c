/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.txt and the stdout summary: the same content as report.json for a
 * reader at a terminal.  Every string that did not come from this program
 * (fabric, snapshot file, policy) goes through put(), which escapes what a
 * terminal would interpret; secrets are redacted unless revealed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "report.h"

/* Write s with control bytes, DEL and non-ASCII as \xNN; NULL as "-". */
static void
put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run;

	if (s == NULL) {
		fputc('-', f);
		return;
	}
	while (*p != '\0') {
		/* Printable ASCII in one write: most text is nothing else. */
		for (run = p; *p >= 0x20 && *p < 0x7f; p++)
			;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), f);
		if (*p != '\0')
			fprintf(f, "\\x%02x", *p++);
	}
}

static const char *
meta_str(const struct fa_snapshot *s, const char *obj, const char *key)
{
	const char *v = json_string_value(json_object_get(
	    json_object_get(s->meta, obj), key));

	return v != NULL ? v : "?";
}

static void
print_value(FILE *f, const json_t *v, int reveal)
{
	const json_t *e;
	size_t i;

	if (json_is_object(v) && json_is_true(json_object_get(v, "secret"))) {
		put(f, reveal ? json_string_value(json_object_get(v, "value")) :
		    FA_REDACTED);
		fprintf(f, " (%s)", json_is_true(json_object_get(v, "zero")) ?
		    "zero" : "non-zero");
	} else if (json_is_string(v))
		put(f, json_string_value(v));
	else if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		fputs(json_is_true(v) ? "true" : "false", f);
	else if (json_is_object(v)) {
		const char *k;
		json_t *e2;
		int first = 1;

		fputc('{', f);
		json_object_foreach((json_t *)v, k, e2) {
			if (!first)
				fputs(", ", f);
			first = 0;
			put(f, k);
			fputc('=', f);
			print_value(f, e2, reveal);
		}
		fputc('}', f);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e) {
			if (i > 0)
				fputs(" ", f);
			print_value(f, e, reveal);
		}
	} else
		fputs("-", f);
}

/*
 * The checks whose remediation and clause report.txt has printed: a
 * failure of one of them refers to the first instead of repeating them
 * (a large fabric fails one check for thousands of ports).  Unbounded
 * only by the registry; out of memory, the texts are simply repeated.
 */
struct given {
	const struct fa_check	**v;
	size_t			  n, cap;
};

/* 1 if c's texts were given already; else records c and returns 0. */
static int
given_before(struct given *g, const struct fa_check *c)
{
	const struct fa_check **nv;
	size_t i, cap;

	if (g == NULL)
		return 0;
	for (i = 0; i < g->n; i++)
		if (g->v[i] == c)
			return 1;
	if (g->n == g->cap) {
		cap = g->cap > 0 ? g->cap * 2 : 32;
		if ((nv = realloc(g->v, cap * sizeof(*nv))) == NULL)
			return 0;
		g->v = nv;
		g->cap = cap;
	}
	g->v[g->n++] = c;
	return 0;
}

static void
print_result(FILE *f, const struct fa_result *r, int reveal, int full,
    struct given *g)
{
	const json_t *e;
	size_t i;

	fprintf(f, "%-14s %-8s %s  ", fa_status_name(r->status),
	    fa_severity_name(r->severity), r->check->id);
	put(f, r->target);
	if (r->target_name != NULL) {
		fputs(" (", f);
		put(f, r->target_name);
		fputc(')', f);
	}
	fprintf(f, "\n    %s\n    ", r->check->title);
	put(f, r->reason);
	fputc('\n', f);
	if (r->waiver_reason != NULL) {
		fprintf(f, "    WAIVED until %s (policy line %u): ",
		    r->waiver_expires, r->waiver_line);
		put(f, r->waiver_reason);
		fputc('\n', f);
	}
	if (!full)
		return;
	json_array_foreach(r->evidence, i, e) {
		fputs("    evidence: ", f);
		put(f, json_string_value(json_object_get(e, "field")));
		fputs(" = ", f);
		print_value(f, json_object_get(e, "value"), reveal);
		if (json_is_string(json_object_get(e, "observation"))) {
			fputs("  [", f);
			put(f, json_string_value(json_object_get(e,
			    "observation")));
			fputc(']', f);
		}
		fputc('\n', f);
	}
	if (r->status != FA_ST_FAIL)
		return;
	if (given_before(g, r->check))
		fprintf(f, "    remediation, msa clause: as for the first %s "
		    "failure above\n", r->check->id);
	else
		fprintf(f, "    remediation: %s\n    msa clause: %s\n",
		    r->check->remediation, r->check->msa_clause);
}

/* scan.catalogue, or NULL for a snapshot made without one. */
static const json_t *
catalogue(const struct fa_snapshot *s)
{
	return json_object_get(json_object_get(s->meta, "scan"), "catalogue");
}

/* "Catalogue: ..." header line: which catalogue, its date and sources. */
static void
print_catalogue(FILE *f, const struct fa_snapshot *s)
{
	const json_t *c = catalogue(s), *src;
	size_t i;

	if (c == NULL)
		return;
	fputs("Catalogue: ", f);
	put(f, json_string_value(json_object_get(c, "path")));
	if (json_object_get(c, "error") != NULL) {
		fputs(" not loaded (", f);
		put(f, json_string_value(json_object_get(c, "error")));
		fputs(")\n", f);
		return;
	}
	fputs(" dated ", f);
	put(f, json_string_value(json_object_get(c, "date")));
	fprintf(f, " (%lld entries, %lld days old at scan time); sources: ",
	    (long long)json_integer_value(json_object_get(c, "entries")),
	    (long long)json_integer_value(json_object_get(c, "age_days")));
	json_array_foreach(json_object_get(c, "sources"), i, src) {
		if (i > 0)
			fputs(", ", f);
		put(f, json_string_value(json_object_get(src, "name")));
	}
	fputc('\n', f);
	/* Which bytes judged the host, and who vouches for them. */
	if (json_object_get(c, "sha256") != NULL) {
		fputs("Catalogue SHA-256 ", f);
		put(f, json_string_value(json_object_get(c, "sha256")));
		fputs(", signature: ", f);
		put(f, json_string_value(json_object_get(c, "signature")));
		if (json_is_string(json_object_get(c, "signer"))) {
			fputs(" by ", f);
			put(f, json_string_value(json_object_get(c, "signer")));
		}
		if (json_is_string(json_object_get(c, "valid_until"))) {
			fputs("; valid until ", f);
			put(f, json_string_value(json_object_get(c,
			    "valid_until")));
		}
		fputc('\n', f);
	}
}

static void
print_summary_line(FILE *f, const struct fa_report_ctx *ctx)
{
	const json_t *cat = catalogue(ctx->snap);
	const struct fa_pol_waiver *w;
	struct fa_tally t;
	json_t *m;
	size_t i;

	fa_tally(ctx->res, ctx->fail_on, &t);
	fprintf(f, "Summary: %zu pass, %zu fail, %zu not tested, "
	    "%zu not applicable, %zu error; %zu failing at or above %s"
	    "%s.\n",
	    t.by_status[FA_ST_PASS], t.by_status[FA_ST_FAIL],
	    t.by_status[FA_ST_NOT_TESTED], t.by_status[FA_ST_NOT_APPLICABLE],
	    t.by_status[FA_ST_ERROR], t.failing, fa_severity_name(ctx->fail_on),
	    t.waived > 0 ? " (waived failures excluded)" : "");
	if ((m = fa_report_ib_mads(ctx->snap)) != NULL) {
		fprintf(f, "InfiniBand MADs: %lld sent, %lld lost, %lld "
		    "retried, %lld unanswered, %lld malformed.\n",
		    (long long)json_integer_value(json_object_get(m, "sent")),
		    (long long)json_integer_value(json_object_get(m, "lost")),
		    (long long)json_integer_value(json_object_get(m,
		    "retried")), (long long)json_integer_value(
		    json_object_get(m, "unanswered")), (long long)
		    json_integer_value(json_object_get(m, "malformed")));
		json_decref(m);
	}
	if (t.by_status[FA_ST_NOT_TESTED] + t.by_status[FA_ST_ERROR] > 0)
		fprintf(f, "Note: %zu check results could not be decided "
		    "(not tested or error); they are not passes.\n",
		    t.by_status[FA_ST_NOT_TESTED] + t.by_status[FA_ST_ERROR]);
	if (json_is_true(json_object_get(cat, "stale")) &&
	    json_is_string(json_object_get(cat, "valid_until"))) {
		fputs("Warning: the host CVE catalogue dated ", f);
		put(f, json_string_value(json_object_get(cat, "date")));
		fputs(" was valid until ", f);
		put(f, json_string_value(json_object_get(cat, "valid_until")));
		fprintf(f, " and is %lld days old: vulnerabilities published "
		    "since are unknown to this scan; build a newer one "
		    "(fabaudit catalogue build) and load it with --cve-db.\n",
		    (long long)json_integer_value(json_object_get(cat,
		    "age_days")));
	} else if (json_is_true(json_object_get(cat, "stale"))) {
		fputs("Warning: the host CVE catalogue dated ", f);
		put(f, json_string_value(json_object_get(cat, "date")));
		fprintf(f, " is %lld days old (more than %lld): vulnerabilities "
		    "published since are unknown to this scan; load a newer one "
		    "with --cve-db.\n",
		    (long long)json_integer_value(json_object_get(cat,
		    "age_days")), (long long)json_integer_value(
		    json_object_get(cat, "stale_after_days")));
	}
	/* An expired waiver waives nothing; say so where a reader looks. */
	for (i = 0; ctx->policy != NULL && i < ctx->policy->n_waive; i++) {
		w = &ctx->policy->waive[i];
		if (!w->expired)
			continue;
		fprintf(f, "Warning: the waiver of %s on line %u expired on %s "
		    "and waives nothing: ", w->check_id, w->line, w->expires);
		put(f, w->reason);
		fputc('\n', f);
	}
}

/* Close a memstream; its buffer is only valid (and final) after fclose. */
static char *
finish(FILE *f, char **bufp)
{
	int bad = ferror(f);

	if (fclose(f) != 0 || bad) {
		free(*bufp);
		return NULL;
	}
	return *bufp;
}

static const enum fa_status order[FA_ST_MAX] = {
	FA_ST_FAIL, FA_ST_ERROR, FA_ST_NOT_TESTED, FA_ST_NOT_APPLICABLE,
	FA_ST_PASS,
};

/* The whole of report.txt to f. */
static void
txt_body(FILE *f, const struct fa_report_ctx *ctx)
{
	const struct fa_snapshot *s = ctx->snap;
	struct given g = { NULL, 0, 0 };
	char when[32];
	size_t i;
	int fam, st;

	fa_time_rfc3339(ctx->generated, when, sizeof(when));
	fprintf(f, "fabaudit %s report (%s evaluation, %s)\n", FA_VERSION,
	    ctx->mode, when);
	fputs("Scan: ", f);
	put(f, meta_str(s, "scan", "started"));
	fputs(" to ", f);
	put(f, meta_str(s, "scan", "finished"));
	fputs(" on ", f);
	put(f, meta_str(s, "scan", "host"));
	fputs(" by fabaudit ", f);
	put(f, meta_str(s, "tool", "version"));
	fputs("\nPolicy: ", f);
	put(f, ctx->policy_name != NULL ? ctx->policy_name : "(none)");
	fputc('\n', f);
	print_catalogue(f, s);
	if (ctx->snapshot_sha256 != NULL) {
		fputs("Snapshot: ", f);
		put(f, ctx->snapshot_file);
		fprintf(f, " sha256 %s\n", ctx->snapshot_sha256);
	}
	for (fam = 0; fam < FA_FAM_MAX; fam++) {
		fprintf(f, "Family %s: %s", fa_family_name((enum fa_family)fam),
		    fa_fam_state_name(s->fam[fam].state));
		if (s->fam[fam].reason != NULL) {
			fputs(" (", f);
			put(f, s->fam[fam].reason);
			fputc(')', f);
		}
		fputc('\n', f);
	}
	/* Failures first, then the undecided, then the rest. */
	for (st = 0; st < FA_ST_MAX; st++) {
		for (i = 0; i < ctx->res->n; i++) {
			if (ctx->res->v[i].status != order[st])
				continue;
			fputc('\n', f);
			print_result(f, &ctx->res->v[i], ctx->reveal, 1, &g);
		}
	}
	free(g.v);
	fputc('\n', f);
	print_summary_line(f, ctx);
}

char *
fa_report_txt(const struct fa_report_ctx *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	txt_body(f, ctx);
	return finish(f, &buf);
}

/* A stdio stream over an fa_emit_fn (fopencookie(3)). */
struct emit_cookie {
	fa_emit_fn	 emit;
	void		*arg;
	int		 failed;
};

static ssize_t
cookie_write(void *c, const char *p, size_t len)
{
	struct emit_cookie *e = c;

	if (e->failed || e->emit(p, len, e->arg) != 0) {
		e->failed = 1;
		return 0;	/* stdio's "nothing written": an error */
	}
	return (ssize_t)len;
}

int
fa_report_txt_emit(const struct fa_report_ctx *ctx, fa_emit_fn emit,
    void *arg, char **why)
{
	static const cookie_io_functions_t io = { NULL, cookie_write, NULL,
	    NULL };
	struct emit_cookie e = { emit, arg, 0 };
	FILE *f;
	int bad;

	if (why != NULL)
		*why = NULL;
	if ((f = fopencookie(&e, "w", io)) == NULL)
		return FA_ERR_NOMEM;
	txt_body(f, ctx);
	bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		if (e.failed)
			return FA_ERR_IO;	/* the sink says why */
		if (why != NULL)
			*why = fa_strdup("out of memory");
		return FA_ERR_NOMEM;
	}
	return 0;
}

char *
fa_report_summary(const struct fa_report_ctx *ctx)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	for (i = 0; i < ctx->res->n; i++)
		if (ctx->res->v[i].status != FA_ST_PASS)
			print_result(f, &ctx->res->v[i], ctx->reveal, 0, NULL);
	print_summary_line(f, ctx);
	return finish(f, &buf);
}
