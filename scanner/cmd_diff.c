/* SPDX-License-Identifier: BSD-2-Clause */
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
#include "../reports/diff.h"
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

/*
 * The results of a report as {"ID\ttarget": result} (a cluster report's
 * as {"ID\tnode\ttarget": finding}, *cluster set); NULL after a
 * diagnostic naming the file and the entry at fault.
 */
static json_t *
load(const char *path, int *cluster)
{
	json_t *root, *map = NULL;
	json_error_t je;
	char *buf = NULL, *why = NULL;
	size_t len;
	int r;

	if (fa_read_file(path, FA_SNAPSHOT_MAX_BYTES, &buf, &len, &why) != 0) {
		fa_diag(path, "%s", why != NULL ? why : "cannot be read");
		free(why);
		return NULL;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (root == NULL) {
		why = fa_json_errmsg(path, &je);
		fa_diag(NULL, "%s", why != NULL ? why : "out of memory");
		free(why);
		return NULL;
	}
	*cluster = fa_json_get_str(json_object_get(root, "evaluation"),
	    "mode") != NULL && strcmp(fa_json_get_str(json_object_get(root,
	    "evaluation"), "mode"), "merge") == 0;
	if ((r = fa_diff_index(root, &map, &why)) != 0)
		fa_diag(path, "%s", why != NULL ? why : fa_strerror(r));
	free(why);
	json_decref(root);
	return map;
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
	json_t *old = NULL, *new = NULL, *out = NULL;
	const json_t *nw, *rs, *ch;
	enum fa_severity fail_on = FA_SEV_HIGH;
	int findings_ok = 0, ocl = 0, ncl = 0;
	size_t unchanged, failing;
	int c, json = 0, rc = FA_EXIT_USAGE;
	static const int once[] = { 'f', 'F', 0 };
	unsigned char seen[FA_OPT_SEEN] = { 0 };

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:h", longopts, NULL)) != -1) {
		if (fa_opt_repeated(c, once, longopts, seen, argv) != 0)
			goto usage;
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
			if (strcmp(optarg, "none") == 0) {
				findings_ok = 1;
				break;
			}
			if (fa_severity_parse(optarg, &fail_on) != 0) {
				fa_diag("--fail-on", "unknown severity '%s' "
				    "(critical, high, medium, low, info, or "
				    "none)", optarg);
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
	if ((old = load(argv[optind], &ocl)) == NULL ||
	    (new = load(argv[optind + 1], &ncl)) == NULL)
		goto out;
	/* A node report against a cluster report matches nothing. */
	if (ocl != ncl) {
		fa_diag(NULL, "%s is a %s report and %s a %s report: compare "
		    "two of a kind", argv[optind], ocl ? "cluster" : "node",
		    argv[optind + 1], ncl ? "cluster" : "node");
		goto usage;
	}
	rc = FA_EXIT_NORUN;
	if ((out = fa_diff_compute(old, new, fail_on)) == NULL ||
	    json_object_set_new(out, "schema",
	    json_string("fabaudit-diff/1")) != 0 ||
	    json_object_set_new(out, "old", json_string(argv[optind])) != 0 ||
	    json_object_set_new(out, "new",
	    json_string(argv[optind + 1])) != 0)
		goto nomem;
	nw = json_object_get(out, "new_failures");
	rs = json_object_get(out, "resolved");
	ch = json_object_get(out, "changed");
	failing = (size_t)json_integer_value(json_object_get(out,
	    "failing_at_or_above"));
	unchanged = (size_t)json_integer_value(json_object_get(out,
	    "unchanged_failures"));
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
	rc = failing > 0 && !findings_ok ? FA_EXIT_FINDINGS : FA_EXIT_OK;
	goto out;
nomem:
	fa_diag(NULL, "out of memory");
	rc = FA_EXIT_NORUN;
	goto out;
usage:
	/* One line on stderr: the diagnostic, not the whole usage. */
	rc = FA_EXIT_USAGE;
out:
	json_decref(old);
	json_decref(new);
	json_decref(out);
	return rc;
}
