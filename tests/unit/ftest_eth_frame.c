/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests for the Ethernet frame decoder (fabric/eth_frame.c): the
 * facts of frames written by tests/eth/mkcaptures (embedded below, one per
 * signal) and of frames laid out by hand from the standards (802.2 LLC,
 * SNAP, ISL, PVST+, RFC 4861), the frames' signals when they lie about a
 * length, truncation (every cut of a DHCP offer and an ARP, a cut tagged
 * frame), LINUX_SLL ("cooked") semantics, and robustness: every prefix
 * and every single-byte change of each frame decodes or is refused, never
 * read out of bounds (the ASan build runs this too).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../core/errors.h"
#include "../../core/snapshot.h"
#include "../../fabric/eth_frame.h"

static const uint8_t f_lldp[] = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e, 0x00, 0x1b, 0x21, 0xaa, 0xbb,
	0x01, 0x88, 0xcc, 0x02, 0x07, 0x04, 0x00, 0x1b, 0x21, 0xaa, 0xbb,
	0x01, 0x04, 0x0c, 0x05, 0x45, 0x74, 0x68, 0x65, 0x72, 0x6e, 0x65,
	0x74, 0x31, 0x2f, 0x37, 0x06, 0x02, 0x00, 0x78, 0x0a, 0x07, 0x6c,
	0x65, 0x61, 0x66, 0x2d, 0x30, 0x37, 0x0c, 0x18, 0x4e, 0x4f, 0x53,
	0x20, 0x34, 0x2e, 0x32, 0x2e, 0x31, 0x20, 0x3c, 0x73, 0x63, 0x72,
	0x69, 0x70, 0x74, 0x3e, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x00, 0x10,
	0x0c, 0x05, 0x01, 0x0a, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00,
	0x07, 0x00, 0xfe, 0x06, 0x00, 0x80, 0xc2, 0x01, 0x00, 0x78, 0xfe,
	0x0d, 0x00, 0x80, 0xc2, 0x03, 0x00, 0x78, 0x06, 0x74, 0x65, 0x6e,
	0x61, 0x6e, 0x74, 0xfe, 0x0b, 0x00, 0x80, 0xc2, 0x03, 0x00, 0x1e,
	0x04, 0x6d, 0x67, 0x6d, 0x74, 0x00, 0x00
};

static const uint8_t f_cdp[] = {
	0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcc, 0x00, 0x1b, 0x21, 0xaa, 0xbb,
	0x01, 0x00, 0x3b, 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x0c, 0x20, 0x00,
	0x02, 0xb4, 0x00, 0x00, 0x00, 0x01, 0x00, 0x0b, 0x6c, 0x65, 0x61,
	0x66, 0x2d, 0x30, 0x37, 0x00, 0x06, 0x00, 0x0d, 0x4e, 0x39, 0x4b,
	0x2d, 0x43, 0x39, 0x33, 0x36, 0x34, 0x00, 0x0a, 0x00, 0x06, 0x00,
	0x01, 0x00, 0x16, 0x00, 0x11, 0x00, 0x00, 0x00, 0x01, 0x01, 0x01,
	0xcc, 0x00, 0x04, 0x0a, 0x00, 0x00, 0x02
};

static const uint8_t f_dtp[] = {
	0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcc, 0x00, 0x1b, 0x21, 0xaa, 0xbb,
	0x01, 0x00, 0x26, 0xaa, 0xaa, 0x03, 0x00, 0x00, 0x0c, 0x20, 0x04,
	0x01, 0x00, 0x01, 0x00, 0x09, 0x63, 0x6f, 0x72, 0x70, 0x00, 0x00,
	0x02, 0x00, 0x05, 0x03, 0x00, 0x03, 0x00, 0x05, 0xa5, 0x00, 0x04,
	0x00, 0x0a, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01
};

static const uint8_t f_pvst30[] = {
	0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcd, 0x00, 0x1b, 0x21, 0xaa, 0xbb,
	0x01, 0x81, 0x00, 0x00, 0x1e, 0x00, 0x2b, 0xaa, 0xaa, 0x03, 0x00,
	0x00, 0x0c, 0x01, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x1e,
	0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01, 0x00, 0x00, 0x00, 0x00, 0x80,
	0x1e, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01, 0x80, 0x07, 0x00, 0x00,
	0x14, 0x00, 0x02, 0x00, 0x0f, 0x00
};

static const uint8_t f_dhcp[] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0x00, 0x00, 0x30, 0x00,
	0x07, 0x08, 0x00, 0x45, 0x00, 0x01, 0x20, 0x00, 0x01, 0x00, 0x00,
	0x40, 0x11, 0x00, 0x00, 0x0a, 0x14, 0x00, 0xfa, 0xff, 0xff, 0xff,
	0xff, 0x00, 0x43, 0x00, 0x44, 0x01, 0x0c, 0x00, 0x00, 0x02, 0x01,
	0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x0a, 0x14, 0x00, 0x4d, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x20, 0x00, 0x05, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x70, 0x78, 0x65, 0x6c,
	0x69, 0x6e, 0x75, 0x78, 0x2e, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x63, 0x82, 0x53, 0x63, 0x35, 0x01, 0x02, 0x36,
	0x04, 0x0a, 0x14, 0x00, 0xfa, 0x42, 0x08, 0x31, 0x30, 0x2e, 0x30,
	0x2e, 0x30, 0x2e, 0x39, 0xff
};

static const uint8_t f_roce[] = {
	0x02, 0x00, 0x00, 0x30, 0x00, 0x09, 0x02, 0x00, 0x00, 0x30, 0x00,
	0x07, 0x08, 0x00, 0x45, 0x00, 0x00, 0x3c, 0x00, 0x01, 0x00, 0x00,
	0x40, 0x11, 0x00, 0x00, 0x0a, 0x1e, 0x00, 0x07, 0x0a, 0x1e, 0x00,
	0x09, 0xc0, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00, 0x0a, 0x40,
	0xff, 0xff, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x42, 0x00,
	0x00, 0x7f, 0x00, 0x10, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78,
	0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00
};

