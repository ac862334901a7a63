/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dropping root (see privdrop.h).  The order matters: the bounding set
 * needs CAP_SETPCAP and the group changes CAP_SETGID, both lost with the
 * UID; PR_SET_KEEPCAPS keeps the permitted set across setresuid() so
 * that the capabilities asked for can be made effective again, and is
 * reset at once (capabilities(7), "Effect of user ID changes on
 * capabilities"; prctl(2)).
 */
#include <sys/prctl.h>
#include <sys/types.h>

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/capability.h>

#include "errors.h"
#include "privdrop.h"
#include "util.h"

int
fa_priv_lookup(const char *name, struct fa_priv_user *u)
{
	const struct passwd *pw;
	uint64_t v;
	const char *err;

	if (name == NULL || *name == '\0' || strlen(name) >= sizeof(u->name))
		return FA_ERR_INPUT;
	errno = 0;
	if ((pw = getpwnam(name)) == NULL && fa_parse_u64(name, 0,
	    UINT_MAX - 1, &v, &err) == 0)
		pw = getpwuid((uid_t)v);
	if (pw == NULL)
		return FA_ERR_NOTFOUND;
	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "%s", name);
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	return 0;
}

static int
kept(cap_value_t c, const cap_value_t *keep, int nkeep)
{
	int i;

	for (i = 0; i < nkeep; i++)
		if (keep[i] == c)
			return 1;
	return 0;
}

/*
 * The process's sets hold nothing outside keep (the bounding set too if
 * `bound`: it can only shrink with CAP_SETPCAP, so after the drop it keeps
 * what was kept, harmless under no_new_privs).  0; FA_ERR_IO (errno kept)
 * if cap_get_proc(3) fails; FA_ERR_INTERNAL if a set holds more than keep
 * (the drop did not take).
 */
static int
verify_caps(const cap_value_t *keep, int nkeep, int bound)
{
	cap_flag_value_t v;
	cap_value_t c;
	cap_t cur;
	int bad = 0;

	if ((cur = cap_get_proc()) == NULL)
		return FA_ERR_IO;
	for (c = 0; c <= CAP_LAST_CAP && !bad; c++) {
		if (kept(c, keep, nkeep))
			continue;
		if (cap_get_flag(cur, c, CAP_PERMITTED, &v) != 0 || v ||
		    cap_get_flag(cur, c, CAP_EFFECTIVE, &v) != 0 || v ||
		    cap_get_flag(cur, c, CAP_INHERITABLE, &v) != 0 || v ||
		    (bound && CAP_IS_SUPPORTED(c) && cap_get_bound(c) > 0))
			bad = 1;
	}
	cap_free(cur);
	return bad ? FA_ERR_INTERNAL : 0;
}

/*
 * Permitted and effective: exactly keep; inheritable: none.  0;
 * FA_ERR_NOMEM; FA_ERR_INPUT if keep holds a capability libcap refuses;
 * FA_ERR_IO (errno kept) if cap_set_proc(3) fails.
 */
static int
set_caps(const cap_value_t *keep, int nkeep)
{
	cap_t c;
	int r;

	if ((c = cap_init()) == NULL)
		return FA_ERR_NOMEM;
	if (nkeep > 0 && (cap_set_flag(c, CAP_PERMITTED, nkeep, keep,
	    CAP_SET) != 0 || cap_set_flag(c, CAP_EFFECTIVE, nkeep, keep,
	    CAP_SET) != 0))
		r = FA_ERR_INPUT;
	else
		r = cap_set_proc(c) != 0 ? FA_ERR_IO : 0;
	cap_free(c);
	return r;
}

int
fa_priv_drop(const struct fa_priv_user *u, const cap_value_t *keep,
    int nkeep, char **why)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	cap_value_t c;
	const char *step;

	*why = NULL;
	if (u->uid == 0) {
		step = "the user to drop to is root";
		errno = EINVAL;
		goto fail;
	}
	step = "bounding set (PR_CAPBSET_DROP)";
	for (c = 0; c <= CAP_LAST_CAP; c++)
		if (!kept(c, keep, nkeep) && CAP_IS_SUPPORTED(c) &&
		    cap_drop_bound(c) != 0)
			goto fail;
	step = "ambient set";
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 &&
	    errno != EINVAL)	/* before Linux 4.3: no ambient set */
		goto fail;
	step = "initgroups";
	if (initgroups(u->name, u->gid) != 0 &&
	    setgroups(1, &u->gid) != 0)	/* a UID without a name */
		goto fail;
	step = "setresgid";
	if (setresgid(u->gid, u->gid, u->gid) != 0)
		goto fail;
	step = "PR_SET_KEEPCAPS";
	if (nkeep > 0 && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0)
		goto fail;
	step = "setresuid";
	if (setresuid(u->uid, u->uid, u->uid) != 0)
		goto fail;
	step = "PR_SET_KEEPCAPS";
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) != 0)
		goto fail;
	step = "capability sets";
	if (set_caps(keep, nkeep) != 0)
		goto fail;
	step = "PR_SET_NO_NEW_PRIVS";
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		goto fail;
	/* Verify: the IDs are u's, root cannot be had back, no stray
	 * capability is left anywhere. */
	step = "verification";
	errno = EPERM;
	if (getresuid(&ru, &eu, &su) != 0 || ru != u->uid || eu != u->uid ||
	    su != u->uid || getresgid(&rg, &eg, &sg) != 0 || rg != u->gid ||
	    eg != u->gid || sg != u->gid || setuid(0) == 0 || seteuid(0) == 0 ||
	    setgid(0) == 0 || verify_caps(keep, nkeep, 1) != 0 ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
		errno = EPERM;
		goto fail;
	}
	return 0;
fail:
	*why = fa_strfmt("cannot drop to user %s (%s): %s", u->name, step,
	    strerror(errno));
	return FA_ERR_IO;
}

int
fa_priv_clear_caps(char **why)
{
	*why = NULL;
	if (set_caps(NULL, 0) != 0 || verify_caps(NULL, 0, 0) != 0) {
		*why = fa_strfmt("cannot clear the capabilities kept: %s",
		    strerror(errno));
		return FA_ERR_IO;
	}
	return 0;
}
