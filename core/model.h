/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ordered enums of the result contract (design.md section 3) and their
 * string tables: family, status, severity.  Strings are contracts too: they
 * appear in report.json, in policy files and on the command line.
 */
#ifndef FA_MODEL_H
#define FA_MODEL_H

enum fa_family {
	FA_FAM_IB = 0,		/* InfiniBand fabric */
	FA_FAM_ETH,		/* Ethernet side */
	FA_FAM_HOST,		/* host and container */
	FA_FAM_MAX
};

/* What became of one observation's request (core/snapshot.h). */
enum fa_obs_state {
	FA_OBS_COMPLETE = 0,	/* asked, answered, decoded */
	FA_OBS_INCOMPLETE,	/* part of what was asked came back */
	FA_OBS_NO_RESPONSE,	/* asked; nothing came back within the budget */
	FA_OBS_REJECTED,	/* the peer answered with a non-zero status */
	FA_OBS_NOT_COLLECTED,	/* not asked: scope, permission, capability */
	FA_OBS_ERROR,		/* local failure: send, receive or decode */
	FA_OBS_MAX
};

enum fa_status {
	FA_ST_PASS = 0,		/* observed, and safe */
	FA_ST_FAIL,		/* observed, and unsafe */
	FA_ST_NOT_TESTED,	/* could not observe (scope, permission, timeout) */
	FA_ST_NOT_APPLICABLE,	/* the thing checked does not exist here */
	FA_ST_ERROR,		/* probe or parse failed */
	FA_ST_MAX
};

/* Ordered from most to least severe, so "at or above" is "<=". */
enum fa_severity {
	FA_SEV_CRITICAL = 0,
	FA_SEV_HIGH,
	FA_SEV_MEDIUM,
	FA_SEV_LOW,
	FA_SEV_INFO,
	FA_SEV_MAX
};

const char *fa_family_name(enum fa_family f);
const char *fa_status_name(enum fa_status s);
const char *fa_severity_name(enum fa_severity s);

/* Exact, case-sensitive lookups; return 0 or FA_ERR_NOTFOUND. */
int fa_family_parse(const char *s, enum fa_family *out);
int fa_status_parse(const char *s, enum fa_status *out);
int fa_severity_parse(const char *s, enum fa_severity *out);

/*
 * The check IDs this project has published (design.md section 6 and every ID
 * added since): the lines of core/checks.def.  IDs are contracts: never
 * renamed, never reused, never removed (tests/ids.frozen holds them all).
 */
int fa_check_id_known(const char *id);
/* Syntax only: FAMILY-WORD[-WORD...], upper case letters and digits. */
int fa_check_id_valid(const char *id);
extern const char *const fa_known_check_ids[];	/* NULL-terminated */

#endif
