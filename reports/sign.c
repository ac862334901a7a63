/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SHA256SUMS and its detached signature, their verification, the hash
 * chain of a history directory, and key generation; see sign.h for the
 * signature schemes.  SHA256SUMS is what `sha256sum NAME...` prints in
 * text mode: "<64 lower-case hex>  <name>\n" (GNU coreutils), so that
 * `sha256sum -c SHA256SUMS` works in the directory.  Names are restricted
 * so that sha256sum never escapes them (it prefixes a line with '\\' for
 * a name holding '\\' or a newline).
 *
 * Every file named by SHA256SUMS or found in a directory is untrusted:
 * read bounded, never through a symlink, and named in messages only
 * after fa_str_sanitize().
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "../core/errors.h"
#include "../core/snapshot.h"
#include "../core/util.h"
#include "report.h"
#include "sign.h"

#define FILE_MAX	((off_t)1 << 34)	/* 16 GiB: a file we hash */
#define NAME_MAX_LEN	255
#define REPORT_NAME	"report.json"
#define SHOWN_MAX	80	/* bytes of an untrusted string in a message */
#define UNCOVERED_MAX	1000	/* uncovered files named, per directory */

/* The last OpenSSL error's reason; the error queue is cleared. */
static const char *
ossl_reason(void)
{
	unsigned long e = ERR_peek_last_error();
	const char *s = e != 0 ? ERR_reason_error_string(e) : NULL;

	ERR_clear_error();
	return s != NULL ? s : "unknown OpenSSL error";
}

/* A printable copy of at most SHOWN_MAX bytes of s, or NULL on ENOMEM. */
static char *
shown(const char *s)
{
	size_t len = strlen(s);

	return fa_str_sanitize(s, len > SHOWN_MAX ? SHOWN_MAX : len);
}

static void
hexify(const unsigned char *md, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	out[2 * n] = '\0';
}

/*
 * Open name in dfd for reading (never through a final symlink when
 * nofollow) and check it is a regular file before opening it, so that a
 * FIFO or a device is not touched.  0 with *fdp, FA_ERR_NOTFOUND,
 * FA_ERR_INPUT (not a regular file) or FA_ERR_IO with errno kept.
 */
static int
open_regular(int dfd, const char *name, int nofollow, int *fdp)
{
	struct stat st, fst;
	int fd, saved;

	if (fstatat(dfd, name, &st, nofollow ? AT_SYMLINK_NOFOLLOW : 0) != 0)
		return errno == ENOENT ? FA_ERR_NOTFOUND : FA_ERR_IO;
	if (!S_ISREG(st.st_mode))
		return FA_ERR_INPUT;
	if ((fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    O_NONBLOCK | (nofollow ? O_NOFOLLOW : 0))) < 0) {
		if (errno == ENOENT)
			return FA_ERR_NOTFOUND;
		return errno == ELOOP ? FA_ERR_INPUT : FA_ERR_IO;
	}
	/* Replaced between the two looks: judge what was opened. */
	if (fstat(fd, &fst) != 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return FA_ERR_IO;
	}
	if (!S_ISREG(fst.st_mode)) {
		close(fd);
		return FA_ERR_INPUT;
	}
	*fdp = fd;
	return 0;
}

/*
 * Read name in dfd whole, at most max bytes (more: FA_ERR_TOOBIG), into
 * a NUL-terminated *bufp.  Codes as open_regular(), plus FA_ERR_NOMEM.
 */