static const uint8_t f_lacp[] = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x02, 0x00, 0x1b, 0x21, 0xaa, 0xbb,
	0x01, 0x88, 0x09, 0x01, 0x01, 0x01, 0x14, 0x80, 0x00, 0x00, 0x1b,
	0x21, 0xaa, 0xbb, 0x01, 0x00, 0x0d, 0x80, 0x00, 0x00, 0x07, 0x3d,
	0x00, 0x00, 0x00, 0x02, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x03, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00
};

static const uint8_t f_arp30[] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0x00, 0x00, 0x30, 0x00,
	0x07, 0x81, 0x00, 0x00, 0x1e, 0x08, 0x06, 0x00, 0x01, 0x08, 0x00,
	0x06, 0x04, 0x00, 0x01, 0x02, 0x00, 0x00, 0x30, 0x00, 0x07, 0x0a,
	0x1e, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x14,
	0x00, 0x01
};

/* ICMPv6 neighbour solicitation from 2001:db8:30::7 (RFC 4861 4.3). */
static const uint8_t f_nd[] = {
	0x33, 0x33, 0xff, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x30, 0x00,
	0x07, 0x86, 0xdd, 0x60, 0x00, 0x00, 0x00, 0x00, 0x18, 0x3a, 0xff,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x07, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x01, 0x87,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20, 0x01, 0x0d, 0xb8,
	0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01
};

/* ---- frames laid out by hand ------------------------------------------- */

/*
 * 802.1D configuration BPDU (9.3.1) in 802.2 LLC with a U-format control
 * field (UI, 0x03): 802.3 length 38 = LLC 3 + BPDU 35.
 */
static const uint8_t f_stp_u[] = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x00,	/* dst: bridge group */
	0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x02,	/* src */
	0x00, 0x26,				/* 802.3 length 38 */
	0x42, 0x42, 0x03,			/* DSAP, SSAP, UI */
	0x00, 0x00, 0x00, 0x00, 0x00,		/* proto, v0, config, flags */
	0x80, 0x00, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01,	/* root id */
	0x00, 0x00, 0x00, 0x04,			/* root path cost */
	0x80, 0x0a, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x02,	/* bridge, ext 10 */
	0x80, 0x01,				/* port id */
	0x00, 0x00, 0x14, 0x00, 0x02, 0x00, 0x0f, 0x00	/* timers */
};

/*
 * An RST BPDU (802.1D-2004 9.3.3) in an LLC I-format PDU: a 2-byte control
 * field (N(S) 1, N(R) 2; IEEE 802.2 5.4.1), then 36 bytes (the version 1
 * length last): 802.3 length 40.
 */
static const uint8_t f_stp_i[] = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x00,
	0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x03,
	0x00, 0x28,				/* 802.3 length 40 */
	0x42, 0x42, 0x02, 0x04,			/* DSAP, SSAP, I format */
	0x00, 0x00, 0x02, 0x02, 0x3c,		/* proto, v2, RST, flags */
	0x70, 0x00, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01,	/* root id */
	0x00, 0x00, 0x4e, 0x20,			/* root path cost */
	0x80, 0x14, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x03,	/* bridge, ext 20 */
	0x80, 0x02,
	0x01, 0x00, 0x14, 0x00, 0x02, 0x00, 0x0f, 0x00,
	0x00					/* version 1 length */
};

/* ARP request in RFC 1042 SNAP (OUI 00-00-00, PID 0x0806): 8 + 28. */
static const uint8_t f_snap_arp[] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x02, 0x00, 0x00, 0x30, 0x00, 0x07,
	0x00, 0x24,				/* 802.3 length 36 */
	0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x06,
	0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01,	/* request */
	0x02, 0x00, 0x00, 0x30, 0x00, 0x07,	/* sender MAC */
	0xc0, 0x00, 0x02, 0x07,			/* sender 192.0.2.7 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xc0, 0x00, 0x02, 0x01			/* target 192.0.2.1 */
};

/* mDNS over IPv4 in IEEE 802.1H SNAP (OUI 00-00-f8, PID 0x0800). */
static const uint8_t f_snap_ip[] = {
	0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb,
	0x02, 0x00, 0x00, 0x30, 0x00, 0x08,
	0x00, 0x28,				/* 802.3 length 40 */
	0xaa, 0xaa, 0x03, 0x00, 0x00, 0xf8, 0x08, 0x00,
	0x45, 0x00, 0x00, 0x20, 0x00, 0x01, 0x00, 0x00,	/* total 32 */
	0xff, 0x11, 0x00, 0x00,			/* TTL, UDP, checksum */
	0xc0, 0x00, 0x02, 0x08, 0xe0, 0x00, 0x00, 0xfb,
	0x14, 0xe9, 0x14, 0xe9, 0x00, 0x0c, 0x00, 0x00,	/* 5353, len 12 */
	0x00, 0x00, 0x00, 0x00
};

/* An 802.1Q tag (PCP 3, VID 20) inside RFC 1042 SNAP (the PID is its
 * TPID), then an ARP reply: 8 + 2 + 2 + 28. */
static const uint8_t f_snap_vlan[] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x02, 0x00, 0x00, 0x30, 0x00, 0x09,
	0x00, 0x28,				/* 802.3 length 40 */
	0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x81, 0x00,
	0x60, 0x14, 0x08, 0x06,			/* TCI, EtherType ARP */
	0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x02,	/* reply */
	0x02, 0x00, 0x00, 0x30, 0x00, 0x09,
	0xc0, 0x00, 0x02, 0x09,
	0x02, 0x00, 0x00, 0x30, 0x00, 0x07,
	0xc0, 0x00, 0x02, 0x07
};

/*
 * Cisco ISL: a 26-byte header (DA 01-00-0c-00-00, type 0 Ethernet, SA,
 * LEN, AA-AA-03, HSA, VLAN 30 << 1 | BPDU bit, index, reserved), then a
 * 64-byte DTP frame to 01:00:0c:cc:cc:cc (status 0x81: trunk, on; padded
 * to 60, its FCS), then the ISL CRC.  LEN = 12 + 64.
 */
