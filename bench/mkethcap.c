/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mkethcap: writes a large classic pcap (Ethernet, little-endian,
 * microsecond time stamps) of a busy cluster segment for bench/ethbench.sh:
 *
 *   mkethcap [-n frames] file
 *
 * 10,000,000 frames by default.  The segment: 2,000 hosts of the tenant
 * (10.20.0.0/16, MAC 02:20:00:00:hh:hh) talking IPv4 UDP and TCP, about
 * two thirds of it untagged and one third tagged with the tenant's VLAN
 * 120; about 5 % ARP requests and replies between them; a switch's LLDP
 * (basic TLVs only) every 100,000 frames and an STP BPDU every 20,000; 16
 * frames of foreign VLAN 300 spread over the file; one DHCP offer from
 * rogue server 10.99.0.1 (with its server identifier, option 54) at 90 %
 * of the file.  Frame sizes 60 to 1,514 bytes, mostly small (the mean is
 * about 200).  A fixed seed: the same file every time.  Prints the frame
 * and byte counts on standard output.  Bench code, never installed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NHOSTS		2000
#define FRAME_MAX	1514
#define LLDP_EVERY	100000
#define STP_EVERY	20000
#define FOREIGN_FRAMES	16

struct frame {
	uint8_t	 b[FRAME_MAX];
	size_t	 n;
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void
put(struct frame *f, const void *p, size_t n)
{
	memcpy(f->b + f->n, p, n);
	f->n += n;
}

static void
u8(struct frame *f, unsigned v)
{
	f->b[f->n++] = (uint8_t)v;
}

static void
u16(struct frame *f, unsigned v)
{
	u8(f, v >> 8);
	u8(f, v);
}

static void
u32(struct frame *f, uint32_t v)
{
	u16(f, v >> 16);
	u16(f, v & 0xffff);
}

static void
host_mac(uint8_t m[6], unsigned h)
{
	static const uint8_t base[6] = { 0x02, 0x20, 0, 0, 0, 0 };

	memcpy(m, base, 6);
	m[4] = (uint8_t)(h >> 8);
	m[5] = (uint8_t)h;
}

static uint32_t
host_ip(unsigned h)
{
	return (10u << 24) | (20u << 16) | ((h / 250) << 8) | (h % 250 + 1);
}

static void
eth(struct frame *f, const uint8_t dst[6], const uint8_t src[6],
    unsigned vid, unsigned type)
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

static unsigned
csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

/* IPv4 header + UDP or TCP header + len bytes of payload. */
static void
ip4(struct frame *f, uint32_t src, uint32_t dst, int tcp, unsigned sport,
    unsigned dport, size_t len)
{
	size_t ip = f->n, l4 = tcp ? 20 : 8, tot = 20 + l4 + len;
	unsigned c;

	u8(f, 0x45);
	u8(f, 0);
	u16(f, (unsigned)tot);
	u16(f, rnd() & 0xffff);
	u16(f, 0x4000);
	u8(f, 64);
	u8(f, tcp ? 6 : 17);
	u16(f, 0);
	u32(f, src);
	u32(f, dst);
	c = csum(f->b + ip, 20);
	f->b[ip + 10] = (uint8_t)(c >> 8);
	f->b[ip + 11] = (uint8_t)c;
	u16(f, sport);
	u16(f, dport);
	if (tcp) {
		u32(f, rnd());
		u32(f, rnd());
		u16(f, 0x5010);		/* header 20 bytes, ACK */
		u16(f, 501);
		u16(f, 0);		/* checksum not computed */
		u16(f, 0);
	} else {
		u16(f, (unsigned)(8 + len));
		u16(f, 0);		/* no checksum (RFC 768) */
	}
	memset(f->b + f->n, 0x5a, len);
	f->n += len;
}

static size_t
payload_len(int vlan)
{
	uint32_t r = rnd() % 100;
	size_t max = FRAME_MAX - 14 - (vlan ? 4 : 0) - 20 - 20;

	if (r < 70)
		return 6 + rnd() % 120;		/* small: RPCs, ACKs */
	if (r < 95)
		return 120 + rnd() % 400;
	return max - rnd() % 64;		/* full-size */
}

static void
traffic(struct frame *f)
{
	uint8_t sm[6], dm[6];
	unsigned a = rnd() % NHOSTS, b = rnd() % NHOSTS;
	unsigned vid = rnd() % 3 == 0 ? 120 : 0;
	int tcp = rnd() % 2;

	host_mac(sm, a);
	host_mac(dm, b);
	eth(f, dm, sm, vid, 0x0800);
	ip4(f, host_ip(a), host_ip(b), tcp, 32768 + rnd() % 28000,
	    tcp ? 443 : 9000 + rnd() % 16, payload_len(vid != 0));
}

static void
arp(struct frame *f)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	    zero[6];
	uint8_t sm[6], dm[6];
	unsigned a = rnd() % NHOSTS, b = rnd() % NHOSTS;
	int reply = rnd() % 2;

