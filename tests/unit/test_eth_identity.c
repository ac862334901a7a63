/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Who a frame's sender is (checks/eth_wire_checks.c), judged as the
 * standards say the frame was sent: a duplicate address detection probe
 * comes from :: and claims its target (RFC 4862 5.4.2), an ARP probe comes
 * from 0.0.0.0 and claims its target (RFC 5227 2.1.1), a neighbour
 * advertisement announces its target (RFC 4861 4.4), a router
 * advertisement comes from a link-local address and is foreign when it
 * advertises a prefix outside the tenant's (RFC 4861 4.2, 4.6.2); RoCEv2
 * is judged by both of its ends; LLDP from one of the tenant's own nodes
 * (lldpd) is no switch leak.  Each capture below is an eth.capture
 * observation as the capture summary writes it (fabric/eth_capture.h).
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
    "tenant_vlan 120\n"
    "tenant_subnet 10.20.0.0/16\n"
    "tenant_subnet fd20::/64\n"
    "dhcp_server 10.20.0.1\n";

/*
 * A complete capture of 50 frames whose members are the JSON object text
 * extra (merged over the defaults), with eth.links links (JSON array text,
 * or NULL for a --pcap scan, which records none).
 */
static struct fa_snapshot *
capture(const char *extra, const char *links)
{
	struct fa_snapshot *s = fa_snapshot_new();
	json_error_t e;
	json_t *d, *x;

	assert_non_null(s);
	assert_int_equal(fa_snapshot_set_family(s, FA_FAM_ETH,
	    FA_FAMST_COLLECTED, NULL), 0);
	d = json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:[], s:{}, s:i, s:{}, "
	    "s:{}, s:i, s:{}, s:i}", "source", "p.pcap", "mode", "file",
	    "frames", 50, "bytes", 3000, "truncated", 0, "malformed", 0,
	    "malformed_examples", "malformed_signals", "tagged", 0, "vlans",
	    "signals", "signals_dropped", 0, "signals_dropped_by",
	    "signals_limit", 4096);
	assert_non_null(d);
	if ((x = json_loads(extra, 0, &e)) == NULL)
		fail_msg("test JSON: %s: %s", e.text, extra);
	assert_int_equal(json_object_update(d, x), 0);
	json_decref(x);
	assert_int_equal(fa_snapshot_add(s, FA_FAM_ETH, NULL, "eth.capture",
	    "p.pcap", "read", FA_OBS_COMPLETE, NULL, d, NULL), 0);
	if (links != NULL) {
		if ((x = json_loads(links, 0, &e)) == NULL)
			fail_msg("test JSON: %s", e.text);
		assert_int_equal(fa_snapshot_add(s, FA_FAM_ETH, NULL,
		    "eth.links", "host", "netlink", FA_OBS_COMPLETE, NULL,
		    json_pack("{s:o, s:[], s:[]}", "links", x, "addrs",
		    "routes"), NULL), 0);
	}
	return s;
}

/* The one result of c on s (consumed), with needle in its reason. */
static enum fa_status
one(const struct fa_check *c, struct fa_snapshot *s, const char *needle)
{
	return eth_eval_one(c, s, policy, needle);
}

#define L2(sig)	one(&fa_chk_eth_foreign_l2, capture(sig, NULL), NULL)

/* A node's own DAD probe, from ::, for an address of the tenant's. */
static void
dad(void **state)
{
	(void)state;
	assert_int_equal(L2("{\"signals\": {\"nd\": [{\"type\": 135, "
	    "\"ip_src\": \"::\", \"target\": \"fd20::5\", \"count\": 1}]}}"),
	    FA_ST_PASS);
	/* Its link-local address first: nothing told, nothing judged, and
	 * no other sender: silence proves nothing. */
	assert_int_equal(L2("{\"signals\": {\"nd\": [{\"type\": 135, "
	    "\"ip_src\": \"::\", \"target\": \"fe80::1\", \"count\": 1}]}}"),
	    FA_ST_NOT_TESTED);
	/* A host claiming an address of another network is foreign. */
	assert_int_equal(one(&fa_chk_eth_foreign_l2, capture("{\"signals\": "
	    "{\"nd\": [{\"type\": 135, \"ip_src\": \"::\", \"target\": "
	    "\"2001:db8:77::9\", \"count\": 1}]}}", NULL), "duplicate "
	    "address detection"), FA_ST_FAIL);
}