static const uint8_t f_isl_dtp[] = {
	0x01, 0x00, 0x0c, 0x00, 0x00, 0x00,	/* DA, type/user */
	0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x02,	/* SA */
	0x00, 0x4c,				/* LEN 76 */
	0xaa, 0xaa, 0x03, 0x00, 0x1b, 0x21,	/* AA-AA-03, HSA */
	0x00, 0x3d, 0x00, 0x05, 0x00, 0x00,	/* VLAN 30, BPDU; index; res */
	0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcc,	/* inner dst */
	0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01,	/* inner src */
	0x00, 0x26,				/* 802.3 length 38 */
	0xaa, 0xaa, 0x03, 0x00, 0x00, 0x0c, 0x20, 0x04,
	0x01,					/* DTP version */
	0x00, 0x01, 0x00, 0x09, 0x63, 0x6f, 0x72, 0x70, 0x00,	/* "corp" */
	0x00, 0x02, 0x00, 0x05, 0x81,		/* status */
	0x00, 0x03, 0x00, 0x05, 0xa5,		/* trunk type */
	0x00, 0x04, 0x00, 0x0a, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* pad */
	0xde, 0xad, 0xbe, 0xef,			/* inner FCS */
	0x12, 0x34, 0x56, 0x78			/* ISL CRC */
};

/*
 * PVST+ configuration BPDU (Cisco SNAP PID 0x010b) tagged VLAN 40: the
 * bridge ID without the system-ID extension, then the pad byte and the
 * originating VLAN TLV (type 0, length 2, VLAN 40).  8 + 35 + 1 + 6.
 */
static const uint8_t f_pvst_tlv[] = {
	0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcd,
	0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01,
	0x81, 0x00, 0x00, 0x28,			/* tag, VID 40 */
	0x00, 0x32,				/* 802.3 length 50 */
	0xaa, 0xaa, 0x03, 0x00, 0x00, 0x0c, 0x01, 0x0b,
	0x00, 0x00, 0x00, 0x00, 0x00,
	0x80, 0x00, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01,
	0x00, 0x00, 0x00, 0x00,
	0x80, 0x00, 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01,	/* ext 0 */
	0x80, 0x07,
	0x00, 0x00, 0x14, 0x00, 0x02, 0x00, 0x0f, 0x00,
	0x00,					/* pad */
	0x00, 0x00, 0x00, 0x02, 0x00, 0x28	/* originating VLAN 40 */
};

/* A DAD probe (RFC 4862 5.4.2): NS from :: for 2001:db8:30::7 to its
 * solicited-node group (RFC 4861 4.3). */
static const uint8_t f_ns_dad[] = {
	0x33, 0x33, 0xff, 0x00, 0x00, 0x07,
	0x02, 0x00, 0x00, 0x30, 0x00, 0x07,
	0x86, 0xdd,
	0x60, 0x00, 0x00, 0x00, 0x00, 0x18, 0x3a, 0xff,	/* 24, ICMPv6 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* src :: */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* ff02::1:ff00:7 */
	0x00, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x07,
	0x87, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* NS */
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x30, 0x00, 0x00,	/* target */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07
};

/*
 * Router advertisement (RFC 4861 4.2) from fe80::1: source link-layer
 * address and MTU options, then two Prefix Information options (4.6.2)
 * for 2001:db8:1::/64 and 2001:db8:2::/64.  ICMPv6 16 + 8 + 8 + 2 * 32.
 */
static const uint8_t f_ra[] = {
	0x33, 0x33, 0x00, 0x00, 0x00, 0x01,
	0x02, 0x00, 0x00, 0x30, 0x00, 0x01,
	0x86, 0xdd,
	0x60, 0x00, 0x00, 0x00, 0x00, 0x60, 0x3a, 0xff,	/* 96, ICMPv6 */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* fe80::1 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* ff02::1 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x86, 0x00, 0x00, 0x00, 0x40, 0x00, 0x07, 0x08,	/* RA, 1800 s */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* timers */
	0x01, 0x01, 0x02, 0x00, 0x00, 0x30, 0x00, 0x01,	/* SLLA */
	0x05, 0x01, 0x00, 0x00, 0x00, 0x00, 0x05, 0xdc,	/* MTU 1500 */
	0x03, 0x04, 0x40, 0xc0, 0x00, 0x27, 0x8d, 0x00,	/* PIO /64 */
	0x00, 0x09, 0x3a, 0x80, 0x00, 0x00, 0x00, 0x00,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x03, 0x04, 0x40, 0xc0, 0x00, 0x27, 0x8d, 0x00,	/* PIO /64 */
	0x00, 0x09, 0x3a, 0x80, 0x00, 0x00, 0x00, 0x00,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x02, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
};

/* ---- helpers ------------------------------------------------------------ */

/* Decode n bytes of b (as an exact-size heap copy: ASan sees any overread)
 * captured of wire. */
static int
dec(const uint8_t *b, size_t n, size_t wire, json_t **f, char **why)
{
	uint8_t *buf = malloc(n > 0 ? n : 1);
	int r;

	assert_non_null(buf);
	if (n > 0)
		memcpy(buf, b, n);
	*why = NULL;
	r = fa_eth_decode(buf, n, wire, f, why);
	free(buf);
	return r;
}

/* The same for an l2 from p on (len bytes, copied), the addresses given. */
static int
dec_l2(const uint8_t *dst, const uint8_t *src, const uint8_t *p, size_t len,
    int cut, int cooked, json_t **f, char **why)
{
	struct fa_eth_l2 l2;
	uint8_t *buf = malloc(len > 0 ? len : 1);
	int r;

	assert_non_null(buf);
	if (len > 0)
		memcpy(buf, p, len);
	l2.dst = dst;
	l2.src = src;
	l2.p = buf;
	l2.len = len;
	l2.cut = cut;
	l2.cooked = cooked;
	*why = NULL;
	r = fa_eth_decode_l2(&l2, f, why);
	free(buf);
	return r;
}