	host_mac(sm, a);
	host_mac(dm, b);
	eth(f, reply ? dm : bc, sm, 0, 0x0806);
	u16(f, 1);
	u16(f, 0x0800);
	u8(f, 6);
	u8(f, 4);
	u16(f, reply ? 2 : 1);
	put(f, sm, 6);
	u32(f, host_ip(a));
	put(f, reply ? dm : zero, 6);
	u32(f, host_ip(b));
	while (f->n < 60)
		u8(f, 0);
}

static const uint8_t SWITCH[6] = { 0x00, 0x1b, 0x54, 0xaa, 0xbb, 0x07 };

static void
tlv(struct frame *f, unsigned type, const void *v, size_t n)
{
	u16(f, type << 9 | (unsigned)n);
	put(f, v, n);
}

/* A switch's LLDP with the mandatory TLVs only: no disclosure. */
static void
lldp(struct frame *f)
{
	static const uint8_t mc[6] = { 0x01, 0x80, 0xc2, 0, 0, 0x0e };
	uint8_t chassis[7] = { 4 };
	static const uint8_t ttl[2] = { 0, 120 };

	memcpy(chassis + 1, SWITCH, 6);
	eth(f, mc, SWITCH, 0, 0x88cc);
	tlv(f, 1, chassis, sizeof(chassis));
	tlv(f, 2, "\x05" "Ethernet1/7", 12);
	tlv(f, 3, ttl, 2);
	tlv(f, 0, "", 0);
	while (f->n < 60)
		u8(f, 0);
}

/* An 802.1D configuration BPDU (802.3 length, LLC 42-42-03). */
static void
stp(struct frame *f)
{
	static const uint8_t mc[6] = { 0x01, 0x80, 0xc2, 0, 0, 0 };

	f->n = 0;
	put(f, mc, 6);
	put(f, SWITCH, 6);
	u16(f, 3 + 35);
	put(f, "\x42\x42\x03", 3);
	u16(f, 0);
	u8(f, 0);
	u8(f, 0);
	u8(f, 0);
	u16(f, 0x8000);
	put(f, SWITCH, 6);
	u32(f, 0);
	u16(f, 0x8000);
	put(f, SWITCH, 6);
	u16(f, 0x8007);
	u16(f, 0);
	u16(f, 20 * 256);
	u16(f, 2 * 256);
	u16(f, 15 * 256);
	while (f->n < 60)
		u8(f, 0);
}

/* Another tenant's host in VLAN 300. */
static void
foreign(struct frame *f)
{
	static const uint8_t src[6] = { 0x02, 0x77, 0, 0, 0, 0x05 },
	    dst[6] = { 0x02, 0x77, 0, 0, 0, 0x06 };

	eth(f, dst, src, 300, 0x0800);
	ip4(f, 0xc0a84d05, 0xc0a84d06, 0, 40000, 40000, 64);
}