static int
slurp(int dfd, const char *name, int nofollow, size_t max, char **bufp,
    size_t *lenp)
{
	struct stat st;
	char *buf = NULL, *nb;
	size_t cap, len = 0;
	ssize_t k;
	int fd, r, saved;

	*bufp = NULL;
	*lenp = 0;
	if ((r = open_regular(dfd, name, nofollow, &fd)) != 0)
		return r;
	r = FA_ERR_NOMEM;
	/* Start from the size seen; read to EOF, as the file may grow. */
	cap = fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (uintmax_t)st.st_size < max ? (size_t)st.st_size + 1 : 4096;
	if (cap > max + 1)
		cap = max + 1;
	if ((buf = malloc(cap + 1)) == NULL)
		goto out;
	for (;;) {
		if (len == cap) {
			if (cap > max) {
				r = FA_ERR_TOOBIG;
				goto out;
			}
			cap = cap > (max + 1) / 2 ? max + 1 : cap * 2;
			if ((nb = realloc(buf, cap + 1)) == NULL)
				goto out;
			buf = nb;
		}
		if ((k = read(fd, buf + len, cap - len)) < 0) {
			if (errno == EINTR)
				continue;
			r = FA_ERR_IO;
			goto out;
		}
		if (k == 0)
			break;
		len += (size_t)k;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	buf = NULL;
	r = 0;
out:
	saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return r;
}

/* SHA-256 of the regular file name in dfd, streamed, at most FILE_MAX. */
static int
hash_at(int dfd, const char *name, char hex[65])
{
	unsigned char buf[16 * 1024];
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx;
	off_t total = 0;
	ssize_t k;
	int fd, r, saved;

	if ((r = open_regular(dfd, name, 1, &fd)) != 0)
		return r;
	if ((ctx = EVP_MD_CTX_new()) == NULL) {
		close(fd);
		return FA_ERR_NOMEM;
	}
	r = FA_ERR_INTERNAL;
	if (EVP_DigestInit_ex2(ctx, EVP_sha256(), NULL) != 1)
		goto out;
	for (;;) {
		if ((k = read(fd, buf, sizeof(buf))) < 0) {
			if (errno == EINTR)
				continue;
			r = FA_ERR_IO;
			goto out;
		}
		if (k == 0)
			break;
		if ((total += k) > FILE_MAX) {
			r = FA_ERR_TOOBIG;
			goto out;
		}
		if (EVP_DigestUpdate(ctx, buf, (size_t)k) != 1)
			goto out;
	}
	if (EVP_DigestFinal_ex(ctx, md, &mdlen) != 1 || mdlen != 32)
		goto out;
	hexify(md, mdlen, hex);
	r = 0;
out:
	saved = errno;
	EVP_MD_CTX_free(ctx);
	close(fd);
	errno = saved;
	return r;
}

/* A message for an open_regular()/slurp()/hash_at() failure on label. */
static char *
file_error(int r, const char *label, uintmax_t max)
{
	switch (r) {
	case FA_ERR_NOTFOUND:
		return fa_strfmt("%s: missing", label);
	case FA_ERR_INPUT:
		return fa_strfmt("%s: not a regular file", label);
	case FA_ERR_TOOBIG:
		return fa_strfmt("%s: larger than %ju bytes", label, max);
	case FA_ERR_IO:
		return fa_strfmt("%s: %s", label, strerror(errno));
	default:
		return fa_strdup(fa_strerror(r));
	}
}

int
fa_sign_name_ok(const char *name)
{
	size_t i, len = strnlen(name, NAME_MAX_LEN + 1);

	if (len == 0 || len > NAME_MAX_LEN || name[0] == '.' ||
	    strcmp(name, FA_SUMS_NAME) == 0 || strcmp(name, FA_SIG_NAME) == 0)
		return 0;
	for (i = 0; i < len; i++)
		if (name[i] <= ' ' || name[i] >= 0x7f || name[i] == '/' ||
		    name[i] == '\\')
			return 0;
	return 1;
}

/* ---- keys ---- */

/* The curve names OpenSSL gives P-256, P-384 and P-521 keys; or NULL. */
static const char *
curve_name(const char *group)
{
	static const struct {
		const char	*ossl;
		const char	*nist;
	} curves[] = {
		{ "prime256v1", "P-256" }, { "P-256", "P-256" },
		{ "secp384r1", "P-384" }, { "P-384", "P-384" },
		{ "secp521r1", "P-521" }, { "P-521", "P-521" },
	};
	size_t i;

	for (i = 0; i < sizeof(curves) / sizeof(curves[0]); i++)
		if (strcmp(group, curves[i].ossl) == 0)
			return curves[i].nist;
	return NULL;
}

/* The NIST name of an EC key's curve, or NULL (unsupported). */
static const char *
key_curve(EVP_PKEY *k)
{
	char group[80];
	size_t glen = 0;

	if (EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME,
	    group, sizeof(group), &glen) != 1) {
		ERR_clear_error();
		return NULL;
	}
	return curve_name(group);
}

int
fa_key_supported(EVP_PKEY *k, char **why)
{
	const char *name;
	int bits;

	*why = NULL;
	if (EVP_PKEY_is_a(k, "ED25519") || EVP_PKEY_is_a(k, "ED448"))
		return 0;
	if (EVP_PKEY_is_a(k, "RSA")) {
		if ((bits = EVP_PKEY_get_bits(k)) < 2048)
			return fa_why(why, "RSA key of %d bits: at least 2048 "
			    "are required", bits);
		return 0;
	}
	if (EVP_PKEY_is_a(k, "EC")) {
		if (key_curve(k) == NULL)
			return fa_why(why, "EC key on an unsupported curve: "
			    "ECDSA keys must be on P-256, P-384 or P-521");
		return 0;
	}
	if (EVP_PKEY_is_a(k, "RSA-PSS"))
		return fa_why(why, "RSA-PSS-restricted key: signatures are "
		    "RSASSA-PKCS1-v1_5, use a plain RSA key");
	if (EVP_PKEY_is_a(k, "DSA"))
		return fa_why(why, "DSA key: DSA is no longer approved for "
		    "signing (FIPS 186-5); use Ed25519, RSA or ECDSA");
	name = EVP_PKEY_get0_type_name(k);
	return fa_why(why, "%s key: not a signing key fabaudit supports "
	    "(Ed25519, Ed448, RSA, ECDSA)", name != NULL ? name : "unknown");
}

/*
 * The pass phrase callback (a pem_password_cb): never prompts, records
 * that one was asked, and returns -1, OpenSSL's "no pass phrase".
 */
static int
no_passphrase(char *buf, int size, int rwflag, void *u)
{
	(void)buf;
	(void)size;
	(void)rwflag;
	*(int *)u = 1;
	return -1;	/* not an error: pem_password_cb's "none given" */
}

