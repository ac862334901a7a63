/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Link types and the Linux cooked headers (see eth_linktype.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <pcap/pcap.h>

#include "eth_linktype.h"

#define ARPHRD_ETHER		1
#define PACKET_OUTGOING		4

int
fa_linktype_supported(unsigned lt)
{
	return lt == FA_LINKTYPE_EN10MB || lt == FA_LINKTYPE_LINUX_SLL ||
	    lt == FA_LINKTYPE_LINUX_SLL2;
}

const char *
fa_linktype_name(unsigned lt)
{
	const char *n;

	/* Where LINKTYPE_ and libpcap's DLT_ numbers differ. */
	switch (lt) {
	case 0:
		return "NULL";
	case 100:
		return "ATM_RFC1483";
	case 101:
		return "RAW";
	case 102:
		return "SLIP_BSDOS";
	case 103:
		return "PPP_BSDOS";
	default:
		break;
	}
	/* Raw IP as old writers stored their platform's DLT_RAW: 12, or 14
	 * on OpenBSD (libpcap's pcap/dlt.h); 13 is no link type of a file. */
	if (lt == 12 || lt == 14)
		return "RAW";
	if (lt == 13)
		return "unknown";
	n = pcap_datalink_val_to_name((int)lt);
	return n != NULL ? n : "unknown";
}

static unsigned
be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

/* What both headers share once their fields are found. */
static void
cooked(const uint8_t *b, size_t caplen, size_t wirelen, size_t hdr,
    unsigned hatype, unsigned pkttype, unsigned halen, const uint8_t *addr,
    struct fa_sll *out)
{
	if (hatype != ARPHRD_ETHER) {
		snprintf(out->buf, sizeof(out->buf), "not Ethernet (ARPHRD %u)",
		    hatype);
		out->skip = out->buf;
		return;
	}
	if (pkttype == PACKET_OUTGOING) {
		out->skip = "sent by this host";
		return;
	}
	out->l2.dst = NULL;
	out->l2.src = halen == 6 ? addr : NULL;
	out->l2.p = b + hdr - 2;
	out->l2.len = caplen - (hdr - 2);
	out->l2.cut = caplen < wirelen;
	out->l2.cooked = 1;
}

void
fa_sll_frame(const uint8_t *b, size_t caplen, size_t wirelen,
    struct fa_sll *out)
{
	memset(out, 0, sizeof(*out));
	if (caplen < FA_SLL_HDR_LEN) {
		out->skip = "shorter than its LINUX_SLL header";
		return;
	}
	cooked(b, caplen, wirelen, FA_SLL_HDR_LEN, be16(b + 2), be16(b),
	    be16(b + 4), b + 6, out);
}

void
fa_sll2_frame(uint8_t *b, size_t caplen, size_t wirelen, struct fa_sll *out)
{
	memset(out, 0, sizeof(*out));
	if (caplen < FA_SLL2_HDR_LEN) {
		out->skip = "shorter than its LINUX_SLL2 header";
		return;
	}
	out->ifindex = (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 |
	    (uint32_t)b[6] << 8 | b[7];
	out->has_ifindex = 1;
	cooked(b, caplen, wirelen, FA_SLL2_HDR_LEN, be16(b + 8), b[10], b[11],
	    b + 12, out);
	if (out->skip == NULL) {
		/* The protocol next to the payload (eth_linktype.h). */
		b[18] = b[0];
		b[19] = b[1];
	}
}