/* RFC 5227 probes: sender 0.0.0.0, the claimed address as target. */
static void
arp_probe(void **state)
{
	(void)state;
	assert_int_equal(L2("{\"signals\": {\"arp\": [{\"sender_ip\": "
	    "\"0.0.0.0\", \"sender_mac\": \"02:00:00:00:00:05\", "
	    "\"target_ip\": \"10.20.3.4\", \"count\": 2}]}}"), FA_ST_PASS);
	assert_int_equal(L2("{\"signals\": {\"arp\": [{\"sender_ip\": "
	    "\"0.0.0.0\", \"sender_mac\": \"02:00:00:00:00:05\", "
	    "\"target_ip\": \"192.168.77.5\", \"count\": 2}]}}"), FA_ST_FAIL);
}

/* A router advertisement is sent from fe80::; its prefixes tell. */
static void
router_advert(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_foreign_l2, capture("{\"signals\": "
	    "{\"nd\": [{\"type\": 134, \"ip_src\": \"fe80::1\", \"prefixes\": "
	    "[\"fd20::/64\", \"2001:db8:bad::/64\"], \"count\": 1}]}}", NULL),
	    "2001:db8:bad::/64"), FA_ST_FAIL);
	assert_int_equal(L2("{\"signals\": {\"nd\": [{\"type\": 134, "
	    "\"ip_src\": \"fe80::1\", \"prefixes\": [\"fd20::/64\"], "
	    "\"count\": 1}]}}"), FA_ST_PASS);
	/* A neighbour advertisement from fe80:: names its own address. */
	assert_int_equal(L2("{\"signals\": {\"nd\": [{\"type\": 136, "
	    "\"ip_src\": \"fe80::7\", \"target\": \"2001:db8:77::7\", "
	    "\"count\": 1}]}}"), FA_ST_FAIL);
}

/* RoCEv2 from another tenant to ours, and between two of ours. */
static void
roce_both_ends(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_roce_visible, capture("{\"signals\": "
	    "{\"roce\": [{\"ip_src\": \"192.168.77.5\", \"ip_dst\": "
	    "\"10.20.0.2\", \"count\": 4}]}}", NULL), "192.168.77.5"),
	    FA_ST_FAIL);
	assert_int_equal(one(&fa_chk_eth_roce_visible, capture("{\"signals\": "
	    "{\"roce\": [{\"ip_src\": \"10.20.0.3\", \"ip_dst\": "
	    "\"10.20.0.2\", \"count\": 4}]}}", NULL), NULL), FA_ST_PASS);
}

/* lldpd on another node of the tenant, on this node, and a switch. */
static void
lldp_from_nodes(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_lldp_leak, capture("{\"signals\": "
	    "{\"lldp\": [{\"src\": \"02:aa:00:00:00:03\", \"chassis\": "
	    "\"02:aa:00:00:00:03\", \"mgmt_addrs\": [\"10.20.0.3\"], "
	    "\"system_description\": \"Debian GNU/Linux 12\", \"count\": "
	    "1}]}}", NULL), "tenant's own nodes"), FA_ST_PASS);
	/* This host's own MAC, whatever address it names. */
	assert_int_equal(one(&fa_chk_eth_lldp_leak, capture("{\"signals\": "
	    "{\"lldp\": [{\"src\": \"02:AA:00:00:00:02\", \"mgmt_addrs\": "
	    "[\"172.17.0.1\"], \"count\": 1}]}}", "[{\"name\": \"eth0\", "
	    "\"mac\": \"02:aa:00:00:00:02\"}]"), NULL), FA_ST_PASS);
	/* A switch: its management address is not the tenant's. */
	assert_int_equal(one(&fa_chk_eth_lldp_leak, capture("{\"signals\": "
	    "{\"lldp\": [{\"src\": \"00:11:22:33:44:55\", \"mgmt_addrs\": "
	    "[\"192.168.100.1\"], \"count\": 1}]}}", "[{\"name\": \"eth0\", "
	    "\"mac\": \"02:aa:00:00:00:02\"}]"), "management address"),
	    FA_ST_FAIL);
	/* One address inside, one outside: not a tenant node. */
	assert_int_equal(one(&fa_chk_eth_lldp_leak, capture("{\"signals\": "
	    "{\"lldp\": [{\"src\": \"00:11:22:33:44:55\", \"mgmt_addrs\": "
	    "[\"10.20.0.9\", \"192.168.100.1\"], \"count\": 1}]}}", NULL),
	    NULL), FA_ST_FAIL);
}