static int
load_key(const char *path, int private, EVP_PKEY **out, char **why)
{
	EVP_PKEY *k;
	BIO *b;
	char *buf = NULL, *w = NULL;
	size_t len = 0;
	int r, asked = 0;

	*out = NULL;
	*why = NULL;
	if ((r = slurp(AT_FDCWD, path, 0, FA_KEY_MAX_BYTES, &buf,
	    &len)) != 0) {
		*why = file_error(r, path, FA_KEY_MAX_BYTES);
		return r;
	}
	if ((b = BIO_new_mem_buf(buf, (int)len)) == NULL) {
		fa_freezero(buf, len);
		return FA_ERR_NOMEM;
	}
	ERR_clear_error();
	k = private ? PEM_read_bio_PrivateKey_ex(b, NULL, no_passphrase,
	    &asked, NULL, NULL) : PEM_read_bio_PUBKEY_ex(b, NULL,
	    no_passphrase, &asked, NULL, NULL);
	BIO_free(b);
	fa_freezero(buf, len);
	if (k == NULL && asked) {
		ERR_clear_error();
		*why = fa_strfmt("%s: the key is encrypted; fabaudit reads "
		    "unencrypted keys only (protect the file instead)", path);
		return FA_ERR_INPUT;
	}
	if (k == NULL) {
		*why = fa_strfmt("%s: not a PEM %s (%s)", path, private ?
		    "private key" : "public key (BEGIN PUBLIC KEY)",
		    ossl_reason());
		return FA_ERR_INPUT;
	}
	if ((r = fa_key_supported(k, &w)) != 0) {
		*why = fa_strfmt("%s: %s", path, w != NULL ? w : "unsupported");
		free(w);
		EVP_PKEY_free(k);
		return r;
	}
	*out = k;
	return 0;
}

int
fa_key_load_private(const char *path, EVP_PKEY **out, char **why)
{
	return load_key(path, 1, out, why);
}

int
fa_key_load_public(const char *path, EVP_PKEY **out, char **why)
{
	return load_key(path, 0, out, why);
}

int
fa_key_fingerprint(EVP_PKEY *k, char out[65])
{
	unsigned char *der = NULL;
	int len, r;

	if ((len = i2d_PUBKEY(k, &der)) <= 0) {
		ERR_clear_error();
		return FA_ERR_INTERNAL;
	}
	r = fa_sha256_hex(der, (size_t)len, out);
	OPENSSL_free(der);
	return r;
}

char *
fa_key_describe(EVP_PKEY *k)
{
	char fp[65], type[32];
	const char *curve;

	if (fa_key_fingerprint(k, fp) != 0)
		snprintf(fp, sizeof(fp), "(unknown)");
	if (EVP_PKEY_is_a(k, "ED25519"))
		snprintf(type, sizeof(type), "Ed25519");
	else if (EVP_PKEY_is_a(k, "ED448"))
		snprintf(type, sizeof(type), "Ed448");
	else if (EVP_PKEY_is_a(k, "RSA"))
		snprintf(type, sizeof(type), "RSA-%d", EVP_PKEY_get_bits(k));
	else if (EVP_PKEY_is_a(k, "EC") && (curve = key_curve(k)) != NULL)
		snprintf(type, sizeof(type), "ECDSA %s", curve);
	else
		snprintf(type, sizeof(type), "unsupported");
	return fa_strfmt("%s key SHA256:%s", type, fp);
}

int
fa_keygen(const char *type, EVP_PKEY **out, char **why)
{
	EVP_PKEY *k;

	*out = NULL;
	*why = NULL;
	ERR_clear_error();
	if (strcmp(type, "ed25519") == 0)
		k = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	else if (strcmp(type, "rsa") == 0)
		k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)3072);
	else if (strcmp(type, "ecdsa") == 0)
		k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	else
		return fa_why(why, "unknown key type; use ed25519, rsa or "
		    "ecdsa");
	if (k == NULL) {
		*why = fa_strfmt("key generation failed: %s", ossl_reason());
		return FA_ERR_INTERNAL;
	}
	*out = k;
	return 0;
}

int
fa_key_pem(EVP_PKEY *k, int private, char **bufp, size_t *lenp, char **why)
{
	BIO *b;
	char *data, *buf = NULL;
	long n;
	int ok;

	*bufp = NULL;
	*lenp = 0;
	*why = NULL;
	/* The secure heap, when set up, keeps the private key off swap. */
	if ((b = BIO_new(private ? BIO_s_secmem() : BIO_s_mem())) == NULL)
		return FA_ERR_NOMEM;
	ERR_clear_error();
	/* OpenSSL 3 writes PKCS#8 PrivateKeyInfo ("BEGIN PRIVATE KEY"). */
	ok = private ? PEM_write_bio_PrivateKey_ex(b, k, NULL, NULL, 0, NULL,
	    NULL, NULL, NULL) : PEM_write_bio_PUBKEY_ex(b, k, NULL, NULL);
	if (ok != 1 || (n = BIO_get_mem_data(b, &data)) <= 0) {
		*why = fa_strfmt("cannot encode the key: %s", ossl_reason());
		BIO_free(b);
		return FA_ERR_INTERNAL;
	}
	if ((buf = malloc((size_t)n + 1)) == NULL) {
		BIO_free(b);
		return FA_ERR_NOMEM;
	}
	memcpy(buf, data, (size_t)n);
	buf[n] = '\0';
	BIO_free(b);
	*bufp = buf;
	*lenp = (size_t)n;
	return 0;
}

/*
 * The digest for k's scheme: none for EdDSA, which hashes the message
 * itself (RFC 8032, "PureEdDSA"), SHA-256 otherwise.
 */
