/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Ethernet frame decoding (see eth_frame.h).  Layouts: IEEE 802.1Q-2018
 * 9.6 (tags); IEEE 802.2 5.3/5.4 (LLC: DSAP, SSAP, a control field of 1
 * byte in U format, 2 in I and S format); IEEE 802-2014 10 and RFC 1042
 * (SNAP: OUI 00-00-00 and 802.1H 00-00-F8 carry an EtherType); Cisco ISL
 * (a 26-byte header, then the frame, then a CRC); IEEE 802.1AB-2016 8
 * (LLDP TLVs, 802.1 organizational TLVs Annex D); Cisco CDP/DTP/VTP over
 * SNAP (OUI 00-00-0C, PIDs 0x2000, 0x2004, 0x2003; PVST+ 0x010b); IEEE
 * 802.1D-2004 9 (BPDUs); IEEE 802.1AX-2014 6.4.2 (LACPDU); RFC 826 (ARP);
 * RFC 791, RFC 8200, RFC 768 (IPv4, IPv6, UDP); RFC 2131/2132 (DHCP);
 * RFC 4861 (neighbour discovery); RFC 6762 (mDNS 5353), RFC 4795 (LLMNR
 * 5355), RFC 1002 (NetBIOS 137), UPnP SSDP (1900); InfiniBand Annex A17
 * (RoCEv2, UDP 4791, BTH); DMTF ASF/RMCP (UDP 623).  Every string taken
 * from a frame is sanitised.
 *
 * Truncation: every decoder gets its bytes and a flag "cut" (more bytes
 * were sent than these).  Running out of bytes when cut ends the decoding
 * with "truncated": true and the facts so far; without cut it is a frame
 * that lies about its lengths.  A length field that runs past a whole
 * capture is recorded (lie()) and the bytes are decoded on as if cut, so
 * that the signal is still named; the frame is then refused.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "eth_frame.h"

#define LIST_MAX	32	/* addresses, VLAN names or prefixes kept */

/* How a type/length field reads (see ethertype()). */
enum type_mode {
	MODE_ETH,	/* Ethernet II or 802.3: <= 1500 is a length */
	MODE_COOKED,	/* LINUX_SLL protocol: 0x0004 LLC, else other */
	MODE_SNAP	/* a SNAP PID: an EtherType only */
};

struct dec {
	json_t		*f;
	json_t		*tags;
	char		**why;
	const char	*lie;	/* a length past a whole capture */
};

static uint16_t
be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static json_t *
mac_json(const uint8_t *m)
{
	return json_sprintf("%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
	    m[3], m[4], m[5]);
}

/* An address not captured (LINUX_SLL has no destination) is null. */
static json_t *
addr_json(const uint8_t *m)
{
	return m != NULL ? mac_json(m) : json_null();
}

static json_t *
ip_json(int af, const uint8_t *a)
{
	char s[INET6_ADDRSTRLEN];

	if (inet_ntop(af, a, s, sizeof(s)) == NULL)
		return NULL;
	return json_string(s);
}

/* A sanitised JSON string of n bytes (stops at a NUL). */
static json_t *
text_json(const uint8_t *p, size_t n)
{
	char *s = fa_str_sanitize(p, n);
	json_t *j = s != NULL ? json_string(s) : NULL;

	free(s);
	return j;
}

static int
set(json_t *o, const char *k, json_t *v)
{
	return json_object_set_new(o, k, v) != 0 ? FA_ERR_NOMEM : 0;
}

static int
append(json_t *o, const char *k, json_t *v)
{
	json_t *a = json_object_get(o, k);

	if (v == NULL)
		return FA_ERR_NOMEM;
	if (a == NULL) {
		if ((a = json_array()) == NULL || json_object_set_new(o, k, a))
			goto nomem;
	}
	if (json_array_size(a) >= LIST_MAX) {
		json_decref(v);
		return 0;
	}
	return json_array_append_new(a, v) != 0 ? FA_ERR_NOMEM : 0;
nomem:
	json_decref(v);
	return FA_ERR_NOMEM;
}

static int
name_signal(struct dec *d, const char *name)
{
	return set(d->f, "signal", json_string(name));
}

/* The captured bytes of a cut frame ended: keep what came before. */
static int
cut_short(struct dec *d)
{
	return set(d->f, "truncated", json_true());
}

/*
 * A length field claims bytes past the end of a whole capture: note it
 * (the frame is refused at the end) and return the "cut" flag to decode
 * the rest with, tolerantly, so that its signal is still named.
 */
static int
lie(struct dec *d, const char *what)
{
	if (d->lie == NULL)
		d->lie = what;
	return 1;
}

static int ethertype(struct dec *, const uint8_t *, size_t, int,
    enum type_mode);

/* ---- LLDP -------------------------------------------------------------- */

