/* SHA256SUMS and its signature: placeholder until the writer lands. */
#include "../core/errors.h"
#include "../core/util.h"
#include "sign.h"

int
fa_sign_outdir(const char *dir, const char *const *names, size_t n,
    const char *keypath, char **why)
{
	(void)dir;
	(void)names;
	(void)n;
	(void)keypath;
	*why = fa_strdup("signing is not implemented yet");
	return FA_ERR_INTERNAL;
}