static const char *
key_md(EVP_PKEY *k)
{
	return EVP_PKEY_is_a(k, "ED25519") || EVP_PKEY_is_a(k, "ED448") ?
	    NULL : "SHA256";
}

/*
 * Set up ctx to sign or verify with k's scheme; 0, or FA_ERR_INTERNAL when
 * OpenSSL refuses (its error queue says why).
 */
static int
sig_init(EVP_MD_CTX *ctx, EVP_PKEY *k, int verify)
{
	EVP_PKEY_CTX *pctx = NULL;

	if ((verify ? EVP_DigestVerifyInit_ex(ctx, &pctx, key_md(k), NULL,
	    NULL, k, NULL) : EVP_DigestSignInit_ex(ctx, &pctx, key_md(k),
	    NULL, NULL, k, NULL)) != 1)
		return FA_ERR_INTERNAL;
	/* The default, stated: RSASSA-PKCS1-v1_5 (RFC 8017, 8.2). */
	if (EVP_PKEY_is_a(k, "RSA") &&
	    EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) != 1)
		return FA_ERR_INTERNAL;
	return 0;
}

int
fa_sign_buf(EVP_PKEY *k, const void *msg, size_t len, unsigned char **sig,
    size_t *siglen, char **why)
{
	EVP_MD_CTX *ctx;
	unsigned char *s = NULL;
	size_t sl;
	int r;

	*sig = NULL;
	*siglen = 0;
	if ((r = fa_key_supported(k, why)) != 0)
		return r;
	if (EVP_PKEY_get_size(k) <= 0 ||
	    (s = malloc((size_t)EVP_PKEY_get_size(k))) == NULL)
		return FA_ERR_NOMEM;
	if ((ctx = EVP_MD_CTX_new()) == NULL) {
		free(s);
		return FA_ERR_NOMEM;
	}
	ERR_clear_error();
	sl = (size_t)EVP_PKEY_get_size(k);
	if (sig_init(ctx, k, 0) != 0 ||
	    EVP_DigestSign(ctx, s, &sl, msg, len) != 1) {
		*why = fa_strfmt("cannot sign: %s", ossl_reason());
		EVP_MD_CTX_free(ctx);
		free(s);
		return FA_ERR_INTERNAL;
	}
	EVP_MD_CTX_free(ctx);
	*sig = s;
	*siglen = sl;
	return 0;
}

int
fa_verify_buf(EVP_PKEY *k, const void *msg, size_t len,
    const unsigned char *sig, size_t siglen)
{
	EVP_MD_CTX *ctx;
	char *why = NULL;
	int ok = 0;

	if (fa_key_supported(k, &why) != 0) {
		free(why);
		return 0;
	}
	if ((ctx = EVP_MD_CTX_new()) == NULL)
		return 0;
	ok = sig_init(ctx, k, 1) == 0 &&
	    EVP_DigestVerify(ctx, sig, siglen, msg, len) == 1;
	ERR_clear_error();
	EVP_MD_CTX_free(ctx);
	return ok;
}

/* ---- SHA256SUMS ---- */

struct sums_parse {
	struct fa_sums	*out;
	const char	*label;
};

static int
is_lower_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

static int
sums_line(char *line, unsigned ln, void *arg, char **why)
{
	struct sums_parse *p = arg;
	struct fa_sums *s = p->out;
	const char *name = line + 66;
	char *show;
	size_t i;

	if (strlen(line) < 67 || !is_lower_hex(line, 64) || line[64] != ' ' ||
	    line[65] != ' ')
		return fa_why(why, "%s:%u: not \"<64 lower-case hex digits>  "
		    "<file name>\"", p->label, ln);
	if (!fa_sign_name_ok(name)) {
		show = shown(name);
		fa_why(why, "%s:%u: \"%s\" is not a plain file name (printable "
		    "ASCII without space, '/' or '\\', not starting with '.')",
		    p->label, ln, show != NULL ? show : "?");
		free(show);
		return FA_ERR_INPUT;
	}
	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0)
			return fa_why(why, "%s:%u: %s listed twice", p->label,
			    ln, name);
	if (s->n >= FA_SUMS_MAX_ENTRIES) {
		fa_why(why, "%s:%u: more than %d entries", p->label, ln,
		    FA_SUMS_MAX_ENTRIES);
		return FA_ERR_TOOBIG;
	}
	if (fa_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v)) != 0 ||
	    (s->v[s->n].name = fa_strdup(name)) == NULL)
		return FA_ERR_NOMEM;
	memcpy(s->v[s->n].hex, line, 64);
	s->v[s->n].hex[64] = '\0';
	s->n++;
	return 0;
}

int
fa_sums_parse(const char *text, size_t len, const char *label,
    struct fa_sums *out, char **why)
{
	struct sums_parse p = { out, label };
	const char *nul;
	unsigned ln = 1;
	size_t i;
	int r;

	*why = NULL;
	memset(out, 0, sizeof(*out));
	if ((nul = memchr(text, '\0', len)) != NULL) {
		for (i = 0; text + i < nul; i++)
			ln += text[i] == '\n';
		return fa_why(why, "%s:%u: a NUL byte", label, ln);
	}
	r = fa_text_each_line(text, len, sums_line, &p, why);
	if (r == 0 && out->n == 0)
		r = fa_why(why, "%s: no entries", label);
	if (r != 0)
		fa_sums_free(out);
	return r;
}

