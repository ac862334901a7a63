/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The text of a merged cluster report (reports/merge.h): report.txt and
 * the one-line summary.  They read only the JSON, any member of which
 * may be missing or of the wrong type; every string from it is escaped
 * (control bytes, DEL and non-ASCII as \xNN).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/model.h"
#include "../core/util.h"
#include "merge.h"
#include "report.h"

static const char *
jstr(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* Text: s with control bytes, DEL and non-ASCII as \xNN; NULL as "-". */
static size_t
put(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	if (s == NULL) {
		fputc('-', f);
		return 1;
	}
	for (; *p != '\0'; p++) {
		if (*p >= 0x20 && *p < 0x7f) {
			fputc(*p, f);
			n++;
		} else
			n += (size_t)fprintf(f, "\\x%02x", *p);
	}
	return n;
}

/* put(), then spaces up to width columns and one more. */
static void
put_pad(FILE *f, const char *s, size_t width)
{
	size_t n = put(f, s);

	do
		fputc(' ', f);
	while (++n <= width);
}

static long long
num(const json_t *o, const char *k)
{
	return (long long)json_integer_value(json_object_get(o, k));
}

char *
fa_merge_summary(const json_t *mj)
{
	const json_t *s = json_object_get(mj, "summary");
	const json_t *a = json_object_get(json_object_get(mj, "merged"),
	    "accounting");
	enum fa_severity sv;
	const char *fo = jstr(s, "fail_on");
	char *inc = NULL, *out;

	/* Only a known severity name reaches the terminal. */
	if (fo == NULL || fa_severity_parse(fo, &sv) != 0)
		fo = "?";
	inc = num(s, "nodes_not_scanned") > 0 ? fa_strfmt(" INCOMPLETE: "
	    "%lld node%s not in this report (%lld failed, %lld timed out, "
	    "%lld missing, %lld rejected).", num(s, "nodes_not_scanned"),
	    num(s, "nodes_not_scanned") == 1 ? "" : "s", num(a, "failed"),
	    num(a, "timed_out"), num(a, "missing"), num(a, "rejected")) :
	    fa_strdup("");
	if (inc == NULL)
		return NULL;
	out = fa_strfmt("Merged %lld nodes: %lld fail (%lld at or above %s "
	    "and not waived, on %lld nodes; %lld waived), %lld pass, %lld not "
	    "tested, %lld not applicable, %lld error.%s", num(s, "nodes"),
	    num(s, "fail"), num(s, "failing_at_or_above"),
	    fo, num(s, "nodes_failing"),
	    num(s, "waived"), num(s, "pass"), num(s, "not_tested"),
	    num(s, "not_applicable"), num(s, "error"), inc);
	free(inc);
	return out;
}

/* "Accounted: ..." line of merged.accounting. */
static void
txt_accounting(FILE *f, const json_t *a)
{
	const json_t *sg = json_object_get(a, "signatures");

	if (a == NULL)
		return;
	fputs("Accounted: ", f);
	if (json_is_integer(json_object_get(a, "expected")))
		fprintf(f, "%lld expected; ", num(a, "expected"));
	else
		fputs("no expected node list; ", f);
	fprintf(f, "%lld scanned, %lld rejected, %lld failed, %lld timed "
	    "out, %lld missing", num(a, "scanned"), num(a, "rejected"),
	    num(a, "failed"), num(a, "timed_out"), num(a, "missing"));
	if (num(a, "unexpected") > 0)
		fprintf(f, " (%lld scanned not expected)",
		    num(a, "unexpected"));
	fprintf(f, "\nSignatures: %lld good, %lld bad, %lld unsigned, %lld "
	    "not checked\n", num(sg, "good"), num(sg, "bad"),
	    num(sg, "unsigned"), num(sg, "unchecked"));
}

/* The per-node table: state, signature, coverage, counts. */
static void
txt_nodes(FILE *f, const json_t *nodes)
{
	const json_t *n, *e, *s;
	const char *st;
	size_t i, j;
	int fam, has;

	fputs("\nNodes (state, signature, families collected, result "
	    "counts):\n", f);
	fprintf(f, "  %-24s %-9s %-9s %-4s %-4s %-4s %5s %5s %5s %5s %5s  "
	    "%s\n", "NODE", "STATE", "SIGNATURE", "IB", "ETH", "HOST", "PASS",
	    "FAIL", "N/T", "N/A", "ERR", "FILE OR REASON");
	json_array_foreach(nodes, i, n) {
		fputs("  ", f);
		put_pad(f, jstr(n, "node"), 24);
		st = jstr(n, "state") != NULL ? jstr(n, "state") : "scanned";
		put_pad(f, st, 9);
		put_pad(f, strcmp(st, "scanned") == 0 ||
		    strcmp(st, "rejected") == 0 ? jstr(n, "signature") : "-",
		    9);
		if (strcmp(st, "scanned") != 0) {
			fprintf(f, "%-4s %-4s %-4s %5s %5s %5s %5s %5s  ", "-",
			    "-", "-", "-", "-", "-", "-", "-");
			put(f, strcmp(st, "rejected") == 0 ?
			    jstr(n, "signature_detail") : jstr(n, "reason"));
			if (strcmp(st, "rejected") == 0) {
				fputs(": ", f);
				put(f, jstr(n, "file"));
			}
			fputc('\n', f);
			continue;
		}
		for (fam = 0; fam < FA_FAM_MAX; fam++) {
			has = 0;
			json_array_foreach(json_object_get(n, "families"), j,
			    e)
				if (json_is_string(e) && strcmp(
				    json_string_value(e), fa_family_name(
				    (enum fa_family)fam)) == 0)
					has = 1;
			fprintf(f, "%-4s ", has ? "yes" : "-");
		}
		s = json_object_get(n, "summary");
		fprintf(f, "%5lld %5lld %5lld %5lld %5lld  ", num(s, "pass"),
		    num(s, "fail"), num(s, "not_tested"),
		    num(s, "not_applicable"), num(s, "error"));
		put(f, jstr(n, "file"));
		fputc('\n', f);
	}
}

/* "eth: not collected on 2 of 3 nodes: a (not_requested), ..." */
static void
txt_families(FILE *f, const json_t *fams, long long nodes, size_t max)
{
	const json_t *e, *miss, *set, *names, *x;
	const char *k;
	json_t *v;
	size_t i, j, shown, total;

	json_object_foreach((json_t *)fams, k, v) {
		miss = json_object_get(v, "not_collected");
		total = 0;
		json_array_foreach(miss, i, e)
			total += json_is_object(set = json_object_get(e,
			    "node_set")) ? (size_t)num(set, "count") : 1;
		if (total == 0)
			continue;
		put(f, k);
		fprintf(f, ": not collected on %zu of %lld nodes: ", total,
		    nodes);
		shown = 0;
		json_array_foreach(miss, i, e) {
			set = json_object_get(e, "node_set");
			if (shown >= max)
				break;
			if (i > 0)
				fputs(", ", f);
			if (!json_is_object(set)) {
				put(f, jstr(e, "node"));
				shown++;
			} else if ((names = json_object_get(set, "names")) !=
			    NULL) {
				json_array_foreach(names, j, x) {
					if (shown == max)
						break;
					if (j > 0) {
						fputs(" (", f);
						put(f, jstr(e, "state"));
						fputs("), ", f);
					}
					put(f, json_string_value(x));
					shown++;
				}
			} else {
				names = json_object_get(set,
				    "all_scanned_but");
				fputs(json_array_size(names) == 0 ?
				    "every scanned node" :
				    "every scanned node but ", f);
				json_array_foreach(names, j, x) {
					if (j == max)
						break;
					if (j > 0)
						fputs(", ", f);
					put(f, json_string_value(x));
				}
				shown += num(set, "count");
			}
			fputs(" (", f);
			put(f, jstr(e, "state"));
			fputc(')', f);
		}
		if (shown < total)
			fprintf(f, ", ... and %zu more", total - shown);
		fputc('\n', f);
	}
}

/* "        on: a, b, ... and K more" / "every scanned node but: ..." */
static void
txt_node_set(FILE *f, const json_t *set, size_t max)
{
	const json_t *v = json_object_get(set, "names"), *e;
	size_t i;

	if (v != NULL)
		fputs("        on: ", f);
	else {
		v = json_object_get(set, "all_scanned_but");
		fputs(json_array_size(v) == 0 ? "        on every scanned node" :
		    "        on every scanned node but: ", f);
	}
	json_array_foreach(v, i, e) {
		if (i == max) {
			fprintf(f, ", ... and %zu more", json_array_size(v) - i);
			break;
		}
		if (i > 0)
			fputs(", ", f);
		put(f, json_string_value(e));
	}
	fputc('\n', f);
}

/* One merged result of mj; targets listed only when `full`. */
static void
txt_result(FILE *f, const json_t *mj, const json_t *r, size_t max, int full)
{
	const json_t *cov = json_object_get(r, "coverage"), *t, *w, *set;
	const json_t *targets = json_object_get(r, "targets");
	size_t i, nt = 0, nrows = json_array_size(targets);
	long long k;
	char cnt[32];

	/* A row with a node_set stands for count targets. */
	json_array_foreach(targets, i, t)
		nt += (k = num(json_object_get(t, "node_set"), "count")) > 1 ?
		    (size_t)k : 1;
	put_pad(f, jstr(r, "status"), 14);
	put_pad(f, jstr(r, "severity"), 8);
	put(f, jstr(r, "id"));
	fprintf(f, "  %zu target%s on %lld of %lld nodes\n    ", nt,
	    nt == 1 ? "" : "s", num(r, "nodes"), num(cov, "nodes"));
	put(f, jstr(r, "title"));
	fputc('\n', f);
	if (!full)
		return;
	fputs("    reason: ", f);
	put(f, jstr(r, "reason"));
	if (num(r, "reasons") > 1)
		fprintf(f, " (and %lld other reasons)", num(r, "reasons") - 1);
	fprintf(f, "\n    coverage: decided on %lld, not applicable on %lld, "
	    "not tested on %lld, absent on %lld of %lld nodes\n",
	    num(cov, "decided"), num(cov, "not_applicable"),
	    num(cov, "not_tested"), num(cov, "absent"), num(cov, "nodes"));
	if ((w = json_object_get(r, "waived")) != NULL) {
		fputs("    WAIVED until ", f);
		put(f, jstr(w, "expires"));
		fprintf(f, " (policy line %lld): ", num(w, "policy_line"));
		put(f, jstr(w, "reason"));
		fputc('\n', f);
	}
	json_array_foreach(targets, i, t) {
		if (i == max) {
			fprintf(f, "      ... and %zu more\n", nrows - max);
			break;
		}
		fputs("      ", f);
		set = json_object_get(t, "node_set");
		if (json_is_object(set)) {
			snprintf(cnt, sizeof(cnt), "%lld nodes",
			    num(set, "count"));
			put_pad(f, cnt, 24);
		} else
			put_pad(f, jstr(t, "node"), 24);
		put(f, jstr(t, "target"));
		if (jstr(t, "target_name") != NULL) {
			fputs(" (", f);
			put(f, jstr(t, "target_name"));
			fputc(')', f);
		}
		if (num(t, "seen_by") > 1)
			fprintf(f, "  [seen by %lld nodes]", num(t, "seen_by"));
		fputc('\n', f);
		if (json_is_object(set))
			txt_node_set(f, set, max);
	}
	if (jstr(r, "status") != NULL && strcmp(jstr(r, "status"),
	    "fail") == 0) {
		fputs("    remediation: ", f);
		/* The result's own texts, else its check's (schema 2). */
		put(f, json_string_value(fa_report_text(mj, r,
		    "remediation")));
		fputs("\n    msa clause: ", f);
		put(f, json_string_value(fa_report_text(mj, r,
		    "msa_clause")));
		fputc('\n', f);
	}
}

/* The order of the findings: failures not waived first, passes last. */
static const struct {
	const char	*status;
	int		 waived;	/* -1: either */
	int		 full;
} txt_order[] = {
	{ "fail", 0, 1 }, { "fail", 1, 1 }, { "error", -1, 1 },
	{ "not_tested", -1, 1 }, { "not_applicable", -1, 0 },
	{ "pass", -1, 0 },
};

static const char *const txt_sev[] = {
	"critical", "high", "medium", "low", "info", NULL
};

static int
txt_matches(const json_t *r, size_t o, const char *sev)
{
	const char *st = jstr(r, "status"), *sv = jstr(r, "severity");
	int w = json_object_get(r, "waived") != NULL;
	size_t i;

	if (st == NULL || strcmp(st, txt_order[o].status) != 0 ||
	    (txt_order[o].waived >= 0 && txt_order[o].waived != w))
		return 0;
	if (sev != NULL)
		return sv != NULL && strcmp(sv, sev) == 0;
	/* The last round takes any severity not named in txt_sev. */
	for (i = 0; sv != NULL && txt_sev[i] != NULL; i++)
		if (strcmp(sv, txt_sev[i]) == 0)
			return 0;
	return 1;
}

char *
fa_merge_txt(const json_t *mj, size_t max)
{
	const json_t *scan = json_object_get(mj, "scan"), *cat, *r, *e;
	const json_t *merged = json_object_get(mj, "merged");
	const json_t *results = json_object_get(mj, "results");
	char *buf = NULL, *sum;
	size_t len = 0, i, o, s, compact = 0;
	int bad;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	fputs("fabaudit ", f);
	put(f, jstr(json_object_get(mj, "tool"), "version"));
	fputs(" merged report (", f);
	put(f, jstr(json_object_get(mj, "evaluation"), "generated"));
	fprintf(f, ")\nNodes: %lld reports; scans from ",
	    num(merged, "reports"));
	put(f, jstr(scan, "started"));
	fputs(" to ", f);
	put(f, jstr(scan, "finished"));
	fputs("\nPolicy: ", f);
	put(f, jstr(json_object_get(mj, "policy"), "name"));
	fputc('\n', f);
	if ((cat = json_object_get(scan, "catalogue")) != NULL) {
		fputs("Catalogue: dated ", f);
		put(f, jstr(cat, "date"));
		fputs(" (the oldest any node used)", f);
		if (json_is_true(json_object_get(cat, "stale")))
			fprintf(f, ", stale: %lld days old at scan time",
			    num(cat, "age_days"));
		fputc('\n', f);
	}
	json_array_foreach(json_object_get(merged, "warnings"), i, e) {
		fputs("Warning: ", f);
		put(f, json_string_value(e));
		fputc('\n', f);
	}
	txt_accounting(f, json_object_get(merged, "accounting"));
	txt_nodes(f, json_object_get(merged, "nodes"));
	fputc('\n', f);
	txt_families(f, json_object_get(merged, "families"),
	    num(merged, "reports"), max);
	fprintf(f, "\nFindings (%zu):\n", json_array_size(results));
	for (o = 0; o < sizeof(txt_order) / sizeof(txt_order[0]); o++)
		for (s = 0; s == 0 || txt_sev[s - 1] != NULL; s++)
			json_array_foreach(results, i, r) {
				if (!txt_matches(r, o, txt_sev[s]))
					continue;
				/* A blank line before each full entry and
				 * before the first one-line entry. */
				if (txt_order[o].full || !compact++)
					fputc('\n', f);
				txt_result(f, mj, r, max,
				    txt_order[o].full);
			}
	sum = fa_merge_summary(mj);
	bad = ferror(f) || sum == NULL;
	if (sum != NULL)
		fprintf(f, "\n%s\n", sum);
	free(sum);
	if (fclose(f) != 0 || bad) {
		free(buf);
		return NULL;
	}
	return buf;
}