/* A DHCP offer from rogue server 10.99.0.1, with option 54. */
static void
dhcp_offer(struct frame *f)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	    src[6] = { 0x02, 0x99, 0, 0, 0, 0x01 };
	const uint32_t server = 0x0a630001;
	size_t bootp, udp;
	unsigned len;

	eth(f, bc, src, 0, 0x0800);
	udp = f->n + 20;
	ip4(f, server, 0xffffffff, 0, 67, 68, 236 + 4 + 3 + 6 + 1);
	bootp = udp + 8;
	memset(f->b + bootp, 0, 236);
	f->b[bootp] = 2;
	f->b[bootp + 1] = 1;
	f->b[bootp + 2] = 6;
	f->b[bootp + 16] = 10;		/* yiaddr 10.20.0.77 */
	f->b[bootp + 17] = 20;
	f->b[bootp + 19] = 77;
	f->n = bootp + 236;
	u32(f, 0x63825363);
	put(f, "\x35\x01\x02", 3);
	u8(f, 54);
	u8(f, 4);
	u32(f, server);
	u8(f, 255);
	len = (unsigned)(f->n - udp);
	f->b[udp + 4] = (uint8_t)(len >> 8);
	f->b[udp + 5] = (uint8_t)len;
}

static int
le32(FILE *fp, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 24) };

	return fwrite(b, 1, 4, fp) == 4 ? 0 : -1;
}

static int
le16(FILE *fp, unsigned v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	return fwrite(b, 1, 2, fp) == 2 ? 0 : -1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: mkethcap [-n frames] file\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	static struct frame f;
	static char buf[1 << 20];
	unsigned long long n = 10000000, i, bytes = 24, rogue, step;
	uint64_t us = 1764000000ull * 1000000;
	FILE *fp;
	char *end;
	int ch;

	while ((ch = getopt(argc, argv, "n:")) != -1) {
		switch (ch) {
		case 'n':
			errno = 0;
			n = strtoull(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || n < 1000)
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	if ((fp = fopen(argv[optind], "wb")) == NULL) {
		fprintf(stderr, "mkethcap: %s: %s\n", argv[optind],
		    strerror(errno));
		return 1;
	}
	setvbuf(fp, buf, _IOFBF, sizeof(buf));
	if (le32(fp, 0xa1b2c3d4) || le16(fp, 2) || le16(fp, 4) ||
	    le32(fp, 0) || le32(fp, 0) || le32(fp, 65535) || le32(fp, 1))
		goto fail;
	rogue = n / 10 * 9;
	step = n / (FOREIGN_FRAMES + 1);
	for (i = 0; i < n; i++) {
		if (i == rogue)
			dhcp_offer(&f);
		else if (i % step == step / 2 && i / step < FOREIGN_FRAMES)
			foreign(&f);
		else if (i % LLDP_EVERY == 1)
			lldp(&f);
		else if (i % STP_EVERY == 2)
			stp(&f);
		else if (rnd() % 100 < 5)
			arp(&f);
		else
			traffic(&f);
		us += 2 + rnd() % 16;
		if (le32(fp, (uint32_t)(us / 1000000)) ||
		    le32(fp, (uint32_t)(us % 1000000)) ||
		    le32(fp, (uint32_t)f.n) || le32(fp, (uint32_t)f.n) ||
		    fwrite(f.b, 1, f.n, fp) != f.n)
			goto fail;
		bytes += 16 + f.n;
	}
	if (fclose(fp) != 0) {
		fp = NULL;
		goto fail;
	}
	printf("%llu frames, %llu bytes\n", n, bytes);
	return 0;
fail:
	fprintf(stderr, "mkethcap: %s: %s\n", argv[optind], strerror(errno));
	if (fp != NULL)
		fclose(fp);
	return 1;
}
