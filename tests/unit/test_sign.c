/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for reports/sign.c: SHA256SUMS and its signature for each key
 * type, verification against tampering (a changed byte, a missing file, a
 * swapped signature, a wrong key), names and SHA256SUMS lines that must be
 * refused, key types that must be refused, and the history chain.
 */
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <openssl/dsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "../../core/errors.h"
#include "../../core/util.h"
#include "../../reports/report.h"
#include "../../reports/sign.h"

struct tdir {
	char	root[64];
};

/* SHA256SUMS (and its signature) of names in dir, as one output set. */
static int
sign_dir(const char *dir, const char *const *names, size_t n,
    const char *keypath, char **why)
{
	struct fa_outset *set;
	int r;

	if ((r = fa_outset_open(dir, 0, &set, NULL, why)) != 0)
		return r;
	r = fa_sign_outset(set, names, n, keypath, why);
	(void)fa_outset_close(set, r == 0, NULL);
	return r;
}

static char *
path_in(const char *dir, const char *name)
{
	char *p = fa_strfmt("%s/%s", dir, name);

	assert_non_null(p);
	return p;
}

static void
put(const char *dir, const char *name, const char *text)
{
	char *why = NULL;

	assert_int_equal(fa_write_atomic(dir, name, text, strlen(text), &why),
	    0);
}

static void
put_bytes(const char *dir, const char *name, const void *b, size_t len)
{
	char *why = NULL;

	assert_int_equal(fa_write_atomic(dir, name, b, len, &why), 0);
}