/* A Chassis or Port ID: subtype 4/3 (MAC), 5/4 (network address) or text. */
static json_t *
lldp_id(const uint8_t *v, size_t n, int mac_subtype, int addr_subtype)
{
	if (n >= 7 && v[0] == mac_subtype)
		return mac_json(v + 1);
	if (n >= 6 && v[0] == addr_subtype && v[1] == 1)
		return ip_json(AF_INET, v + 2);
	if (n >= 18 && v[0] == addr_subtype && v[1] == 2)
		return ip_json(AF_INET6, v + 2);
	return text_json(v + 1, n - 1);
}

static int
lldp(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	json_t *f = d->f;
	size_t off = 0, n;
	unsigned type;
	const uint8_t *v;
	int r;

	if ((r = name_signal(d, "lldp")) != 0)
		return r;
	while (off + 2 <= len) {
		type = be16(p + off) >> 9;
		n = be16(p + off) & 0x1ff;
		v = p + off + 2;
		if (off + 2 + n > len) {
			if (cut)
				return cut_short(d);
			return fa_why(d->why, "LLDP TLV %u at byte %zu runs "
			    "past the frame", type, off);
		}
		off += 2 + n;
		if (type == 0)
			return 0;
		r = 0;
		if ((type == 1 || type == 2) && n >= 2)
			r = set(f, type == 1 ? "chassis" : "port", type == 1 ?
			    lldp_id(v, n, 4, 5) : lldp_id(v, n, 3, 4));
		else if (type == 3 && n >= 2)
			r = set(f, "ttl", json_integer(be16(v)));
		else if (type == 5 || type == 6 || type == 4)
			r = set(f, type == 5 ? "system_name" : type == 6 ?
			    "system_description" : "port_description",
			    text_json(v, n));
		else if (type == 8 && n >= 2 && v[0] >= 2 &&
		    (size_t)v[0] + 1 <= n) {
			/* addr_len counts the subtype byte (8.5.9.2). */
			if (v[1] == 1 && v[0] == 5)
				r = append(f, "mgmt_addrs", ip_json(AF_INET,
				    v + 2));
			else if (v[1] == 2 && v[0] == 17)
				r = append(f, "mgmt_addrs", ip_json(AF_INET6,
				    v + 2));
			else	/* another family (MAC, DNS name...) */
				r = append(f, "mgmt_addrs", json_sprintf(
				    "address family %u, %u bytes", v[1],
				    v[0] - 1u));
		} else if (type == 127 && n >= 4 && v[0] == 0x00 &&
		    v[1] == 0x80 && v[2] == 0xc2) {
			if (v[3] == 1 && n >= 6)
				r = set(f, "pvid", json_integer(be16(v + 4)));
			else if (v[3] == 3 && n >= 7 && (size_t)v[6] + 7 <= n)
				r = append(f, "vlan_names", json_pack("{s:i, "
				    "s:o}", "vid", be16(v + 4) & 0xfff, "name",
				    text_json(v + 7, v[6])));
		}
		if (r != 0)
			return r;
	}
	if (cut)
		return cut_short(d);
	return fa_why(d->why, "LLDP has no End TLV");
}

/* ---- Cisco SNAP: CDP, DTP, VTP ----------------------------------------- */

/* A CDP address list (count, then protocol type/len/protocol/len/addr). */
static int
cdp_addrs(struct dec *d, const uint8_t *v, size_t n)
{
	size_t off = 4, plen, alen;
	uint32_t count, i;
	int r;

	if (n < 4)
		return fa_why(d->why, "CDP address list shorter than its "
		    "count");
	count = be32(v);
	for (i = 0; i < count && i < LIST_MAX; i++) {
		if (off + 2 > n || off + 2 + (plen = v[off + 1]) + 2 > n)
			return fa_why(d->why, "CDP address %u runs past its "
			    "TLV", i);
		alen = be16(v + off + 2 + plen);
		if (off + 4 + plen + alen > n)
			return fa_why(d->why, "CDP address %u runs past its "
			    "TLV", i);
		r = 0;
		if (plen == 1 && v[off + 2] == 0xcc && alen == 4)
			r = append(d->f, "mgmt_addrs", ip_json(AF_INET,
			    v + off + 4 + plen));
		else if (plen == 8 && alen == 16)
			r = append(d->f, "mgmt_addrs", ip_json(AF_INET6,
			    v + off + 4 + plen));
		if (r != 0)
			return r;
		off += 4 + plen + alen;
	}
	return 0;
}

