/*
 * fabaudit merge: fold the report.json of many nodes into one cluster
 * report of the same schema (reports/merge.c) and write it, its text
 * rendering and any other format asked for.  Every input is read and
 * checked before the output directory is touched: a bad input writes
 * nothing.  An input is a report.json, a directory (its *.json files and
 * the report.json of each directory in it: the sbatch script's
 * nodes/NODE/report.json), or "-": the paths on standard input, one per
 * line.  --expect and --failed name the nodes that should have reported
 * and those whose scan failed; --pubkey checks each report's signature
 * (SHA256SUMS and SHA256SUMS.sig beside it).
 */
#include <dirent.h>
#include <getopt.h>
#include <libgen.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/errors.h"
#include "../core/interrupt.h"
#include "../core/util.h"
#include "../reports/merge.h"
#include "../reports/report.h"
#include "../reports/sign.h"
#include "scanner.h"

const char fa_usage_merge[] =
    "       fabaudit merge [-q] [-f formats] [--fail-on severity]\n"
    "                      [--sign key.pem] [--pubkey pub.pem]\n"
    "                      [--require-signature] [--expect nodelist]\n"
    "                      [--failed file] -o outdir [report.json|dir|- ...]\n";

enum { OPT_FAIL_ON = 256, OPT_SIGN, OPT_PUBKEY, OPT_REQUIRE, OPT_EXPECT,
	OPT_FAILED };

static const struct option longopts[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "format", required_argument, NULL, 'f' },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "output", required_argument, NULL, 'o' },
	{ "sign", required_argument, NULL, OPT_SIGN },
	{ "pubkey", required_argument, NULL, OPT_PUBKEY },
	{ "require-signature", no_argument, NULL, OPT_REQUIRE },
	{ "expect", required_argument, NULL, OPT_EXPECT },
	{ "failed", required_argument, NULL, OPT_FAILED },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Targets listed per finding in report.txt. */
#define TXT_MAX_TARGETS	20
/* --expect and --failed files. */
#define LIST_MAX_BYTES	(16 * 1024 * 1024)

/* --pubkey, and --require-signature. */
static EVP_PKEY *pubkey;
static int require_sig;

static const char *const sig_names[] = { "good", "unsigned", "bad" };

/*
 * The signature state of path, whose bytes hash to sha; *detail a new
 * string (or NULL).  NULL ("not checked") without --pubkey; NULL with
 * *failed set (diagnostic printed) when it could not be checked.
 */
static const char *
signature_of(const char *path, const char *sha, char **detail, int *failed)
{
	char *d, *b, *why = NULL;
	int r;

	*detail = NULL;
	*failed = 0;
	if (pubkey == NULL)
		return NULL;
	d = fa_strdup(path);
	b = fa_strdup(path);
	if (d == NULL || b == NULL) {
		free(d);
		free(b);
		fa_diag(NULL, "out of memory");
		*failed = 1;
		return NULL;
	}
	r = fa_verify_report(dirname(d), basename(b), sha, pubkey, &why);
	free(d);
	free(b);
	if (r < 0) {
		fa_diag(path, "cannot check its signature: %s", why != NULL ?
		    why : fa_strerror(r));
		free(why);
		*failed = 1;
		return NULL;
	}
	*detail = why;
	return sig_names[r];
}