void
fa_sums_free(struct fa_sums *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
fa_sign_outset(struct fa_outset *set, const char *const *names, size_t n,
    const char *keypath, char **why)
{
	EVP_PKEY *k = NULL;
	const char **sorted = NULL, *dir = fa_outset_dir(set);
	unsigned char *sig = NULL;
	char *text = NULL, *show, *label, hex[65];
	size_t i, len = 0, siglen = 0;
	int dfd = fa_outset_dirfd(set), r, saved;

	*why = NULL;
	if (keypath != NULL && (r = fa_key_load_private(keypath, &k,
	    why)) != 0)
		return r;
	r = FA_ERR_INPUT;
	if (n == 0 || n > FA_SUMS_MAX_ENTRIES) {
		*why = fa_strfmt("%s: %zu files to list in %s (1 to %d)", dir,
		    n, FA_SUMS_NAME, FA_SUMS_MAX_ENTRIES);
		goto out;
	}
	r = FA_ERR_NOMEM;
	if ((sorted = calloc(n, sizeof(*sorted))) == NULL ||
	    (text = malloc(n * (64 + 2 + NAME_MAX_LEN + 1) + 1)) == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		if (!fa_sign_name_ok(names[i])) {
			show = shown(names[i]);
			*why = fa_strfmt("\"%s\": not a plain file name, "
			    "cannot be listed in %s", show != NULL ? show :
			    "?", FA_SUMS_NAME);
			free(show);
			r = FA_ERR_INPUT;
			goto out;
		}
		sorted[i] = names[i];
	}
	qsort(sorted, n, sizeof(*sorted), cmp_str);
	for (i = 1; i < n; i++)
		if (strcmp(sorted[i - 1], sorted[i]) == 0) {
			*why = fa_strfmt("%s: listed twice", sorted[i]);
			r = FA_ERR_INPUT;
			goto out;
		}
	for (i = 0; i < n; i++) {
		if ((r = hash_at(dfd, sorted[i], hex)) != 0) {
			saved = errno;
			if ((label = fa_strfmt("%s/%s", dir, sorted[i])) !=
			    NULL) {
				errno = saved;
				*why = file_error(r, label, FILE_MAX);
			}
			free(label);
			goto out;
		}
		len += (size_t)snprintf(text + len, 64 + 2 + NAME_MAX_LEN + 2,
		    "%s  %s\n", hex, sorted[i]);
	}
	if ((r = fa_outset_write(set, FA_SUMS_NAME, text, len, 0640,
	    why)) != 0)
		goto out;
	if (k == NULL) {
		/* A signature left by an earlier run no longer applies. */
		if (unlinkat(dfd, FA_SIG_NAME, 0) != 0 && errno != ENOENT) {
			*why = fa_strfmt("%s/%s: %s", dir, FA_SIG_NAME,
			    strerror(errno));
			r = FA_ERR_IO;
		}
		goto out;
	}
	if ((r = fa_sign_buf(k, text, len, &sig, &siglen, why)) != 0)
		goto out;
	r = fa_outset_write(set, FA_SIG_NAME, sig, siglen, 0640, why);
out:
	EVP_PKEY_free(k);
	free(sig);
	free(sorted);
	free(text);
	return r;
}

/* ---- verification ---- */

static int lines_add(struct fa_lines *l, char *s);
static int problem(struct fa_verify *v, const char *pfx, const char *fmt,
    ...) __attribute__((__format__(__printf__, 3, 4)));

static int
lines_add(struct fa_lines *l, char *s)
{
	if (s == NULL || fa_grow(&l->v, &l->cap, l->n + 1,
	    sizeof(*l->v)) != 0) {
		free(s);
		return FA_ERR_NOMEM;
	}
	l->v[l->n++] = s;
	return 0;
}

static void
lines_free(struct fa_lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Add "PFXmessage" to v's problems; 0 or FA_ERR_NOMEM. */
static int
problem(struct fa_verify *v, const char *pfx, const char *fmt, ...)
{
	va_list ap;
	char *m = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&m, fmt, ap);
	va_end(ap);
	if (r < 0)
		return FA_ERR_NOMEM;
	r = lines_add(&v->problems, fa_strfmt("%s%s", pfx, m));
	free(m);
	return r;
}

static int
sums_has(const struct fa_sums *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0)
			return 1;
	return 0;
}

/* Note the entries of dfd that s does not list (SHA256SUMS* aside). */
static int
list_uncovered(int dfd, const char *label, const char *pfx,
    const struct fa_sums *s, struct fa_verify *v, char **why)
{
	struct dirent *de;
	DIR *d;
	char *show;
	size_t first = v->uncovered.n, more = 0;
	int fd, r = 0;

	if ((fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (d = fdopendir(fd)) == NULL) {
		*why = fa_strfmt("%s: %s", label, strerror(errno));
		if (fd >= 0)
			close(fd);
		return FA_ERR_IO;
	}
	while (r == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, FA_SUMS_NAME) == 0 ||
		    strcmp(de->d_name, FA_SIG_NAME) == 0 ||
		    sums_has(s, de->d_name))
			continue;
		if (v->uncovered.n - first >= UNCOVERED_MAX) {
			more++;
			continue;
		}
		show = shown(de->d_name);
		r = lines_add(&v->uncovered, show == NULL ? NULL :
		    fa_strfmt("%s%s", pfx, show));
		free(show);
	}
	closedir(d);
	if (v->uncovered.n > first)
		qsort(v->uncovered.v + first, v->uncovered.n - first,
		    sizeof(*v->uncovered.v), cmp_str);
	if (r == 0 && more > 0)
		r = lines_add(&v->uncovered, fa_strfmt("%s(%zu more files)",
		    pfx, more));
	return r;
}