static int
cdp(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	json_t *f = d->f;
	size_t off = 4, n;	/* version, ttl, checksum */
	unsigned type;
	const uint8_t *v;
	int r;

	if ((r = name_signal(d, "cdp")) != 0)
		return r;
	if (len < 4)
		return cut ? cut_short(d) : fa_why(d->why, "CDP header "
		    "truncated");
	/* TLV: type(2), length(2, counting these 4 bytes), value. */
	while (off + 4 <= len) {
		type = be16(p + off);
		n = be16(p + off + 2);
		if (n < 4 || (off + n > len && !cut))
			return fa_why(d->why, "CDP TLV 0x%04x at byte %zu has "
			    "a bad length", type, off);
		if (off + n > len)
			return cut_short(d);
		v = p + off + 4;
		off += n;
		n -= 4;
		r = 0;
		switch (type) {
		case 0x0001:
			r = set(f, "device_id", text_json(v, n));
			break;
		case 0x0003:
			r = set(f, "port", text_json(v, n));
			break;
		case 0x0005:
			r = set(f, "software", text_json(v, n));
			break;
		case 0x0006:
			r = set(f, "platform", text_json(v, n));
			break;
		case 0x0009:
			r = set(f, "vtp_domain", text_json(v, n));
			break;
		case 0x000a:
			if (n >= 2)
				r = set(f, "native_vlan",
				    json_integer(be16(v)));
			break;
		case 0x0002:
		case 0x0016:
			r = cdp_addrs(d, v, n);
			break;
		}
		if (r != 0)
			return r;
	}
	return cut ? cut_short(d) : 0;
}

static int
dtp(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	json_t *f = d->f;
	size_t off = 1, n;	/* version */
	unsigned type, status = 0x100, admin;
	int r;

	if ((r = name_signal(d, "dtp")) != 0)
		return r;
	/* TLV: type(2), length(2, counting these 4 bytes), value. */
	while (off + 4 <= len) {
		type = be16(p + off);
		n = be16(p + off + 2);
		if (n < 4 || (off + n > len && !cut))
			return fa_why(d->why, "DTP TLV 0x%04x at byte %zu has "
			    "a bad length", type, off);
		if (off + n > len)
			break;
		r = 0;
		if (type == 0x0001)
			r = set(f, "domain", text_json(p + off + 4, n - 4));
		else if (type == 0x0002 && n >= 5) {
			status = p[off + 4];
			r = set(f, "status", json_integer(status));
		} else if (type == 0x0003 && n >= 5)
			r = set(f, "trunk_type", json_integer(p[off + 4]));
		if (r != 0)
			return r;
		off += n;
	}
	if (status > 0xff)
		return cut ? cut_short(d) : fa_why(d->why, "DTP frame "
		    "without a status TLV");
	/* Bit 7: operating trunk; bits 0-2: admin 3 desirable, 4 auto. */
	admin = status & 0x07;
	if ((r = set(f, "trunking", json_boolean(status & 0x80))) != 0 ||
	    (r = set(f, "negotiable", json_boolean(admin == 3 ||
	    admin == 4))) != 0)
		return r;
	return cut ? cut_short(d) : 0;
}

/* VTP: version, code, followers, domain length, domain. */
static int
vtp(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	int r;

	if ((r = name_signal(d, "vtp")) != 0)
		return r;
	if (len < 4 || (size_t)p[3] + 4 > len)
		return cut ? cut_short(d) : fa_why(d->why, "VTP header "
		    "truncated");
	return set(d->f, "domain", text_json(p + 4, p[3]));
}

/* ---- STP / PVST+ ------------------------------------------------------- */

static json_t *
bridge_id(const uint8_t *b)
{
	return json_sprintf("%u.%02x:%02x:%02x:%02x:%02x:%02x",
	    (unsigned)(be16(b) & 0xf000), b[2], b[3], b[4], b[5], b[6], b[7]);
}

/*
 * The TLVs Cisco appends to a (R)PVST+ BPDU, from BPDU byte 36 on (after
 * the 35 bytes of a configuration BPDU and one byte: the padding, or an
 * RST BPDU's Version 1 Length): type(2), length(2, the value only),
 * value.  Type 0 of length 2 is the Originating VLAN (the layout
 * Wireshark's packet-bpdu.c reads).
 */
static int
pvst_tlvs(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	size_t off = 36, n;
	unsigned type;
	int r;

	while (off + 4 <= len) {
		type = be16(p + off);
		n = be16(p + off + 2);
		if (off + 4 + n > len)
			return cut ? cut_short(d) : fa_why(d->why, "PVST+ TLV "
			    "0x%04x at byte %zu runs past the BPDU", type,
			    off);
		if (type == 0x0000 && n == 2 && (r = set(d->f, "vlan",
		    json_integer(be16(p + off + 4)))) != 0)
			return r;
		off += 4 + n;
	}
	return cut ? cut_short(d) : 0;
}

