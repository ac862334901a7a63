/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabaudit verify OUTDIR: check an output directory against its
 * SHA256SUMS and, with --pubkey, SHA256SUMS against SHA256SUMS.sig.
 * fabaudit verify --chain HISTDIR: check that each run of a history
 * directory names the SHA-256 of its predecessor's report.json.
 * fabaudit verify CLUSTERDIR (a directory with cluster/ and nodes/, as the
 * sbatch script writes it, and no SHA256SUMS of its own): check cluster/,
 * each nodes/NODE/ that has a SHA256SUMS, and that the node reports under
 * nodes/ are exactly those the cluster report names by SHA-256.
 * Exit 0: all good; 1: a problem (one line each); 2: usage, or input that
 * cannot be checked.  Files SHA256SUMS does not list are named, but are
 * not a failure: the signature certifies only what it lists.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "../core/snapshot.h"
#include "../reports/sign.h"
#include "scanner.h"

const char fa_usage_verify[] =
    "       fabaudit verify [-p | --pubkey pub.pem] outdir\n"
    "       fabaudit verify --chain [-p | --pubkey pub.pem] historydir\n"
    "       fabaudit verify [-p | --pubkey pub.pem] clusterdir\n";

enum { OPT_CHAIN = 256 };

static const struct option longopts[] = {
	{ "pubkey", required_argument, NULL, 'p' },
	{ "chain", no_argument, NULL, OPT_CHAIN },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Print v's problems and uncovered files; the exit status so far. */
static int
print_lines(const struct fa_verify *v)
{
	size_t i;

	for (i = 0; i < v->problems.n; i++)
		printf("FAILED: %s\n", v->problems.v[i]);
	for (i = 0; i < v->uncovered.n; i++)
		printf("not covered: %s (not listed in %s, so not "
		    "certified)\n", v->uncovered.v[i], FA_SUMS_NAME);
	return v->problems.n > 0 ? FA_EXIT_FINDINGS : FA_EXIT_OK;
}

static void
print_failed(const struct fa_verify *v, const char *what)
{
	printf("verification FAILED: %zu problem%s in %s\n", v->problems.n,
	    v->problems.n == 1 ? "" : "s", what);
}

static int
verify_dir(const char *dir, EVP_PKEY *pub, const char *signer)
{
	struct fa_verify v;
	char *why = NULL;
	int r;

	memset(&v, 0, sizeof(v));
	if ((r = fa_verify_outdir(dir, pub, &v, &why)) != 0) {
		print_lines(&v);
		fa_diag(NULL, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		fa_verify_free(&v);
		return r == FA_ERR_NOMEM ? FA_EXIT_NORUN : FA_EXIT_USAGE;
	}
	if ((r = print_lines(&v)) != 0)
		print_failed(&v, dir);
	else if (pub != NULL)
		printf("verified %zu file%s signed by %s\n", v.nfiles,
		    v.nfiles == 1 ? "" : "s", signer);
	else
		printf("%zu file%s match %s; the signature was NOT checked "
		    "(no --pubkey): this does not show who wrote them\n",
		    v.nfiles, v.nfiles == 1 ? "" : "s", FA_SUMS_NAME);
	fa_verify_free(&v);
	return r;
}

static int
verify_chain(const char *dir, EVP_PKEY *pub, const char *signer)
{
	struct fa_verify v;
	char *why = NULL;
	int r;

	memset(&v, 0, sizeof(v));
	if ((r = fa_verify_chain(dir, pub, &v, &why)) != 0) {
		print_lines(&v);
		fa_diag(NULL, "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		fa_verify_free(&v);
		return r == FA_ERR_NOMEM ? FA_EXIT_NORUN : FA_EXIT_USAGE;
	}
	printf("chain starts at %s%s\n", v.first, v.pred_pruned ?
	    " (predecessor not kept)" : "");
	if ((r = print_lines(&v)) != 0) {
		print_failed(&v, dir);
	} else {
		printf("chain verified: %zu run%s linked, %s to %s; head "
		    "sha256 %s (%s/report.json)\n", v.nruns, v.nruns == 1 ?
		    "" : "s", v.first, v.last, v.head, v.last);
		if (pub != NULL)
			printf("verified %zu file%s in %zu run%s signed by "
			    "%s\n", v.nfiles, v.nfiles == 1 ? "" : "s",
			    v.nruns, v.nruns == 1 ? "" : "s", signer);
		else
			printf("signatures NOT checked (no --pubkey)\n");
	}
	fa_verify_free(&v);
	return r;
}

/* "FAILED: WHERE: WHAT", both escaped; the count (1). */
static size_t
cluster_problem(const char *where, const char *what)
{
	char *a = fa_str_sanitize(where, strlen(where));
	char *b = fa_str_sanitize(what, strlen(what));

	printf("FAILED: %s: %s\n", a != NULL ? a : "?", b != NULL ? b : "?");
	free(a);
	free(b);
	return 1;
}

/*
 * One nodes/NAME directory: its report.json must be one the cluster
 * report merged (by SHA-256: marked in merged by setting "seen"), and,
 * when it has a SHA256SUMS (or pub is given), verify against it.
 * Returns the number of problems, or (size_t)-1 on a hard error.
 */
static size_t
cluster_node(const char *nodes, const char *name, EVP_PKEY *pub,
    json_t *shas)
{
	struct fa_verify v;
	struct stat st;
	char *d, *rp, *buf = NULL, *why = NULL, hex[65];
	size_t len = 0, bad = 0, i;
	json_t *e;
	int r;

	if ((d = fa_strfmt("%s/%s", nodes, name)) == NULL ||
	    (rp = fa_strfmt("%s/report.json", d)) == NULL) {
		free(d);
		return (size_t)-1;
	}
	if (stat(rp, &st) != 0) {
		free(rp);
		free(d);
		return 0;	/* a log, a status file: not a node report */
	}
	if (fa_read_file(rp, FA_SNAPSHOT_MAX_BYTES, &buf, &len, &why) != 0 ||
	    fa_sha256_hex(buf, len, hex) != 0)
		bad += cluster_problem(rp, why != NULL ? why :
		    "cannot be read");
	else if ((e = json_object_get(shas, hex)) == NULL) {
		free(why);
		why = fa_strfmt("not a report the cluster report merged "
		    "(sha256 %s)", hex);
		bad += cluster_problem(rp, why != NULL ? why : "?");
	} else
		json_object_set_new(e, "seen", json_true());
	free(buf);
	free(why);
	why = NULL;
	memset(&v, 0, sizeof(v));
	r = fa_verify_outdir(d, pub, &v, &why);
	if (r == FA_ERR_NOTFOUND) {	/* no SHA256SUMS */
		if (pub != NULL)
			bad += cluster_problem(d, "not signed (no "
			    FA_SUMS_NAME ")");
	} else if (r != 0)
		bad += cluster_problem(d, why != NULL ? why : "?");
	for (i = 0; r == 0 && i < v.problems.n; i++)
		bad += cluster_problem(d, v.problems.v[i]);
	fa_verify_free(&v);
	free(why);
	free(rp);
	free(d);
	return bad;
}

static int
verify_cluster(const char *dir, EVP_PKEY *pub, const char *signer)
{
	char *cl, *nodes, *rp, *buf = NULL, *why = NULL;
	const char *k;
	json_t *rep, *n, *shas, *e;
	struct dirent *de;
	size_t len = 0, bad = 0, b, i;
	int r;
	DIR *dd;

	cl = fa_strfmt("%s/cluster", dir);
	nodes = fa_strfmt("%s/nodes", dir);
	rp = fa_strfmt("%s/cluster/report.json", dir);
	shas = json_object();
	if (cl == NULL || nodes == NULL || rp == NULL || shas == NULL) {
		r = FA_EXIT_NORUN;
		goto out;
	}
	printf("cluster report %s:\n", cl);
	if ((r = verify_dir(cl, pub, signer)) >= FA_EXIT_USAGE)
		goto out;
	if (fa_read_file(rp, FA_SNAPSHOT_MAX_BYTES, &buf, &len, &why) != 0 ||
	    (rep = json_loadb(buf, len, 0, NULL)) == NULL) {
		fa_diag(rp, "%s", why != NULL ? why : "not JSON");
		r = FA_EXIT_USAGE;
		goto out;
	}
	/* The node reports it merged (or refused), by SHA-256. */
	json_array_foreach(json_object_get(json_object_get(rep, "merged"),
	    "nodes"), i, n)
		if (json_is_string(json_object_get(n, "sha256")) &&
		    json_is_string(json_object_get(n, "node")))
			json_object_set(shas, json_string_value(
			    json_object_get(n, "sha256")), n);
	if ((dd = opendir(nodes)) == NULL) {
		fa_diag(nodes, "cannot be listed");
		json_decref(rep);
		r = FA_EXIT_USAGE;
		goto out;
	}
	printf("node reports %s:\n", nodes);
	while ((de = readdir(dd)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((b = cluster_node(nodes, de->d_name, pub, shas)) ==
		    (size_t)-1) {
			closedir(dd);
			json_decref(rep);
			r = FA_EXIT_NORUN;
			goto out;
		}
		bad += b;
	}
	closedir(dd);
	json_object_foreach(shas, k, e) {
		if (json_is_true(json_object_get(e, "seen")))
			continue;
		free(why);
		why = fa_strfmt("its report (sha256 %s) is not under nodes/",
		    k);
		bad += cluster_problem(json_string_value(json_object_get(e,
		    "node")), why != NULL ? why : "?");
	}
	json_decref(rep);
	if (bad > 0) {
		printf("verification FAILED: %zu problem%s in the node "
		    "reports\n", bad, bad == 1 ? "" : "s");
		r = FA_EXIT_FINDINGS;
	} else
		printf("the %zu node report%s under nodes/ are those the "
		    "cluster report merged%s\n", json_object_size(shas),
		    json_object_size(shas) == 1 ? "" : "s", pub != NULL ?
		    ", each signed by that key" : "; their signatures were "
		    "NOT checked (no --pubkey)");
out:
	free(buf);
	free(why);
	free(cl);
	free(nodes);
	free(rp);
	json_decref(shas);
	return r;
}

/* A cluster directory: cluster/SHA256SUMS and no SHA256SUMS of its own. */
static int
is_cluster_dir(const char *dir)
{
	struct stat st;
	char *a = fa_strfmt("%s/%s", dir, FA_SUMS_NAME);
	char *b = fa_strfmt("%s/cluster/%s", dir, FA_SUMS_NAME);
	int r = a != NULL && b != NULL && stat(a, &st) != 0 &&
	    stat(b, &st) == 0;

	free(a);
	free(b);
	return r;
}

int
fa_cmd_verify(int argc, char **argv)
{
	EVP_PKEY *pub = NULL;
	const char *pubpath = NULL;
	char *why = NULL, *signer = NULL;
	int c, chain = 0, r;
	static const int once[] = { 'p', OPT_CHAIN, 0 };
	unsigned char seen[FA_OPT_SEEN] = { 0 };

	optind = 1;
	opterr = 0;	/* we report bad options ourselves */
	while ((c = getopt_long(argc, argv, ":p:h", longopts, NULL)) != -1) {
		if (fa_opt_repeated(c, once, longopts, seen, argv) != 0)
			goto usage;
		switch (c) {
		case 'p':
			pubpath = optarg;
			break;
		case OPT_CHAIN:
			chain = 1;
			break;
		case 'h':
			fa_print_usage(stdout, fa_usage_verify);
			return FA_EXIT_OK;
		default:
			fa_bad_option("verify", c, argv);
			goto usage;
		}
	}
	if (argc - optind != 1) {
		fa_diag("verify", "takes exactly one directory");
		goto usage;
	}
	if (pubpath != NULL) {
		if ((r = fa_key_load_public(pubpath, &pub, &why)) != 0) {
			fa_diag("--pubkey", "%s", why != NULL ? why :
			    fa_strerror(r));
			free(why);
			return FA_EXIT_USAGE;
		}
		if ((signer = fa_key_describe(pub)) == NULL) {
			fa_diag(NULL, "out of memory");
			EVP_PKEY_free(pub);
			return FA_EXIT_NORUN;
		}
	}
	r = chain ? verify_chain(argv[optind], pub, signer) :
	    is_cluster_dir(argv[optind]) ? verify_cluster(argv[optind], pub,
	    signer) : verify_dir(argv[optind], pub, signer);
	fflush(stdout);
	free(signer);
	EVP_PKEY_free(pub);
	return r;
usage:
	/* One line on stderr: the diagnostic, not the whole usage. */
	return FA_EXIT_USAGE;
}