static char *
get(const char *dir, const char *name, size_t *lenp)
{
	char *p = path_in(dir, name), *buf;
	FILE *f = fopen(p, "rb");
	size_t len;

	assert_non_null(f);
	buf = malloc(1 << 20);
	assert_non_null(buf);
	len = fread(buf, 1, (1 << 20) - 1, f);
	buf[len] = '\0';
	fclose(f);
	free(p);
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

static char *
subdir(const char *dir, const char *name)
{
	char *p = path_in(dir, name);

	assert_int_equal(mkdir(p, 0700), 0);
	return p;
}

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static int
setup(void **state)
{
	struct tdir *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return -1;
	snprintf(t->root, sizeof(t->root), "/tmp/fa-test-sign.XXXXXX");
	if (mkdtemp(t->root) == NULL)
		return -1;
	*state = t;
	return 0;
}

static int
teardown(void **state)
{
	struct tdir *t = *state;

	nftw(t->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

/* Write k's private and public PEM into dir as NAME.pem, NAME.pub.pem. */
static void
save_key(EVP_PKEY *k, const char *dir, const char *name, char **priv,
    char **pub)
{
	char *buf = NULL, *why = NULL, *n;
	size_t len = 0;

	assert_int_equal(fa_key_pem(k, 1, &buf, &len, &why), 0);
	assert_non_null(strstr(buf, "-----BEGIN PRIVATE KEY-----\n"));
	n = fa_strfmt("%s.pem", name);
	put_bytes(dir, n, buf, len);
	*priv = path_in(dir, n);
	free(n);
	fa_freezero(buf, len);
	assert_int_equal(fa_key_pem(k, 0, &buf, &len, &why), 0);
	assert_non_null(strstr(buf, "-----BEGIN PUBLIC KEY-----\n"));
	n = fa_strfmt("%s.pub.pem", name);
	put_bytes(dir, n, buf, len);
	*pub = path_in(dir, n);
	free(n);
	free(buf);
}

static EVP_PKEY *
load_pub(const char *path)
{
	EVP_PKEY *k = NULL;
	char *why = NULL;

	if (fa_key_load_public(path, &k, &why) != 0)
		print_error("%s\n", why != NULL ? why : "?");
	assert_non_null(k);
	return k;
}

/* An output directory with two files, signed with priv (or not). */
static char *
signed_dir(const char *root, const char *name, const char *priv,
    const char *content)
{
	static const char *const names[] = { "report.txt", "report.json" };
	char *d = subdir(root, name), *why = NULL;
	int r;

	put(d, "report.json", "{\"schema\":\"fabaudit-report/1\"}\n");
	put(d, "report.txt", content);
	r = sign_dir(d, names, 2, priv, &why);
	if (r != 0)
		print_error("%s\n", why != NULL ? why : "?");
	assert_int_equal(r, 0);
	assert_null(why);
	return d;
}

/* Verify d with pub: 0 expected, and the problems joined by '\n'. */
static char *
verify(const char *d, EVP_PKEY *pub, struct fa_verify *v)
{
	char *why = NULL, *all = fa_strdup(""), *n;
	size_t i;
	int r;

	memset(v, 0, sizeof(*v));
	r = fa_verify_outdir(d, pub, v, &why);
	if (r != 0)
		print_error("%s\n", why != NULL ? why : "?");
	assert_int_equal(r, 0);
	for (i = 0; i < v->problems.n; i++) {
		n = fa_strfmt("%s%s\n", all, v->problems.v[i]);
		free(all);
		all = n;
	}
	assert_non_null(all);
	return all;
}

/* The SHA256SUMS of signed_dir(), computed here. */
static void
expect_sums(const char *d, const char *content)
{
	char h1[65], h2[65], *want, *got;
	const char *json = "{\"schema\":\"fabaudit-report/1\"}\n";

	assert_int_equal(fa_sha256_hex(json, strlen(json), h1), 0);
	assert_int_equal(fa_sha256_hex(content, strlen(content), h2), 0);
	/* Sorted by name, whatever the order given. */
	want = fa_strfmt("%s  report.json\n%s  report.txt\n", h1, h2);
	got = get(d, FA_SUMS_NAME, NULL);
	assert_string_equal(got, want);
	free(want);
	free(got);
}

/* The whole tamper suite for one key. */
static void
round_trip(const char *root, EVP_PKEY *k, const char *desc_prefix)
{
	struct fa_verify v;
	EVP_PKEY *pub, *other;
	char *priv, *pubpath, *opriv, *opub, *a, *b, *p, *sig, *desc;
	char *why = NULL;
	size_t siglen;

	save_key(k, root, "k", &priv, &pubpath);
	pub = load_pub(pubpath);
	desc = fa_key_describe(pub);
	assert_non_null(desc);
	assert_true(strncmp(desc, desc_prefix, strlen(desc_prefix)) == 0);
	free(desc);

	/* Good: no problem, both files counted, nothing uncovered. */
	a = signed_dir(root, "a", priv, "alpha\n");
	expect_sums(a, "alpha\n");
	p = verify(a, pub, &v);
	assert_string_equal(p, "");
	assert_int_equal(v.nfiles, 2);
	assert_int_equal(v.uncovered.n, 0);
	free(p);
	fa_verify_free(&v);

	/* A file no SHA256SUMS lists is named, and is not a failure. */
	put(a, "notes", "x");
	p = verify(a, pub, &v);
	assert_string_equal(p, "");
	assert_int_equal(v.uncovered.n, 1);
	assert_string_equal(v.uncovered.v[0], "notes");
	free(p);
	fa_verify_free(&v);

	/* A changed byte. */
	put(a, "report.txt", "alphA\n");
	p = verify(a, pub, &v);
	assert_non_null(strstr(p, "report.txt: changed (sha256 "));
	assert_int_equal(v.problems.n, 1);
	free(p);
	fa_verify_free(&v);
	put(a, "report.txt", "alpha\n");

	/* A missing file. */
	p = path_in(a, "report.json");
	assert_int_equal(unlink(p), 0);
	free(p);
	p = verify(a, pub, &v);
	assert_string_equal(p, "report.json: missing\n");
	free(p);
	fa_verify_free(&v);
	put(a, "report.json", "{\"schema\":\"fabaudit-report/1\"}\n");

	/* Not a regular file: a symlink to the real one. */
	p = path_in(a, "report.txt");
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("notes", p), 0);
	free(p);
	p = verify(a, pub, &v);
	assert_string_equal(p, "report.txt: not a regular file\n");
	free(p);
	fa_verify_free(&v);
	p = path_in(a, "report.txt");
	assert_int_equal(unlink(p), 0);
	free(p);
	put(a, "report.txt", "alpha\n");

	/* A signature over other sums, by the same key. */
	b = signed_dir(root, "b", priv, "beta\n");
	sig = get(b, FA_SIG_NAME, &siglen);
	put_bytes(a, FA_SIG_NAME, sig, siglen);
	free(sig);
	p = verify(a, pub, &v);
	assert_string_equal(p, "SHA256SUMS.sig: bad signature: SHA256SUMS "
	    "was changed, or signed with another key\n");
	free(p);
	fa_verify_free(&v);

	/* Without a key the sums alone still pass: not a signature check. */
	p = verify(a, NULL, &v);
	assert_string_equal(p, "");
	free(p);
	fa_verify_free(&v);

	/* A truncated signature. */
	sig = get(b, FA_SIG_NAME, &siglen);
	put_bytes(b, FA_SIG_NAME, sig, siglen - 1);
	p = verify(b, pub, &v);
	assert_non_null(strstr(p, "SHA256SUMS.sig: bad signature"));
	free(p);
	fa_verify_free(&v);
	free(sig);

	/* A missing signature. */
	p = path_in(b, FA_SIG_NAME);
	assert_int_equal(unlink(p), 0);
	free(p);
	p = verify(b, pub, &v);
	assert_string_equal(p, "SHA256SUMS.sig: missing: SHA256SUMS is not "
	    "signed\n");
	free(p);
	fa_verify_free(&v);

	/* The right signature, checked with another key. */
	a = (free(a), signed_dir(root, "c", priv, "gamma\n"));
	assert_int_equal(fa_keygen("ed25519", &other, &why), 0);
	save_key(other, root, "other", &opriv, &opub);
	EVP_PKEY_free(other);
	other = load_pub(opub);
	p = verify(a, other, &v);
	assert_non_null(strstr(p, "SHA256SUMS.sig: bad signature"));
	free(p);
	fa_verify_free(&v);
	p = verify(a, pub, &v);
	assert_string_equal(p, "");
	free(p);
	fa_verify_free(&v);

	/* Signing again without a key drops the stale signature. */
	p = path_in(a, FA_SIG_NAME);
	assert_int_equal(access(p, F_OK), 0);
	{
		static const char *const one[] = { "report.txt" };

		assert_int_equal(sign_dir(a, one, 1, NULL, &why), 0);
	}
	assert_int_equal(access(p, F_OK), -1);
	free(p);

	EVP_PKEY_free(other);
	EVP_PKEY_free(pub);
	free(a);
	free(b);
	free(priv);
	free(pubpath);
	free(opriv);
	free(opub);
}

static void
test_ed25519(void **state)
{
	struct tdir *t = *state;
	EVP_PKEY *k = NULL;
	char *why = NULL;

	assert_int_equal(fa_keygen("ed25519", &k, &why), 0);
	round_trip(t->root, k, "Ed25519 key SHA256:");
	EVP_PKEY_free(k);
}

static void
test_rsa(void **state)
{
	struct tdir *t = *state;
	EVP_PKEY *k = NULL;
	char *why = NULL;

	assert_int_equal(fa_keygen("rsa", &k, &why), 0);
	assert_int_equal(EVP_PKEY_get_bits(k), 3072);
	round_trip(t->root, k, "RSA-3072 key SHA256:");
	EVP_PKEY_free(k);
}

static void
test_ecdsa(void **state)
{
	struct tdir *t = *state;
	EVP_PKEY *k = NULL;
	char *why = NULL;

	assert_int_equal(fa_keygen("ecdsa", &k, &why), 0);
	round_trip(t->root, k, "ECDSA P-256 key SHA256:");
	EVP_PKEY_free(k);
}

static void
test_ecdsa_p384_ed448(void **state)
{
	struct tdir *t = *state;
	EVP_PKEY *k;
	char *d;

	k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-384");
	assert_non_null(k);
	d = subdir(t->root, "p384");
	round_trip(d, k, "ECDSA P-384 key SHA256:");
	EVP_PKEY_free(k);
	free(d);
	k = EVP_PKEY_Q_keygen(NULL, NULL, "ED448");
	assert_non_null(k);
	d = subdir(t->root, "ed448");
	round_trip(d, k, "Ed448 key SHA256:");
	EVP_PKEY_free(k);
	free(d);
}

/* The fingerprint is SHA-256 of the DER SubjectPublicKeyInfo. */
static void
test_fingerprint(void **state)
{
	EVP_PKEY *k = NULL;
	unsigned char *der = NULL;
	char *why = NULL, fp[65], want[65];
	int len;

	(void)state;
	assert_int_equal(fa_keygen("ed25519", &k, &why), 0);
	len = i2d_PUBKEY(k, &der);
	assert_int_equal(len, 44);	/* RFC 8410: 12-byte prefix + 32 */
	assert_int_equal(fa_sha256_hex(der, (size_t)len, want), 0);
	assert_int_equal(fa_key_fingerprint(k, fp), 0);
	assert_string_equal(fp, want);
	OPENSSL_free(der);
	EVP_PKEY_free(k);
}

static void
test_odd_names(void **state)
{
	static const char *const bad[] = {
		"", "../x", "a/b", "/etc/passwd", ".hidden", ".", "..",
		"SHA256SUMS", "SHA256SUMS.sig", "x y", "x\\y", "x\n", "x\t",
		"caf\xc3\xa9", "x\x7f",
	};
	struct tdir *t = *state;
	const char *one[1];
	char *why, *p, longname[300];
	size_t i;

	put(t->root, "ok", "x");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(fa_sign_name_ok(bad[i]));
		one[0] = bad[i];
		why = NULL;
		assert_int_equal(sign_dir(t->root, one, 1, NULL, &why),
		    FA_ERR_INPUT);
		assert_non_null(why);
		assert_non_null(strstr(why, "not a plain file name"));
		free(why);
	}
	memset(longname, 'a', 256);
	longname[256] = '\0';
	assert_false(fa_sign_name_ok(longname));
	longname[255] = '\0';
	assert_true(fa_sign_name_ok(longname));
	assert_true(fa_sign_name_ok("report.json"));
	assert_true(fa_sign_name_ok("a..b"));
	/* Nothing was written for the refused names. */
	p = path_in(t->root, FA_SUMS_NAME);
	assert_int_equal(access(p, F_OK), -1);
	free(p);

	/* Twice the same name; a name that is absent; a directory. */
	{
		static const char *const twice[] = { "ok", "ok" };
		static const char *const absent[] = { "ok", "nope" };
		static const char *const dir[] = { "sub" };

		why = NULL;
		assert_int_equal(sign_dir(t->root, twice, 2, NULL, &why),
		    FA_ERR_INPUT);
		assert_string_equal(why, "ok: listed twice");
		free(why);
		why = NULL;
		assert_int_equal(sign_dir(t->root, absent, 2, NULL,
		    &why), FA_ERR_NOTFOUND);
		assert_non_null(strstr(why, "/nope: missing"));
		free(why);
		free(subdir(t->root, "sub"));
		why = NULL;
		assert_int_equal(sign_dir(t->root, dir, 1, NULL, &why),
		    FA_ERR_INPUT);
		assert_non_null(strstr(why, "/sub: not a regular file"));
		free(why);
	}
	p = path_in(t->root, FA_SUMS_NAME);
	assert_int_equal(access(p, F_OK), -1);
	free(p);
}

/* fa_sums_parse must refuse text with exactly the message want. */
static void
sums_bad(const char *text, size_t len, const char *want)
{
	struct fa_sums s;
	char *why = NULL;

	assert_int_not_equal(fa_sums_parse(text, len, "S", &s, &why), 0);
	assert_non_null(why);
	assert_string_equal(why, want);
	assert_int_equal(s.n, 0);
	assert_null(s.v);
	free(why);
}

#define H	"0123456789abcdef0123456789abcdef" \
		"0123456789abcdef0123456789abcdef"
#define BAD(lit, want)	sums_bad(lit, sizeof(lit) - 1, want)

static void
test_sums_hostile(void **state)
{
	static const char fmt[] = "S:1: not \"<64 lower-case hex digits>  "
	    "<file name>\"";
	struct fa_sums s;
	char *why = NULL, *big;
	size_t i, len;

	(void)state;
	assert_int_equal(fa_sums_parse(H "  a\n" H "  b", strlen(H "  a\n"
	    H "  b"), "S", &s, &why), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.v[1].name, "b");
	assert_string_equal(s.v[0].hex, H);
	fa_sums_free(&s);

	BAD("", "S: no entries");
	BAD("\n", fmt);
	BAD(H " a\n", fmt);					/* one space */
	BAD(H " *a\n", fmt);					/* binary */
	BAD(H "\ta\n", fmt);
	BAD(H "  \n", fmt);					/* no name */
	BAD("0123  a\n", fmt);					/* short */
	BAD("0123456789ABCDEF0123456789abcdef0123456789abcdef"
	    "0123456789abcdef  a\n", fmt);			/* upper */
	BAD("g123456789abcdef0123456789abcdef0123456789abcdef"
	    "0123456789abcdef  a\n", fmt);
	BAD("\\" H "  a\\nb\n", fmt);		/* sha256sum's escaping */
	BAD(H "  ../../etc/shadow\n", "S:1: \"../../etc/shadow\" is not a "
	    "plain file name (printable ASCII without space, '/' or '\\', "
	    "not starting with '.')");
	BAD(H "  a\r\n", "S:1: \"a\\x0d\" is not a plain file name "
	    "(printable ASCII without space, '/' or '\\', not starting with "
	    "'.')");
	BAD(H "  a\n" H "  .\n", "S:2: \".\" is not a plain file name "
	    "(printable ASCII without space, '/' or '\\', not starting with "
	    "'.')");
	BAD(H "  a\n" H "  SHA256SUMS.sig", "S:2: \"SHA256SUMS.sig\" is not "
	    "a plain file name (printable ASCII without space, '/' or '\\', "
	    "not starting with '.')");
	BAD(H "  a\n" H "  b\n" H "  a\n", "S:3: a listed twice");
	BAD(H "  a\n" H "  b\0c\n", "S:2: a NUL byte");
	BAD(H "  a\n\n" H "  b\n", "S:2: not \"<64 lower-case hex digits>  "
	    "<file name>\"");

	/* An escape sequence in a name is shown escaped, not sent. */
	BAD(H "  \x1b[2Jx\n", "S:1: \"\\x1b[2Jx\" is not a plain file name "
	    "(printable ASCII without space, '/' or '\\', not starting with "
	    "'.')");

	/* Too many entries. */
	len = (size_t)(FA_SUMS_MAX_ENTRIES + 1) * 73;
	big = malloc(len + 1);
	assert_non_null(big);
	for (i = 0; i <= FA_SUMS_MAX_ENTRIES; i++)
		snprintf(big + i * 73, 74, H "  f%05zu\n", i);
	assert_int_equal(fa_sums_parse(big, len, "S", &s, &why),
	    FA_ERR_TOOBIG);
	assert_string_equal(why, "S:4097: more than 4096 entries");
	free(why);
	free(big);
}

/* A malformed, absent or oversized SHA256SUMS is an input error. */
static void
test_verify_input_errors(void **state)
{
	struct tdir *t = *state;
	struct fa_verify v;
	char *why = NULL, *d, *big;

	d = subdir(t->root, "d");
	memset(&v, 0, sizeof(v));
	assert_int_equal(fa_verify_outdir(d, NULL, &v, &why),
	    FA_ERR_NOTFOUND);
	assert_non_null(strstr(why, "/d/SHA256SUMS: missing"));
	free(why);
	put(d, "SHA256SUMS", H "  a\nxyz\n");
	why = NULL;
	assert_int_equal(fa_verify_outdir(d, NULL, &v, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "/d/SHA256SUMS:2: not \"<64"));
	free(why);
	big = calloc(1, FA_SUMS_MAX_BYTES + 2);
	assert_non_null(big);
	memset(big, 'a', FA_SUMS_MAX_BYTES + 1);
	put(d, "SHA256SUMS", big);
	free(big);
	why = NULL;
	assert_int_equal(fa_verify_outdir(d, NULL, &v, &why), FA_ERR_TOOBIG);
	assert_non_null(strstr(why, "SHA256SUMS: larger than 1048576 bytes"));
	free(why);
	why = NULL;
	assert_int_equal(fa_verify_outdir("/nonexistent/x", NULL, &v, &why),
	    FA_ERR_IO);
	assert_non_null(why);
	free(why);
	assert_int_equal(v.problems.n, 0);
	fa_verify_free(&v);
	free(d);
}

/* A DSA key with 1024-bit parameters (quick to make). */
static EVP_PKEY *
dsa_key(void)
{
	EVP_PKEY_CTX *pc, *kc;
	EVP_PKEY *params = NULL, *k = NULL;

	pc = EVP_PKEY_CTX_new_from_name(NULL, "DSA", NULL);
	assert_non_null(pc);
	assert_int_equal(EVP_PKEY_paramgen_init(pc), 1);
	assert_int_equal(EVP_PKEY_CTX_set_dsa_paramgen_bits(pc, 1024), 1);
	assert_int_equal(EVP_PKEY_paramgen(pc, &params), 1);
	kc = EVP_PKEY_CTX_new_from_pkey(NULL, params, NULL);
	assert_non_null(kc);
	assert_int_equal(EVP_PKEY_keygen_init(kc), 1);
	assert_int_equal(EVP_PKEY_keygen(kc, &k), 1);
	EVP_PKEY_CTX_free(kc);
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(params);
	return k;
}

/* The key must be refused, at load and at signing, with reason want. */
static void
key_refused(const char *root, EVP_PKEY *k, const char *want)
{
	static const char *const one[] = { "ok" };
	EVP_PKEY *got = (EVP_PKEY *)1;
	unsigned char *sig = NULL;
	char *why = NULL, *priv, *pub;
	size_t siglen = 0;

	assert_int_equal(fa_key_supported(k, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, want));
	free(why);
	why = NULL;
	assert_int_equal(fa_sign_buf(k, "x", 1, &sig, &siglen, &why),
	    FA_ERR_INPUT);
	assert_null(sig);
	free(why);
	save_key(k, root, "bad", &priv, &pub);
	why = NULL;
	assert_int_equal(fa_key_load_public(pub, &got, &why), FA_ERR_INPUT);
	assert_null(got);
	assert_non_null(strstr(why, want));
	free(why);
	why = NULL;
	put(root, "ok", "x");
	assert_int_equal(sign_dir(root, one, 1, priv, &why),
	    FA_ERR_INPUT);
	assert_non_null(strstr(why, want));
	assert_non_null(strstr(why, "bad.pem: "));
	free(why);
	free(priv);
	free(pub);
}

static void
test_refused_keys(void **state)
{
	struct tdir *t = *state;
	EVP_PKEY *k;

	k = dsa_key();
	key_refused(t->root, k, "DSA key: DSA is no longer approved");
	EVP_PKEY_free(k);
	k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)1024);
	assert_non_null(k);
	key_refused(t->root, k, "RSA key of 1024 bits: at least 2048");
	EVP_PKEY_free(k);
	k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "secp256k1");
	assert_non_null(k);
	key_refused(t->root, k, "EC key on an unsupported curve");
	EVP_PKEY_free(k);
	k = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
	assert_non_null(k);
	key_refused(t->root, k, "X25519 key: not a signing key");
	EVP_PKEY_free(k);
}

