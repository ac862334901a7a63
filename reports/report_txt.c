/*
 * report.txt and the stdout summary: the same content as report.json for a
 * reader at a terminal.  Strings from the fabric are already printable
 * ASCII (fa_str_sanitize); secrets are redacted unless revealed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "report.h"

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
		fputs(reveal ? json_string_value(json_object_get(v, "value")) :
		    FA_REDACTED, f);
		fprintf(f, " (%s)", json_is_true(json_object_get(v, "zero")) ?
		    "zero" : "non-zero");
	} else if (json_is_string(v))
		fputs(json_string_value(v), f);
	else if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		fputs(json_is_true(v) ? "true" : "false", f);
	else if (json_is_array(v)) {
		json_array_foreach(v, i, e) {
			if (i > 0)
				fputs(" ", f);
			print_value(f, e, reveal);
		}
	} else
		fputs("-", f);
}

static void
print_result(FILE *f, const struct fa_result *r, int reveal, int full)
{
	const json_t *e;
	size_t i;

	fprintf(f, "%-14s %-8s %s  %s", fa_status_name(r->status),
	    fa_severity_name(r->severity), r->check->id, r->target);
	if (r->target_name != NULL)
		fprintf(f, " (%s)", r->target_name);
	fprintf(f, "\n    %s\n    %s\n", r->check->title, r->reason);
	if (r->waiver_reason != NULL)
		fprintf(f, "    WAIVED until %s (policy line %u): %s\n",
		    r->waiver_expires, r->waiver_line, r->waiver_reason);
	if (!full)
		return;
	json_array_foreach(r->evidence, i, e) {
		fprintf(f, "    evidence: %s = ",
		    json_string_value(json_object_get(e, "field")));
		print_value(f, json_object_get(e, "value"), reveal);
		if (json_is_string(json_object_get(e, "observation")))
			fprintf(f, "  [%s]", json_string_value(
			    json_object_get(e, "observation")));
		fputc('\n', f);
	}
	if (r->status == FA_ST_FAIL)
		fprintf(f, "    remediation: %s\n    msa clause: %s\n",
		    r->check->remediation, r->check->msa_clause);
}

static void
print_summary_line(FILE *f, const struct fa_report_ctx *ctx)
{
	struct fa_tally t;

	fa_tally(ctx->res, ctx->fail_on, &t);
	fprintf(f, "Summary: %zu pass, %zu fail, %zu not tested, "
	    "%zu not applicable, %zu error; %zu failing at or above %s"
	    "%s.\n",
	    t.by_status[FA_ST_PASS], t.by_status[FA_ST_FAIL],
	    t.by_status[FA_ST_NOT_TESTED], t.by_status[FA_ST_NOT_APPLICABLE],
	    t.by_status[FA_ST_ERROR], t.failing, fa_severity_name(ctx->fail_on),
	    t.waived > 0 ? " (waived failures excluded)" : "");
	if (t.by_status[FA_ST_NOT_TESTED] + t.by_status[FA_ST_ERROR] > 0)
		fprintf(f, "Note: %zu check results could not be decided "
		    "(not tested or error); they are not passes.\n",
		    t.by_status[FA_ST_NOT_TESTED] + t.by_status[FA_ST_ERROR]);
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

char *
fa_report_txt(const struct fa_report_ctx *ctx)
{
	const struct fa_snapshot *s = ctx->snap;
	char *buf = NULL, when[32];
	size_t len = 0, i;
	int fam, st;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	fa_time_rfc3339(ctx->generated, when, sizeof(when));
	fprintf(f, "fabaudit %s report (%s evaluation, %s)\n", FA_VERSION,
	    ctx->mode, when);
	fprintf(f, "Scan: %s to %s on %s by fabaudit %s\n",
	    meta_str(s, "scan", "started"), meta_str(s, "scan", "finished"),
	    meta_str(s, "scan", "host"), meta_str(s, "tool", "version"));
	fprintf(f, "Policy: %s\n", ctx->policy_name != NULL ?
	    ctx->policy_name : "(none)");
	if (ctx->snapshot_sha256 != NULL)
		fprintf(f, "Snapshot: %s sha256 %s\n", ctx->snapshot_file != NULL ?
		    ctx->snapshot_file : "-", ctx->snapshot_sha256);
	for (fam = 0; fam < FA_FAM_MAX; fam++) {
		fprintf(f, "Family %s: %s", fa_family_name((enum fa_family)fam),
		    fa_fam_state_name(s->fam[fam].state));
		if (s->fam[fam].reason != NULL)
			fprintf(f, " (%s)", s->fam[fam].reason);
		fputc('\n', f);
	}
	/* Failures first, then the undecided, then the rest. */
	for (st = 0; st < FA_ST_MAX; st++) {
		for (i = 0; i < ctx->res->n; i++) {
			if (ctx->res->v[i].status != order[st])
				continue;
			fputc('\n', f);
			print_result(f, &ctx->res->v[i], ctx->reveal, 1);
		}
	}
	fputc('\n', f);
	print_summary_line(f, ctx);
	return finish(f, &buf);
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
			print_result(f, &ctx->res->v[i], ctx->reveal, 0);
	print_summary_line(f, ctx);
	return finish(f, &buf);
}