/* A whole frame that decodes. */
static json_t *
decode(const uint8_t *b, size_t n)
{
	json_t *f = NULL;
	char *why = NULL;

	if (dec(b, n, n, &f, &why) != 0)
		fail_msg("decode: %s", why != NULL ? why : "?");
	return f;
}

static const char *
str(const json_t *f, const char *k)
{
	const char *s = fa_json_get_str(f, k);

	assert_non_null(s);
	return s;
}

static long long
num(const json_t *f, const char *k)
{
	const json_t *v = json_object_get(f, k);

	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static const json_t *
tag_at(const json_t *f, size_t i)
{
	const json_t *t = json_array_get(json_object_get(f, "tags"), i);

	assert_non_null(t);
	return t;
}

static size_t
ntags(const json_t *f)
{
	const json_t *t = json_object_get(f, "tags");

	assert_true(json_is_array(t));
	return json_array_size(t);
}

static int
is_true(const json_t *f, const char *k)
{
	return json_is_true(json_object_get(f, k));
}

static int
has(const json_t *f, const char *k)
{
	return json_object_get(f, k) != NULL;
}

/* ---- tests -------------------------------------------------------------- */

static void
facts(void **state)
{
	json_t *f;

	(void)state;
	f = decode(f_lldp, sizeof(f_lldp));
	assert_string_equal(str(f, "signal"), "lldp");
	assert_string_equal(str(f, "chassis"), "00:1b:21:aa:bb:01");
	assert_string_equal(str(f, "port"), "Ethernet1/7");
	assert_string_equal(str(f, "system_name"), "leaf-07");
	/* Hostile text is escaped. */
	assert_string_equal(str(f, "system_description"),
	    "NOS 4.2.1 <script>\\x1b[31m");
	assert_string_equal(json_string_value(json_array_get(json_object_get(
	    f, "mgmt_addrs"), 0)), "10.0.0.2");
	assert_int_equal(json_integer_value(json_object_get(f, "pvid")), 120);
	assert_int_equal(json_array_size(json_object_get(f, "vlan_names")), 2);
	json_decref(f);

	f = decode(f_cdp, sizeof(f_cdp));
	assert_string_equal(str(f, "signal"), "cdp");
	assert_string_equal(str(f, "device_id"), "leaf-07");
	assert_int_equal(json_integer_value(json_object_get(f,
	    "native_vlan")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(
	    f, "mgmt_addrs"), 0)), "10.0.0.2");
	json_decref(f);

	f = decode(f_dtp, sizeof(f_dtp));
	assert_string_equal(str(f, "signal"), "dtp");
	assert_true(json_is_true(json_object_get(f, "negotiable")));
	assert_true(json_is_false(json_object_get(f, "trunking")));
	json_decref(f);

	f = decode(f_pvst30, sizeof(f_pvst30));
	assert_string_equal(str(f, "signal"), "stp");
	assert_true(json_is_true(json_object_get(f, "pvst")));
	assert_int_equal(json_integer_value(json_object_get(f, "vlan")), 30);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    json_object_get(f, "tags"), 0), "vid")), 30);
	json_decref(f);

	f = decode(f_dhcp, sizeof(f_dhcp));
	assert_string_equal(str(f, "signal"), "dhcp");
	assert_int_equal(json_integer_value(json_object_get(f, "msg_type")), 2);
	assert_string_equal(str(f, "server_id"), "10.20.0.250");
	assert_string_equal(str(f, "bootfile"), "pxelinux.0");
	assert_string_equal(str(f, "tftp_server"), "10.0.0.9");
	json_decref(f);

	f = decode(f_roce, sizeof(f_roce));
	assert_string_equal(str(f, "signal"), "roce");
	assert_string_equal(str(f, "ip_dst"), "10.30.0.9");
	assert_int_equal(json_integer_value(json_object_get(f, "dest_qp")),
	    0x11);
	json_decref(f);

	f = decode(f_lacp, sizeof(f_lacp));
	assert_string_equal(str(f, "signal"), "lacp");
	assert_string_equal(str(f, "actor_system"), "00:1b:21:aa:bb:01");
	json_decref(f);

	f = decode(f_arp30, sizeof(f_arp30));
	assert_string_equal(str(f, "signal"), "arp");
	assert_string_equal(str(f, "sender_ip"), "10.30.0.7");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    json_object_get(f, "tags"), 0), "vid")), 30);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(f, "tags"), 0), "tpid")), "0x8100");
	json_decref(f);

	f = decode(f_nd, sizeof(f_nd));
	assert_string_equal(str(f, "signal"), "nd");
	assert_int_equal(json_integer_value(json_object_get(f, "type")), 135);
	assert_string_equal(str(f, "ip_src"), "2001:db8:30::7");
	json_decref(f);
}

/* 802.2 LLC with any control field: U format (1 byte), I and S (2). */
static void
llc_control(void **state)
{
	uint8_t s_fmt[sizeof(f_stp_i)];
	json_t *f;

	(void)state;
	f = decode(f_stp_u, sizeof(f_stp_u));
	assert_string_equal(str(f, "signal"), "stp");
	assert_true(json_is_false(json_object_get(f, "pvst")));
	assert_int_equal(num(f, "version"), 0);
	assert_string_equal(str(f, "root"), "32768.00:1b:21:aa:bb:01");
	assert_string_equal(str(f, "bridge"), "32768.00:1b:21:aa:bb:02");
	assert_int_equal(num(f, "vlan"), 10);
	assert_false(has(f, "truncated"));
	json_decref(f);

	f = decode(f_stp_i, sizeof(f_stp_i));
	assert_string_equal(str(f, "signal"), "stp");
	assert_int_equal(num(f, "version"), 2);
	assert_string_equal(str(f, "root"), "28672.00:1b:21:aa:bb:01");
	assert_int_equal(num(f, "vlan"), 20);
	json_decref(f);

	/* An S-format control field (RR, N(R) 0) is 2 bytes as well. */
	memcpy(s_fmt, f_stp_i, sizeof(s_fmt));
	s_fmt[16] = 0x01;
	s_fmt[17] = 0x00;
	f = decode(s_fmt, sizeof(s_fmt));
	assert_string_equal(str(f, "signal"), "stp");
	assert_int_equal(num(f, "vlan"), 20);
	json_decref(f);
}

