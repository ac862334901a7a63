/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Integrity of an output directory: SHA256SUMS over the files written and
 * a detached signature of SHA256SUMS (OpenSSL EVP: Ed25519, RSA, ECDSA),
 * their verification, the hash chain of a history directory, and key
 * generation.
 *
 * Signature schemes, chosen from the key type (all over the exact bytes of
 * SHA256SUMS; the .sig file holds the raw signature, no encoding):
 *   Ed25519, Ed448  pure EdDSA (RFC 8032), no pre-hash;
 *   RSA             RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017, 8.2),
 *                   at least 2048 bits;
 *   ECDSA           SHA-256, P-256, P-384 or P-521, DER-encoded
 *                   Ecdsa-Sig-Value (RFC 3279, 2.2.3).
 * Other key types (DSA, RSA-PSS-only keys, other curves, X25519...) are
 * refused with the reason.
 */
#ifndef FA_SIGN_H
#define FA_SIGN_H

#include <stddef.h>

#include <openssl/evp.h>

#define FA_SUMS_NAME		"SHA256SUMS"
#define FA_SIG_NAME		"SHA256SUMS.sig"
#define FA_SUMS_MAX_BYTES	(1024 * 1024)	/* larger SHA256SUMS refused */
#define FA_SUMS_MAX_ENTRIES	4096
#define FA_SIG_MAX_BYTES	4096	/* RSA-16384 needs 2048 */
#define FA_KEY_MAX_BYTES	(64 * 1024)	/* a PEM key file */

/*
 * Write SHA256SUMS ("HEX  NAME" lines, sha256sum(1) format, sorted by
 * name) over the n files names[] in the output set's directory, then,
 * when keypath is not NULL, SHA256SUMS.sig: the detached signature of
 * SHA256SUMS's bytes with the private key in keypath (PEM).  Both written
 * in the set (reports/report.h).  0 or FA_ERR_* with *why (a new string
 * naming the file at fault).
 */
struct fa_outset;
int fa_sign_outset(struct fa_outset *set, const char *const *names,
    size_t n, const char *keypath, char **why);

/*
 * 1 if name may be listed in SHA256SUMS: 1 to 255 printable ASCII bytes,
 * no '/' or '\\' (sha256sum(1) would escape it), not starting with '.',
 * and neither SHA256SUMS nor SHA256SUMS.sig.
 */
int fa_sign_name_ok(const char *name);

/*
 * Keys, from PEM files (read bounded).  A private key must be unencrypted
 * (PKCS#8 or traditional); a public key is SubjectPublicKeyInfo ("BEGIN
 * PUBLIC KEY").  Both are checked to be of a supported type.  0 with *out
 * (EVP_PKEY_free it) or FA_ERR_* with *why.
 */
int fa_key_load_private(const char *path, EVP_PKEY **out, char **why);
int fa_key_load_public(const char *path, EVP_PKEY **out, char **why);

/* 0 if k is a supported signing key, else FA_ERR_INPUT with *why. */
int fa_key_supported(EVP_PKEY *k, char **why);

/*
 * Lower-case hex SHA-256 of the DER SubjectPublicKeyInfo of k (what
 * `openssl pkey -pubin -outform DER | sha256sum` prints); 0 or FA_ERR_*.
 */
int fa_key_fingerprint(EVP_PKEY *k, char out[65]);

/* "Ed25519 key SHA256:<hex>", "RSA-3072 key ...", "ECDSA P-256 key ...";
 * NULL on ENOMEM. */
char *fa_key_describe(EVP_PKEY *k);

/*
 * A new key of type "ed25519", "rsa" (3072 bits) or "ecdsa" (P-256); 0
 * with *out or FA_ERR_* with *why.
 */
int fa_keygen(const char *type, EVP_PKEY **out, char **why);

/*
 * PEM text of k: the private key as unencrypted PKCS#8 ("BEGIN PRIVATE
 * KEY"; free it with fa_freezero(*buf, *len)), or the public key as
 * SubjectPublicKeyInfo.  0 with *buf (NUL-terminated) or FA_ERR_*.
 */