/* Check SHA256SUMS.sig over text; problems into v, errors into *why. */
static int
check_signature(int dfd, const char *label, const char *pfx, EVP_PKEY *pub,
    const char *text, size_t len, struct fa_verify *v, char **why)
{
	char *sig = NULL, *path;
	size_t siglen = 0;
	int r, saved;

	r = slurp(dfd, FA_SIG_NAME, 1, FA_SIG_MAX_BYTES, &sig, &siglen);
	switch (r) {
	case 0:
		r = fa_verify_buf(pub, text, len, (unsigned char *)sig,
		    siglen) ? 0 : problem(v, pfx, "%s: bad signature: %s was "
		    "changed, or signed with another key", FA_SIG_NAME,
		    FA_SUMS_NAME);
		break;
	case FA_ERR_NOTFOUND:
		r = problem(v, pfx, "%s: missing: %s is not signed",
		    FA_SIG_NAME, FA_SUMS_NAME);
		break;
	case FA_ERR_INPUT:
		r = problem(v, pfx, "%s: not a regular file", FA_SIG_NAME);
		break;
	case FA_ERR_TOOBIG:
		r = problem(v, pfx, "%s: larger than %d bytes, not a "
		    "signature", FA_SIG_NAME, FA_SIG_MAX_BYTES);
		break;
	default:
		saved = errno;
		if ((path = fa_strfmt("%s/%s", label, FA_SIG_NAME)) != NULL) {
			errno = saved;
			*why = file_error(r, path, FA_SIG_MAX_BYTES);
		}
		free(path);
	}
	free(sig);
	return r;
}

/*
 * Verify the directory dfd (label: its path, pfx: prefix of problem
 * lines).  must_cover: a name SHA256SUMS must list, or NULL.  When
 * chained, a missing SHA256SUMS is a problem (the run is not signed), not
 * an error.
 */
static int
verify_at(int dfd, const char *label, const char *pfx, EVP_PKEY *pub,
    const char *must_cover, int chained, struct fa_verify *v, char **why)
{
	struct fa_sums s = { NULL, 0, 0 };
	char *text = NULL, *path, *msg, *name, hex[65];
	size_t len = 0, i;
	int r, saved;

	if ((path = fa_strfmt("%s/%s", label, FA_SUMS_NAME)) == NULL)
		return FA_ERR_NOMEM;
	r = slurp(dfd, FA_SUMS_NAME, 1, FA_SUMS_MAX_BYTES, &text, &len);
	if (r == FA_ERR_NOTFOUND && chained) {
		r = problem(v, pfx, "%s: missing: the run is not signed",
		    FA_SUMS_NAME);
		goto out;
	}
	if (r != 0) {
		*why = file_error(r, path, FA_SUMS_MAX_BYTES);
		goto out;
	}
	/* The signature first: if SHA256SUMS is also malformed, both show. */
	if (pub != NULL && (r = check_signature(dfd, label, pfx, pub, text,
	    len, v, why)) != 0)
		goto out;
	if ((r = fa_sums_parse(text, len, path, &s, why)) != 0)
		goto out;
	for (i = 0; r == 0 && i < s.n; i++) {
		name = s.v[i].name;
		v->nfiles++;
		switch (r = hash_at(dfd, name, hex)) {
		case 0:
			if (strcmp(hex, s.v[i].hex) != 0)
				r = problem(v, pfx, "%s: changed (sha256 %s, "
				    "%s lists %s)", name, hex, FA_SUMS_NAME,
				    s.v[i].hex);
			break;
		case FA_ERR_NOTFOUND:
		case FA_ERR_INPUT:
		case FA_ERR_TOOBIG:
			msg = file_error(r, name, FILE_MAX);
			r = msg == NULL ? FA_ERR_NOMEM : problem(v, pfx, "%s",
			    msg);
			free(msg);
			break;
		default:
			saved = errno;
			if ((msg = fa_strfmt("%s/%s", label, name)) != NULL) {
				errno = saved;
				*why = file_error(r, msg, FILE_MAX);
			}
			free(msg);
		}
	}
	if (r == 0 && must_cover != NULL && !sums_has(&s, must_cover))
		r = problem(v, pfx, "%s: not covered by %s", must_cover,
		    FA_SUMS_NAME);
	if (r == 0)
		r = list_uncovered(dfd, label, pfx, &s, v, why);
out:
	fa_sums_free(&s);
	free(text);
	free(path);
	return r;
}

int
fa_verify_outdir(const char *dir, EVP_PKEY *pub, struct fa_verify *v,
    char **why)
{
	int dfd, r;

	*why = NULL;
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		*why = fa_strfmt("%s: %s", dir, strerror(errno));
		return FA_ERR_IO;
	}
	r = verify_at(dfd, dir, "", pub, NULL, 0, v, why);
	close(dfd);
	return r;
}

