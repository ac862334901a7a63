/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * For the Ethernet check tests: the one result of a check on a
 * hand-built snapshot, under a policy given as text.
 */
#ifndef FA_TEST_ETH_EVAL_ONE_H
#define FA_TEST_ETH_EVAL_ONE_H

#include <string.h>

#include "../../checks/check.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"

/* The status of c's one result on s (consumed), with needle (unless
 * NULL) in its reason. */
static enum fa_status
eth_eval_one(const struct fa_check *c, struct fa_snapshot *s,
    const char *policy, const char *needle)
{
	struct fa_policy *p = NULL;
	struct fa_eval_ctx ctx;
	struct fa_results r;
	enum fa_status st;
	char *errs = NULL;

	if (fa_policy_parse("t.conf", policy, strlen(policy), 0, &p,
	    &errs) != 0)
		fail_msg("policy rejected: %s", errs);
	ctx.snap = s;
	ctx.policy = p;
	memset(&r, 0, sizeof(r));
	assert_int_equal(c->eval(c, &ctx, &r), 0);
	assert_int_equal(r.n, 1);
	st = r.v[0].status;
	if (needle != NULL && strstr(r.v[0].reason, needle) == NULL)
		fail_msg("%s: '%s' not in '%s'", c->id, needle,
		    r.v[0].reason);
	fa_results_free(&r);
	fa_policy_free(p);
	fa_snapshot_free(s);
	return st;
}

#endif