static void
test_key_files(void **state)
{
	struct tdir *t = *state;
	EVP_PKEY *k = NULL, *got = NULL;
	BIO *b;
	char *why = NULL, *priv, *pub, *p;
	long n;
	char *data;

	assert_int_equal(fa_keygen("ed25519", &k, &why), 0);
	save_key(k, t->root, "k", &priv, &pub);
	/* A private key where a public one is expected, and the reverse. */
	assert_int_equal(fa_key_load_public(priv, &got, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "not a PEM public key"));
	free(why);
	why = NULL;
	assert_int_equal(fa_key_load_private(pub, &got, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "not a PEM private key"));
	free(why);
	/* An encrypted key is refused, without a prompt. */
	b = BIO_new(BIO_s_mem());
	assert_non_null(b);
	assert_int_equal(PEM_write_bio_PKCS8PrivateKey(b, k,
	    EVP_aes_256_cbc(), "pass", 4, NULL, NULL), 1);
	n = BIO_get_mem_data(b, &data);
	put_bytes(t->root, "enc.pem", data, (size_t)n);
	BIO_free(b);
	p = path_in(t->root, "enc.pem");
	why = NULL;
	assert_int_equal(fa_key_load_private(p, &got, &why), FA_ERR_INPUT);
	assert_non_null(strstr(why, "the key is encrypted"));
	free(why);
	free(p);
	/* Absent, and too large. */
	why = NULL;
	assert_int_equal(fa_key_load_private("/nonexistent", &got, &why),
	    FA_ERR_NOTFOUND);
	assert_string_equal(why, "/nonexistent: missing");
	free(why);
	p = calloc(1, FA_KEY_MAX_BYTES + 2);
	memset(p, '-', FA_KEY_MAX_BYTES + 1);
	put(t->root, "huge.pem", p);
	free(p);
	p = path_in(t->root, "huge.pem");
	why = NULL;
	assert_int_equal(fa_key_load_private(p, &got, &why), FA_ERR_TOOBIG);
	free(why);
	free(p);
	assert_null(got);
	why = NULL;
	assert_int_equal(fa_keygen("dsa", &got, &why), FA_ERR_INPUT);
	free(why);
	EVP_PKEY_free(k);
	free(priv);
	free(pub);
}

