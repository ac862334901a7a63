/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: the tenant policy file, fabaudit.conf(5), as `scan -c`
 * and `check -c` read it and as `check` re-reads the copy embedded in a
 * snapshot: core/policy.c fa_policy_parse, then the classification
 * helpers the checks call (fa_policy_is_tenant / _is_provider with the
 * policy's own GUIDs and a NodeDescription taken from the input,
 * fa_cidr_any, fa_policy_severity, fa_policy_waiver).
 *
 * Input: the policy text.  Its waivers are dated against a fixed day.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/errors.h"
#include "../core/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fa_policy *p = NULL;
	char *errs = NULL, desc[64];
	size_t i, n;
	int r;

	r = fa_policy_parse("fuzz.conf", (const char *)data, size,
	    (time_t)1796200000, &p, &errs);
	if (r != 0) {
		/* Refused: nothing out, and a message unless out of memory. */
		if (p != NULL || (r != FA_ERR_NOMEM && errs == NULL))
			abort();
		free(errs);
		return 0;
	}
	if (errs != NULL || p == NULL)
		abort();
	/* The input's first bytes as a NodeDescription. */
	n = size < sizeof(desc) - 1 ? size : sizeof(desc) - 1;
	memcpy(desc, data, n);
	desc[n] = '\0';
	(void)fa_policy_is_tenant(p, 0, 0, desc);
	(void)fa_policy_is_provider(p, 0, 0, desc);
	for (i = 0; i < p->n_tenant_guid; i++)
		if (!fa_policy_is_tenant(p, p->tenant_guid[i].value, 0, NULL))
			abort();
	for (i = 0; i < p->n_provider_guid; i++)
		if (!fa_policy_is_provider(p, 0, p->provider_guid[i].value,
		    desc))
			abort();
	for (i = 0; i < p->n_sm_guid; i++)
		if (!fa_policy_is_provider(p, p->sm_guid[i].value, 0, NULL))
			abort();
	/* A network contains its own (host bits cleared) address. */
	for (i = 0; i < p->n_tenant_subnet; i++)
		if (!fa_cidr_any(p->tenant_subnet, p->n_tenant_subnet,
		    p->tenant_subnet[i].af, p->tenant_subnet[i].addr))
			abort();
	for (i = 0; i < p->n_mgmt_target; i++)
		if (!fa_cidr_contains(&p->mgmt_target[i].net,
		    p->mgmt_target[i].net.af, p->mgmt_target[i].net.addr))
			abort();
	/* The last severity line for a check wins. */
	if (p->n_severity > 0 && fa_policy_severity(p,
	    p->severity[p->n_severity - 1].check_id, FA_SEV_INFO) !=
	    p->severity[p->n_severity - 1].severity)
		abort();
	for (i = 0; i < p->n_waive; i++) {
		(void)fa_policy_waiver(p, p->waive[i].check_id, desc,
		    p->waive[i].expired);
		if (fa_policy_waiver(p, p->waive[i].check_id,
		    p->waive[i].target, p->waive[i].expired) == NULL &&
		    strpbrk(p->waive[i].target, "*?[\\") == NULL)
			abort();	/* a literal target matches itself */
	}
	fa_policy_free(p);
	return 0;
}
