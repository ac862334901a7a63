/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mkcaptures: write the Ethernet test captures (test code, never
 * installed).  Each frame is built here byte by byte from the layouts cited
 * in fabric/eth_frame.c, so the captures test the decoder against the
 * standards rather than against itself.
 *
 *   mkcaptures DIR
 *
 * writes DIR/clean.pcap (the tenant's own chatter and a basic LLDP),
 * DIR/leaky.pcap (one frame per finding: foreign VLANs, a trunk, LLDP
 * with management address and VLAN names, CDP, DTP desirable, STP and
 * PVST+, a rogue DHCP offer with a boot file, a foreign host's ARP,
 * another tenant's RoCEv2, RMCP, LACP), DIR/malformed.pcap (truncated and
 * lying frames, plus one good ARP), DIR/empty.pcap (no frame),
 * DIR/raw.pcap (link type RAW, not Ethernet), DIR/cut.pcap (a file
 * cut inside a record), and for the switched test bed DIR/host-a.pcap
 * (untagged chatter of a host of the tenant's VLAN) and DIR/host-b.pcap
 * (untagged chatter of tenant B's host, in another VLAN).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

static const uint8_t BCAST[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t LLDP_MC[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };
static const uint8_t STP_MC[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 };
static const uint8_t LACP_MC[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x02 };
static const uint8_t CISCO_MC[6] = { 0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcc };
static const uint8_t PVST_MC[6] = { 0x01, 0x00, 0x0c, 0xcc, 0xcc, 0xcd };
static const uint8_t MDNS_MC[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0xfb };
static const uint8_t SWITCH[6] = { 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0x01 };
static const uint8_t TENANT[6] = { 0x02, 0x00, 0x00, 0x20, 0x00, 0x05 };
static const uint8_t FOREIGN[6] = { 0x02, 0x00, 0x00, 0x30, 0x00, 0x07 };
static const uint8_t OTHER[6] = { 0x02, 0x00, 0x00, 0x30, 0x00, 0x09 };

struct frame {
	uint8_t	 b[1600];
	size_t	 n;
};

static void
put(struct frame *f, const void *p, size_t n)
{
	if (f->n + n > sizeof(f->b))
		abort();
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
	u16(f, (unsigned)(v >> 16));
	u16(f, (unsigned)(v & 0xffff));
}

static void
ip4(struct frame *f, unsigned a, unsigned b, unsigned c, unsigned d)
{
	u8(f, a);
	u8(f, b);
	u8(f, c);
	u8(f, d);
}

/* Ethernet header with optional 802.1Q tags (vids[0] outer, 0-ended). */
static void
eth(struct frame *f, const uint8_t *dst, const uint8_t *src,
    const unsigned *vids, unsigned type)
{
	f->n = 0;
	put(f, dst, 6);
	put(f, src, 6);
	for (; vids != NULL && *vids != 0; vids++) {
		u16(f, 0x8100);
		u16(f, *vids);
	}
	u16(f, type);
}

static void
arp(struct frame *f, const uint8_t *mac, const unsigned *vids,
    const uint8_t sip[4], const uint8_t tip[4])
{
	eth(f, BCAST, mac, vids, 0x0806);
	u16(f, 1);
	u16(f, 0x0800);
	u8(f, 6);
	u8(f, 4);
	u16(f, 1);
	put(f, mac, 6);
	put(f, sip, 4);
	put(f, "\0\0\0\0\0\0", 6);
	put(f, tip, 4);
}

/* IPv4 + UDP header, then the payload; lengths patched at the end. */
static size_t
udp4(struct frame *f, const uint8_t *dst, const uint8_t *src,
    const uint8_t sip[4], const uint8_t dip[4], unsigned sport,
    unsigned dport)
{
	size_t ip;

	eth(f, dst, src, NULL, 0x0800);
	ip = f->n;
	u8(f, 0x45);
	u8(f, 0);
	u16(f, 0);		/* total length: patched */
	u16(f, 1);
	u16(f, 0);
	u8(f, 64);
	u8(f, 17);
	u16(f, 0);
	put(f, sip, 4);
	put(f, dip, 4);
	u16(f, sport);
	u16(f, dport);
	u16(f, 0);		/* UDP length: patched */
	u16(f, 0);
	return ip;
}

static void
udp4_done(struct frame *f, size_t ip)
{
	size_t tot = f->n - ip, ul = tot - 20;

	f->b[ip + 2] = (uint8_t)(tot >> 8);
	f->b[ip + 3] = (uint8_t)tot;
	f->b[ip + 24] = (uint8_t)(ul >> 8);
	f->b[ip + 25] = (uint8_t)ul;
}

static void
tlv(struct frame *f, unsigned type, const void *v, size_t n)
{
	u16(f, (type << 9) | (unsigned)n);
	put(f, v, n);
}

/* LLDP: chassis MAC, port name, TTL, then extras when rich. */
static void
lldp(struct frame *f, int rich)
{
	uint8_t v[64];

	eth(f, LLDP_MC, SWITCH, NULL, 0x88cc);
	v[0] = 4;
	memcpy(v + 1, SWITCH, 6);
	tlv(f, 1, v, 7);
	v[0] = 5;
	memcpy(v + 1, "Ethernet1/7", 11);
	tlv(f, 2, v, 12);
	tlv(f, 3, "\0\x78", 2);
	tlv(f, 5, "leaf-07", 7);
	if (rich) {
		/* hostile text: markup and a terminal escape */
		tlv(f, 6, "NOS 4.2.1 <script>\033[31m", 24);
		/* mgmt address: len 5 (subtype + IPv4), IPv4 10.0.0.2, ifindex */
		memcpy(v, "\x05\x01\x0a\x00\x00\x02\x02\x00\x00\x00\x07\x00", 12);
		tlv(f, 8, v, 12);
		memcpy(v, "\x00\x80\xc2\x01\x00\x78", 6);	/* PVID 120 */
		tlv(f, 127, v, 6);
		memcpy(v, "\x00\x80\xc2\x03\x00\x78\x06tenant", 13);
		tlv(f, 127, v, 13);
		memcpy(v, "\x00\x80\xc2\x03\x00\x1e\x04mgmt", 11);
		tlv(f, 127, v, 11);
	}
	tlv(f, 0, "", 0);
}

/* An 802.3 length frame with LLC/SNAP to a Cisco group address. */
static size_t
snap(struct frame *f, const uint8_t *dst, const unsigned *vids,
    unsigned pid)
{
	size_t len;

	eth(f, dst, SWITCH, vids, 0);
	len = f->n - 2;
	put(f, "\xaa\xaa\x03\x00\x00\x0c", 6);
	u16(f, pid);
	return len;
}

static void
snap_done(struct frame *f, size_t len)
{
	size_t n = f->n - len - 2;

	f->b[len] = (uint8_t)(n >> 8);
	f->b[len + 1] = (uint8_t)n;
}

static void
cdp(struct frame *f)
{
	size_t len = snap(f, CISCO_MC, NULL, 0x2000);

	u8(f, 2);
	u8(f, 180);
	u16(f, 0);
	u16(f, 0x0001);
	u16(f, 4 + 7);
	put(f, "leaf-07", 7);
	u16(f, 0x0006);
	u16(f, 4 + 9);
	put(f, "N9K-C9364", 9);
	u16(f, 0x000a);
	u16(f, 6);
	u16(f, 1);		/* native VLAN 1 */
	u16(f, 0x0016);		/* mgmt addresses: one IPv4 */
	u16(f, 4 + 4 + 2 + 1 + 2 + 4);
	u32(f, 1);
	u8(f, 1);
	u8(f, 1);
	u8(f, 0xcc);
	u16(f, 4);
	ip4(f, 10, 0, 0, 2);
	snap_done(f, len);
}

static void
dtp(struct frame *f, unsigned status)
{
	size_t len = snap(f, CISCO_MC, NULL, 0x2004);

	u8(f, 1);
	u16(f, 0x0001);
	u16(f, 4 + 5);
	put(f, "corp\0", 5);
	u16(f, 0x0002);
	u16(f, 5);
	u8(f, status);
	u16(f, 0x0003);
	u16(f, 5);
	u8(f, 0xa5);
	u16(f, 0x0004);
	u16(f, 10);
	put(f, SWITCH, 6);
	snap_done(f, len);
}

/* VTP summary advertisement: version 2, code 1, domain "corp". */
static void
vtp(struct frame *f)
{
	size_t len = snap(f, CISCO_MC, NULL, 0x2003);

	u8(f, 2);
	u8(f, 1);
	u8(f, 0);
	u8(f, 4);
	put(f, "corp", 4);
	while (f->n < len + 2 + 8 + 4 + 32)
		u8(f, 0);
	u32(f, 7);		/* configuration revision */
	ip4(f, 10, 0, 0, 2);	/* updater identity */
	put(f, "261202223000", 12);	/* update timestamp */
	put(f, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);	/* MD5 */
	snap_done(f, len);
}

/* An SSDP NOTIFY from a BMC-like foreign host. */
static void
ssdp(struct frame *f)
{
	static const uint8_t s[4] = { 10, 0, 0, 5 }, d[4] = { 239, 255, 255,
	    250 };
	static const char msg[] = "NOTIFY * HTTP/1.1\r\nHOST: "
	    "239.255.255.250:1900\r\nLOCATION: http://10.0.0.5/desc.xml\r\n"
	    "SERVER: BMC/1.0 UPnP/1.0\r\n\r\n";
	size_t ip = udp4(f, (const uint8_t *)"\x01\x00\x5e\x7f\xff\xfa",
	    FOREIGN, s, d, 1900, 1900);

	put(f, msg, sizeof(msg) - 1);
	udp4_done(f, ip);
}

/* A configuration BPDU body (35 bytes); prio carries the VLAN (802.1t). */
static void
bpdu(struct frame *f, unsigned prio)
{
	u16(f, 0);
	u8(f, 0);
	u8(f, 0);
	u8(f, 0);
	u16(f, prio);
	put(f, SWITCH, 6);
	u32(f, 0);
	u16(f, prio);
	put(f, SWITCH, 6);
	u16(f, 0x8007);
	u16(f, 0);
	u16(f, 20 * 256);
	u16(f, 2 * 256);
	u16(f, 15 * 256);
}

static void
stp(struct frame *f)
{
	size_t len;

	eth(f, STP_MC, SWITCH, NULL, 0);
	len = f->n - 2;
	put(f, "\x42\x42\x03", 3);
	bpdu(f, 0x8000);
	snap_done(f, len);
}

static void
pvst(struct frame *f, unsigned vid)
{
	unsigned vids[2] = { vid, 0 };
	size_t len = snap(f, PVST_MC, vids, 0x010b);

	bpdu(f, 0x8000 | vid);
	snap_done(f, len);
}

static void
lacp(struct frame *f)
{
	eth(f, LACP_MC, SWITCH, NULL, 0x8809);
	u8(f, 1);
	u8(f, 1);
	u8(f, 1);
	u8(f, 20);
	u16(f, 32768);
	put(f, SWITCH, 6);
	u16(f, 13);
	u16(f, 32768);
	u16(f, 7);
	u8(f, 0x3d);
	put(f, "\0\0\0", 3);
	u8(f, 2);		/* partner: nobody yet */
	u8(f, 20);
	put(f, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 18);
	u8(f, 3);		/* collector */
	u8(f, 16);
	put(f, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 14);
	u8(f, 0);		/* terminator, then 50 reserved bytes */
	u8(f, 0);
	while (f->n < 14 + 110)
		u8(f, 0);
}

static void
dhcp_offer(struct frame *f, const uint8_t sip[4], int boot)
{
	static const uint8_t yi[4] = { 10, 20, 0, 77 };
	uint8_t zero[236];
	size_t ip = udp4(f, BCAST, FOREIGN, sip, (const uint8_t *)"\xff\xff"
	    "\xff\xff", 67, 68);
	size_t bootp = f->n;

	memset(zero, 0, sizeof(zero));
	put(f, zero, sizeof(zero));
	f->b[bootp] = 2;	/* op: reply */
	f->b[bootp + 1] = 1;
	f->b[bootp + 2] = 6;
	memcpy(f->b + bootp + 16, yi, 4);
	memcpy(f->b + bootp + 28, TENANT, 6);
	if (boot)
		memcpy(f->b + bootp + 108, "pxelinux.0", 10);
	u32(f, 0x63825363);
	put(f, "\x35\x01\x02", 3);
	u8(f, 54);
	u8(f, 4);
	put(f, sip, 4);
	if (boot) {
		u8(f, 66);
		u8(f, 8);
		put(f, "10.0.0.9", 8);
	}
	u8(f, 255);
	udp4_done(f, ip);
}

static void
roce(struct frame *f)
{
	static const uint8_t s[4] = { 10, 30, 0, 7 }, d[4] = { 10, 30, 0, 9 };
	size_t ip = udp4(f, OTHER, FOREIGN, s, d, 49152, 4791);

	u8(f, 0x0a);		/* RDMA WRITE only */
	u8(f, 0x40);
	u16(f, 0xffff);
	u32(f, 0x000011);
	u32(f, 0x00000042);
	put(f, "\x00\x00\x7f\x00\x10\x00\x00\x00\x12\x34\x56\x78\0\0\0\x40",
	    16);
	u32(f, 0);
	udp4_done(f, ip);
}

static void
rmcp(struct frame *f)
{
	static const uint8_t s[4] = { 10, 0, 0, 5 }, d[4] = { 10, 20, 0, 5 };
	size_t ip = udp4(f, TENANT, FOREIGN, s, d, 623, 623);

	put(f, "\x06\x00\xff\x06\x00\x00\x11\xbe\x40\x00\x00\x10", 12);
	udp4_done(f, ip);
}

static void
mdns(struct frame *f, const uint8_t *mac, const uint8_t sip[4])
{
	size_t ip = udp4(f, MDNS_MC, mac, sip, (const uint8_t *)"\xe0\0\0\xfb",
	    5353, 5353);

	put(f, "\0\0\x84\0\0\0\0\x01\0\0\0\0", 12);
	udp4_done(f, ip);
}

static pcap_dumper_t *
open_dump(pcap_t **pd, const char *dir, const char *name, int dlt)
{
	char path[1024];
	pcap_dumper_t *d;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	*pd = pcap_open_dead(dlt, 65535);
	if (*pd == NULL || (d = pcap_dump_open(*pd, path)) == NULL) {
		fprintf(stderr, "mkcaptures: %s: cannot write\n", path);
		exit(1);
	}
	return d;
}

static void
dump(pcap_dumper_t *d, const struct frame *f, size_t wirelen)
{
	struct pcap_pkthdr h;

	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = 1796200000;
	h.caplen = (bpf_u_int32)f->n;
	h.len = (bpf_u_int32)(wirelen > f->n ? wirelen : f->n);
	pcap_dump((u_char *)d, &h, f->b);
}

static void
done(pcap_t *pd, pcap_dumper_t *d)
{
	pcap_dump_close(d);
	pcap_close(pd);
}

int
main(int argc, char **argv)
{
	static const uint8_t t5[4] = { 10, 20, 0, 5 }, t1[4] = { 10, 20, 0, 1 };
	static const uint8_t f7[4] = { 10, 30, 0, 7 }, rogue[4] = { 10, 20, 0,
	    250 };
	static const unsigned v120[] = { 120, 0 }, v30[] = { 30, 0 },
	    v40[] = { 40, 0 };
	pcap_dumper_t *d;
	struct frame f;
	pcap_t *pd;
	FILE *fp;
	char path[1024];

	if (argc != 2) {
		fprintf(stderr, "usage: mkcaptures DIR\n");
		return 2;
	}
	d = open_dump(&pd, argv[1], "clean.pcap", DLT_EN10MB);
	arp(&f, TENANT, NULL, t5, t1);
	dump(d, &f, 0);
	mdns(&f, TENANT, t5);
	dump(d, &f, 0);
	lldp(&f, 0);
	dump(d, &f, 0);
	arp(&f, TENANT, v120, t5, t1);		/* the tenant's own VLAN */
	dump(d, &f, 0);
	dhcp_offer(&f, t1, 0);			/* the listed server */
	dump(d, &f, 0);
	done(pd, d);

	d = open_dump(&pd, argv[1], "leaky.pcap", DLT_EN10MB);
	arp(&f, TENANT, NULL, t5, t1);
	dump(d, &f, 0);
	arp(&f, FOREIGN, v30, f7, t1);		/* VLAN 30, foreign subnet */
	dump(d, &f, 0);
	arp(&f, FOREIGN, v40, f7, t1);
	dump(d, &f, 0);
	lldp(&f, 1);
	dump(d, &f, 0);
	cdp(&f);
	dump(d, &f, 0);
	dtp(&f, 0x03);				/* access, desirable */
	dump(d, &f, 0);
	stp(&f);
	dump(d, &f, 0);
	pvst(&f, 30);
	dump(d, &f, 0);
	pvst(&f, 40);
	dump(d, &f, 0);
	dhcp_offer(&f, rogue, 1);
	dump(d, &f, 0);
	roce(&f);
	dump(d, &f, 0);
	rmcp(&f);
	dump(d, &f, 0);
	vtp(&f);
	dump(d, &f, 0);
	ssdp(&f);
	dump(d, &f, 0);
	lacp(&f);
	dump(d, &f, 0);
	dump(d, &f, 4000);			/* captured short */
	done(pd, d);

	d = open_dump(&pd, argv[1], "malformed.pcap", DLT_EN10MB);
	arp(&f, TENANT, NULL, t5, t1);		/* the one good frame */
	dump(d, &f, 0);
	f.n = 10;				/* shorter than a header */
	dump(d, &f, 0);
	lldp(&f, 1);
	f.n -= 8;				/* LLDP cut inside a TLV */
	dump(d, &f, 0);
	cdp(&f);
	f.b[28] = 0xff;				/* CDP TLV length past end */
	f.b[29] = 0xff;
	dump(d, &f, 0);
	dhcp_offer(&f, rogue, 0);
	f.b[14 + 28 + 236] = 0;			/* no magic cookie */
	dump(d, &f, 0);
	{
		static const unsigned nine[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9,
		    0 };

		arp(&f, FOREIGN, nine, f7, t1);	/* nine tags */
		dump(d, &f, 0);
	}
	arp(&f, TENANT, NULL, t5, t1);
	f.b[12] = 0x08;				/* IPv4 with a bad header */
	f.b[13] = 0x00;
	f.b[14] = 0x4f;
	dump(d, &f, 0);
	done(pd, d);

	d = open_dump(&pd, argv[1], "host-a.pcap", DLT_EN10MB);
	{
		static const uint8_t a9[4] = { 10, 20, 0, 9 };

		arp(&f, TENANT, NULL, a9, t1);
		dump(d, &f, 0);
		mdns(&f, TENANT, a9);
		dump(d, &f, 0);
	}
	done(pd, d);

	d = open_dump(&pd, argv[1], "host-b.pcap", DLT_EN10MB);
	arp(&f, FOREIGN, NULL, f7, t1);
	dump(d, &f, 0);
	mdns(&f, FOREIGN, f7);
	dump(d, &f, 0);
	done(pd, d);

	/* Twenty truncated ARP frames: more garbage than the examples kept. */
	d = open_dump(&pd, argv[1], "garbage.pcap", DLT_EN10MB);
	for (int i = 0; i < 20; i++) {
		arp(&f, FOREIGN, NULL, f7, t1);
		f.n = 20;
		dump(d, &f, 0);
	}
	done(pd, d);

	d = open_dump(&pd, argv[1], "empty.pcap", DLT_EN10MB);
	done(pd, d);

	d = open_dump(&pd, argv[1], "raw.pcap", DLT_RAW);
	f.n = 20;
	memset(f.b, 0x45, 20);
	dump(d, &f, 0);
	done(pd, d);

	/* leaky.pcap cut in the middle of its fourth record. */
	snprintf(path, sizeof(path), "%s/leaky.pcap", argv[1]);
	if ((fp = fopen(path, "rb")) != NULL) {
		size_t n = fread(f.b, 1, 200, fp);
		FILE *out;

		fclose(fp);
		snprintf(path, sizeof(path), "%s/cut.pcap", argv[1]);
		if ((out = fopen(path, "wb")) == NULL ||
		    fwrite(f.b, 1, n, out) != n || fclose(out) != 0) {
			fprintf(stderr, "mkcaptures: %s: cannot write\n", path);
			return 1;
		}
	}
	return 0;
}