int fa_key_pem(EVP_PKEY *k, int private, char **buf, size_t *len,
    char **why);

/* Detached signature of msg with the scheme of k's type (see above). */
int fa_sign_buf(EVP_PKEY *k, const void *msg, size_t len,
    unsigned char **sig, size_t *siglen, char **why);
/* 1 if sig is k's valid signature of msg, 0 if not; never an error. */
int fa_verify_buf(EVP_PKEY *k, const void *msg, size_t len,
    const unsigned char *sig, size_t siglen);

/* A parsed SHA256SUMS. */
struct fa_sums_entry {
	char	 hex[65];
	char	*name;
};
struct fa_sums {
	struct fa_sums_entry	*v;
	size_t			 n;
	size_t			 cap;
};

/*
 * Parse SHA256SUMS text: each line exactly 64 lower-case hex digits, two
 * spaces and a name fa_sign_name_ok() accepts; no duplicate names; at
 * least one line.  label names the file in messages ("LABEL:LINE: ...").
 * 0 or FA_ERR_INPUT / FA_ERR_TOOBIG / FA_ERR_NOMEM with *why.
 */
int fa_sums_parse(const char *text, size_t len, const char *label,
    struct fa_sums *out, char **why);
void fa_sums_free(struct fa_sums *s);

/* Lines for the user, each already safe to print. */
struct fa_lines {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

/* The outcome of fa_verify_outdir() or fa_verify_chain(). */
struct fa_verify {
	size_t		 nfiles;	/* files checked against SHA256SUMS */
	size_t		 nruns;		/* chain: runs walked */
	int		 pred_pruned;	/* chain: first run has "previous" */
	char		*first;		/* chain: first run's name */
	char		*last;		/* chain: last run's name */
	char		 head[65];	/* chain: SHA-256 of last report.json */
	struct fa_lines	 problems;	/* failures: "NAME: what" */
	struct fa_lines	 uncovered;	/* not in SHA256SUMS (1000 named) */
};

/*
 * Check dir against dir/SHA256SUMS and, if pub is not NULL, SHA256SUMS
 * against dir/SHA256SUMS.sig.  Returns 0 when the check could be made (v
 * then lists every problem: a bad or missing signature, a changed,
 * missing or non-regular file; and the files not covered), or FA_ERR_*
 * with *why for input that cannot be checked: SHA256SUMS absent,
 * unreadable or malformed ("PATH:LINE: ..."), an unreadable file.
 * v must be zeroed before; free it with fa_verify_free().
 */
int fa_verify_outdir(const char *dir, EVP_PKEY *pub, struct fa_verify *v,
    char **why);

/*
 * Walk the runs of a history directory (subdirectories named
 * YYYYmmddTHHMMSSZ or YYYYmmddTHHMMSSZ-N, in time order; other entries are
 * ignored) and check that each run's report.json names the SHA-256 of the
 * previous run's report.json in "previous": {"sha256": ...}.  With pub,
 * also fa_verify_outdir() each run, whose SHA256SUMS must cover
 * report.json.  0 with v (problems prefixed by the run) or FA_ERR_* with
 * *why (no runs, unreadable directory or file).
 */
int fa_verify_chain(const char *dir, EVP_PKEY *pub, struct fa_verify *v,
    char **why);

void fa_verify_free(struct fa_verify *v);

/* What fa_verify_report() found. */
enum fa_sig_state {
	FA_SIG_GOOD,		/* signed by the key, digest listed and equal */
	FA_SIG_UNSIGNED,	/* no SHA256SUMS, or no SHA256SUMS.sig */
	FA_SIG_BAD		/* anything else: see *why */
};

/*
 * Is the file name in directory dir, whose bytes hash to hex (the caller
 * hashed what it read, so nothing can change between check and use),
 * certified by dir/SHA256SUMS and its signature dir/SHA256SUMS.sig under
 * pub?  Returns an fa_sig_state (*why: a new string saying what, for
 * UNSIGNED and BAD), or a negative FA_ERR_* (*why) when a file could not
 * be read for another reason than its absence.
 */
int fa_verify_report(const char *dir, const char *name, const char *hex,
    EVP_PKEY *pub, char **why);

#endif
