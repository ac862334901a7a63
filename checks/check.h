/* SPDX-License-Identifier: BSD-2-Clause */
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

/*
 * A reference to a ClusterMAX criterion, in the one form every check uses.
 * FA_REF_CMAX: a criterion of the security page, worded as published there.
 * FA_REF_CMAX_AUDIT: a criterion that SemiAnalysis's audit CLI (cmax)
 * grades, by its label and ID in cmax's criteria-checks.json.
 */
#define FA_CMAX_SECURITY_URL	"https://www.clustermax.ai/criteria/security"
#define FA_CMAX_VERSIONS_URL	"https://www.clustermax.ai/minimum-versions"
#define FA_CMAX_REPO_URL	"https://github.com/SemiAnalysisAI/ClusterMAX"
#define FA_REF_CMAX(criterion)						\
	"ClusterMAX security criteria: " criterion " ("			\
	FA_CMAX_SECURITY_URL ")"
#define FA_REF_CMAX_AUDIT(label, id, url)				\
	"ClusterMAX audit criteria: " label " (cmax " id "; " url ")"
/* The criteria the checks bear on (security page, fetched 2026). */
#define FA_CMAX_PKEYS	FA_REF_CMAX("PKeys set for InfiniBand tenants")
#define FA_CMAX_IB_KEYS							\
	FA_REF_CMAX("InfiniBand Security Keys Management (SMKey, SAKey, " \
	"CKey, VSKey)")
#define FA_CMAX_AM_KEY							\
	FA_REF_CMAX("AM Key configuration (if SHARP is available)")
#define FA_CMAX_UFM(item)						\
	FA_REF_CMAX("UFM \"Secured Bare Metal Cloud\" profile (" item ")")
#define FA_CMAX_UFM_KEY(key)						\
	FA_CMAX_UFM("full MAD key protection with randomized seeds: " key)
#define FA_CMAX_SRIOV							\
	FA_REF_CMAX("SR-IOV with QP0 & MAD disabled when passing Virtual " \
	"Function pointer into VM")
#define FA_CMAX_VLAN	FA_REF_CMAX("VLAN isolation between tenants for RoCE")
#define FA_CMAX_NOT_CONTAINERS						\
	FA_REF_CMAX("vCluster or similar isolation beyond container-based only")
#define FA_CMAX_ESCALATION						\
	FA_REF_CMAX("Protection against container escalation vulnerabilities")

struct fa_eval_ctx {
	const struct fa_snapshot *snap;
	const struct fa_policy	*policy;	/* never NULL (may be empty) */
};

struct fa_check {
	const char	*id;		/* stable contract, e.g. "IB-SMKEY-DISCLOSED" */
	enum fa_family	 family;
	enum fa_severity severity;	/* default; the policy may override */
	/*
	 * IB: the check reads what the SM or the SA answered, or takes an
	 * SA answer as the control that makes silence mean something.  An
	 * SA that stopped answering during the scan keeps such a check
	 * from passing (checks/results.c); checks decided from SMPs alone
	 * are not touched by it.
	 */
	int		 reads_sm_sa;
	/*
	 * IB: decided from the tenant port and the SA's answers about that
	 * port alone, so a discovery that did not reach the whole fabric
	 * does not hold it back (checks/results.c).
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
