/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HOST-TENANCY: bare metal, VM or container, and whether the physical host
 * may be shared.  A container shares its node's kernel with every other
 * container there; a VM shares its physical host with whatever else the
 * provider places on it, which nothing inside the VM can rule out.  Only
 * bare metal is evidence of a dedicated host.  The verdict is against the
 * policy's `dedicated_host yes`; without that promise the result states
 * what was found and is not_applicable.
 */
#include "../core/errors.h"
#include "host_checks.h"

static const char *const refs[] = {
	"NIST SP 800-190, Application Container Security Guide, 3.5 "
	    "(host OS risks: shared kernel)",
	"NIST SP 800-125A Rev. 1, Security Recommendations for Server-based "
	    "Hypervisor Platforms",
	"fabaudit.conf(5): dedicated_host",
	FA_CMAX_NOT_CONTAINERS,
	NULL
};

static int
eval(const struct fa_check *c, const struct fa_eval_ctx *ctx,
    struct fa_results *out)
{
	struct fa_host_env env;
	char what[256];
	int r, shared, known;

	if ((r = fa_check_family_gate(c, ctx, FA_FAM_HOST, out)) != 0)
		return r < 0 ? r : 0;
	if ((r = fa_host_env(ctx->snap, &env)) != 0)
		return r;
	fa_host_env_name(&env, what, sizeof(what));
	shared = env.container == 1 || env.vm == 1;
	known = shared || (env.container == 0 && env.vm == 0);
	if (ctx->policy->dedicated_host != 1)
		r = fa_results_add(out, c, FA_ST_NOT_APPLICABLE, "host", NULL,
		    json_incref(env.evidence), "the audited system is %s; the "
		    "policy does not promise a dedicated host (no "
		    "\"dedicated_host yes\" line). %s", what, env.account);
	else if (!known)
		r = fa_results_add(out, c, FA_ST_NOT_TESTED, "host", NULL,
		    json_incref(env.evidence), "the policy promises a "
		    "dedicated host but the evidence read cannot tell: %s. %s",
		    what, env.account);
	else if (shared)
		r = fa_results_add(out, c, FA_ST_FAIL, "host", NULL,
		    json_incref(env.evidence), "the policy promises a "
		    "dedicated host, but this is %s: the physical host may be "
		    "shared with other tenants. %s", what, env.account);
	else
		r = fa_results_add(out, c, FA_ST_PASS, "host", NULL,
		    json_incref(env.evidence), "bare metal, not a container: "
		    "consistent with the dedicated host the policy promises. "
		    "%s", env.account);
	fa_host_env_free(&env);
	return r < 0 ? r : 0;
}

const struct fa_check fa_chk_host_tenancy = {
	.id = "HOST-TENANCY",
	.family = FA_FAM_HOST,
	.severity = FA_SEV_HIGH,
	.title = "The host may be shared although a dedicated host was promised",
	.rationale =
	    "GPU driver and container-toolkit escapes are published about "
	    "monthly. A tenant that shares a kernel (containers) or a "
	    "physical host (VMs) with other customers is one escape away "
	    "from them; a dedicated bare-metal host removes that exposure.",
	.remediation =
	    "Run the Customer's workloads on bare-metal hosts allocated to "
	    "the Customer alone, or amend the agreement to state the "
	    "isolation actually provided (VM or container) and its controls.",
	.msa_clause =
	    "Provider shall run Customer workloads only on physical hosts "
	    "dedicated to Customer for the term of the Order, with no "
	    "virtual machine or container of any other customer on the same "
	    "host, and shall notify Customer before any change.",
	.refs = refs,
	.sends = FA_HOST_SENDS(FA_HOST_ENV_FILES),
	.outcomes =
	    "Fails when the policy promises a dedicated host (dedicated_host "
	    "yes) and the system is a container or a VM, whose physical host "
	    "may be shared. Passes when it promises one and the system is "
	    "bare metal. Not applicable without that promise; the result "
	    "still says what the system was found to be. Not tested when "
	    "the promise is made and the evidence cannot tell.",
	.eval = eval,
};