static int
stp(struct dec *d, const uint8_t *p, size_t len, int cut, int pvst)
{
	json_t *f = d->f;
	int r;

	if ((r = name_signal(d, "stp")) != 0 ||
	    (r = set(f, "pvst", json_boolean(pvst))) != 0)
		return r;
	if (len >= 2 && be16(p) != 0)
		return fa_why(d->why, "not a BPDU (protocol identifier)");
	if (len >= 3 && (r = set(f, "version", json_integer(p[2]))) != 0)
		return r;
	if (len < 4)
		return cut ? cut_short(d) : fa_why(d->why, "not a BPDU "
		    "(%zu bytes)", len);
	if (p[3] == 0x80)		/* TCN: no more fields */
		return 0;
	/* Root ID at 5, bridge ID at 17 (8 bytes each), 35 bytes in all. */
	if (len >= 13 && (r = set(f, "root", bridge_id(p + 5))) != 0)
		return r;
	/* 802.1t: the 12 low bits of the priority carry the VLAN (PVST). */
	if (len >= 25 && ((r = set(f, "bridge", bridge_id(p + 17))) != 0 ||
	    (r = set(f, "vlan", json_integer(be16(p + 17) & 0x0fff))) != 0))
		return r;
	if (len < 35)
		return cut ? cut_short(d) : fa_why(d->why, "BPDU truncated "
		    "(%zu bytes)", len);
	/* An MST BPDU (version 3+, 102 bytes or more) carries no TLVs. */
	if (pvst && !(p[3] == 0x02 && p[2] >= 3 && len >= 102 && p[35] == 0))
		return pvst_tlvs(d, p, len, cut);
	return 0;
}

/* ---- LACP ---------------------------------------------------------------- */

static int
lacp(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	int r;

	if ((r = name_signal(d, "lacp")) != 0)
		return r;
	/* subtype 1, version, actor TLV type 1 length 20 */
	if ((len >= 1 && p[0] != 1) || (len >= 3 && p[2] != 1) ||
	    (len >= 4 && p[3] != 20) || (len < 4 && !cut))
		return fa_why(d->why, "LACPDU without an actor TLV");
	/* actor: system priority(2) at 4, system at 6, key at 12 */
	if (len >= 12 && (r = set(d->f, "actor_system", mac_json(p + 6)))
	    != 0)
		return r;
	if (len >= 14 && (r = set(d->f, "actor_key", json_integer(be16(p +
	    12)))) != 0)
		return r;
	if (len < 22)
		return cut ? cut_short(d) : fa_why(d->why, "LACPDU without an "
		    "actor TLV");
	return 0;
}

/* ---- ARP ----------------------------------------------------------------- */

/* RFC 826 for Ethernet/IPv4: htype(2) ptype(2) hlen plen op(2) sha(6)
 * spa(4) tha(6) tpa(4): 28 bytes. */
static int
arp(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	json_t *f = d->f;
	int r;

	if ((r = name_signal(d, "arp")) != 0)
		return r;
	if (len >= 8 && (r = set(f, "op", json_integer(be16(p + 6)))) != 0)
		return r;
	if (len >= 6 && (be16(p) != 1 || be16(p + 2) != 0x0800 || p[4] != 6 ||
	    p[5] != 4)) {
		if (len < 8)
			return cut ? cut_short(d) : fa_why(d->why, "ARP "
			    "truncated (%zu bytes)", len);
		return 0;	/* another hardware or protocol: op only */
	}
	if (len >= 14 && (r = set(f, "sender_mac", mac_json(p + 8))) != 0)
		return r;
	if (len >= 18 && (r = set(f, "sender_ip", ip_json(AF_INET, p + 14))) !=
	    0)
		return r;
	if (len >= 24 && (r = set(f, "target_mac", mac_json(p + 18))) != 0)
		return r;
	if (len < 28)
		return cut ? cut_short(d) : fa_why(d->why, "ARP truncated (%zu "
		    "bytes)", len);
	return set(f, "target_ip", ip_json(AF_INET, p + 24));
}

/* ---- UDP payloads -------------------------------------------------------- */

/*
 * DHCP (RFC 2131 section 2): op(1) htype hlen hops xid(4) secs(2)
 * flags(2) ciaddr(4) yiaddr(4) at 16, siaddr(4), giaddr(4) at 24,
 * chaddr(16) at 28, sname(64) at 44, file(128) at 108, the magic cookie
 * at 236, options from 240 (RFC 2132).
 */
