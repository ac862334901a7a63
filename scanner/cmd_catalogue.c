/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabaudit catalogue build: the host CVE catalogue from advisory files the
 * user downloaded (no network), merged by core/cvebuild.c, written with
 * its build report and, with --sign, a detached signature.
 *
 *   fabaudit catalogue build [-o FILE] [--report FILE] [--overlay FILE]
 *       [--valid-days N] [--sign KEY] KIND:PATH...
 *
 * KIND is osv, cve5, csaf, debian or kev; PATH a file, or a directory
 * whose *.json files are read in name order.  Every input is parsed
 * before anything is written; one that does not parse stops the build
 * with its name, record and JSON path (exit 2) and nothing is written.
 */
#include <dirent.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/cvebuild.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "../core/version.h"
#include "../reports/report.h"
#include "../reports/sign.h"
#include "scanner.h"

const char fa_usage_catalogue[] =
    "       fabaudit catalogue build [-o file] [--report file] "
    "[--overlay file]\n"
    "                     [--valid-days n] [--sign key] kind:path...\n";

#define FEED_MAX_BYTES	(512u * 1024 * 1024)	/* the Debian tracker */
#define MAX_INPUTS	100000
#define OVERLAY_MAX	(8u * 1024 * 1024)

enum { OPT_REPORT = 256, OPT_OVERLAY, OPT_VALID, OPT_SIGN };

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "overlay", required_argument, NULL, OPT_OVERLAY },
	{ "valid-days", required_argument, NULL, OPT_VALID },
	{ "sign", required_argument, NULL, OPT_SIGN },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct inputs {
	struct fa_feed	**v;
	size_t		  n, cap;
};

typedef int (*parse_fn)(const char *, size_t, const char *,
    struct fa_feed **, char **);

static parse_fn
parser_of(enum fa_feed_kind k)
{
	switch (k) {
	case FA_FEED_OSV:
		return fa_feed_parse_osv;
	case FA_FEED_CVE5:
		return fa_feed_parse_cve5;
	case FA_FEED_CSAF:
		return fa_feed_parse_csaf;
	case FA_FEED_DEBIAN:
		return fa_feed_parse_debian;
	case FA_FEED_KEV:
		return fa_feed_parse_kev;
	default:
		return NULL;
	}
}

