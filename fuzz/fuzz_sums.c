/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: what `fabaudit verify` reads from an output directory
 * it is asked to trust: SHA256SUMS (reports/sign.c fa_sums_parse, whose
 * accepted entries must satisfy its contract: 64 lower-case hex digits, a
 * name fa_sign_name_ok accepts, no name twice) and SHA256SUMS.sig, the
 * same bytes taken as a signature (fa_verify_buf) under an Ed25519, an
 * ECDSA P-256 and an RSA key made once: OpenSSL's decoding of an
 * arbitrary signature, which must never verify.
 *
 * Input: the file's bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "../core/errors.h"
#include "../reports/sign.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const types[] = { "ed25519", "ecdsa", "rsa" };
static EVP_PKEY *keys[3];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char msg[] = "0123  report.json\n";
	struct fa_sums s;
	char *why = NULL;
	size_t i, j, k;
	int r;

	for (k = 0; k < 3; k++)
		if (keys[k] == NULL && fa_keygen(types[k], &keys[k], &why) != 0)
			abort();
	r = fa_sums_parse((const char *)data, size, "SHA256SUMS", &s, &why);
	if (r == 0) {
		if (why != NULL || s.n == 0)
			abort();
		for (i = 0; i < s.n; i++) {
			if (strlen(s.v[i].hex) != 64 ||
			    strspn(s.v[i].hex, "0123456789abcdef") != 64 ||
			    !fa_sign_name_ok(s.v[i].name))
				abort();
			for (j = 0; j < i; j++)
				if (strcmp(s.v[i].name, s.v[j].name) == 0)
					abort();
		}
		fa_sums_free(&s);
	} else {
		if (r != FA_ERR_NOMEM && why == NULL)
			abort();
		if (s.n != 0 || s.v != NULL)
			abort();	/* nothing kept */
		free(why);
	}
	for (k = 0; k < 3; k++)
		if (fa_verify_buf(keys[k], msg, strlen(msg), data, size) != 0)
			abort();
	return 0;
}
