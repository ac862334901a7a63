/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The capture summary's bound (fabric/eth_capture.c): past FA_ETH_UNIQUE_MAX
 * distinct entries a signal's table keeps no more, and says per signal how
 * many it did not keep, with the bound, so that the checks reading it can
 * refuse to pass.  Frames are ARP requests as RFC 826 lays them out, from
 * FA_ETH_UNIQUE_MAX + 44 distinct senders, then one more.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/snapshot.h"
#include "../../fabric/eth_capture.h"

/* A broadcast ARP request (RFC 826) from 10.20.a.b, MAC 02:00:00:00:a:b. */
static size_t
arp(uint8_t *f, unsigned a, unsigned b)
{
	static const uint8_t head[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* dst: broadcast */
		0x02, 0x00, 0x00, 0x00, 0x00, 0x00,	/* src (set below) */
		0x08, 0x06,				/* EtherType ARP */
		0x00, 0x01, 0x08, 0x00, 6, 4,		/* Ethernet, IPv4 */
		0x00, 0x01,				/* request */
	};

	memset(f, 0, 60);
	memcpy(f, head, sizeof(head));
	f[10] = (uint8_t)a;
	f[11] = (uint8_t)b;
	memcpy(f + 22, f + 6, 6);			/* sender MAC */
	f[28] = 10;
	f[29] = 20;
	f[30] = (uint8_t)a;
	f[31] = (uint8_t)b;				/* sender IP */
	f[38] = 10;
	f[39] = 20;
	f[41] = 1;					/* target IP */
	return 60;	/* padded to the minimum frame */
}

static void
table_fills(void **state)
{
	struct fa_eth_agg *a = fa_eth_agg_new("t.pcap", "file");
	struct fa_snapshot *s = fa_snapshot_new();
	const struct fa_obs *o;
	uint8_t f[64];
	unsigned i;
	size_t n;

	(void)state;
	assert_non_null(a);
	assert_non_null(s);
	for (i = 0; i < FA_ETH_UNIQUE_MAX + 44; i++) {
		n = arp(f, 1 + i / 200, i % 200);
		assert_int_equal(fa_eth_agg_frame(a, f, n, n), 0);
	}
	/* A sender seen before is counted on its entry, not dropped. */
	n = arp(f, 1, 0);
	assert_int_equal(fa_eth_agg_frame(a, f, n, n), 0);
	assert_int_equal(fa_eth_agg_finish(a, s, FA_OBS_COMPLETE, NULL, -1),
	    0);
	o = fa_snapshot_find(s, FA_KIND_ETH_CAPTURE, "t.pcap");
	assert_non_null(o);
	assert_int_equal(json_array_size(json_object_get(json_object_get(
	    o->data, "signals"), "arp")), FA_ETH_UNIQUE_MAX);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    o->data, "signals_dropped_by"), "arp")), 44);
	assert_int_equal(json_integer_value(json_object_get(o->data,
	    "signals_dropped")), 44);
	assert_int_equal(json_integer_value(json_object_get(o->data,
	    "signals_limit")), FA_ETH_UNIQUE_MAX);
	fa_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_fills),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
