/* SPDX-License-Identifier: BSD-2-Clause */
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
#include <unistd.h>

#include "../core/errors.h"
#include "../core/interrupt.h"
#include "../core/util.h"
#include "../reports/merge.h"
#include "../reports/report.h"
#include "../reports/sign.h"
#include "merge_load.h"
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
 * The signature state of it->path (whose bytes hash to it->sha256) into
 * it->signature and it->sig_detail; without --pubkey, nothing.  0, or -1
 * with it->err when it could not be checked.
 */
static int
signature_of(struct fa_mload_item *it)
{
	char *d, *b, *why = NULL;
	int r;

	if (pubkey == NULL)
		return 0;
	d = fa_strdup(it->path);
	b = fa_strdup(it->path);
	if (d == NULL || b == NULL) {
		free(d);
		free(b);
		it->err = fa_strdup("out of memory");
		it->exit = FA_EXIT_NORUN;
		return -1;
	}
	r = fa_verify_report(dirname(d), basename(b), it->sha256, pubkey,
	    &why);
	free(d);
	free(b);
	if (r < 0) {
		it->err = fa_strfmt("%s: cannot check its signature: %s",
		    it->path, why != NULL ? why : fa_strerror(r));
		it->exit = FA_EXIT_USAGE;
		free(why);
		return -1;
	}
	it->signature = sig_names[r];
	it->sig_detail = why;
	return 0;
}

/*
 * A worker's job (scanner/merge_load.c): read, hash, check the signature
 * of and parse one report.  Prints nothing: what went wrong is in it->err
 * and it->exit, for the caller to say in input order.
 */
static void
load_item(struct fa_mload_item *it, void *arg)
{
	json_error_t je;
	char *buf = NULL, *why = NULL;
	size_t len = 0;
	int r;

	(void)arg;
	if ((r = fa_read_file(it->path, FA_SNAPSHOT_MAX_BYTES, &buf, &len,
	    &why)) != 0) {
		it->err = fa_strfmt("%s: %s", it->path, why != NULL ? why :
		    fa_strerror(r));
		it->exit = r == FA_ERR_NOMEM ? FA_EXIT_NORUN : FA_EXIT_USAGE;
		free(why);
		return;
	}
	if (fa_sha256_hex(buf, len, it->sha256) != 0) {
		free(buf);
		it->err = fa_strfmt("%s: cannot hash", it->path);
		it->exit = FA_EXIT_NORUN;
		return;
	}
	if (signature_of(it) != 0) {
		free(buf);
		return;
	}
	it->json = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (it->json == NULL) {
		it->err = fa_json_errmsg(it->path, &je);
		it->exit = FA_EXIT_USAGE;
	}
}

/* Fold one loaded report (or refuse it); 0 or an exit status. */
static int
fold_item(struct fa_merge *m, struct fa_mload_item *it)
{
	struct fa_merge_src src = { it->path, it->sha256, it->signature,
	    it->sig_detail };
	int refused = require_sig && (it->signature == NULL ||
	    strcmp(it->signature, "good") != 0);
	char *why = NULL;
	int r;

	/* Unreadable or not JSON: an error, unless its signature (checked
	 * on the bytes) refuses it anyway. */
	if (it->json == NULL && (!refused || it->signature == NULL)) {
		fa_diag(NULL, "%s", it->err != NULL ? it->err :
		    "out of memory");
		return it->exit != 0 ? it->exit : FA_EXIT_NORUN;
	}
	r = refused ? fa_merge_reject(m, it->json, &src, &why) :
	    fa_merge_add_src(m, it->json, &src, &why);
	if (r != 0) {
		fa_diag(it->path, "%s", why != NULL ? why : fa_strerror(r));
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
		r = fa_write_out(o->set, "report.txt", buf, strlen(buf));
		free(buf);
		if (r != 0)
			return r;
		names[n++] = "report.txt";
	}
	if (o->sign_key != NULL && fa_sign_outset(o->set, names, n,
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

/* The inputs, as paths, in the order they are folded. */
struct inputs {
	char	**v;
	size_t	  n, cap;
};

/* Take path (a new string); 0 or an exit status. */
static int
add_path(struct inputs *in, char *path)
{
	if (path == NULL) {
		fa_diag(NULL, "out of memory");
		return FA_EXIT_NORUN;
	}
	if (in->n >= FA_MERGE_MAX_REPORTS) {
		fa_diag(path, "more than %d reports", FA_MERGE_MAX_REPORTS);
		free(path);
		return FA_EXIT_USAGE;
	}
	if (fa_grow(&in->v, &in->cap, in->n + 1, sizeof(*in->v)) != 0) {
		free(path);
		fa_diag(NULL, "out of memory");
		return FA_EXIT_NORUN;
	}
	in->v[in->n++] = path;
	return 0;
}

/* dir's *.json files and its directories' report.json, in name order. */
static int
add_dir(struct inputs *in, const char *dir)
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
	for (i = 0; i < n; i++)
		if (rc == 0 && stat(v[i], &st) == 0 && S_ISREG(st.st_mode)) {
			rc = add_path(in, v[i]);
			got++;
		} else
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
add_input(struct inputs *in, const char *arg)
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
				rc = add_path(in, fa_strdup(line));
		}
		free(line);
		return rc;
	}
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return add_dir(in, arg);
	return add_path(in, fa_strdup(arg));
}

