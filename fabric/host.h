/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host and container acquisition: every collector of fabric/host_*.c run
 * against one sysroot, plus the CVE catalogue the *-VULN checks will match
 * against (embedded in the snapshot, so that `fabaudit check` re-evaluates
 * with the catalogue the scan used).  Nothing is executed and nothing is
 * written on the audited system.
 */
#ifndef FA_FABRIC_HOST_H
#define FA_FABRIC_HOST_H

#include <jansson.h>

#include "../core/snapshot.h"
#include "../core/obs_kinds.h"

struct fa_host_opts {
	const char	*sysroot;	/* "/" for the running system */
	const char	*cvedb_path;	/* where the catalogue came from */
	const json_t	*cvedb;		/* validated catalogue JSON, or NULL */
	const char	*cvedb_why;	/* why there is none (when NULL) */
};

/*
 * Collect the host family into snap and set its status: unavailable when
 * the sysroot cannot be opened (*why says why).  Returns 0 or a negative
 * FA_ERR_* for internal failures (out of memory).
 */
int fa_host_collect(const struct fa_host_opts *o, struct fa_snapshot *snap,
    char **why);

#endif