static int
dhcp(struct dec *d, const uint8_t *p, size_t len, int cut, unsigned sport,
    unsigned dport)
{
	json_t *f = d->f;
	size_t off = 240, n;
	unsigned opt;
	int r;

	if ((r = name_signal(d, "dhcp")) != 0)
		return r;
	if (len == 0 && cut) {
		/* Nothing of it captured: the ports tell the direction. */
		if (sport == 67 && dport == 68)
			r = set(f, "op", json_integer(2));
		else if (sport == 68 && dport == 67)
			r = set(f, "op", json_integer(1));
		return r != 0 ? r : cut_short(d);
	}
	if (len >= 1 && (r = set(f, "op", json_integer(p[0]))) != 0)
		return r;
	if (len >= 20 && (r = set(f, "your_ip", ip_json(AF_INET, p + 16))) !=
	    0)
		return r;
	if (len >= 28 && (r = set(f, "relayed", json_boolean(be32(p + 24) !=
	    0))) != 0)
		return r;
	if (len >= 34 && (r = set(f, "client_mac", mac_json(p + 28))) != 0)
		return r;
	if (len > 108 && p[108] != '\0') {
		/* The file field, when whole or its NUL was captured. */
		n = len - 108 < 128 ? len - 108 : 128;
		if ((n == 128 || memchr(p + 108, '\0', n) != NULL) &&
		    (r = set(f, "bootfile", text_json(p + 108, n))) != 0)
			return r;
	}
	if (len < 240)
		return cut ? cut_short(d) : fa_why(d->why, "DHCP without the "
		    "magic cookie");
	if (be32(p + 236) != 0x63825363)
		return fa_why(d->why, "DHCP without the magic cookie");
	/* Options: code(1), length(1), value; 0 pad, 255 end. */
	while (off < len && p[off] != 255) {
		if ((opt = p[off]) == 0) {
			off++;
			continue;
		}
		if (off + 2 > len || off + 2 + (n = p[off + 1]) > len)
			return cut ? cut_short(d) : fa_why(d->why, "DHCP "
			    "option %u runs past the frame", opt);
		r = 0;
		if (opt == 53 && n == 1)
			r = set(f, "msg_type", json_integer(p[off + 2]));
		else if (opt == 54 && n == 4)
			r = set(f, "server_id", ip_json(AF_INET, p + off + 2));
		else if (opt == 66)
			r = set(f, "tftp_server", text_json(p + off + 2, n));
		else if (opt == 67)
			r = set(f, "bootfile", text_json(p + off + 2, n));
		if (r != 0)
			return r;
		off += 2 + n;
	}
	return off >= len && cut ? cut_short(d) : 0;
}

/* RoCEv2 (Annex A17): the InfiniBand BTH, 12 bytes: opcode at 0,
 * destination QP in the 24 low bits of bytes 4-7. */
static int
roce(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	int r;

	if ((r = name_signal(d, "roce")) != 0)
		return r;
	if (len >= 1 && (r = set(d->f, "opcode", json_integer(p[0]))) != 0)
		return r;
	if (len >= 8 && (r = set(d->f, "dest_qp", json_integer(be32(p + 4) &
	    0xffffff))) != 0)
		return r;
	if (len < 12)
		return cut ? cut_short(d) : fa_why(d->why, "RoCEv2 BTH "
		    "truncated");
	return 0;
}

/* RMCP (DMTF ASF): version 0x06, reserved, sequence, class. */
static int
rmcp(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	int r;

	if ((r = name_signal(d, "rmcp")) != 0)
		return r;
	if ((len >= 1 && p[0] != 0x06) || (len < 4 && !cut))
		return fa_why(d->why, "RMCP header invalid");
	if (len < 4)
		return cut_short(d);
	return set(d->f, "class", json_integer(p[3]));
}

/* RFC 768: sport(2) dport(2) length(2, header included) checksum(2). */
static int
udp(struct dec *d, int af, const uint8_t *src, const uint8_t *dst,
    const uint8_t *p, size_t len, int cut)
{
	json_t *f = d->f;
	unsigned sport, dport, ulen;
	const char *name = NULL;
	int r;

	if (len < 8)
		return cut ? cut_short(d) : fa_why(d->why, "UDP header "
		    "truncated");
	sport = be16(p);
	dport = be16(p + 2);
	ulen = be16(p + 4);
	p += 8;
	len -= 8;
	if (ulen >= 8 && ulen - 8 <= len) {
		len = ulen - 8;		/* the datagram is all here */
		cut = 0;
	} else if (ulen >= 8 && !cut)
		cut = lie(d, "UDP length runs past the frame");
	/* (A length under 8, as in a jumbogram: the bytes that are here.) */
	if ((r = set(f, "ip_src", ip_json(af, src))) != 0 ||
	    (r = set(f, "ip_dst", ip_json(af, dst))) != 0 ||
	    (r = set(f, "sport", json_integer(sport))) != 0 ||
	    (r = set(f, "dport", json_integer(dport))) != 0)
		return r;
	if (af == AF_INET && (sport == 67 || sport == 68) &&
	    (dport == 67 || dport == 68))
		return dhcp(d, p, len, cut, sport, dport);
	if (dport == 4791)
		return roce(d, p, len, cut);
	if (sport == 623 || dport == 623)
		return rmcp(d, p, len, cut);
	if (dport == 5353 || sport == 5353)
		name = "mdns";
	else if (dport == 5355)
		name = "llmnr";
	else if (dport == 137 || dport == 138)
		name = "nbns";
	else if (dport == 1900)
		name = "ssdp";
	if (name == NULL)
		return 0;
	if ((r = name_signal(d, "name")) != 0)
		return r;
	return set(f, "proto", json_string(name));
}

