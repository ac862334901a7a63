/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The report model: what a check publishes (struct fa_check: its ID,
 * severity, texts, references and evaluation function) and the results
 * it adds (status, severity, target, reason, evidence, waiver).  checks/
 * makes results, reports/ renders them; both depend on this file, not on
 * each other.
 */
#ifndef FA_RESULT_H
#define FA_RESULT_H

#include <jansson.h>

#include "model.h"
#include "snapshot.h"

struct fa_results;
struct fa_eval_ctx;	/* checks/check.h */

struct fa_check {
	const char	*id;		/* stable contract, e.g. "IB-SMKEY-DISCLOSED" */
	enum fa_family	 family;
	enum fa_severity severity;	/* default; the policy may override */
	/*
	 * IB: the check reads what the SM or the SA answered, or takes an
	 * SA answer as the control that makes silence mean something.  An
	 * SA that stopped answering during the scan keeps such a check
	 * from passing (checks/evaluate.c); checks decided from SMPs alone
	 * are not touched by it.
	 */
	int		 reads_sm_sa;
	/*
	 * IB: decided from the tenant port and the SA's answers about that
	 * port alone, so a discovery that did not reach the whole fabric
	 * does not hold it back (checks/evaluate.c).
	 */
	int		 own_port_only;
	const char	*title;		/* one line */
	const char	*rationale;	/* why it matters */
	const char	*remediation;	/* what the provider must do */
	const char	*msa_clause;	/* contract text the buyer can paste */
	const char *const *refs;	/* NULL-terminated: IBA sections, URLs */
	/*
	 * What a scan sends to the fabric, wire or host to acquire the
	 * observations this check reads (or that it sends nothing), and when
	 * the check passes, fails, is not_tested or not_applicable.  Both
	 * are published in fabaudit-checks(7); a claim of "read-only" or
	 * "nothing sent" must be true of fabric/.
	 */
	const char	*sends;
	const char	*outcomes;
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
 * nothing was) in one line.  A result without a reason, or a pass without
 * evidence, is not made: an error result naming the bug is added instead.
 */
int fa_results_add(struct fa_results *r, const struct fa_check *c,
    enum fa_status st, const char *target, const char *target_name,
    json_t *evidence, const char *fmt, ...)
    __attribute__((__format__(__printf__, 7, 8)));
void fa_results_free(struct fa_results *r);	/* frees contents only */

/*
 * One check on one target is one result: results [from, n) of the same
 * check and target are folded into the first, in place.  The verdict
 * that stands is fail, else error, else not_tested, else pass, else
 * not_applicable; the evidence is both's; the reasons are joined (the
 * other verdict's said as "also STATUS: ...").  0 or FA_ERR_NOMEM.
 */
int fa_results_fold(struct fa_results *r, size_t from);

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

#endif
