/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dropping root (`fabaudit scan --user NAME`).  The process that talks to
 * the fabric and the wire, and parses what comes back, runs as NAME with
 * at most the capabilities it is given to keep: its credentials are
 * replaced whole (supplementary groups, then real, effective and saved
 * GID and UID), every other capability leaves the bounding, permitted,
 * effective, inheritable and ambient sets, and no_new_privs is set, so
 * that no execve() or set-user-ID file gives any of it back.  The drop is
 * then verified (setuid(0) must fail, the sets must hold nothing else).
 */
#ifndef FA_PRIVDROP_H
#define FA_PRIVDROP_H

#include <sys/types.h>

#include <sys/capability.h>

#define FA_PRIV_DEFAULT_USER	"nobody"

struct fa_priv_user {
	char	name[64];
	uid_t	uid;
	gid_t	gid;		/* the user's primary group */
};

/*
 * Look a user up by name (or a decimal UID).  0, FA_ERR_NOTFOUND (no such
 * user) or FA_ERR_INPUT (a name too long).
 */
int fa_priv_lookup(const char *name, struct fa_priv_user *u);

/*
 * Become u (which must not be root), keeping the `nkeep` capabilities of
 * `keep` permitted and effective (none: nkeep 0).  Needs root's
 * CAP_SETUID, CAP_SETGID and CAP_SETPCAP.  0, or FA_ERR_IO with *why (a
 * new string) naming the step that failed; the process must then not go
 * on, since it may be half dropped.
 */
int fa_priv_drop(const struct fa_priv_user *u, const cap_value_t *keep,
    int nkeep, char **why);

/*
 * Clear every capability still held (after the steps that needed them)
 * and verify.  0, or FA_ERR_IO with *why.
 */
int fa_priv_clear_caps(char **why);

#endif
