/*
 * A check: metadata (data, always present) plus a pure evaluation function
 * (observations in, results out; no I/O, no globals).  One file per check,
 * one `const struct fa_check` per file, listed in registry.c.
 */
#ifndef FA_CHECK_H
#define FA_CHECK_H

#include <stdarg.h>

#include <jansson.h>

#include "../core/model.h"
#include "../core/policy.h"
#include "../core/snapshot.h"

struct fa_results;

struct fa_eval_ctx {
	const struct fa_snapshot *snap;
	const struct fa_policy	*policy;	/* never NULL (may be empty) */
};

struct fa_check {
	const char	*id;		/* stable contract, e.g. "IB-SMKEY-DISCLOSED" */
	enum fa_family	 family;
	enum fa_severity severity;	/* default; the policy may override */
	const char	*title;		/* one line */
	const char	*rationale;	/* why it matters */
	const char	*remediation;	/* what the provider must do */
	const char	*msa_clause;	/* contract text the buyer can paste */
	const char *const *refs;	/* NULL-terminated: IBA sections, URLs */
	/*
	 * Add one or more results to `out`.  Returns 0, or a negative FA_ERR_*
	 * for an internal failure (e.g. FA_ERR_NOMEM); data problems are
	 * results (not_tested / error), not return codes.
	 */
	int (*eval)(const struct fa_check *c, const struct fa_eval_ctx *ctx,
	    struct fa_results *out);
};

struct fa_result {
	const struct fa_check *check;
	enum fa_status	 status;
	enum fa_severity severity;	/* after policy overrides */
	char		*target;	/* stable, for waivers and baselines */
	char		*target_name;	/* human name (NodeDescription), or NULL */
	char		*reason;	/* one-line explanation of the status */
	json_t		*evidence;	/* array of {"observation","field","value"} */
	char		*waiver_reason;	/* non-NULL: a failure the policy waived */
	char		 waiver_expires[11];
	unsigned	 waiver_line;	/* policy line of the waiver */
	char		*expired_reason; /* non-NULL: a failure whose waiver
					    expired (it suppresses nothing) */
	char		 expired_on[11];
	unsigned	 expired_line;
};

struct fa_results {
	struct fa_result *v;
	size_t		 n;
	size_t		 cap;
};

/*
 * Append a result.  `evidence` is stolen (NULL: empty array) even on
 * failure.  The reason is formatted; it should say what was observed (or why
 * nothing was) in one line.
 */
int fa_results_add(struct fa_results *r, const struct fa_check *c,
    enum fa_status st, const char *target, const char *target_name,
    json_t *evidence, const char *fmt, ...)
    __attribute__((__format__(__printf__, 7, 8)));
void fa_results_free(struct fa_results *r);	/* frees contents only */

/* An evidence item {"observation": id, "field": f, "value": v(stolen)}. */
json_t *fa_evidence(const struct fa_obs *o, const char *field, json_t *v);
/* Append an item to an evidence array; steals item; 0 or FA_ERR_NOMEM. */
int fa_evidence_add(json_t *ev, json_t *item);

/*
 * For an observation that is not complete: not_tested when the world did
 * not let us see (no response, rejected, not collected), error when our
 * own probe or decode failed.  The reason is the observation's, or its
 * state name.
 */
enum fa_status fa_status_for_obs(const struct fa_obs *o);
const char *fa_obs_reason(const struct fa_obs *o);

/* The registry: every implemented check, NULL-terminated, in report order. */
extern const struct fa_check *const fa_checks[];
const struct fa_check *fa_check_find(const char *id);

/*
 * Evaluate every registered check against ctx, in registry order.
 * Applies policy severity overrides and marks failures the policy waives
 * (they stay in the results).  A check that adds no result gets a
 * not_tested one (fail-closed).  Returns 0 or a negative FA_ERR_*.
 */
int fa_evaluate(const struct fa_eval_ctx *ctx, struct fa_results *out);

/*
 * Common preamble for a check: if family `f` was not collected, add one
 * not_tested result saying why and return 1; otherwise 0 (or <0 on error).
 */
int fa_check_family_gate(const struct fa_check *c,
    const struct fa_eval_ctx *ctx, enum fa_family f, struct fa_results *out);

#endif
