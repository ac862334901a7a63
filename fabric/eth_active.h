/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Ethernet family's --active probe: can this port put frames into a
 * VLAN it should not have?  For each VID of the policy's foreign_vlan and
 * each IPv4 address of its mgmt_target and foreign_target entries (single
 * hosts only, at most FA_VLAN_PROBE_TARGETS), one ARP probe (RFC 5227:
 * sender IP 0.0.0.0, so no neighbour cache learns anything) is sent
 * tagged with that VID, and one double-tagged (outer tag the port's own
 * VLAN, from LLDP's PVID or the policy's first tenant_vlan, inner tag the
 * VID) when an outer VLAN is known; then the port is listened to for a
 * second for the ARP replies.  Raw frames through pcap_inject: CAP_NET_RAW,
 * no VLAN device needed.
 *
 * eth.vlan_probe  one per interface: {sent: [{vid, outer, target}],
 *                 replies: [{target, mac, vid}], outer_source}
 *
 * The ARP scan, also --active only: an ARP probe (untagged) to every
 * address of each IPv4 prefix of the interface (at most
 * FA_ARP_SCAN_MAX addresses, network and broadcast excluded), at most 50
 * a second, then two seconds for the replies: who shares this segment.
 *
 * eth.arp_scan  one per interface and prefix, target "IFACE PREFIX":
 *               {prefix, probed, hosts: [{ip, mac}]}
 */
#ifndef FA_ETH_ACTIVE_H
#define FA_ETH_ACTIVE_H

#include "../core/policy.h"
#include "../core/snapshot.h"
#include "../core/obs_kinds.h"

#define FA_VLAN_PROBE_TARGETS	16
#define FA_ARP_SCAN_MAX		1024	/* a /22 */

/* Probe on each interface of the NULL-terminated list; 0 or
 * FA_ERR_NOMEM (failures to open are recorded as not_collected). */
int fa_eth_vlan_probe(char *const *ifaces, const struct fa_policy *p,
    struct fa_snapshot *snap);

/* ARP-scan the IPv4 prefixes of each interface; 0 or FA_ERR_NOMEM. */
int fa_eth_arp_scan(char *const *ifaces, struct fa_snapshot *snap);

#endif