/* SNAP: RFC 1042 and 802.1H carry an EtherType, tags included. */
static void
snap(void **state)
{
	json_t *f;

	(void)state;
	f = decode(f_snap_arp, sizeof(f_snap_arp));
	assert_string_equal(str(f, "signal"), "arp");
	assert_int_equal(num(f, "op"), 1);
	assert_string_equal(str(f, "sender_mac"), "02:00:00:30:00:07");
	assert_string_equal(str(f, "sender_ip"), "192.0.2.7");
	assert_string_equal(str(f, "target_ip"), "192.0.2.1");
	assert_int_equal(ntags(f), 0);
	json_decref(f);

	f = decode(f_snap_ip, sizeof(f_snap_ip));
	assert_string_equal(str(f, "signal"), "name");
	assert_string_equal(str(f, "proto"), "mdns");
	assert_string_equal(str(f, "ip_src"), "192.0.2.8");
	json_decref(f);

	f = decode(f_snap_vlan, sizeof(f_snap_vlan));
	assert_string_equal(str(f, "signal"), "arp");
	assert_int_equal(num(f, "op"), 2);
	assert_string_equal(str(f, "sender_ip"), "192.0.2.9");
	assert_int_equal(ntags(f), 1);
	assert_string_equal(str(tag_at(f, 0), "tpid"), "0x8100");
	assert_int_equal(num(tag_at(f, 0), "vid"), 20);
	assert_int_equal(num(tag_at(f, 0), "pcp"), 3);
	json_decref(f);
}

/* ISL: the ISL VLAN is the outer tag, the inner frame is decoded. */
static void
isl(void **state)
{
	uint8_t b[26 + sizeof(f_arp30) + 4];
	json_t *f;
	char *why;
	size_t n;

	(void)state;
	f = decode(f_isl_dtp, sizeof(f_isl_dtp));
	assert_int_equal(ntags(f), 1);
	assert_string_equal(str(tag_at(f, 0), "tpid"), "isl");
	assert_int_equal(num(tag_at(f, 0), "vid"), 30);
	assert_int_equal(num(tag_at(f, 0), "pcp"), 0);
	assert_string_equal(str(f, "signal"), "dtp");
	assert_int_equal(num(f, "status"), 0x81);
	assert_true(is_true(f, "trunking"));
	assert_true(json_is_false(json_object_get(f, "negotiable")));
	assert_string_equal(str(f, "domain"), "corp");
	assert_string_equal(str(f, "src"), "00:1b:21:aa:bb:01");
	assert_string_equal(str(f, "dst"), "01:00:0c:cc:cc:cc");
	json_decref(f);

	/* A tagged frame in ISL: its tag follows the ISL one. */
	memcpy(b, f_isl_dtp, 26);
	b[12] = 0x00;
	b[13] = (uint8_t)(12 + sizeof(f_arp30));
	memcpy(b + 26, f_arp30, sizeof(f_arp30));
	memset(b + 26 + sizeof(f_arp30), 0, 4);
	f = decode(b, sizeof(b));
	assert_string_equal(str(f, "signal"), "arp");
	assert_int_equal(ntags(f), 2);
	assert_string_equal(str(tag_at(f, 0), "tpid"), "isl");
	assert_string_equal(str(tag_at(f, 1), "tpid"), "0x8100");
	assert_int_equal(num(tag_at(f, 1), "vid"), 30);
	json_decref(f);

	/* An ISL length past an uncut frame: refused, its VLAN counted. */
	memcpy(b, f_isl_dtp, 26);
	b[12] = 0x05;
	assert_int_equal(dec(b, sizeof(b), sizeof(b), &f, &why),
	    FA_ERR_INPUT);
	assert_non_null(why);
	assert_string_equal(str(tag_at(f, 0), "tpid"), "isl");
	json_decref(f);
	free(why);

	/* Cut anywhere: never refused; the VLAN once its bytes are in. */
	for (n = 14; n < sizeof(f_isl_dtp); n++) {
		assert_int_equal(dec(f_isl_dtp, n, sizeof(f_isl_dtp), &f,
		    &why), 0);
		assert_int_equal(ntags(f), n >= 26 ? 1 : 0);
		if (n >= 26 + 14 + 8 + 1 + 9 + 5) {
			assert_string_equal(str(f, "signal"), "dtp");
			assert_int_equal(num(f, "status"), 0x81);
		}
		/* Inner frame whole (the ISL CRC cut): not truncated. */
		assert_true(has(f, "truncated") == (n < 26 + 52));
		json_decref(f);
	}

	/* Cooked (no destination): no ISL. */
	assert_int_equal(dec_l2(NULL, f_isl_dtp + 6, f_isl_dtp + 12,
	    sizeof(f_isl_dtp) - 12, 0, 1, &f, &why), 0);
	assert_string_equal(str(f, "signal"), "other");
	assert_int_equal(ntags(f), 0);
	json_decref(f);
}

/* PVST+: the originating VLAN TLV over the system-ID extension; any
 * destination. */
static void
pvst(void **state)
{
	uint8_t b[sizeof(f_pvst_tlv)];
	json_t *f;

	(void)state;
	f = decode(f_pvst_tlv, sizeof(f_pvst_tlv));
	assert_string_equal(str(f, "signal"), "stp");
	assert_true(is_true(f, "pvst"));
	assert_int_equal(num(f, "vlan"), 40);
	assert_int_equal(num(tag_at(f, 0), "vid"), 40);
	json_decref(f);

	memcpy(b, f_pvst_tlv, sizeof(b));
	memcpy(b, "\x01\x80\xc2\x00\x00\x00", 6);
	f = decode(b, sizeof(b));
	assert_string_equal(str(f, "signal"), "stp");
	assert_true(is_true(f, "pvst"));
	assert_int_equal(num(f, "vlan"), 40);
	json_decref(f);

	/* Without the TLV (f_pvst30): the system-ID extension. */
	f = decode(f_pvst30, sizeof(f_pvst30));
	assert_int_equal(num(f, "vlan"), 30);
	json_decref(f);
}

