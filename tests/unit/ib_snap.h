/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * For the IB check tests: building the text of IB observations as
 * fabric/ib_*.c writes them (the snapshot format of fabaudit check).
 * Each helper returns a string the caller frees; allocation failure
 * fails the test.
 */
#ifndef FA_TEST_IB_SNAP_H
#define FA_TEST_IB_SNAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../checks/check.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"

static char *xfmt(const char *fmt, ...)
    __attribute__((__format__(__printf__, 1, 2), __unused__));
static void sbf(char **sb, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3), __unused__));

/* printf into a new string. */
static char *
xfmt(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	assert_true(n >= 0);
	return s;
}

/* Append printf-style text to the string *sb (NULL: empty). */
static void
sbf(char **sb, const char *fmt, ...)
{
	va_list ap;
	char *add = NULL, *n = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&add, fmt, ap);
	va_end(ap);
	assert_true(r >= 0);
	assert_true(asprintf(&n, "%s%s", *sb != NULL ? *sb : "", add) >= 0);
	free(*sb);
	free(add);
	*sb = n;
}

/* One IB observation's JSON text; reason NULL: none. */
static __attribute__((__unused__)) char *
obs(const char *id, const char *kind, const char *target, const char *req,
    const char *state, const char *reason, const char *data)
{
	char *r = reason != NULL ? xfmt("\"%s\"", reason) : xfmt("null");
	char *o = xfmt("{\"id\":\"%s\",\"family\":\"ib\",\"kind\":\"%s\","
	    "\"target\":\"%s\",\"request\":\"%s\",\"state\":\"%s\","
	    "\"reason\":%s,\"data\":%s}", id, kind, target, req, state, r,
	    data);

	free(r);
	return o;
}

/*
 * Evaluate c on s (consumed) under the policy text ptext at time now;
 * its results in r (the caller frees them).  A policy refused or an
 * evaluation that fails fails the test.
 */
static __attribute__((__unused__)) void
ib_eval(const struct fa_check *c, struct fa_snapshot *s, const char *ptext,
    time_t now, struct fa_results *r)
{
	struct fa_policy *p = NULL;
	struct fa_eval_ctx ctx;
	char *errs = NULL;
	int rc;

	if (fa_policy_parse("t.conf", ptext, strlen(ptext), now, &p,
	    &errs) != 0)
		fail_msg("policy rejected: %s", errs != NULL ? errs : "?");
	ctx.snap = s;
	ctx.policy = p;
	memset(r, 0, sizeof(*r));
	rc = c->eval(c, &ctx, r);
	fa_policy_free(p);
	fa_snapshot_free(s);
	if (rc != 0) {
		fa_results_free(r);
		fail_msg("%s: eval returned %d", c->id, rc);
	}
}

#endif