/* RFC 791: version/IHL at 0, total length at 2, fragment at 6, protocol
 * at 9, source at 12, destination at 16. */
static int
ipv4(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	size_t hl, tot;
	int icut = 0, r;

	/* A header cut is IPv4 still; a bad one names nothing. */
	if (len >= 1 && (p[0] >> 4 != 4 || (p[0] & 0xf) < 5))
		return fa_why(d->why, "IPv4 header invalid");
	hl = len >= 1 ? (size_t)(p[0] & 0xf) * 4 : 20;
	if (len < hl && !cut)
		return fa_why(d->why, "IPv4 header truncated");
	if ((r = name_signal(d, "ipv4")) != 0)
		return r;
	if (len < hl)
		return cut_short(d);
	tot = be16(p + 2);
	if (tot < hl) {
		tot = len;	/* offloaded (0): use what is there */
		icut = cut;
	} else if (tot > len) {
		tot = len;
		icut = cut ? 1 : lie(d, "IPv4 total length runs past the "
		    "frame");
	}
	if ((be16(p + 6) & 0x1fff) != 0)	/* a later fragment */
		return 0;
	if (p[9] == 17)
		return udp(d, AF_INET, p + 12, p + 16, p + hl, tot - hl, icut);
	return 0;
}

/*
 * RFC 4861 neighbour discovery: type(1) code(1) checksum(2), then for
 * NS (135) and NA (136) reserved/flags(4) and the target (16) at 8; a
 * redirect (137) has the target at 8 and the destination at 24; an RA
 * (134) has hop limit, flags, lifetime(2), reachable(4), retrans(4), its
 * options from 16.  Options: type(1), length(1, in 8 bytes, 0 invalid);
 * Prefix Information (3, length 4): prefix length at 2, prefix at 16.
 */
static int
nd(struct dec *d, const uint8_t *src, const uint8_t *p, size_t len,
    int cut)
{
	char a[INET6_ADDRSTRLEN];
	size_t off = 16, n;
	unsigned type = p[0];
	int r;

	if ((r = name_signal(d, "nd")) != 0 ||
	    (r = set(d->f, "type", json_integer(type))) != 0 ||
	    (r = set(d->f, "ip_src", ip_json(AF_INET6, src))) != 0)
		return r;
	if (type >= 135) {
		if (len < 24)
			return cut ? cut_short(d) : fa_why(d->why, "ND message "
			    "%u ends before its target", type);
		return set(d->f, "target", ip_json(AF_INET6, p + 8));
	}
	if (type != 134)
		return len < 4 && cut ? cut_short(d) : 0;
	if (len < 16)
		return cut ? cut_short(d) : fa_why(d->why, "router "
		    "advertisement truncated");
	while (off + 2 <= len) {
		if ((n = (size_t)p[off + 1] * 8) == 0)
			return fa_why(d->why, "ND option %u of length 0",
			    p[off]);
		if (off + n > len)
			return cut ? cut_short(d) : fa_why(d->why, "ND "
			    "option %u runs past the message", p[off]);
		if (p[off] == 3 && n == 32) {
			if (inet_ntop(AF_INET6, p + off + 16, a, sizeof(a)) ==
			    NULL)
				return FA_ERR_NOMEM;
			if ((r = append(d->f, "prefixes", json_sprintf(
			    "%s/%u", a, p[off + 2]))) != 0)
				return r;
		}
		off += n;
	}
	if (cut)
		return cut_short(d);
	if (off != len)
		return fa_why(d->why, "ND option header truncated");
	return 0;
}

/* RFC 8200: payload length at 4, next header at 6, source at 8,
 * destination at 24; 40 bytes. */
static int
ipv6(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	size_t plen;
	int icut = 0, r;

	/* A header cut is IPv6 still; a bad one names nothing. */
	if (len >= 1 && p[0] >> 4 != 6)
		return fa_why(d->why, "IPv6 header invalid");
	if (len < 40 && !cut)
		return fa_why(d->why, "IPv6 header truncated");
	if ((r = name_signal(d, "ipv6")) != 0)
		return r;
	if (len < 40)
		return cut_short(d);
	plen = be16(p + 4);
	if (plen > len - 40) {
		plen = len - 40;
		icut = cut ? 1 : lie(d, "IPv6 payload length runs past the "
		    "frame");
	}
	if (p[6] == 17)		/* UDP directly after the fixed header */
		return udp(d, AF_INET6, p + 8, p + 24, p + 40, plen, icut);
	/* ICMPv6 neighbour discovery: RS 133 to redirect 137. */
	if (p[6] == 58 && plen >= 1 && (plen >= 4 || icut) && p[40] >= 133 &&
	    p[40] <= 137)
		return nd(d, p + 8, p + 40, plen, icut);
	return 0;
}