/*
 * A DHCP offer cut at every byte from the end of its UDP header on: with
 * cut, never refused, op 2, server_id exactly when option 54 is whole,
 * truncated; without, refused as a lie but still DHCP.
 */
static void
dhcp_cut(void **state)
{
	const size_t udp_end = 14 + 20 + 8;
	/* options at 240: 53 (3 bytes), then 54 (6 bytes) */
	const size_t opt54_end = udp_end + 240 + 3 + 6;
	uint8_t req[sizeof(f_dhcp)];
	json_t *f;
	char *why;
	size_t n;

	(void)state;
	assert_int_equal(sizeof(f_dhcp), 302);
	for (n = udp_end; n < sizeof(f_dhcp); n++) {
		assert_int_equal(dec(f_dhcp, n, sizeof(f_dhcp), &f, &why), 0);
		assert_null(why);
		assert_string_equal(str(f, "signal"), "dhcp");
		assert_int_equal(num(f, "op"), 2);
		assert_true(is_true(f, "truncated"));
		assert_true(has(f, "server_id") == (n >= opt54_end));
		if (n >= opt54_end)
			assert_string_equal(str(f, "server_id"),
			    "10.20.0.250");
		assert_true(has(f, "msg_type") == (n >= opt54_end - 6));
		assert_true(has(f, "your_ip") == (n >= udp_end + 20));
		assert_true(has(f, "client_mac") == (n >= udp_end + 34));
		json_decref(f);

		assert_int_equal(dec(f_dhcp, n, n, &f, &why), FA_ERR_INPUT);
		assert_non_null(why);
		assert_non_null(f);
		assert_string_equal(str(f, "signal"), "dhcp");
		assert_false(has(f, "truncated"));
		json_decref(f);
		free(why);
	}
	/* All of it captured, only the FCS cut: not truncated. */
	assert_int_equal(dec(f_dhcp, sizeof(f_dhcp), sizeof(f_dhcp) + 4, &f,
	    &why), 0);
	assert_false(has(f, "truncated"));
	assert_string_equal(str(f, "server_id"), "10.20.0.250");
	json_decref(f);

	/* Cut right after the UDP header of a client's message: op 1. */
	memcpy(req, f_dhcp, sizeof(req));
	req[35] = 68;
	req[37] = 67;
	assert_int_equal(dec(req, udp_end, sizeof(req), &f, &why), 0);
	assert_int_equal(num(f, "op"), 1);
	json_decref(f);

	/* Cut in the UDP header: IPv4, truncated. */
	assert_int_equal(dec(f_dhcp, udp_end - 1, sizeof(f_dhcp), &f, &why),
	    0);
	assert_string_equal(str(f, "signal"), "ipv4");
	assert_true(is_true(f, "truncated"));
	json_decref(f);
	/* ... and in the IPv4 header. */
	assert_int_equal(dec(f_dhcp, 14 + 19, sizeof(f_dhcp), &f, &why), 0);
	assert_string_equal(str(f, "signal"), "ipv4");
	assert_true(is_true(f, "truncated"));
	json_decref(f);
}

/* Tags count whatever happens to the payload. */
static void
tags_kept(void **state)
{
	uint8_t b[sizeof(f_roce) + 4], lie[sizeof(f_pvst30)];
	json_t *f;
	char *why;

	(void)state;
	/* f_roce tagged VID 50 (802.1Q 9.6: TPID, PCP/DEI/VID). */
	memcpy(b, f_roce, 12);
	memcpy(b + 12, "\x81\x00\x00\x32", 4);
	memcpy(b + 16, f_roce + 12, sizeof(f_roce) - 12);
	f = decode(b, sizeof(b));
	assert_string_equal(str(f, "signal"), "roce");
	assert_int_equal(num(tag_at(f, 0), "vid"), 50);
	json_decref(f);

	/* Cut right after the tag, and after its EtherType. */
	assert_int_equal(dec(b, 16, sizeof(b), &f, &why), 0);
	assert_int_equal(ntags(f), 1);
	assert_int_equal(num(tag_at(f, 0), "vid"), 50);
	assert_string_equal(str(f, "signal"), "other");
	assert_true(is_true(f, "truncated"));
	json_decref(f);
	assert_int_equal(dec(b, 18, sizeof(b), &f, &why), 0);
	assert_int_equal(num(tag_at(f, 0), "vid"), 50);
	assert_string_equal(str(f, "signal"), "ipv4");
	assert_true(is_true(f, "truncated"));
	json_decref(f);
	/* The same, not cut: refused, the tag still there. */
	assert_int_equal(dec(b, 18, 18, &f, &why), FA_ERR_INPUT);
	assert_non_null(f);
	assert_int_equal(num(tag_at(f, 0), "vid"), 50);
	json_decref(f);
	free(why);

	/* A tagged frame lying about its 802.3 length. */
	memcpy(lie, f_pvst30, sizeof(lie));
	lie[16] = 0x05;
	lie[17] = 0xdc;			/* 1500 */
	assert_int_equal(dec(lie, sizeof(lie), sizeof(lie), &f, &why),
	    FA_ERR_INPUT);
	assert_non_null(why);
	assert_int_equal(num(tag_at(f, 0), "vid"), 30);
	assert_string_equal(str(f, "signal"), "stp");
	json_decref(f);
	free(why);
	/* ... or cut: all that was captured, truncated. */
	assert_int_equal(dec(lie, sizeof(lie), 1518, &f, &why), 0);
	assert_int_equal(num(tag_at(f, 0), "vid"), 30);
	assert_int_equal(num(f, "vlan"), 30);
	assert_true(is_true(f, "truncated"));
	json_decref(f);
}