/* ---- the history chain ---- */

/* A run directory holding report.json with "previous" set to prev. */
static void
run(const char *hist, const char *name, const char *prev_hex, char hex[65])
{
	char *d = subdir(hist, name), *text;

	text = prev_hex == NULL ? fa_strfmt("{\"run\":\"%s\"}\n", name) :
	    fa_strfmt("{\"run\":\"%s\",\"previous\":{\"file\":\"../x/"
	    "report.json\",\"sha256\":\"%s\"}}\n", name, prev_hex);
	put(d, "report.json", text);
	assert_int_equal(fa_sha256_hex(text, strlen(text), hex), 0);
	free(text);
	free(d);
}

static void run_put(const char *dir, const char *prev_hex,
    const char *want_hex);

static char *
chain(const char *hist, EVP_PKEY *pub, struct fa_verify *v, int want_r)
{
	char *why = NULL, *all = fa_strdup(""), *n;
	size_t i;

	memset(v, 0, sizeof(*v));
	assert_int_equal(fa_verify_chain(hist, pub, v, &why), want_r);
	if (want_r != 0) {
		free(all);
		return why;
	}
	for (i = 0; i < v->problems.n; i++) {
		n = fa_strfmt("%s%s\n", all, v->problems.v[i]);
		free(all);
		all = n;
	}
	return all;
}

