/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One Ethernet frame, decoded: the VLAN tags it carries and, when it is one
 * of the signals the Ethernet checks look for, the facts it reveals.  Pure
 * and bounded: every length is checked against the captured bytes, and a
 * frame that lies about its lengths is FA_ERR_INPUT with the reason.  A
 * frame cut by the snap length is not a lie: it decodes as far as it was
 * captured and says "truncated".
 *
 * Tags are walked in the bytes (0x8100, 0x88a8, 0x9100, 0x9200): libpcap
 * re-inserts the tag the kernel moved to metadata, so live and saved
 * captures look the same (ethernet.md 1.1).  A Cisco ISL frame (to
 * 01-00-0c-00-00-xx or 03-00-0c-00-00-xx, when the destination was
 * captured) gives its VLAN as the outer tag {"tpid": "isl", ...} and the
 * frame inside is decoded (its own tags follow; its addresses are "src"
 * and "dst").  802.2 LLC is read with either control field size, SNAP
 * with OUI 00-00-00 or 00-00-f8 as the EtherType in its PID, SNAP with
 * the Cisco OUI by its PID alone.  The facts object:
 *
 *   {"src": "aa:bb:..", "dst": ".." (null when not captured), "tags":
 *    [{"tpid": "0x8100" | "isl", "vid": n, "pcp": n}], "signal": NAME,
 *    "truncated": true (only when cut short), ...}
 *
 * with NAME and its members:
 *   lldp   chassis, port, port_description, system_name,
 *          system_description, mgmt_addrs[], pvid, vlan_names[{vid,
 *          name}], ttl
 *   cdp    device_id, platform, software, native_vlan, vtp_domain,
 *          mgmt_addrs[], port
 *   dtp    domain, status (byte), trunk_type (byte), trunking (bool),
 *          negotiable (bool: desirable or auto)
 *   vtp    domain
 *   stp    pvst (bool), version, root ("prio.mac"), bridge, vlan (PVST+
 *          originating VLAN, else the 802.1t system-ID extension)
 *   lacp   actor_system, actor_key
 *   arp    op, sender_mac, sender_ip, target_ip
 *   dhcp   op, msg_type, server_id, client_mac, your_ip, relayed,
 *          bootfile, tftp_server, ip_src, ip_dst, sport, dport
 *   name   proto (mdns, llmnr, nbns, ssdp), ip_src, ip_dst, sport, dport
 *   nd     type (133 RS .. 137 redirect), ip_src, target (NS, NA,
 *          redirect), prefixes[] ("2001:db8::/64", RA)
 *   roce   ip_src, ip_dst, sport, dport, opcode, dest_qp
 *   rmcp   ip_src, ip_dst, sport, dport, class
 *   tag-overflow  more than FA_ETH_MAX_TAGS tags: the first ones only
 *   ipv4 / ipv6   (ip_src, ip_dst, sport, dport of a UDP datagram)
 *   other  (nothing more)
 */
#ifndef FA_ETH_FRAME_H
#define FA_ETH_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define FA_ETH_MAX_TAGS	8

/*
 * One frame as its link type delivered it, from the EtherType (or 802.3
 * length) field on.  Ethernet gives both addresses; LINUX_SLL and
 * LINUX_SLL2 ("tcpdump -i any") give only the sender's, and their
 * protocol field is the kernel's: 0x0004 (ETH_P_802_2) says an 802.2 LLC
 * header follows, 0x0001 (ETH_P_802_3) a Novell raw 802.3 frame
 * (linux/if_ether.h), whatever their value as a length.
 */
struct fa_eth_l2 {
	const uint8_t	*dst;	/* 6 bytes, or NULL: not captured */
	const uint8_t	*src;	/* 6 bytes, or NULL: not captured */
	const uint8_t	*p;	/* the first EtherType/length field */
	size_t		 len;	/* bytes captured from p on */
	int		 cut;	/* fewer bytes captured than were sent */
	int		 cooked;/* LINUX_SLL/SLL2 protocol semantics */
};

/*
 * Decode one frame.  0 with *facts (caller frees): every field the
 * captured bytes hold; when the frame was cut (l2->cut) and decoding
 * stopped at the cut, the facts say "truncated": true and hold what came
 * before it.  FA_ERR_INPUT with *why for a frame that lies about its
 * lengths: *facts is then still set (caller frees) when its tags were
 * read, holding "tags", "src", "dst" and, when its headers named one,
 * "signal", so that its VLANs and its signal are still counted.
 * FA_ERR_NOMEM.  "dst" / "src" are null when not captured.
 */
int fa_eth_decode_l2(const struct fa_eth_l2 *l2, json_t **facts,
    char **why);

/* An Ethernet (DLT_EN10MB) frame: caplen bytes captured of wirelen. */
int fa_eth_decode(const uint8_t *b, size_t caplen, size_t wirelen,
    json_t **facts, char **why);

#endif
