/*
 * One SMP Get through libibmad, and the naming helpers every IB collector
 * shares.  This is the single place SMPs leave from, so that the pipelined
 * MAD engine can replace it without touching the collectors.
 *
 * libibmad's smp_query_status_via() returns NULL both for a timeout (MAD
 * status left 0) and for a GetResp with a non-zero status; the two differ
 * only in rstatus (libibmad rpc.c).  For directed-route SMPs the status is
 * 15 bits: bit 15 is the D (direction) bit (IBA vol. 1 14.2.1).
 */
#include <stdio.h>
#include <string.h>

#include "../core/util.h"
#include "ib_internal.h"

enum fa_smp_outcome
fa_ib_smp_get(struct fa_ib *ib, ib_portid_t *pid, unsigned attr,
    unsigned mod, uint8_t data[IB_SMP_DATA_SIZE], unsigned *status)
{
	int rstatus = 0;
	uint8_t *p;

	memset(data, 0, IB_SMP_DATA_SIZE);
	ib->smps++;
	p = smp_query_status_via(data, pid, attr, mod, ib->opts->timeout_ms,
	    &rstatus, ib->srcport);
	*status = (unsigned)rstatus & 0x7fff;
	if (p != NULL)
		return FA_SMP_ANSWERED;
	return *status != 0 ? FA_SMP_STATUS : FA_SMP_NO_RESPONSE;
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
