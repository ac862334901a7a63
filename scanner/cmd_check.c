/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabaudit check SNAPSHOT.json: re-evaluate a saved snapshot offline, with
 * the policy embedded in it or a new one (-c).  Sends nothing.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/errors.h"
#include "../core/interrupt.h"
#include "../core/util.h"
#include "../reports/report.h"
#include "scanner.h"

const char fa_usage_check[] =
    "       fabaudit check [-q] [-c policy] [-f formats] [--fail-on severity]\n"
    "                      [--baseline report.json] [-o outdir]\n"
    "                      [--sign key.pem] snapshot.json\n";

enum { OPT_FAIL_ON = 256, OPT_SIGN, OPT_BASELINE };

static const struct option longopts[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "config", required_argument, NULL, 'c' },
	{ "format", required_argument, NULL, 'f' },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "sign", required_argument, NULL, OPT_SIGN },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Read and parse a snapshot; the SHA-256 of its bytes goes to sha. */
static int
load_snapshot(const char *path, struct fa_snapshot **out, char sha[65])
{
	json_error_t jerr;
	json_t *j;
	char *buf = NULL, *why = NULL;
	size_t len = 0;
	int r;

	r = fa_read_file(path, FA_SNAPSHOT_MAX_BYTES, &buf, &len, &why);
	if (r != 0) {
		fa_diag(path, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		return FA_EXIT_USAGE;
	}
	if (fa_sha256_hex(buf, len, sha) != 0) {
		free(buf);
		fa_diag(path, "cannot hash the snapshot");
		return FA_EXIT_NORUN;
	}
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	free(buf);
	if (j == NULL) {
		char *msg = fa_json_errmsg(path, &jerr);

		fa_diag(NULL, "%s", msg != NULL ? msg : "out of memory");
		free(msg);
		return FA_EXIT_USAGE;
	}
	r = fa_snapshot_from_json(j, out, &why);
	json_decref(j);
	if (r != 0) {
		fa_diag(path, "not a fabaudit snapshot: %s", why != NULL ? why :
		    fa_strerror(r));
		free(why);
		return FA_EXIT_USAGE;
	}
	return 0;
}

/* The scan's start time from the snapshot, or now if absent/garbled. */
static time_t
scan_time(const struct fa_snapshot *snap)
{
	const char *s = json_string_value(json_object_get(json_object_get(
	    snap->meta, "scan"), "started"));
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	if (s == NULL || (end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm)) ==
	    NULL || *end != '\0')
		return time(NULL);
	return timegm(&tm);
}

int
fa_cmd_check(int argc, char **argv)
{
	struct fa_out_opts out = { .json = 1, .txt = 1, .xml = 1, .html = 1,
	    .fail_on = FA_SEV_HIGH };
	struct fa_policy *policy = NULL;
	struct fa_snapshot *snap = NULL;
	const char *policy_path = NULL, *path;
	char sha[65];
	int c, rc = FA_EXIT_USAGE;
	static const int once[] = { 'c', 'f', 'o', OPT_FAIL_ON, OPT_SIGN,
	    OPT_BASELINE, 0 };
	unsigned char seen[FA_OPT_SEEN] = { 0 };

	optind = 1;
	opterr = 0;	/* we report bad options ourselves */
	while ((c = getopt_long(argc, argv, ":qc:f:o:h", longopts,
	    NULL)) != -1) {
		if (fa_opt_repeated(c, once, longopts, seen, argv) != 0)
			goto usage;
		switch (c) {
		case 'q':
			out.quiet = 1;
			break;
		case 'c':
			policy_path = optarg;
			break;
		case 'f':
			if (fa_parse_formats(optarg, &out) != 0)
				goto usage;
			break;
		case OPT_FAIL_ON:
			if (fa_parse_fail_on(optarg, &out) != 0)
				goto usage;
			break;
		case 'o':
			out.outdir = optarg;
			break;
		case OPT_SIGN:
			out.sign_key = optarg;
			break;
		case OPT_BASELINE:
			if ((rc = fa_load_baseline(optarg, &out)) != 0)
				goto out;
			break;
		case 'h':
			fa_print_usage(stdout, fa_usage_check);
			return FA_EXIT_OK;
		default:
			fa_bad_option("check", c, argv);
			goto usage;
		}
	}
	if (argc - optind != 1) {
		fa_diag(NULL, "check takes exactly one snapshot file");
		goto usage;
	}
	path = argv[optind];
	if ((rc = load_snapshot(path, &snap, sha)) != 0)
		goto out;
	if (policy_path != NULL)
		rc = fa_load_policy(policy_path, &policy);
	else if (snap->policy_name != NULL)
		rc = fa_load_policy_text(snap->policy_name, snap->policy_text,
		    scan_time(snap), &policy);
	else if ((policy = fa_policy_new_empty()) == NULL)
		rc = FA_EXIT_NORUN;
	if (rc != 0)
		goto out;
	if (out.sign_key != NULL && out.outdir == NULL) {
		fa_diag("--sign", "needs an output directory (-o)");
		goto usage;
	}
	if ((rc = fa_preflight_sign_key(out.sign_key)) != 0 ||
	    (out.outdir != NULL && (rc = fa_prepare_outdir(out.outdir)) != 0))
		goto out;
	fa_interrupt_hold();	/* the outputs as a set: see interrupt.h */
	out.last = 1;
	rc = fa_evaluate_and_emit(snap, policy, &out, "offline", path, sha,
	    NULL);
	fa_interrupt_release();
	if (!FA_FREE_BEFORE_EXIT)
		snap = NULL;	/* left to exit(2), with the results */
	goto out;
usage:
	/* One line on stderr: the diagnostic, not the whole usage. */
	rc = FA_EXIT_USAGE;
out:
	json_decref(out.baseline);
	fa_snapshot_free(snap);
	fa_policy_free(policy);
	return rc;
}
