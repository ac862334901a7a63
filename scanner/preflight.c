/*
 * Checks of inputs made before a command writes anything, so that a bad
 * one is a usage error (exit 2) with no report rather than a failure
 * after the report was written.
 */
#include <stdlib.h>

#include "../core/errors.h"
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
