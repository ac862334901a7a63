/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Checks of inputs made before a command writes anything, so that a bad
 * one is a usage error (exit 2) with no report rather than a failure
 * after the report was written.
 */
#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "../fabric/eth_capture.h"
#include "../fabric/eth_pcap_read.h"
#include "../reports/sign.h"
#include "scanner.h"

int
fa_preflight_sign_key(const char *path)
{
	EVP_PKEY *k = NULL;
	char *why = NULL;
	int r;

	if (path == NULL)
		return 0;
	if ((r = fa_key_load_private(path, &k, &why)) != 0) {
		fa_diag("--sign", "%s", why != NULL ? why : fa_strerror(r));
		free(why);
		return r == FA_ERR_NOMEM ? FA_EXIT_NORUN : FA_EXIT_USAGE;
	}
	EVP_PKEY_free(k);
	return 0;
}

/* Did the option just returned come as --name (not -x)? */
static int
typed_long(char **argv)
{
	const char *a = optind >= 1 ? argv[optind - 1] : "";
	const char *b = optind >= 2 ? argv[optind - 2] : "";

	/* "--name", "--name=value", or "--name" then its value. */
	return strncmp(a, "--", 2) == 0 || (strncmp(b, "--", 2) == 0 &&
	    strchr(b, '=') == NULL && b[2] != '\0');
}

int
fa_opt_repeated(int c, const int *once, const struct option *longopts,
    unsigned char *seen, char **argv)
{
	const struct option *lo;

	if (c < 0 || c >= FA_OPT_SEEN)
		return 0;
	for (; *once != 0 && *once != c; once++)
		;
	if (*once == 0 || seen[c]++ == 0)
		return 0;
	for (lo = longopts; lo->name != NULL && lo->val != c; lo++)
		;
	if (lo->name != NULL && (c >= 256 || typed_long(argv)))
		fa_diag(NULL, "option --%s is given twice", lo->name);
	else
		fa_diag(NULL, "option -%c is given twice", c);
	return -1;
}

int
fa_preflight_pcap(const char *path)
{
	char *why = NULL;
	int r;

	if (path == NULL || (r = fa_eth_pcap_check(path, &why)) == 0)
		return 0;
	fa_diag("--pcap", "%s: %s", path, why != NULL ? why : fa_strerror(r));
	free(why);
	return r == FA_ERR_NOMEM ? FA_EXIT_NORUN : FA_EXIT_USAGE;
}

int
fa_preflight_metrics(const char *path)
{
	struct stat st;
	char *copy, *dir;
	int r = 0;

	if (path == NULL)
		return 0;
	if (*path == '\0') {
		fa_diag("--metrics", "empty file name");
		return FA_EXIT_USAGE;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fa_diag("--metrics", "%s: not a regular file", path);
		return FA_EXIT_USAGE;
	}
	if ((copy = fa_strdup(path)) == NULL) {
		fa_diag(NULL, "out of memory");
		return FA_EXIT_NORUN;
	}
	dir = dirname(copy);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fa_diag("--metrics", "%s: %s", dir, stat(dir, &st) != 0 ?
		    strerror(errno) : "not a directory");
		r = FA_EXIT_USAGE;
	}
	free(copy);
	return r;
}