/* ---- LLC, SNAP, the EtherType -------------------------------------------- */

static int
other(struct dec *d, int truncated)
{
	int r;

	if ((r = name_signal(d, "other")) != 0)
		return r;
	return truncated ? cut_short(d) : 0;
}

/* SNAP with the Cisco OUI 00-00-0C: the protocol is the PID alone. */
static int
cisco(struct dec *d, unsigned pid, const uint8_t *p, size_t len, int cut)
{
	switch (pid) {
	case 0x2000:
		return cdp(d, p, len, cut);
	case 0x2003:
		return vtp(d, p, len, cut);
	case 0x2004:
		return dtp(d, p, len, cut);
	case 0x010b:
		return stp(d, p, len, cut, 1);
	}
	return other(d, 0);
}

/*
 * An 802.2 LLC PDU: DSAP, SSAP, then a control field of 1 byte when its
 * two low bits are 11 (U format) and of 2 bytes otherwise (I and S
 * format; IEEE 802.2 5.4).  STP BPDUs go to SAP 0x42; SAP 0xaa is SNAP:
 * OUI(3), PID(2).
 */
static int
llc(struct dec *d, const uint8_t *p, size_t len, int cut)
{
	size_t h;
	const uint8_t *s;
	int r;

	if (len < 2)
		return other(d, cut);
	h = len >= 3 && (p[2] & 3) != 3 ? 4 : 3;
	if (p[0] == 0x42 && p[1] == 0x42) {
		if (len < h) {
			if ((r = name_signal(d, "stp")) != 0)
				return r;
			return cut ? cut_short(d) : fa_why(d->why, "LLC header "
			    "truncated");
		}
		return stp(d, p + h, len - h, cut, 0);
	}
	if (p[0] != 0xaa || p[1] != 0xaa)
		return other(d, 0);
	if (len < h + 5)
		return other(d, cut);
	s = p + h;
	/* RFC 1042 and 802.1H: the PID is an EtherType. */
	if (s[0] == 0x00 && s[1] == 0x00 && (s[2] == 0x00 || s[2] == 0xf8))
		return ethertype(d, s + 3, len - h - 3, cut, MODE_SNAP);
	if (s[0] == 0x00 && s[1] == 0x00 && s[2] == 0x0c)
		return cisco(d, be16(s + 3), s + 5, len - h - 5, cut);
	return other(d, 0);
}

static int
is_tag(unsigned type)
{
	return type == 0x8100 || type == 0x88a8 || type == 0x9100 ||
	    type == 0x9200;
}

/*
 * From a type/length field on: the tags, then the payload by its type.
 * mode: how the first field reads (an 802.3 length, a LINUX_SLL protocol,
 * a SNAP PID); after a tag, a cooked field stays cooked and a SNAP one
 * reads as Ethernet.
 */
static int
ethertype(struct dec *d, const uint8_t *p, size_t len, int cut,
    enum type_mode mode)
{
	unsigned type;
	int r;

	for (;;) {
		if (len < 2 || (is_tag(be16(p)) && len < 4)) {
			if ((r = name_signal(d, "other")) != 0)
				return r;
			return cut ? cut_short(d) : fa_why(d->why, "frame ends "
			    "before its EtherType");
		}
		type = be16(p);
		if (!is_tag(type))
			break;
		if (json_array_size(d->tags) >= FA_ETH_MAX_TAGS)
			/* A tag stack no network uses: keep the VIDs read
			 * (a double-tagging attempt is a finding), stop. */
			return name_signal(d, "tag-overflow");
		if (json_array_append_new(d->tags, json_pack("{s:o, s:i, s:i}",
		    "tpid", json_sprintf("0x%04x", type), "vid",
		    be16(p + 2) & 0x0fff, "pcp", p[2] >> 5)) != 0)
			return FA_ERR_NOMEM;
		p += 4;
		len -= 4;
		if (mode == MODE_SNAP)
			mode = MODE_ETH;
	}
	p += 2;
	len -= 2;
	if (type <= 1500) {
		if (mode == MODE_COOKED)
			/* ETH_P_802_2: LLC, as long as the capture; 0x0001
			 * (Novell raw 802.3) and the rest: other. */
			return type == 0x0004 ? llc(d, p, len, cut) :
			    other(d, 0);
		if (mode == MODE_SNAP)
			return other(d, 0);
		if (type <= len)
			return llc(d, p, type, 0);	/* then padding */
		return llc(d, p, len, cut ? 1 : lie(d, "802.3 length runs "
		    "past the frame"));
	}
	switch (type) {
	case 0x88cc:
		return lldp(d, p, len, cut);
	case 0x8809:
		return lacp(d, p, len, cut);
	case 0x0806:
		return arp(d, p, len, cut);
	case 0x0800:
		return ipv4(d, p, len, cut);
	case 0x86dd:
		return ipv6(d, p, len, cut);
	}
	return other(d, 0);
}

