/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Ethernet wire checks fail closed on a signal table that filled
 * (checks/eth_wire_checks.c): a capture of a busy segment keeps at most
 * "signals_limit" distinct entries per signal, and a rogue DHCP server or
 * a foreign host heard after that many benign ones is not kept.  A check
 * reading a signal whose table filled cannot pass; one reading only other
 * signals is not touched.  Captures recorded before the per-signal count
 * (only "signals_dropped") count against every check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../checks/check.h"
#include "../../checks/eth_checks.h"
#include "../../core/policy.h"
#include "../../core/snapshot.h"
#include "eth_eval_one.h"

static const char policy[] =
    "tenant_subnet 10.20.0.0/16\n"
    "dhcp_server 10.20.0.1\n";

/* A complete capture of 400 frames: one benign DHCP server, one tenant
 * ARP sender; dropped_by as JSON ("{}" none; NULL: not recorded). */
static struct fa_snapshot *
capture(const char *dropped_by, long long total)
{
	struct fa_snapshot *s = fa_snapshot_new();
	json_error_t e;
	json_t *d;

	assert_non_null(s);
	assert_int_equal(fa_snapshot_set_family(s, FA_FAM_ETH,
	    FA_FAMST_COLLECTED, NULL), 0);
	d = json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:[], s:{}, s:i, s:{}, "
	    "s:{s:[{s:s, s:s, s:i}], s:[{s:s, s:s, s:i}]}, s:I}", "source",
	    "port7.pcap", "mode", "file", "frames", 400, "bytes", 24000,
	    "truncated", 0, "malformed", 0, "malformed_examples",
	    "malformed_signals", "tagged", 0, "vlans", "signals", "dhcp",
	    "server_id", "10.20.0.1", "ip_src", "10.20.0.1", "count", 3, "arp",
	    "sender_ip", "10.20.1.7", "sender_mac", "02:00:00:00:01:07",
	    "count", 9, "signals_dropped", (json_int_t)total);
	assert_non_null(d);
	if (dropped_by != NULL) {
		json_t *by = json_loads(dropped_by, 0, &e);

		assert_non_null(by);
		assert_int_equal(json_object_set_new(d, "signals_dropped_by",
		    by), 0);
		assert_int_equal(json_object_set_new(d, "signals_limit",
		    json_integer(256)), 0);
	}
	assert_int_equal(fa_snapshot_add(s, FA_FAM_ETH, NULL,
	    "eth.capture", "port7.pcap", "read", FA_OBS_COMPLETE, NULL, d,
	    NULL), 0);
	return s;
}

/* The one result of c on s (consumed), with needle in its reason. */
static enum fa_status
one(const struct fa_check *c, struct fa_snapshot *s, const char *needle)
{
	return eth_eval_one(c, s, policy, needle);
}

static void
nothing_dropped(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_rogue_dhcp, capture("{}", 0), NULL),
	    FA_ST_PASS);
	assert_int_equal(one(&fa_chk_eth_foreign_l2, capture("{}", 0), NULL),
	    FA_ST_PASS);
}

/* 44 ARP senders not kept: the foreign host may be among them. */
static void
arp_filled(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_foreign_l2, capture("{\"arp\": 44}",
	    44), "the table of arp (44 not kept) filled at 256"),
	    FA_ST_NOT_TESTED);
	/* DHCP and STP do not read ARP. */
	assert_int_equal(one(&fa_chk_eth_rogue_dhcp, capture("{\"arp\": 44}",
	    44), NULL), FA_ST_PASS);
	assert_int_equal(one(&fa_chk_eth_stp_exposed, capture(
	    "{\"arp\": 44}", 44), NULL), FA_ST_PASS);
}

/* 3 DHCP servers not kept: a rogue one may be among them. */
static void
dhcp_filled(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_rogue_dhcp, capture("{\"dhcp\": 3}",
	    3), "dhcp (3 not kept)"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_eth_foreign_l2, capture("{\"dhcp\": 3}",
	    3), "dhcp (3 not kept)"), FA_ST_NOT_TESTED);
}

/* A snapshot written before the per-signal count: no pass anywhere. */
static void
old_snapshot(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_stp_exposed, capture(NULL, 5),
	    "which one was not recorded"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_eth_stp_exposed, capture(NULL, 0), NULL),
	    FA_ST_PASS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_dropped),
		cmocka_unit_test(arp_filled),
		cmocka_unit_test(dhcp_filled),
		cmocka_unit_test(old_snapshot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