/*
 * "merging: N of M reports", rewritten in place on a terminal (carriage
 * return, then erase the line: ECMA-48 EL); done erases it.
 */
static void
progress(size_t n, size_t total, int done)
{
	if (done)
		fputs("\r\033[K", stderr);
	else
		fprintf(stderr, "\rmerging: %zu of %zu reports\033[K", n,
		    total);
	fflush(stderr);
}

/* Load and fold every input, in order; 0 or an exit status. */
static int
fold_all(struct fa_merge *m, const struct inputs *in, int show)
{
	struct fa_mload *l;
	struct fa_mload_item *it;
	struct timespec t0, t;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t k = 0;
	int r, rc = 0;

	if (in->n == 0)
		return 0;
	/* One reader per CPU: the fold on this thread is the lighter part. */
	if ((r = fa_mload_start(&l, in->v, in->n, cpus > 0 ? (unsigned)cpus :
	    1, load_item, NULL)) != 0) {
		fa_diag(NULL, "cannot start the readers: %s", fa_strerror(r));
		return FA_EXIT_NORUN;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (rc == 0 && (r = fa_mload_next(l, &it)) == 0) {
		rc = fold_item(m, it);
		fa_mload_done(l, it);
		k++;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (show && (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec -
		    t0.tv_nsec) / 1000000 >= 200) {
			progress(k, in->n, 0);
			t0 = t;
		}
	}
	if (rc == 0 && r < 0) {
		fa_diag(NULL, "out of memory");
		rc = FA_EXIT_NORUN;
	}
	fa_mload_stop(l);
	if (show)
		progress(k, in->n, 1);
	return rc;
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
	char *st, *reason;

	if ((st = strchr(l, '\t')) == NULL)
		return fa_why(why, "not NODE<TAB>STATE<TAB>REASON");
	*st++ = '\0';
	if ((reason = strchr(st, '\t')) != NULL)
		*reason++ = '\0';
	return fa_merge_unscanned(m, l, st, reason, why);
}

int
fa_cmd_merge(int argc, char **argv)
{
	struct fa_out_opts out = { .json = 1, .txt = 1, .xml = 1, .html = 1,
	    .fail_on = FA_SEV_HIGH };
	struct fa_merge *m = NULL;
	struct inputs in = { NULL, 0, 0 };
	json_t *mj = NULL;
	char *why = NULL, *sum;
	const char *expect = NULL, *failed = NULL, *pubpath = NULL;
	char *ow = NULL;
	int c, i, r, rc = FA_EXIT_USAGE;
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
	for (i = optind; i < argc; i++)
		if ((rc = add_input(&in, argv[i])) != 0)
			goto out;
	if ((rc = fold_all(m, &in, !out.quiet && isatty(STDERR_FILENO))) !=
	    0)
		goto out;
	if ((rc = fa_merge_finish(m, time(NULL), &mj, &why)) != 0) {
		fa_diag(NULL, "%s", why != NULL ? why : fa_strerror(rc));
		rc = FA_EXIT_NORUN;
		goto out;
	}
	if ((rc = fa_prepare_outdir(out.outdir)) != 0)
		goto out;
	fa_interrupt_hold();	/* the outputs as a set: see interrupt.h */
	if ((r = fa_outset_open(out.outdir, FA_OUTSET_RUN, &out.set, NULL,
	    &ow)) != 0) {
		fa_diag(NULL, "%s", ow != NULL ? ow : fa_strerror(r));
		rc = FA_EXIT_NORUN;
	} else if ((rc = emit(&out, mj)) == 0 &&
	    (r = fa_outset_close(out.set, 1, &ow)) != 0) {
		fa_diag(NULL, "%s", ow != NULL ? ow : fa_strerror(r));
		rc = FA_EXIT_NORUN;
	} else if (rc != 0)
		(void)fa_outset_close(out.set, 0, NULL);  /* the old report */
	out.set = NULL;
	free(ow);
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
	while (in.n > 0)
		free(in.v[--in.n]);
	free(in.v);
	return rc;
}