/* ---- ISL --------------------------------------------------------------- */

static int
is_isl(const uint8_t *dst)
{
	return (dst[0] == 0x01 || dst[0] == 0x03) && dst[1] == 0x00 &&
	    dst[2] == 0x0c && dst[3] == 0x00 && dst[4] == 0x00;
}

/*
 * Cisco Inter-Switch Link: DA(5) type/user(1) SA(6) LEN(2) AA-AA-03(3)
 * HSA(3) VLAN(15 bits) BPDU(1 bit) INDEX(2) RES(2), 26 bytes, then the
 * encapsulated frame and a CRC(4).  LEN counts from after itself to
 * before the CRC: the frame is LEN - 12 bytes.  Type 0 is Ethernet.  p
 * is at LEN.
 */
static int
isl(struct dec *d, const struct fa_eth_l2 *l2)
{
	const uint8_t *p = l2->p;
	size_t len = l2->len, n;
	int cut = l2->cut, r;

	if (len < 14) {
		if ((r = other(d, 0)) != 0)
			return r;
		return cut ? cut_short(d) : fa_why(d->why, "ISL header "
		    "truncated");
	}
	/* The whole header is here: its VLAN is the outer tag. */
	if (json_array_append_new(d->tags, json_pack("{s:s, s:i, s:i}",
	    "tpid", "isl", "vid", be16(p + 8) >> 1, "pcp", 0)) != 0)
		return FA_ERR_NOMEM;
	if (l2->dst[5] >> 4 != 0)	/* Token Ring, FDDI, ATM */
		return other(d, 0);
	if (be16(p) < 12) {
		if ((r = other(d, 0)) != 0)
			return r;
		return fa_why(d->why, "ISL length shorter than its header");
	}
	n = be16(p) - 12u;
	p += 14;
	len -= 14;
	if (n <= len)
		cut = 0;	/* the rest is the CRC */
	else {
		n = len;
		if (!cut)
			cut = lie(d, "ISL length runs past the frame");
	}
	if (n < 14) {
		if ((r = other(d, 0)) != 0)
			return r;
		return cut ? cut_short(d) : fa_why(d->why, "ISL frame shorter "
		    "than an Ethernet header");
	}
	/* The addresses are the encapsulated frame's. */
	if ((r = set(d->f, "dst", mac_json(p))) != 0 ||
	    (r = set(d->f, "src", mac_json(p + 6))) != 0)
		return r;
	return ethertype(d, p + 12, n - 12, cut, MODE_ETH);
}

/* ---- the frame ----------------------------------------------------------- */

/* A refused frame keeps only what its caller may count. */
static void
strip(json_t *f)
{
	const char *k;
	json_t *v;
	void *tmp;

	json_object_foreach_safe(f, tmp, k, v) {
		(void)v;
		if (strcmp(k, "tags") != 0 && strcmp(k, "signal") != 0 &&
		    strcmp(k, "src") != 0 && strcmp(k, "dst") != 0)
			json_object_del(f, k);
	}
}

int
fa_eth_decode_l2(const struct fa_eth_l2 *l2, json_t **facts, char **why)
{
	struct dec d = { NULL, NULL, why, NULL };
	int r;

	*facts = NULL;
	if ((d.f = json_object()) == NULL ||
	    json_object_set_new(d.f, "tags", d.tags = json_array()) != 0 ||
	    set(d.f, "dst", addr_json(l2->dst)) != 0 ||
	    set(d.f, "src", addr_json(l2->src)) != 0) {
		json_decref(d.f);
		return FA_ERR_NOMEM;
	}
	if (l2->dst != NULL && !l2->cooked && is_isl(l2->dst))
		r = isl(&d, l2);
	else
		r = ethertype(&d, l2->p, l2->len, l2->cut, l2->cooked ?
		    MODE_COOKED : MODE_ETH);
	if (r == 0 && d.lie != NULL)
		r = fa_why(why, "%s", d.lie);
	if (r == FA_ERR_INPUT) {
		strip(d.f);
		*facts = d.f;
		return r;
	}
	if (r != 0) {
		json_decref(d.f);
		return r;
	}
	*facts = d.f;
	return 0;
}

int
fa_eth_decode(const uint8_t *b, size_t caplen, size_t wirelen,
    json_t **facts, char **why)
{
	struct fa_eth_l2 l2;

	*facts = NULL;
	if (caplen < 14)
		return fa_why(why, "frame of %zu bytes: shorter than an "
		    "Ethernet header", caplen);
	l2.dst = b;
	l2.src = b + 6;
	l2.p = b + 12;
	l2.len = caplen - 12;
	l2.cut = caplen < wirelen;
	l2.cooked = 0;
	return fa_eth_decode_l2(&l2, facts, why);
}
