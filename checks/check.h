/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A check: metadata (data, always present) plus a pure evaluation function
 * (observations in, results out; no I/O, no globals).  One file per check
 * (or closely related group), each `const struct fa_check` listed in
 * registry.c.  The check and result types are the report model's, in
 * core/result.h: reports/ reads them without depending on checks/.
 */
#ifndef FA_CHECK_H
#define FA_CHECK_H

#include <stdarg.h>

#include <jansson.h>

#include "../core/model.h"
#include "../core/policy.h"
#include "../core/result.h"
#include "../core/snapshot.h"

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

/* Every check (core/checks.def): defined in its file under checks/. */
#define FA_CHECK(ID, SYMBOL)	extern const struct fa_check SYMBOL;
#include "../core/checks.def"

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
