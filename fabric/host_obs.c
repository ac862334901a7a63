/* SPDX-License-Identifier: BSD-2-Clause */
/* Read, decode, record: see host_obs.h. */
#include <stdlib.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "host_obs.h"

int
fa_host_read_decode(const struct fa_sysroot *root, struct fa_snapshot *snap,
    const char *kind, const char *path, size_t max, fa_host_decoder decode)
{
	enum fa_obs_state st = FA_OBS_COMPLETE;
	char *buf = NULL, *why = NULL, *reason = NULL;
	json_t *data = NULL;
	size_t len;
	int r;

	r = fa_sysroot_read(root, path, max, &buf, &len);
	if (r != 0 && r != FA_ERR_NOMEM &&
	    (why = fa_strdup(fa_sysroot_strerror(r))) == NULL)
		r = FA_ERR_NOMEM;
	if (r == 0)
		r = decode(buf, len, &data, &why);
	free(buf);
	if (r == FA_ERR_NOMEM) {
		free(why);
		return r;
	}
	if (r != 0) {
		st = r == FA_ERR_NOTFOUND ? FA_OBS_NOT_COLLECTED : FA_OBS_ERROR;
		reason = fa_strfmt("%s: %s", path, why != NULL ? why :
		    fa_strerror(r));
		free(why);
		if (reason == NULL)
			return FA_ERR_NOMEM;
	}
	r = fa_snapshot_add(snap, FA_FAM_HOST, NULL, kind, path, "read", st,
	    reason, data, NULL);
	free(reason);
	return r;
}
