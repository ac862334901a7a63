/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fabaudit keygen -o PREFIX: a signing key pair for --sign, as PREFIX.pem
 * (unencrypted PKCS#8 PEM, mode 0600) and PREFIX.pub.pem
 * (SubjectPublicKeyInfo PEM, for verify --pubkey).  The same files come
 * from `openssl genpkey -algorithm ed25519 -out PREFIX.pem` and
 * `openssl pkey -in PREFIX.pem -pubout -out PREFIX.pub.pem`.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "../reports/sign.h"
#include "scanner.h"

const char fa_usage_keygen[] =
    "       fabaudit keygen [-f] [-t ed25519|rsa|ecdsa] -o prefix\n";

static const struct option longopts[] = {
	{ "force", no_argument, NULL, 'f' },
	{ "type", required_argument, NULL, 't' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * Write buf to path with mode: a temporary file beside it (mkostemp(3)
 * creates it 0600, so a private key is never readable by others, whatever
 * the umask), fsync, then rename(2) over path when force, else link(2),
 * which fails with EEXIST rather than replace a file created meanwhile.
 * 0, or after a diagnostic -2 when the file could not even be created
 * (a missing or read-only directory), else -1.
 */
static int
write_key_file(const char *path, const char *buf, size_t len, mode_t mode,
    int force)
{
	char *tmp;
	ssize_t w;
	int fd, r = -1;

	if ((tmp = fa_strfmt("%s.XXXXXX", path)) == NULL) {
		fa_diag(NULL, "out of memory");
		return -1;
	}
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
		r = errno;
		fa_diag(path, "%s", strerror(r));
		free(tmp);
		/* Nothing written: the place named is unusable (exit 2). */
		return r == ENOSPC || r == EDQUOT || r == EIO ? -1 : -2;
	}
	if (fchmod(fd, mode) != 0)
		goto fail;
	while (len > 0) {
		if ((w = write(fd, buf, len)) < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		buf += w;
		len -= (size_t)w;
	}
	if (fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (force ? rename(tmp, path) != 0 : link(tmp, path) != 0)
		goto fail;
	r = 0;
	goto out;
fail:
	if (errno == EEXIST)
		fa_diag(path, "exists; use -f to replace it");
	else
		fa_diag(path, "%s", strerror(errno));
out:
	if (fd >= 0)
		close(fd);
	if (r != 0 || !force)
		unlink(tmp);
	free(tmp);
	return r;
}

static int
generate(const char *type, const char *prefix, int force)
{
	EVP_PKEY *k = NULL;
	char *priv = NULL, *pub = NULL, *privpath = NULL, *pubpath = NULL;
	char *why = NULL, fp[65];
	size_t privlen = 0, publen = 0;
	struct stat st;
	int r, rc = FA_EXIT_NORUN;

	if ((privpath = fa_strfmt("%s.pem", prefix)) == NULL ||
	    (pubpath = fa_strfmt("%s.pub.pem", prefix)) == NULL) {
		fa_diag(NULL, "out of memory");
		goto out;
	}
	/* Refuse before writing either file (link(2) guards the race). */
	if (!force && (lstat(privpath, &st) == 0 || lstat(pubpath,
	    &st) == 0)) {
		fa_diag("keygen", "%s exists; use -f to replace it",
		    lstat(privpath, &st) == 0 ? privpath : pubpath);
		rc = FA_EXIT_USAGE;
		goto out;
	}
	if ((r = fa_keygen(type, &k, &why)) != 0 ||
	    (r = fa_key_pem(k, 1, &priv, &privlen, &why)) != 0 ||
	    (r = fa_key_pem(k, 0, &pub, &publen, &why)) != 0 ||
	    (r = fa_key_fingerprint(k, fp)) != 0) {
		fa_diag("keygen", "%s", why != NULL ? why : fa_strerror(r));
		rc = r == FA_ERR_INPUT ? FA_EXIT_USAGE : FA_EXIT_NORUN;
		goto out;
	}
	if ((r = write_key_file(privpath, priv, privlen, 0600, force)) != 0) {
		rc = r == -2 ? FA_EXIT_USAGE : FA_EXIT_NORUN;
		goto out;
	}
	if (write_key_file(pubpath, pub, publen, 0644, force) != 0) {
		/* No half pair: the private key just made goes too. */
		(void)unlink(privpath);
		goto out;
	}
	free(why);
	why = fa_key_describe(k);
	printf("private key  %s (mode 0600; keep it secret, it signs "
	    "reports)\n", privpath);
	printf("public key   %s (give it to whoever verifies)\n", pubpath);
	printf("fingerprint  %s\n", why != NULL ? why : fp);
	rc = FA_EXIT_OK;
out:
	if (priv != NULL)
		fa_freezero(priv, privlen);
	free(pub);
	free(privpath);
	free(pubpath);
	free(why);
	EVP_PKEY_free(k);
	return rc;
}

int
fa_cmd_keygen(int argc, char **argv)
{
	const char *type = "ed25519", *prefix = NULL;
	int c, force = 0;
	static const int once[] = { 't', 'o', 0 };
	unsigned char seen[FA_OPT_SEEN] = { 0 };

	optind = 1;
	opterr = 0;	/* we report bad options ourselves */
	while ((c = getopt_long(argc, argv, ":ft:o:h", longopts,
	    NULL)) != -1) {
		if (fa_opt_repeated(c, once, longopts, seen, argv) != 0)
			goto usage;
		switch (c) {
		case 'f':
			force = 1;
			break;
		case 't':
			type = optarg;
			break;
		case 'o':
			prefix = optarg;
			break;
		case 'h':
			fa_print_usage(stdout, fa_usage_keygen);
			return FA_EXIT_OK;
		default:
			fa_bad_option("keygen", c, argv);
			goto usage;
		}
	}
	if (argc != optind || prefix == NULL || *prefix == '\0') {
		fa_diag("keygen", "needs -o prefix and no other argument");
		goto usage;
	}
	/* "dir/" would make the hidden files dir/.pem and dir/.pub.pem. */
	if (prefix[strlen(prefix) - 1] == '/') {
		fa_diag("-o", "'%s' is a directory; give a file name prefix "
		    "(e.g. %ssigning)", prefix, prefix);
		goto usage;
	}
	if (strcmp(type, "ed25519") != 0 && strcmp(type, "rsa") != 0 &&
	    strcmp(type, "ecdsa") != 0) {
		fa_diag("-t", "unknown key type '%s'; use ed25519, rsa or "
		    "ecdsa", type);
		goto usage;
	}
	return generate(type, prefix, force);
usage:
	/* One line on stderr: the diagnostic, not the whole usage. */
	return FA_EXIT_USAGE;
}
