/* fabaudit checks: list the catalogue of implemented checks (txt or json). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scanner.h"

const char fa_usage_checks[] =
    "       fabaudit checks [--family ib|eth|host] [--format txt|json]\n";

static const struct option longopts[] = {
	{ "family", required_argument, NULL, 'F' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static json_t *
check_json(const struct fa_check *c)
{
	json_t *refs = json_array();
	const char *const *p;

	for (p = c->refs; refs != NULL && p != NULL && *p != NULL; p++)
		if (json_array_append_new(refs, json_string(*p)) != 0) {
			json_decref(refs);
			return NULL;
		}
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o}",
	    "id", c->id, "family", fa_family_name(c->family),
	    "severity", fa_severity_name(c->severity), "title", c->title,
	    "rationale", c->rationale, "remediation", c->remediation,
	    "msa_clause", c->msa_clause, "references", refs);
}

int
fa_cmd_checks(int argc, char **argv)
{
	const struct fa_check *const *c;
	enum fa_family fam = FA_FAM_MAX;
	json_t *arr = NULL, *o;
	char *s;
	int ch, json = 0;

	optind = 1;
	opterr = 0;	/* we report bad options ourselves */
	while ((ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'F':
			if (fa_family_parse(optarg, &fam) != 0) {
				fa_diag("--family", "unknown family '%s' (ib, "
				    "eth, host)", optarg);
				goto usage;
			}
			break;
		case 'f':
			if (strcmp(optarg, "json") == 0)
				json = 1;
			else if (strcmp(optarg, "txt") == 0)
				json = 0;
			else {
				fa_diag("--format", "unknown format '%s' (txt, "
				    "json)", optarg);
				goto usage;
			}
			break;
		case 'h':
			fa_print_usage(stdout, fa_usage_checks);
			return FA_EXIT_OK;
		default:
			fa_bad_option("checks", ch, argv);
			goto usage;
		}
	}
	if (optind != argc) {
		fa_diag(NULL, "checks takes no operands");
		goto usage;
	}
	if (json && (arr = json_array()) == NULL)
		goto nomem;
	for (c = fa_checks; *c != NULL; c++) {
		if (fam != FA_FAM_MAX && (*c)->family != fam)
			continue;
		if (!json) {
			printf("%-22s %-5s %-9s %s\n", (*c)->id,
			    fa_family_name((*c)->family),
			    fa_severity_name((*c)->severity), (*c)->title);
			continue;
		}
		if ((o = check_json(*c)) == NULL ||
		    json_array_append_new(arr, o) != 0)
			goto nomem;
	}
	if (json) {
		if ((s = json_dumps(arr, JSON_INDENT(2))) == NULL)
			goto nomem;
		puts(s);
		free(s);
		json_decref(arr);
	}
	return FA_EXIT_OK;
nomem:
	json_decref(arr);
	fa_diag(NULL, "out of memory");
	return FA_EXIT_NORUN;
usage:
	fa_print_usage(stderr, fa_usage_checks);
	return FA_EXIT_USAGE;
}