/* An ARP cut at every byte keeps the fields wholly captured. */
static void
arp_cut(void **state)
{
	json_t *f;
	char *why;
	size_t n;

	(void)state;
	assert_int_equal(sizeof(f_arp30), 46);	/* 12 + tag 4 + 2 + 28 */
	for (n = 14; n < sizeof(f_arp30); n++) {
		assert_int_equal(dec(f_arp30, n, sizeof(f_arp30), &f, &why),
		    0);
		assert_true(is_true(f, "truncated"));
		assert_int_equal(ntags(f), n >= 16 ? 1 : 0);
		assert_string_equal(str(f, "signal"), n >= 18 ? "arp" :
		    "other");
		assert_true(has(f, "op") == (n >= 18 + 8));
		assert_true(has(f, "sender_mac") == (n >= 18 + 14));
		assert_true(has(f, "sender_ip") == (n >= 18 + 18));
		assert_false(has(f, "target_ip"));
		if (n >= 18 + 18)
			assert_string_equal(str(f, "sender_ip"), "10.30.0.7");
		json_decref(f);
		if (n < 18)
			continue;
		assert_int_equal(dec(f_arp30, n, n, &f, &why), FA_ERR_INPUT);
		assert_string_equal(str(f, "signal"), "arp");
		assert_int_equal(num(tag_at(f, 0), "vid"), 30);
		json_decref(f);
		free(why);
	}
}

/* RFC 4861: the target of an NS, the prefixes of an RA. */
static void
nd(void **state)
{
	uint8_t b[sizeof(f_ra)];
	const json_t *pf;
	json_t *f;
	char *why;

	(void)state;
	f = decode(f_ns_dad, sizeof(f_ns_dad));
	assert_string_equal(str(f, "signal"), "nd");
	assert_int_equal(num(f, "type"), 135);
	assert_string_equal(str(f, "ip_src"), "::");
	assert_string_equal(str(f, "target"), "2001:db8:30::7");
	json_decref(f);

	f = decode(f_nd, sizeof(f_nd));
	assert_string_equal(str(f, "target"), "2001:db8:30::1");
	json_decref(f);

	f = decode(f_ra, sizeof(f_ra));
	assert_string_equal(str(f, "signal"), "nd");
	assert_int_equal(num(f, "type"), 134);
	assert_string_equal(str(f, "ip_src"), "fe80::1");
	pf = json_object_get(f, "prefixes");
	assert_int_equal(json_array_size(pf), 2);
	assert_string_equal(json_string_value(json_array_get(pf, 0)),
	    "2001:db8:1::/64");
	assert_string_equal(json_string_value(json_array_get(pf, 1)),
	    "2001:db8:2::/64");
	assert_false(has(f, "truncated"));
	json_decref(f);

	/* Cut inside the second prefix option: the first one. */
	assert_int_equal(dec(f_ra, sizeof(f_ra) - 8, sizeof(f_ra), &f, &why),
	    0);
	assert_int_equal(json_array_size(json_object_get(f, "prefixes")), 1);
	assert_true(is_true(f, "truncated"));
	json_decref(f);

	/* An option of length 0 is malformed, cut or not. */
	memcpy(b, f_ra, sizeof(b));
	b[14 + 40 + 16 + 8 + 1] = 0;
	assert_int_equal(dec(b, sizeof(b), sizeof(b), &f, &why), FA_ERR_INPUT);
	assert_string_equal(str(f, "signal"), "nd");
	json_decref(f);
	free(why);
	assert_int_equal(dec(b, sizeof(b), sizeof(b) + 100, &f, &why),
	    FA_ERR_INPUT);
	json_decref(f);
	free(why);
}

/* LINUX_SLL: no destination, the kernel's protocol values. */
static void
cooked(void **state)
{
	uint8_t b[6 + sizeof(f_cdp) + sizeof(f_dtp)];
	const uint8_t *src = f_cdp + 6;
	json_t *f;
	char *why;

	(void)state;
	/* ETH_P_802_2, then LLC/SNAP CDP: the rest of the bytes. */
	memcpy(b, "\x00\x04", 2);
	memcpy(b + 2, f_cdp + 14, sizeof(f_cdp) - 14);
	assert_int_equal(dec_l2(NULL, src, b, 2 + sizeof(f_cdp) - 14, 0, 1,
	    &f, &why), 0);
	assert_string_equal(str(f, "signal"), "cdp");
	assert_true(json_is_null(json_object_get(f, "dst")));
	assert_string_equal(str(f, "src"), "00:1b:21:aa:bb:01");
	assert_string_equal(str(f, "device_id"), "leaf-07");
	json_decref(f);

	/* ARP (0x0806). */
	memcpy(b, "\x08\x06", 2);
	memcpy(b + 2, f_arp30 + 18, 28);
	assert_int_equal(dec_l2(NULL, src, b, 30, 0, 1, &f, &why), 0);
	assert_string_equal(str(f, "signal"), "arp");
	assert_string_equal(str(f, "sender_ip"), "10.30.0.7");
	assert_true(json_is_null(json_object_get(f, "dst")));
	json_decref(f);

	/* A tag, then ETH_P_802_2: DTP. */
	memcpy(b, "\x81\x00\x00\x1e\x00\x04", 6);
	memcpy(b + 6, f_dtp + 14, sizeof(f_dtp) - 14);
	assert_int_equal(dec_l2(NULL, src, b, 6 + sizeof(f_dtp) - 14, 0, 1,
	    &f, &why), 0);
	assert_string_equal(str(f, "signal"), "dtp");
	assert_int_equal(num(tag_at(f, 0), "vid"), 30);
	json_decref(f);

	/* ETH_P_802_3 (Novell raw) and other small values: "other". */
	memcpy(b, "\x00\x01\xff\xff\x00\x00", 6);
	assert_int_equal(dec_l2(NULL, src, b, 6, 0, 1, &f, &why), 0);
	assert_string_equal(str(f, "signal"), "other");
	json_decref(f);
	memcpy(b, "\x00\x26\x42\x42\x03\x00", 6);
	assert_int_equal(dec_l2(NULL, src, b, 6, 0, 1, &f, &why), 0);
	assert_string_equal(str(f, "signal"), "other");
	json_decref(f);

	/* No source either, cut before the protocol field. */
	assert_int_equal(dec_l2(NULL, NULL, b, 1, 1, 1, &f, &why), 0);
	assert_true(json_is_null(json_object_get(f, "src")));
	assert_true(is_true(f, "truncated"));
	json_decref(f);
}

