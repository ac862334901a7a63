/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sendraw: send Ethernet frames out of an interface through an AF_PACKET
 * raw socket, as a switch or another party of the segment would (test
 * code, never installed).  tests/eth/test_realtools.sh uses it for the
 * frames no tool of the test machine sends: the switch's own protocols,
 * 802.1Q-tagged frames of other VLANs, a rogue DHCP server, a router
 * advertisement.
 *
 *   sendraw [-n COUNT] IFACE FRAME...
 *
 * Each FRAME is sent in order, the whole list COUNT times (default 1),
 * 20 ms apart.  A FRAME is hexadecimal bytes (':', '.', '-' may separate
 * them), or one built here by name from the layouts of the standards:
 *
 *   tagged:VID       802.1Q tag VID (IEEE 802.1Q-2018 9.6), then an IPv4
 *                    UDP datagram of another tenant (10.30.0.7 to
 *                    10.30.0.255, port 5000, 200 bytes of payload)
 *   dtp              Cisco DTP, status access/desirable (would negotiate)
 *   stp              IEEE 802.1D-2004 9.3.1 configuration BPDU
 *   pvst:VID         Cisco PVST+ BPDU of VLAN VID, tagged with VID
 *   cdp              Cisco CDP version 2: device ID, port ID, software
 *                    version, platform, native VLAN
 *   lldp:IPV4        IEEE 802.1AB-2016 8.5 LLDPDU of a switch (bridge and
 *                    router capabilities) with management address IPV4
 *   dhcp-offer:SRC:SID  RFC 2131 DHCPOFFER broadcast from SRC, with the
 *                    server identifier option 54 (RFC 2132 9.7) SID
 *   ra:PREFIX        RFC 4861 4.2 router advertisement from a link-local
 *                    address to ff02::1, with a prefix information option
 *                    (4.6.2) for PREFIX/64, on-link and autonomous
 *
 * Exit status 0 when every frame was sent, 1 on a send error, 2 on a bad
 * argument.
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct frame {
	uint8_t	 b[1600];
	size_t	 n;
};