int
fa_verify_report(const char *dir, const char *name, const char *hex,
    EVP_PKEY *pub, char **why)
{
	struct fa_sums s = { NULL, 0, 0 };
	char *text = NULL, *sig = NULL, *label = NULL;
	const char *which = FA_SUMS_NAME;
	size_t len = 0, siglen = 0, i;
	int dfd, r, sig_step = 0;

	*why = NULL;
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		*why = fa_strfmt("%s: %s", dir, strerror(errno));
		return FA_ERR_IO;
	}
	if ((label = fa_strfmt("%s/%s", dir, FA_SUMS_NAME)) == NULL) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	r = slurp(dfd, FA_SUMS_NAME, 1, FA_SUMS_MAX_BYTES, &text, &len);
	if (r == FA_ERR_NOTFOUND) {
		*why = fa_strfmt("no %s beside it", FA_SUMS_NAME);
		r = FA_SIG_UNSIGNED;
		goto out;
	}
	if (r == 0) {
		which = FA_SIG_NAME;
		sig_step = 1;
		r = slurp(dfd, FA_SIG_NAME, 1, FA_SIG_MAX_BYTES, &sig,
		    &siglen);
		if (r == FA_ERR_NOTFOUND) {
			*why = fa_strfmt("%s is not signed (no %s)",
			    FA_SUMS_NAME, FA_SIG_NAME);
			r = FA_SIG_UNSIGNED;
			goto out;
		}
	}
	if (r == FA_ERR_INPUT || r == FA_ERR_TOOBIG) {
		*why = file_error(r, which, sig_step ? FA_SIG_MAX_BYTES :
		    FA_SUMS_MAX_BYTES);
		r = FA_SIG_BAD;
		goto out;
	}
	if (r != 0) {
		free(label);
		label = fa_strfmt("%s/%s", dir, which);
		*why = label == NULL ? NULL : file_error(r, label,
		    FA_SUMS_MAX_BYTES);
		goto out;
	}
	if (!fa_verify_buf(pub, text, len, (unsigned char *)sig, siglen)) {
		*why = fa_strfmt("bad signature: %s was changed, or signed "
		    "with another key", FA_SUMS_NAME);
		r = FA_SIG_BAD;
		goto out;
	}
	if ((r = fa_sums_parse(text, len, FA_SUMS_NAME, &s, why)) != 0) {
		r = r == FA_ERR_NOMEM ? r : FA_SIG_BAD;
		goto out;
	}
	r = FA_SIG_BAD;
	for (i = 0; i < s.n; i++)
		if (strcmp(s.v[i].name, name) == 0)
			break;
	if (i == s.n)
		*why = fa_strfmt("%s does not list it", FA_SUMS_NAME);
	else if (strcmp(s.v[i].hex, hex) != 0)
		*why = fa_strfmt("changed after signing (sha256 %s, %s lists "
		    "%s)", hex, FA_SUMS_NAME, s.v[i].hex);
	else
		r = FA_SIG_GOOD;
out:
	fa_sums_free(&s);
	free(text);
	free(sig);
	free(label);
	close(dfd);
	return r;
}

/* ---- the history chain ---- */