/* Read, hash, check, parse and fold one report; 0 or an exit status. */
static int
add_file(struct fa_merge *m, const char *path)
{
	struct fa_merge_src src = { path, NULL, NULL, NULL };
	json_error_t je;
	json_t *j;
	char *buf = NULL, *why = NULL, *msg, *detail = NULL, sha[65];
	size_t len = 0;
	int r, failed;

	if ((r = fa_read_file(path, FA_SNAPSHOT_MAX_BYTES, &buf, &len,
	    &why)) != 0) {
		fa_diag(path, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		return r == FA_ERR_NOMEM ? FA_EXIT_NORUN : FA_EXIT_USAGE;
	}
	if (fa_sha256_hex(buf, len, sha) != 0) {
		free(buf);
		fa_diag(path, "cannot hash");
		return FA_EXIT_NORUN;
	}
	src.sha256 = sha;
	src.signature = signature_of(path, sha, &detail, &failed);
	src.sig_detail = detail;
	if (failed) {
		free(buf);
		return FA_EXIT_USAGE;
	}
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (require_sig && (src.signature == NULL ||
	    strcmp(src.signature, "good") != 0)) {
		/* Refused whatever it holds: only its name is read. */
		r = fa_merge_reject(m, j, &src, &why);
		json_decref(j);
		free(detail);
		if (r != 0) {
			fa_diag(path, "%s", why != NULL ? why : fa_strerror(r));
			free(why);
			return r == FA_ERR_NOMEM ? FA_EXIT_NORUN :
			    FA_EXIT_USAGE;
		}
		return 0;
	}
	if (j == NULL) {
		free(detail);
		msg = fa_json_errmsg(path, &je);
		fa_diag(NULL, "%s", msg != NULL ? msg : "out of memory");
		free(msg);
		return FA_EXIT_USAGE;
	}
	r = fa_merge_add_src(m, j, &src, &why);
	free(detail);
	json_decref(j);
	if (r != 0) {
		fa_diag(path, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		return r == FA_ERR_NOMEM ? FA_EXIT_NORUN : FA_EXIT_USAGE;
	}
	return 0;
}

/*
 * Every format asked for, then SHA256SUMS and its signature with --sign;
 * 0 or FA_EXIT_NORUN (diagnostic printed).
 */
static int
emit(const struct fa_out_opts *o, const json_t *mj)
{
	const char *names[FA_OUT_MAX_FILES];
	char *buf, *why = NULL;
	size_t n = 0;
	int r;

	if ((r = fa_write_renderings(o, mj, names, &n)) != 0)
		return r;
	if (o->txt) {
		if ((buf = fa_merge_txt(mj, TXT_MAX_TARGETS)) == NULL) {
			fa_diag("report.txt", "out of memory");
			return FA_EXIT_NORUN;
		}
		r = fa_write_atomic(o->outdir, "report.txt", buf, strlen(buf),
		    &why);
		free(buf);
		if (r != 0) {
			fa_diag(NULL, "cannot write %s", why != NULL ? why :
			    "report.txt");
			free(why);
			return FA_EXIT_NORUN;
		}
		names[n++] = "report.txt";
	}
	if (o->sign_key != NULL && fa_sign_outdir(o->outdir, names, n,
	    o->sign_key, &why) != 0) {
		fa_diag("--sign", "%s", why != NULL ? why : "signing failed");
		free(why);
		return FA_EXIT_NORUN;
	}
	return 0;
}

/* merged.warnings on stderr, escaped: they quote the reports. */
static void
print_warnings(const json_t *mj)
{
	const json_t *w;
	char *s;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(mj, "merged"),
	    "warnings"), i, w) {
		s = fa_str_sanitize(json_string_value(w),
		    json_string_length(w));
		fa_diag(NULL, "warning: %s", s != NULL ? s : "?");
		free(s);
	}
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Inputs folded so far, against FA_MERGE_MAX_REPORTS. */
static size_t nfolded;

static int
add_one(struct fa_merge *m, const char *path)
{
	if (++nfolded > FA_MERGE_MAX_REPORTS) {
		fa_diag(path, "more than %d reports", FA_MERGE_MAX_REPORTS);
		return FA_EXIT_USAGE;
	}
	return add_file(m, path);
}

/* dir's *.json files and its directories' report.json, in name order. */
static int
add_dir(struct fa_merge *m, const char *dir)
{
	struct dirent *de;
	struct stat st;
	char **v = NULL, **nv, *p;
	size_t n = 0, i, got = 0, len;
	int rc = 0;
	DIR *d;

	if ((d = opendir(dir)) == NULL) {
		fa_diag(dir, "cannot be listed");
		return FA_EXIT_USAGE;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		len = strlen(de->d_name);
		p = len > 5 && strcmp(de->d_name + len - 5, ".json") == 0 ?
		    fa_strfmt("%s/%s", dir, de->d_name) :
		    fa_strfmt("%s/%s/report.json", dir, de->d_name);
		if (p == NULL ||
		    (nv = realloc(v, (n + 1) * sizeof(*v))) == NULL) {
			free(p);
			rc = FA_EXIT_NORUN;
			break;
		}
		v = nv;
		v[n++] = p;
	}
	closedir(d);
	if (rc == 0 && n > 0)
		qsort(v, n, sizeof(*v), name_cmp);
	for (i = 0; rc == 0 && i < n; i++)
		if (stat(v[i], &st) == 0 && S_ISREG(st.st_mode)) {
			rc = add_one(m, v[i]);
			got++;
		}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	if (rc == 0 && got == 0) {
		fa_diag(dir, "holds no report (*.json, or a directory with "
		    "a report.json)");
		rc = FA_EXIT_USAGE;
	}
	return rc;
}

/* One command-line input: a file, a directory, or "-" (a list). */
static int
add_input(struct fa_merge *m, const char *arg)
{
	struct stat st;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	if (strcmp(arg, "-") == 0) {
		while (rc == 0 && (n = getline(&line, &cap, stdin)) >= 0) {
			while (n > 0 && (line[n - 1] == '\n' ||
			    line[n - 1] == '\r'))
				line[--n] = '\0';
			if (n > 0)
				rc = add_one(m, line);
		}
		free(line);
		return rc;
	}
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return add_dir(m, arg);
	return add_one(m, arg);
}

/*
 * The lines of a --expect or --failed file: each handed to fn without its
 * newline; blank lines and lines starting with '#' skipped.  0 or an exit
 * status (diagnostic printed, naming FILE:LINE).
 */
static int
each_line(struct fa_merge *m, const char *opt, const char *path,
    int (*fn)(struct fa_merge *, char *, char **))
{
	char *buf = NULL, *why = NULL, *p, *nl;
	size_t len = 0, line = 0;
	int r;

	if ((r = fa_read_file(path, LIST_MAX_BYTES, &buf, &len, &why)) != 0) {
		fa_diag(opt, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		return r == FA_ERR_NOMEM ? FA_EXIT_NORUN : FA_EXIT_USAGE;
	}
	if (memchr(buf, '\0', len) != NULL) {
		fa_diag(opt, "%s: holds a NUL byte: not a list of nodes",
		    path);
		free(buf);
		return FA_EXIT_USAGE;
	}
	for (p = buf; r == 0 && p < buf + len; p = nl + 1) {
		line++;
		if ((nl = memchr(p, '\n', (size_t)(buf + len - p))) == NULL)
			nl = buf + len;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		if (*p == '\0' || *p == '#')
			continue;
		if ((r = fn(m, p, &why)) != 0) {
			fa_diag(opt, "%s:%zu: %s", path, line, why != NULL ?
			    why : fa_strerror(r));
			free(why);
			why = NULL;
			r = r == FA_ERR_NOMEM ? FA_EXIT_NORUN : FA_EXIT_USAGE;
		}
	}
	free(buf);
	return r;
}

/* --expect: one node name a line, as `scontrol show hostnames` prints. */
static int
expect_line(struct fa_merge *m, char *l, char **why)
{
	if (l[strcspn(l, " \t")] != '\0')
		return fa_why(why, "one node name a line, without spaces");
	return fa_merge_expect(m, l, why);
}

/* --failed: NODE TAB STATE TAB REASON (failed or timed_out). */
static int
failed_line(struct fa_merge *m, char *l, char **why)
{
	char *st, *reason, *safe;
	int r;

	if ((st = strchr(l, '\t')) == NULL)
		return fa_why(why, "not NODE<TAB>STATE<TAB>REASON");
	*st++ = '\0';
	if ((reason = strchr(st, '\t')) != NULL)
		*reason++ = '\0';
	if ((safe = fa_str_sanitize(reason != NULL ? reason : "",
	    reason != NULL ? strlen(reason) : 0)) == NULL)
		return FA_ERR_NOMEM;
	r = fa_merge_unscanned(m, l, st, safe, why);
	free(safe);
	return r;
}

int
fa_cmd_merge(int argc, char **argv)
{
	struct fa_out_opts out = { .json = 1, .txt = 1, .xml = 1, .html = 1,
	    .fail_on = FA_SEV_HIGH };
	struct fa_merge *m = NULL;
	json_t *mj = NULL;
	char *why = NULL, *sum;
	const char *expect = NULL, *failed = NULL, *pubpath = NULL;
	int c, i, rc = FA_EXIT_USAGE;
	static const int once[] = { 'f', 'o', OPT_FAIL_ON, OPT_SIGN,
	    OPT_PUBKEY, OPT_REQUIRE, OPT_EXPECT, OPT_FAILED, 0 };
	unsigned char seen[FA_OPT_SEEN] = { 0 };

	optind = 1;
	opterr = 0;	/* we report bad options ourselves */
	while ((c = getopt_long(argc, argv, ":qf:o:h", longopts,
	    NULL)) != -1) {
		if (fa_opt_repeated(c, once, longopts, seen, argv) != 0)
			goto usage;
		switch (c) {
		case 'q':
			out.quiet = 1;
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
		case OPT_PUBKEY:
			pubpath = optarg;
			break;
		case OPT_REQUIRE:
			require_sig = 1;
			break;
		case OPT_EXPECT:
			expect = optarg;
			break;
		case OPT_FAILED:
			failed = optarg;
			break;
		case 'h':
			fa_print_usage(stdout, fa_usage_merge);
			return FA_EXIT_OK;
		default:
			fa_bad_option("merge", c, argv);
			goto usage;
		}
	}
	if (out.outdir == NULL) {
		fa_diag(NULL, "merge needs an output directory (-o)");
		goto usage;
	}
	if (argc - optind < 1 && expect == NULL) {
		fa_diag(NULL, "merge takes one or more reports (or --expect)");
		goto usage;
	}
	if (require_sig && pubpath == NULL) {
		fa_diag("--require-signature", "needs --pubkey");
		goto usage;
	}
	if ((rc = fa_preflight_sign_key(out.sign_key)) != 0)
		goto out;
	if (pubpath != NULL && (rc = fa_key_load_public(pubpath, &pubkey,
	    &why)) != 0) {
		fa_diag("--pubkey", "%s", why != NULL ? why : fa_strerror(rc));
		rc = FA_EXIT_USAGE;
		goto out;
	}
	if ((m = fa_merge_new(out.fail_on)) == NULL)
		goto nomem;
	if ((expect != NULL && (rc = each_line(m, "--expect", expect,
	    expect_line)) != 0) ||
	    (failed != NULL && (rc = each_line(m, "--failed", failed,
	    failed_line)) != 0))
		goto out;
	nfolded = 0;
	for (i = optind; i < argc; i++)
		if ((rc = add_input(m, argv[i])) != 0)
			goto out;
	if ((rc = fa_merge_finish(m, time(NULL), &mj, &why)) != 0) {
		fa_diag(NULL, "%s", why != NULL ? why : fa_strerror(rc));
		rc = FA_EXIT_NORUN;
		goto out;
	}
	if ((rc = fa_prepare_outdir(out.outdir)) != 0)
		goto out;
	fa_interrupt_hold();	/* the outputs as a set: see interrupt.h */
	fa_output_begin();	/* a failure leaves the old report */
	rc = emit(&out, mj);
	fa_output_end(rc == 0);
	fa_interrupt_release();
	if (rc != 0)
		goto out;
	if (!out.quiet) {
		print_warnings(mj);
		if ((sum = fa_merge_summary(mj)) == NULL)
			goto nomem;
		printf("%s Report: %s\n", sum, out.outdir);
		free(sum);
		fflush(stdout);
	}
	/* Nodes left out make the cluster not clean, like findings. */
	rc = !out.findings_ok && (json_integer_value(json_object_get(
	    json_object_get(mj, "summary"), "failing_at_or_above")) > 0 ||
	    json_integer_value(json_object_get(json_object_get(mj, "summary"),
	    "nodes_not_scanned")) > 0) ? FA_EXIT_FINDINGS : FA_EXIT_OK;
	goto out;
nomem:
	fa_diag(NULL, "out of memory");
	rc = FA_EXIT_NORUN;
	goto out;
usage:
	/* One line on stderr: the diagnostic, not the whole usage. */
	rc = FA_EXIT_USAGE;
out:
	free(why);
	json_decref(mj);
	fa_merge_free(m);
	EVP_PKEY_free(pubkey);
	pubkey = NULL;
	require_sig = 0;
	return rc;
}
