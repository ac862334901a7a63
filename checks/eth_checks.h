/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Ethernet checks, and the observation kinds they read (fabric/eth_*.c):
 *
 * eth.links    eth_live.c: the host's links and addresses (netlink)
 * eth.reach    eth_reach.c: one per mgmt_target / foreign_target of the
 *              policy, with each probe's outcome (and TLS facts)
 * eth.vlan_probe  eth_active.c (--active only): tagged ARP probes into
 *              the policy's foreign VLANs and the replies
 * eth.arp_scan  eth_active.c (--active only): hosts answering ARP probes
 *              to every address of an interface's IPv4 prefix
 * eth.capture  eth_capture.c: one per interface listened on or capture
 *              file read: frame counts, VLAN IDs seen, and the
 *              de-duplicated facts of each signal (lldp, cdp, dtp, vtp,
 *              stp, lacp, arp, dhcp, name, roce, rmcp)
 *
 * Each check gives one result per capture source (target: the interface
 * or file), judged against the policy's tenant_vlan, tenant_subnet and
 * dhcp_server.  A source that heard nothing is not_tested: silence on a
 * wire proves nothing.
 */
#ifndef FA_ETH_CHECKS_H
#define FA_ETH_CHECKS_H

#include "check.h"
#include "../core/obs_kinds.h"

/* What a scan sends for the wire checks: nothing (eth_live.h). */
#define FA_ETH_SENDS_LISTEN						\
	"Nothing: each interface that is up (or each named by --eth) is " \
	"opened in promiscuous mode and listened to, inbound only, for " \
	"--listen seconds, or a --pcap capture file is read instead; no " \
	"frame is sent."
/* The verdict rules every wire check shares (eth_wire_checks.c). */
#define FA_ETH_PER_CAPTURE						\
	"One result per interface listened on or capture file read. A " \
	"source that heard nothing, or no frame it could decode and "	\
	"judge, is not tested (silence proves nothing), "		\
	"and one whose frames the kernel partly dropped can fail but never " \
	"pass (it is not tested instead); with no source at all (no "	\
	"interface up) the result is one not_tested. "

#endif
