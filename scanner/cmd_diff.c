/*
 * fabaudit diff: compare two reports (report.json) finding by finding,
 * matched by check ID and target: new failures, resolved ones, changed
 * results (status or severity) and unchanged failures.  The exit status is
 * 1 only for a new failure at or above --fail-on that no waiver covers.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "../reports/report.h"
#include "scanner.h"

const char fa_usage_diff[] =
    "       fabaudit diff [-f txt|json] [--fail-on severity] old.json "
    "new.json\n";

static const struct option longopts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "fail-on", required_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

#define DIFF_MAX_RESULTS	1000000

/*
 * The results of a report as {"ID\ttarget": result}; NULL after a
 * diagnostic naming the file and the entry at fault.
 */
static json_t *
load(const char *path)
{
	json_t *root, *map = NULL, *res, *r;
	json_error_t je;
	const char *schema, *id, *target, *st, *sev;
	enum fa_status s;
	enum fa_severity v;
	char *buf = NULL, *why = NULL, *key;
	size_t len, i;

	if (fa_read_file(path, FA_SNAPSHOT_MAX_BYTES, &buf, &len, &why) != 0) {
		fa_diag(path, "%s", why != NULL ? why : "cannot be read");
		free(why);
		return NULL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (root == NULL) {
		fa_diag(path, "line %d: %s", je.line, je.text);
		return NULL;
	}
	schema = fa_json_get_str(root, "schema");
	res = json_object_get(root, "results");
	if (schema == NULL || strcmp(schema, FA_REPORT_SCHEMA) != 0 ||
	    !json_is_array(res) || json_array_size(res) > DIFF_MAX_RESULTS) {
		fa_diag(path, "not a %s report (schema, results)",
		    FA_REPORT_SCHEMA);
		goto fail;
	}
	if ((map = json_object()) == NULL)
		goto nomem;
	json_array_foreach(res, i, r) {
		id = fa_json_get_str(r, "id");
		target = fa_json_get_str(r, "target");
		st = fa_json_get_str(r, "status");
		sev = fa_json_get_str(r, "severity");
		if (id == NULL || target == NULL || st == NULL || sev == NULL ||
		    !fa_check_id_valid(id) || fa_status_parse(st, &s) != 0 ||
		    fa_severity_parse(sev, &v) != 0) {
			fa_diag(path, "results[%zu]: id, target, status or "
			    "severity missing or invalid", i);
			goto fail;
		}
		if ((key = fa_strfmt("%s\t%s", id, target)) == NULL)
			goto nomem;
		if (json_object_get(map, key) != NULL) {
			fa_diag(path, "results[%zu]: %s on %s twice", i, id,
			    target);
			free(key);
			goto fail;
		}
		if (json_object_set(map, key, r) != 0) {
			free(key);
			goto nomem;
		}
		free(key);
	}
	json_decref(root);
	return map;
nomem:
	fa_diag(NULL, "out of memory");
fail:
	json_decref(map);
	json_decref(root);
	return NULL;
}

static int
is_fail(const json_t *r)
{
	return r != NULL && strcmp(fa_json_get_str(r, "status"), "fail") == 0;
}

static int
same(const json_t *a, const json_t *b)
{
	return strcmp(fa_json_get_str(a, "status"),
	    fa_json_get_str(b, "status")) == 0 &&
	    strcmp(fa_json_get_str(a, "severity"),
	    fa_json_get_str(b, "severity")) == 0;
}

/* {id, target, status, severity, [was_status, was_severity]}. */
static json_t *
entry(const json_t *n, const json_t *o)
{
	const json_t *r = n != NULL ? n : o;

	return json_pack("{s:O, s:O, s:O?, s:O?, s:O?, s:O?, s:b}", "id",
	    json_object_get(r, "id"), "target", json_object_get(r, "target"),
	    "status", n != NULL ? json_object_get(n, "status") : NULL,
	    "severity", n != NULL ? json_object_get(n, "severity") : NULL,
	    "was_status", o != NULL ? json_object_get(o, "status") : NULL,
	    "was_severity", o != NULL ? json_object_get(o, "severity") : NULL,
	    "waived", n != NULL && json_object_get(n, "waived") != NULL);
}

static void
print_entries(const char *what, const json_t *a)
{
	const json_t *e;
	size_t i;
	char *t;

	json_array_foreach(a, i, e) {
		t = fa_str_sanitize(fa_json_get_str(e, "target"),
		    strlen(fa_json_get_str(e, "target")));
		printf("%-9s %-8s %-24s %s", what, fa_json_get_str(e,
		    "severity") != NULL ? fa_json_get_str(e, "severity") :
		    fa_json_get_str(e, "was_severity"), fa_json_get_str(e,
		    "id"), t != NULL ? t : "?");
		if (fa_json_get_str(e, "was_status") != NULL &&
		    fa_json_get_str(e, "status") != NULL)
			printf("  (%s %s -> %s %s)", fa_json_get_str(e,
			    "was_status"), fa_json_get_str(e, "was_severity"),
			    fa_json_get_str(e, "status"), fa_json_get_str(e,
			    "severity"));
		else if (fa_json_get_str(e, "status") == NULL)
			printf("  (no longer reported)");
		putchar('\n');
		free(t);
	}
}

int
fa_cmd_diff(int argc, char **argv)
{
	json_t *old = NULL, *new = NULL, *nw, *rs, *ch, *out = NULL;
	const json_t *o, *n;
	enum fa_severity fail_on = FA_SEV_HIGH, sv;
	const char *key;
	size_t unchanged = 0, failing = 0, i;
	int c, json = 0, rc = FA_EXIT_USAGE;
	const json_t *e;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "json") != 0 &&
			    strcmp(optarg, "txt") != 0) {
				fa_diag("-f", "unknown format '%s' (txt, json)",
				    optarg);
				goto usage;
			}
			json = strcmp(optarg, "json") == 0;
			break;
		case 'F':
			if (fa_severity_parse(optarg, &fail_on) != 0) {
				fa_diag("--fail-on", "unknown severity '%s' "
				    "(critical, high, medium, low, info)",
				    optarg);
				goto usage;
			}
			break;
		case 'h':
			printf("usage: %s", fa_usage_diff + 7);
			return FA_EXIT_OK;
		default:
			fa_bad_option("diff", c, argv);
			goto usage;
		}
	}
	if (argc - optind != 2) {
		fa_diag(NULL, "diff takes two reports");
		goto usage;
	}
	if ((old = load(argv[optind])) == NULL ||
	    (new = load(argv[optind + 1])) == NULL)
		goto out;
	rc = FA_EXIT_NORUN;
	nw = json_array();
	rs = json_array();
	ch = json_array();
	out = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}", "schema",
	    "fabaudit-diff/1", "old", argv[optind], "new", argv[optind + 1],
	    "new_failures", nw, "resolved", rs, "changed", ch);
	if (out == NULL)
		goto nomem;
	json_object_foreach(new, key, n) {
		o = json_object_get(old, key);
		if (is_fail(n) && !is_fail(o)) {
			if (json_array_append_new(nw, entry(n, o)) != 0)
				goto nomem;
		} else if (o != NULL && !same(o, n)) {
			if (json_array_append_new(is_fail(o) && !is_fail(n) ?
			    rs : ch, entry(n, o)) != 0)
				goto nomem;
		} else if (o != NULL && is_fail(n)) {
			unchanged++;
		}
	}
	json_object_foreach(old, key, o)
		if (json_object_get(new, key) == NULL && is_fail(o) &&
		    json_array_append_new(rs, entry(NULL, o)) != 0)
			goto nomem;
	json_array_foreach(nw, i, e)
		if (!json_is_true(json_object_get(e, "waived")) &&
		    fa_severity_parse(fa_json_get_str(e, "severity"), &sv) ==
		    0 && sv <= fail_on)
			failing++;
	if (json_object_set_new(out, "unchanged_failures",
	    json_integer((json_int_t)unchanged)) != 0 ||
	    json_object_set_new(out, "failing_at_or_above",
	    json_integer((json_int_t)failing)) != 0 ||
	    json_object_set_new(out, "fail_on",
	    json_string(fa_severity_name(fail_on))) != 0)
		goto nomem;
	if (json) {
		char *s = json_dumps(out, JSON_INDENT(2) | JSON_SORT_KEYS);

		if (s == NULL)
			goto nomem;
		puts(s);
		free(s);
	} else {
		print_entries("new", nw);
		print_entries("resolved", rs);
		print_entries("changed", ch);
		printf("Diff: %zu new failures (%zu at or above %s, not "
		    "waived), %zu resolved, %zu changed, %zu failures "
		    "unchanged.\n", json_array_size(nw), failing,
		    fa_severity_name(fail_on), json_array_size(rs),
		    json_array_size(ch), unchanged);
	}
	rc = failing > 0 ? FA_EXIT_FINDINGS : FA_EXIT_OK;
	goto out;
nomem:
	fa_diag(NULL, "out of memory");
	rc = FA_EXIT_NORUN;
	goto out;
usage:
	fputs(fa_usage_diff, stderr);
	rc = FA_EXIT_USAGE;
out:
	json_decref(old);
	json_decref(new);
	json_decref(out);
	return rc;
}
