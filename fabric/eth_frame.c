/*
 * Ethernet frame decoding (see eth_frame.h).  Layouts: IEEE 802.1Q-2018
 * 9.6 (tags); IEEE 802.1AB-2016 8 (LLDP TLVs, 802.1 organizational TLVs
 * Annex D); Cisco CDP/DTP/VTP over SNAP (OUI 00-00-0C, PIDs 0x2000,
 * 0x2004, 0x2003; PVST+ 0x010b); IEEE 802.1D-2004 9 (BPDUs); IEEE
 * 802.1AX-2014 6.4.2 (LACPDU); RFC 826 (ARP); RFC 2131/2132 (DHCP);
 * RFC 6762 (mDNS 5353), RFC 4795 (LLMNR 5355), RFC 1002 (NetBIOS 137),
 * UPnP SSDP (1900); InfiniBand Annex A17 (RoCEv2, UDP 4791, BTH); DMTF
 * ASF/RMCP (UDP 623).  Every string taken from a frame is sanitised.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/errors.h"
#include "../core/util.h"
#include "eth_frame.h"

#define LIST_MAX	32	/* addresses or VLAN names kept per frame */

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
lldp(const uint8_t *p, size_t len, json_t *f, char **why)
{
	size_t off = 0, n;
	unsigned type;
	const uint8_t *v;
	int r;

	if ((r = set(f, "signal", json_string("lldp"))) != 0)
		return r;
	while (off + 2 <= len) {
		type = be16(p + off) >> 9;
		n = be16(p + off) & 0x1ff;
		v = p + off + 2;
		if (off + 2 + n > len)
			return fa_why(why, "LLDP TLV %u at byte %zu runs past "
			    "the frame", type, off);
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
	return fa_why(why, "LLDP has no End TLV");
}

/* ---- Cisco SNAP: CDP, DTP, VTP ----------------------------------------- */

/* A CDP address list (count, then protocol type/len/protocol/len/addr). */
static int
cdp_addrs(const uint8_t *v, size_t n, json_t *f, char **why)
{
	size_t off = 4, plen, alen;
	uint32_t count, i;
	int r;

	if (n < 4)
		return fa_why(why, "CDP address list shorter than its count");
	count = be32(v);
	for (i = 0; i < count && i < LIST_MAX; i++) {
		if (off + 2 > n || off + 2 + (plen = v[off + 1]) + 2 > n)
			return fa_why(why, "CDP address %u runs past its TLV",
			    i);
		alen = be16(v + off + 2 + plen);
		if (off + 4 + plen + alen > n)
			return fa_why(why, "CDP address %u runs past its TLV",
			    i);
		r = 0;
		if (plen == 1 && v[off + 2] == 0xcc && alen == 4)
			r = append(f, "mgmt_addrs", ip_json(AF_INET,
			    v + off + 4 + plen));
		else if (plen == 8 && alen == 16)
			r = append(f, "mgmt_addrs", ip_json(AF_INET6,
			    v + off + 4 + plen));
		if (r != 0)
			return r;
		off += 4 + plen + alen;
	}
	return 0;
}

static int
cdp(const uint8_t *p, size_t len, json_t *f, char **why)
{
	size_t off = 4, n;	/* version, ttl, checksum */
	unsigned type;
	const uint8_t *v;
	int r;

	if ((r = set(f, "signal", json_string("cdp"))) != 0)
		return r;
	if (len < 4)
		return fa_why(why, "CDP header truncated");
	while (off + 4 <= len) {
		type = be16(p + off);
		n = be16(p + off + 2);
		if (n < 4 || off + n > len)
			return fa_why(why, "CDP TLV 0x%04x at byte %zu has a "
			    "bad length", type, off);
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
				r = set(f, "native_vlan", json_integer(be16(v)));
			break;
		case 0x0002:
		case 0x0016:
			r = cdp_addrs(v, n, f, why);
			break;
		}
		if (r != 0)
			return r;
	}
	return 0;
}

