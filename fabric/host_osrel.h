/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The distribution the host (or the sysroot) runs: /etc/os-release, else
 * /usr/lib/os-release (os-release(5)), read as data, never sourced by a
 * shell.  It decides which distribution's CVE data judges a package the
 * distribution built (checks/host_vuln_checks.c).
 */
#ifndef FA_HOST_OSREL_H
#define FA_HOST_OSREL_H

#include <stddef.h>

#include "../core/snapshot.h"
#include "host_fs.h"
#include "../core/obs_kinds.h"

struct fa_osrel {
	char	id[41];		/* ID: "debian", "ubuntu" ("" unknown) */
	char	version_id[41];	/* VERSION_ID: "12", "24.04" */
	char	codename[41];	/* VERSION_CODENAME: "bookworm", "noble" */
	char	id_like[81];	/* ID_LIKE, as written */
};

/*
 * Parse os-release text (at most len bytes): KEY=VALUE lines, VALUE bare
 * or in single or double quotes with the shell escapes \", \\, \$, \`
 * (os-release(5)); comments and blank lines skipped.  Values are kept only
 * when they are lower-case names ([a-z0-9._-], ID_LIKE also spaces);
 * anything else leaves the field "" and is counted in *bad.  0, or
 * FA_ERR_INPUT when a line is neither (the 1-based line in *bad_line).
 */
int fa_osrel_parse(const char *text, size_t len, struct fa_osrel *out,
    size_t *bad, size_t *bad_line);

/*
 * One "host.os" observation, target "os-release": complete with {"id",
 * "version_id", "codename", "id_like", "source"}, or not_collected/error
 * with the reason.  0 or FA_ERR_NOMEM.
 */
int fa_host_collect_osrel(const struct fa_sysroot *root,
    struct fa_snapshot *snap);
#endif