static void
test_chain(void **state)
{
	struct tdir *t = *state;
	struct fa_verify v;
	char *h = subdir(t->root, "hist"), *p, *q, h1[65], h2[65], h3[65];
	char h4[65], h5[65], junk[65];

	p = chain(h, NULL, &v, FA_ERR_NOTFOUND);
	assert_non_null(strstr(p, "no runs"));
	free(p);

	/* The first run names a pruned predecessor.  "-2" sorts before
	 * "-10" (numerically), and both after the bare stamp. */
	run(h, "20261202T100000Z", "00", h1);
	run(h, "20261202T100000Z-2", h1, h2);
	run(h, "20261202T100000Z-10", h2, h3);
	run(h, "20261203T000000Z", h3, h4);
	run(h, "20261204T000000Z", h4, h5);
	/* Ignored: the latest link, the lock, names not of a run. */
	p = path_in(h, "latest");
	assert_int_equal(symlink("20261204T000000Z", p), 0);
	free(p);
	put(h, ".lock", "");
	free(subdir(h, "20261204T000000"));
	free(subdir(h, "20261204T000000Z-0"));
	free(subdir(h, "x20261204T000000Z"));
	run(h, "notes", NULL, junk);

	p = chain(h, NULL, &v, 0);
	assert_string_equal(p, "");
	assert_int_equal(v.nruns, 5);
	assert_true(v.pred_pruned);
	assert_string_equal(v.first, "20261202T100000Z");
	assert_string_equal(v.last, "20261204T000000Z");
	assert_string_equal(v.head, h5);
	free(p);
	fa_verify_free(&v);

	/* Alter the middle report: the next run's link breaks. */
	q = fa_strfmt("%s/20261202T100000Z-10", h);
	p = fa_strfmt("{\"run\":\"forged\",\"previous\":{\"sha256\":"
	    "\"%s\"}}\n", h2);
	put(q, "report.json", p);
	assert_int_equal(fa_sha256_hex(p, strlen(p), junk), 0);
	free(p);
	p = chain(h, NULL, &v, 0);
	free(p);
	assert_int_equal(v.problems.n, 1);
	p = fa_strfmt("20261203T000000Z: chain broken: previous.sha256 is %s, "
	    "expected %s (sha256 of 20261202T100000Z-10/report.json)", h3,
	    junk);
	assert_string_equal(v.problems.v[0], p);
	free(p);
	fa_verify_free(&v);
	run_put(q, h2, h3);

	/* A later run without "previous"; one whose sha256 is no string. */
	q = (free(q), fa_strfmt("%s/20261203T000000Z", h));
	put(q, "report.json", "{\"run\":1}");
	p = chain(h, NULL, &v, 0);
	free(p);
	assert_int_equal(v.problems.n, 2);
	p = fa_strfmt("20261203T000000Z: chain broken: report.json has no "
	    "\"previous\"; expected sha256 %s of 20261202T100000Z-10/"
	    "report.json", h3);
	assert_string_equal(v.problems.v[0], p);
	free(p);
	/* The next link is judged against the bytes as they are now. */
	assert_non_null(strstr(v.problems.v[1], "20261204T000000Z: chain "
	    "broken: previous.sha256 is "));
	fa_verify_free(&v);
	put(q, "report.json", "{\"previous\":{\"sha256\":7}}");
	p = chain(h, NULL, &v, 0);
	free(p);
	assert_non_null(strstr(v.problems.v[0], "20261203T000000Z: chain "
	    "broken: \"previous\" has no \"sha256\" string; expected "));
	fa_verify_free(&v);
	put(q, "report.json", "{\"previous\": \x1b");
	p = chain(h, NULL, &v, 0);
	free(p);
	assert_non_null(strstr(v.problems.v[0], "20261203T000000Z/report.json"
	    ": not valid JSON (line 1: "));
	fa_verify_free(&v);
	p = path_in(q, "report.json");
	assert_int_equal(unlink(p), 0);
	free(p);
	p = chain(h, NULL, &v, 0);
	free(p);
	assert_int_equal(v.problems.n, 1);
	assert_string_equal(v.problems.v[0], "20261203T000000Z/report.json: "
	    "missing");
	fa_verify_free(&v);
	run_put(q, h3, h4);

	/* Something named like a run that is no directory. */
	p = path_in(h, "20261205T000000Z");
	assert_int_equal(symlink("20261204T000000Z", p), 0);
	free(p);
	p = chain(h, NULL, &v, 0);
	free(p);
	assert_int_equal(v.problems.n, 1);
	assert_string_equal(v.problems.v[0], "20261205T000000Z: not a "
	    "directory");
	assert_string_equal(v.last, "20261204T000000Z");
	fa_verify_free(&v);
	p = path_in(h, "20261205T000000Z");
	assert_int_equal(unlink(p), 0);
	free(p);
	free(q);
	free(h);
}