static const uint8_t BCAST[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t SWITCH[6] = { 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01 };
static const uint8_t CISCO_MC[6] = { 0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcc };
static const uint8_t PVST_MC[6] = { 0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcd };
static const uint8_t STP_MC[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 };
static const uint8_t LLDP_MC[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };
static const uint8_t ALLNODES_MC[6] = { 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t TENANT_B[6] = { 0x02, 0x00, 0x00, 0x30, 0x00, 0x07 };
static const uint8_t DHCP_SRV[6] = { 0x02, 0x00, 0x00, 0xd4, 0xc0, 0x01 };
static const uint8_t CLIENT[6] = { 0x02, 0x00, 0x00, 0x20, 0x00, 0x4d };
static const uint8_t ROUTER[6] = { 0x02, 0x00, 0x00, 0x0d, 0xba, 0xd1 };

static void
put(struct frame *f, const void *p, size_t n)
{
	if (f->n + n > sizeof(f->b)) {
		fprintf(stderr, "sendraw: frame too long\n");
		exit(2);
	}
	memcpy(f->b + f->n, p, n);
	f->n += n;
}

static void
u8(struct frame *f, unsigned v)
{
	uint8_t b = (uint8_t)v;

	put(f, &b, 1);
}

static void
u16(struct frame *f, unsigned v)
{
	u8(f, v >> 8);
	u8(f, v);
}

static void
u32(struct frame *f, unsigned long v)
{
	u16(f, (unsigned)(v >> 16) & 0xffff);
	u16(f, (unsigned)v & 0xffff);
}

static void
set16(struct frame *f, size_t at, unsigned v)
{
	f->b[at] = (uint8_t)(v >> 8);
	f->b[at + 1] = (uint8_t)v;
}

/* The ones' complement sum of RFC 1071, folded, not yet inverted. */
static uint32_t
sum16(uint32_t s, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

static unsigned
cksum(uint32_t s, const uint8_t *p, size_t n)
{
	return ~sum16(s, p, n) & 0xffff;
}

static void
eth(struct frame *f, const uint8_t *dst, const uint8_t *src, unsigned vid,
    unsigned type)
{
	f->n = 0;
	put(f, dst, 6);
	put(f, src, 6);
	if (vid != 0) {
		u16(f, 0x8100);
		u16(f, vid);
	}
	u16(f, type);
}

/* An 802.3 length field, LLC/SNAP with Cisco's OUI and pid; returns the
 * offset of the length field (patched by llc_done). */
static size_t
cisco_snap(struct frame *f, const uint8_t *dst, unsigned vid, unsigned pid)
{
	size_t len;

	eth(f, dst, SWITCH, vid, 0);
	len = f->n - 2;
	put(f, "\xaa\xaa\x03\x00\x00\x0c", 6);
	u16(f, pid);
	return len;
}

static void
llc_done(struct frame *f, size_t len)
{
	set16(f, len, (unsigned)(f->n - len - 2));
}

static int
ip4_arg(const char *s, uint8_t a[4])
{
	return inet_pton(AF_INET, s, a) == 1 ? 0 : -1;
}

/* IPv4 + UDP headers; returns the IPv4 header's offset (udp_done). */
static size_t
udp4(struct frame *f, const uint8_t sip[4], const uint8_t dip[4],
    unsigned sport, unsigned dport)
{
	size_t ip = f->n;

	u8(f, 0x45);
	u8(f, 0);
	u16(f, 0);
	u16(f, 0x1234);
	u16(f, 0);
	u8(f, 64);
	u8(f, 17);
	u16(f, 0);
	put(f, sip, 4);
	put(f, dip, 4);
	u16(f, sport);
	u16(f, dport);
	u16(f, 0);
	u16(f, 0);
	return ip;
}

static void
udp_done(struct frame *f, size_t ip)
{
	size_t tot = f->n - ip, ul = tot - 20;
	uint32_t s;

	set16(f, ip + 2, (unsigned)tot);
	set16(f, ip + 24, (unsigned)ul);
	set16(f, ip + 10, cksum(0, f->b + ip, 20));
	/* The pseudo-header of RFC 768. */
	s = sum16(0, f->b + ip + 12, 8);
	s += 17 + (uint32_t)ul;
	s = cksum(s, f->b + ip + 20, ul);
	set16(f, ip + 26, s != 0 ? s : 0xffff);	/* 0 means none */
}

static void
tagged(struct frame *f, unsigned vid)
{
	static const uint8_t s[4] = { 10, 30, 0, 7 }, d[4] = { 10, 30, 0, 255 };
	size_t ip, i;

	eth(f, BCAST, TENANT_B, vid, 0x0800);
	ip = udp4(f, s, d, 5000, 5000);
	for (i = 0; i < 200; i++)
		u8(f, 'a' + i % 26);
	udp_done(f, ip);
}

static void
dtp(struct frame *f)
{
	size_t len = cisco_snap(f, CISCO_MC, 0, 0x2004);

	u8(f, 1);			/* version */
	u16(f, 0x0001);			/* domain, NUL-terminated */
	u16(f, 4 + 5);
	put(f, "corp", 5);
	u16(f, 0x0002);			/* status: access, desirable */
	u16(f, 4 + 1);
	u8(f, 0x03);
	u16(f, 0x0003);			/* type: 802.1Q */
	u16(f, 4 + 1);
	u8(f, 0xa5);
	u16(f, 0x0004);			/* neighbour */
	u16(f, 4 + 6);
	put(f, SWITCH, 6);
	llc_done(f, len);
}

/* The 35 bytes of a configuration BPDU; bridge priority prio. */
static void
bpdu(struct frame *f, unsigned prio)
{
	u16(f, 0);			/* protocol identifier */
	u8(f, 0);			/* version */
	u8(f, 0);			/* type: configuration */
	u8(f, 0);			/* flags */
	u16(f, prio);			/* root identifier */
	put(f, SWITCH, 6);
	u32(f, 0);			/* root path cost */
	u16(f, prio);			/* bridge identifier */
	put(f, SWITCH, 6);
	u16(f, 0x8007);			/* port identifier */
	u16(f, 0);			/* message age, max age, hello, delay */
	u16(f, 20 * 256);
	u16(f, 2 * 256);
	u16(f, 15 * 256);
}

static void
stp(struct frame *f)
{
	size_t len;

	eth(f, STP_MC, SWITCH, 0, 0);
	len = f->n - 2;
	put(f, "\x42\x42\x03", 3);
	bpdu(f, 0x8000);
	llc_done(f, len);
}

static void
pvst(struct frame *f, unsigned vid)
{
	size_t len = cisco_snap(f, PVST_MC, vid, 0x010b);

	bpdu(f, 0x8000 | vid);		/* 802.1t: the VLAN in the priority */
	u8(f, 0);			/* Cisco's pad: the TLVs start at 36 */
	u16(f, 0);			/* PVID TLV: type 0, length 2 */
	u16(f, 2);
	u16(f, vid);
	llc_done(f, len);
}

static void
cdp_tlv(struct frame *f, unsigned type, const char *s)
{
	u16(f, type);
	u16(f, 4 + (unsigned)strlen(s));
	put(f, s, strlen(s));
}

static void
cdp(struct frame *f)
{
	size_t len = cisco_snap(f, CISCO_MC, 0, 0x2000), pdu = f->n;

	u8(f, 2);			/* version */
	u8(f, 180);			/* TTL */
	u16(f, 0);			/* checksum: below */
	cdp_tlv(f, 0x0001, "leaf-07");
	cdp_tlv(f, 0x0003, "Ethernet1/7");
	u16(f, 0x0004);			/* capabilities: router, switch */
	u16(f, 8);
	u32(f, 0x00000009);
	cdp_tlv(f, 0x0005, "Cisco Nexus Operating System (NX-OS) 9.3(8)");
	cdp_tlv(f, 0x0006, "N9K-C93180YC-EX");
	u16(f, 0x000a);			/* native VLAN */
	u16(f, 6);
	u16(f, 1);
	set16(f, pdu + 2, cksum(0, f->b + pdu, f->n - pdu));
	llc_done(f, len);
}

static void
lldp_tlv(struct frame *f, unsigned type, const void *v, size_t n)
{
	u16(f, type << 9 | (unsigned)n);
	put(f, v, n);
}

static void
lldp(struct frame *f, const uint8_t mgmt[4])
{
	uint8_t v[32];

	eth(f, LLDP_MC, SWITCH, 0, 0x88cc);
	v[0] = 4;			/* chassis ID: MAC address */
	memcpy(v + 1, SWITCH, 6);
	lldp_tlv(f, 1, v, 7);
	v[0] = 5;			/* port ID: interface name */
	memcpy(v + 1, "Ethernet1/7", 11);
	lldp_tlv(f, 2, v, 12);
	lldp_tlv(f, 3, "\x00\x78", 2);	/* TTL 120 s */
	lldp_tlv(f, 5, "leaf-07", 7);	/* system name */
	/* system capabilities: bridge and router; bridge enabled */
	lldp_tlv(f, 7, "\x00\x14\x00\x04", 4);
	/* management address: length 5, IPv4, ifIndex numbering, 0, no OID */
	v[0] = 5;
	v[1] = 1;
	memcpy(v + 2, mgmt, 4);
	memcpy(v + 6, "\x02\x00\x00\x00\x00\x00", 6);
	lldp_tlv(f, 8, v, 12);
	lldp_tlv(f, 0, "", 0);
}

static void
dhcp_offer(struct frame *f, const uint8_t src[4], const uint8_t sid[4])
{
	static const uint8_t yi[4] = { 10, 20, 0, 77 };
	uint8_t z[236];
	size_t ip, bootp;

	eth(f, BCAST, DHCP_SRV, 0, 0x0800);
	ip = udp4(f, src, (const uint8_t *)"\xff\xff\xff\xff", 67, 68);
	bootp = f->n;
	memset(z, 0, sizeof(z));
	put(f, z, sizeof(z));
	f->b[bootp] = 2;		/* op: BOOTREPLY */
	f->b[bootp + 1] = 1;		/* htype: Ethernet */
	f->b[bootp + 2] = 6;		/* hlen */
	memcpy(f->b + bootp + 4, "\x5e\xc1\x4a\x01", 4);	/* xid */
	memcpy(f->b + bootp + 16, yi, 4);			/* yiaddr */
	memcpy(f->b + bootp + 28, CLIENT, 6);			/* chaddr */
	u32(f, 0x63825363);		/* magic cookie */
	put(f, "\x35\x01\x02", 3);	/* message type: DHCPOFFER */
	u8(f, 54);			/* server identifier */
	u8(f, 4);
	put(f, sid, 4);
	put(f, "\x33\x04\x00\x00\x0e\x10", 6);		/* lease 3600 s */
	put(f, "\x01\x04\xff\xff\x00\x00", 6);		/* mask /16 */
	u8(f, 255);
	udp_done(f, ip);
}

static void
ra(struct frame *f, const uint8_t pfx[16])
{
	static const uint8_t src[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00,
	    0x00, 0x00, 0xff, 0xfe, 0x0d, 0xba, 0xd1 };
	static const uint8_t dst[16] = { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 0, 0, 0, 1 };
	size_t ip6, icmp, n;
	uint32_t s;

	eth(f, ALLNODES_MC, ROUTER, 0, 0x86dd);
	ip6 = f->n;
	u32(f, 0x60000000);
	u16(f, 0);			/* payload length: below */
	u8(f, 58);			/* ICMPv6 */
	u8(f, 255);			/* hop limit 255 (RFC 4861 6.1.2) */
	put(f, src, 16);
	put(f, dst, 16);
	icmp = f->n;
	u8(f, 134);
	u8(f, 0);
	u16(f, 0);			/* checksum: below */
	u8(f, 64);			/* current hop limit */
	u8(f, 0);			/* flags */
	u16(f, 1800);			/* router lifetime */
	u32(f, 0);			/* reachable time */
	u32(f, 0);			/* retrans timer */
	u8(f, 1);			/* source link-layer address */
	u8(f, 1);
	put(f, ROUTER, 6);
	u8(f, 3);			/* prefix information, 32 bytes */
	u8(f, 4);
	u8(f, 64);			/* prefix length */
	u8(f, 0xc0);			/* on-link, autonomous */
	u32(f, 86400);			/* valid lifetime */
	u32(f, 14400);			/* preferred lifetime */
	u32(f, 0);
	put(f, pfx, 16);
	n = f->n - icmp;
	set16(f, ip6 + 4, (unsigned)n);
	/* The pseudo-header of RFC 8200 8.1. */
	s = sum16(0, f->b + ip6 + 8, 32);
	s += (uint32_t)n + 58;
	set16(f, icmp + 2, cksum(s, f->b + icmp, n));
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int
hex(struct frame *f, const char *s)
{
	int hi = -1, v;

	f->n = 0;
	for (; *s != '\0'; s++) {
		if (*s == ':' || *s == '.' || *s == '-' || *s == ' ')
			continue;
		if ((v = hexval((unsigned char)*s)) < 0)
			return -1;
		if (hi < 0)
			hi = v;
		else {
			u8(f, (unsigned)(hi << 4 | v));
			hi = -1;
		}
	}
	return hi < 0 && f->n >= 14 ? 0 : -1;
}

static int
vid_arg(const char *s, unsigned *vid)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 1 || v > 4094)
		return -1;
	*vid = (unsigned)v;
	return 0;
}

/* Build the frame a FRAME argument names into f; -1 when it is bad. */
static int
build(struct frame *f, const char *arg)
{
	char buf[128], *a1, *a2 = NULL;
	uint8_t x[4], y[4], p6[16];
	unsigned vid;

	if (snprintf(buf, sizeof(buf), "%s", arg) >= (int)sizeof(buf))
		return -1;
	a1 = strchr(buf, ':');
	if (a1 != NULL)
		*a1++ = '\0';
	/* Only dhcp-offer has two arguments; an IPv6 prefix has colons. */
	if (a1 != NULL && strcmp(buf, "dhcp-offer") == 0)
		a2 = strchr(a1, ':');
	if (strcmp(buf, "tagged") == 0 && a1 != NULL &&
	    vid_arg(a1, &vid) == 0)
		tagged(f, vid);
	else if (strcmp(buf, "pvst") == 0 && a1 != NULL &&
	    vid_arg(a1, &vid) == 0)
		pvst(f, vid);
	else if (strcmp(arg, "dtp") == 0)
		dtp(f);
	else if (strcmp(arg, "stp") == 0)
		stp(f);
	else if (strcmp(arg, "cdp") == 0)
		cdp(f);
	else if (strcmp(buf, "lldp") == 0 && a1 != NULL &&
	    ip4_arg(a1, x) == 0)
		lldp(f, x);
	else if (strcmp(buf, "dhcp-offer") == 0 && a2 != NULL) {
		*a2++ = '\0';
		if (ip4_arg(a1, x) != 0 || ip4_arg(a2, y) != 0)
			return -1;
		dhcp_offer(f, x, y);
	} else if (strcmp(buf, "ra") == 0 && a1 != NULL &&
	    inet_pton(AF_INET6, a1, p6) == 1)
		ra(f, p6);
	else
		return hex(f, arg);
	return 0;
}

int
main(int argc, char **argv)
{
	struct sockaddr_ll sll;
	struct timespec gap = { 0, 20 * 1000 * 1000 };
	struct frame f;
	long count = 1, r;
	int c, fd, i, sent = 0;
	char *end;

	while ((c = getopt(argc, argv, "n:")) != -1) {
		if (c != 'n')
			goto usage;
		count = strtol(optarg, &end, 10);
		if (*end != '\0' || count < 1 || count > 100000)
			goto usage;
	}
	if (argc - optind < 2)
		goto usage;
	/* Every frame is checked before the first is sent. */
	for (i = optind + 1; i < argc; i++)
		if (build(&f, argv[i]) != 0) {
			fprintf(stderr, "sendraw: bad frame '%s'\n", argv[i]);
			return 2;
		}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_halen = 6;
	if ((sll.sll_ifindex = (int)if_nametoindex(argv[optind])) == 0) {
		fprintf(stderr, "sendraw: %s: %s\n", argv[optind],
		    strerror(errno));
		return 1;
	}
	if ((fd = socket(AF_PACKET, SOCK_RAW, 0)) < 0) {
		fprintf(stderr, "sendraw: socket: %s\n", strerror(errno));
		return 1;
	}
	for (r = 0; r < count; r++)
		for (i = optind + 1; i < argc; i++) {
			build(&f, argv[i]);
			memcpy(sll.sll_addr, f.b, 6);
			if (sendto(fd, f.b, f.n, 0, (struct sockaddr *)&sll,
			    sizeof(sll)) != (ssize_t)f.n) {
				fprintf(stderr, "sendraw: %s: frame %d: %s\n",
				    argv[optind], sent + 1, strerror(errno));
				close(fd);
				return 1;
			}
			sent++;
			nanosleep(&gap, NULL);
		}
	close(fd);
	printf("sendraw: %d frames sent on %s\n", sent, argv[optind]);
	return 0;
usage:
	fprintf(stderr, "usage: sendraw [-n COUNT] IFACE FRAME...\n");
	return 2;
}