/* Parse one file of kind k into in; 0, or -1 after a diagnostic. */
static int
load_one(struct inputs *in, enum fa_feed_kind k, const char *path)
{
	struct fa_feed *f = NULL, **v;
	char *buf = NULL, *why = NULL;
	size_t len;
	int r;

	if (in->n >= MAX_INPUTS) {
		fa_diag(path, "more than %d input files", MAX_INPUTS);
		return -1;
	}
	if ((r = fa_read_file(path, FEED_MAX_BYTES, &buf, &len, &why)) != 0) {
		fa_diag(NULL, "%s", why != NULL ? why : "cannot read");
		free(why);
		return -1;
	}
	r = parser_of(k)(buf, len, path, &f, &why);
	free(buf);
	if (r != 0) {
		fa_diag(NULL, "%s", why != NULL ? why : "out of memory");
		free(why);
		return -1;
	}
	if (in->n == in->cap) {
		if ((v = realloc(in->v, (in->cap + 64) * sizeof(*v))) == NULL) {
			fa_feed_free(f);
			fa_diag(NULL, "out of memory");
			return -1;
		}
		in->v = v;
		in->cap += 64;
	}
	in->v[in->n++] = f;
	return 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.json files of dir, in name order; 0 or -1 (diagnostic). */
static int
load_dir(struct inputs *in, enum fa_feed_kind k, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, **nv, *p;
	size_t n = 0, i, l;
	int r = 0;

	if (d == NULL) {
		fa_diag(dir, "cannot open the directory");
		return -1;
	}
	while (r == 0 && (e = readdir(d)) != NULL) {
		l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0 ||
		    e->d_name[0] == '.')
			continue;
		if (n >= MAX_INPUTS || (nv = realloc(names, (n + 1) *
		    sizeof(*nv))) == NULL) {
			fa_diag(dir, "too many files, or out of memory");
			r = -1;
			break;
		}
		names = nv;
		if ((names[n] = fa_strdup(e->d_name)) == NULL) {
			fa_diag(NULL, "out of memory");
			r = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; r == 0 && i < n; i++) {
		if ((p = fa_strfmt("%s/%s", dir, names[i])) == NULL) {
			fa_diag(NULL, "out of memory");
			r = -1;
			break;
		}
		r = load_one(in, k, p);
		free(p);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (r == 0 && n == 0) {
		fa_diag(dir, "no *.json file in the directory");
		r = -1;
	}
	return r;
}

/* "KIND:PATH"; 0 or -1 (diagnostic). */
static int
load_arg(struct inputs *in, const char *arg)
{
	const char *colon = strchr(arg, ':');
	enum fa_feed_kind k;
	char kind[16];
	struct stat st;

	if (colon == NULL || (size_t)(colon - arg) >= sizeof(kind) ||
	    colon[1] == '\0') {
		fa_diag(arg, "not KIND:PATH (kind osv, cve5, csaf, debian or "
		    "kev)");
		return -1;
	}
	memcpy(kind, arg, (size_t)(colon - arg));
	kind[colon - arg] = '\0';
	if (fa_feed_kind_parse(kind, &k) != 0 || parser_of(k) == NULL) {
		fa_diag(arg, "unknown kind '%s' (osv, cve5, csaf, debian, kev)",
		    kind);
		return -1;
	}
	if (stat(colon + 1, &st) != 0) {
		fa_diag(colon + 1, "no such file or directory");
		return -1;
	}
	return S_ISDIR(st.st_mode) ? load_dir(in, k, colon + 1) :
	    load_one(in, k, colon + 1);
}

/* --overlay: a JSON array of entries; 0 or -1 (diagnostic). */
static int
load_overlay(const char *path, json_t **out, char sha[65])
{
	json_error_t e;
	char *buf = NULL, *why = NULL;
	size_t len;
	struct fa_feed *tmp;

	if (fa_read_file(path, OVERLAY_MAX, &buf, &len, &why) != 0) {
		fa_diag(NULL, "%s", why != NULL ? why : "cannot read");
		free(why);
		return -1;
	}
	*out = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e);
	/* The feed helper hashes the bytes, for the report. */
	tmp = fa_feed_new(FA_FEED_OVERLAY, path, buf, len);
	if (tmp != NULL)
		memcpy(sha, tmp->sha256, 65);
	fa_feed_free(tmp);
	free(buf);
	if (*out == NULL || !json_is_array(*out)) {
		if (*out == NULL)
			fa_diag(path, "line %d, column %d: %s", e.line,
			    e.column, e.text);
		else
			fa_diag(path, "not a JSON array of entries");
		json_decref(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* The directory and base name of path, for fa_write_atomic. */
static int
split_path(const char *path, char **dir, char **base)
{
	char *a = fa_strdup(path), *b = fa_strdup(path);

	*dir = *base = NULL;
	if (a == NULL || b == NULL) {
		free(a);
		free(b);
		return -1;
	}
	*dir = fa_strdup(dirname(a));
	*base = fa_strdup(basename(b));
	free(a);
	free(b);
	return *dir != NULL && *base != NULL ? 0 : -1;
}

static int
write_json(const char *path, const json_t *j, char **why)
{
	char *dir, *base;
	int r;

	if (split_path(path, &dir, &base) != 0)
		return FA_ERR_NOMEM;
	r = fa_write_atomic_json(dir, base, j, JSON_INDENT(2) |
	    JSON_PRESERVE_ORDER, NULL, why);
	free(dir);
	free(base);
	return r;
}

/* path.sig: the detached signature of path's bytes with key. */
static int
write_sig(const char *path, const char *keypath, char **why)
{
	EVP_PKEY *k = NULL;
	unsigned char *sig = NULL;
	char *buf = NULL, *sigpath, *dir, *base;
	size_t len, sl;
	int r;

	if ((r = fa_key_load_private(keypath, &k, why)) != 0)
		return r;
	if ((r = fa_read_file(path, FA_CVEDB_MAX_BYTES, &buf, &len, why)) ==
	    0)
		r = fa_sign_buf(k, buf, len, &sig, &sl, why);
	EVP_PKEY_free(k);
	free(buf);
	if (r != 0)
		return r;
	if ((sigpath = fa_strfmt("%s.sig", path)) == NULL ||
	    split_path(sigpath, &dir, &base) != 0) {
		free(sigpath);
		free(sig);
		return FA_ERR_NOMEM;
	}
	r = fa_write_atomic_mode(dir, base, sig, sl, 0644, why);
	free(sigpath);
	free(dir);
	free(base);
	free(sig);
	return r;
}

static int
build(int argc, char **argv)
{
	const char *out = "host-cves.json", *report = NULL, *overlay = NULL;
	const char *key = NULL;
	struct fa_cvebuild_in bi;
	struct inputs in = { NULL, 0, 0 };
	json_t *ov = NULL, *cat = NULL, *rep = NULL;
	char sha[65] = "", *why = NULL, *end, *rp = NULL;
	unsigned long days = FA_CVEBUILD_VALID_DAYS;
	size_t i;
	int c, r = FA_EXIT_USAGE;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case OPT_REPORT:
			report = optarg;
			break;
		case OPT_OVERLAY:
			overlay = optarg;
			break;
		case OPT_SIGN:
			key = optarg;
			break;
		case OPT_VALID:
			days = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || days < 1 ||
			    days > 3650) {
				fa_diag("--valid-days", "'%s' is not a number "
				    "of days (allowed 1-3650)", optarg);
				return FA_EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(fa_usage_catalogue, stdout);
			return FA_EXIT_OK;
		default:
			return FA_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fa_diag(NULL, "catalogue build: no input given (KIND:PATH)");
		return FA_EXIT_USAGE;
	}
	for (i = (size_t)optind; i < (size_t)argc; i++)
		if (load_arg(&in, argv[i]) != 0)
			goto done;
	if (overlay != NULL && load_overlay(overlay, &ov, sha) != 0)
		goto done;
	memset(&bi, 0, sizeof(bi));
	bi.feeds = in.v;
	bi.nfeeds = in.n;
	bi.overlay = ov;
	bi.overlay_name = overlay;
	bi.overlay_sha256 = overlay != NULL ? sha : NULL;
	bi.valid_days = (unsigned)days;
	bi.built_by = "fabaudit " FA_VERSION " catalogue build";
	if ((r = fa_cvebuild(&bi, &cat, &rep, &why)) != 0) {
		fa_diag(NULL, "%s", why != NULL ? why : "out of memory");
		r = FA_EXIT_USAGE;
		goto done;
	}
	if (report == NULL && (rp = fa_strfmt("%s.report.json", out)) == NULL)
		goto nomem;
	r = FA_EXIT_NORUN;
	if (write_json(out, cat, &why) != 0 || write_json(report != NULL ?
	    report : rp, rep, &why) != 0 || (key != NULL &&
	    write_sig(out, key, &why) != 0)) {
		fa_diag(NULL, "%s", why != NULL ? why : "cannot write");
		goto done;
	}
	fprintf(stderr, "fabaudit: catalogue %s: %zu entries, dated %s, "
	    "valid until %s; %zu conflicts and %zu left out (see %s)\n", out,
	    json_array_size(json_object_get(cat, "entries")),
	    json_string_value(json_object_get(cat, "date")),
	    json_string_value(json_object_get(cat, "valid_until")),
	    json_array_size(json_object_get(rep, "conflicts")),
	    json_array_size(json_object_get(rep, "left_out")),
	    report != NULL ? report : rp);
	r = FA_EXIT_OK;
	goto done;
nomem:
	fa_diag(NULL, "out of memory");
	r = FA_EXIT_NORUN;
done:
	for (i = 0; i < in.n; i++)
		fa_feed_free(in.v[i]);
	free(in.v);
	json_decref(ov);
	json_decref(cat);
	json_decref(rep);
	free(why);
	free(rp);
	return r;
}

int
fa_cmd_catalogue(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "build") == 0)
		return build(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		fputs(fa_usage_catalogue, stdout);
		return FA_EXIT_OK;
	}
	fa_diag(NULL, "catalogue: no subcommand (build; see fabaudit -h)");
	return FA_EXIT_USAGE;
}