/* Rewrite dir/report.json as run() made it, checking its hash. */
static void
run_put(const char *dir, const char *prev_hex, const char *want_hex)
{
	const char *name = strrchr(dir, '/') + 1;
	char *text, hex[65];

	text = fa_strfmt("{\"run\":\"%s\",\"previous\":{\"file\":\"../x/"
	    "report.json\",\"sha256\":\"%s\"}}\n", name, prev_hex);
	put(dir, "report.json", text);
	assert_int_equal(fa_sha256_hex(text, strlen(text), hex), 0);
	assert_string_equal(hex, want_hex);
	free(text);
}

/* With a key, every run's SHA256SUMS is checked and must hold report.json. */
static void
test_chain_signed(void **state)
{
	static const char *const rep[] = { "report.json" };
	static const char *const other[] = { "other" };
	struct tdir *t = *state;
	struct fa_verify v;
	EVP_PKEY *k = NULL, *pub;
	char *h = subdir(t->root, "hist"), *priv, *pubpath, *d, *p, *why;
	char h1[65], h2[65], h3[65];

	assert_int_equal(fa_keygen("ed25519", &k, &why), 0);
	save_key(k, t->root, "k", &priv, &pubpath);
	pub = load_pub(pubpath);
	run(h, "20261201T000000Z", NULL, h1);
	run(h, "20261202T000000Z", h1, h2);
	run(h, "20261203T000000Z", h2, h3);
	d = fa_strfmt("%s/20261201T000000Z", h);
	assert_int_equal(sign_dir(d, rep, 1, priv, &why), 0);
	free(d);
	d = fa_strfmt("%s/20261202T000000Z", h);
	assert_int_equal(sign_dir(d, rep, 1, priv, &why), 0);
	free(d);
	d = fa_strfmt("%s/20261203T000000Z", h);

	/* The last run is not signed. */
	p = chain(h, pub, &v, 0);
	assert_string_equal(p, "20261203T000000Z/SHA256SUMS: missing: the "
	    "run is not signed\n");
	assert_false(v.pred_pruned);
	free(p);
	fa_verify_free(&v);

	/* Signed, but over another file. */
	put(d, "other", "x");
	assert_int_equal(sign_dir(d, other, 1, priv, &why), 0);
	p = chain(h, pub, &v, 0);
	assert_string_equal(p, "20261203T000000Z/report.json: not covered by "
	    "SHA256SUMS\n");
	assert_int_equal(v.uncovered.n, 1);
	assert_string_equal(v.uncovered.v[0], "20261203T000000Z/report.json");
	free(p);
	fa_verify_free(&v);

	/* All signed: 3 runs, 4 files. */
	assert_int_equal(sign_dir(d, (const char *const[]){ "report.json",
	    "other" }, 2, priv, &why), 0);
	p = chain(h, pub, &v, 0);
	assert_string_equal(p, "");
	assert_int_equal(v.nruns, 3);
	assert_int_equal(v.nfiles, 4);
	assert_string_equal(v.head, h3);
	free(p);
	fa_verify_free(&v);

	/* A forged run, its chain fixed up, but not signable. */
	put(d, "report.json", "{}");
	p = chain(h, pub, &v, 0);
	free(p);
	assert_int_equal(v.problems.n, 2);
	p = fa_strfmt("20261203T000000Z: chain broken: report.json has no "
	    "\"previous\"; expected sha256 %s of 20261202T000000Z/"
	    "report.json", h2);
	assert_string_equal(v.problems.v[0], p);
	free(p);
	assert_non_null(strstr(v.problems.v[1], "20261203T000000Z/report.json: "
	    "changed (sha256 "));
	fa_verify_free(&v);

	EVP_PKEY_free(k);
	EVP_PKEY_free(pub);
	free(priv);
	free(pubpath);
	free(d);
	free(h);
}

