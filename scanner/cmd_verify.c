/*
 * fabaudit verify OUTDIR: check an output directory against its
 * SHA256SUMS and, with --pubkey, SHA256SUMS against SHA256SUMS.sig.
 * fabaudit verify --chain HISTDIR: check that each run of a history
 * directory names the SHA-256 of its predecessor's report.json.
 * Exit 0: all good; 1: a problem (one line each); 2: usage, or input that
 * cannot be checked.  Files SHA256SUMS does not list are named, but are
 * not a failure: the signature certifies only what it lists.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "../reports/sign.h"
#include "scanner.h"

const char fa_usage_verify[] =
    "       fabaudit verify [-p | --pubkey pub.pem] outdir\n"
    "       fabaudit verify --chain [-p | --pubkey pub.pem] historydir\n";

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
	    verify_dir(argv[optind], pub, signer);
	fflush(stdout);
	free(signer);
	EVP_PKEY_free(pub);
	return r;
usage:
	/* One line on stderr: the diagnostic, not the whole usage. */
	return FA_EXIT_USAGE;
}