/* A run's name: YYYYmmddTHHMMSSZ, optionally "-N" (N from 1, <= 5 digits). */
static int
run_name_ok(const char *s)
{
	size_t i;

	for (i = 0; i < 16; i++)
		if (i == 8 ? s[i] != 'T' : i == 15 ? s[i] != 'Z' :
		    s[i] < '0' || s[i] > '9')
			return 0;
	if (s[16] == '\0')
		return 1;
	if (s[16] != '-' || s[17] < '1' || s[17] > '9')
		return 0;
	for (i = 18; s[i] != '\0'; i++)
		if (i >= 22 || s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* Time order: the stamp, then the "-N" suffix numerically (none first). */
static int
run_cmp(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	unsigned long na, nb;
	int c;

	if ((c = strncmp(a, b, 16)) != 0)
		return c;
	na = a[16] == '-' ? strtoul(a + 17, NULL, 10) : 0;
	nb = b[16] == '-' ? strtoul(b + 17, NULL, 10) : 0;
	return na < nb ? -1 : na > nb;
}

/* The run names in dfd, sorted; non-directories are problems. */
static int
list_runs(int dfd, const char *dir, struct fa_lines *runs,
    struct fa_verify *v, char **why)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, r = 0;

	if ((fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (d = fdopendir(fd)) == NULL) {
		*why = fa_strfmt("%s: %s", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return FA_ERR_IO;
	}
	while (r == 0 && (de = readdir(d)) != NULL) {
		if (!run_name_ok(de->d_name))
			continue;	/* latest, .lock, anything else */
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			*why = fa_strfmt("%s/%s: %s", dir, de->d_name,
			    strerror(errno));
			r = FA_ERR_IO;
		} else if (!S_ISDIR(st.st_mode))
			r = problem(v, "", "%s: not a directory", de->d_name);
		else
			r = lines_add(runs, fa_strdup(de->d_name));
	}
	closedir(d);
	if (r == 0 && runs->n > 0)
		qsort(runs->v, runs->n, sizeof(*runs->v), run_cmp);
	return r;
}

/*
 * Check run's link to its predecessor prior, whose report.json hashes to
 * prior_hex (NULL: the first run, or a predecessor without a readable
 * report.json, already a problem).
 */
static int
check_link(struct fa_verify *v, const char *run, const char *prior,
    const char *prior_hex, const char *buf, size_t len)
{
	json_error_t je;
	json_t *root, *prev;
	const char *sha;
	char *show;
	int r = 0;

	if ((root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je)) ==
	    NULL) {
		show = shown(je.text);
		r = problem(v, "", "%s/%s: not valid JSON (line %d: %s)", run,
		    REPORT_NAME, je.line, show != NULL ? show : "?");
		free(show);
		return r;
	}
	prev = json_object_get(root, "previous");
	sha = json_is_object(prev) ? fa_json_get_str(prev, "sha256") : NULL;
	if (prior == NULL) {
		/* The first run kept: its predecessor was pruned, or none. */
		v->pred_pruned = prev != NULL && !json_is_null(prev);
	} else if (prior_hex == NULL) {
		/* The predecessor's own problem says why. */
	} else if (prev == NULL || json_is_null(prev)) {
		r = problem(v, "", "%s: chain broken: %s has no \"previous\"; "
		    "expected sha256 %s of %s/%s", run, REPORT_NAME,
		    prior_hex, prior, REPORT_NAME);
	} else if (sha == NULL) {
		r = problem(v, "", "%s: chain broken: \"previous\" has no "
		    "\"sha256\" string; expected %s of %s/%s", run,
		    prior_hex, prior, REPORT_NAME);
	} else if (strlen(sha) != 64 || strcasecmp(sha, prior_hex) != 0) {
		show = shown(sha);
		r = problem(v, "", "%s: chain broken: previous.sha256 is %s, "
		    "expected %s (sha256 of %s/%s)", run, show != NULL ?
		    show : "?", prior_hex, prior, REPORT_NAME);
		free(show);
	}
	json_decref(root);
	return r;
}

/* One run: its report.json's link, then with pub its signed sums. */
static int
chain_run(int dfd, const char *dir, const char *run, const char *prior,
    char prior_hex[65], EVP_PKEY *pub, struct fa_verify *v, char **why)
{
	char *buf = NULL, *label = NULL, *pfx = NULL, *path = NULL, hex[65];
	size_t len = 0;
	int rfd, r;

	if ((label = fa_strfmt("%s/%s", dir, run)) == NULL ||
	    (pfx = fa_strfmt("%s/", run)) == NULL ||
	    (path = fa_strfmt("%s/%s", label, REPORT_NAME)) == NULL) {
		r = FA_ERR_NOMEM;
		goto out;
	}
	if ((rfd = openat(dfd, run, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0) {
		*why = fa_strfmt("%s: %s", label, strerror(errno));
		r = FA_ERR_IO;
		goto out;
	}
	r = slurp(rfd, REPORT_NAME, 1, FA_SNAPSHOT_MAX_BYTES, &buf, &len);
	hex[0] = '\0';
	if (r == FA_ERR_NOTFOUND || r == FA_ERR_INPUT || r == FA_ERR_TOOBIG) {
		free(path);
		path = file_error(r, REPORT_NAME, FA_SNAPSHOT_MAX_BYTES);
		r = path == NULL ? FA_ERR_NOMEM : problem(v, pfx, "%s", path);
	} else if (r != 0) {
		*why = file_error(r, path, FA_SNAPSHOT_MAX_BYTES);
	} else if ((r = fa_sha256_hex(buf, len, hex)) == 0) {
		r = check_link(v, run, prior, prior == NULL ||
		    prior_hex[0] == '\0' ? NULL : prior_hex, buf, len);
	}
	if (r == 0 && pub != NULL)
		r = verify_at(rfd, label, pfx, pub, REPORT_NAME, 1, v, why);
	close(rfd);
	/* The next run links to this report.json's bytes, as read now. */
	memcpy(prior_hex, hex, sizeof(hex));
out:
	free(buf);
	free(label);
	free(pfx);
	free(path);
	return r;
}

int
fa_verify_chain(const char *dir, EVP_PKEY *pub, struct fa_verify *v,
    char **why)
{
	struct fa_lines runs = { NULL, 0, 0 };
	char prior_hex[65] = "";
	size_t i;
	int dfd, r;

	*why = NULL;
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		*why = fa_strfmt("%s: %s", dir, strerror(errno));
		return FA_ERR_IO;
	}
	if ((r = list_runs(dfd, dir, &runs, v, why)) != 0)
		goto out;
	if (runs.n == 0) {
		*why = fa_strfmt("%s: no runs (no YYYYmmddTHHMMSSZ "
		    "directory)", dir);
		r = FA_ERR_NOTFOUND;
		goto out;
	}
	for (i = 0; r == 0 && i < runs.n; i++)
		r = chain_run(dfd, dir, runs.v[i], i > 0 ? runs.v[i - 1] :
		    NULL, prior_hex, pub, v, why);
	if (r != 0)
		goto out;
	v->nruns = runs.n;
	memcpy(v->head, prior_hex, sizeof(v->head));
	if ((v->first = fa_strdup(runs.v[0])) == NULL ||
	    (v->last = fa_strdup(runs.v[runs.n - 1])) == NULL)
		r = FA_ERR_NOMEM;
out:
	lines_free(&runs);
	close(dfd);
	return r;
}

void
fa_verify_free(struct fa_verify *v)
{
	lines_free(&v->problems);
	lines_free(&v->uncovered);
	free(v->first);
	free(v->last);
	memset(v, 0, sizeof(*v));
}
