/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The link types a saved capture may hold, and the Linux "cooked" headers
 * of "tcpdump -i any" (LINUX_SLL, LINUX_SLL2) made into the frame the
 * decoder takes (struct fa_eth_l2, eth_frame.h).  Link-type numbers are
 * the LINKTYPE_ values written in files (I-D.richardson-opsawg-
 * pcaplinktype), which libpcap's DLT_ values equal for these three.
 *
 * LINUX_SLL, 16 bytes, big-endian (libpcap pcap/sll.h):
 *   packet type (2), ARPHRD type (2), address length (2), address (8),
 *   protocol (2)
 * LINUX_SLL2, 20 bytes, big-endian:
 *   protocol (2), reserved (2), interface index (4), ARPHRD type (2),
 *   packet type (1), address length (1), address (8)
 */
#ifndef FA_ETH_LINKTYPE_H
#define FA_ETH_LINKTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "eth_frame.h"

#define FA_LINKTYPE_EN10MB	1
#define FA_LINKTYPE_LINUX_SLL	113
#define FA_LINKTYPE_LINUX_SLL2	276

#define FA_SLL_HDR_LEN		16
#define FA_SLL2_HDR_LEN		20

/* Whether fabaudit reads frames of link type lt. */
int fa_linktype_supported(unsigned lt);
/* lt's name ("EN10MB", "LINUX_SLL2", "IEEE802_11"), or "unknown". */
const char *fa_linktype_name(unsigned lt);

/*
 * One cooked frame: either *l2 to decode, or a reason it is not judged.
 * skip is NULL for a frame to decode; else a noun phrase for
 * fa_eth_agg_skip() ("sent by this host", "not Ethernet (ARPHRD 772)",
 * "shorter than its LINUX_SLL header"), kept in buf.
 */
struct fa_sll {
	struct fa_eth_l2 l2;
	const char	*skip;
	uint32_t	 ifindex;	/* LINUX_SLL2: the interface index */
	int		 has_ifindex;	/* the header held it */
	char		 buf[48];
};

/*
 * A LINUX_SLL frame of caplen bytes captured out of wirelen: dst NULL,
 * src the address when the ARPHRD type is Ethernet (1) with 6 bytes of
 * it, p the protocol field and what follows, cooked, cut when caplen <
 * wirelen.  Packet type 4 (PACKET_OUTGOING) is "sent by this host"; an
 * ARPHRD other than Ethernet (772 loopback, 0xfffe none, 32 InfiniBand)
 * "not Ethernet (ARPHRD N)".
 */
void fa_sll_frame(const uint8_t *b, size_t caplen, size_t wirelen,
    struct fa_sll *out);
/*
 * The same for LINUX_SLL2.  Its protocol field leads the header while the
 * decoder wants it just before the payload: it is copied over the last
 * two bytes of the 8-byte address field (b[18..19], past a 6-byte
 * Ethernet address), so b must be writable and is changed.
 */
void fa_sll2_frame(uint8_t *b, size_t caplen, size_t wirelen,
    struct fa_sll *out);
#endif
