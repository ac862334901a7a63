/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target: a capture file as read by `fabaudit scan --pcap`.
 * Drives fabric/eth_pcap_read.c fa_eth_read_pcap_stream on an fmemopen(3)
 * stream: classic pcap through libpcap's pcap_fopen_offline, pcapng
 * through fabric/eth_pcapng.c, LINUX_SLL / LINUX_SLL2 headers through
 * fabric/eth_linktype.c, the frame decoder and the aggregator; then every
 * check and report.json / report.txt on the resulting eth.capture
 * observations (fuzz/fuzz_eval.h), under the policy of
 * tests/eth/test_captures.sh.
 *
 * Input: the bytes of a pcap or pcapng file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/policy.h"
#include "../core/snapshot.h"
#include "../fabric/eth_capture.h"
#include "../fabric/eth_pcap_read.h"
#include "fuzz_eval.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char policy_text[] =
    "tenant_vlan   120\n"
    "tenant_subnet 10.20.0.0/16\n"
    "dhcp_server   10.20.0.1\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fa_policy *pol;
	struct fa_snapshot *snap;
	FILE *f;
	char *why = NULL;
	size_t i;
	int r;

	if (pol == NULL && fa_policy_parse("policy.conf", policy_text,
	    strlen(policy_text), FUZZ_NOW, &pol, NULL) != 0)
		abort();
	if (size == 0)
		return 0;	/* fmemopen(3) refuses an empty buffer */
	if ((snap = fa_snapshot_new()) == NULL ||
	    fa_snapshot_set_family(snap, FA_FAM_ETH, FA_FAMST_COLLECTED,
	    NULL) != 0)
		abort();
	if ((f = fmemopen((void *)(uintptr_t)data, size, "rb")) == NULL)
		abort();
	r = fa_eth_read_pcap_stream(f, "fuzz.pcap", 0, snap, &why);
	if (r == 0) {
		/* Observations only on success, one per source and one per
		 * interface of an unsupported link type, each bounded. */
		if (snap->nobs < 1 || snap->nobs > 2 *
		    FA_ETH_PCAP_SOURCES_MAX || why != NULL)
			abort();
		for (i = 0; i < snap->nobs; i++)
			if (strcmp(snap->obs[i].kind, FA_KIND_ETH_CAPTURE) != 0)
				abort();
		fuzz_evaluate(snap, pol, NULL, FZ_SEEN_ONLY, NULL);
	} else if (r == FA_ERR_INPUT || r == FA_ERR_IO) {
		if (snap->nobs != 0 || why == NULL)
			abort();
	} else if (r != FA_ERR_NOMEM)
		abort();
	free(why);
	fa_snapshot_free(snap);
	return 0;
}
