/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host collectors' common step: read one file through the sysroot,
 * decode it, and record one observation that is complete with the decoded
 * data, not_collected when the file does not exist, or error with the
 * reader's or decoder's reason.
 */
#ifndef FA_HOST_OBS_H
#define FA_HOST_OBS_H

#include <stddef.h>

#include <jansson.h>

#include "../core/snapshot.h"
#include "host_fs.h"

/*
 * A decoder: 0 with *out the data object of one observation, built
 * through the typed puts of core/obs_fields.h (fa_obs_built), or an
 * FA_ERR_* with *why.
 */
typedef int (*fa_host_decoder)(const char *text, size_t len, json_t **out,
    char **why);

/*
 * Read path (at most max bytes) and decode it into the data of a `kind`
 * observation targeted at path.  Returns 0 or FA_ERR_NOMEM.
 */
int fa_host_read_decode(const struct fa_sysroot *root,
    struct fa_snapshot *snap, const char *kind, const char *path,
    size_t max, fa_host_decoder decode);
#endif
