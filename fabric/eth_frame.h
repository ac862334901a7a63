/*
 * One Ethernet frame, decoded: the VLAN tags it carries and, when it is one
 * of the signals the Ethernet checks look for, the facts it reveals.  Pure
 * and bounded: every length is checked against the captured bytes, and a
 * frame that lies about its lengths is FA_ERR_INPUT with the reason.
 *
 * Tags are walked in the bytes (0x8100, 0x88a8, 0x9100, 0x9200): libpcap
 * re-inserts the tag the kernel moved to metadata, so live and saved
 * captures look the same (ethernet.md 1.1).  The facts object:
 *
 *   {"src": "aa:bb:..", "dst": "..", "tags": [{"tpid": "0x8100", "vid": n,
 *    "pcp": n}], "signal": NAME, ...}
 *
 * with NAME and its members:
 *   lldp   chassis, port, system_name, system_description, mgmt_addrs[],
 *          pvid, vlan_names[{vid, name}], ttl
 *   cdp    device_id, platform, software, native_vlan, vtp_domain,
 *          mgmt_addrs[], port
 *   dtp    domain, status (byte), trunk_type (byte), trunking (bool),
 *          negotiable (bool: desirable or auto)
 *   vtp    domain
 *   stp    version, root ("prio.mac"), bridge, vlan (system-ID ext),
 *          pvst (bool)
 *   lacp   actor_system, actor_key
 *   arp    op, sender_ip, sender_mac, target_ip
 *   dhcp   op, msg_type, server_id, client_mac, your_ip, ip_src,
 *          bootfile, tftp_server, relayed
 *   name   proto (mdns, llmnr, nbns, ssdp), ip_src
 *   nd     type (133 RS .. 137 redirect), ip_src
 *   roce   ip_src, ip_dst, opcode, dest_qp
 *   rmcp   ip_src, ip_dst, class
 *   tag-overflow  more than FA_ETH_MAX_TAGS tags: the first ones only
 *   ipv4 / ipv6 / other   (nothing more)
 */
#ifndef FA_ETH_FRAME_H
#define FA_ETH_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define FA_ETH_MAX_TAGS	8

/* Decode len bytes; 0 with *facts (caller frees), or FA_ERR_INPUT with
 * *why, or FA_ERR_NOMEM. */
int fa_eth_decode(const uint8_t *b, size_t len, json_t **facts, char **why);

/*
 * For a frame fa_eth_decode refused: the signal its headers announce
 * (lldp, lacp, stp, cdp, dtp, vtp, arp), from the EtherType or the LLC/SNAP
 * header alone, or NULL.  So that a malformed DTP frame is still a DTP
 * frame on the wire.
 */
const char *fa_eth_signal_guess(const uint8_t *b, size_t len);

#endif
