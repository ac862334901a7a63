/*
 * Integrity of an output directory: SHA256SUMS over the files written and
 * a detached signature of SHA256SUMS (OpenSSL EVP: Ed25519, RSA, ECDSA).
 */
#ifndef FA_SIGN_H
#define FA_SIGN_H

#include <stddef.h>

/*
 * Write dir/SHA256SUMS ("HEX  NAME" lines, sha256sum(1) format, sorted by
 * name) over the n files names[] in dir, then, when keypath is not NULL,
 * dir/SHA256SUMS.sig: the detached signature of SHA256SUMS's bytes with
 * the private key in keypath (PEM).  Both written atomically.  0 or
 * FA_ERR_* with *why (a new string naming the file at fault).
 */
int fa_sign_outdir(const char *dir, const char *const *names, size_t n,
    const char *keypath, char **why);

#endif