/* tcpdump -i any (LINUX_SLL): VLANs of several ports in one stream. */
static void
mixed_interfaces(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_trunk_port, capture("{\"vlans\": "
	    "{\"120\": 10, \"121\": 4}, \"tagged\": 14, \"mixed_interfaces\": "
	    "true}", NULL), "mixes the frames"), FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_eth_trunk_port, capture("{\"vlans\": "
	    "{\"120\": 10, \"121\": 4}, \"tagged\": 14}", NULL), NULL),
	    FA_ST_FAIL);
	/* A DTP trunk is a trunk whichever interface heard it. */
	assert_int_equal(one(&fa_chk_eth_trunk_port, capture("{\"vlans\": "
	    "{\"120\": 10, \"121\": 4}, \"mixed_interfaces\": true, "
	    "\"signals\": {\"dtp\": [{\"trunking\": true, \"negotiable\": "
	    "false, \"status\": 129, \"count\": 1}]}}", NULL), "DTP"),
	    FA_ST_FAIL);
	/* The foreign VLAN is foreign on any interface. */
	assert_int_equal(one(&fa_chk_eth_foreign_vlan, capture("{\"vlans\": "
	    "{\"120\": 10, \"300\": 4}, \"mixed_interfaces\": true}", NULL),
	    "300"), FA_ST_FAIL);
}

/* libpcap drops the VLAN tags of LINUX_SLL2 frames (its issue #1105). */
static void
sll2_tags(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_foreign_vlan, capture("{\"linktype\": "
	    "\"LINUX_SLL2\", \"interface\": 3}", NULL), "#1105"),
	    FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_eth_trunk_port, capture("{\"linktype\": "
	    "\"LINUX_SLL2\", \"interface\": 3}", NULL), "#1105"),
	    FA_ST_NOT_TESTED);
	/* Tags that are there were kept by the writer: judged. */
	assert_int_equal(one(&fa_chk_eth_foreign_vlan, capture("{\"linktype\": "
	    "\"LINUX_SLL2\", \"vlans\": {\"120\": 3}, \"tagged\": 3}",
	    NULL), NULL), FA_ST_PASS);
	assert_int_equal(one(&fa_chk_eth_foreign_vlan, capture("{\"linktype\": "
	    "\"EN10MB\"}", NULL), NULL), FA_ST_PASS);
}

/* Frames this host sent, or not of Ethernet, are counted, not judged. */
static void
only_skipped(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_stp_exposed, capture("{\"skipped\": "
	    "{\"sent by this host\": 50}}", NULL), "none of the 50 frames"),
	    FA_ST_NOT_TESTED);
	assert_int_equal(one(&fa_chk_eth_stp_exposed, capture("{\"skipped\": "
	    "{\"sent by this host\": 20}}", NULL), NULL), FA_ST_PASS);
}

/* A verdict resting on a cut frame says so. */
static void
truncated_evidence(void **state)
{
	(void)state;
	assert_int_equal(one(&fa_chk_eth_rogue_dhcp, capture("{\"signals\": "
	    "{\"dhcp\": [{\"ip_src\": \"10.99.0.1\", \"truncated\": true, "
	    "\"count\": 1}]}, \"truncated\": 1}", NULL), "cut short"),
	    FA_ST_FAIL);
	assert_int_equal(one(&fa_chk_eth_foreign_vlan, capture("{\"vlans\": "
	    "{\"300\": 2}, \"vlans_cut\": {\"300\": 2}, \"tagged\": 2, "
	    "\"truncated\": 2}", NULL), "cut short"), FA_ST_FAIL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dad),
		cmocka_unit_test(arp_probe),
		cmocka_unit_test(router_advert),
		cmocka_unit_test(roce_both_ends),
		cmocka_unit_test(lldp_from_nodes),
		cmocka_unit_test(mixed_interfaces),
		cmocka_unit_test(sll2_tags),
		cmocka_unit_test(only_skipped),
		cmocka_unit_test(truncated_evidence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