/* Files SHA256SUMS does not list: named, sorted, at most 1000. */
static void
test_uncovered(void **state)
{
	static const char *const one[] = { "z" };
	struct tdir *t = *state;
	struct fa_verify v;
	char *why = NULL, name[16], *p;
	int i;

	put(t->root, "z", "z");
	assert_int_equal(sign_dir(t->root, one, 1, NULL, &why), 0);
	/* A terminal escape in a name is shown escaped; sorted. */
	put(t->root, "\x1b]0;pwned\x07", "");
	put(t->root, ".hidden", "");
	p = verify(t->root, NULL, &v);
	assert_string_equal(p, "");
	free(p);
	assert_int_equal(v.uncovered.n, 2);
	assert_string_equal(v.uncovered.v[0], ".hidden");
	assert_string_equal(v.uncovered.v[1], "\\x1b]0;pwned\\x07");
	fa_verify_free(&v);
	for (i = 1001; i >= 0; i--) {
		snprintf(name, sizeof(name), "f%04d", i);
		put(t->root, name, "");
	}
	p = verify(t->root, NULL, &v);
	assert_string_equal(p, "");
	assert_int_equal(v.nfiles, 1);
	assert_int_equal(v.uncovered.n, 1001);
	assert_string_equal(v.uncovered.v[1000], "(4 more files)");
	for (i = 1; i < 1000; i++)
		assert_true(strcmp(v.uncovered.v[i - 1], v.uncovered.v[i]) <
		    0);
	free(p);
	fa_verify_free(&v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ed25519, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rsa, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ecdsa, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ecdsa_p384_ed448, setup,
		    teardown),
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test_setup_teardown(test_odd_names, setup,
		    teardown),
		cmocka_unit_test(test_sums_hostile),
		cmocka_unit_test_setup_teardown(test_uncovered, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_verify_input_errors,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_keys, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_key_files, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_chain_signed, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