/* A frame refused still names the signal its headers announce. */
static void
bad_signal_one(const uint8_t *b, size_t n, const char *want)
{
	json_t *f;
	char *why;

	assert_int_equal(dec(b, n, n, &f, &why), FA_ERR_INPUT);
	assert_non_null(why);
	assert_non_null(f);
	assert_true(json_is_array(json_object_get(f, "tags")));
	if (want != NULL)
		assert_string_equal(str(f, "signal"), want);
	else
		assert_false(has(f, "signal"));
	json_decref(f);
	free(why);
}

static void
bad_signal(void **state)
{
	json_t *f;
	char *why;

	(void)state;
	bad_signal_one(f_lldp, 30, "lldp");
	bad_signal_one(f_cdp, 24, "cdp");
	bad_signal_one(f_dtp, 24, "dtp");
	bad_signal_one(f_pvst30, 26, "stp");
	bad_signal_one(f_lacp, 16, "lacp");
	bad_signal_one(f_arp30, 20, "arp");
	bad_signal_one(f_nd, 14 + 40 + 10, "nd");
	bad_signal_one(f_roce, 30, NULL);	/* IPv4 header cut: no name */
	/* Shorter than an Ethernet header: no facts. */
	assert_int_equal(dec(f_lldp, 13, 13, &f, &why), FA_ERR_INPUT);
	assert_null(f);
	assert_non_null(why);
	free(why);
	assert_int_equal(dec(f_lldp, 13, 100, &f, &why), FA_ERR_INPUT);
	assert_null(f);
	free(why);
}

/* One decode of the hostile test: only 0 or INPUT, facts when promised. */
static void
hostile_one(int r, json_t *f, char *why, int cut)
{
	assert_true(r == 0 || r == FA_ERR_INPUT);
	if (r == 0) {
		assert_non_null(f);
		assert_null(why);
		assert_non_null(fa_json_get_str(f, "signal"));
	} else
		assert_non_null(why);
	/* Only a cut frame is truncated. */
	assert_true(cut || !has(f, "truncated"));
	json_decref(f);
	free(why);
}

/*
 * Decode every prefix (cut and not) and every one-byte change, as
 * Ethernet and as cooked; only 0 or INPUT.  A cut prefix of a good frame
 * is never refused.
 */
static void
hostile(void **state)
{
	static const struct { const uint8_t *b; size_t n; } fr[] = {
		{ f_lldp, sizeof(f_lldp) }, { f_cdp, sizeof(f_cdp) },
		{ f_dtp, sizeof(f_dtp) }, { f_pvst30, sizeof(f_pvst30) },
		{ f_dhcp, sizeof(f_dhcp) }, { f_roce, sizeof(f_roce) },
		{ f_lacp, sizeof(f_lacp) }, { f_arp30, sizeof(f_arp30) },
		{ f_nd, sizeof(f_nd) }, { f_stp_u, sizeof(f_stp_u) },
		{ f_stp_i, sizeof(f_stp_i) },
		{ f_snap_arp, sizeof(f_snap_arp) },
		{ f_snap_ip, sizeof(f_snap_ip) },
		{ f_snap_vlan, sizeof(f_snap_vlan) },
		{ f_isl_dtp, sizeof(f_isl_dtp) },
		{ f_pvst_tlv, sizeof(f_pvst_tlv) },
		{ f_ns_dad, sizeof(f_ns_dad) }, { f_ra, sizeof(f_ra) },
	};
	static const uint8_t vals[] = { 0x00, 0x01, 0x03, 0x04, 0x7f, 0x80,
	    0xaa, 0xff };
	uint8_t *buf;
	json_t *f;
	char *why;
	size_t i, n, k, v;
	int r, cut;

	(void)state;
	for (i = 0; i < sizeof(fr) / sizeof(fr[0]); i++) {
		/* The frame itself decodes whole. */
		json_decref(decode(fr[i].b, fr[i].n));
		for (n = 0; n <= fr[i].n; n++) {
			r = dec(fr[i].b, n, n, &f, &why);
			assert_true(n >= 14 || (r == FA_ERR_INPUT && f == NULL));
			assert_true(n < 14 || r == 0 || f != NULL);
			hostile_one(r, f, why, 0);
			r = dec(fr[i].b, n, fr[i].n + 4, &f, &why);
			if (n >= 14 && r != 0)
				fail_msg("frame %zu cut at %zu: %s", i, n,
				    why != NULL ? why : "?");
			hostile_one(r, f, why, 1);
			if (n < 12)
				continue;
			r = dec_l2(NULL, fr[i].b + 6, fr[i].b + 12, n - 12,
			    n < fr[i].n, 1, &f, &why);
			assert_non_null(f);
			assert_true(json_is_null(json_object_get(f, "dst")));
			hostile_one(r, f, why, n < fr[i].n);
		}
		buf = malloc(fr[i].n);
		assert_non_null(buf);
		for (k = 0; k < fr[i].n; k++)
			for (v = 0; v < sizeof(vals); v++)
				for (cut = 0; cut < 2; cut++) {
					memcpy(buf, fr[i].b, fr[i].n);
					buf[k] = vals[v];
					r = dec(buf, fr[i].n, fr[i].n + cut,
					    &f, &why);
					hostile_one(r, f, why, cut);
					r = dec_l2(NULL, buf + 6, buf + 12,
					    fr[i].n - 12, cut, 1, &f, &why);
					hostile_one(r, f, why, cut);
				}
		free(buf);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(facts),
		cmocka_unit_test(llc_control),
		cmocka_unit_test(snap),
		cmocka_unit_test(isl),
		cmocka_unit_test(pvst),
		cmocka_unit_test(dhcp_cut),
		cmocka_unit_test(tags_kept),
		cmocka_unit_test(arp_cut),
		cmocka_unit_test(nd),
		cmocka_unit_test(cooked),
		cmocka_unit_test(bad_signal),
		cmocka_unit_test(hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
