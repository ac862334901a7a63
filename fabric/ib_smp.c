/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SMP Gets through the MAD engine, synchronous or as prepared requests,
 * the naming helpers every IB collector shares, and the recording of a
 * finished request as an observation.
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "../core/deadline.h"
#include "../core/errors.h"
#include "../core/util.h"
#include "ib_internal.h"

void
fa_ib_smp_req(struct fa_mad_req *r, const ib_portid_t *pid, unsigned attr,
    unsigned mod)
{
	memset(r, 0, sizeof(*r));
	r->dest = *pid;
	r->mgmt_class = pid->lid > 0 ? IB_SMI_CLASS : IB_SMI_DIRECT_CLASS;
	if (pid->lid <= 0)	/* pure DR: permissive DrSLID/DrDLID */
		r->dest.drpath.drslid = r->dest.drpath.drdlid = 0xffff;
	r->method = IB_MAD_METHOD_GET;
	r->attr = attr;
	r->mod = mod;
	r->key = 0;		/* M_Key 0: we hold no key */
}

enum fa_smp_outcome
fa_ib_smp_get(struct fa_ib *ib, ib_portid_t *pid, unsigned attr,
    unsigned mod, uint8_t data[IB_SMP_DATA_SIZE], unsigned *status, int once)
{
	struct fa_mad_req r;

	memset(data, 0, IB_SMP_DATA_SIZE);
	fa_ib_smp_req(&r, pid, attr, mod);
	r.once = once;
	*status = 0;
	(void)fa_mad_call(ib->mad, &r);	/* failures end as SEND_ERROR */
	*status = r.status & 0x7fff;
	switch (r.outcome) {
	case FA_MAD_ANSWERED:
		memcpy(data, fa_mad_data(&r), IB_SMP_DATA_SIZE);
		explicit_bzero(r.resp, sizeof(r.resp));
		return FA_SMP_ANSWERED;
	case FA_MAD_STATUS:
		return FA_SMP_STATUS;
	case FA_MAD_NO_RESPONSE:
		return FA_SMP_NO_RESPONSE;
	case FA_MAD_DEADLINE:
		return FA_SMP_CUT;
	default:
		return FA_SMP_ERROR;
	}
}

char *
fa_ib_cut_reason(void)
{
	return fa_strfmt("--max-time %u s reached before it was answered",
	    fa_deadline_seconds());
}

char *
fa_ib_smp_reason(enum fa_smp_outcome oc, unsigned status)
{
	switch (oc) {
	case FA_SMP_ANSWERED:
		return fa_strdup("answered");
	case FA_SMP_STATUS:
		return fa_strfmt("answered with MAD status 0x%04x", status);
	case FA_SMP_NO_RESPONSE:
		break;
	case FA_SMP_ERROR:
		return fa_strdup("the request could not be sent (local MAD "
		    "stack failure)");
	case FA_SMP_CUT:
		return fa_ib_cut_reason();
	}
	return fa_strdup("no response (timed out after retries)");
}

char *
fa_ib_target(int node_type, uint64_t node_guid, int port)
{
	char t = node_type == IB_NODE_SWITCH ? 'S' :
	    node_type == IB_NODE_ROUTER ? 'R' : 'H';

	return fa_strfmt("%c-0x%016llx/%d", t, (unsigned long long)node_guid,
	    port);
}

int
fa_ib_port_names(const ibnd_node_t *n, int port, char **target, char **desc)
{
	*target = fa_ib_target(n->type, n->guid, port);
	*desc = fa_str_sanitize(n->nodedesc, sizeof(n->nodedesc));
	if (*target == NULL || *desc == NULL) {
		free(*target);
		free(*desc);
		*target = *desc = NULL;
		return FA_ERR_NOMEM;
	}
	return 0;
}

enum fa_obs_state
fa_ib_req_state(const struct fa_mad_req *r)
{
	switch (r->outcome) {
	case FA_MAD_ANSWERED:
		return FA_OBS_COMPLETE;
	case FA_MAD_STATUS:
		return FA_OBS_REJECTED;
	case FA_MAD_NO_RESPONSE:
		return FA_OBS_NO_RESPONSE;
	case FA_MAD_DEADLINE:
		return FA_OBS_NOT_COLLECTED;
	default:
		return FA_OBS_ERROR;
	}
}

int
fa_ib_add_req_obs(struct fa_ib *ib, const char *kind, const char *target,
    const char *request, const struct fa_mad_req *r, struct fa_obs_build *b,
    const char *bad, int cut)
{
	enum fa_obs_state st;
	char *reason = NULL;
	json_t *d;
	int rc;

	switch ((st = fa_ib_req_state(r))) {
	case FA_OBS_COMPLETE:
		if (bad != NULL) {
			st = FA_OBS_ERROR;
			reason = fa_strfmt("malformed answer: %s", bad);
		} else if (cut) {
			st = FA_OBS_INCOMPLETE;
			reason = fa_strfmt("only the records in the first %u "
			    "bytes of the answer were read; more may exist (it "
			    "was longer, or filled a MAD without being marked "
			    "the last RMPP segment: a transport without RMPP "
			    "cuts there)", r->resp_len < IB_MAD_SIZE ?
			    r->resp_len : IB_MAD_SIZE);
		}
		break;
	case FA_OBS_REJECTED:
		reason = fa_strfmt("answered with MAD status 0x%04x", r->status);
		break;
	case FA_OBS_NO_RESPONSE:
		reason = fa_strfmt("no response after %u sends", r->sends);
		break;
	case FA_OBS_NOT_COLLECTED:
		reason = fa_ib_cut_reason();
		break;
	default:
		reason = fa_strdup("the request could not be sent");
		break;
	}
	d = fa_obs_built(b);
	if (d == NULL || (st != FA_OBS_COMPLETE && reason == NULL)) {
		json_decref(d);
		free(reason);
		return FA_ERR_NOMEM;
	}
	rc = fa_snapshot_add(ib->snap, FA_FAM_IB, NULL, kind, target, request,
	    st, reason, d, NULL);
	free(reason);
	return rc;
}