static int
dtp(const uint8_t *p, size_t len, json_t *f, char **why)
{
	size_t off = 1, n;	/* version */
	unsigned type, status = 0x100, admin;
	int r;

	if ((r = set(f, "signal", json_string("dtp"))) != 0)
		return r;
	while (off + 4 <= len) {
		type = be16(p + off);
		n = be16(p + off + 2);
		if (n < 4 || off + n > len)
			return fa_why(why, "DTP TLV 0x%04x at byte %zu has a "
			    "bad length", type, off);
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
		return fa_why(why, "DTP frame without a status TLV");
	/* Bit 7: operating trunk; bits 0-2: admin 3 desirable, 4 auto. */
	admin = status & 0x07;
	if ((r = set(f, "trunking", json_boolean(status & 0x80))) != 0)
		return r;
	return set(f, "negotiable", json_boolean(admin == 3 || admin == 4));
}

/* ---- STP / PVST+ ------------------------------------------------------- */

static json_t *
bridge_id(const uint8_t *b)
{
	return json_sprintf("%u.%02x:%02x:%02x:%02x:%02x:%02x",
	    (unsigned)(be16(b) & 0xf000), b[2], b[3], b[4], b[5], b[6], b[7]);
}

static int
stp(const uint8_t *p, size_t len, int pvst, json_t *f, char **why)
{
	int r;

	if ((r = set(f, "signal", json_string("stp"))) != 0 ||
	    (r = set(f, "pvst", json_boolean(pvst))) != 0)
		return r;
	if (len < 4 || be16(p) != 0)
		return fa_why(why, "not a BPDU (protocol identifier)");
	if ((r = set(f, "version", json_integer(p[2]))) != 0)
		return r;
	if (p[3] == 0x80)		/* TCN: no more fields */
		return 0;
	if (len < 35)
		return fa_why(why, "BPDU truncated (%zu bytes)", len);
	if ((r = set(f, "root", bridge_id(p + 5))) != 0 ||
	    (r = set(f, "bridge", bridge_id(p + 17))) != 0)
		return r;
	/* 802.1t: the 12 low bits of the priority carry the VLAN (PVST). */
	return set(f, "vlan", json_integer(be16(p + 17) & 0x0fff));
}

/* ---- LACP ---------------------------------------------------------------- */

static int
lacp(const uint8_t *p, size_t len, json_t *f, char **why)
{
	int r;

	if ((r = set(f, "signal", json_string("lacp"))) != 0)
		return r;
	/* subtype 1, version, actor TLV type 1 length 20 */
	if (len < 22 || p[0] != 1 || p[2] != 1 || p[3] != 20)
		return fa_why(why, "LACPDU without an actor TLV");
	if ((r = set(f, "actor_system", mac_json(p + 6))) != 0)
		return r;
	return set(f, "actor_key", json_integer(be16(p + 12)));
}

/* ---- ARP ----------------------------------------------------------------- */

static int
arp(const uint8_t *p, size_t len, json_t *f, char **why)
{
	int r;

	if ((r = set(f, "signal", json_string("arp"))) != 0)
		return r;
	if (len < 28)
		return fa_why(why, "ARP truncated (%zu bytes)", len);
	if (be16(p) != 1 || be16(p + 2) != 0x0800 || p[4] != 6 || p[5] != 4)
		return set(f, "op", json_integer(be16(p + 6)));
	if ((r = set(f, "op", json_integer(be16(p + 6)))) != 0 ||
	    (r = set(f, "sender_mac", mac_json(p + 8))) != 0 ||
	    (r = set(f, "sender_ip", ip_json(AF_INET, p + 14))) != 0)
		return r;
	return set(f, "target_ip", ip_json(AF_INET, p + 24));
}

/* ---- UDP payloads -------------------------------------------------------- */

/* DHCP (RFC 2131 section 2; options RFC 2132). */
static int
dhcp(const uint8_t *p, size_t len, json_t *f, char **why)
{
	size_t off = 240, n;
	unsigned opt;
	int r;

	if ((r = set(f, "signal", json_string("dhcp"))) != 0)
		return r;
	if (len < 240 || be32(p + 236) != 0x63825363)
		return fa_why(why, "DHCP without the magic cookie");
	if ((r = set(f, "op", json_integer(p[0]))) != 0 ||
	    (r = set(f, "client_mac", mac_json(p + 28))) != 0 ||
	    (r = set(f, "your_ip", ip_json(AF_INET, p + 16))) != 0 ||
	    (r = set(f, "relayed", json_boolean(be32(p + 24) != 0))) != 0)
		return r;
	if (p[108] != '\0' && (r = set(f, "bootfile", text_json(p + 108,
	    128))) != 0)
		return r;
	while (off < len && p[off] != 255) {
		if ((opt = p[off]) == 0) {
			off++;
			continue;
		}
		if (off + 2 > len || off + 2 + (n = p[off + 1]) > len)
			return fa_why(why, "DHCP option %u runs past the "
			    "frame", opt);
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
	return 0;
}

static int
udp(int af, const uint8_t *src, const uint8_t *dst, const uint8_t *p,
    size_t len, json_t *f, char **why)
{
	unsigned sport, dport;
	const char *name = NULL;
	int r;

	if (len < 8)
		return fa_why(why, "UDP header truncated");
	sport = be16(p);
	dport = be16(p + 2);
	p += 8;
	len -= 8;
	if ((r = set(f, "ip_src", ip_json(af, src))) != 0 ||
	    (r = set(f, "ip_dst", ip_json(af, dst))) != 0 ||
	    (r = set(f, "sport", json_integer(sport))) != 0 ||
	    (r = set(f, "dport", json_integer(dport))) != 0)
		return r;
	if (af == AF_INET && (sport == 67 || sport == 68) &&
	    (dport == 67 || dport == 68))
		return dhcp(p, len, f, why);
	if (dport == 4791) {
		if ((r = set(f, "signal", json_string("roce"))) != 0)
			return r;
		if (len < 12)
			return fa_why(why, "RoCEv2 BTH truncated");
		if ((r = set(f, "opcode", json_integer(p[0]))) != 0)
			return r;
		return set(f, "dest_qp", json_integer(be32(p + 4) &
		    0xffffff));
	}
	if (sport == 623 || dport == 623) {
		if ((r = set(f, "signal", json_string("rmcp"))) != 0)
			return r;
		if (len < 4 || p[0] != 0x06)
			return fa_why(why, "RMCP header invalid");
		return set(f, "class", json_integer(p[3]));
	}
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
	if ((r = set(f, "signal", json_string("name"))) != 0)
		return r;
	return set(f, "proto", json_string(name));
}

static int
ipv4(const uint8_t *p, size_t len, json_t *f, char **why)
{
	size_t hl, tot;

	if (len < 20 || p[0] >> 4 != 4 || (hl = (size_t)(p[0] & 0xf) * 4) <
	    20 || hl > len)
		return fa_why(why, "IPv4 header invalid or truncated");
	tot = be16(p + 2);
	if (tot < hl || tot > len)
		tot = len;	/* trailer or snap: use what is there */
	if (set(f, "signal", json_string("ipv4")) != 0)
		return FA_ERR_NOMEM;
	if ((be16(p + 6) & 0x1fff) != 0)	/* a later fragment */
		return 0;
	if (p[9] == 17)
		return udp(AF_INET, p + 12, p + 16, p + hl, tot - hl, f, why);
	return 0;
}

static int
ipv6(const uint8_t *p, size_t len, json_t *f, char **why)
{
	size_t plen;

	if (len < 40 || p[0] >> 4 != 6)
		return fa_why(why, "IPv6 header invalid or truncated");
	plen = be16(p + 4);
	if (plen > len - 40)
		plen = len - 40;
	if (set(f, "signal", json_string("ipv6")) != 0)
		return FA_ERR_NOMEM;
	if (p[6] == 17)		/* UDP directly after the fixed header */
		return udp(AF_INET6, p + 8, p + 24, p + 40, plen, f, why);
	/* ICMPv6 neighbour discovery, RFC 4861: RS 133 to redirect 137. */
	if (p[6] == 58 && plen >= 4 && p[40] >= 133 && p[40] <= 137) {
		if (set(f, "signal", json_string("nd")) != 0 ||
		    set(f, "type", json_integer(p[40])) != 0 ||
		    set(f, "ip_src", ip_json(AF_INET6, p + 8)) != 0)
			return FA_ERR_NOMEM;
	}
	return 0;
}

/* ---- the frame ----------------------------------------------------------- */

static const uint8_t cisco_mc[] = { 0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcc };
static const uint8_t pvst_mc[] = { 0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcd };

/* An 802.3 length frame: LLC, then SNAP for the Cisco protocols. */
static int
llc(const uint8_t *dst, const uint8_t *p, size_t len, json_t *f, char **why)
{
	unsigned pid;

	if (len >= 3 && p[0] == 0x42 && p[1] == 0x42 && p[2] == 0x03)
		return stp(p + 3, len - 3, 0, f, why);
	if (len < 8 || p[0] != 0xaa || p[1] != 0xaa || p[2] != 0x03)
		return set(f, "signal", json_string("other"));
	pid = be16(p + 6);
	if (p[3] != 0x00 || p[4] != 0x00 || p[5] != 0x0c)
		return set(f, "signal", json_string("other"));
	p += 8;
	len -= 8;
	if (pid == 0x2000 && memcmp(dst, cisco_mc, 6) == 0)
		return cdp(p, len, f, why);
	if (pid == 0x2004)
		return dtp(p, len, f, why);
	if (pid == 0x2003) {
		/* VTP: version, code, followers, domain length, domain */
		if (set(f, "signal", json_string("vtp")) != 0)
			return FA_ERR_NOMEM;
		if (len < 4 || (size_t)p[3] + 4 > len)
			return fa_why(why, "VTP header truncated");
		return set(f, "domain", text_json(p + 4, p[3]));
	}
	if (pid == 0x010b && memcmp(dst, pvst_mc, 6) == 0)
		return stp(p, len, 1, f, why);
	return set(f, "signal", json_string("other"));
}

int
fa_eth_decode(const uint8_t *b, size_t len, json_t **facts, char **why)
{
	json_t *f, *tags;
	size_t off = 12;
	unsigned type;
	int r;

	*facts = NULL;
	if (len < 14)
		return fa_why(why, "frame of %zu bytes: shorter than an "
		    "Ethernet header", len);
	if ((f = json_object()) == NULL || (tags = json_array()) == NULL ||
	    json_object_set_new(f, "tags", tags) != 0 ||
	    set(f, "dst", mac_json(b)) != 0 || set(f, "src", mac_json(b + 6)))
		goto nomem;
	for (;;) {
		if (off + 2 > len) {
			r = fa_why(why, "frame ends inside its tags");
			goto fail;
		}
		type = be16(b + off);
		if (type != 0x8100 && type != 0x88a8 && type != 0x9100 &&
		    type != 0x9200)
			break;
		if (off + 4 > len) {
			r = fa_why(why, "frame ends inside its tags");
			goto fail;
		}
		if (json_array_size(tags) >= FA_ETH_MAX_TAGS) {
			/* A tag stack no network uses: keep the VIDs read
			 * (a double-tagging attempt is a finding), stop. */
			if (set(f, "signal", json_string("tag-overflow")) != 0)
				goto nomem;
			*facts = f;
			return 0;
		}
		if (json_array_append_new(tags, json_pack("{s:o, s:i, s:i}",
		    "tpid", json_sprintf("0x%04x", type), "vid",
		    be16(b + off + 2) & 0x0fff, "pcp", b[off + 2] >> 5)) != 0)
			goto nomem;
		off += 4;
	}
	off += 2;
	if (type <= 1500)
		r = llc(b, b + off, type < len - off ? type : len - off, f,
		    why);
	else if (type == 0x88cc)
		r = lldp(b + off, len - off, f, why);
	else if (type == 0x8809)
		r = lacp(b + off, len - off, f, why);
	else if (type == 0x0806)
		r = arp(b + off, len - off, f, why);
	else if (type == 0x0800)
		r = ipv4(b + off, len - off, f, why);
	else if (type == 0x86dd)
		r = ipv6(b + off, len - off, f, why);
	else
		r = set(f, "signal", json_string("other"));
	if (r != 0)
		goto fail;
	*facts = f;
	return 0;
nomem:
	r = FA_ERR_NOMEM;
fail:
	json_decref(f);
	return r;
}

const char *
fa_eth_signal_guess(const uint8_t *b, size_t len)
{
	size_t off = 12;
	unsigned type, pid;
	int tags = 0;

	while (off + 2 <= len && tags++ <= FA_ETH_MAX_TAGS) {
		type = be16(b + off);
		if (type != 0x8100 && type != 0x88a8 && type != 0x9100 &&
		    type != 0x9200)
			break;
		off += 4;
	}
	if (off + 2 > len)
		return NULL;
	type = be16(b + off);
	off += 2;
	if (type == 0x88cc)
		return "lldp";
	if (type == 0x8809)
		return "lacp";
	if (type == 0x0806)
		return "arp";
	if (type > 1500 || off + 3 > len)
		return NULL;
	if (b[off] == 0x42 && b[off + 1] == 0x42)
		return "stp";
	if (off + 8 > len || b[off] != 0xaa || b[off + 3] != 0x00 ||
	    b[off + 4] != 0x00 || b[off + 5] != 0x0c)
		return NULL;
	pid = be16(b + off + 6);
	return pid == 0x2000 ? "cdp" : pid == 0x2004 ? "dtp" : pid == 0x2003 ?
	    "vtp" : pid == 0x010b ? "stp" : NULL;
}
